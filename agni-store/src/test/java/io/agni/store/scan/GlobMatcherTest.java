package io.agni.store.scan;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GlobMatcherTest
{
    @ParameterizedTest
    @CsvSource({
        "*,           anything,  true",
        "*,           '',        true",
        "h?llo,       hello,     true",
        "h?llo,       hllo,      false",
        "h*llo,       heeeello,  true",
        "h[ae]llo,    hallo,     true",
        "h[ae]llo,    hillo,     false",
        "h[^e]llo,    hallo,     true",
        "h[^e]llo,    hello,     false",
        "h[a-b]llo,   hbllo,     true",
        "h[b-a]llo,   hbllo,     true",
        "h[a-b]llo,   hcllo,     false",
        "h\\*llo,     h*llo,     true",
        "h\\*llo,     hallo,     false",
        "user:*:name, user:42:name, true",
        "user:*:name, user:42:mail, false",
        "a*b*c,       aXbYc,     true",
        "a*b*c,       aXbY,      false",
    })
    void matchesAsRedisDoes(final String pattern, final String string, final boolean expected)
    {
        assertEquals(expected, matches(pattern, string), pattern + " vs " + string);
    }

    @Test
    @Timeout(10)
    void pathologicalPatternFailsFast()
    {
        final String string = "a".repeat(50);
        final String pattern = "a*".repeat(50) + "b";
        assertFalse(matches(pattern, string));
    }

    @Test
    @Timeout(10)
    void patternNestedDeeperThanTheLimitMatchesNothingInsteadOfOverflowingTheStack()
    {
        final String pattern = "*?".repeat(50_000);
        assertFalse(matches(pattern, "x".repeat(60_000)));
    }

    @Test
    void patternNestedUpToTheLimitStillMatches()
    {
        final String atLimit = "*a".repeat(GlobMatcher.MAX_NESTING);
        assertTrue(matches(atLimit, "a".repeat(GlobMatcher.MAX_NESTING)));
        final String pastLimit = "*a".repeat(GlobMatcher.MAX_NESTING + 2);
        assertFalse(matches(pastLimit, "a".repeat(GlobMatcher.MAX_NESTING + 2)));
    }

    private static boolean matches(final String pattern, final String string)
    {
        final byte[] bytes = string.getBytes(StandardCharsets.ISO_8859_1);
        return GlobMatcher.matches(
            pattern.getBytes(StandardCharsets.ISO_8859_1), new UnsafeBuffer(bytes), 0, bytes.length);
    }
}
