package io.agni.testsupport;

/**
 * Redis's glob matching ({@code stringmatchlen} in {@code util.c}), case-sensitive, for the {@link HeapStore}.
 */
final class Glob
{
    private Glob()
    {
    }

    static boolean matches(final byte[] pattern, final byte[] string)
    {
        return matches(pattern, 0, string, 0);
    }

    private static boolean matches(final byte[] p, int pi, final byte[] s, int si)
    {
        while (pi < p.length && si <= s.length)
        {
            switch (p[pi])
            {
                case '*':
                    while (pi + 1 < p.length && p[pi + 1] == '*')
                    {
                        pi++;
                    }
                    if (pi + 1 == p.length)
                    {
                        return true;
                    }
                    for (int start = si; start <= s.length; start++)
                    {
                        if (matches(p, pi + 1, s, start))
                        {
                            return true;
                        }
                    }
                    return false;
                case '?':
                    if (si == s.length)
                    {
                        return false;
                    }
                    si++;
                    break;
                case '[':
                {
                    if (si == s.length)
                    {
                        return false;
                    }
                    pi++;
                    final boolean not = pi < p.length && p[pi] == '^';
                    if (not)
                    {
                        pi++;
                    }
                    boolean match = false;
                    while (pi < p.length && p[pi] != ']')
                    {
                        if (p[pi] == '\\' && pi + 1 < p.length)
                        {
                            pi++;
                            match |= p[pi] == s[si];
                        }
                        else if (pi + 2 < p.length && p[pi + 1] == '-')
                        {
                            int lo = p[pi] & 0xff;
                            int hi = p[pi + 2] & 0xff;
                            if (lo > hi)
                            {
                                final int t = lo;
                                lo = hi;
                                hi = t;
                            }
                            final int c = s[si] & 0xff;
                            match |= c >= lo && c <= hi;
                            pi += 2;
                        }
                        else
                        {
                            match |= p[pi] == s[si];
                        }
                        pi++;
                    }
                    if (not)
                    {
                        match = !match;
                    }
                    if (!match)
                    {
                        return false;
                    }
                    si++;
                    break;
                }
                case '\\':
                    if (pi + 1 < p.length)
                    {
                        pi++;
                    }
                    if (si == s.length || p[pi] != s[si])
                    {
                        return false;
                    }
                    si++;
                    break;
                default:
                    if (si == s.length || p[pi] != s[si])
                    {
                        return false;
                    }
                    si++;
                    break;
            }
            pi++;
        }
        return pi == p.length && si == s.length;
    }
}
