package io.agni.bench;

import io.agni.api.StoreStats;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Resident memory per entry of agni: inserts {@code N} entries (default 1,000,000) of 16-byte keys and 100-byte
 * values into an {@link OffHeapStore} and prints the growth of the process's resident set ({@code VmRSS} from
 * {@code /proc/self/status}) per entry, next to the growth of the JVM's direct-buffer pool, the store's own
 * accounting ({@code stats()}) and the heap in use. The target is at most {@link #TARGET_BYTES_PER_ENTRY} bytes of
 * resident set per entry; the program exits with {@code 1} above it (or where {@code /proc} is missing).
 * <p>
 * The resident set counts what the direct pool does not: pages of buffers freed but not yet returned, the memory
 * allocator's headers and rounding, metaspace and compiled code. The keys are computed from their index into one
 * reused buffer and the value is one heap array, so the harness itself holds no memory per entry.
 *
 * <h2>Usage</h2>
 * <pre>
 * java -cp benchmarks.jar io.agni.bench.ResidentMemoryPerEntry [--entries=N] [--shards=S]
 * </pre>
 * Measures in a JVM of its own, started with agni's flag and {@link BytesPerEntry#CHILD_HEAP_FLAGS} (a fixed,
 * pre-touched heap, so that the resident set grows only off the heap). With {@code --in-process} it measures in the
 * current JVM, which then needs those flags itself. Shards default to the store's default.
 */
public final class ResidentMemoryPerEntry
{
    /**
     * The most resident-set growth per entry accepted (16 + 100 bytes of payload).
     */
    public static final double TARGET_BYTES_PER_ENTRY = 140.0;

    private static final int KEY_LENGTH = StoreBenchmark.KEY_LENGTH;
    private static final int VALUE_LENGTH = StoreBenchmark.VALUE_LENGTH;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /**
     * Entries of the warm-up store, enough to compile the write path and to grow every shard's table a few times.
     */
    static final int WARM_UP_ENTRIES = 200_000;

    private ResidentMemoryPerEntry()
    {
    }

    /**
     * Runs the measurement.
     *
     * @param args {@code [--in-process] [--entries=N] [--shards=S]}.
     * @throws Exception if the measuring JVM could not be started.
     */
    public static void main(final String[] args) throws Exception
    {
        boolean inProcess = false;
        int entries = BytesPerEntry.DEFAULT_ENTRIES;
        int shards = OffHeapStoreBuilder.defaultShards();
        for (final String arg : args)
        {
            if ("--in-process".equals(arg))
            {
                inProcess = true;
            }
            else if (arg.startsWith("--entries="))
            {
                entries = Integer.parseInt(arg.substring("--entries=".length()).replace("_", ""));
            }
            else if (arg.startsWith("--shards="))
            {
                shards = Integer.parseInt(arg.substring("--shards=".length()));
            }
            else
            {
                throw new IllegalArgumentException("unknown option: " + arg +
                    ", usage: ResidentMemoryPerEntry [--in-process] [--entries=N] [--shards=S]");
            }
        }
        if (entries < 1)
        {
            throw new IllegalArgumentException("entries must be at least 1: entries=" + entries);
        }
        System.exit(inProcess ? measure(entries, shards) : runChild(entries, shards));
    }

