package io.agni.net.launcher;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The standalone server shares the JVM's direct memory between the store and the clients, and warns when the
 * settings cannot be met or the heap dwarfs the store.
 */
class MemoryPlanTest
{
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    @Test
    void byDefaultTheClientsGetAQuarterOfTheDirectMemoryLimitAndTheStoreTheRest()
    {
        final MemoryPlan plan = MemoryPlan.of(4 * GIB, 4 * GIB, null, null);

        assertEquals(GIB, plan.maxClientMemory);
        assertEquals(3 * GIB, plan.storeBudget);
        assertEquals(0, plan.warnings.size(), plan.warnings.toString());
    }

    @Test
    void theClientsDefaultShareIsAtMostOneGibibyte()
    {
        final MemoryPlan plan = MemoryPlan.of(512 * MIB, 16 * GIB, null, null);

        assertEquals(GIB, plan.maxClientMemory);
        assertEquals(15 * GIB, plan.storeBudget);
        assertEquals(0, plan.warnings.size(), plan.warnings.toString());
    }

    @Test
    void aSmallJvmGivesItsClientsASmallShare()
    {
        final MemoryPlan plan = MemoryPlan.of(256 * MIB, 256 * MIB, null, null);

        assertEquals(64 * MIB, plan.maxClientMemory);
        assertEquals(192 * MIB, plan.storeBudget);
    }

    @Test
    void noClientLimitLeavesTheStoreTheWholeDirectMemoryLimit()
    {
        final MemoryPlan plan = MemoryPlan.of(GIB, GIB, null, 0L);

        assertEquals(0, plan.maxClientMemory);
        assertEquals(GIB, plan.storeBudget);
        assertEquals(0, plan.warnings.size(), plan.warnings.toString());
    }

    @Test
    void limitsThatAddUpToMoreThanTheDirectMemoryLimitAreWarnedAbout()
    {
        final MemoryPlan plan = MemoryPlan.of(GIB, GIB, 900 * MIB, 200 * MIB);

        assertEquals(900 * MIB, plan.storeBudget);
        assertEquals(1, plan.warnings.size(), plan.warnings.toString());
        assertEquals("the store's budget (943718400 bytes) and the clients' memory limit (209715200 bytes) add up " +
            "to more than the JVM's direct-memory limit (1073741824 bytes): allocations fail with " +
            "OutOfMemoryError before both limits are reached; set -XX:MaxDirectMemorySize to at least 1153433600 " +
            "bytes", plan.warnings.get(0));
        assertEquals(1, MemoryPlan.of(GIB, GIB, 2 * GIB, 0L).warnings.size());
    }

    @Test
    void aHeapOverFourTimesTheBudgetAndOverOneGibibyteIsWarnedAbout()
    {
        final MemoryPlan dwarfed = MemoryPlan.of(8 * GIB, 8 * GIB, 512 * MIB, null);
        final MemoryPlan smallHeap = MemoryPlan.of(GIB, 4 * GIB, 100 * MIB, null);
        final MemoryPlan proportionate = MemoryPlan.of(2 * GIB, 4 * GIB, 512 * MIB, null);

        assertEquals(1, dwarfed.warnings.size(), dwarfed.warnings.toString());
        assertTrue(dwarfed.warnings.get(0).startsWith("the JVM's maximum heap (8589934592 bytes) is more than 4 " +
            "times the store's budget (536870912 bytes)"), dwarfed.warnings.get(0));
        assertEquals(0, smallHeap.warnings.size(), "a heap of 1 GiB is never worth a warning");
        assertEquals(0, proportionate.warnings.size(), "2 GiB is 4 times 512 MiB, not more");
    }
}
