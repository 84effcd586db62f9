package io.agni.bench;

import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Why agni pads entries to 8 bytes: the cost of copying a {@value StoreBenchmark#VALUE_LENGTH}-byte value out of an
 * off-heap block of entries into a caller's buffer, as a GET does, when the entries are packed back to back
 * ({@code stride} 119: a 3-byte header, a 16-byte key, the value) and when each is padded to 120 bytes.
 *
 * <h2>Method</h2>
 * Each operation picks one of {@value #ENTRIES} entries at random, reads its 8-byte header and copies its value
 * with {@code putBytes}, the call {@code Shard}'s GET makes. The JVM's copy routine branches on the alignment of
 * source, destination and length: padded, the value's source address has the same remainder modulo 8 in every
 * entry; packed, the remainder changes from entry to entry and that branch is mispredicted. Nothing else differs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = JvmFlags.AGRONA)
@State(Scope.Thread)
public class EntryCopyBenchmark
{
    private static final int ENTRIES = 1000;
    private static final int VALUE_AT = 3 + StoreBenchmark.KEY_LENGTH;

    /**
     * Bytes from one entry's start to the next: 119 packed, 120 padded to 8.
     */
    @Param({"119", "120"})
    public int stride;

    private UnsafeBuffer entries;
    private ExpandableDirectByteBuffer dst;
    private Rng rng;

    /**
     * Fills the block of entries.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        entries = new UnsafeBuffer(ByteBuffer.allocateDirect(ENTRIES * stride + Long.BYTES));
        for (int i = 0; i < entries.capacity(); i++)
        {
            entries.putByte(i, (byte)i);
        }
        dst = new ExpandableDirectByteBuffer(2 * StoreBenchmark.VALUE_LENGTH);
        rng = new Rng(0x5eedL);
    }

    /**
     * One header read and one value copy.
     *
     * @return the header, so the read is not eliminated.
     */
    @Benchmark
    public long copyValue()
    {
        final int at = Rng.index(rng.next(), ENTRIES) * stride;
        final long header = entries.getLong(at);
        dst.putBytes(0, entries, at + VALUE_AT, StoreBenchmark.VALUE_LENGTH);
        return header;
    }
}
