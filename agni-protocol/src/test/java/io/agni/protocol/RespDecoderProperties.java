package io.agni.protocol;

import io.agni.protocol.RecordingListener.Command;
import io.agni.protocol.RecordingListener.Event;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Properties of the decoder over generated streams: what RespWriter encodes decodes back byte for byte; how a
 * stream is cut into reads never changes what it decodes to; and no input, however broken, yields anything but
 * commands and at most one protocol error, or makes the decoder hold more memory than its limits allow.
 */
class RespDecoderProperties
{
    private static final ProtocolLimits SMALL_LIMITS = ProtocolLimits.DEFAULT
        .withMaxBulkLength(64).withMaxArguments(8).withMaxInlineLength(48);
    private static final int CUT_SCALE = 10_000;

    @Property
    void encodedCommandsDecodeToTheirArguments(@ForAll("binaryCommands") final List<List<byte[]>> commands)
    {
        final byte[] stream = encode(commands);
        final RecordingListener listener = new RecordingListener();
        final RespDecoder decoder = new RespDecoder(ProtocolLimits.DEFAULT);

        final int consumed = decoder.decode(new UnsafeBuffer(stream), 0, stream.length, listener);

        assertEquals(stream.length, consumed);
        assertEquals(expected(commands), listener.events);
    }

    @Property
    void anyCutOfAValidPipelineDecodesTheSameCommands(
        @ForAll("mixedPipelines") final Tuple.Tuple2<byte[], List<Event>> pipeline,
        @ForAll @Size(max = 30) final List<@IntRange(max = CUT_SCALE) Integer> cuts,
        @ForAll @IntRange(max = 3) final int stopEvery)
    {
        final byte[] stream = pipeline.get1();
        final RecordingListener listener = new RecordingListener().stopEvery(stopEvery);
        final RespDecoder decoder = new RespDecoder(ProtocolLimits.DEFAULT);

        ChunkedCaller.feed(decoder, stream, scaled(cuts, stream.length), listener);

        assertEquals(pipeline.get2(), listener.events);
        assertEquals(0, decoder.pendingBytesHint());
    }

