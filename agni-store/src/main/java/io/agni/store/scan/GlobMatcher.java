package io.agni.store.scan;

import org.agrona.DirectBuffer;

/**
 * Redis's glob matching ({@code stringmatchlen} in {@code util.c}) over bytes: {@code *}, {@code ?},
 * {@code [abc]}, {@code [^abc]}, {@code [a-z]} and {@code \} to escape. Allocates nothing; recursion depth is
 * bounded by the number of {@code *} in the pattern, and, as Redis does, a failed {@code *} match stops the
 * whole match early so that hostile patterns cannot take exponential time.
 */
public final class GlobMatcher
{
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
        final boolean[] skipLonger = new boolean[1];
        return match(pattern, 0, string, offset, offset + length, skipLonger);
    }

    private static boolean match(
        final byte[] p, final int pStart, final DirectBuffer s, final int sStart, final int sEnd,
        final boolean[] skipLonger)
    {
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
                        return true;
                    }
                    while (si < sEnd)
                    {
                        if (match(p, pi + 1, s, si, sEnd, skipLonger))
                        {
                            return true;
                        }
                        if (skipLonger[0])
                        {
                            return false;
                        }
                        si++;
                    }
                    skipLonger[0] = true;
                    return false;
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
                        return false;
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
                        return false;
                    }
                    si++;
                    break;
                default:
                    if (p[pi] != s.getByte(si))
                    {
                        return false;
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
        return pi == pEnd && si == sEnd;
    }
}
