package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.InvalidCursorException;
import io.agni.api.RenameResult;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreConnectionException;
import io.agni.api.StoreStats;
import io.agni.api.WriteBatch;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static io.agni.net.ClientKeywords.APPEND;
import static io.agni.net.ClientKeywords.DBSIZE;
import static io.agni.net.ClientKeywords.DEL;
import static io.agni.net.ClientKeywords.EXISTS;
import static io.agni.net.ClientKeywords.FLUSHDB;
import static io.agni.net.ClientKeywords.GET;
import static io.agni.net.ClientKeywords.GETDEL;
import static io.agni.net.ClientKeywords.GETRANGE;
import static io.agni.net.ClientKeywords.INCRBY;
import static io.agni.net.ClientKeywords.INFO;
import static io.agni.net.ClientKeywords.PERSIST;
import static io.agni.net.ClientKeywords.PEXPIRETIME;
import static io.agni.net.ClientKeywords.PTTL;
import static io.agni.net.ClientKeywords.RANDOMKEY;
import static io.agni.net.ClientKeywords.RENAME;
import static io.agni.net.ClientKeywords.RENAMENX;
import static io.agni.net.ClientKeywords.SETRANGE;
import static io.agni.net.ClientKeywords.STRLEN;
import static io.agni.net.ClientKeywords.TIME;