    private static int runChild(final int entries, final int shards) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(JvmFlags.AGRONA);
        command.addAll(BytesPerEntry.CHILD_HEAP_FLAGS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ResidentMemoryPerEntry.class.getName());
        command.add("--in-process");
        command.add("--entries=" + entries);
        command.add("--shards=" + shards);
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }

    private static int measure(final int entries, final int shards)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[KEY_LENGTH]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_LENGTH]);
        for (int i = 0; i < VALUE_LENGTH; i++)
        {
            value.putByte(i, (byte)(i * 7 + 1));
        }

        // The JVM's one-time costs (classes loaded, code compiled, the compiler's arenas) land in the resident set
        // of the first store a process fills, not per entry. A warm-up store of WARM_UP_ENTRIES takes them and stays
        // open until the end: closed, its freed memory could stay resident in the C allocator and be reused by the
        // measured store, which would then seem to grow less than it holds. The growth is reported from before the
        // warm-up (cold) and from after it (warm); the target is checked against the warm figure.
        final MemorySnapshot cold = MemorySnapshot.take();
        final OffHeapStore warmUp = OffHeapStore.builder().shards(shards).build();
        for (int i = 0; i < Math.min(WARM_UP_ENTRIES, entries); i++)
        {
            key.putLong(0, ~i * GOLDEN);
            key.putLong(Long.BYTES, i);
            warmUp.set(key, 0, KEY_LENGTH, value, 0, VALUE_LENGTH);
        }
        final long warmUpBytes = warmUp.stats().offHeapBytes();
        final MemorySnapshot before = MemorySnapshot.take();
        try (OffHeapStore store = OffHeapStore.builder().shards(shards).build())
        {
            final long start = System.nanoTime();
            for (int i = 0; i < entries; i++)
            {
                key.putLong(0, i * GOLDEN);
                key.putLong(Long.BYTES, i);
                store.set(key, 0, KEY_LENGTH, value, 0, VALUE_LENGTH);
            }
            final long insertNanos = System.nanoTime() - start;
            // stats() also frees the index tables retired by the last growths, once no operation is in flight
            final StoreStats stats = store.stats();
            final MemorySnapshot after = MemorySnapshot.take();
            if (store.size() != entries)
            {
                throw new IllegalStateException("store lost entries: size=" + store.size() + ", entries=" + entries);
            }
            return report(entries, shards, insertNanos, stats, cold, warmUpBytes, before, after);
        }
        finally
        {
            warmUp.close();
        }
    }

    private static int report(
        final int entries, final int shards, final long insertNanos, final StoreStats stats,
        final MemorySnapshot cold, final long warmUpBytes, final MemorySnapshot before, final MemorySnapshot after)
    {
        final long rss = after.residentBytes() - before.residentBytes();
        final long coldRss = after.residentBytes() - cold.residentBytes() - warmUpBytes;
        final long direct = after.directUsed() - before.directUsed();
        final double n = entries;
        System.out.printf(Locale.ROOT, "== agni, %d shard%s: %,d entries of %d B keys + %d B values (%d B payload), " +
            "inserted in %.2f s, Java %s%n", shards, shards == 1 ? "" : "s", entries, KEY_LENGTH, VALUE_LENGTH,
            KEY_LENGTH + VALUE_LENGTH, insertNanos / 1e9, System.getProperty("java.version"));
        System.out.printf(Locale.ROOT, "   resident set (VmRSS) growth: %,15d B  %8.2f B/entry (after a warm-up store " +
            "of %,d entries, filled and kept open)%n", rss, rss / n, Math.min(WARM_UP_ENTRIES, entries));
        System.out.printf(Locale.ROOT, "   the same from a cold JVM:    %,15d B  %8.2f B/entry (less the warm-up store's off-heap " +
            "bytes; includes the JVM's one-time costs: classes, compiled code)%n", coldRss, coldRss / n);
        System.out.printf(Locale.ROOT, "   direct pool growth:          %,15d B  %8.2f B/entry%n",
            direct, direct / n);
        System.out.printf(Locale.ROOT, "   resident set beyond the pool:%,15d B  %8.2f B/entry%n",
            rss - direct, (rss - direct) / n);
        System.out.printf(Locale.ROOT, "   stats(): offHeapBytes %8.2f B/entry, liveEntryBytes %8.2f B/entry " +
            "(offHeap - live: index and segment slack %.2f B/entry)%n",
            stats.offHeapBytes() / n, stats.liveEntryBytes() / n,
            (stats.offHeapBytes() - stats.liveEntryBytes()) / n);
        System.out.printf(Locale.ROOT, "   heap used after GC: %,d B before the store, %,d B after (%.2f B/entry)%n",
            before.heapUsed(), after.heapUsed(), (after.heapUsed() - before.heapUsed()) / n);
        if (before.residentBytes() < 0 || after.residentBytes() < 0)
        {
            System.out.println("   FAIL: no /proc/self/status here, the resident set was not measured");
            return 1;
        }
        final boolean pass = rss / n <= TARGET_BYTES_PER_ENTRY;
        System.out.printf(Locale.ROOT, "   target: resident set growth <= %.1f B/entry -> %s%n",
            TARGET_BYTES_PER_ENTRY, pass ? "PASS" : "FAIL");
        return pass ? 0 : 1;
    }
}
