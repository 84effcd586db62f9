package io.agni.protocol.command;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads an INFO reply as Prometheus's redis_exporter reads it ({@code extractInfoMetrics}): the body split at CRLF,
 * a line {@code # Name} starting a section, every other non-empty line split at its first colon into a field and
 * its value; the values of {@code db0}, {@code cmdstat_*} and {@code errorstat_*} are lists of {@code key=value}
 * split at commas. Stricter than the exporter, which skips what it cannot read: any other line fails the test.
 */
final class InfoReplyParser
{
    private InfoReplyParser()
    {
    }

    /**
     * Parses a raw RESP bulk reply of INFO.
     *
     * @param reply the reply, {@code $<n>\r\n<body>\r\n}.
     * @return each section's fields, in the reply's order.
     */
    static Map<String, Map<String, String>> parseReply(final String reply)
    {
        if (!reply.startsWith("$"))
        {
            throw new AssertionError("not a bulk reply: " + reply);
        }
        final int headerEnd = reply.indexOf("\r\n");
        final int length = Integer.parseInt(reply.substring(1, headerEnd));
        final String body = reply.substring(headerEnd + 2, reply.length() - 2);
        if (body.getBytes(StandardCharsets.ISO_8859_1).length != length || !reply.endsWith("\r\n"))
        {
            throw new AssertionError("bulk length " + length + " does not match its body: " + reply);
        }
        return parse(body);
    }

    /**
     * Parses INFO's text.
     *
     * @param body the text.
     * @return each section's fields, in order.
     */
    static Map<String, Map<String, String>> parse(final String body)
    {
        final Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        if (body.isEmpty())
        {
            return sections;
        }
        if (!body.endsWith("\r\n") || body.replace("\r\n", "").contains("\n") || body.replace("\r\n", "").contains("\r"))
        {
            throw new AssertionError("lines must end with CRLF: " + body);
        }
        Map<String, String> fields = null;
        for (final String line : body.split("\r\n"))
        {
            if (line.isEmpty())
            {
                continue;
            }
            if (line.startsWith("# "))
            {
                fields = new LinkedHashMap<>();
                if (sections.put(line.substring(2), fields) != null)
                {
                    throw new AssertionError("section twice: " + line);
                }
                continue;
            }
            final int colon = line.indexOf(':');
            if (fields == null || colon <= 0 || !line.substring(0, colon).matches("[A-Za-z0-9_|]+"))
            {
                throw new AssertionError("not a field line: '" + line + "'");
            }
            if (fields.put(line.substring(0, colon), line.substring(colon + 1)) != null)
            {
                throw new AssertionError("field twice: " + line);
            }
        }
        return sections;
    }

    /**
     * Splits a value such as {@code calls=2,usec=9,usec_per_call=4.50} into its pairs.
     *
     * @param value the value.
     * @return its pairs, in order.
     */
    static Map<String, String> pairs(final String value)
    {
        final Map<String, String> pairs = new LinkedHashMap<>();
        for (final String pair : value.split(","))
        {
            final int equals = pair.indexOf('=');
            if (equals <= 0)
            {
                throw new AssertionError("not a key=value pair: " + pair + " in " + value);
            }
            pairs.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return pairs;
    }
}
