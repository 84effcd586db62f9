package io.agni.net;

import org.agrona.ExpandableArrayBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted RESP server for the client's failure tests: it decodes each request (with the client's own decoder,
 * since a request is an array of bulk strings), records it, and answers whatever the test's {@link Responder}
 * says, including nothing, garbage, or a closed connection. One thread per connection; loopback, ephemeral port.
 */
final class ClientTestServer implements AutoCloseable
{
    /**
     * A reply that makes the server close the connection instead of answering.
     */
    static final String CLOSE = "<close>";

    /**
     * What the server answers.
     */
    @FunctionalInterface
    interface Responder
    {
        /**
         * @param connection the connection's number, from 0 in accept order.
         * @param command    the command and its arguments, as ISO-8859-1 text.
         * @return the raw reply bytes as text (e.g. {@code "+OK\r\n"}), {@link #CLOSE}, or {@code null} for none.
         */
        String reply(int connection, List<String> command);
    }

    private final ServerSocket serverSocket;
    private final Responder responder;
    private final List<List<String>> commands = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Thread acceptor;

    ClientTestServer(final Responder responder) throws IOException
    {
        this.responder = responder;
        this.serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "client-test-server-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * A responder that answers the handshake's {@code PING} with {@code +PONG} and every other command as
     * {@code others} says.
     */
    static Responder pongThen(final Responder others)
    {
        return (connection, command) -> "PING".equals(command.get(0)) ? "+PONG\r\n" : others.reply(connection, command);
    }

    int port()
    {
        return serverSocket.getLocalPort();
    }

    /**
     * @return every command received so far, in order of arrival.
     */
    List<List<String>> commands()
    {
        return new ArrayList<>(commands);
    }

    /**
     * @return the number of connections accepted so far.
     */
    int accepted()
    {
        return accepted.get();
    }

    /**
     * Closes every accepted connection but keeps listening, as a server restart looks to a client's idle
     * connections.
     */
    void dropAllConnections() throws IOException
    {
        for (final Socket socket : sockets)
        {
            socket.close();
        }
    }

    @Override
    public void close() throws IOException
    {
        serverSocket.close();
        for (final Socket socket : sockets)
        {
            socket.close();
        }
    }

    private void acceptLoop()
    {
        while (!serverSocket.isClosed())
        {
            try
            {
                final Socket socket = serverSocket.accept();
                sockets.add(socket);
                final int number = accepted.getAndIncrement();
                final Thread handler = new Thread(() -> serve(socket, number), "client-test-server-" + number);
                handler.setDaemon(true);
                handler.start();
            }
            catch (final IOException ex)
            {
                return;
            }
        }
    }

    private void serve(final Socket socket, final int number)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1024);
        final ClientReplyReader decoder = new ClientReplyReader();
        int start = 0;
        int end = 0;
        try (socket)
        {
            final InputStream in = socket.getInputStream();
            final OutputStream out = socket.getOutputStream();
            decoder.reset(0);
            while (true)
            {
                final int requestEnd = decoder.read(buffer, end);
                if (requestEnd == ClientReplyReader.NEED_MORE)
                {
                    buffer.checkLimit(end + 1024);
                    final int read = in.read(buffer.byteArray(), end, buffer.capacity() - end);
                    if (read < 0)
                    {
                        return;
                    }
                    end += read;
                    continue;
                }
                final List<String> command = new ArrayList<>();
                for (int i = 1; i < decoder.elements(); i++)
                {
                    command.add(buffer.getStringWithoutLengthAscii(decoder.offset(i), decoder.length(i)));
                }
                commands.add(command);
                final String reply = responder.reply(number, command);
                if (CLOSE.equals(reply))
                {
                    return;
                }
                if (reply != null)
                {
                    out.write(reply.getBytes(StandardCharsets.ISO_8859_1));
                }
                start = requestEnd;
                decoder.reset(start);
            }
        }
        catch (final IOException ex)
        {
            // the client or the test closed the connection
        }
    }
}
