package io.agni.protocol;

import io.agni.protocol.RecordingListener.Command;
import io.agni.protocol.RecordingListener.Error;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decoder's behaviour, case by case: Redis's {@code tests/unit/protocol.tcl} first (one test per case; "Generic
 * wrong number of args" belongs to the command layer), then multibulk, numbers, limits, authentication, inline
 * requests, resumption and the stream contract.
 */
class RespDecoderTest
{
    private static final String PING = "*1\r\n$4\r\nPING\r\n";

    private final RecordingListener listener = new RecordingListener();
    private RespDecoder decoder = new RespDecoder(ProtocolLimits.DEFAULT);

    // ---------------------------------------------------------------- Redis's tests/unit/protocol.tcl

    @Test
    void handleAnEmptyQuery()
    {
        decodeWhole("\r\n" + PING);

        assertEquals(List.of(Command.of("PING")), listener.events);
    }

    @Test
    void negativeMultibulkLength()
    {
        decodeWhole("*-10\r\n" + PING);

        assertEquals(List.of(Command.of("PING")), listener.events);
    }

    @ParameterizedTest
    @ValueSource(strings = {"*3000000000\r\n", "*20000000\r\n"})
    void outOfRangeMultibulkLength(final String header)
    {
        assertEquals(header.length(), decode(header));

        assertEquals(List.of(new Error("Protocol error: invalid multibulk length")), listener.events);
    }

    @Test
    void wrongMultibulkPayloadHeader()
    {
        decodeWhole("*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n");

        assertEquals(List.of(new Error("Protocol error: expected '$', got 'f'")), listener.events);
    }

    @Test
    void negativeMultibulkPayloadLength()
    {
        decodeWhole("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$-10\r\n");

        assertEquals(List.of(new Error("Protocol error: invalid bulk length")), listener.events);
    }

    @Test
    void outOfRangeMultibulkPayloadLength()
    {
        decodeWhole("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$2000000000\r\n");

        assertEquals(List.of(new Error("Protocol error: invalid bulk length")), listener.events);
    }

    @Test
    void nonNumberMultibulkPayloadLength()
    {
        decodeWhole("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$blabla\r\n");

        assertEquals(List.of(new Error("Protocol error: invalid bulk length")), listener.events);
    }

    @Test
    void multiBulkRequestNotFollowedByBulkArguments()
    {
        decodeWhole("*1\r\nfoo\r\n");

        assertEquals(List.of(new Error("Protocol error: expected '$', got 'f'")), listener.events);
    }

    @Test
    void unbalancedNumberOfQuotes()
    {
        decodeWhole("set \"\"\"test-key\"\"\" test-value\r\nping\r\n");

        assertEquals(List.of(new Error("Protocol error: unbalanced quotes in request")), listener.events);
    }

    /**
     * Redis's test sends one byte, then the word "payload" over and over with no line end, until the server closes
     * the connection with a protocol error.
     */
    @ParameterizedTest
    @CsvSource({
        "0, Protocol error: too big inline request",
        "42, Protocol error: too big mbulk count string",
        "36, Protocol error: too big inline request"})
    void protocolDesyncRegressionTest(final int firstByte, final String error)
    {
        final StringBuilder stream = new StringBuilder().append((char)firstByte);
        while (stream.length() <= ProtocolLimits.DEFAULT_MAX_INLINE_LENGTH + 1)
        {
            stream.append("payload");
        }

        ChunkedCaller.feed(decoder, bytes(stream.toString()), everyNBytes(stream.length(), 1024), listener);

        assertEquals(List.of(new Error(error)), listener.events);
    }

    @Test
    void testLargeNumberOfArgs()
    {
        final List<String> args = new ArrayList<>();
        args.add("MSET");
        for (int i = 0; i < 10_000; i++)
        {
            args.add("k");
            args.add("v");
        }
        args.add("{k}2");
        args.add("v2");

        decodeWhole(multibulk(args.toArray(String[]::new)));

        assertEquals(List.of(new Command(args)), listener.events);
    }

    @Test
    void regressionForACrashWithBlockingOpsAndPipelining()
    {
        final String blpop = multibulk("BLPOP", "nolist", "0");

        decodeWhole(blpop + blpop);

        assertEquals(List.of(Command.of("BLPOP", "nolist", "0"), Command.of("BLPOP", "nolist", "0")), listener.events);
    }

    @Test
    void regressionForACrashWithCronReleaseOfClientArguments()
    {
        final String request = "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$1\r\n0\r\n";

        ChunkedCaller.feed(decoder, bytes(request), new int[]{4}, listener);

        assertEquals(List.of(Command.of("SET", "key", "0")), listener.events);
    }

    // ---------------------------------------------------------------- multibulk

    @Test
    void decodesAMultibulkCommandIntoViewsOfTheCallersBuffer()
    {
        final UnsafeBuffer buffer = buffer("xx" + multibulk("SET", "key", "value"));
        final List<String> seen = new ArrayList<>();

        final int consumed = decoder.decode(buffer, 2, buffer.capacity() - 2, new RecordingListener()
        {
            @Override
            public boolean onCommand(final RespArgs args)
            {
                assertSame(buffer, args.buffer());
                seen.add(args.count() + " " + args.offset(0) + " " + args.offset(1) + " " + args.offset(2) + " " +
                    args.length(2));
                return true;
            }
        });

        assertEquals(buffer.capacity() - 2, consumed);
        assertEquals(List.of("3 10 19 28 5"), seen);
    }

    @Test
    void decodesEveryCommandOfAPipeline()
    {
        decodeWhole(multibulk("SET", "a", "1") + PING + "GET a\r\n" + multibulk("GET", "a"));

        assertEquals(List.of(Command.of("SET", "a", "1"), Command.of("PING"), Command.of("GET", "a"),
            Command.of("GET", "a")), listener.events);
    }

    @Test
    void zeroArgumentMultibulkIsSkipped()
    {
        decodeWhole("*0\r\n*-1\r\n" + PING);

        assertEquals(List.of(Command.of("PING")), listener.events);
    }

    @Test
    void emptyBulkIsAnEmptyArgument()
    {
        decodeWhole("*2\r\n$4\r\nECHO\r\n$0\r\n\r\n");

        assertEquals(List.of(Command.of("ECHO", "")), listener.events);
    }

    @Test
    void binaryArgumentsSurviveWithCrLfAndZeroBytes()
    {
        final byte[] value = {'\r', '\n', 0, '$', '*', (byte)0xFF, '\n', '\r'};
        final byte[] request = concat(bytes("*3\r\n$3\r\nSET\r\n$2\r\n\0\n\r\n$8\r\n"), value, bytes("\r\n"));

        decodeWhole(request);

        assertEquals(List.of(Command.of(bytes("SET"), new byte[]{0, '\n'}, value)), listener.events);
    }

    @Test
    void trailingBytesOfALineAreSkippedUncheckedAsRedisDoes()
    {
        decodeWhole("*1\r?$4\rXPINGxy");

        assertEquals(List.of(Command.of("PING")), listener.events);
    }

    @Test
    void expectedDollarNamesTheByteFound()
    {
        decodeWhole("*1\r\n:1\r\n");

        assertEquals(List.of(new Error("Protocol error: expected '$', got ':'")), listener.events);
    }

    @Test
    void headerWaitsForTheByteAfterItsCarriageReturn()
    {
        assertEquals(0, decode("*1\r\n$4\r"));
        assertEquals(List.of(), listener.events);
    }

    // ---------------------------------------------------------------- numbers, as string2ll reads them

    @ParameterizedTest
    @ValueSource(strings = {"", "+1", "01", "-0", " 1", "1 ", "1a", "-", "0x1", "9223372036854775808",
        "-9223372036854775809", "99999999999999999999"})
    void multibulkCountThatIsNotAStrictIntegerIsInvalid(final String count)
    {
        decodeWhole("*" + count + "\r\n" + PING);

        assertEquals(List.of(new Error("Protocol error: invalid multibulk length")), listener.events);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "+1", "01", "00", "-0", "1 ", "1.0", "-", "9223372036854775808"})
    void bulkLengthThatIsNotAStrictIntegerIsInvalid(final String length)
    {
        decodeWhole("*1\r\n$" + length + "\r\nx\r\n");

        assertEquals(List.of(new Error("Protocol error: invalid bulk length")), listener.events);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "-9223372036854775808", "0"})
    void multibulkCountOfZeroOrLessIsSkipped(final String count)
    {
        decodeWhole("*" + count + "\r\n" + PING);

        assertEquals(List.of(Command.of("PING")), listener.events);
    }

    // ---------------------------------------------------------------- limits

    @Test
    void decoderAcceptsBulkLengthAtLimit()
    {
        decoder = new RespDecoder(ProtocolLimits.DEFAULT.withMaxBulkLength(5));

        decodeWhole(multibulk("ECHO", "12345"));

        assertEquals(List.of(Command.of("ECHO", "12345")), listener.events);
    }

    @Test
    void decoderRejectsBulkLengthAboveLimit()
    {
        decoder = new RespDecoder(ProtocolLimits.DEFAULT.withMaxBulkLength(5));

        decodeWhole("*2\r\n$4\r\nECHO\r\n$6\r\n");

        assertEquals(List.of(new Error("Protocol error: invalid bulk length")), listener.events);
    }

    @Test
    void decoderRejectsDefaultBulkLimitPlusOne()
    {
        decodeWhole("*1\r\n$" + (ProtocolLimits.DEFAULT_MAX_BULK_LENGTH + 1) + "\r\n");

        assertEquals(List.of(new Error("Protocol error: invalid bulk length")), listener.events);
    }

    @Test
    void decoderRejectsArgumentCountAboveLimit()
    {
        decoder = new RespDecoder(ProtocolLimits.DEFAULT.withMaxArguments(3));

        decodeWhole(multibulk("SET", "k", "v") + "*4\r\n");

        assertEquals(List.of(Command.of("SET", "k", "v"), new Error("Protocol error: invalid multibulk length")),
            listener.events);
    }

    @Test
    void decoderRejectsDefaultArgumentLimitPlusOne()
    {
        decodeWhole("*" + (ProtocolLimits.DEFAULT_MAX_ARGUMENTS + 1) + "\r\n");

        assertEquals(List.of(new Error("Protocol error: invalid multibulk length")), listener.events);
    }

    @Test
    void decoderReservesNothingForDeclaredCountsAndLengths()
    {
        final long before = decoder.reservedBytes();

        decode("*1048576\r\n$536870912\r\nabc");

        assertEquals(List.of(), listener.events);
        assertEquals(before, decoder.reservedBytes());
    }

    @Test
    void theArraysOfACommandWithManyArgumentsAreGivenBackOnceItIsHandedOver()
    {
        final long before = decoder.reservedBytes();
        final StringBuilder command = new StringBuilder("*100000\r\n$3\r\nDEL\r\n");
        for (int i = 1; i < 100_000; i++)
        {
            command.append("$1\r\nk\r\n");
        }

        decode(command.toString());

        assertEquals(1, listener.commands().size());
        assertEquals(100_000, listener.commands().get(0).args().size());
        assertEquals(before, decoder.reservedBytes(), "not the 800 KB the command needed");
    }

    @Test
    void multibulkCountLineLongerThanLimitIsTooBig()
    {
        final String line = "*" + "1".repeat(ProtocolLimits.DEFAULT_MAX_INLINE_LENGTH - 1);

        assertEquals(0, decode(line));
        assertEquals(List.of(), listener.events);

        decoder.reset();
        assertEquals(line.length() + 1, decode(line + "1"));
        assertEquals(List.of(new Error("Protocol error: too big mbulk count string")), listener.events);
    }

    @Test
    void bulkCountLineLongerThanLimitIsTooBig()
    {
        final String line = "*1\r\n$" + "1".repeat(ProtocolLimits.DEFAULT_MAX_INLINE_LENGTH);

        decodeWhole(line);

        assertEquals(List.of(new Error("Protocol error: too big bulk count string")), listener.events);
    }

    @Test
    void headerLineLongerThanLimitIsTooBigEvenWithItsEnd()
    {
        decodeWhole("*1\r\n$" + "0".repeat(ProtocolLimits.DEFAULT_MAX_INLINE_LENGTH) + "\r\n");

        assertEquals(List.of(new Error("Protocol error: too big bulk count string")), listener.events);
    }

    @Test
    void inlineLineAtLimitIsAccepted()
    {
        final String arg = "a".repeat(ProtocolLimits.DEFAULT_MAX_INLINE_LENGTH - 5);

        decodeWhole("ECHO " + arg + "\r\nECHO " + arg + "\n");

        assertEquals(List.of(Command.of("ECHO", arg), Command.of("ECHO", arg)), listener.events);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\r\n", "\n", ""})
    void inlineLineAboveLimitIsTooBig(final String end)
    {
        decodeWhole("ECHO " + "a".repeat(ProtocolLimits.DEFAULT_MAX_INLINE_LENGTH - 4) + end);

        assertEquals(List.of(new Error("Protocol error: too big inline request")), listener.events);
    }

    @Test
    void inlineLineWithoutEndWaitsUntilItCannotFit()
    {
        final String line = "a".repeat(ProtocolLimits.DEFAULT_MAX_INLINE_LENGTH) + "\r";

        assertEquals(0, decode(line));
        assertEquals(List.of(), listener.events);
    }

    @Test
    void commandTooLargeForOneBufferIsAnInvalidBulkLength()
    {
        decoder = new RespDecoder(ProtocolLimits.DEFAULT.withMaxBulkLength(ProtocolLimits.MAX_BULK_LENGTH_LIMIT));
        final String header = "*2\r\n$" + ProtocolLimits.MAX_BULK_LENGTH_LIMIT + "\r\n";
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[header.length()]);
        buffer.putStringWithoutLengthAscii(0, header);

        decoder.decode(buffer, 0, buffer.capacity(), listener);

        assertEquals(List.of(new Error("Protocol error: invalid bulk length")), listener.events);
    }

    // ---------------------------------------------------------------- authentication

    @Test
    void unauthenticatedClientMaySendTenArguments()
    {
        decoder.authenticated(false);
        final String[] args = {"MSET", "a", "1", "b", "2", "c", "3", "d", "4", "e"};

        decodeWhole(multibulk(args));

        assertEquals(List.of(Command.of(args)), listener.events);
    }

    @Test
    void decoderRejectsMoreThanTenArgumentsBeforeAuthentication()
    {
        decoder.authenticated(false);

        decodeWhole("*11\r\n");

        assertEquals(List.of(new Error("Protocol error: unauthenticated multibulk length")), listener.events);
    }

    @Test
    void unauthenticatedClientMaySendBulkOf16384Bytes()
    {
        decoder.authenticated(false);
        final String value = "v".repeat(16384);

        decodeWhole(multibulk("AUTH", value));

        assertEquals(List.of(Command.of("AUTH", value)), listener.events);
    }

    @Test
    void decoderRejectsBulkAbove16384BytesBeforeAuthentication()
    {
        decoder.authenticated(false);

        decodeWhole("*2\r\n$4\r\nAUTH\r\n$16385\r\n");

        assertEquals(List.of(new Error("Protocol error: unauthenticated bulk length")), listener.events);
    }

    @Test
    void invalidLengthIsReportedBeforeTheUnauthenticatedLimit()
    {
        decoder.authenticated(false);

        decodeWhole("*" + (ProtocolLimits.DEFAULT_MAX_ARGUMENTS + 1) + "\r\n");

        assertEquals(List.of(new Error("Protocol error: invalid multibulk length")), listener.events);
    }

    @Test
    void authenticationInsideACommandAppliesToTheNextPipelinedCommand()
    {
        decoder.authenticated(false);
        final String[] big = {"MSET", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5"};
        final RecordingListener authenticating = new RecordingListener()
        {
            @Override
            public boolean onCommand(final RespArgs args)
            {
                if (args.equalsIgnoreCase(0, "AUTH".getBytes(StandardCharsets.US_ASCII)))
                {
                    decoder.authenticated(true);
                }
                return super.onCommand(args);
            }
        };

        final UnsafeBuffer buffer = buffer(multibulk("AUTH", "pw") + multibulk(big));
        decoder.decode(buffer, 0, buffer.capacity(), authenticating);

        assertEquals(List.of(Command.of("AUTH", "pw"), Command.of(big)), authenticating.events);
    }

    // ---------------------------------------------------------------- inline

    @Test
    void inlineCommandIsSplitOnWhitespace()
    {
        decodeWhole("  SET\tkey \u000b\f value  \r\n");

        assertEquals(List.of(Command.of("SET", "key", "value")), listener.events);
    }

    @Test
    void inlineArgumentsAreCopiedIntoTheDecodersScratchBuffer()
    {
        final UnsafeBuffer buffer = buffer("PING\r\n");
        final List<DirectBuffer> seen = new ArrayList<>();

        decoder.decode(buffer, 0, buffer.capacity(), new RecordingListener()
        {
            @Override
            public boolean onCommand(final RespArgs args)
            {
                seen.add(args.buffer());
                return super.onCommand(args);
            }
        });

        assertNotSame(buffer, seen.get(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {" \r\n", "\t\t\n", "\n"})
    void blankInlineLineIsSkipped(final String line)
    {
        decodeWhole(line + PING);

        assertEquals(List.of(Command.of("PING")), listener.events);
    }

    @Test
    void doubleQuotesUnderstandEscapes()
    {
        decodeWhole("SET \"a\\n\\r\\t\\b\\a\\\\\\\"\\x41\\xfF\\q\" \"\"\r\n");

        assertEquals(List.of(Command.of(bytes("SET"),
            new byte[]{'a', '\n', '\r', '\t', '\b', 7, '\\', '"', 'A', (byte)0xFF, 'q'}, new byte[0])),
            listener.events);
    }

    @Test
    void backslashXWithoutTwoHexDigitsIsAnX()
    {
        decodeWhole("ECHO \"\\xZ1\\x4\"\r\n");

        assertEquals(List.of(Command.of("ECHO", "xZ1x4")), listener.events);
    }

    @Test
    void singleQuotesUnderstandOnlyAnEscapedSingleQuote()
    {
        decodeWhole("ECHO 'it\\'s \\n \"x\"'\r\n");

        assertEquals(List.of(Command.of("ECHO", "it's \\n \"x\"")), listener.events);
    }

    @Test
    void quotedPartsJoinTheArgumentTheyStartIn()
    {
        decodeWhole("ECHO foo\"bar baz\" x'y z'\r\n");

        assertEquals(List.of(Command.of("ECHO", "foobar baz", "xy z")), listener.events);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ECHO \"foo\"bar", "ECHO 'foo'bar", "ECHO \"foo", "ECHO 'foo", "ECHO \"foo\\\"",
        "ECHO \"a\0\""})
    void decoderRejectsUnbalancedQuotes(final String line)
    {
        decodeWhole(line + "\r\n" + PING);

        assertEquals(List.of(new Error("Protocol error: unbalanced quotes in request")), listener.events);
    }

    @Test
    void closingQuoteMayBeFollowedByAnyWhitespace()
    {
        decodeWhole("ECHO \"a\"\u000b'b'\fc\r\n");

        assertEquals(List.of(Command.of("ECHO", "a", "b", "c")), listener.events);
    }

    @Test
    void verticalTabInsideAnArgumentDoesNotSplitIt()
    {
        decodeWhole("ECHO a\u000bb\r\n");

        assertEquals(List.of(Command.of("ECHO", "a\u000bb")), listener.events);
    }

    @Test
    void carriageReturnInsideAnInlineLineSplitsIt()
    {
        decodeWhole("ECHO a\rb\r\n");

        assertEquals(List.of(Command.of("ECHO", "a", "b")), listener.events);
    }

    @Test
    void zeroByteEndsAnInlineLineAsInACString()
    {
        decodeWhole("SET a\0b c\r\n" + PING);

        assertEquals(List.of(Command.of("SET", "a"), Command.of("PING")), listener.events);
    }

    @Test
    void inlineLineWaitsForItsNewline()
    {
        assertEquals(0, decode("PING\r"));
        assertEquals(List.of(), listener.events);
    }

    // ---------------------------------------------------------------- resumption and the stream contract

    @Test
    void partialCommandIsResumedFromAnotherBufferAndOffset()
    {
        final String request = multibulk("SET", "key", "value");
        final UnsafeBuffer first = buffer(PING + request.substring(0, 20));

        assertEquals(PING.length(), decoder.decode(first, 0, first.capacity(), listener));
        assertEquals(List.of(Command.of("PING")), listener.events);

        final UnsafeBuffer second = buffer("......" + request);
        assertEquals(request.length(), decoder.decode(second, 6, request.length(), listener));
        assertEquals(List.of(Command.of("PING"), Command.of("SET", "key", "value")), listener.events);
    }

    @Test
    void commandFedOneByteAtATimeIsDecodedOnce()
    {
        final String request = multibulk("SET", "key", "value") + "GET \"key\"\r\n";

        ChunkedCaller.feed(decoder, bytes(request), everyNBytes(request.length(), 1), listener);

        assertEquals(List.of(Command.of("SET", "key", "value"), Command.of("GET", "key")), listener.events);
    }

    @Test
    void partialLineIsScannedOnlyOnce()
    {
        final CountingBuffer counting = new CountingBuffer();
        final byte[] input = bytes("ECHO " + "a".repeat(60_000) + "\r\n" + "*2\r\n$4\r\nECHO\r\n$" +
            "0".repeat(20_000) + "1\r\nb\r\n");
        byte[] kept = new byte[0];
        for (int from = 0; from < input.length; from += 100)
        {
            final byte[] data = concat(kept, Arrays.copyOfRange(input, from, Math.min(input.length, from + 100)));
            counting.wrap(data);
            kept = Arrays.copyOfRange(data, decoder.decode(counting, 0, data.length, listener), data.length);
        }

        assertEquals(List.of(Command.of("ECHO", "a".repeat(60_000)), new Error("Protocol error: invalid bulk length")),
            listener.events);
        assertTrue(counting.reads < 10L * input.length, "reads=" + counting.reads + ", input=" + input.length);
    }

    @Test
    void listenerCanStopTheDecoderAfterACommand()
    {
        final RecordingListener stopping = new RecordingListener().stopEvery(1);
        final UnsafeBuffer buffer = buffer(PING + PING);

        assertEquals(PING.length(), decoder.decode(buffer, 0, buffer.capacity(), stopping));
        assertEquals(1, stopping.events.size());

        assertEquals(PING.length(), decoder.decode(buffer, PING.length(), PING.length(), stopping));
        assertEquals(2, stopping.events.size());
    }

    @Test
    void pendingBytesHintIsWhatABulkStillMisses()
    {
        assertEquals(0, decode("*2\r\n$4\r\nECHO\r\n$10\r\n012"));
        assertEquals(9, decoder.pendingBytesHint());

        assertEquals(0, decode("*2\r\n$4\r\nECHO\r\n$10\r\n0123456789\r"));
        assertEquals(1, decoder.pendingBytesHint());

        decoder.reset();
        assertEquals(0, decode("*2\r\n$4\r\nECHO\r\n$10\r\n"));
        assertEquals(12, decoder.pendingBytesHint());
    }

    @Test
    void pendingBytesHintIsZeroOutsideABulk()
    {
        decode("*2\r\n$4\r\nECHO\r\n$1");
        assertEquals(0, decoder.pendingBytesHint());

        decoder.reset();
        decode(multibulk("ECHO", "x"));
        assertEquals(0, decoder.pendingBytesHint());

        decoder.reset();
        decode("*2\r\n$4\r\nECHO\r\n$10\r\n012");
        decode("*2\r\n$4\r\nECHO\r\n$10\r\n0123456789\r\n*1\r\n$-1\r\n");
        assertEquals(List.of(Command.of("ECHO", "x"), Command.of("ECHO", "0123456789"),
            new Error("Protocol error: invalid bulk length")), listener.events);
        assertEquals(0, decoder.pendingBytesHint());
    }

    @Test
    void afterAProtocolErrorEverythingIsConsumedUntilReset()
    {
        assertEquals(6, decode("*x\r\n\r\n"));
        assertEquals(PING.length(), decode(PING));
        assertEquals(List.of(new Error("Protocol error: invalid multibulk length")), listener.events);

        decoder.reset();

        final RecordingListener afterReset = new RecordingListener();
        final UnsafeBuffer buffer = buffer(PING);
        assertEquals(PING.length(), decoder.decode(buffer, 0, PING.length(), afterReset));
        assertEquals(List.of(Command.of("PING")), afterReset.events);
    }

    @Test
    void resetForgetsAPartialCommand()
    {
        assertEquals(0, decode("*2\r\n$4\r\nECHO\r\n"));

        decoder.reset();
        decodeWhole(PING);

        assertEquals(List.of(Command.of("PING")), listener.events);
    }

    @Test
    void decoderRefusesARangeShorterThanThePartialCommandItKept()
    {
        assertEquals(0, decode("*2\r\n$4\r\nECHO\r\n"));

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> decode("*2\r\n"));

        assertEquals("range shorter than the partial command kept from the last call: length=4, kept=14",
            ex.getMessage());
    }

    @Test
    void emptyRangeConsumesNothing()
    {
        assertEquals(0, decoder.decode(new UnsafeBuffer(new byte[0]), 0, 0, listener));
        assertEquals(List.of(), listener.events);
        assertNull(listener.errorMessage());
    }

    // ---------------------------------------------------------------- helpers

    /**
     * An {@link UnsafeBuffer} that counts the bytes read one at a time.
     */
    private static final class CountingBuffer extends UnsafeBuffer
    {
        long reads;

        CountingBuffer()
        {
            super(new byte[0]);
        }

        @Override
        public byte getByte(final int index)
        {
            reads++;
            return super.getByte(index);
        }
    }

    private int decode(final String input)
    {
        final UnsafeBuffer buffer = buffer(input);
        return decoder.decode(buffer, 0, buffer.capacity(), listener);
    }

    private void decodeWhole(final String input)
    {
        decodeWhole(bytes(input));
    }

    private void decodeWhole(final byte[] input)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(input);
        final int consumed = decoder.decode(buffer, 0, input.length, listener);
        assertEquals(input.length, consumed, "consumed");
    }

    static String multibulk(final String... args)
    {
        final StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (final String arg : args)
        {
            sb.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
        }
        return sb.toString();
    }

    static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static UnsafeBuffer buffer(final String s)
    {
        return new UnsafeBuffer(bytes(s));
    }

    private static int[] everyNBytes(final int length, final int n)
    {
        final int[] cuts = new int[length / n];
        for (int i = 0; i < cuts.length; i++)
        {
            cuts[i] = (i + 1) * n;
        }
        return cuts;
    }

    private static byte[] concat(final byte[]... parts)
    {
        int length = 0;
        for (final byte[] part : parts)
        {
            length += part.length;
        }
        final byte[] result = new byte[length];
        int offset = 0;
        for (final byte[] part : parts)
        {
            System.arraycopy(part, 0, result, offset, part.length);
            offset += part.length;
        }
        return result;
    }
}
