package io.agni.bench.net.crosscheck;

import io.agni.bench.net.load.Latency;
import io.agni.bench.net.load.RunMeasurement;
import io.agni.bench.net.load.Workload;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The second client: {@code redis-benchmark}, run on the same workload as agni-loadgen (connections, key space,
 * value size, pipeline depth), so that a ratio between two servers can be checked with a tool that is not ours. A
 * ratio that one client shows and the other does not is a finding about the method, not about a server.
 *
 * <h2>What it can run</h2>
 * {@code set} and {@code get} ({@code -t set} and {@code -t get}, with {@code -r KEYS}: the same keys,
 * {@code key:000000000000} to {@code key:<KEYS-1>}, that agni-loadgen writes and reads). It has no workload of GETs
 * that miss and none that mixes GET and SET, so those are not cross-checked.
 *
 * <h2>What it reports</h2>
 * With {@code --csv}, one line per test: requests per second, and (since Redis 6.2) latency in milliseconds
 * (average, min, p50, p95, p99, max), which becomes a {@link RunMeasurement} whose other percentiles are NaN; an
 * older redis-benchmark prints only the rate, and its latencies are NaN.
 */
public final class RedisBenchmark
{
    private static final long MIN_TIMEOUT_SECONDS = 600;

    /**
     * The slowest rate at which a run is still waited for: 1,000 requests per second.
     */
    private static final long SLOWEST_REQUESTS_PER_SECOND = 1_000;

    private RedisBenchmark()
    {
    }

    /**
     * @param workload a workload.
     * @return redis-benchmark's test that runs it ({@code set} or {@code get}), or empty if it has none.
     */
    public static Optional<String> test(final Workload workload)
    {
        if (workload.equals(Workload.SET))
        {
            return Optional.of("set");
        }
        if (workload.equals(Workload.GET))
        {
            return Optional.of("get");
        }
        return Optional.empty();
    }

    /**
     * The command that runs one test.
     *
     * @param executable  redis-benchmark.
     * @param address     the server.
     * @param test        {@code set} or {@code get}.
     * @param connections connections.
     * @param keys        the key space.
     * @param valueSize   bytes per value.
     * @param pipeline    requests in flight per connection.
     * @param requests    requests in all.
     * @param threads     redis-benchmark's threads (1 is its classic single-threaded mode).
     * @return the command.
     */
    public static List<String> command(
        final Path executable,
        final InetSocketAddress address,
        final String test,
        final int connections,
        final long keys,
        final int valueSize,
        final int pipeline,
        final long requests,
        final int threads)
    {
        final List<String> command = new ArrayList<>(List.of(executable.toString(),
            "-h", address.getAddress().getHostAddress(), "-p", Integer.toString(address.getPort()),
            "-t", test, "-c", Integer.toString(connections), "-r", Long.toString(keys),
            "-d", Integer.toString(valueSize), "-P", Integer.toString(pipeline), "-n", Long.toString(requests)));
        if (threads > 1)
        {
            command.add("--threads");
            command.add(Integer.toString(threads));
        }
        command.add("--csv");
        return List.copyOf(command);
    }

    /**
     * Runs a command made by {@link #command} and reads its result.
     *
     * @param command the command, possibly behind {@code taskset}.
     * @param test    the test it runs.
     * @param log     where its output is kept.
     * @return what it measured.
     * @throws IOException if it fails, times out, or prints no result for the test.
     * @throws InterruptedException if interrupted; the process is killed first.
     */
    public static RunMeasurement run(final List<String> command, final String test, final Path log)
        throws IOException, InterruptedException
    {
        final long requests = Long.parseLong(command.get(command.indexOf("-n") + 1));
        final long timeout = Math.max(MIN_TIMEOUT_SECONDS, requests / SLOWEST_REQUESTS_PER_SECOND);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
            .start();
        try
        {
            if (!process.waitFor(timeout, TimeUnit.SECONDS))
            {
                throw new IOException("redis-benchmark did not finish within " + timeout + " s: " +
                    String.join(" ", command));
            }
        }
        finally
        {
            if (process.isAlive())
            {
                process.destroyForcibly();
            }
        }
        final String output = Files.readString(log, StandardCharsets.UTF_8);
        if (process.exitValue() != 0)
        {
            throw new IOException("redis-benchmark exited with status " + process.exitValue() + ": " +
                String.join(" ", command) + "\n" + output);
        }
        return parseCsv(output, test, requests);
    }

    /**
     * Reads redis-benchmark's {@code --csv} output.
     *
     * @param output   what it printed: a header line, then {@code "SET","12345.67","0.773","0.040","0.695",
     *                 "1.543","2.623","4.935"} (test, rps, avg, min, p50, p95, p99, max; milliseconds), or before
     *                 Redis 6.2 only {@code "SET","12345.67"}.
     * @param test     the test to read, any case.
     * @param requests requests it was told to make.
     * @return the measurement: throughput, window, and latency in microseconds (p90, p99.9 and p99.99 NaN; all of
     * them NaN from an older redis-benchmark).
     * @throws IOException if the output has no line for the test, or the line is not numbers.
     */
    public static RunMeasurement parseCsv(final String output, final String test, final long requests)
        throws IOException
    {
        final String wanted = test.toUpperCase(Locale.ROOT);
        for (final String raw : output.split("[\r\n]+"))
        {
            final String line = raw.trim();
            final List<String> cells = cells(line);
            if (cells.size() < 2 || !cells.get(0).equals(wanted))
            {
                continue;
            }
            try
            {
                final double rps = Double.parseDouble(cells.get(1));
                final double[] ms = new double[6];
                for (int i = 0; i < ms.length; i++)
                {
                    ms[i] = cells.size() >= 8 ? Double.parseDouble(cells.get(i + 2)) : Double.NaN;
                }
                final Latency latency = new Latency(requests, ms[0] * 1000, ms[2] * 1000, Double.NaN, ms[4] * 1000,
                    Double.NaN, Double.NaN, ms[5] * 1000);
                final long window = rps > 0 ? (long)(requests / rps * 1e9) : 0;
                return new RunMeasurement(requests, 0, 0, null, window, rps, latency, new long[0], 0);
            }
            catch (final NumberFormatException ex)
            {
                throw new IOException("redis-benchmark's line for " + wanted + " is not numbers: " + line, ex);
            }
        }
        throw new IOException("redis-benchmark printed no result for " + wanted + ":\n" + output);
    }

    private static List<String> cells(final String line)
    {
        final List<String> cells = new ArrayList<>();
        for (final String cell : line.split(",", -1))
        {
            final String trimmed = cell.trim();
            cells.add(trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"") ?
                trimmed.substring(1, trimmed.length() - 1) : trimmed);
        }
        return cells;
    }
}
