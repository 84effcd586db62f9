package io.agni.bench;

import io.agni.api.StoreStats;
import io.agni.bench.adapter.AgniBytesAdapter;
import io.agni.bench.adapter.AgniZeroCopyAdapter;
import io.agni.bench.adapter.KeySet;
import io.agni.bench.adapter.StoreAdapter;
import io.agni.bench.adapter.StoreKind;
import io.agni.bench.adapter.Value;
import io.agni.store.OffHeapStoreBuilder;
import org.agrona.ExpandableDirectByteBuffer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Bytes per entry of each store: inserts {@code N} entries (default 1,000,000) of 16-byte keys and 100-byte values
 * and reports {@code (off-heap bytes held + heap growth) / N}, where heap growth is the heap in use after
 * {@link System#gc()} after the inserts minus before the store was opened, and off-heap bytes are what the store
 * reports (the method is printed per store). For agni it also prints {@code stats().offHeapBytes() / N} and checks
 * that agni's heap use does not grow with its entry count (heap at {@code N/10} and at {@code N} entries).
 *
 * <h2>Usage</h2>
 * <pre>
 * java -cp benchmarks.jar io.agni.bench.BytesPerEntry [--entries=N] [store ...]
 * </pre>
 * Runs each store (default: agni-zc agni-1shard-zc chm chronicle ohc) in a JVM of its own, started with
 * {@link JvmFlags#all()} and {@link #CHILD_HEAP_FLAGS}, then prints a summary table. With {@code --in-process} and
 * one store it measures in the current JVM instead, which then needs the flags itself. Exits with {@code 1} if a
 * store failed or agni's heap grew with its entries.
 */
public final class BytesPerEntry
{
    /**
     * The heap of each measuring JVM: fixed and touched up front, so that resident memory grows only off-heap.
     */
    public static final List<String> CHILD_HEAP_FLAGS = List.of("-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch");

    /**
     * The default number of entries.
     */
    public static final int DEFAULT_ENTRIES = 1_000_000;

    /**
     * The stores measured when none is named.
     */
    public static final List<String> DEFAULT_STORES = List.of("agni-zc", "agni-1shard-zc", "chm", "chronicle", "ohc");

    /**
     * The most agni's heap may grow per entry between {@code N/10} and {@code N} entries and still count as not
     * growing: GC bookkeeping jitters by a few kilobytes, an on-heap index would add several bytes per entry.
     */
    static final double MAX_AGNI_HEAP_GROWTH_PER_ENTRY = 1.0;

    private static final String RESULT_PREFIX = "RESULT\t";
    private static final int PAYLOAD_BYTES = StoreBenchmark.KEY_LENGTH + StoreBenchmark.VALUE_LENGTH;

    private BytesPerEntry()
    {
    }

    /**
     * Runs the measurement.
     *
     * @param args {@code [--in-process] [--entries=N] [store ...]}.
     * @throws Exception if a JVM could not be started.
     */
    public static void main(final String[] args) throws Exception
    {
        boolean inProcess = false;
        int entries = DEFAULT_ENTRIES;
        final List<String> stores = new ArrayList<>();
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
            else if (arg.startsWith("-"))
            {
                throw new IllegalArgumentException("unknown option: " + arg +
                    ", usage: BytesPerEntry [--in-process] [--entries=N] [store ...]");
            }
            else
            {
                StoreKind.byId(arg);
                stores.add(arg);
            }
        }
        if (entries < 10)
        {
            throw new IllegalArgumentException("entries must be at least 10: entries=" + entries);
        }

        final int status;
        if (inProcess)
        {
            if (stores.size() != 1)
            {
                throw new IllegalArgumentException("--in-process measures one store: stores=" + stores);
            }
            status = measure(StoreKind.byId(stores.get(0)), entries);
        }
        else
        {
            status = runEach(stores.isEmpty() ? DEFAULT_STORES : stores, entries);
        }
        System.exit(status);
    }

    private static int runEach(final List<String> stores, final int entries) throws IOException, InterruptedException
    {
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final List<String[]> results = new ArrayList<>();
        int status = 0;
        for (final String store : stores)
        {
            final List<String> command = new ArrayList<>();
            command.add(java.toString());
            command.addAll(JvmFlags.all());
            command.addAll(CHILD_HEAP_FLAGS);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(BytesPerEntry.class.getName());
            command.add("--in-process");
            command.add("--entries=" + entries);
            command.add(store);

            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = out.readLine()) != null)
                {
                    if (line.startsWith(RESULT_PREFIX))
                    {
                        results.add(line.substring(RESULT_PREFIX.length()).split("\t"));
                    }
                    else
                    {
                        System.out.println(line);
                    }
                }
            }
            final int exit = process.waitFor();
            if (exit != 0)
            {
                System.out.println("!! " + store + ": measuring JVM exited with " + exit);
                status = 1;
            }
        }

        System.out.println();
        System.out.printf(Locale.ROOT, "%-16s %10s %12s %14s %13s  %s%n",
            "store", "entries", "heap B/entry", "off-heap B/ent", "total B/entry", "off-heap measured by");
        for (final String[] r : results)
        {
            System.out.printf(Locale.ROOT, "%-16s %10s %12s %14s %13s  %s%n", r[0], r[1], r[2], r[3], r[4], r[5]);
        }
        return status;
    }

    private static int measure(final StoreKind kind, final int entries)
    {
        final int checkpoint = entries / 10;
        final KeySet keys = KeySet.generate(entries, StoreBenchmark.KEY_LENGTH, StoreBenchmark.HIT_TAG);
        final Value value = new Value(StoreBenchmark.VALUE_LENGTH, 42);

        final MemorySnapshot before = MemorySnapshot.take();
        final StoreAdapter adapter = kind.open(entries, StoreBenchmark.KEY_LENGTH, StoreBenchmark.VALUE_LENGTH);
        MemorySnapshot atCheckpoint = null;
        long checkpointNanos = 0;
        final long start = System.nanoTime();
        for (int i = 0; i < entries; i++)
        {
            adapter.put(keys, i, value);
            if (i + 1 == checkpoint && kind.isAgni())
            {
                final long checkpointStart = System.nanoTime();
                atCheckpoint = MemorySnapshot.take();
                checkpointNanos = System.nanoTime() - checkpointStart;
            }
        }
        final long insertNanos = System.nanoTime() - start - checkpointNanos;
        final MemorySnapshot after = MemorySnapshot.take();
        final StoreAdapter.OffHeapUsage offHeap = adapter.offHeapUsage();
        final StoreStats agniStats = agniStats(adapter);
        verify(kind, adapter, keys, value);
        Reference.reachabilityFence(keys);

        final long heapGrowth = after.heapUsed() - before.heapUsed();
        final double heapPerEntry = (double)heapGrowth / entries;
        final double offHeapPerEntry = (double)offHeap.bytes() / entries;
        final double total = heapPerEntry + offHeapPerEntry;

        System.out.printf(Locale.ROOT, "== %s: %s%s; %,d entries of %d B keys + %d B values (%d B payload), " +
            "inserted in %.2f s, Java %s%n",
            kind.id(), kind.description(), kind.isAgni() ? " (shards=" + shards(kind) + ")" : "", entries,
            StoreBenchmark.KEY_LENGTH, StoreBenchmark.VALUE_LENGTH, PAYLOAD_BYTES, insertNanos / 1e9,
            System.getProperty("java.version"));
        System.out.printf(Locale.ROOT, "   heap growth after System.gc(): %,15d B  %8.2f B/entry%n",
            heapGrowth, heapPerEntry);
        System.out.printf(Locale.ROOT, "   off-heap held:                  %,15d B  %8.2f B/entry  by %s%n",
            offHeap.bytes(), offHeapPerEntry, offHeap.method());
        System.out.printf(Locale.ROOT, "   total:                                            %8.2f B/entry  " +
            "(%.2f B/entry over the payload)%n", total, total - PAYLOAD_BYTES);
        System.out.printf(Locale.ROOT, "   cross-checks (not in the total): direct ByteBuffer pool growth %,d B " +
            "(%.2f B/entry); resident set growth %,d B (%.2f B/entry; includes metaspace and compiled code)%n",
            after.directUsed() - before.directUsed(), (double)(after.directUsed() - before.directUsed()) / entries,
            after.residentBytes() - before.residentBytes(),
            (double)(after.residentBytes() - before.residentBytes()) / entries);

        boolean heapFlat = true;
        if (agniStats != null && atCheckpoint != null)
        {
            System.out.printf(Locale.ROOT, "   agni stats(): offHeapBytes()/entries = %.2f B, " +
                "liveEntryBytes()/entries = %.2f B, utilisation = %.3f, entries = %,d%n",
                (double)agniStats.offHeapBytes() / entries, (double)agniStats.liveEntryBytes() / entries,
                agniStats.utilisation(), agniStats.entries());
            final long heapAtCheckpoint = atCheckpoint.heapUsed() - before.heapUsed();
            final double growthPerEntry = (double)(heapGrowth - heapAtCheckpoint) / (entries - checkpoint);
            heapFlat = growthPerEntry <= MAX_AGNI_HEAP_GROWTH_PER_ENTRY;
            System.out.printf(Locale.ROOT, "   agni heap growth: %,d B at %,d entries, %,d B at %,d entries: " +
                "%.3f B per added entry (limit %.1f) -> %s%n",
                heapAtCheckpoint, checkpoint, heapGrowth, entries, growthPerEntry, MAX_AGNI_HEAP_GROWTH_PER_ENTRY,
                heapFlat ? "PASS: heap does not grow with entry count" : "FAIL: heap grows with entry count");
        }

        System.out.printf(Locale.ROOT, "%s%s\t%d\t%.2f\t%.2f\t%.2f\t%s%n",
            RESULT_PREFIX, kind.id(), entries, heapPerEntry, offHeapPerEntry, total, offHeap.method());
        adapter.close();
        return heapFlat ? 0 : 1;
    }

    private static void verify(final StoreKind kind, final StoreAdapter adapter, final KeySet keys, final Value value)
    {
        final ExpandableDirectByteBuffer dst = new ExpandableDirectByteBuffer(StoreBenchmark.VALUE_LENGTH);
        for (final int index : new int[]{0, keys.count() / 2, keys.count() - 1})
        {
            if (adapter.get(keys, index, dst) != value.length())
            {
                throw new IllegalStateException("store lost an entry: store=" + kind.id() + ", index=" + index);
            }
        }
    }

    private static StoreStats agniStats(final StoreAdapter adapter)
    {
        if (adapter instanceof AgniZeroCopyAdapter agni)
        {
            return agni.store().stats();
        }
        if (adapter instanceof AgniBytesAdapter agni)
        {
            return agni.store().stats();
        }
        return null;
    }

    private static int shards(final StoreKind kind)
    {
        return kind == StoreKind.AGNI_1SHARD_ZC || kind == StoreKind.AGNI_1SHARD_BYTES ?
            1 : OffHeapStoreBuilder.defaultShards();
    }
}
