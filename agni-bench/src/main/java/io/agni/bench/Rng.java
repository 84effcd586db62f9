package io.agni.bench;

/**
 * A cheap per-thread random source for choosing keys: SplitMix64, one add and a few shifts and multiplies per
 * number, no allocation, no sharing. Not thread-safe: one instance per benchmark thread.
 */
final class Rng
{
    private long state;

    Rng(final long seed)
    {
        state = seed;
    }

    /**
     * The next 64 random bits.
     */
    long next()
    {
        long z = (state += 0x9e3779b97f4a7c15L);
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * Maps the high 32 bits of a random number to {@code [0, bound)} by multiplication (Lemire), leaving the low
     * bits free for another choice.
     */
    static int index(final long random, final int bound)
    {
        return (int)(((random >>> 32) * bound) >>> 32);
    }

    /**
     * The finaliser of MurmurHash3's 64-bit hash: a bijection on {@code long}, so distinct inputs stay distinct (as
     * {@code KeySet} makes its keys).
     */
    static long mix(final long value)
    {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
