package io.agni.bench.net.load;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadTest
{
    @Test
    void parsesEachForm()
    {
        assertEquals(Workload.SET, Workload.parse("set"));
        assertEquals(Workload.GET, Workload.parse(" GET "));
        assertEquals(Workload.GET_MISS, Workload.parse("get-miss"));
        assertEquals(new Workload("mix:90", 90, false), Workload.parse("mix:90"));
    }

    @Test
    void onlyReadsOfPresentKeysNeedTheKeySpaceFilled()
    {
        assertTrue(Workload.GET.needsFill());
        assertTrue(Workload.parse("mix:10").needsFill());
        assertFalse(Workload.SET.needsFill());
        assertFalse(Workload.GET_MISS.needsFill());
    }

    @Test
    void rejectsUnknownWorkloadsAndSharesOutOfRange()
    {
        assertEquals("unknown workload: del (expected set, get, get-miss or mix:P)",
            assertThrows(IllegalArgumentException.class, () -> Workload.parse("del")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Workload.parse("mix:101"));
        assertThrows(IllegalArgumentException.class, () -> Workload.parse("mix:x"));
    }
}
