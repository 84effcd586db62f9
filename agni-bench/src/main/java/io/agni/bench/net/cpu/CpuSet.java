package io.agni.bench.net.cpu;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A set of CPU numbers, as Linux writes them in {@code /proc/self/status} ({@code Cpus_allowed_list}) and as
 * {@code taskset -c} takes them: {@code 0-3,6,8-9}.
 *
 * <p>Immutable.
 */
public final class CpuSet
{
    private static final int MAX_CPU = 65_535;

    private final BitSet cpus;

    private CpuSet(final BitSet cpus)
    {
        this.cpus = (BitSet)cpus.clone();
    }

    /**
     * Parses a CPU list.
     *
     * @param text {@code N}, {@code N-M} or several of them separated by commas; spaces are ignored.
     * @return the set.
     * @throws IllegalArgumentException if the text is not a CPU list, a range is backwards, or the set is empty.
     */
    public static CpuSet parse(final String text)
    {
        final BitSet cpus = new BitSet();
        final String trimmed = text == null ? "" : text.replace(" ", "").replace("\t", "");
        if (trimmed.isEmpty())
        {
            throw new IllegalArgumentException("empty CPU list (expected e.g. 0, 0-1 or 0,2-3)");
        }
        for (final String part : trimmed.split(",", -1))
        {
            final int dash = part.indexOf('-');
            final int first = number(dash < 0 ? part : part.substring(0, dash), text);
            final int last = dash < 0 ? first : number(part.substring(dash + 1), text);
            if (last < first)
            {
                throw new IllegalArgumentException("backwards CPU range " + part + " in: " + text);
            }
            cpus.set(first, last + 1);
        }
        return new CpuSet(cpus);
    }

    /**
     * @param cpus CPU numbers.
     * @return the set of them.
     * @throws IllegalArgumentException if there are none or one is negative.
     */
    public static CpuSet of(final int... cpus)
    {
        final BitSet set = new BitSet();
        for (final int cpu : cpus)
        {
            if (cpu < 0 || cpu > MAX_CPU)
            {
                throw new IllegalArgumentException("not a CPU number: " + cpu);
            }
            set.set(cpu);
        }
        if (set.isEmpty())
        {
            throw new IllegalArgumentException("a CPU set needs at least one CPU");
        }
        return new CpuSet(set);
    }

    /**
     * @return the number of CPUs in the set.
     */
    public int size()
    {
        return cpus.cardinality();
    }

    /**
     * @param cpu a CPU number.
     * @return true if the set holds it.
     */
    public boolean contains(final int cpu)
    {
        return cpu >= 0 && cpus.get(cpu);
    }

    /**
     * @return the CPU numbers, ascending.
     */
    public int[] toArray()
    {
        return cpus.stream().toArray();
    }

    /**
     * @param other another set.
     * @return true if no CPU is in both.
     */
    public boolean disjoint(final CpuSet other)
    {
        return !cpus.intersects(other.cpus);
    }

    /**
     * @param other another set.
     * @return true if every CPU of this set is in the other.
     */
    public boolean within(final CpuSet other)
    {
        final BitSet rest = (BitSet)cpus.clone();
        rest.andNot(other.cpus);
        return rest.isEmpty();
    }

    /**
     * @param other CPUs to leave out.
     * @return this set without them, or null if none is left.
     */
    public CpuSet minus(final CpuSet other)
    {
        final BitSet rest = (BitSet)cpus.clone();
        rest.andNot(other.cpus);
        return rest.isEmpty() ? null : new CpuSet(rest);
    }

    /**
     * @param count how many, 1 to {@link #size()}.
     * @return the {@code count} highest-numbered CPUs of the set.
     */
    public CpuSet last(final int count)
    {
        if (count < 1 || count > size())
        {
            throw new IllegalArgumentException("cannot take " + count + " of " + size() + " CPUs");
        }
        final int[] all = toArray();
        final BitSet taken = new BitSet();
        for (int i = all.length - count; i < all.length; i++)
        {
            taken.set(all[i]);
        }
        return new CpuSet(taken);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof CpuSet set && set.cpus.equals(cpus);
    }

    @Override
    public int hashCode()
    {
        return cpus.hashCode();
    }

    /**
     * @return the set as a CPU list with ranges, e.g. {@code 0-3,6}: what {@code taskset -c} takes.
     */
    @Override
    public String toString()
    {
        final List<String> parts = new ArrayList<>();
        int start = cpus.nextSetBit(0);
        while (start >= 0)
        {
            final int end = cpus.nextClearBit(start) - 1;
            parts.add(start == end ? Integer.toString(start) : start + "-" + end);
            start = cpus.nextSetBit(end + 1);
        }
        return String.join(",", parts);
    }

    private static int number(final String digits, final String text)
    {
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(Character::isDigit))
        {
            throw new IllegalArgumentException("not a CPU list (expected e.g. 0, 0-1 or 0,2-3): " + text);
        }
        final int cpu = Integer.parseInt(digits);
        if (cpu > MAX_CPU)
        {
            throw new IllegalArgumentException("CPU number too large: " + cpu + " in " + text);
        }
        return cpu;
    }
}
