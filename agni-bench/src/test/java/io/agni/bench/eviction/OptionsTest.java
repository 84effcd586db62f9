package io.agni.bench.eviction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The harness's command line: systems and case selectors. */
class OptionsTest {
    private static final Path TRACES = Path.of("traces/cache2k");

    @Test
    void systemsAreChosenByName() {
        Options o = Options.parse(new String[] {"--systems", "lru,caffeine,agni", "--agni-shards", "2"});
        assertEquals(Set.of("lru", "caffeine", "agni"), o.systems());
        assertEquals(2, o.agniShards());
        assertTrue(Options.parse(new String[0]).systems().containsAll(HitRatio.SYSTEMS));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--systems", "memcached"}));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--systems", "redis"}),
                "Redis gets agni's budget, so it needs agni");
    }

    @Test
    void casesAreSelectedByGroupWorkloadOrSize() throws Exception {
        assertEquals(List.of("web12 700"), labels("web12@700"));
        assertEquals(List.of("web07 200", "web07 1000", "web07 2000", "web07 5000"), labels("web07"));
        assertEquals(List.of("zipf 0.90 10000", "mix 10000"), labels("zipf-0.90@10000,mix@10000"));
        assertThrows(IllegalArgumentException.class, () -> HitRatio.cases(TRACES, "web99"));
    }

    private static List<String> labels(String selectors) throws Exception {
        return HitRatio.cases(TRACES, selectors).stream().map(HitRatio.Case::label).toList();
    }
}
