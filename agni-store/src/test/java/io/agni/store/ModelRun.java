package io.agni.store;

import io.agni.api.AgniException;
import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.Durability;
import io.agni.api.EvictionPolicy;
import io.agni.api.ScanResult;
import io.agni.api.StoreStats;
import io.agni.testsupport.ByteArrayKey;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One run of the model-based test: a store, its fake clock and the {@link StoreModel} it must agree with, plus the
 * checks made after every step.
 */
final class ModelRun implements AutoCloseable
{
    static final int MAX_VALUE_LENGTH = 256 * 1024;

    /**
     * How an outcome that is an exception starts, so that it differs from every result.
     */
    private static final String EXCEPTION_PREFIX = "threw ";

    /**
     * The budget of a store that evicts: 40 keys with values up to 8 KiB overflow it within a few dozen writes.
     */
    static final long EVICTING_BUDGET = 24 * 1024;

    /**
     * The longest value a store that evicts takes: its key and value limits must fit its budget (the model test's
     * 70 KiB values are refused as too large, by the store and the model alike).
     */
    static final int EVICTING_MAX_VALUE_LENGTH = 12 * 1024;

    final CachedEpochClock clock = TestStores.clock();
    final StoreModel model;
    final int shards;
    /**
     * The durable store's directory, {@code null} for an in-memory store.
     */
    final Path directory;
    /**
     * Whether the store evicts ({@code ALL_KEYS}, {@link #EVICTING_BUDGET}): entries may then vanish, and writes be
     * refused, as {@link #same} and {@link #reconcileEvictions} allow.
     */
    final boolean evicting;
    OffHeapStore store;
    int steps;
    int reopens;
    long evictedSeen;
    long evictionsCounted;
    long refusals;

    /**
     * A run; its store keeps a write-ahead log in {@code directory} ({@code Durability.DURABLE}) so that it can be
     * reopened, unless the directory is {@code null}.
     */
    ModelRun(final int shards, final Path directory, final boolean evicting)
    {
        this.shards = shards;
        this.directory = directory;
        this.evicting = evicting;
        store = open();
        model = new StoreModel(clock::time, evicting ? EVICTING_MAX_VALUE_LENGTH : MAX_VALUE_LENGTH);
    }

    private OffHeapStore open()
    {
        final OffHeapStoreBuilder builder = TestStores.builder(shards, clock)
            .maxMemory(evicting ? EVICTING_BUDGET : 32L * 1024 * 1024)
            .maxKeyLength(1024)
            .maxValueLength(evicting ? EVICTING_MAX_VALUE_LENGTH : MAX_VALUE_LENGTH)
            .evictionPolicy(evicting ? EvictionPolicy.ALL_KEYS : EvictionPolicy.NO_EVICTION);
        if (directory != null)
        {
            builder.directory(directory).durability(Durability.DURABLE).logSegmentBytes(64 * 1024);
        }
        return builder.build();
    }

    /**
     * Closes the store, cleanly (a last snapshot) or as a crash leaves it (the log alone), and opens it again: the
     * model does not change, since a durable store keeps every acknowledged write.
     *
     * @param clean whether to close with a checkpoint.
     */
    void reopen(final boolean clean)
    {
        if (clean)
        {
            store.close();
        }
        else
        {
            store.closeWithoutCheckpoint();
        }
        store = open();
        reopens++;
        // a new store's count starts at zero: what recovery evicted (the log replayed into the same budget may not
        // fit as it did) is in it, and the next reconciliation must find it counted
        evictionsCounted = 0;
    }

    long now()
    {
        return clock.time();
    }

    /**
     * Runs the same call on the model and on the store and asserts the same outcome: an equal result or the same
     * kind of {@link AgniException}. A call that throws changes nothing in the store (every primitive is atomic), so
     * the model is put back as it was before the call when it threw (a batch applies its steps to the model one by
     * one). A store that evicts may also refuse a write the model made ({@link CapacityExceededException}: it found
     * nothing it could evict): the model then forgets the write, and the refusal must be counted.
     *
     * @param what     the call, for the failure message.
     * @param expected the model's call.
     * @param actual   the store's call.
     */
    void same(final String what, final Supplier<Object> expected, final Supplier<Object> actual)
    {
        final Map<ByteArrayKey, StoreModel.Entry> before = model.snapshot();
        final long rejected = evicting ? store.stats().rejectedWrites() : 0;
        final String modelOutcome = outcome(expected);
        final String storeOutcome = outcome(actual);
        if (evicting && !modelOutcome.equals(storeOutcome) &&
            storeOutcome.equals(EXCEPTION_PREFIX + CapacityExceededException.class.getSimpleName()))
        {
            model.restore(before);
            refusals++;
            assertTrue(store.stats().rejectedWrites() > rejected, what + ": a refused write was not counted");
            return;
        }
        assertEquals(modelOutcome, storeOutcome, what);
        if (modelOutcome.startsWith(EXCEPTION_PREFIX))
        {
            model.restore(before);
        }
    }

