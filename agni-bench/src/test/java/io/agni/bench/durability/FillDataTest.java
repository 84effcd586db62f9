package io.agni.bench.durability;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The keys of a fill are {@code key:} and the index in 16 zero-padded digits, as they were when they were formatted
 * with {@code String.format}, so a store filled by an older build reopens and checks the same.
 */
class FillDataTest
{
    @Test
    void keyIsThePrefixAndTheIndexInSixteenDigits()
    {
        for (final int index : new int[] {0, 1, 9, 10, 199_999, 1_999_999, 1_234_567_890, Integer.MAX_VALUE})
        {
            final byte[] key = FillData.key(index);
            assertEquals(FillData.KEY_LENGTH, key.length);
            assertArrayEquals(String.format("key:%016d", index).getBytes(StandardCharsets.US_ASCII), key,
                "index " + index);
        }
    }

    @Test
    void keyRefusesANegativeIndex()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> FillData.key(-1));
        assertEquals("index must not be negative: -1", ex.getMessage());
    }
}
