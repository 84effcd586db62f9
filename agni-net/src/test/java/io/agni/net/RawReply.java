package io.agni.net;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One RESP2 or RESP3 reply as read off a socket: its exact bytes, and a tree of its types for comparing two
 * replies by shape (the same types and element counts, whatever the scalars hold).
 *
 * @param bytes    the reply's bytes, exactly as received (null for an element of an aggregate).
 * @param type     its type byte: {@code + - : $ * _ , # ( = % ~ > |}.
 * @param text     a scalar's content as ISO-8859-1 text (a bulk's bytes, a simple string's or a number's text);
 *                 the count line of an aggregate.
 * @param elements an aggregate's elements (a map's keys and values alternating), empty for a scalar.
 */
record RawReply(byte[] bytes, char type, String text, List<RawReply> elements)
{
    private static final int MAX_LINE = 64 * 1024;

    /**
     * Reads one complete reply.
     *
     * @param in where the bytes come from (buffered: it is read a byte at a time).
     * @return the reply.
     * @throws IOException on a read failure, the end of the stream, or bytes that are not RESP.
     */
    static RawReply read(final InputStream in) throws IOException
    {
        final ByteArrayOutputStream recorded = new ByteArrayOutputStream();
        final RawReply parsed = read(in, recorded);
        return new RawReply(recorded.toByteArray(), parsed.type, parsed.text, parsed.elements);
    }

    private static RawReply read(final InputStream in, final ByteArrayOutputStream recorded) throws IOException
    {
        final int start = recorded.size();
        final char type = (char)next(in, recorded);
        String text = line(in, recorded);
        final List<RawReply> elements = new ArrayList<>();
        switch (type)
        {
            case '+', '-', ':', '_', ',', '#', '(' ->
            {
            }
            case '$', '=', '!' ->
            {
                final int length = Integer.parseInt(text);
                final StringBuilder content = new StringBuilder();
                for (int i = 0; length >= 0 && i < length + 2; i++)
                {
                    content.append((char)next(in, recorded));
                }
                text = length < 0 ? null : content.substring(0, length);
            }
            case '*', '~', '>' ->
            {
                final int count = Integer.parseInt(text);
                for (int i = 0; i < count; i++)
                {
                    elements.add(read(in, recorded));
                }
            }
            case '%', '|' ->
            {
                final int count = Integer.parseInt(text);
                for (int i = 0; i < 2 * count; i++)
                {
                    elements.add(read(in, recorded));
                }
            }
            default -> throw new IOException("not a RESP reply: type byte '" + type + "' after " +
                new String(recorded.toByteArray(), 0, start, StandardCharsets.ISO_8859_1));
        }
        return new RawReply(null, type, text, elements);
    }

    private static int next(final InputStream in, final ByteArrayOutputStream recorded) throws IOException
    {
        final int b = in.read();
        if (b < 0)
        {
            throw new EOFException("the connection closed inside a reply");
        }
        recorded.write(b);
        return b;
    }

    private static String line(final InputStream in, final ByteArrayOutputStream recorded) throws IOException
    {
        final StringBuilder line = new StringBuilder();
        int b;
        while ((b = next(in, recorded)) != '\r')
        {
            line.append((char)b);
            if (line.length() > MAX_LINE)
            {
                throw new IOException("a reply line longer than " + MAX_LINE + " bytes");
            }
        }
        if (next(in, recorded) != '\n')
        {
            throw new IOException("CR not followed by LF in a reply line");
        }
        return line.toString();
    }

    /**
     * Whether this reply has the other's shape: the same type at every level, and aggregates of the same size.
     *
     * @param other the other reply.
     * @return whether the shapes agree.
     */
    boolean sameShape(final RawReply other)
    {
        if (type != other.type || elements.size() != other.elements.size())
        {
            return false;
        }
        for (int i = 0; i < elements.size(); i++)
        {
            if (!elements.get(i).sameShape(other.elements.get(i)))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The reply's bytes as readable text (CR and LF escaped, other control and non-ASCII bytes as {@code \xHH}),
     * cut at {@code max} characters.
     *
     * @param max the most characters shown.
     * @return the text.
     */
    String show(final int max)
    {
        final StringBuilder text = new StringBuilder();
        for (final byte b : bytes)
        {
            if (text.length() >= max)
            {
                return text.append("...").toString();
            }
            final int c = b & 0xff;
            if (c == '\r')
            {
                text.append("\\r");
            }
            else if (c == '\n')
            {
                text.append("\\n");
            }
            else if (c < 0x20 || c >= 0x7f)
            {
                text.append(String.format("\\x%02x", c));
            }
            else
            {
                text.append((char)c);
            }
        }
        return text.toString();
    }
}
