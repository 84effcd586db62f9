package io.agni.net;

import io.agni.api.StoreConnectionException;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * One blocking TCP connection to a RESP server: a request goes out in one write, its replies are read into a heap
 * buffer and decoded by a {@link ClientReplyReader}.
 *
 * <h2>Use</h2>
 * {@link #request()} starts a request and returns the writer to encode one or more commands into; {@link #send()}
 * writes them; {@link #next()} reads the next reply. {@link #call()} is the common case, one command and its reply.
 * Several commands encoded before one {@code send()} are pipelined: one write, then one {@code next()} per command.
 *
 * <h2>Failure</h2>
 * An I/O error, a read timeout, the server closing the connection, or a reply that is not valid RESP leaves the
 * stream at an unknown point: the connection closes itself, is marked {@link #isBroken() broken}, and the call
 * throws {@link StoreConnectionException}. An error reply is not a failure: it is a complete reply, and the
 * connection stays in step.
 *
 * <h2>Memory</h2>
 * The input buffer grows to hold the largest reply read, and is replaced by a small one before the next reply
 * once it has grown past {@link #RETAINED_CAPACITY}.
 *
 * <h2>Lending</h2>
 * A connection belongs to the {@link ClientConnectionPool} that opened it, and {@link #close()} gives it back
 * there, so that a call holds one in a try-with-resources block; {@link #disconnect()} closes the socket.
 *
 * <h2>Threads</h2>
 * Not thread-safe: used by one thread at a time, which the {@link ClientConnectionPool} guarantees.
 */
final class ClientConnection implements AutoCloseable
{
    /**
     * The capacity the input buffer starts with, in bytes.
     */
    static final int INITIAL_CAPACITY = 16 * 1024;

    /**
     * The largest input buffer kept from one reply to the next, in bytes.
     */
    static final int RETAINED_CAPACITY = 1024 * 1024;

    private static final DirectBuffer AUTH = ClientRequestWriter.keyword("AUTH");
    private static final DirectBuffer CLIENT = ClientRequestWriter.keyword("CLIENT");
    private static final DirectBuffer SETNAME = ClientRequestWriter.keyword("SETNAME");
    private static final DirectBuffer PING = ClientRequestWriter.keyword("PING");

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String address;
    private final int readTimeoutMillis;
    private final ClientRequestWriter request = new ClientRequestWriter();
    private final ClientReplyReader reader;
    private final ClientReply reply;
    private ExpandableArrayBuffer input = new ExpandableArrayBuffer(INITIAL_CAPACITY);
    private int readPosition;
    private int writePosition;
    private boolean broken;
    private boolean multiConfirmed;
    private ClientConnectionPool pool;

    private ClientConnection(final Socket socket, final ClientConfig config) throws IOException
    {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.address = config.address();
        this.readTimeoutMillis = config.readTimeoutMillis();
        this.reader = new ClientReplyReader(
            config.maxBulkLength(), ClientReplyReader.DEFAULT_MAX_ARRAY_LENGTH, ClientReplyReader.DEFAULT_MAX_LINE_LENGTH,
            ClientReplyReader.DEFAULT_MAX_DEPTH);
        this.reply = new ClientReply(reader, this);
    }

    /**
     * Connects, then authenticates and names the connection if configured, and checks that the server answers
     * {@code PING}, all in one round trip.
     *
     * @param config the client's settings.
     * @return a connection ready for commands.
     * @throws StoreConnectionException if the server cannot be reached, or refuses the password, the name or the
     *                                   {@code PING} (e.g. {@code NOAUTH} when it needs a password).
     */
    static ClientConnection open(final ClientConfig config)
    {
        final Socket socket = new Socket();
        final ClientConnection connection;
        try
        {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(new InetSocketAddress(config.host(), config.port()), config.connectTimeoutMillis());
            socket.setSoTimeout(config.readTimeoutMillis());
            connection = new ClientConnection(socket, config);
        }
        catch (final IOException | RuntimeException ex)
        {
            closeQuietly(socket);
            throw new StoreConnectionException("cannot connect to " + config.address() + ": " + ex, ex);
        }
        connection.handshake(config);
        return connection;
    }

    private void handshake(final ClientConfig config)
    {
        final ClientRequestWriter writer = request();
        if (config.password() != null)
        {
            writer.command(2).keyword(AUTH).bulk(config.password().getBytes(StandardCharsets.UTF_8));
        }
        if (config.clientName() != null)
        {
            writer.command(3).keyword(CLIENT).keyword(SETNAME).bulk(config.clientName().getBytes(StandardCharsets.UTF_8));
        }
        writer.command(1).keyword(PING);
        send();
        if (config.password() != null)
        {
            refuseOnError("refused the password");
        }
        if (config.clientName() != null)
        {
            refuseOnError("refused the client name");
        }
        refuseOnError("refused PING");
    }

    private void refuseOnError(final String what)
    {
        final String error = next().errorText();
        if (error != null)
        {
            disconnect();
            throw new StoreConnectionException("server at " + address + " " + what + ": " + error);
        }
    }

    /**
     * Starts a request, forgetting the previous one.
     *
     * @return the writer to encode the request's commands into.
     */
    ClientRequestWriter request()
    {
        request.reset();
        return request;
    }

    /**
     * Sends the request and reads its reply.
     *
     * @return the reply, valid until the next request.
     */
    ClientReply call()
    {
        send();
        return next();
    }

    /**
     * Writes the request in one write.
     */
    void send()
    {
        try
        {
            out.write(request.array(), 0, request.length());
        }
        catch (final IOException ex)
        {
            throw fail("cannot send to " + address, ex);
        }
    }

    /**
     * Reads the next reply.
     *
     * @return the reply, valid until the next request or reply.
     */
    ClientReply next()
    {
        startReply();
        try
        {
            int end;
            while ((end = reader.read(input, writePosition)) == ClientReplyReader.NEED_MORE)
            {
                fill(reader.needed(writePosition));
            }
            readPosition = end;
            reply.wrap(input);
            return reply;
        }
        catch (final StoreConnectionException ex)
        {
            markBroken();
            throw ex;
        }
    }

    /**
     * @return whether the connection failed and must not be used again.
     */
    boolean isBroken()
    {
        return broken;
    }

    /**
     * @return whether the server has answered {@code MULTI} on this connection once: it has transactions.
     */
    boolean multiConfirmed()
    {
        return multiConfirmed;
    }

    /**
     * Notes that the server answered {@code MULTI} on this connection.
     */
    void confirmMulti()
    {
        multiConfirmed = true;
    }

    /**
     * Marks the connection as failed and closes it.
     */
    void markBroken()
    {
        broken = true;
        disconnect();
    }

    /**
     * Makes a pool the one {@link #close()} gives the connection back to.
     *
     * @param pool the pool that lends the connection.
     */
    void lentBy(final ClientConnectionPool pool)
    {
        this.pool = pool;
    }

    /**
     * Gives the connection back to its pool, which keeps it for reuse or, if it is broken, disconnects it.
     */
    @Override
    public void close()
    {
        pool.release(this);
    }

    /**
     * Closes the socket. Idempotent.
     */
    void disconnect()
    {
        closeQuietly(socket);
    }

    private void startReply()
    {
        if (readPosition == writePosition)
        {
            readPosition = 0;
            writePosition = 0;
            if (input.capacity() > RETAINED_CAPACITY)
            {
                input = new ExpandableArrayBuffer(INITIAL_CAPACITY);
            }
        }
        else if (readPosition > 0)
        {
            final byte[] array = input.byteArray();
            System.arraycopy(array, readPosition, array, 0, writePosition - readPosition);
            writePosition -= readPosition;
            readPosition = 0;
        }
        reader.reset(readPosition);
    }

    private void fill(final int needed)
    {
        if (needed > input.capacity() || writePosition == input.capacity())
        {
            input.checkLimit(Math.max(needed, writePosition + 1));
        }
        final int read;
        try
        {
            read = in.read(input.byteArray(), writePosition, input.capacity() - writePosition);
        }
        catch (final SocketTimeoutException ex)
        {
            throw fail("no reply from " + address + " within " + readTimeoutMillis + " ms", ex);
        }
        catch (final IOException ex)
        {
            throw fail("cannot read from " + address, ex);
        }
        if (read < 0)
        {
            markBroken();
            throw new StoreConnectionException("server at " + address + " closed the connection");
        }
        writePosition += read;
    }

    private StoreConnectionException fail(final String message, final IOException cause)
    {
        markBroken();
        return new StoreConnectionException(message + ": " + cause, cause);
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ignore)
        {
            // nothing more to release
        }
    }
}
