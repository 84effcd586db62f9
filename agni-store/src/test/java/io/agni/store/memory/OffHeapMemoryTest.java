package io.agni.store.memory;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link OffHeapMemory}: what it allocates and refuses.
 */
class OffHeapMemoryTest
{
    private static final int SIZE = 64 * 1024;
    private static final long BUDGET = 1 << 20;

    private final MemoryBudget budget = new MemoryBudget(BUDGET);

    @Test
    void anAllocationThatWouldPassTheJvmsDirectMemoryLimitIsRefusedWithoutReservingBudget()
    {
        final long limit = DirectMemory.totalCapacity() + 3 * SIZE / 2;
        final OffHeapMemory limited = new OffHeapMemory(budget, limit);

        final UnsafeBuffer fits = limited.allocate(SIZE);
        final UnsafeBuffer refused = limited.allocate(SIZE);

        assertNotNull(fits);
        assertNull(refused, "a second buffer would pass the JVM's limit, so the JDK would collect and sleep");
        assertEquals(SIZE, budget.reserved());
        limited.free(fits);
    }
}
