package io.agni.bench.eviction;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Reads a gzip-compressed access trace into an array of keys, in one of the two formats the hit-ratio harness
 * accepts (issue 20): {@link Format#INT32} and {@link Format#TEXT}.
 */
public final class TraceReader {
    /** The formats of a trace, both gzip-compressed. */
    public enum Format {
        /** A sequence of big-endian 32-bit integer keys (the cache2k traces); a key is read as signed. */
        INT32,
        /** Text, one request per line, the key the first field (separated by whitespace or a comma), a decimal integer. */
        TEXT
    }

    private TraceReader() {
    }

    /**
     * Reads a whole trace file.
     *
     * @param file a gzip-compressed trace
     * @param format its format
     * @return the keys, in request order
     * @throws IOException if the file cannot be read, is not gzip, or (INT32) ends inside a key, or (TEXT) a line's
     *     first field is not an integer
     */
    public static long[] read(Path file, Format format) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, format);
        }
    }

    /**
     * Reads a whole gzip-compressed trace from a stream (not closed).
     *
     * @param gzipped the compressed bytes
     * @param format its format
     * @return the keys, in request order
     * @throws IOException as {@link #read(Path, Format)}
     */
    public static long[] read(InputStream gzipped, Format format) throws IOException {
        GZIPInputStream gz = new GZIPInputStream(gzipped, 1 << 16);
        return format == Format.INT32 ? readInt32(gz) : readText(gz);
    }

    private static long[] readInt32(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(new BufferedInputStream(in, 1 << 16));
        long[] keys = new long[1 << 16];
        int n = 0;
        while (true) {
            int first = data.read();
            if (first < 0) {
                break;
            }
            int rest;
            try {
                rest = (data.readUnsignedByte() << 16) | (data.readUnsignedByte() << 8) | data.readUnsignedByte();
            } catch (EOFException e) {
                throw new IOException("trace ends inside a key: request=" + n, e);
            }
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, n * 2);
            }
            keys[n++] = (int) ((first << 24) | rest);
        }
        return Arrays.copyOf(keys, n);
    }

    private static long[] readText(InputStream in) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII), 1 << 16);
        long[] keys = new long[1 << 16];
        int n = 0;
        int lineNumber = 0;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lineNumber++;
            String field = firstField(line);
            if (field.isEmpty()) {
                continue;
            }
            long key;
            try {
                key = Long.parseLong(field);
            } catch (NumberFormatException e) {
                throw new IOException("not an integer key: line=" + lineNumber + ", field=" + field, e);
            }
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, n * 2);
            }
            keys[n++] = key;
        }
        return Arrays.copyOf(keys, n);
    }

    private static String firstField(String line) {
        int start = 0;
        while (start < line.length() && Character.isWhitespace(line.charAt(start))) {
            start++;
        }
        int end = start;
        while (end < line.length() && !Character.isWhitespace(line.charAt(end)) && line.charAt(end) != ',') {
            end++;
        }
        return line.substring(start, end);
    }
}
