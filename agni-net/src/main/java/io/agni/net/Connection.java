package io.agni.net;

import io.agni.protocol.BufferLimitException;
import io.agni.protocol.GrowableDirectBuffer;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespDecoder;
import io.agni.protocol.RespWriter;
import io.agni.protocol.command.CommandProcessor;
import io.agni.protocol.command.Outcome;
import io.agni.protocol.command.Session;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * One client connection, served by the event loop that owns it: bytes in, commands executed, replies out.
 *
 * <h2>One readiness event</h2>
 * One read into the {@link QueryBuffer}; the decoder hands over every complete command; each is executed at once
 * and its reply appended to the connection's {@link ReplyBuffer}; then one write of all the replies. Pipelined
 * requests therefore cost one read and one write, and one read of the clock (the sessions' last-command time, as
 * Redis stamps a client once per read). If the write is partial the connection stops reading
 * ({@code OP_WRITE} only) until its replies are drained: a client that does not read cannot make the server
 * execute more of its commands. Nothing here allocates per command. With a store whose writes wait for the device
 * ({@code PARANOID}), the write waits for the end of the loop's iteration and its one sync
 * ({@link EventLoop#defersReplies()}, {@link #flushAfterSync(long, boolean)}); so does an early write of many
 * replies.
 *
 * <h2>A bounded turn</h2>
 * A turn executes at most {@link #MAX_COMMANDS_PER_TURN} commands. A connection whose query buffer grew (a large
 * bulk) can read megabytes of small pipelined commands at once; executing them all would keep every other
 * connection of the loop waiting. At the bound the decoder stops after a complete command, the rest stays in the
 * query buffer ({@link QueryBuffer#skip}, no copy), the replies so far are written, and the connection stops
 * reading (no interest in {@code OP_READ}: the socket reports nothing for input already read) and asks its loop
 * ({@link EventLoop#resumeLater}) for another turn after the other ready connections: {@link #onInputPending}
 * decodes the rest from where it stopped, so the commands run exactly once and in order. A partial write still
 * comes first: such a connection waits for {@code OP_WRITE} and asks for its next turn only once drained.
 *
 * <h2>Limits</h2>
 * <ul>
 *   <li>Output: the reply buffer cannot grow past {@code maxOutputBuffer}, so a reply that would take the replies
 *   not yet sent past it is refused while it is being written, before the buffer grows to hold it (a GET's value is
 *   not copied, an MGET stops at the value that does not fit, KEYS stops collecting), and the client is
 *   disconnected: Redis's hard {@code client-output-buffer-limit}, checked before the memory is taken. Replies to
 *   one batch add up too (many pipelined GETs of a large value), so once {@link #FLUSH_THRESHOLD} bytes are
 *   waiting, they are written right away: a client that reads keeps up, one that does not reaches the limit.</li>
 *   <li>Input: a partial command that cannot fit in {@code maxQueryBuffer} (what is held plus what the decoder
 *   knows is missing) disconnects the client (Redis's {@code client-query-buffer-limit}).</li>
 *   <li>Client memory: both buffers, and the session's transaction queue (whose commands may together take up to
 *   {@code maxQueryBuffer}), reserve every allocation in the server's {@link ClientMemory}; a growth it refuses
 *   means this client is the largest when the clients together pass {@code maxClientMemory}, and it is
 *   disconnected (evicted). A client chosen while another connection grew is closed by {@link #closeEvicted}.</li>
 *   <li>Idle: a connection makes progress when a command completes, reply bytes are sent, or
 *   {@link #PROGRESS_BYTES} more bytes of a partial command arrive; the loop closes one that made none for the
 *   idle timeout, so a byte-at-a-time sender is idle.</li>
 * </ul>
 *
 * <h2>Memory</h2>
 * Both buffers start at 16 KiB. After a turn, a query buffer that grew past {@link QueryBuffer#RETAINED_CAPACITY}
 * and a drained reply buffer that grew past {@link ReplyBuffer#RETAINED_CAPACITY} return to 16 KiB at once, so a
 * client that sent one large command and goes on with small ones does not keep the large buffers; smaller growths
 * are given back when the connection is idle for a tick.
 *
 * <h2>Closing</h2>
 * Disconnections for limits, timeouts and I/O errors close at once, with no reply, as Redis does. After QUIT, a
 * protocol error or a protected-mode refusal the replies are flushed, the output is shut down (FIN), and input is
 * read and dropped until the client closes or {@link #LINGER_MS} pass: closing a socket with unread input would
 * send an RST that can destroy the reply before the client reads it.
 * <p>
 * Not thread-safe: every method runs on the owning event loop's thread.
 */
final class Connection implements RespDecoder.Listener
{
    /**
     * Replies waiting past this many bytes are written in the middle of a batch.
     */
    static final int FLUSH_THRESHOLD = 256 * 1024;

    /**
     * The most commands one connection executes in one turn of its loop before the other ready connections are
     * served. One 16 KiB read ({@link QueryBuffer#INITIAL_CAPACITY}, Redis's read size) holds at most 1489
     * multibulk commands (11 bytes at least: {@code *1\r\n$1\r\nA\r\n}), so a normal client's pipelined batch is
     * never cut and still costs one read and one write; what is bounded is a backlog that only a grown query buffer
     * can hold. 2048 small commands take well under a millisecond, so that is the most another client waits for
     * this one per turn.
     */
    static final int MAX_COMMANDS_PER_TURN = 2048;

    /**
     * Bytes of a partial command that count as progress against the idle timeout.
     */
    static final int PROGRESS_BYTES = 1024;

    /**
     * How long a closing connection drains its client's input after its last reply.
     */
    static final long LINGER_MS = 2_000;

    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int LINGERING = 2;
    private static final int CLOSED = 3;

    private final EventLoop loop;
    private final AgniServerContext server;
    private final SocketChannel channel;
    private final Session session;
    private final CommandProcessor processor;
    private final EpochClock clock;
    private final RespDecoder decoder;
    private final ConnectionMemory memory;
    private final QueryBuffer in;
    private final ReplyBuffer out;
    private final int maxQueryBuffer;
    private final int maxOutputBuffer;
    private final int flushThreshold;
    private final boolean passwordRequired;
    private final long idleTimeoutMs;
    private SelectionKey key;
    private int interestOps;
    private int state = OPEN;
    private boolean decoderAuthenticated;
    private boolean shuttingDown;
    private String disconnectReason;
    private long lastActivityMs;
    private long lingerDeadlineMs;
    private int bytesSinceProgress;
    private int commandsInBatch;
    private boolean inputPending;
    private long batchMillis;
    private boolean readSinceTick;
    /**
     * Whether replies wait for the loop's sync ({@link EventLoop#defersReplies()}), and whether this connection is
     * on the loop's list of those waiting.
     */
    private final boolean deferred;
    private boolean flushQueued;
    int index;

    Connection(
        final EventLoop loop,
        final AgniServerConfig config,
        final AgniServerContext server,
        final CommandProcessor processor,
        final SocketChannel channel,
        final Session session,
        final long nowMs)
    {
        this.loop = loop;
        this.server = server;
        this.channel = channel;
        this.session = session;
        this.processor = processor;
        this.clock = config.clock;
        this.decoder = new RespDecoder(config.protocolLimits);
        this.memory = new ConnectionMemory(server.clientMemory, this, loop, session);
        session.transactionLimits(memory.transaction(), config.maxQueryBuffer);
        server.clientMemory.open(memory, QueryBuffer.INITIAL_CAPACITY + ReplyBuffer.INITIAL_CAPACITY);
        QueryBuffer in = null;
        try
        {
            in = new QueryBuffer(config.maxQueryBuffer, memory.query());
            this.out = new ReplyBuffer(config.maxOutputBuffer, memory.reply());
        }
        catch (final RuntimeException | OutOfMemoryError ex)
        {
            if (in != null)
            {
                in.free();
            }
            server.clientMemory.close(memory);
            throw ex;
        }
        this.in = in;
        this.maxQueryBuffer = config.maxQueryBuffer;
        this.maxOutputBuffer = config.maxOutputBuffer;
        this.flushThreshold = Math.min(FLUSH_THRESHOLD, config.maxOutputBuffer / 2);
        this.passwordRequired = config.passwordRequired();
        this.idleTimeoutMs = config.idleTimeoutMs;
        this.decoderAuthenticated = !passwordRequired;
        this.decoder.authenticated(decoderAuthenticated);
        this.lastActivityMs = nowMs;
        this.deferred = loop.defersReplies();
    }

    Session session()
    {
        return session;
    }

    /**
     * Registers for reads, or, when protected mode refuses the client, sends Redis's DENIED error and closes.
     */
    void start(final Selector selector, final boolean denied, final long nowMs) throws IOException
    {
        interestOps = SelectionKey.OP_READ;
        key = channel.register(selector, interestOps, this);
        if (denied)
        {
            out.writer().raw(ServerReplies.DENIED_BUFFER);
            state = CLOSING;
            afterBatch(nowMs);
        }
    }

    void onReadable(final long nowMs) throws IOException
    {
        if (state == LINGERING)
        {
            drainInput();
            return;
        }
        if (state != OPEN || inputPending)
        {
            return;
        }
        if (memory.evicted)
        {
            closeEvicted();
            return;
        }
        if (in.isFull())
        {
            final int grown = in.grow(decoder.pendingBytesHint());
            if (grown != QueryBuffer.GROWN)
            {
                disconnect(grown == QueryBuffer.AT_LIMIT ?
                    DisconnectReason.QUERY_BUFFER_LIMIT : DisconnectReason.CLIENT_EVICTED);
                return;
            }
        }
        final int read = in.readFrom(channel);
        if (read < 0)
        {
            close(DisconnectReason.CLOSED_BY_CLIENT);
            return;
        }
        if (read == 0)
        {
            return;
        }
        bytesSinceProgress = (int)Math.min(Integer.MAX_VALUE, (long)bytesSinceProgress + read);
        executeTurn(nowMs);
    }

    /**
     * The next turn of a connection that stopped at {@link #MAX_COMMANDS_PER_TURN} with commands left in its query
     * buffer: executes the next of them without reading. Only the owning event loop, when {@link EventLoop#resumeLater}
     * asked it to.
     */
    void onInputPending(final long nowMs) throws IOException
    {
        if (state == OPEN && inputPending)
        {
            inputPending = false;
            executeTurn(nowMs);
        }
    }

    private void executeTurn(final long nowMs) throws IOException
    {
        readSinceTick = true;
        commandsInBatch = 0;
        batchMillis = clock.time();
        final int consumed = decoder.decode(in.buffer(), in.start(), in.length(), this);
        if (inputPending)
        {
            in.skip(consumed);
            inputPending = in.length() > 0;
        }
        else
        {
            in.consume(consumed);
        }
        if (disconnectReason != null)
        {
            disconnect(disconnectReason);
            return;
        }
        if (commandsInBatch > 0 || bytesSinceProgress >= PROGRESS_BYTES)
        {
            lastActivityMs = nowMs;
            bytesSinceProgress = 0;
        }
        if (state == OPEN && !inputPending && in.length() > 0 &&
            in.length() + Math.max(1, decoder.pendingBytesHint()) > maxQueryBuffer)
        {
            disconnect(DisconnectReason.QUERY_BUFFER_LIMIT);
            return;
        }
        if (!inputPending)
        {
            in.shrinkIfLarge();
        }
        afterBatch(nowMs);
    }

    void onWritable(final long nowMs) throws IOException
    {
        if (state == OPEN || state == CLOSING)
        {
            if (flush(nowMs))
            {
                afterDrained(nowMs);
            }
        }
    }

    @Override
    public boolean onCommand(final RespArgs args)
    {
        if (state != OPEN || disconnectReason != null)
        {
            return false;
        }
        commandsInBatch++;
        final RespWriter writer = out.writer();
        final int mark = writer.position();
        Outcome outcome;
        try
        {
            outcome = processor.execute(session, args, writer, batchMillis);
        }
        catch (final BufferLimitException ex)
        {
            outcome = Outcome.CONTINUE;
        }
        catch (final RuntimeException ex)
        {
            writer.position(mark);
            writer.error(ServerReplies.INTERNAL_ERROR);
            server.warnings.internalErrors.warn(
                "command failed for client {}: {}", session.remoteAddress(), ex.toString());
            outcome = Outcome.CONTINUE;
        }
        if (passwordRequired && decoderAuthenticated != session.authenticated())
        {
            decoderAuthenticated = session.authenticated();
            decoder.authenticated(decoderAuthenticated);
        }
        if (writer.refusal() != GrowableDirectBuffer.NOT_REFUSED)
        {
            refused(writer, mark);
            return false;
        }
        if (outcome == Outcome.CLOSE)
        {
            state = CLOSING;
            return false;
        }
        if (outcome == Outcome.EVICT)
        {
            disconnectReason = DisconnectReason.CLIENT_EVICTED;
            return false;
        }
        if (!checkOutput())
        {
            return false;
        }
        if (commandsInBatch >= MAX_COMMANDS_PER_TURN)
        {
            inputPending = true;
            return false;
        }
        return true;
    }

    @Override
    public void onProtocolError(final String message)
    {
        server.protocolErrors.incrementAndGet();
        server.warnings.protocolErrors.warn(
            "protocol error from client {}: {}", session.remoteAddress(), RateLimitedWarnings.printable(message));
        final RespWriter writer = out.writer();
        final int mark = writer.position();
        try
        {
            writer.error("ERR " + message);
            server.statistics().error("ERR");
        }
        catch (final BufferLimitException ex)
        {
            refused(writer, mark);
            return;
        }
        state = CLOSING;
    }

    /**
     * A reply could not be written: it would have passed the output limit, or the client's memory was refused.
     * Drops what was written of it; the client is disconnected once the decoder returns.
     */
    private void refused(final RespWriter writer, final int mark)
    {
        disconnectReason = writer.refusal() == GrowableDirectBuffer.REFUSED_BY_LIMIT ?
            DisconnectReason.OUTPUT_BUFFER_LIMIT : DisconnectReason.CLIENT_EVICTED;
        writer.clearRefusal();
        writer.position(mark);
    }

    /**
     * The periodic check: idle timeout, linger deadline, and giving back buffers that grew.
     */
    void onTick(final long nowMs)
    {
        if (state == LINGERING)
        {
            if (nowMs - lingerDeadlineMs >= 0)
            {
                close(DisconnectReason.LINGER_TIMEOUT);
            }
            return;
        }
        if (idleTimeoutMs > 0 && nowMs - lastActivityMs >= idleTimeoutMs)
        {
            server.idleTimeoutDisconnections.incrementAndGet();
            close(DisconnectReason.IDLE_TIMEOUT);
            return;
        }
        if (!readSinceTick && state == OPEN && out.pending() == 0)
        {
            in.shrink();
            out.shrink();
        }
        readSinceTick = false;
    }

    /**
     * The server is closing: stop reading, let the replies computed so far go out, then close.
     */
    void shutdown(final long nowMs)
    {
        shuttingDown = true;
        if (state == OPEN || state == CLOSING)
        {
            state = CLOSING;
            try
            {
                afterBatch(nowMs);
            }
            catch (final IOException ex)
            {
                close(DisconnectReason.IO_ERROR);
            }
        }
        else
        {
            close(DisconnectReason.SERVER_SHUTDOWN);
        }
    }

    boolean isClosed()
    {
        return state == CLOSED;
    }

    /**
     * Closes the socket at once and frees the buffers; idempotent.
     */
    void close(final String reason)
    {
        if (state == CLOSED)
        {
            return;
        }
        state = CLOSED;
        if (key != null)
        {
            key.cancel();
        }
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            LOG.debug("closing client {} failed", session.remoteAddress(), ex);
        }
        server.recordOutputBuffer(out.capacity());
        in.free();
        out.free();
        session.close();
        server.clientMemory.close(memory);
        server.remove(session);
        server.releaseClient();
        loop.removed(this);
        LOG.debug("client id={} addr={} closed: {}", session.id(), session.remoteAddress(), reason);
    }

    /**
     * Closes a connection chosen for eviction by {@link ClientMemory} while another connection grew a buffer. Only
     * the owning event loop.
     */
    void closeEvicted()
    {
        if (state != CLOSED)
        {
            disconnect(DisconnectReason.CLIENT_EVICTED);
        }
    }

    /**
     * Flushes replies early once enough wait. The output limit needs no check here: the reply buffer cannot grow
     * past it.
     */
    private boolean checkOutput()
    {
        if (out.pending() >= flushThreshold)
        {
            if (deferred && !loop.awaitDurable())
            {
                disconnectReason = DisconnectReason.NOT_DURABLE;
                return false;
            }
            try
            {
                if (!flush(System.nanoTime() / 1_000_000))
                {
                    out.compact();
                }
            }
            catch (final IOException ex)
            {
                disconnectReason = DisconnectReason.IO_ERROR;
                return false;
            }
        }
        return true;
    }

    private void afterBatch(final long nowMs) throws IOException
    {
        server.recordOutputBuffer(out.capacity());
        if (deferred)
        {
            if (!flushQueued)
            {
                flushQueued = true;
                loop.flushAfterSync(this);
            }
            return;
        }
        flushBatch(nowMs);
    }

    /**
     * Writes the replies of a turn whose writes the loop has made durable ({@link EventLoop#defersReplies()}). Only
     * the owning event loop, after its sync.
     *
     * @param synced whether the sync succeeded; if not, the replies are dropped and the client disconnected, since
     *               they may confirm writes the store could not make durable.
     */
    void flushAfterSync(final long nowMs, final boolean synced) throws IOException
    {
        flushQueued = false;
        if (state != OPEN && state != CLOSING)
        {
            return;
        }
        if (!synced)
        {
            close(DisconnectReason.NOT_DURABLE);
            return;
        }
        flushBatch(nowMs);
    }

    private void flushBatch(final long nowMs) throws IOException
    {
        if (flush(nowMs))
        {
            afterDrained(nowMs);
        }
        else
        {
            interest(SelectionKey.OP_WRITE);
        }
    }

    private void afterDrained(final long nowMs) throws IOException
    {
        out.shrinkIfLarge();
        if (state == OPEN && inputPending)
        {
            interest(0);
            loop.resumeLater(this);
        }
        else if (state == OPEN)
        {
            interest(SelectionKey.OP_READ);
        }
        else if (state == CLOSING)
        {
            if (shuttingDown)
            {
                close(DisconnectReason.SERVER_SHUTDOWN);
            }
            else
            {
                linger(nowMs);
            }
        }
    }

    /**
     * One write of the replies waiting.
     *
     * @return whether every reply has been sent.
     */
    private boolean flush(final long nowMs) throws IOException
    {
        if (out.pending() > 0)
        {
            server.faults.beforeReplyWrite(channel);
        }
        if (out.writeTo(channel) > 0)
        {
            lastActivityMs = nowMs;
        }
        return out.pending() == 0;
    }

    private void linger(final long nowMs) throws IOException
    {
        state = LINGERING;
        channel.shutdownOutput();
        lingerDeadlineMs = nowMs + LINGER_MS;
        in.clear();
        interest(SelectionKey.OP_READ);
    }

    private void drainInput() throws IOException
    {
        in.clear();
        if (in.readFrom(channel) < 0)
        {
            close(DisconnectReason.CLOSED_BY_CLIENT);
        }
        in.clear();
    }

    private void disconnect(final String reason)
    {
        if (DisconnectReason.OUTPUT_BUFFER_LIMIT.equals(reason))
        {
            server.outputBufferLimitDisconnections.incrementAndGet();
            server.warnings.outputBufferLimit.warn(
                "client {} disconnected: replies waiting passed maxOutputBuffer={}", session.remoteAddress(),
                maxOutputBuffer);
        }
        else if (DisconnectReason.QUERY_BUFFER_LIMIT.equals(reason))
        {
            server.queryBufferLimitDisconnections.incrementAndGet();
            server.warnings.queryBufferLimit.warn(
                "client {} disconnected: pending command passed maxQueryBuffer={}", session.remoteAddress(),
                maxQueryBuffer);
        }
        else if (DisconnectReason.CLIENT_EVICTED.equals(reason))
        {
            server.warnings.clientEvicted.warn(
                "client {} evicted: the clients' buffers passed maxClientMemory={} and it was the largest",
                session.remoteAddress(), server.clientMemory.limit());
        }
        close(reason);
    }

    private void interest(final int ops)
    {
        if (interestOps != ops)
        {
            interestOps = ops;
            key.interestOps(ops);
        }
    }

    @Override
    public String toString()
    {
        return "client id=" + session.id() + " addr=" + session.remoteAddress();
    }
}
