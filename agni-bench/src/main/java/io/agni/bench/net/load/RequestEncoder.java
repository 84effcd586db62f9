package io.agni.bench.net.load;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes GET and SET requests as RESP arrays of bulk strings, from templates encoded once: a request is one bulk copy
 * of its template and the key's decimal digits written over a fixed place in it.
 *
 * <h2>Keys and values</h2>
 * Keys are {@code key:} and twelve decimal digits ({@code key:000000000042}), 16 bytes, exactly the keys
 * {@code redis-benchmark -r N} makes, so both tools touch the same entries of a server; GETs that must miss use
 * {@code mis:} and twelve digits instead. Values are {@code valueSize} bytes of {@code x}, as redis-benchmark's.
 *
 * <h2>Threads</h2>
 * Immutable after construction; any thread.
 */
public final class RequestEncoder
{
    /**
     * Decimal digits in every key.
     */
    public static final int KEY_DIGITS = 12;

    /**
     * Key indexes must be below this.
     */
    public static final long MAX_KEYS = 1_000_000_000_000L;

    private static final String KEY_PREFIX = "key:";
    private static final String MISS_PREFIX = "mis:";

    private final byte[] set;
    private final byte[] get;
    private final byte[] getMiss;
    private final int setKeyOffset;
    private final int getKeyOffset;

    /**
     * Encodes the templates.
     *
     * @param valueSize bytes in every SET value, 0 or more.
     */
    public RequestEncoder(final int valueSize)
    {
        if (valueSize < 0)
        {
            throw new IllegalArgumentException("value size must not be negative: valueSize=" + valueSize);
        }
        final byte[] value = new byte[valueSize];
        Arrays.fill(value, (byte)'x');
        final String zeros = "0".repeat(KEY_DIGITS);
        set = command(bytes("SET"), bytes(KEY_PREFIX + zeros), value);
        get = command(bytes("GET"), bytes(KEY_PREFIX + zeros));
        getMiss = command(bytes("GET"), bytes(MISS_PREFIX + zeros));
        setKeyOffset = keyOffset(set);
        getKeyOffset = keyOffset(get);
    }

    /**
     * @return the longest request this encoder writes, in bytes.
     */
    public int maxRequestLength()
    {
        return Math.max(set.length, get.length);
    }

    /**
     * Appends {@code SET key:<index> <value>} at the buffer's position.
     *
     * @param out   a buffer with at least {@link #maxRequestLength()} bytes remaining.
     * @param index the key, {@code 0 <= index < MAX_KEYS}.
     */
    public void encodeSet(final ByteBuffer out, final long index)
    {
        final int start = out.position();
        out.put(set);
        writeDigits(out, start + setKeyOffset, index);
    }

    /**
     * Appends {@code GET key:<index>}, or {@code GET mis:<index>} for a key that is never written.
     *
     * @param out   a buffer with at least {@link #maxRequestLength()} bytes remaining.
     * @param index the key, {@code 0 <= index < MAX_KEYS}.
     * @param miss  true for the never-written key.
     */
    public void encodeGet(final ByteBuffer out, final long index, final boolean miss)
    {
        final int start = out.position();
        out.put(miss ? getMiss : get);
        writeDigits(out, start + getKeyOffset, index);
    }

    /**
     * Encodes one command as a RESP array of bulk strings.
     *
     * @param args the command name and its arguments.
     * @return the encoded command.
     */
    public static byte[] command(final byte[]... args)
    {
        final StringBuilder head = new StringBuilder();
        final ByteBuffer out = ByteBuffer.allocate(encodedLength(args));
        out.put(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (final byte[] arg : args)
        {
            head.setLength(0);
            head.append('$').append(arg.length).append("\r\n");
            out.put(head.toString().getBytes(StandardCharsets.US_ASCII)).put(arg).put((byte)'\r').put((byte)'\n');
        }
        return out.array();
    }

    private static int encodedLength(final byte[]... args)
    {
        int length = ("*" + args.length + "\r\n").length();
        for (final byte[] arg : args)
        {
            length += ("$" + arg.length + "\r\n").length() + arg.length + 2;
        }
        return length;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static int keyOffset(final byte[] request)
    {
        final String text = new String(request, StandardCharsets.US_ASCII);
        return text.indexOf(KEY_PREFIX) + KEY_PREFIX.length();
    }

    private static void writeDigits(final ByteBuffer out, final int offset, final long index)
    {
        long rest = index;
        for (int i = offset + KEY_DIGITS - 1; i >= offset; i--)
        {
            out.put(i, (byte)('0' + (int)(rest % 10)));
            rest /= 10;
        }
    }
}
