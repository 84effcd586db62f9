package io.agni.store.scan;

import org.agrona.DirectBuffer;

/**
 * Redis's glob matching ({@code stringmatchlen} in {@code util.c}) over bytes: {@code *}, {@code ?},
 * {@code [abc]}, {@code [^abc]}, {@code [a-z]} and {@code \} to escape. Allocates nothing. As Redis does, a
 * failed {@code *} match stops the whole match early, so that hostile patterns cannot take exponential time, and
 * a pattern that nests more than {@link #MAX_NESTING} {@code *} groups deep matches nothing, so that one cannot
 * overflow the stack.
 */
public final class GlobMatcher
{
    /**
     * The deepest {@code *} recursion followed, as Redis's {@code stringmatchlen}: deeper, the match fails.
     */
    public static final int MAX_NESTING = 1000;

    private static final int NO_MATCH = 0;
    private static final int MATCH = 1;
    private static final int NO_MATCH_SKIP_LONGER = 2;

    private GlobMatcher()
    {
    }

    /**
     * Whether {@code pattern} matches the whole of the string.
     *
     * @param pattern the glob pattern.
     * @param string  the buffer holding the string.
     * @param offset  where the string starts.
     * @param length  its length.
     * @return {@code true} on a match.
     */
    public static boolean matches(final byte[] pattern, final DirectBuffer string, final int offset, final int length)
    {
        return match(pattern, 0, string, offset, offset + length, 0) == MATCH;
    }

    /**
     * @return {@link #MATCH}, {@link #NO_MATCH}, or {@link #NO_MATCH_SKIP_LONGER} when the rest of the pattern
     * matched nowhere in the rest of the string, so no earlier {@code *} needs to try a longer substring.
     */
    private static int match(
        final byte[] p, final int pStart, final DirectBuffer s, final int sStart, final int sEnd, final int nesting)
    {
        if (nesting > MAX_NESTING)
        {
            return NO_MATCH;
        }
        int pi = pStart;
        int si = sStart;
        final int pEnd = p.length;
        while (pi < pEnd && si < sEnd)
        {
            switch (p[pi])
            {
                case '*':
                    while (pi + 1 < pEnd && p[pi + 1] == '*')
                    {
                        pi++;
                    }
                    if (pi + 1 == pEnd)
                    {
                        return MATCH;
                    }
                    while (si < sEnd)
                    {
                        final int rest = match(p, pi + 1, s, si, sEnd, nesting + 1);
                        if (rest != NO_MATCH)
                        {
                            return rest;
                        }
                        si++;
                    }
                    return NO_MATCH_SKIP_LONGER;
                case '?':
                    si++;
                    break;
                case '[':
                {
                    pi++;
                    final boolean not = pi < pEnd && p[pi] == '^';
                    if (not)
                    {
                        pi++;
                    }
                    boolean found = false;
                    final int c = s.getByte(si) & 0xFF;
                    while (true)
                    {
                        if (pi < pEnd && p[pi] == '\\' && pi + 1 < pEnd)
                        {
                            pi++;
                            if ((p[pi] & 0xFF) == c)
                            {
                                found = true;
                            }
                        }
                        else if (pi >= pEnd)
                        {
                            pi--;
                            break;
                        }
                        else if (p[pi] == ']')
                        {
                            break;
                        }
                        else if (pi + 2 < pEnd && p[pi + 1] == '-')
                        {
                            int start = p[pi] & 0xFF;
                            int end = p[pi + 2] & 0xFF;
                            if (start > end)
                            {
                                final int t = start;
                                start = end;
                                end = t;
                            }
                            pi += 2;
                            if (c >= start && c <= end)
                            {
                                found = true;
                            }
                        }
                        else if ((p[pi] & 0xFF) == c)
                        {
                            found = true;
                        }
                        pi++;
                    }
                    if (not)
                    {
                        found = !found;
                    }
                    if (!found)
                    {
                        return NO_MATCH;
                    }
                    si++;
                    break;
                }
                case '\\':
                    if (pi + 1 < pEnd)
                    {
                        pi++;
                    }
                    if (p[pi] != s.getByte(si))
                    {
                        return NO_MATCH;
                    }
                    si++;
                    break;
                default:
                    if (p[pi] != s.getByte(si))
                    {
                        return NO_MATCH;
                    }
                    si++;
                    break;
            }
            pi++;
        }
        while (pi < pEnd && p[pi] == '*')
        {
            pi++;
        }
        return pi == pEnd && si == sEnd ? MATCH : NO_MATCH;
    }
}
