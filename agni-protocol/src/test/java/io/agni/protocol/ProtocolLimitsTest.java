package io.agni.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The limits default to Redis's, and refuse values out of range with a message that names the limit.
 */
class ProtocolLimitsTest
{
    @Test
    void defaultsAreRedisDefaults()
    {
        assertEquals(new ProtocolLimits(512 * 1024 * 1024, 1024 * 1024, 64 * 1024), ProtocolLimits.DEFAULT);
    }

    @Test
    void withChangesOneLimit()
    {
        final ProtocolLimits limits = ProtocolLimits.DEFAULT.withMaxBulkLength(10).withMaxArguments(3)
            .withMaxInlineLength(100);

        assertEquals(new ProtocolLimits(10, 3, 100), limits);
        assertEquals(ProtocolLimits.DEFAULT.maxArguments(), ProtocolLimits.DEFAULT.withMaxBulkLength(1).maxArguments());
    }

    @Test
    void extremesOfEachRangeAreAccepted()
    {
        new ProtocolLimits(0, 1, ProtocolLimits.MIN_INLINE_LENGTH);
        new ProtocolLimits(Integer.MAX_VALUE - 2, Integer.MAX_VALUE - 8, Integer.MAX_VALUE - 8);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, Integer.MIN_VALUE, Integer.MAX_VALUE - 1})
    void maxBulkLengthOutOfRangeIsRefused(final int value)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ProtocolLimits.DEFAULT.withMaxBulkLength(value));

        assertEquals("maxBulkLength must be from 0 to 2147483645: maxBulkLength=" + value, ex.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MAX_VALUE})
    void maxArgumentsOutOfRangeIsRefused(final int value)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ProtocolLimits.DEFAULT.withMaxArguments(value));

        assertEquals("maxArguments must be from 1 to 2147483639: maxArguments=" + value, ex.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {31, 0, -1, Integer.MAX_VALUE})
    void maxInlineLengthOutOfRangeIsRefused(final int value)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ProtocolLimits.DEFAULT.withMaxInlineLength(value));

        assertEquals("maxInlineLength must be from 32 to 2147483639: maxInlineLength=" + value, ex.getMessage());
    }
}
