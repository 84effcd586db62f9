package io.agni.bench.net.load;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenLoopScheduleTest
{
    @Test
    void connectionsTogetherSendOneEvenlySpacedStreamAtTheTotalRate()
    {
        final long start = 5_000_000_000L;
        final int connections = 8;
        final List<Long> times = new ArrayList<>();
        for (int c = 0; c < connections; c++)
        {
            final OpenLoopSchedule schedule = new OpenLoopSchedule(start, 1000, connections, c);
            for (int n = 0; n < 50; n++)
            {
                times.add(schedule.take());
            }
        }
        Collections.sort(times);

        for (int i = 0; i < times.size(); i++)
        {
            assertEquals(start + i * 1_000_000L, times.get(i), "request " + i);
        }
    }

    @Test
    void eachConnectionIsSpacedByConnectionsOverRate()
    {
        final OpenLoopSchedule schedule = new OpenLoopSchedule(0, 50_000, 50, 3);

        assertEquals(60_000, schedule.intendedTime(0));
        assertEquals(1_060_000, schedule.intendedTime(1));
        assertEquals(60_000, schedule.peek());
        assertEquals(60_000, schedule.take());
        assertEquals(1_060_000, schedule.peek());
    }

    @Test
    void intendedTimesDoNotDriftOverALongRun()
    {
        final OpenLoopSchedule schedule = new OpenLoopSchedule(0, 3, 1, 0);
        for (int i = 0; i < 1_000_000; i++)
        {
            schedule.take();
        }

        assertEquals(333_333_333L, schedule.intendedTime(1));
        assertTrue(Math.abs(schedule.take() - 333_333_333_333_333L) <= 1);
    }

    @Test
    void intendedTimeDoesNotDependOnWhenRequestsAreTaken()
    {
        final OpenLoopSchedule schedule = new OpenLoopSchedule(100, 10, 2, 1);
        final long tenth = schedule.intendedTime(10);
        for (int i = 0; i < 10; i++)
        {
            schedule.take();
        }

        assertEquals(tenth, schedule.take());
    }

    @Test
    void rejectsARateOrIndexThatMakesNoSchedule()
    {
        assertEquals("need rate > 0 and 0 <= index < connections: totalRate=0.0, connections=1, connectionIndex=0",
            assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, 0, 1, 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, 10, 2, 2));
        assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, Double.NaN, 2, 0));
    }
}
