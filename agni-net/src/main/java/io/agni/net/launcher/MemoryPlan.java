package io.agni.net.launcher;

import io.agni.net.AgniServerBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * How the standalone server shares the JVM's memory between the store and the clients, and what it warns about.
 *
 * <h2>Direct memory</h2>
 * The store's data and the clients' buffers are direct buffers, so together they must fit the JVM's direct-memory
 * limit ({@code -XX:MaxDirectMemorySize}, by default the maximum heap size). Left to their defaults, the clients get
 * {@link AgniServerBuilder#defaultMaxClientMemory(long)} of it (a quarter, at most 1 GiB) and the store the rest, so
 * the two limits add up to the direct-memory limit exactly. When they are set and add up to more, the server warns:
 * allocations would fail with {@code OutOfMemoryError} before the configured limits are reached.
 *
 * <h2>Heap</h2>
 * The heap holds no data: only the connections' state, the keys of a KEYS or SCAN reply being built and the
 * arguments of MSET, which are copied. A heap much larger than the store is memory the process may take for
 * nothing, so the server warns when the maximum heap is more than {@value #HEAP_WARNING_RATIO} times the store's
 * budget and more than {@link #HEAP_WARNING_FLOOR} bytes (1 GiB): below that, any heap is cheap enough not to
 * matter.
 */
final class MemoryPlan
{
    /**
     * A maximum heap above this many times the store's budget is worth a warning.
     */
    static final int HEAP_WARNING_RATIO = 4;

    /**
     * A maximum heap of at most this many bytes, 1 GiB, is never worth a warning.
     */
    static final long HEAP_WARNING_FLOOR = 1L << 30;

    final long storeBudget;
    final long maxClientMemory;
    final List<String> warnings;

    private MemoryPlan(final long storeBudget, final long maxClientMemory, final List<String> warnings)
    {
        this.storeBudget = storeBudget;
        this.maxClientMemory = maxClientMemory;
        this.warnings = warnings;
    }

    /**
     * @param heapMax         the JVM's maximum heap size.
     * @param directLimit     the JVM's direct-memory limit.
     * @param maxMemory       {@code --max-memory}, or null for the default.
     * @param maxClientMemory {@code --max-client-memory}, or null for the default.
     * @return the store's budget and the clients' limit to use, and the warnings to log.
     */
    static MemoryPlan of(final long heapMax, final long directLimit, final Long maxMemory, final Long maxClientMemory)
    {
        final long clients = maxClientMemory != null ?
            maxClientMemory : AgniServerBuilder.defaultMaxClientMemory(directLimit);
        final long budget = maxMemory != null ? maxMemory : Math.max(directLimit / 2, directLimit - clients);
        final List<String> warnings = new ArrayList<>();
        if (clients == 0 && budget > directLimit)
        {
            warnings.add("the store's budget (" + budget + " bytes) is above the JVM's direct-memory limit (" +
                directLimit + " bytes): writes are refused with OOM before the budget is full; set " +
                "-XX:MaxDirectMemorySize to at least " + budget + " bytes");
        }
        else if (clients > 0 && budget + clients > directLimit)
        {
            warnings.add("the store's budget (" + budget + " bytes) and the clients' memory limit (" + clients +
                " bytes) add up to more than the JVM's direct-memory limit (" + directLimit + " bytes): " +
                "allocations fail with OutOfMemoryError before both limits are reached; set " +
                "-XX:MaxDirectMemorySize to at least " + (budget + clients) + " bytes");
        }
        if (heapMax > HEAP_WARNING_FLOOR && heapMax > HEAP_WARNING_RATIO * budget)
        {
            warnings.add("the JVM's maximum heap (" + heapMax + " bytes) is more than " + HEAP_WARNING_RATIO +
                " times the store's budget (" + budget + " bytes): agni keeps its data off the heap, so most of " +
                "it would go unused; start the JVM with a smaller -Xmx (512m suits most workloads) and set " +
                "-XX:MaxDirectMemorySize for the store, as docs/operations.md describes");
        }
        return new MemoryPlan(budget, clients, warnings);
    }
}