/**
 * An {@link AgniStore} on a remote RESP server, agni's {@code AgniServer} or Redis 7: the same interface, the same
 * semantics and the same exceptions as the in-process store, so that code switches between embedded and remote by
 * changing the line that opens the store.
 * <pre>{@code
 * try (AgniStore store = AgniClient.connect("localhost", 6379))
 * {
 *     store.set("user:1".getBytes(UTF_8), "alice".getBytes(UTF_8));
 * }
 * }</pre>
 *
 * <h2>Commands</h2>
 * Every operation is one command, one round trip, multi-key operations included: {@code get} is {@code GET},
 * {@code exists} {@code EXISTS}, {@code getAll} {@code MGET}, {@code ttlMillis} {@code PTTL},
 * {@code expireTimeMillis} {@code PEXPIRETIME}, {@code set} {@code SET} with {@code NX}/{@code XX} for the
 * condition and {@code PXAT} ({@link ExpiryMode#AT}), {@code PX} ({@link ExpiryMode#AFTER}) or {@code KEEPTTL} for
 * the expiry mode, {@code getAndSet} the same with {@code GET}, {@code setAll} {@code MSET} or {@code MSETNX},
 * {@code delete} {@code DEL}, {@code getAndDelete} {@code GETDEL}, {@code getAndExpire} {@code GETEX} with
 * {@code PXAT}, {@code PX} or {@code PERSIST}, {@code incrementBy} {@code INCRBY}, {@code incrementByFloat}
 * {@code INCRBYFLOAT}, {@code append} {@code APPEND}, {@code getRange} {@code GETRANGE}, {@code setRange}
 * {@code SETRANGE}, {@code rename} {@code RENAME} or {@code RENAMENX}, {@code expire} {@code PEXPIREAT} and
 * {@code expireAfter} {@code PEXPIRE}, both with {@code NX}/{@code XX}/{@code GT}/{@code LT}, {@code persist}
 * {@code PERSIST}, {@code scan} {@code SCAN} with {@code MATCH} and {@code COUNT}, {@code randomKey}
 * {@code RANDOMKEY}, {@code size} {@code DBSIZE}, {@code clear} {@code FLUSHDB}, {@code stats} {@code INFO},
 * {@code currentTimeMillis} {@code TIME}; and {@code write(WriteBatch)} is {@code MULTI}, a command per operation and
 * {@code EXEC}, in one round trip.
 *
 * <h2>Protocol</h2>
 * The client speaks RESP2 and sends no {@code HELLO}: every RESP server answers it, and what it reads has the same
 * meaning in both versions. A server that also speaks RESP3 (agni's, Redis 6 and later) serves its connections in
 * RESP2, the default.
 *
 * <h2>Time</h2>
 * The store's clock is the <em>server's</em> ({@link #currentTimeMillis()} asks it with {@code TIME}). A relative
 * expiry ({@link ExpiryMode#AFTER}, {@link #expireAfter}) is sent as a duration ({@code PX}, {@code PEXPIRE}) that
 * the server adds to its own clock, so it does not depend on the client's clock agreeing with the server's; an
 * absolute one ({@link ExpiryMode#AT}, {@link #expire}) is a time on the server's clock. Redis refuses a time or
 * duration that is not positive, so a time at or before the epoch, or a {@code PX} duration of 0 or less, is sent
 * as {@code PXAT 1}, which has the same effect (the key is gone at once); and a duration too long for Redis to add
 * to its clock (more than {@code Long.MAX_VALUE - 2^50} ms, i.e. past the year 292 million) is sent as
 * {@code PXAT Long.MAX_VALUE}, where the in-process store saturates it.
 *
 * <h2>Where Redis cannot say the same thing</h2>
 * <ul>
 * <li>{@link #setAll} with {@link SetCondition#IF_PRESENT} throws {@link UnsupportedOperationException}: Redis has
 * no {@code MSET XX}, and checking first then writing would not be atomic.</li>
 * <li>{@link #write(WriteBatch) write(WriteBatch)} is {@code MULTI}, per operation {@code SET} (with {@code PXAT},
 * {@code PX} or {@code KEEPTTL}), {@code DEL}, {@code PEXPIREAT}, {@code PEXPIRE} or {@code PERSIST}, then
 * {@code EXEC}, in one round trip (the first on a connection sends {@code MULTI} alone first). agni's server applies
 * it as one batch: all or nothing, its refusal ({@code -EXECABORT ... because of: ...}) the in-process store's
 * exception. Redis refuses, with nothing changed, a transaction it cannot run, and these commands cannot fail once
 * it runs; but it reads its clock per command, so two relative times of a batch may count from instants 1 ms apart.
 * A server that runs the commands one by one and fails one leaves the others applied: the call says so.</li>
 * <li>{@link #valueLength} sends {@code STRLEN}, which answers 0 for an absent key as for an empty value; only
 * then does it send {@code EXISTS} to tell them apart, so a key created or removed between the two round trips can
 * make an empty-or-absent answer reflect either moment.</li>
 * <li>{@link #getAndDelete(DirectBuffer, int, int, MutableDirectBuffer, int) getAndDelete} into a buffer that
 * cannot grow first asks the value's length ({@code STRLEN}) and, if it does not fit, throws without deleting, as
 * the contract requires. A value that grows between that check and the {@code GETDEL} is deleted and the call
 * throws {@link IndexOutOfBoundsException}. An expandable buffer needs no check: one round trip.</li>
 * <li>The zero-copy reads into a buffer that cannot hold the reply throw after the server has acted:
 * {@code getAndSet} has written, {@code getAndExpire} has changed the expiry time.</li>
 * <li>{@link #stats()} reads Redis's {@code INFO}: server-wide counters and Redis's own memory accounting (see
 * {@code ClientInfoStats} for the fields). {@link #size()} and {@code stats().entries()} count database 0.</li>
 * </ul>
 *
 * <h2>Errors</h2>
 * Argument checks are the in-process store's: {@code null} gets {@link NullPointerException}, a negative length or
 * offset {@link IllegalArgumentException}, a key or value longer than the client's
 * {@link AgniClientBuilder#maxBulkLength maxBulkLength} {@link io.agni.api.EntryTooLargeException}, all before anything is
 * sent. The server's error replies become the in-process store's exceptions ({@code ERR value is not an integer or
 * out of range} is {@link io.agni.api.NotAnIntegerException}, {@code OOM ...} is
 * {@link io.agni.api.CapacityExceededException}, {@code READONLY ...} and {@code MISCONF ...} are
 * {@link io.agni.api.StoreReadOnlyException}, and so on); an error with no such counterpart is a
 * {@link io.agni.api.StoreRefusedException} carrying the server's text. A failure of the connection itself
 * (unreachable server, I/O error, read timeout, a reply that is not RESP) is a {@link StoreConnectionException},
 * after which the outcome of a write is unknown: the client does not retry. Connections the server closed while
 * they sat idle (a restart, an idle timeout) are found broken at the next use of one: that call fails, the idle
 * connections are dropped with it, and the next call opens a new connection.
 *
 * <h2>Threads</h2>
 * Thread-safe. Calls borrow a connection from a small pool of blocking connections for their one round trip and
 * give it back: simple, no I/O thread, no reply routing, and each call costs exactly one request and one reply.
 * As many calls run at once as the pool has connections ({@link AgniClientBuilder#connections}); more wait for one.
 * Calls from one thread are ordered; calls from different threads are as concurrent as the server makes them.
 *
 * <h2>Memory</h2>
 * The zero-copy forms copy the caller's key and value straight into the connection's request buffer and the reply
 * straight into the caller's buffer: no heap allocation per call in steady state. The {@code byte[]} forms allocate
 * their results, as the in-process store's do.
 *
 * <h2>Lifecycle</h2>
 * {@link #close()} refuses new calls at once with {@link StoreClosedException}, waits for the calls in flight
 * (each bounded by the read timeout), and closes every connection. It does not touch the server's data.
 */
