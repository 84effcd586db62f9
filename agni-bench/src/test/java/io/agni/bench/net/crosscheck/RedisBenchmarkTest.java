package io.agni.bench.net.crosscheck;

import io.agni.bench.net.load.RunMeasurement;
import io.agni.bench.net.load.Workload;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedisBenchmarkTest
{
    /**
     * What redis-benchmark 7.0 prints with --csv for -t set,get.
     */
    private static final String CSV = """
        "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
        "SET","44543.43","0.773","0.040","0.695","1.543","2.623","4.935"
        "GET","46403.71","0.702","0.128","0.671","1.087","1.527","5.007"
        """;

    @Test
    void readsThroughputAndLatencyOfTheTestAskedFor() throws IOException
    {
        final RunMeasurement get = RedisBenchmark.parseCsv(CSV, "get", 300_000);

        assertEquals(46_403.71, get.throughput(), 1e-9);
        assertEquals(300_000, get.requests());
        assertEquals(671, get.latency().p50(), 1e-9, "milliseconds become microseconds");
        assertEquals(1527, get.latency().p99(), 1e-9);
        assertEquals(5007, get.latency().max(), 1e-9);
        assertEquals(702, get.latency().mean(), 1e-9);
        assertTrue(Double.isNaN(get.latency().p999()), "redis-benchmark does not give p99.9");
        assertEquals(300_000 / 46_403.71, get.windowNanos() / 1e9, 1e-6);

        assertEquals(2623, RedisBenchmark.parseCsv(CSV, "SET", 1).latency().p99(), 1e-9);
    }

    @Test
    void anOlderRedisBenchmarkGivesTheRateWithoutLatencies() throws IOException
    {
        // redis-benchmark before 6.2 prints only the test and its rate with --csv.
        final RunMeasurement set = RedisBenchmark.parseCsv("\"SET\",\"12345.67\"\n\"GET\",\"23456.78\"\n", "set", 1000);

        assertEquals(12_345.67, set.throughput(), 1e-9);
        assertTrue(Double.isNaN(set.latency().p99()));
        assertTrue(Double.isNaN(set.latency().p50()));
    }

    @Test
    void progressLinesAndCarriageReturnsAroundTheResultAreIgnored() throws IOException
    {
        final String noisy = "SET: rps=0.0 (overall: 0.0) avg_msec=-nan (overall: -nan)\r" + CSV.replace("\n", "\r\n");

        assertEquals(44_543.43, RedisBenchmark.parseCsv(noisy, "set", 10).throughput(), 1e-9);
    }

    @Test
    void noLineForTheTestOrALineThatIsNotNumbersFailsWithTheOutput()
    {
        final IOException missing = assertThrows(IOException.class,
            () -> RedisBenchmark.parseCsv("\"test\",\"rps\"\n", "get", 1));
        assertTrue(missing.getMessage().contains("no result for GET"), missing.getMessage());
        final IOException bad = assertThrows(IOException.class, () -> RedisBenchmark.parseCsv(
            "\"GET\",\"fast\",\"1\",\"1\",\"1\",\"1\",\"1\",\"1\"\n", "get", 1));
        assertTrue(bad.getMessage().contains("not numbers"), bad.getMessage());
    }

    @Test
    void onlySetAndGetHaveARedisBenchmarkTest()
    {
        assertEquals(Optional.of("set"), RedisBenchmark.test(Workload.SET));
        assertEquals(Optional.of("get"), RedisBenchmark.test(Workload.GET));
        assertEquals(Optional.empty(), RedisBenchmark.test(Workload.GET_MISS));
        assertEquals(Optional.empty(), RedisBenchmark.test(Workload.parse("mix:90")));
    }

    @Test
    void theCommandRunsTheSameWorkloadAsTheLoadGenerator()
    {
        final InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 6380);

        assertEquals(List.of("redis-benchmark", "-h", "127.0.0.1", "-p", "6380", "-t", "get", "-c", "50", "-r",
                "1000", "-d", "100", "-P", "16", "-n", "500000", "--csv"),
            RedisBenchmark.command(Path.of("redis-benchmark"), address, "get", 50, 1000, 100, 16, 500_000, 1));
        assertTrue(RedisBenchmark.command(Path.of("redis-benchmark"), address, "set", 50, 1000, 100, 1, 10, 2)
            .containsAll(List.of("--threads", "2")));
    }
}
