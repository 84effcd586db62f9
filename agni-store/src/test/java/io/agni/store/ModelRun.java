package io.agni.store;

import io.agni.api.AgniException;
import io.agni.api.AgniStore;
import io.agni.api.Durability;
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

    final CachedEpochClock clock = TestStores.clock();
    final StoreModel model;
    final int shards;
    /**
     * The durable store's directory, {@code null} for an in-memory store.
     */
    final Path directory;
    OffHeapStore store;
    int steps;
    int reopens;

    ModelRun(final int shards)
    {
        this(shards, null);
    }

    /**
     * A run whose store keeps a write-ahead log in {@code directory} ({@code Durability.DURABLE}), so that it can be
     * reopened.
     */
    ModelRun(final int shards, final Path directory)
    {
        this.shards = shards;
        this.directory = directory;
        store = open();
        model = new StoreModel(clock::time, MAX_VALUE_LENGTH);
    }

    private OffHeapStore open()
    {
        final OffHeapStoreBuilder builder = TestStores.builder(shards, clock)
            .maxMemory(32L * 1024 * 1024)
            .maxKeyLength(1024)
            .maxValueLength(MAX_VALUE_LENGTH);
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
    }

    long now()
    {
        return clock.time();
    }

    /**
     * Runs the same call on the model and on the store and asserts the same outcome: an equal result or the same
     * kind of {@link AgniException}.
     *
     * @param what     the call, for the failure message.
     * @param expected the model's call.
     * @param actual   the store's call.
     */
    static void same(final String what, final Supplier<Object> expected, final Supplier<Object> actual)
    {
        assertEquals(outcome(expected), outcome(actual), what);
    }

    private static String outcome(final Supplier<Object> call)
    {
        try
        {
            return render(call.get());
        }
        catch (final AgniException ex)
        {
            return ex.getClass().getSimpleName();
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
        return "ModelRun{shards=" + store.shardCount() + ", steps=" + steps + ", reopens=" + reopens + ", now=+" +
            (clock.time() - TestStores.START_MS) + "ms}";
    }
}
