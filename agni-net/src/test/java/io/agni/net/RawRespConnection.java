package io.agni.net;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately dumb RESP2 test client over one blocking socket: it writes exactly the bytes a test gives it and
 * reads replies one at a time, so tests control pipelining, partial commands and hostile input byte for byte.
 * <p>
 * Replies are returned in a form easy to assert on: a simple string as {@code "+OK"}, an error as
 * {@code "-ERR ..."}, an integer as {@code ":1"}, a bulk string as its UTF-8 text (no prefix), a null bulk or
 * array as {@code null}, an array as a {@code List<Object>} of the same forms. Every read has a timeout, so a
 * missing reply fails the test instead of hanging it.
 */
final class RawRespConnection implements AutoCloseable
{
    static final int READ_TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawRespConnection(final InetAddress address, final int port) throws IOException
    {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(address, port), READ_TIMEOUT_MS);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        out = socket.getOutputStream();
    }

    static RawRespConnection connect(final AgniServer server) throws IOException
    {
        return new RawRespConnection(server.localAddress().getAddress(), server.port());
    }

    Socket socket()
    {
        return socket;
    }

    /**
     * Sends one command as a RESP multibulk and reads its reply.
     */
    Object call(final String... args) throws IOException
    {
        send(args);
        return read();
    }

    void send(final String... args) throws IOException
    {
        sendRaw(encode(args));
    }

    void sendRaw(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
    }

    void sendRaw(final String text) throws IOException
    {
        sendRaw(text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] encode(final String... args)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final StringBuilder header = new StringBuilder().append('*').append(args.length).append("\r\n");
        bytes.writeBytes(header.toString().getBytes(StandardCharsets.US_ASCII));
        for (final String arg : args)
        {
            final byte[] value = arg.getBytes(StandardCharsets.UTF_8);
            bytes.writeBytes(("$" + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            bytes.writeBytes(value);
            bytes.writeBytes(new byte[] {'\r', '\n'});
        }
        return bytes.toByteArray();
    }

    /**
     * Reads one reply.
     *
     * @throws EOFException if the server closed the connection first.
     */
    Object read() throws IOException
    {
        final String line = readLine();
        final char type = line.charAt(0);
        switch (type)
        {
            case '+':
            case '-':
            case ':':
                return line;
            case '$':
            {
                final int length = Integer.parseInt(line.substring(1));
                if (length < 0)
                {
                    return null;
                }
                final byte[] value = in.readNBytes(length + 2);
                if (value.length < length + 2)
                {
                    throw new EOFException("connection closed inside a bulk reply");
                }
                return new String(value, 0, length, StandardCharsets.UTF_8);
            }
            case '*':
            {
                final int count = Integer.parseInt(line.substring(1));
                if (count < 0)
                {
                    return null;
                }
                final List<Object> elements = new ArrayList<>(count);
                for (int i = 0; i < count; i++)
                {
                    elements.add(read());
                }
                return elements;
            }
            default:
                throw new IOException("not a RESP reply: " + line);
        }
    }

    /**
     * Reads and drops {@code count} replies of any kind, e.g. after a pipeline.
     */
    void skipBytes(final long count) throws IOException
    {
        long left = count;
        while (left > 0)
        {
            final long skipped = in.skip(left);
            if (skipped <= 0)
            {
                if (in.read() < 0)
                {
                    throw new EOFException("connection closed with " + left + " bytes still expected");
                }
                left--;
            }
            else
            {
                left -= skipped;
            }
        }
    }

    /**
     * Reads and drops whatever the server sends until it closes the connection or the timeout passes.
     *
     * @return whether the server closed the connection (end of stream or reset) within the timeout.
     */
    boolean awaitClosedByServer(final long timeoutMs) throws IOException
    {
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        final byte[] sink = new byte[64 * 1024];
        try
        {
            while (System.nanoTime() - deadline < 0)
            {
                socket.setSoTimeout((int)Math.max(1, Math.min(500, (deadline - System.nanoTime()) / 1_000_000)));
                try
                {
                    if (in.read(sink) < 0)
                    {
                        return true;
                    }
                }
                catch (final SocketTimeoutException ex)
                {
                    // keep waiting until the deadline
                }
            }
            return false;
        }
        catch (final SocketException ex)
        {
            return true;
        }
        finally
        {
            if (!socket.isClosed())
            {
                socket.setSoTimeout(READ_TIMEOUT_MS);
            }
        }
    }

    /**
     * Reads whatever the server sends until it closes the connection.
     *
     * @return how many bytes it sent first.
     * @throws IOException if it did not close the connection within the timeout.
     */
    long readUntilClosed(final long timeoutMs) throws IOException
    {
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        final byte[] sink = new byte[64 * 1024];
        long received = 0;
        try
        {
            while (System.nanoTime() - deadline < 0)
            {
                socket.setSoTimeout((int)Math.max(1, Math.min(500, (deadline - System.nanoTime()) / 1_000_000)));
                try
                {
                    final int read = in.read(sink);
                    if (read < 0)
                    {
                        return received;
                    }
                    received += read;
                }
                catch (final SocketTimeoutException ex)
                {
                    // keep waiting until the deadline
                }
            }
        }
        catch (final SocketException ex)
        {
            return received;
        }
        throw new IOException("the server did not close the connection within " + timeoutMs + " ms");
    }

    private String readLine() throws IOException
    {
        final StringBuilder line = new StringBuilder();
        while (true)
        {
            final int b = in.read();
            if (b < 0)
            {
                throw new EOFException("connection closed by the server" + (line.length() > 0 ? " after " + line : ""));
            }
            if (b == '\r')
            {
                if (in.read() != '\n')
                {
                    throw new IOException("CR not followed by LF after " + line);
                }
                return line.toString();
            }
            line.append((char)b);
        }
    }

    /**
     * Resets the connection (RST) instead of closing it gracefully: an abrupt disconnect.
     */
    void abort() throws IOException
    {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
