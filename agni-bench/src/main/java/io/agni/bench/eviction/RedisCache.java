package io.agni.bench.eviction;

import io.agni.bench.net.target.Target;
import io.agni.bench.net.target.TargetSpec;
import io.agni.bench.net.target.Targets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Redis over the network, replayed as a read-through cache at a byte budget: a real {@code redis-server} started
 * for each replay on a free loopback port (no persistence, stopped by its process id, through
 * {@link Targets}), with an eviction policy and {@code maxmemory-samples}, and {@code maxmemory} set to the budget
 * plus what the empty server already uses.
 *
 * <h2>The byte budget</h2>
 * Redis's {@code maxmemory} bounds {@code used_memory}, which counts the server's own structures and each client's
 * buffers as well as the data. So the replay connects, brings its connection's buffers to their working size (a
 * window of SETs and GETs, then {@code FLUSHALL}), and reads the empty server's {@code used_memory}; {@code maxmemory}
 * is the budget plus that. The connection's buffers change while the replay runs (Redis resizes a client's reply
 * buffer to its recent peak, and the query buffer holds a window's SETs), and what they hold would otherwise be taken
 * from the data: so the replay reads the connection's memory ({@code tot-mem} of {@code CLIENT INFO}) about every
 * {@value #CLIENT_CHECK_REQUESTS} requests and moves {@code maxmemory} with it. The dataset, Redis's dictionary and
 * its other fixed structures thus get the budget, as agni's entries and index do.

 * <h2>Pipelining, and how it differs from a strict sequence</h2>
 * A strict read-through replay waits for each reply: one round trip per GET and per SET, too slow for the 80 million
 * requests of the whole run. So requests go in windows: up to {@code window} consecutive requests with distinct keys
 * (a window ends before a key it already holds, so a key that missed is never asked for again before its SET). The
 * GETs of a window are sent together; once their replies are read, the SETs of its misses, a {@code DBSIZE} and the
 * GETs of the next window go in one write, in that order. Against a strict sequence, a window's SETs come after all
 * its GETs rather than each right after its own GET, so the evictions those SETs cause come after the window's later
 * GETs instead of before them, and the recency/frequency those GETs record comes before the SETs; between windows the
 * order is the strict one. {@code window = 1} is the strict sequence: each command sent after the previous reply.
 * The window is at most {@value #MAX_WINDOW} requests and at most {@value #REPLY_WINDOW_BYTES} bytes of replies,
 * Redis's per-client reply buffer, so that a window's replies do not add to {@code used_memory} and make Redis evict
 * for the harness's buffers.

 * <h2>Redis's clocks</h2>
 * Redis's LRU clock ticks once a second and LFU counters decay by wall-clock minutes ({@code lfu-decay-time 1}).
 * A replay runs up to a few hundred thousand requests a second, so {@code allkeys-lru} cannot tell apart keys used
 * within the same second: its hit ratio depends on the replay's speed, which is reported (a replay can be paced).
 * And an {@code allkeys-lfu} replay that runs across the turn of a minute sees every counter decay once, which
 * costs it a few tenths of a point ({@link RedisPipelineCheck}).
 */
public final class RedisCache {
    /** The most requests in one window. */
    public static final int MAX_WINDOW = 128;
    /** The most reply bytes a window may ask for: Redis's reply buffer per client (16 KiB). */
    public static final int REPLY_WINDOW_BYTES = 16 * 1024;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    /** About how many requests pass between two readings of the connection's memory in the server. */
    static final int CLIENT_CHECK_REQUESTS = 1024;

    /**
     * A Redis eviction policy with its sample count.
     *
     * @param policy  {@code allkeys-lru} or {@code allkeys-lfu}
     * @param samples {@code maxmemory-samples}
     */
    public record Variant(String policy, int samples) {
        /** The label in the tables. */
        public String label() {
            return "Redis " + policy + " " + samples;
        }
    }

    /** The variants issue 20 asks for. */
    public static final List<Variant> VARIANTS = List.of(new Variant("allkeys-lru", 5),
            new Variant("allkeys-lru", 10), new Variant("allkeys-lfu", 5), new Variant("allkeys-lfu", 10));

    /**
     * What one replay measured.
     *
     * @param hitRatio          hits in percent
     * @param meanHeld          the mean key count ({@code DBSIZE}) from the first eviction on, weighted by requests
     * @param evicted           Redis's {@code evicted_keys}
     * @param serverBytes       {@code used_memory} of the empty server less its one client's memory
     * @param maxClientBytes    the most memory the replay's connection held in the server ({@code tot-mem})
     * @param requestsPerSecond the replay's speed
     * @param window            the window used
     */
    public record Replay(double hitRatio, double meanHeld, long evicted, long serverBytes, long maxClientBytes,
            double requestsPerSecond, int window) {
    }

    private RedisCache() {
    }

    /**
     * The window for values of a length: as many requests as fit {@link #REPLY_WINDOW_BYTES} of replies, at most
     * {@link #MAX_WINDOW}, at least 1.
     *
     * @param valueLength the value's length
     * @return the window
     */
    public static int window(int valueLength) {
        return Math.max(1, Math.min(MAX_WINDOW, REPLY_WINDOW_BYTES / (valueLength + 16)));
    }

    /**
     * Starts a server, replays the trace into it, stops it.
     *
     * @param redisServer the {@code redis-server} executable
     * @param variant     the eviction policy
     * @param flags       further {@code redis-server} flags, e.g. {@code --lfu-decay-time 0}, or empty
     * @param trace       the keys
     * @param shape       the entry shape
     * @param budget      the bytes the dataset gets
     * @param window      requests per window; 1 is a strict sequence
     * @param rate        requests per second to pace the replay to, or 0 to run as fast as Redis answers
     * @return what it measured
     * @throws IOException if the server cannot be started or answers unexpectedly
     */
    public static Replay replay(Path redisServer, Variant variant, String flags, long[] trace, EntryShape shape,
            long budget, int window, double rate) throws IOException {
        String name = "redis-" + variant.policy() + "-" + variant.samples();
        Target server = new Targets(null, List.of(), redisServer).create(TargetSpec.parse(name + "=redis:"
                + "--maxmemory-policy " + variant.policy() + " --maxmemory-samples " + variant.samples() + " "
                + flags));
        Path logs = Files.createTempDirectory("agni-hit-ratio-");
        try {
            InetSocketAddress address = server.start(logs, START_TIMEOUT);
            try (RespConnection redis = new RespConnection(address)) {
                return replay(redis, trace, shape, budget, window, rate);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting redis-server", e);
        } finally {
            server.close();
            deleteRecursively(logs);
        }
    }

    private static Replay replay(RespConnection redis, long[] trace, EntryShape shape, long budget, int window,
            double rate) throws IOException {
        byte[] body = new byte[shape.valueLength()];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 31 + 7);
        }
        long[] first = new long[1];
        warmUp(redis, body, window, first);
        long clientBytes = clientMemory(redis);
        long empty = info(redis, "memory", "used_memory");
        long serverBytes = empty - clientBytes;
        long maxmemory = budget + serverBytes + clientBytes;
        redis.command("CONFIG", "SET", "maxmemory", Long.toString(maxmemory));
        redis.flush();
        redis.readOk();

        int checkEvery = Math.max(1, CLIENT_CHECK_REQUESTS / window);
        boolean strict = window == 1;
        LongSet inWindow = new LongSet(window);
        long[] misses = new long[window];
        long hits = 0;
        long size = 0;
        boolean filled = false;
        double heldSum = 0;
        long heldRequests = 0;
        long maxClientBytes = clientBytes;
        long newMaxmemory = -1;
        long start = System.nanoTime();
        int i = 0;
        int end = queueWindow(redis, trace, 0, window, inWindow);
        redis.flush();
        for (long windows = 1; i < trace.length; windows++) {
            int missCount = 0;
            for (int r = i; r < end; r++) {
                int length = redis.readBulkPrefix(first);
                if (length == RespConnection.NULL_BULK) {
                    misses[missCount++] = trace[r];
                } else if (length != body.length || first[0] != trace[r]) {
                    throw new IOException("Redis returned a wrong value: key=" + trace[r] + ", length=" + length
                            + ", request=" + r);
                } else {
                    hits++;
                }
            }
            if (newMaxmemory >= 0) {
                redis.command("CONFIG", "SET", "maxmemory", Long.toString(newMaxmemory));
            }
            for (int m = 0; m < missCount; m++) {
                redis.set(misses[m], body);
            }
            if (missCount > 0) {
                redis.dbsize();
            }
            boolean check = windows % checkEvery == 0;
            if (check) {
                redis.command("CLIENT", "INFO");
            }
            int next = end;
            if (!strict) {
                next = queueWindow(redis, trace, end, window, inWindow);
            }
            redis.flush();
            if (newMaxmemory >= 0) {
                redis.readOk();
                newMaxmemory = -1;
            }
            for (int m = 0; m < missCount; m++) {
                redis.readOk();
            }
            if (missCount > 0) {
                long now = redis.readInteger();
                if (now < size + missCount) {
                    filled = true;
                }
                size = now;
            }
            if (check) {
                long client = clientMemory(redis.readBulkText());
                maxClientBytes = Math.max(maxClientBytes, client);
                if (client != clientBytes) {
                    clientBytes = client;
                    newMaxmemory = budget + serverBytes + clientBytes;
                }
            }
            if (filled) {
                heldSum += (double) size * (end - i);
                heldRequests += end - i;
            }
            i = end;
            if (rate > 0) {
                long due = start + (long) (i / rate * 1e9);
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
            }
            if (strict && i < trace.length) {
                next = queueWindow(redis, trace, i, window, inWindow);
                redis.flush();
            }
            end = next;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long evicted = info(redis, "stats", "evicted_keys");
        return new Replay(trace.length == 0 ? 0 : 100.0 * hits / trace.length,
                heldRequests == 0 ? size : heldSum / heldRequests, evicted, serverBytes, maxClientBytes,
                trace.length / seconds, window);
    }

    /**
     * Queues the GETs of the window that starts at {@code from}: up to {@code window} requests, ending before a key
     * it already holds.
     *
     * @return where the window ends
     */
    private static int queueWindow(RespConnection redis, long[] trace, int from, int window, LongSet inWindow) {
        inWindow.clear();
        int end = from;
        while (end < trace.length && end - from < window && inWindow.add(trace[end])) {
            redis.get(trace[end]);
            end++;
        }
        return end;
    }

    /** The connection's own memory in the server: {@code tot-mem} of {@code CLIENT INFO}. */
    private static long clientMemory(RespConnection redis) throws IOException {
        redis.command("CLIENT", "INFO");
        redis.flush();
        return clientMemory(redis.readBulkText());
    }

    private static long clientMemory(String text) throws IOException {
        for (String field : text.trim().split(" ")) {
            if (field.startsWith("tot-mem=")) {
                return Long.parseLong(field.substring("tot-mem=".length()));
            }
        }
        throw new IOException("CLIENT INFO has no tot-mem: " + text);
    }

    /**
     * Brings the connection's buffers to their working size before {@code used_memory} is read: a window of SETs of
     * keys the trace cannot hold (negative ones), the GETs of them, then {@code FLUSHALL}: the server is empty again.
     */
    private static void warmUp(RespConnection redis, byte[] body, int window, long[] first) throws IOException {
        for (int i = 0; i < window; i++) {
            redis.set(Long.MIN_VALUE + i, body);
        }
        redis.flush();
        for (int i = 0; i < window; i++) {
            redis.readOk();
        }
        for (int i = 0; i < window; i++) {
            redis.get(Long.MIN_VALUE + i);
        }
        redis.flush();
        for (int i = 0; i < window; i++) {
            if (redis.readBulkPrefix(first) != body.length || first[0] != Long.MIN_VALUE + i) {
                throw new IOException("redis-server did not return the warm-up value of key " + i);
            }
        }
        redis.command("FLUSHALL", "SYNC");
        redis.dbsize();
        redis.flush();
        redis.readOk();
        if (redis.readInteger() != 0) {
            throw new IOException("redis-server is not empty after the warm-up");
        }
    }

    private static long info(RespConnection redis, String section, String field) throws IOException {
        redis.command("INFO", section);
        redis.flush();
        String text = redis.readBulkText();
        for (String line : text.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim());
            }
        }
        throw new IOException("INFO " + section + " has no " + field);
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A small open-addressing set of longs, cleared per window. */
    static final class LongSet {
        private final long[] keys;
        private final boolean[] used;
        private final int mask;
        private final int[] touched;
        private int count;

        LongSet(int capacity) {
            int slots = Integer.highestOneBit(Math.max(4, capacity * 4 - 1)) << 1;
            keys = new long[slots];
            used = new boolean[slots];
            mask = slots - 1;
            touched = new int[capacity];
        }

        /** Adds a key; false if it was there (or the set is at its capacity). */
        boolean add(long key) {
            if (count == touched.length) {
                return false;
            }
            int slot = (int) (LongIntMap.mix(key) & mask);
            while (used[slot]) {
                if (keys[slot] == key) {
                    return false;
                }
                slot = (slot + 1) & mask;
            }
            used[slot] = true;
            keys[slot] = key;
            touched[count++] = slot;
            return true;
        }

        void clear() {
            for (int i = 0; i < count; i++) {
                used[touched[i]] = false;
            }
            count = 0;
        }
    }
}
