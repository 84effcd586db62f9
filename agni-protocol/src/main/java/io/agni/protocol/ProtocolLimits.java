package io.agni.protocol;

/**
 * The limits {@link RespDecoder} enforces on a request, checked before any memory is reserved for it: a declared
 * length or count over a limit is a protocol error, never an allocation. The defaults are Redis's.
 * <p>
 * Immutable; the constructor validates every limit and says which one is out of range. Start from {@link #DEFAULT}
 * and change one limit with the {@code with...} methods.
 *
 * @param maxBulkLength   the longest bulk string accepted, in bytes: Redis's {@code proto-max-bulk-len}.
 * @param maxArguments    the most arguments one multibulk request may declare, the command name included.
 * @param maxInlineLength the longest inline request line, in bytes without its line ending; also the longest
 *                        {@code *<count>} or {@code $<length>} header line: Redis's {@code PROTO_INLINE_MAX_SIZE}.
 */
public record ProtocolLimits(int maxBulkLength, int maxArguments, int maxInlineLength)
{
    /**
     * The default {@link #maxBulkLength()}, 512 MiB, as Redis's {@code proto-max-bulk-len}.
     */
    public static final int DEFAULT_MAX_BULK_LENGTH = 512 * 1024 * 1024;

    /**
     * The default {@link #maxArguments()}, 1,048,576 (1024 * 1024), the limit Redis had before it became
     * {@code INT_MAX}: still far more than any real command sends.
     */
    public static final int DEFAULT_MAX_ARGUMENTS = 1024 * 1024;

    /**
     * The default {@link #maxInlineLength()}, 64 KiB, as Redis's {@code PROTO_INLINE_MAX_SIZE}.
     */
    public static final int DEFAULT_MAX_INLINE_LENGTH = 64 * 1024;

    /**
     * The largest {@link #maxBulkLength()} accepted: a bulk and its CRLF must fit in one buffer, which Agrona
     * addresses with an {@code int}.
     */
    public static final int MAX_BULK_LENGTH_LIMIT = Integer.MAX_VALUE - 2;

    /**
     * The largest {@link #maxArguments()} and {@link #maxInlineLength()} accepted: the largest array the JVM
     * allocates.
     */
    public static final int MAX_ARRAY_LIMIT = Integer.MAX_VALUE - 8;

    /**
     * The smallest {@link #maxInlineLength()} accepted: room for any valid header line, such as
     * {@code $-9223372036854775808}, so that the limit never refuses well-formed multibulk requests.
     */
    public static final int MIN_INLINE_LENGTH = 32;

    /**
     * Every limit at its default.
     */
    public static final ProtocolLimits DEFAULT =
        new ProtocolLimits(DEFAULT_MAX_BULK_LENGTH, DEFAULT_MAX_ARGUMENTS, DEFAULT_MAX_INLINE_LENGTH);

    /**
     * Validates the limits.
     *
     * @param maxBulkLength   the longest bulk string accepted, in bytes.
     * @param maxArguments    the most arguments one multibulk request may declare.
     * @param maxInlineLength the longest inline request or header line, in bytes.
     * @throws IllegalArgumentException if a limit is out of its range: {@code maxBulkLength} from 0 to
     *                                  {@link #MAX_BULK_LENGTH_LIMIT}, {@code maxArguments} from 1 to
     *                                  {@link #MAX_ARRAY_LIMIT}, {@code maxInlineLength} from
     *                                  {@link #MIN_INLINE_LENGTH} to {@link #MAX_ARRAY_LIMIT}.
     */
    public ProtocolLimits
    {
        checkRange("maxBulkLength", maxBulkLength, 0, MAX_BULK_LENGTH_LIMIT);
        checkRange("maxArguments", maxArguments, 1, MAX_ARRAY_LIMIT);
        checkRange("maxInlineLength", maxInlineLength, MIN_INLINE_LENGTH, MAX_ARRAY_LIMIT);
    }

    /**
     * Returns these limits with {@code maxBulkLength} changed.
     *
     * @param maxBulkLength the new {@link #maxBulkLength()}.
     * @return these limits with {@code maxBulkLength} changed.
     * @throws IllegalArgumentException if the limit is out of range.
     */
    public ProtocolLimits withMaxBulkLength(final int maxBulkLength)
    {
        return new ProtocolLimits(maxBulkLength, maxArguments, maxInlineLength);
    }

    /**
     * Returns these limits with {@code maxArguments} changed.
     *
     * @param maxArguments the new {@link #maxArguments()}.
     * @return these limits with {@code maxArguments} changed.
     * @throws IllegalArgumentException if the limit is out of range.
     */
    public ProtocolLimits withMaxArguments(final int maxArguments)
    {
        return new ProtocolLimits(maxBulkLength, maxArguments, maxInlineLength);
    }

    /**
     * Returns these limits with {@code maxInlineLength} changed.
     *
     * @param maxInlineLength the new {@link #maxInlineLength()}.
     * @return these limits with {@code maxInlineLength} changed.
     * @throws IllegalArgumentException if the limit is out of range.
     */
    public ProtocolLimits withMaxInlineLength(final int maxInlineLength)
    {
        return new ProtocolLimits(maxBulkLength, maxArguments, maxInlineLength);
    }

    private static void checkRange(final String name, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(
                name + " must be from " + min + " to " + max + ": " + name + "=" + value);
        }
    }
}
