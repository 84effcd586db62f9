package io.agni.bench.eviction;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal blocking RESP2 connection for the hit-ratio replay: commands are encoded into one buffer and sent
 * together (a pipeline), replies are read one by one. Only what the replay needs: GET, SET, DBSIZE, INFO, CONFIG SET.
 * Not thread-safe.
 */
final class RespConnection implements AutoCloseable {
    /** What {@link #readBulkPrefix} returns for a null bulk string (a GET miss). */
    static final int NULL_BULK = -1;

    private static final byte[] GET = "*2\r\n$3\r\nGET\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SET = "*3\r\n$3\r\nSET\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DBSIZE = "*1\r\n$6\r\nDBSIZE\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private byte[] outBuffer = new byte[1 << 16];
    private int outLength;
    private final byte[] inBuffer = new byte[1 << 16];
    private int inPosition;
    private int inLimit;

    RespConnection(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5_000);
        socket.setSoTimeout(120_000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** Queues {@code GET key} with an 8-byte key. */
    void get(long key) {
        append(GET);
        appendBulk(key);
    }

    /** Queues {@code SET key value}: an 8-byte key, a value whose first 8 bytes are {@code key}, then {@code body}. */
    void set(long key, byte[] body) {
        append(SET);
        appendBulk(key);
        byte[] length = Integer.toString(body.length).getBytes(StandardCharsets.US_ASCII);
        ensure(body.length + 16);
        outBuffer[outLength++] = '$';
        System.arraycopy(length, 0, outBuffer, outLength, length.length);
        outLength += length.length;
        crlf();
        putLong(key);
        System.arraycopy(body, Long.BYTES, outBuffer, outLength, body.length - Long.BYTES);
        outLength += body.length - Long.BYTES;
        crlf();
    }

    /** Queues {@code DBSIZE}. */
    void dbsize() {
        append(DBSIZE);
    }

    /** Queues any command of text arguments. */
    void command(String... arguments) {
        StringBuilder text = new StringBuilder("*").append(arguments.length).append("\r\n");
        for (String a : arguments) {
            text.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        append(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Sends everything queued. */
    void flush() throws IOException {
        out.write(outBuffer, 0, outLength);
        out.flush();
        outLength = 0;
    }

    /**
     * Reads a bulk-string reply's length and, for a non-null one, its first 8 bytes into {@code first[0]} (when the
     * value is at least 8 bytes long); the rest of the value is skipped.
     *
     * @return the length, or {@link #NULL_BULK}
     * @throws IOException on anything but a bulk string (an error reply's text is in the message)
     */
    int readBulkPrefix(long[] first) throws IOException {
        int type = readByte();
        if (type != '$') {
            throw unexpected(type);
        }
        long length = readLineNumber();
        if (length < 0) {
            return NULL_BULK;
        }
        long skip = length;
        if (length >= Long.BYTES) {
            long v = 0;
            for (int i = 0; i < Long.BYTES; i++) {
                v = (v << 8) | (readByte() & 0xFF);
            }
            first[0] = v;
            skip -= Long.BYTES;
        }
        skipBytes(skip + 2);
        return (int) length;
    }

    /** Reads a bulk-string reply whole, as text. */
    String readBulkText() throws IOException {
        int type = readByte();
        if (type != '$') {
            throw unexpected(type);
        }
        int length = (int) readLineNumber();
        byte[] text = new byte[Math.max(0, length)];
        for (int i = 0; i < text.length; i++) {
            text[i] = (byte) readByte();
        }
        skipBytes(2);
        return new String(text, StandardCharsets.UTF_8);
    }

    /** Reads a simple-string reply ({@code +OK}); an error reply fails. */
    void readOk() throws IOException {
        int type = readByte();
        if (type != '+') {
            throw unexpected(type);
        }
        readLine();
    }

    /** Reads an integer reply. */
    long readInteger() throws IOException {
        int type = readByte();
        if (type != ':') {
            throw unexpected(type);
        }
        return readLineNumber();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private IOException unexpected(int type) throws IOException {
        return new IOException("unexpected reply: " + (char) type + readLine());
    }

    private void append(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, outBuffer, outLength, bytes.length);
        outLength += bytes.length;
    }

    private void appendBulk(long key) {
        ensure(16);
        outBuffer[outLength++] = '$';
        outBuffer[outLength++] = '8';
        crlf();
        putLong(key);
        crlf();
    }

    private void putLong(long key) {
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            outBuffer[outLength++] = (byte) (key >>> (8 * i));
        }
    }

    private void crlf() {
        outBuffer[outLength++] = '\r';
        outBuffer[outLength++] = '\n';
    }

    private void ensure(int more) {
        if (outLength + more > outBuffer.length) {
            outBuffer = Arrays.copyOf(outBuffer, Math.max(outBuffer.length * 2, outLength + more));
        }
    }

    private int readByte() throws IOException {
        if (inPosition == inLimit) {
            inLimit = in.read(inBuffer);
            inPosition = 0;
            if (inLimit <= 0) {
                inLimit = 0;
                throw new IOException("connection closed by the server");
            }
        }
        return inBuffer[inPosition++];
    }

    private void skipBytes(long n) throws IOException {
        long left = n;
        while (left > 0) {
            if (inPosition == inLimit) {
                readByte();
                inPosition--;
            }
            int step = (int) Math.min(left, inLimit - inPosition);
            inPosition += step;
            left -= step;
        }
    }

    private long readLineNumber() throws IOException {
        int b = readByte();
        boolean negative = b == '-';
        if (negative) {
            b = readByte();
        }
        long n = 0;
        while (b != '\r') {
            if (b < '0' || b > '9') {
                throw new IOException("not a number in a reply: " + (char) b + readLine());
            }
            n = n * 10 + (b - '0');
            b = readByte();
        }
        readByte();
        return negative ? -n : n;
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = readByte()) != '\r') {
            line.append((char) b);
        }
        readByte();
        return line.toString();
    }
}