public final class AgniClient implements AgniStore
{
    private final ClientConfig config;
    private final ClientConnectionPool pool;
    private final ClientArgumentChecks checks;

    AgniClient(final ClientConfig config)
    {
        this.config = config;
        this.checks = new ClientArgumentChecks(config.maxBulkLength());
        this.pool = new ClientConnectionPool(
            () -> ClientConnection.open(config), config.connections(), "AgniClient(" + config.address() + ")");
        pool.acquire().close();
    }

    /**
     * Connects to a server with the default settings of {@link AgniClientBuilder}.
     *
     * @param host the server's host name or address.
     * @param port the server's port.
     * @return a connected client.
     * @throws StoreConnectionException if the server cannot be reached or does not answer {@code PING}.
     */
    public static AgniClient connect(final String host, final int port)
    {
        return builder().host(host).port(port).build();
    }

    /**
     * Starts configuring a client: connections, timeouts, password, client name.
     *
     * @return a builder with the defaults.
     */
    public static AgniClientBuilder builder()
    {
        return new AgniClientBuilder();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Reads
    // ------------------------------------------------------------------------------------------------------------

    @Override
    public byte[] get(final byte[] key)
    {
        checks.key(key.length);
        return bulkOfKey(GET, new UnsafeBuffer(key), 0, key.length);
    }

    @Override
    public int get(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checks.key(keyLength);
        Objects.requireNonNull(dst, "dst");
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(2).keyword(GET).bulk(key, keyOffset, keyLength);
            return c.call().copyBulk(dst, dstOffset);
        }
    }

