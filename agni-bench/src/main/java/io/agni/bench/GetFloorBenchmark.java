package io.agni.bench;

import io.agni.bench.adapter.KeySet;
import io.agni.store.hash.KeyHash;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.StampedLock;

/**
 * The floor of an off-heap GET in {@link StoreBenchmark}'s harness: the same keys, value size, random key choice
 * and destination buffer as its {@code getHit}, but a read-only table built for the benchmark instead of a store.
 * It answers one question: how fast can a GET through Agrona buffers be here, before any of a real store's
 * structure? Each benchmark adds one layer:
 * <ol>
 *     <li>{@link #floor}: hash the key (agni's {@link KeyHash}), probe one off-heap slot table, compare the key as
 *     two words, copy the value into the caller's buffer. No lock, no bound on the probe, no checks beyond
 *     Agrona's own bounds checks.</li>
 *     <li>{@link #stamp}: the same inside a {@link StampedLock} optimistic read and validation.</li>
 *     <li>{@link #gate}: the same inside a close gate like the store's (thread-local context, a volatile store to
 *     enter, a read of a closed flag, a release store to leave) and a hit counter.</li>
 *     <li>{@link #objects}: the gate and stamp around a read that reaches its memory the way a shard does (shard
 *     array, shard, table, slot buffer; arena, segment array, segment, segment buffer) with the checks an
 *     optimistic read needs (segment id, segment present, offsets against the capacity, a bounded probe).</li>
 *     <li>{@link #flat}: as {@code objects}, but the shard holds its slot buffer (the mask follows from its
 *     capacity) and an array of its segments' buffers itself: two hops fewer on the way to a slot and one fewer on
 *     the way to an entry.</li>
 *     <li>{@link #first}: as {@code flat}, with the first segment's buffer in a shard field, so that the entry's
 *     buffer is loaded beside the slot, not after it (what a shard holding its single segment directly would
 *     do).</li>
 * </ol>
 * None of these is a store (nothing writes after setup); compare them with {@code StoreBenchmark.getHit} for
 * {@code agni-zc} and {@code chm} in the same interleaved run (docs/experiments/in-process-store.md, "The floor of an off-heap GET").
 * {@code layout} places the value 8-aligned ({@code aligned}: 8-byte header) or as agni does ({@code packed}: 3-byte
 * header, value at an odd offset). Run with {@code -t 2}, as the store acceptance run.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = JvmFlags.AGRONA)
@State(Scope.Benchmark)
public class GetFloorBenchmark
{
    private static final int KEY_LENGTH = StoreBenchmark.KEY_LENGTH;
    private static final int VALUE_LENGTH = StoreBenchmark.VALUE_LENGTH;
    private static final int ENTRY_BYTES = 128;
    private static final int TAG_SHIFT = 40;
    private static final int SHARD_SHIFT = 59;
    private static final long OFFSET_MASK = 0xF_FFFFL;
    private static final int SEGMENT_SHIFT = 20;
    private static final int SEGMENT_MASK = 0xF_FFFF;
    private static final int INCONSISTENT = -2;
    private static final int NO_MATCH = -3;
    private static final int GATE = 0;
    private static final int OBJECTS = 1;
    private static final int FLAT = 2;
    private static final int FIRST = 3;
    private static final VarHandle IN_FLIGHT;

    static
    {
        try
        {
            IN_FLIGHT = MethodHandles.lookup().findVarHandle(Context.class, "inFlight", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * Present keys.
     */
    @Param({"1000"})
    int keyCount;

    /**
     * Where the value sits in an entry: {@code aligned} or {@code packed}.
     */
    @Param({"packed", "aligned"})
    String layout;

    private final long seed = 0x5eed_f100_12a5_0001L;
    private final StampedLock lock = new StampedLock();
    private final ThreadLocal<Context> contexts = ThreadLocal.withInitial(Context::new);
    private volatile boolean closed;
    private int keyLength = KEY_LENGTH;
    private int keyAt;
    private int valueAt;
    private KeySet keys;
    private UnsafeBuffer slots;
    private UnsafeBuffer arena;
    private int mask;
    private ShardShape[] shards;
    private int shardMask;
    private FlatShape[] flatShards;

    /**
     * The thread-local part of the gate.
     */
    static final class Context
    {
        volatile int inFlight;
        long hits;
    }

    /**
     * A shard's objects as far as a read sees them.
     */
    static final class ShardShape
    {
        final StampedLock lock = new StampedLock();
        TableShape table;
        ArenaShape arena;
    }

    /**
     * A shard that holds its slot buffer and its segment buffers itself, and its first segment's buffer in a field.
     */
    static final class FlatShape
    {
        final StampedLock lock = new StampedLock();
        UnsafeBuffer slots;
        UnsafeBuffer[] buffers;
        UnsafeBuffer first;
    }

    /**
     * An index table: slot buffer and mask.
     */
    static final class TableShape
    {
        final UnsafeBuffer slots;
        final int mask;

        TableShape(final UnsafeBuffer slots, final int mask)
        {
            this.slots = slots;
            this.mask = mask;
        }
    }

    /**
     * An arena: its segment array.
     */
    static final class ArenaShape
    {
        SegmentShape[] segments;

        SegmentShape[] segments()
        {
            return segments;
        }
    }

    /**
     * A segment: its buffer.
     */
    static final class SegmentShape
    {
        final UnsafeBuffer buffer;

        SegmentShape(final UnsafeBuffer buffer)
        {
            this.buffer = buffer;
        }
    }

    /**
     * Builds the table and checks that every layer finds every key.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        if ((long)(keyCount + 1) * ENTRY_BYTES > OFFSET_MASK)
        {
            throw new IllegalArgumentException("keyCount too large for one arena: " + keyCount);
        }
        keyAt = "aligned".equals(layout) ? Long.BYTES : 3;
        valueAt = keyAt + KEY_LENGTH;
        keys = KeySet.generate(keyCount, KEY_LENGTH, StoreBenchmark.HIT_TAG);
        final int slotCount = Integer.highestOneBit(keyCount * 2 - 1) << 1;
        mask = slotCount - 1;
        slots = new UnsafeBuffer(ByteBuffer.allocateDirect(slotCount * Long.BYTES));
        arena = new UnsafeBuffer(ByteBuffer.allocateDirect((keyCount + 1) * ENTRY_BYTES));
        final DirectBuffer keyBuffer = keys.buffer();
        for (int n = 0; n < keyCount; n++)
        {
            final int at = (n + 1) * ENTRY_BYTES;
            arena.putLong(at, KEY_LENGTH | ((long)VALUE_LENGTH << 8));
            arena.putBytes(at + keyAt, keyBuffer, keys.offset(n), KEY_LENGTH);
            arena.setMemory(at + valueAt, VALUE_LENGTH, (byte)42);
            final long hash = KeyHash.hash(keyBuffer, keys.offset(n), KEY_LENGTH, seed);
            int i = (int)hash & mask;
            while (slots.getLong(i * Long.BYTES) != 0)
            {
                i = (i + 1) & mask;
            }
            slots.putLong(i * Long.BYTES, ((hash >>> TAG_SHIFT) << TAG_SHIFT) | at);
        }

        final ShardShape shard = new ShardShape();
        shard.table = new TableShape(slots, mask);
        shard.arena = new ArenaShape();
        shard.arena.segments = new SegmentShape[] {new SegmentShape(arena)};
        shards = new ShardShape[] {shard};
        final FlatShape flat = new FlatShape();
        flat.slots = slots;
        flat.buffers = new UnsafeBuffer[] {arena};
        flat.first = arena;
        flatShards = new FlatShape[] {flat};
        shardMask = shards.length - 1;

        final ExpandableDirectByteBuffer check = new ExpandableDirectByteBuffer(2 * VALUE_LENGTH);
        for (int n = 0; n < keyCount; n++)
        {
            final int offset = keys.offset(n);
            if (read(keyBuffer, offset, check) != VALUE_LENGTH || stamped(keyBuffer, offset, check) != VALUE_LENGTH ||
                gated(keyBuffer, offset, check, GATE) != VALUE_LENGTH ||
                gated(keyBuffer, offset, check, OBJECTS) != VALUE_LENGTH ||
                gated(keyBuffer, offset, check, FLAT) != VALUE_LENGTH ||
                gated(keyBuffer, offset, check, FIRST) != VALUE_LENGTH || check.getByte(VALUE_LENGTH - 1) != 42)
            {
                throw new IllegalStateException("key " + n + " not found");
            }
        }
    }

    /**
     * Probe and copy only.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    public int floor(final StoreBenchmark.PerThread thread)
    {
        return read(keys.buffer(), keys.offset(Rng.index(thread.rng.next(), keyCount)), thread.dst);
    }

    /**
     * Probe and copy inside an optimistic read.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    public int stamp(final StoreBenchmark.PerThread thread)
    {
        return stamped(keys.buffer(), keys.offset(Rng.index(thread.rng.next(), keyCount)), thread.dst);
    }

    /**
     * Probe and copy inside an optimistic read inside the close gate.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    public int gate(final StoreBenchmark.PerThread thread)
    {
        return gated(keys.buffer(), keys.offset(Rng.index(thread.rng.next(), keyCount)), thread.dst, GATE);
    }

    /**
     * The gate and the stamp around a read through a shard's objects, with its checks.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    public int objects(final StoreBenchmark.PerThread thread)
    {
        return gated(keys.buffer(), keys.offset(Rng.index(thread.rng.next(), keyCount)), thread.dst, OBJECTS);
    }

    /**
     * As {@link #objects}, with the slot and segment buffers held by the shard.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    public int flat(final StoreBenchmark.PerThread thread)
    {
        return gated(keys.buffer(), keys.offset(Rng.index(thread.rng.next(), keyCount)), thread.dst, FLAT);
    }

    /**
     * As {@link #flat}, with the first segment's buffer read from a shard field.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    public int first(final StoreBenchmark.PerThread thread)
    {
        return gated(keys.buffer(), keys.offset(Rng.index(thread.rng.next(), keyCount)), thread.dst, FIRST);
    }

    private int gated(final DirectBuffer key, final int offset, final MutableDirectBuffer dst, final int layer)
    {
        final Context c = contexts.get();
        IN_FLIGHT.setVolatile(c, c.inFlight + 1);
        if (closed)
        {
            IN_FLIGHT.setRelease(c, c.inFlight - 1);
            throw new IllegalStateException("closed");
        }
        try
        {
            final int r = layer == GATE ? stamped(key, offset, dst) : throughShard(key, offset, dst, layer);
            if (r >= 0)
            {
                c.hits++;
            }
            return r;
        }
        finally
        {
            IN_FLIGHT.setRelease(c, c.inFlight - 1);
        }
    }

    private int stamped(final DirectBuffer key, final int offset, final MutableDirectBuffer dst)
    {
        while (true)
        {
            final long stamp = lock.tryOptimisticRead();
            final int r = read(key, offset, dst);
            if (lock.validate(stamp))
            {
                return r;
            }
        }
    }

    private int read(final DirectBuffer key, final int offset, final MutableDirectBuffer dst)
    {
        final int keyLength = this.keyLength;
        final long hash = KeyHash.hash(key, offset, keyLength, seed);
        final long head = key.getLong(offset);
        final long tail = key.getLong(offset + keyLength - Long.BYTES);
        final long tag = hash >>> TAG_SHIFT;
        final UnsafeBuffer slots = this.slots;
        final UnsafeBuffer arena = this.arena;
        final int mask = this.mask;
        int i = (int)hash & mask;
        while (true)
        {
            final long slot = slots.getLong(i * Long.BYTES);
            if (slot == 0)
            {
                return -1;
            }
            if (slot >>> TAG_SHIFT == tag)
            {
                final int at = (int)(slot & OFFSET_MASK);
                final long header = arena.getLong(at);
                final int valueLength = (int)(header >>> 8) & 0xFFFF;
                if ((header & 0xFF) == keyLength && arena.getLong(at + keyAt) == head &&
                    arena.getLong(at + keyAt + keyLength - Long.BYTES) == tail)
                {
                    dst.putBytes(0, arena, at + valueAt, valueLength);
                    return valueLength;
                }
            }
            i = (i + 1) & mask;
        }
    }

    /**
     * The optimistic read of {@code objects}, {@code flat} and {@code first}: pick the shard, read, validate.
     */
    private int throughShard(final DirectBuffer key, final int offset, final MutableDirectBuffer dst, final int layer)
    {
        final long hash = KeyHash.hash(key, offset, keyLength, seed);
        final int index = (int)(hash >>> SHARD_SHIFT) & shardMask;
        final ShardShape shard = layer == OBJECTS ? shards[index] : null;
        final FlatShape flat = layer == OBJECTS ? null : flatShards[index];
        final StampedLock shardLock = layer == OBJECTS ? shard.lock : flat.lock;
        while (true)
        {
            final long stamp = shardLock.tryOptimisticRead();
            final int r = layer == OBJECTS ?
                readShard(shard, hash, key, offset, dst) : readFlat(flat, hash, key, offset, dst, layer == FIRST);
            if (r != INCONSISTENT && shardLock.validate(stamp))
            {
                return r;
            }
        }
    }

    private int readShard(
        final ShardShape shard, final long hash, final DirectBuffer key, final int offset,
        final MutableDirectBuffer dst)
    {
        final long head = key.getLong(offset);
        final long tail = key.getLong(offset + keyLength - Long.BYTES);
        final long tag = hash >>> TAG_SHIFT;
        final TableShape table = shard.table;
        final UnsafeBuffer slots = table.slots;
        final int mask = table.mask;
        final SegmentShape[] segments = shard.arena.segments();
        int i = (int)hash & mask;
        for (int probes = 0; probes <= mask; probes++, i = (i + 1) & mask)
        {
            final long slot = slots.getLong(i * Long.BYTES);
            if (slot == 0)
            {
                return -1;
            }
            if (slot >>> TAG_SHIFT == tag)
            {
                final int segmentId = (int)(slot >>> SEGMENT_SHIFT) & SEGMENT_MASK;
                if (segmentId >= segments.length)
                {
                    return INCONSISTENT;
                }
                final SegmentShape segment = segments[segmentId];
                if (segment == null)
                {
                    return INCONSISTENT;
                }
                final int r = readEntry(segment.buffer, (int)(slot & OFFSET_MASK), head, tail, dst);
                if (r != NO_MATCH)
                {
                    return r;
                }
            }
        }
        return INCONSISTENT;
    }

    private int readFlat(
        final FlatShape shard, final long hash, final DirectBuffer key, final int offset,
        final MutableDirectBuffer dst, final boolean useFirst)
    {
        final long head = key.getLong(offset);
        final long tail = key.getLong(offset + keyLength - Long.BYTES);
        final long tag = hash >>> TAG_SHIFT;
        final UnsafeBuffer slots = shard.slots;
        final int mask = (slots.capacity() >>> 3) - 1;
        final UnsafeBuffer[] buffers = shard.buffers;
        final UnsafeBuffer first = shard.first;
        int i = (int)hash & mask;
        for (int probes = 0; probes <= mask; probes++, i = (i + 1) & mask)
        {
            final long slot = slots.getLong(i * Long.BYTES);
            if (slot == 0)
            {
                return -1;
            }
            if (slot >>> TAG_SHIFT == tag)
            {
                final int segmentId = (int)(slot >>> SEGMENT_SHIFT) & SEGMENT_MASK;
                final UnsafeBuffer buffer;
                if (useFirst && segmentId == 0)
                {
                    buffer = first;
                }
                else
                {
                    if (segmentId >= buffers.length)
                    {
                        return INCONSISTENT;
                    }
                    buffer = buffers[segmentId];
                    if (buffer == null)
                    {
                        return INCONSISTENT;
                    }
                }
                final int r = readEntry(buffer, (int)(slot & OFFSET_MASK), head, tail, dst);
                if (r != NO_MATCH)
                {
                    return r;
                }
            }
        }
        return INCONSISTENT;
    }

    /**
     * Reads the entry at {@code at} as an optimistic read must: offsets checked against the buffer's capacity
     * before use.
     *
     * @return the value's length when the entry is this key's, {@link #NO_MATCH} when it is another key's, or
     * {@link #INCONSISTENT}.
     */
    private int readEntry(
        final UnsafeBuffer buffer, final int at, final long head, final long tail, final MutableDirectBuffer dst)
    {
        final int capacity = buffer.capacity();
        if (at > capacity - Long.BYTES)
        {
            return INCONSISTENT;
        }
        final long header = buffer.getLong(at);
        final int valueLength = (int)(header >>> 8) & 0xFFFF;
        if (at + valueAt + valueLength > capacity)
        {
            return INCONSISTENT;
        }
        if ((header & 0xFF) == keyLength && buffer.getLong(at + keyAt) == head &&
            buffer.getLong(at + keyAt + keyLength - Long.BYTES) == tail)
        {
            dst.putBytes(0, buffer, at + valueAt, valueLength);
            return valueLength;
        }
        return NO_MATCH;
    }
}
