package io.agni.protocol;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The arguments of one command: zero-copy views of {@code (offset, length)} ranges of one buffer.
 *
 * <h2>Lifetime</h2>
 * A {@code RespArgs} handed out by {@link RespDecoder} is a flyweight: it and the views it describes are valid only
 * inside the listener call that received it. A handler that needs an argument later copies it ({@link #copy(int)}).
 *
 * <h2>Threads</h2>
 * Not thread-safe; one per connection.
 */
public final class RespArgs
{
    private static final int INITIAL_CAPACITY = 16;
    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    /**
     * Argument arrays larger than this (32 KiB of heap for the two) are given back by {@link #trim()}.
     */
    static final int RETAINED_CAPACITY = 4096;

    private DirectBuffer buffer;
    private int count;
    private int[] offsets = new int[INITIAL_CAPACITY];
    private int[] lengths = new int[INITIAL_CAPACITY];

    /**
     * Empty arguments, to be filled by a decoder.
     */
    public RespArgs()
    {
    }

    /**
     * Arguments built from byte arrays, copied into one heap buffer: for tests and tools, not for the hot path.
     *
     * @param args the arguments, the command name first.
     * @return the arguments as one flyweight.
     */
    public static RespArgs of(final byte[]... args)
    {
        int total = 0;
        for (final byte[] arg : args)
        {
            total += arg.length;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[Math.max(1, total)]);
        final RespArgs result = new RespArgs();
        result.wrap(buffer);
        int offset = 0;
        for (final byte[] arg : args)
        {
            buffer.putBytes(offset, arg);
            result.add(offset, arg.length);
            offset += arg.length;
        }
        return result;
    }

    /**
     * Arguments built from strings encoded as UTF-8: for tests and tools, not for the hot path.
     *
     * @param args the arguments, the command name first.
     * @return the arguments as one flyweight.
     */
    public static RespArgs of(final String... args)
    {
        final byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            bytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return of(bytes);
    }

    /**
     * Starts a new command over a buffer, with no arguments yet.
     *
     * @param buffer the buffer that holds the argument bytes.
     */
    public void wrap(final DirectBuffer buffer)
    {
        this.buffer = buffer;
        this.count = 0;
    }

    /**
     * Appends an argument.
     *
     * @param offset where the argument starts in {@link #buffer()}.
     * @param length its length in bytes.
     */
    public void add(final int offset, final int length)
    {
        if (count == offsets.length)
        {
            grow();
        }
        offsets[count] = offset;
        lengths[count] = length;
        count++;
    }

    /**
     * Returns the argument arrays to their first size if a command grew them past {@link #RETAINED_CAPACITY}
     * arguments, so that one command with many arguments does not pin its arrays for the life of a connection.
     * Only between commands: the arguments are forgotten.
     */
    void trim()
    {
        count = 0;
        if (offsets.length > RETAINED_CAPACITY)
        {
            offsets = new int[INITIAL_CAPACITY];
            lengths = new int[INITIAL_CAPACITY];
        }
    }

    private void grow()
    {
        final int capacity = count < MAX_CAPACITY >> 1 ? count << 1 : MAX_CAPACITY;
        if (capacity == count)
        {
            throw new IllegalStateException("too many arguments: count=" + count + ", limit=" + MAX_CAPACITY);
        }
        offsets = Arrays.copyOf(offsets, capacity);
        lengths = Arrays.copyOf(lengths, capacity);
    }

    /**
     * Points the arguments, added with offsets relative to {@code base}, at their absolute place in {@code buffer}:
     * the decoder records a partial command relative to its start, which may move between reads.
     *
     * @param buffer the buffer that now holds the argument bytes.
     * @param base   where the command starts in {@code buffer}.
     */
    void rebase(final DirectBuffer buffer, final int base)
    {
        this.buffer = buffer;
        final int[] offsets = this.offsets;
        for (int i = 0, count = this.count; i < count; i++)
        {
            offsets[i] += base;
        }
    }

    /**
     * @return how many arguments fit before the arrays grow; the decoder counts them in its reserved memory.
     */
    int capacity()
    {
        return offsets.length;
    }

    /**
     * Returns the number of arguments, the command name included.
     *
     * @return the number of arguments, the command name included.
     */
    public int count()
    {
        return count;
    }

    /**
     * Returns the buffer the arguments are views of.
     *
     * @return the buffer the arguments are views of.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Returns where the argument starts in {@link #buffer()}.
     *
     * @param index the argument's index, 0 for the command name.
     * @return where the argument starts in {@link #buffer()}.
     */
    public int offset(final int index)
    {
        checkIndex(index);
        return offsets[index];
    }

    /**
     * Returns the argument's length in bytes.
     *
     * @param index the argument's index, 0 for the command name.
     * @return the argument's length in bytes.
     */
    public int length(final int index)
    {
        checkIndex(index);
        return lengths[index];
    }

    /**
     * Returns the argument's byte at {@code position}.
     *
     * @param index    the argument's index.
     * @param position the position within the argument.
     * @return the argument's byte at {@code position}.
     */
    public byte byteAt(final int index, final int position)
    {
        checkIndex(index);
        if (position < 0 || position >= lengths[index])
        {
            throw new IndexOutOfBoundsException("position=" + position + ", length=" + lengths[index]);
        }
        return buffer.getByte(offsets[index] + position);
    }

    /**
     * Compares an argument with an ASCII word, ignoring the case of ASCII letters; allocates nothing.
     *
     * @param index          the argument's index.
     * @param upperCaseAscii the word, in upper case ASCII (e.g. {@code "PX"} as bytes).
     * @return whether the argument is that word in any case.
     */
    public boolean equalsIgnoreCase(final int index, final byte[] upperCaseAscii)
    {
        checkIndex(index);
        final int length = lengths[index];
        if (length != upperCaseAscii.length)
        {
            return false;
        }
        final DirectBuffer buffer = this.buffer;
        final int offset = offsets[index];
        for (int i = 0; i < length; i++)
        {
            int b = buffer.getByte(offset + i);
            if (b >= 'a' && b <= 'z')
            {
                b -= 'a' - 'A';
            }
            if (b != upperCaseAscii[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns a copy of the argument's bytes.
     *
     * @param index the argument's index.
     * @return a copy of the argument's bytes.
     */
    public byte[] copy(final int index)
    {
        checkIndex(index);
        final byte[] bytes = new byte[lengths[index]];
        buffer.getBytes(offsets[index], bytes);
        return bytes;
    }

    /**
     * Returns the argument decoded as UTF-8, for error messages and tools; never on the hot path.
     *
     * @param index the argument's index.
     * @return the argument decoded as UTF-8, for error messages and tools; never on the hot path.
     */
    public String asString(final int index)
    {
        return new String(copy(index), StandardCharsets.UTF_8);
    }

    private void checkIndex(final int index)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException("index=" + index + ", count=" + count);
        }
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("RespArgs[");
        for (int i = 0; i < count; i++)
        {
            sb.append(i == 0 ? "" : " ").append('\'').append(asString(i)).append('\'');
        }
        return sb.append(']').toString();
    }
}