    /**
     * In a store that evicts: finds the keys the model holds live that the store no longer has (a full scan), which
     * can only have been evicted, checks that the store counted at least as many evictions since the last step, and
     * drops them from the model, so that every later step checks they stay absent until written again.
     */
    void reconcileEvictions()
    {
        final Set<ByteArrayKey> present = new TreeSet<>();
        long cursor = 0;
        int scans = 0;
        do
        {
            final ScanResult result = store.scan(cursor, null, 16);
            result.keys().forEach(key -> present.add(new ByteArrayKey(key)));
            cursor = result.cursor();
            assertTrue(++scans < 100_000, "scan did not end");
        }
        while (cursor != 0);
        int vanished = 0;
        final StringBuilder gone = new StringBuilder();
        for (final ByteArrayKey key : model.liveKeys())
        {
            if (!present.contains(key))
            {
                model.forget(key);
                vanished++;
                gone.append(' ').append(key);
            }
        }
        final long counted = store.stats().evicted();
        assertTrue(vanished <= counted - evictionsCounted, "keys gone from the store:" + gone + ", but only " +
            (counted - evictionsCounted) + " evictions counted since the last step");
        evictionsCounted = counted;
        evictedSeen += vanished;
    }

    private static String outcome(final Supplier<Object> call)
    {
        try
        {
            return render(call.get());
        }
        catch (final AgniException ex)
        {
            return EXCEPTION_PREFIX + ex.getClass().getSimpleName();
        }
    }

    private static String render(final Object result)
    {
        if (result instanceof byte[])
        {
            final byte[] bytes = (byte[])result;
            return bytes.length > 64 ? "<" + bytes.length + " bytes, hash " + Arrays.hashCode(bytes) + ">" :
                ByteArrayKey.printable(bytes);
        }
        if (result instanceof List)
        {
            final StringBuilder sb = new StringBuilder("[");
            for (final Object element : (List<?>)result)
            {
                sb.append(render(element)).append(", ");
            }
            return sb.append(']').toString();
        }
        return String.valueOf(result);
    }

    /**
     * A value read through the zero-copy path, into an expandable buffer at an offset.
     *
     * @param length what the call returned.
     * @param dst    the buffer.
     * @param offset where the value went.
     * @return a copy of the value, or {@code null} for {@link AgniStore#NOT_FOUND}.
     */
    static byte[] copied(final int length, final ExpandableArrayBuffer dst, final int offset)
    {
        if (length == AgniStore.NOT_FOUND)
        {
            return null;
        }
        final byte[] value = new byte[length];
        dst.getBytes(offset, value);
        return value;
    }

    /**
     * A heap buffer holding bytes at offset 3, junk around them.
     *
     * @param bytes the bytes.
     * @return the buffer.
     */
    static UnsafeBuffer at3(final byte[] bytes)
    {
        final byte[] array = new byte[bytes.length + 6];
        Arrays.fill(array, (byte)'#');
        System.arraycopy(bytes, 0, array, 3, bytes.length);
        return new UnsafeBuffer(array);
    }

    /**
     * The checks after every step: structural integrity, and the entry counts within what the model allows.
     */
    void checkInvariants()
    {
        steps++;
        if (evicting)
        {
            reconcileEvictions();
        }
        store.verifyIntegrity();
        final long size = store.size();
        final StoreStats stats = store.stats();
        assertEquals(size, stats.entries(), "size() and stats().entries()");
        assertTrue(size >= model.liveCount() && size <= model.heldCount(),
            "size " + size + " outside [live " + model.liveCount() + ", held " + model.heldCount() + "]");
        assertTrue(stats.entriesWithExpiry() >= model.liveWithExpiryCount() &&
            stats.entriesWithExpiry() <= model.heldWithExpiryCount(),
            "entriesWithExpiry " + stats.entriesWithExpiry() + " outside [live " + model.liveWithExpiryCount() +
            ", held " + model.heldWithExpiryCount() + "]");
        assertTrue(stats.offHeapBytes() <= stats.budgetBytes(), "over budget: " + stats);
        assertTrue(stats.liveEntryBytes() <= stats.offHeapBytes(), "live bytes over held bytes: " + stats);
    }

    /**
     * After a full sweep the store holds exactly the live entries.
     */
    void checkExactCounts()
    {
        assertEquals(model.liveCount(), store.size(), "size after a sweep");
        final StoreStats stats = store.stats();
        assertEquals(model.liveCount(), stats.entries(), "entries after a sweep");
        assertEquals(model.liveWithExpiryCount(), stats.entriesWithExpiry(), "entriesWithExpiry after a sweep");
    }

    @Override
    public void close()
    {
        store.close();
        if (directory != null)
        {
            try (Stream<Path> paths = Files.walk(directory))
            {
                for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
                {
                    Files.deleteIfExists(path);
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }

    @Override
    public String toString()
    {
        return "ModelRun{shards=" + store.shardCount() + ", evicting=" + evicting + ", steps=" + steps + ", reopens=" +
            reopens + ", evicted=" + evictedSeen + ", refusals=" + refusals + ", now=+" +
            (clock.time() - TestStores.START_MS) + "ms}";
    }
}