    @Override
    public boolean exists(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return integerOfKey(EXISTS, key, keyOffset, keyLength) > 0;
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code MGET}; no keys is answered without asking the server, as {@code MGET} needs one.
     */
    @Override
    public List<byte[]> getAll(final List<byte[]> keys)
    {
        final int n = keys.size();
        for (final byte[] key : keys)
        {
            checks.key(key.length);
        }
        if (n == 0)
        {
            checkOpen();
            return new ArrayList<>();
        }
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.mget(c.request(), keys);
            final ClientReply reply = c.call();
            if (reply.arrayLength(0) != n)
            {
                throw reply.unexpected("an array of " + n, ClientReplyReader.ARRAY);
            }
            final List<byte[]> values = new ArrayList<>(n);
            for (int i = 1; i <= n; i++)
            {
                values.add(reply.bulkOrNull(i));
            }
            return values;
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code MGET} with the keys copied straight from {@code keys} into the request, and the values straight from
     * the reply into {@code dst}; no keys is answered without asking the server.
     */
    @Override
    public int getAll(
        final DirectBuffer keys, final int[] keyOffsets, final int[] keyLengths, final int count,
        final MutableDirectBuffer dst, final int dstOffset, final int[] valueLengths)
    {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(dst, "dst");
        checks.keys(keyOffsets, keyLengths, count, valueLengths);
        if (count == 0)
        {
            checkOpen();
            return 0;
        }
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.mget(c.request(), keys, keyOffsets, keyLengths, count);
            final ClientReply reply = c.call();
            if (reply.arrayLength(0) != count)
            {
                throw reply.unexpected("an array of " + count, ClientReplyReader.ARRAY);
            }
            long position = dstOffset;
            for (int i = 0; i < count; i++)
            {
                final int length = reply.copyBulk(1 + i, dst, (int)Math.min(position, Integer.MAX_VALUE));
                valueLengths[i] = length;
                position += Math.max(0, length);
            }
            return (int)(position - dstOffset);
        }
    }

    @Override
    public long ttlMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return integerOfKey(PTTL, key, keyOffset, keyLength);
    }

    @Override
    public long expireTimeMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return integerOfKey(PEXPIRETIME, key, keyOffset, keyLength);
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code STRLEN}, then {@code EXISTS} only when that says 0 (absent and empty look the same to it): see the
     * class comment for what a concurrent write can do between the two.
     */
    @Override
    public int valueLength(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        checks.key(keyLength);
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(2).keyword(STRLEN).bulk(key, keyOffset, keyLength);
            final long length = c.call().integer();
            if (length > 0)
            {
                return (int)length;
            }
            c.request().command(2).keyword(EXISTS).bulk(key, keyOffset, keyLength);
            return c.call().integer() > 0 ? 0 : NOT_FOUND;
        }
    }

    @Override
    public byte[] getRange(final byte[] key, final long start, final long end)
    {
        checks.key(key.length);
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(4).keyword(GETRANGE).bulk(key).bulk(start).bulk(end);
            final byte[] range = c.call().bulkOrNull();
            return range == null ? new byte[0] : range;
        }
    }

    @Override
    public int getRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checks.key(keyLength);
        Objects.requireNonNull(dst, "dst");
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(4).keyword(GETRANGE).bulk(key, keyOffset, keyLength).bulk(start).bulk(end);
            return Math.max(0, c.call().copyBulk(dst, dstOffset));
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Writes
    // ------------------------------------------------------------------------------------------------------------

    @Override
    public boolean set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        checks.entry(keyLength, valueLength);
        Objects.requireNonNull(condition, "condition");
        checks.expiry(expiryMode, expiryMillis);
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.set(c.request(), key, keyOffset, keyLength, value, valueOffset, valueLength,
                condition, expiryMode, expiryMillis, false);
            return c.call().okOrNull();
        }
    }

    @Override
    public byte[] getAndSet(
        final byte[] key, final byte[] value, final SetCondition condition, final ExpiryMode expiryMode,
        final long expiryMillis)
    {
        checks.entry(key.length, value.length);
        Objects.requireNonNull(condition, "condition");
        checks.expiry(expiryMode, expiryMillis);
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.set(c.request(), new UnsafeBuffer(key), 0, key.length, new UnsafeBuffer(value), 0,
                value.length, condition, expiryMode, expiryMillis, true);
            return c.call().bulkOrNull();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code SET ... GET}: when {@code previous} cannot hold the previous value, the new value is already written.
     */
    @Override
    public int getAndSet(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer previous, final int previousOffset)
    {
        checks.entry(keyLength, valueLength);
        Objects.requireNonNull(condition, "condition");
        checks.expiry(expiryMode, expiryMillis);
        Objects.requireNonNull(previous, "previous");
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.set(c.request(), key, keyOffset, keyLength, value, valueOffset, valueLength,
                condition, expiryMode, expiryMillis, true);
            return c.call().copyBulk(previous, previousOffset);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code MSET}, or {@code MSETNX} for {@link SetCondition#IF_ABSENT}; no keys is answered without asking the
     * server.
     *
     * @throws UnsupportedOperationException for {@link SetCondition#IF_PRESENT}: Redis has no {@code MSET} that
     *                                       writes only if every key exists, and a check followed by a write would
     *                                       not be atomic. Nothing is sent.
     */
    @Override
    public boolean setAll(final List<byte[]> keys, final List<byte[]> values, final SetCondition condition)
    {
        Objects.requireNonNull(condition, "condition");
        if (keys.size() != values.size())
        {
            throw new IllegalArgumentException(
                "keys and values differ in size: keys=" + keys.size() + ", values=" + values.size());
        }
        final int n = keys.size();
        for (int i = 0; i < n; i++)
        {
            checks.entry(keys.get(i).length, values.get(i).length);
        }
        if (condition == SetCondition.IF_PRESENT)
        {
            throw new UnsupportedOperationException(
                "setAll with IF_PRESENT cannot be done atomically over RESP: Redis has MSET and MSETNX but no MSET XX");
        }
        if (n == 0)
        {
            checkOpen();
            return true;
        }
        try (ClientConnection c = pool.acquire())
        {
            final boolean ifAbsent = condition == SetCondition.IF_ABSENT;
            ClientCommands.mset(c.request(), keys, values, ifAbsent);
            final ClientReply reply = c.call();
            return ifAbsent ? reply.integer() == 1 : reply.okOrNull();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * A {@code MULTI}/{@code EXEC} transaction in one round trip: all or nothing on agni's server, and on Redis for
     * what a batch holds ("Where Redis cannot say the same thing" above; docs/protocol.md, "Transactions").
     *
     * @throws io.agni.api.StoreRefusedException beginning "the server applied the batch in part" when the server ran
     *                                           it command by command and failed one: the others were applied.
     * @throws UnsupportedOperationException     if the server has no transactions; nothing was sent but
     *                                           {@code MULTI}.
     */
    @Override
    public void write(final WriteBatch batch)
    {
        ClientBatches.check(checks, batch);
        if (batch.isEmpty())
        {
            checkOpen();
            return;
        }
        try (ClientConnection c = pool.acquire())
        {
            ClientBatches.write(c, batch, config.address());
        }
    }

    @Override
    public boolean delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return integerOfKey(DEL, key, keyOffset, keyLength) > 0;
    }

    @Override
    public byte[] getAndDelete(final byte[] key)
    {
        checks.key(key.length);
        return bulkOfKey(GETDEL, new UnsafeBuffer(key), 0, key.length);
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code GETDEL}; into a buffer that cannot grow, {@code STRLEN} first, so that a value that does not fit is
     * kept (see the class comment for the race this leaves).
     */
    @Override
    public int getAndDelete(
        final DirectBuffer key, final int keyOffset, final int keyLength, final MutableDirectBuffer dst,
        final int dstOffset)
    {
        checks.key(keyLength);
        Objects.requireNonNull(dst, "dst");
        try (ClientConnection c = pool.acquire())
        {
            if (!dst.isExpandable())
            {
                c.request().command(2).keyword(STRLEN).bulk(key, keyOffset, keyLength);
                final long length = c.call().integer();
                if (dstOffset < 0 || dstOffset + length > dst.capacity())
                {
                    throw new IndexOutOfBoundsException("destination too small: offset=" + dstOffset +
                        ", length=" + length + ", capacity=" + dst.capacity());
                }
            }
            c.request().command(2).keyword(GETDEL).bulk(key, keyOffset, keyLength);
            return c.call().copyBulk(dst, dstOffset);
        }
    }

    @Override
    public byte[] getAndExpire(final byte[] key, final ExpiryMode expiryMode, final long expiryMillis)
    {
        checks.key(key.length);
        checks.expiry(expiryMode, expiryMillis);
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.getEx(c.request(), new UnsafeBuffer(key), 0, key.length, expiryMode, expiryMillis);
            return c.call().bulkOrNull();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code GETEX}: when {@code dst} cannot hold the value, the expiry time is already changed.
     */
    @Override
    public int getAndExpire(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checks.key(keyLength);
        checks.expiry(expiryMode, expiryMillis);
        Objects.requireNonNull(dst, "dst");
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.getEx(c.request(), key, keyOffset, keyLength, expiryMode, expiryMillis);
            return c.call().copyBulk(dst, dstOffset);
        }
    }

    @Override
    public long incrementBy(final DirectBuffer key, final int keyOffset, final int keyLength, final long delta)
    {
        checks.key(keyLength);
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(3).keyword(INCRBY).bulk(key, keyOffset, keyLength).bulk(delta);
            return c.call().integer();
        }
    }

    @Override
    public long append(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        checks.entry(keyLength, valueLength);
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(3).keyword(APPEND).bulk(key, keyOffset, keyLength).bulk(value, valueOffset, valueLength);
            return c.call().integer();
        }
    }

    @Override
    public long setRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long offset,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        checks.setRange(keyLength, offset, valueLength);
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(4).keyword(SETRANGE).bulk(key, keyOffset, keyLength).bulk(offset)
                .bulk(value, valueOffset, valueLength);
            return c.call().integer();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code RENAME}, or {@code RENAMENX} when the target must not be replaced; Redis's {@code ERR no such key} is
     * {@link RenameResult#NO_SUCH_KEY}.
     */
    @Override
    public RenameResult rename(final byte[] key, final byte[] newKey, final boolean replace)
    {
        checks.key(key.length);
        checks.key(newKey.length);
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(3).keyword(replace ? RENAME : RENAMENX).bulk(key).bulk(newKey);
            return renameResult(c.call(), replace);
        }
    }

    private static RenameResult renameResult(final ClientReply reply, final boolean replace)
    {
        final String error = reply.errorText();
        if (error != null && error.startsWith("ERR no such key"))
        {
            return RenameResult.NO_SUCH_KEY;
        }
        if (replace)
        {
            reply.okOrNull();
            return RenameResult.RENAMED;
        }
        return reply.integer() == 1 ? RenameResult.RENAMED : RenameResult.TARGET_EXISTS;
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code RENAME} or {@code RENAMENX}, the keys copied straight from their buffers into the request.
     */
    @Override
    public RenameResult rename(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer newKey, final int newKeyOffset, final int newKeyLength, final boolean replace)
    {
        checks.key(keyLength);
        checks.key(newKeyLength);
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(3).keyword(replace ? RENAME : RENAMENX).bulk(key, keyOffset, keyLength)
                .bulk(newKey, newKeyOffset, newKeyLength);
            return renameResult(c.call(), replace);
        }
    }

    @Override
    public byte[] incrementByFloat(final byte[] key, final double delta)
    {
        checks.key(key.length);
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.incrByFloat(c.request(), new UnsafeBuffer(key), 0, key.length, delta);
            return c.call().bulkOrNull();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code INCRBYFLOAT}: when {@code dst} cannot hold the text, the sum is already stored, as the interface
     * allows.
     */
    @Override
    public int incrementByFloat(
        final DirectBuffer key, final int keyOffset, final int keyLength, final double delta,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checks.key(keyLength);
        Objects.requireNonNull(dst, "dst");
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.incrByFloat(c.request(), key, keyOffset, keyLength, delta);
            return c.call().copyBulk(dst, dstOffset);
        }
    }

    @Override
    public boolean expire(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long expireAtMillis,
        final ExpireCondition condition)
    {
        checks.key(keyLength);
        Objects.requireNonNull(condition, "condition");
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.pexpireAt(c.request(), key, keyOffset, keyLength, expireAtMillis, condition);
            return c.call().integer() == 1;
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code PEXPIRE} with {@code NX}/{@code XX}/{@code GT}/{@code LT}: the server adds the duration to its own
     * clock, so the client's clock plays no part. A duration too long for Redis to add to its clock (more than
     * {@code Long.MAX_VALUE - 2^50} ms) is sent as {@code PEXPIREAT} {@code Long.MAX_VALUE}, where it saturates.
     */
    @Override
    public boolean expireAfter(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long durationMillis,
        final ExpireCondition condition)
    {
        checks.key(keyLength);
        Objects.requireNonNull(condition, "condition");
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.pexpire(c.request(), key, keyOffset, keyLength, durationMillis, condition);
            return c.call().integer() == 1;
        }
    }

    @Override
    public boolean persist(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return integerOfKey(PERSIST, key, keyOffset, keyLength) == 1;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Whole store
    // ------------------------------------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     * <p>
     * {@code SCAN cursor [MATCH pattern] COUNT count}; the cursor is the server's, an unsigned 64-bit number, and
     * one the server refuses ({@code ERR invalid cursor}) is an {@link InvalidCursorException} naming it. Redis
     * refuses none: it scans on from any number.
     */
    @Override
    public ScanResult scan(final long cursor, final byte[] pattern, final int count)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("count must be at least 1: count=" + count);
        }
        if (pattern != null)
        {
            checks.key(pattern.length);
        }
        try (ClientConnection c = pool.acquire())
        {
            ClientCommands.scan(c.request(), cursor, pattern, count);
            final ClientReply reply = c.call();
            final String error = reply.errorText();
            if (error != null && error.startsWith("ERR invalid cursor"))
            {
                throw new InvalidCursorException("invalid cursor: " + Long.toUnsignedString(cursor));
            }
            if (reply.arrayLength(0) != 2)
            {
                throw reply.unexpected("an array of 2", ClientReplyReader.ARRAY);
            }
            final long next = reply.unsignedDecimal(1);
            final int found = reply.arrayLength(2);
            final List<byte[]> keys = new ArrayList<>(found);
            for (int i = 0; i < found; i++)
            {
                keys.add(reply.bulkOrNull(3 + i));
            }
            return new ScanResult(next, keys);
        }
    }

    @Override
    public byte[] randomKey()
    {
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(1).keyword(RANDOMKEY);
            return c.call().bulkOrNull();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code DBSIZE}: the keys of the connection's database, 0.
     */
    @Override
    public long size()
    {
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(1).keyword(DBSIZE);
            return c.call().integer();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code FLUSHDB}: the keys of the connection's database, 0; other databases of a Redis server are kept.
     */
    @Override
    public void clear()
    {
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(1).keyword(FLUSHDB);
            c.call().throwIfError();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * Read from the server's {@code INFO}: agni's server reports its store's statistics; Redis reports
     * server-wide counters, and memory as it accounts it ({@code used_memory}, {@code used_memory_dataset},
     * {@code maxmemory}, where no limit reads as {@link Long#MAX_VALUE}). See {@code ClientInfoStats} for every
     * field.
     */
    @Override
    public StoreStats stats()
    {
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(1).keyword(INFO);
            return ClientInfoStats.parse(c.call().text());
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code TIME}: the server's clock, which for an agni server is its store's (unless the server was given
     * another), one round trip per call.
     */
    @Override
    public long currentTimeMillis()
    {
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(1).keyword(TIME);
            return c.call().timeMillis();
        }
    }

    /**
     * Refuses new calls, waits for the calls in flight (each bounded by the read timeout), and closes every
     * connection. The server and its data are untouched. Idempotent; any thread.
     */
    @Override
    public void close()
    {
        pool.close();
    }

    /**
     * @return the number of connections open now, idle or in use.
     */
    int openConnections()
    {
        return pool.openConnections();
    }

    @Override
    public String toString()
    {
        return "AgniClient{address=" + config.address() + ", connections=" + config.connections() +
            ", closed=" + pool.isClosed() + "}";
    }

    // ------------------------------------------------------------------------------------------------------------
    // One-key commands
    // ------------------------------------------------------------------------------------------------------------

    private long integerOfKey(final DirectBuffer command, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        checks.key(keyLength);
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(2).keyword(command).bulk(key, keyOffset, keyLength);
            return c.call().integer();
        }
    }

    private byte[] bulkOfKey(final DirectBuffer command, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        try (ClientConnection c = pool.acquire())
        {
            c.request().command(2).keyword(command).bulk(key, keyOffset, keyLength);
            return c.call().bulkOrNull();
        }
    }

    private void checkOpen()
    {
        if (pool.isClosed())
        {
            throw pool.closedException();
        }
    }
}
