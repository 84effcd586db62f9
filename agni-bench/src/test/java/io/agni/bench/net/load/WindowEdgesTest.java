package io.agni.bench.net.load;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WindowEdgesTest
{
    private static final long MS = 1_000_000L;

    private final List<String> calls = new ArrayList<>();
    private final LoadRun.WindowListener listener = new LoadRun.WindowListener()
    {
        @Override
        public void onWindowStart()
        {
            calls.add("start");
        }

        @Override
        public void onWindowEnd()
        {
            calls.add("end");
        }
    };

    @Test
    void theWindowOpensAtMeasureStartAndClosesAtMeasureEndOnceEach()
    {
        final LoadRun.WindowEdges edges = new LoadRun.WindowEdges(new RunClock(0, 1000 * MS, 6000 * MS), listener);

        edges.poll(999 * MS);
        assertEquals(List.of(), calls, "still warming up");
        assertEquals(2, edges.waitMillis(999 * MS), "wakes just after the window opens, not 250 ms later");
        edges.poll(1000 * MS);
        assertEquals(List.of("start"), calls);
        edges.poll(3000 * MS);
        assertEquals(250, edges.waitMillis(3000 * MS), "far from an edge: the progress interval");
        assertEquals(11, edges.waitMillis(5990 * MS));
        edges.poll(6000 * MS);
        edges.poll(7000 * MS);
        edges.finish();
        assertEquals(List.of("start", "end"), calls);
    }

    @Test
    void aRunOfARequestCountClosesItsWindowWhenTheWorkersAreDone()
    {
        final LoadRun.WindowEdges edges = new LoadRun.WindowEdges(new RunClock(0, 100 * MS, Long.MAX_VALUE),
            listener);

        edges.poll(200 * MS);
        edges.poll(90_000 * MS);
        assertEquals(List.of("start"), calls, "no end time: only the last reply ends it");
        assertEquals(250, edges.waitMillis(90_000 * MS));
        edges.finish();
        assertEquals(List.of("start", "end"), calls);
    }

    @Test
    void aRunThatEndsBeforeItsWindowStillReportsBothEdgesInOrder()
    {
        final LoadRun.WindowEdges edges = new LoadRun.WindowEdges(new RunClock(0, 100 * MS, 200 * MS), listener);

        edges.finish();

        assertEquals(List.of("start", "end"), calls);
    }

    @Test
    void withoutAListenerItOnlyPacesTheProgressReports()
    {
        final LoadRun.WindowEdges edges = new LoadRun.WindowEdges(new RunClock(0, 100 * MS, 200 * MS), null);

        assertEquals(250, edges.waitMillis(99 * MS));
        edges.poll(150 * MS);
        edges.finish();
        assertTrue(calls.isEmpty());
    }
}
