package io.agni.bench;

import io.agni.protocol.ProtocolLimits;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespDecoder;
import io.agni.protocol.RespWriter;
import io.agni.protocol.command.CommandProcessor;
import io.agni.protocol.command.LocalServerContext;
import io.agni.protocol.command.Outcome;
import io.agni.protocol.command.Session;
import io.agni.store.OffHeapStore;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The protocol path without sockets: decode a pipeline of {@value #PIPELINE} RESP commands, execute each on an
 * {@link OffHeapStore} through the {@link CommandProcessor}, and encode the replies, as one event-loop read does.
 *
 * <h2>Method</h2>
 * {@value #VARIANTS} pipelines are encoded before measuring, each of {@value #PIPELINE} commands over keys picked at
 * random from {@code keyCount} present keys of {@value StoreBenchmark#KEY_LENGTH} bytes: half GET, half SET of a
 * {@value StoreBenchmark#VALUE_LENGTH}-byte value, interleaved; one GET in nine (on average) asks for a key that is
 * not there, so that the null reply, whose bytes differ between the protocol versions, is written too. Each
 * invocation decodes, executes and encodes one pipeline and reports {@value #PIPELINE} operations, so the score is
 * commands per microsecond. {@code protocol} is the connection's RESP version (2, or 3 as after {@code HELLO 3}).
 * Run with {@code -prof gc}: the path must allocate nothing (≤ 1 B/op) in either version.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = JvmFlags.AGRONA)
@State(Scope.Thread)
public class ProtocolBenchmark
{
    /**
     * Commands per pipeline.
     */
    public static final int PIPELINE = 16;

    /**
     * Distinct pipelines cycled through.
     */
    static final int VARIANTS = 256;

    /**
     * Pairs per MSET, as redis-benchmark's.
     */
    static final int MSET_PAIRS = 10;

    /**
     * Present keys.
     */
    @Param({"1000"})
    public int keyCount;

    /**
     * The RESP version the replies are encoded in.
     */
    @Param({"2", "3"})
    public int protocol;

    private OffHeapStore store;
    private CommandProcessor processor;
    private final RespDecoder decoder = new RespDecoder(ProtocolLimits.DEFAULT);
    private final RespWriter out = new RespWriter();
    private final Session session = new Session(1, "127.0.0.1:50000", "127.0.0.1:6379", 0);
    private final Executor executor = new Executor();
    private UnsafeBuffer[] pipelines;
    private UnsafeBuffer[] incrAndMsetPipelines;
    private int next;

    /**
     * Fills the store and encodes the pipelines.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        store = OffHeapStore.open();
        out.protocol(protocol);
        processor = new CommandProcessor(
            store, new LocalServerContext(null, System.currentTimeMillis()), SystemEpochClock.INSTANCE);
        final byte[] value = new byte[StoreBenchmark.VALUE_LENGTH];
        Arrays.fill(value, (byte)'v');
        for (int i = 0; i < keyCount; i++)
        {
            store.set(key(i), value);
        }

        final Rng rng = new Rng(42);
        pipelines = new UnsafeBuffer[VARIANTS];
        final RespWriter encoder = new RespWriter();
        for (int v = 0; v < VARIANTS; v++)
        {
            encoder.reset();
            for (int c = 0; c < PIPELINE; c++)
            {
                final int keys = (c & 1) == 0 ? keyCount * 9 / 8 : keyCount;
                final byte[] key = key((int)Long.remainderUnsigned(rng.next(), keys));
                if ((c & 1) == 0)
                {
                    encoder.arrayHeader(2).bulk(ascii("GET")).bulk(key);
                }
                else
                {
                    encoder.arrayHeader(3).bulk(ascii("SET")).bulk(key).bulk(value);
                }
            }
            final byte[] bytes = new byte[encoder.position()];
            encoder.buffer().getBytes(0, bytes);
            pipelines[v] = new UnsafeBuffer(bytes);
        }

        incrAndMsetPipelines = new UnsafeBuffer[VARIANTS];
        for (int v = 0; v < VARIANTS; v++)
        {
            encoder.reset();
            for (int c = 0; c < PIPELINE; c++)
            {
                if ((c & 1) == 0)
                {
                    encoder.arrayHeader(2).bulk(ascii("INCR")).bulk(ascii("counter:" + (c & 7)));
                }
                else
                {
                    encoder.arrayHeader(1 + 2 * MSET_PAIRS).bulk(ascii("MSET"));
                    for (int p = 0; p < MSET_PAIRS; p++)
                    {
                        encoder.bulk(key((int)Long.remainderUnsigned(rng.next(), keyCount))).bulk(value);
                    }
                }
            }
            final byte[] bytes = new byte[encoder.position()];
            encoder.buffer().getBytes(0, bytes);
            incrAndMsetPipelines[v] = new UnsafeBuffer(bytes);
        }
    }

    /**
     * Releases the store.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        store.close();
    }

    /**
     * Decodes, executes and encodes one pipeline.
     *
     * @return the bytes of replies, so that the work is not eliminated.
     */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public int pipelineOf16GetAndSet()
    {
        return run(pipelines);
    }

    /**
     * Decodes, executes and encodes one pipeline of 8 INCR and 8 MSET of {@value #MSET_PAIRS} pairs (the other two
     * commands of the server soak), which must allocate nothing either.
     *
     * @return the bytes of replies, so that the work is not eliminated.
     */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public int pipelineOf16IncrAndMset()
    {
        return run(incrAndMsetPipelines);
    }

    private int run(final UnsafeBuffer[] variants)
    {
        final UnsafeBuffer pipeline = variants[next];
        next = (next + 1) & (VARIANTS - 1);
        out.reset();
        final int consumed = decoder.decode(pipeline, 0, pipeline.capacity(), executor);
        if (consumed != pipeline.capacity() || executor.commands != PIPELINE)
        {
            throw new IllegalStateException("consumed=" + consumed + ", commands=" + executor.commands);
        }
        executor.commands = 0;
        return out.position();
    }

    static byte[] key(final int index)
    {
        return ascii(String.format("key:%012d", index));
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private final class Executor implements RespDecoder.Listener
    {
        int commands;

        @Override
        public boolean onCommand(final RespArgs args)
        {
            commands++;
            return processor.execute(session, args, out) == Outcome.CONTINUE;
        }

        @Override
        public void onProtocolError(final String message)
        {
            throw new IllegalStateException(message);
        }
    }
}