    @Property
    void quotedInlineArgumentsDecodeToTheirBytes(
        @ForAll @Size(min = 1, max = 4) final List<@Size(max = 6) byte[]> args)
    {
        final StringBuilder line = new StringBuilder();
        for (final byte[] arg : args)
        {
            line.append(line.length() == 0 ? "" : " ").append(quoted(arg));
        }
        final byte[] stream = (line + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        final RecordingListener listener = new RecordingListener();

        new RespDecoder(ProtocolLimits.DEFAULT).decode(new UnsafeBuffer(stream), 0, stream.length, listener);

        assertEquals(List.of(Command.of(args.toArray(byte[][]::new))), listener.events);
    }

    @Property
    void bulkLengthIsReadAsRedisReadsIt(@ForAll("numbers") final String length)
    {
        final byte[] stream = ("*1\r\n$" + length + "\r\n").getBytes(StandardCharsets.US_ASCII);
        final RecordingListener listener = new RecordingListener();

        new RespDecoder(ProtocolLimits.DEFAULT).decode(new UnsafeBuffer(stream), 0, stream.length, listener);

        final Long value = string2ll(length);
        final boolean valid = value != null && value >= 0 && value <= ProtocolLimits.DEFAULT_MAX_BULK_LENGTH;
        assertEquals(valid ? null : "Protocol error: invalid bulk length", listener.errorMessage(), length);
    }

    @Property(tries = 2000)
    void garbageYieldsOnlyCommandsOrOneErrorAndStaysWithinLimits(
        @ForAll("garbage") final byte[] stream,
        @ForAll @Size(max = 30) final List<@IntRange(max = CUT_SCALE) Integer> cuts,
        @ForAll final boolean authenticated)
    {
        checkBrokenStream(stream, scaled(cuts, stream.length), authenticated);
    }

    @Property(tries = 2000)
    void mutatedPipelineYieldsOnlyCommandsOrOneErrorAndStaysWithinLimits(
        @ForAll("mutatedPipelines") final byte[] stream,
        @ForAll @Size(max = 30) final List<@IntRange(max = CUT_SCALE) Integer> cuts,
        @ForAll final boolean authenticated)
    {
        checkBrokenStream(stream, scaled(cuts, stream.length), authenticated);
    }

    /**
     * Decodes the stream whole and cut: both report the same, only commands then at most one error (the listener
     * checks that nothing follows an error), no multibulk argument is over the limit, and the decoder never holds
     * more than the limits allow.
     */
    private static void checkBrokenStream(final byte[] stream, final int[] cuts, final boolean authenticated)
    {
        final RespDecoder whole = new RespDecoder(SMALL_LIMITS);
        whole.authenticated(authenticated);
        final RecordingListener wholeListener = new RecordingListener();
        whole.decode(new UnsafeBuffer(stream), 0, stream.length, wholeListener);

        final RespDecoder cut = new RespDecoder(SMALL_LIMITS);
        cut.authenticated(authenticated);
        final RecordingListener cutListener = new RecordingListener();
        final long bound = maxReservedBytes(SMALL_LIMITS);
        ChunkedCaller.feed(cut, stream, cuts, cutListener, () -> assertTrue(cut.reservedBytes() <= bound,
            "reserved=" + cut.reservedBytes() + ", bound=" + bound));

        assertEquals(wholeListener.events, cutListener.events);
        assertTrue(whole.reservedBytes() <= bound, "reserved=" + whole.reservedBytes() + ", bound=" + bound);
        for (final Command command : cutListener.commands())
        {
            assertTrue(command.args().size() >= 1);
            for (final String arg : command.args())
            {
                assertTrue(arg.length() <= Math.max(SMALL_LIMITS.maxBulkLength(), SMALL_LIMITS.maxInlineLength()));
            }
        }
    }

    /**
     * The most the decoder may hold: argument arrays that double from 16 until they hold the most arguments a
     * request can have (the multibulk limit, or the most a line within the inline limit can hold), and a scratch
     * buffer of the inline limit.
     */
    private static long maxReservedBytes(final ProtocolLimits limits)
    {
        final long mostArguments = Math.max(limits.maxArguments(), limits.maxInlineLength() / 2 + 1);
        return 2L * Integer.BYTES * Math.max(16, 2 * mostArguments) + limits.maxInlineLength();
    }

    // ---------------------------------------------------------------- generators

    @Provide
    Arbitrary<List<List<byte[]>>> binaryCommands()
    {
        final Arbitrary<byte[]> small = Arbitraries.bytes().array(byte[].class).ofMaxSize(24);
        final Arbitrary<byte[]> large = Arbitraries.bytes().array(byte[].class).ofMinSize(100).ofMaxSize(5000);
        final Arbitrary<byte[]> arg = Arbitraries.frequencyOf(Tuple.of(20, small), Tuple.of(1, large));
        return arg.list().ofMinSize(1).ofMaxSize(8).list().ofMinSize(1).ofMaxSize(12);
    }

    @Provide
    Arbitrary<Tuple.Tuple2<byte[], List<Event>>> mixedPipelines()
    {
        final Arbitrary<List<byte[]>> multibulk = binaryCommands().map(commands -> commands.get(0));
        final Arbitrary<List<String>> inline = Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(10)
            .list().ofMinSize(1).ofMaxSize(5);
        final Arbitrary<Tuple.Tuple2<byte[], Event>> command = Arbitraries.oneOf(
            multibulk.map(args -> Tuple.of(encode(List.of(args)), expected(List.of(args)).get(0))),
            inline.map(words -> Tuple.of(
                (String.join(" ", words) + "\r\n").getBytes(StandardCharsets.US_ASCII), (Event)new Command(words))),
            Arbitraries.of("\r\n", "\n", "*0\r\n", "*-1\r\n", "  \r\n").map(skipped -> Tuple.of(
                skipped.getBytes(StandardCharsets.US_ASCII), (Event)null)));
        return command.list().ofMaxSize(12).map(list ->
        {
            final ByteArrayOutputStream stream = new ByteArrayOutputStream();
            final List<Event> events = new ArrayList<>();
            for (final Tuple.Tuple2<byte[], Event> tuple : list)
            {
                stream.writeBytes(tuple.get1());
                if (tuple.get2() != null)
                {
                    events.add(tuple.get2());
                }
            }
            return Tuple.of(stream.toByteArray(), events);
        });
    }

    @Provide
    Arbitrary<String> numbers()
    {
        return Arbitraries.oneOf(
            Arbitraries.strings().withChars("0123456789-+ x").ofMaxLength(22),
            Arbitraries.longs().map(String::valueOf),
            Arbitraries.integers().between(0, 1 << 30).map(String::valueOf));
    }

    @Provide
    Arbitrary<byte[]> garbage()
    {
        final Arbitrary<Byte> protocolByte = Arbitraries.of(
            (byte)'*', (byte)'$', (byte)'\r', (byte)'\n', (byte)'0', (byte)'1', (byte)'2', (byte)'9', (byte)'-',
            (byte)' ', (byte)'"', (byte)'\'', (byte)'\\', (byte)'x', (byte)'a', (byte)'F', (byte)0, (byte)'\t');
        final Arbitrary<byte[]> bytes = Arbitraries.frequencyOf(Tuple.of(4, protocolByte), Tuple.of(1,
            Arbitraries.bytes())).list().ofMaxSize(300).map(RespDecoderProperties::toArray);
        final Arbitrary<byte[]> fragments = Arbitraries.of(
            "*1\r\n", "*2\r\n", "*3\r\n", "*9\r\n", "*11\r\n", "*-1\r\n", "*0\r\n", "$0\r\n", "$1\r\n", "$3\r\n",
            "$64\r\n", "$65\r\n", "$-1\r\n", "$99999\r\n", "$16385\r\n", "\r\n", "\n", "\r", "PING", "SET k v",
            "abc", "\"", "'", "\\x4", "\\x41", "\\", " ", "\0", "x".repeat(50), "0")
            .list().ofMaxSize(40)
            .map(list -> String.join("", list).getBytes(StandardCharsets.ISO_8859_1));
        return Arbitraries.oneOf(bytes, fragments);
    }

    @Provide
    Arbitrary<byte[]> mutatedPipelines()
    {
        final Arbitrary<int[]> mutation = Combinators.combine(
            Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, CUT_SCALE),
            Arbitraries.integers().between(0, 255)).as((kind, where, value) -> new int[]{kind, where, value});
        return Combinators.combine(mixedPipelines(), mutation.list().ofMinSize(1).ofMaxSize(4))
            .as((pipeline, mutations) ->
            {
                byte[] stream = pipeline.get1();
                for (final int[] m : mutations)
                {
                    stream = mutate(stream, m[0], (int)((long)m[1] * stream.length / CUT_SCALE), (byte)m[2]);
                }
                return stream;
            });
    }

