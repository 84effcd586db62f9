package io.agni.net;

import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * How the client says the expiry modes over RESP: an absolute time as {@code PXAT} (the epoch or before as 1), a
 * duration as {@code PX} or {@code PEXPIRE}, which the server adds to its own clock, except where Redis would
 * refuse it: 0 or less as {@code PXAT 1} (gone at once, on any clock), more than it can add to its clock as
 * {@code Long.MAX_VALUE}, where the sum saturates.
 */
class ClientCommandsTest
{
    private static final UnsafeBuffer KEY = new UnsafeBuffer("k".getBytes(StandardCharsets.US_ASCII));
    private static final UnsafeBuffer VALUE = new UnsafeBuffer("v".getBytes(StandardCharsets.US_ASCII));
    private static final long LONGEST = ClientCommands.LONGEST_SENT_DURATION;

    private final ClientRequestWriter writer = new ClientRequestWriter();

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        "AT,    1700000000000,         PXAT 1700000000000",
        "AT,    0,                     PXAT 1",
        "AT,    -5,                    PXAT 1",
        "AFTER, 1500,                  PX 1500",
        "AFTER, 0,                     PXAT 1",
        "AFTER, -9223372036854775808,  PXAT 1",
        "AFTER, 9223372036854775807,   PXAT 9223372036854775807",
        "KEEP,  0,                     KEEPTTL",
        "CLEAR, 0,                     ''"})
    void setSaysTheExpiryModeAsRedisAcceptsIt(final ExpiryMode mode, final long time, final String expected)
    {
        ClientCommands.set(writer, KEY, 0, 1, VALUE, 0, 1, SetCondition.ALWAYS, mode, time, false);

        assertEquals(("SET k v " + expected).trim(), words());
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        "AT,    1700000000000, GETEX k PXAT 1700000000000",
        "AFTER, 250,           GETEX k PX 250",
        "AFTER, -1,            GETEX k PXAT 1",
        "CLEAR, 0,             GETEX k PERSIST",
        "KEEP,  0,             GETEX k"})
    void getExSaysTheExpiryModeAsRedisAcceptsIt(final ExpiryMode mode, final long time, final String expected)
    {
        ClientCommands.getEx(writer, KEY, 0, 1, mode, time);

        assertEquals(expected, words());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "1500,                ALWAYS,                    PEXPIRE k 1500",
        "-20,                 ALWAYS,                    PEXPIRE k -20",
        "1500,                IF_NO_EXPIRY,              PEXPIRE k 1500 NX",
        "1500,                IF_HAS_EXPIRY_AND_EARLIER, PEXPIRE k 1500 XX LT",
        "9223372036854775807, IF_LATER,                  PEXPIREAT k 9223372036854775807 GT"})
    void expireAfterIsPexpireUnlessTheDurationIsTooLongForRedis(
        final long duration, final ExpireCondition condition, final String expected)
    {
        ClientCommands.pexpire(writer, KEY, 0, 1, duration, condition);

        assertEquals(expected, words());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0", "1"})
    void theLongestDurationSentAsPxIsTheLastOneAnyClockBeforeTheYear37000CanAdd(final long past)
    {
        ClientCommands.set(writer, KEY, 0, 1, VALUE, 0, 1, SetCondition.ALWAYS, ExpiryMode.AFTER, LONGEST + past,
            false);

        assertEquals(past == 0 ? "SET k v PX " + LONGEST : "SET k v PXAT " + Long.MAX_VALUE, words());
    }

    /**
     * The request's bulk strings joined by spaces.
     */
    private String words()
    {
        final String resp = new String(writer.array(), 0, writer.length(), StandardCharsets.ISO_8859_1);
        final String[] lines = resp.split("\r\n");
        final StringBuilder words = new StringBuilder();
        for (int i = 2; i < lines.length; i += 2)
        {
            words.append(words.length() == 0 ? "" : " ").append(lines[i]);
        }
        return words.toString();
    }
}
