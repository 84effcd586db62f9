package io.agni.store.memory;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Reclamation of retired buffers ({@link OffHeapMemory}, {@link RetiredBuffers}): a buffer is freed, and its bytes
 * leave the budget, once every reader that was in flight when it was retired has left its outermost operation, and
 * not before; readers that were idle, or that entered afterwards, do not hold it.
 */
class OffHeapMemoryTest
{
    private static final int SIZE = 64 * 1024;
    private static final long BUDGET = 1 << 20;

    private final Reader reader = new Reader();
    private final Reader other = new Reader();
    private final MemoryBudget budget = new MemoryBudget(BUDGET);
    private final OffHeapMemory memory = new OffHeapMemory(budget, List.of(reader, other));

    @Test
    void aBufferRetiredWhileAReaderIsInFlightWaitsUntilItLeaves()
    {
        final UnsafeBuffer buffer = allocateMarked();
        reader.markEntered();

        memory.retire(buffer);
        memory.reclaim();

        assertHeld(buffer, "the reader may still be reading it");
        reader.markExited();
        memory.reclaim();
        assertFreed(buffer);
    }

    @Test
    void aNestedOperationLeavingDoesNotFreeWhatTheOuterOneMayHold()
    {
        final UnsafeBuffer buffer = allocateMarked();
        reader.markEntered();
        reader.markEntered();

        memory.retire(buffer);
        reader.markExited();
        memory.reclaim();

        assertHeld(buffer, "the outer operation is still in flight");
        reader.markExited();
        memory.reclaim();
        assertFreed(buffer);
    }

    @Test
    void aThreadsOwnOutermostOperationDoesNotHoldBackWhatItRetiresButANestedOneDoes()
    {
        // This thread's own state (the fields' readers were made on the thread that built the test instance).
        final Reader self = new Reader();
        final OffHeapMemory mine = new OffHeapMemory(budget, List.of(self, other));
        final UnsafeBuffer first = mine.allocate(SIZE);
        final UnsafeBuffer second = mine.allocate(SIZE);

        self.markEntered();
        mine.retire(first);
        assertEquals(0, first.capacity(), "retired in the thread's outermost operation: freed at once");
        assertEquals(SIZE, budget.reserved(), "and its bytes are back in the budget within the operation");

        self.markEntered();
        mine.retire(second);
        assertEquals(SIZE, second.capacity(), "retired in a nested operation: the outer one may still read it");
        self.markExited();
        self.markExited();
        mine.reclaim();
        assertEquals(0, second.capacity());
        assertEquals(0, budget.reserved());
    }

    @Test
    void readersThatWereIdleOrEnteredAfterTheRetirementDoNotHoldIt()
    {
        final UnsafeBuffer buffer = allocateMarked();

        memory.retire(buffer);
        reader.markEntered();
        other.markEntered();
        memory.reclaim();

        assertFreed(buffer);
        reader.markExited();
        other.markExited();
    }

    @Test
    void aReaderThatLeftAndCameBackSinceTheRetirementNoLongerHoldsIt()
    {
        final UnsafeBuffer buffer = allocateMarked();
        reader.markEntered();
        memory.retire(buffer);

        reader.markExited();
        reader.markEntered();
        memory.reclaim();

        assertFreed(buffer);
        reader.markExited();
    }

    @Test
    void buffersWaitingForOneReaderDoNotHoldThoseRetiredAfterIt()
    {
        final UnsafeBuffer first = allocateMarked();
        final UnsafeBuffer second = allocateMarked();
        other.markEntered();
        memory.retire(first);
        other.markExited();
        reader.markEntered();
        memory.retire(second);

        memory.reclaim();

        assertEquals(0, first.capacity(), "the first buffer's reader has left");
        assertEquals(SIZE, second.capacity(), "the second buffer's reader is still in flight");
        assertEquals(SIZE, budget.reserved());
        reader.markExited();
        memory.reclaim();
        assertEquals(0, budget.reserved());
    }

    @Test
    void anAllocationThatWouldPassTheJvmsDirectMemoryLimitIsRefusedWithoutReservingBudget()
    {
        final long limit = DirectMemory.totalCapacity() + 3 * SIZE / 2;
        final OffHeapMemory limited = new OffHeapMemory(budget, List.of(), limit);

        final UnsafeBuffer fits = limited.allocate(SIZE);
        final UnsafeBuffer refused = limited.allocate(SIZE);

        assertNotNull(fits);
        assertNull(refused, "a second buffer would pass the JVM's limit, so the JDK would collect and sleep");
        assertEquals(SIZE, budget.reserved());
        limited.free(fits);
    }

    @Test
    void closeFreesRetiredBuffersWhoeverWasReading()
    {
        final UnsafeBuffer buffer = allocateMarked();
        reader.markEntered();
        memory.retire(buffer);

        memory.freeRetired();

        assertFreed(buffer);
        reader.markExited();
    }

    private UnsafeBuffer allocateMarked()
    {
        final UnsafeBuffer buffer = memory.allocate(SIZE);
        assertNotNull(buffer);
        buffer.putLong(SIZE - Long.BYTES, 0x5EED_5EEDL);
        return buffer;
    }

    private void assertHeld(final UnsafeBuffer buffer, final String why)
    {
        assertEquals(SIZE, buffer.capacity(), "not freed: " + why);
        assertEquals(0x5EED_5EEDL, buffer.getLong(SIZE - Long.BYTES), "its memory is intact");
        assertEquals(SIZE, budget.reserved(), "its bytes stay in the budget until it is freed");
        assertEquals(SIZE, memory.retiredBytes());
    }

    private void assertFreed(final UnsafeBuffer buffer)
    {
        assertEquals(0, buffer.capacity(), "freed and re-pointed at an empty array");
        assertEquals(0, budget.reserved(), "its bytes left the budget");
        assertEquals(0, memory.retiredBytes());
    }

    /**
     * One thread's in-flight marker, driven by hand (the tests play every reader on one thread).
     */
    private static final class Reader extends ReaderState
    {
    }
}