    // ---------------------------------------------------------------- helpers

    private static byte[] mutate(final byte[] stream, final int kind, final int at, final byte value)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (kind)
        {
            case 0 ->
            {
                out.write(stream, 0, stream.length);
                final byte[] result = out.toByteArray();
                if (at < result.length)
                {
                    result[at] = value;
                }
                return result;
            }
            case 1 ->
            {
                out.write(stream, 0, at);
                out.write(value);
                out.write(stream, at, stream.length - at);
            }
            case 2 ->
            {
                out.write(stream, 0, at);
                out.write(stream, Math.min(stream.length, at + 1), Math.max(0, stream.length - at - 1));
            }
            default -> out.write(stream, 0, at);
        }
        return out.toByteArray();
    }

    private static byte[] encode(final List<List<byte[]>> commands)
    {
        final RespWriter writer = new RespWriter(64);
        for (final List<byte[]> command : commands)
        {
            writer.arrayHeader(command.size());
            for (final byte[] arg : command)
            {
                writer.bulk(arg);
            }
        }
        final byte[] stream = new byte[writer.position()];
        writer.buffer().getBytes(0, stream);
        return stream;
    }

    private static List<Event> expected(final List<List<byte[]>> commands)
    {
        final List<Event> events = new ArrayList<>();
        for (final List<byte[]> command : commands)
        {
            events.add(Command.of(command.toArray(byte[][]::new)));
        }
        return events;
    }

    private static String quoted(final byte[] arg)
    {
        final StringBuilder sb = new StringBuilder("\"");
        for (final byte b : arg)
        {
            if (b > ' ' && b < 0x7F && b != '"' && b != '\\')
            {
                sb.append((char)b);
            }
            else
            {
                sb.append(String.format("\\x%02x", b & 0xFF));
            }
        }
        return sb.append('"').toString();
    }

    /**
     * Redis's {@code string2ll}, written from its rules as a model: an optional '-', then "0" alone or digits with
     * no leading zero, within a long.
     */
    private static Long string2ll(final String s)
    {
        if (!s.matches("0|-?[1-9][0-9]*"))
        {
            return null;
        }
        try
        {
            return Long.parseLong(s);
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    private static int[] scaled(final List<Integer> cuts, final int length)
    {
        return cuts.stream().mapToInt(c -> (int)((long)c * length / CUT_SCALE)).toArray();
    }

    private static byte[] toArray(final List<Byte> bytes)
    {
        final byte[] result = new byte[bytes.size()];
        for (int i = 0; i < result.length; i++)
        {
            result[i] = bytes.get(i);
        }
        return result;
    }
}
