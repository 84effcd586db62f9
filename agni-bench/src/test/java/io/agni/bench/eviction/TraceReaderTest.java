package io.agni.bench.eviction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReaderTest {
    private static byte[] gzip(byte[] raw) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(raw);
        }
        return bytes.toByteArray();
    }

    private static byte[] int32(int... keys) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (int key : keys) {
            out.writeInt(key);
        }
        return bytes.toByteArray();
    }

    @Test
    void readsBigEndianInt32KeysAsSigned() throws IOException {
        byte[] raw = int32(0, 1, 0x01020304, -1, 0xF0000001, Integer.MAX_VALUE);
        long[] keys = TraceReader.read(new ByteArrayInputStream(gzip(raw)), TraceReader.Format.INT32);
        assertArrayEquals(new long[] {0, 1, 0x01020304, -1, (int) 0xF0000001, Integer.MAX_VALUE}, keys);
    }

    @Test
    void readsALongInt32TraceFromAFile(@TempDir Path dir) throws IOException {
        int[] expected = new int[200_000];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = i * 7919;
        }
        Path file = dir.resolve("t.trace.gz");
        Files.write(file, gzip(int32(expected)));
        long[] keys = TraceReader.read(file, TraceReader.Format.INT32);
        assertEquals(expected.length, keys.length);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], keys[i]);
        }
    }

    @Test
    void int32TraceEndingInsideAKeyIsRefused() throws IOException {
        byte[] raw = {0, 0, 0, 5, 0, 0};
        IOException e = assertThrows(IOException.class,
                () -> TraceReader.read(new ByteArrayInputStream(gzip(raw)), TraceReader.Format.INT32));
        assertEquals("trace ends inside a key: request=1", e.getMessage());
    }

    @Test
    void readsTheFirstFieldOfEachTextLine() throws IOException {
        String text = "17\n  42 GET 100\n-3,foo,bar\n\n9000000000\t1\r\n5";
        long[] keys = TraceReader.read(new ByteArrayInputStream(gzip(text.getBytes(StandardCharsets.US_ASCII))),
                TraceReader.Format.TEXT);
        assertArrayEquals(new long[] {17, 42, -3, 9_000_000_000L, 5}, keys);
    }

    @Test
    void textLineWhoseFirstFieldIsNotAnIntegerIsRefused() throws IOException {
        byte[] gz = gzip("1\n2\nkey3 x\n".getBytes(StandardCharsets.US_ASCII));
        IOException e = assertThrows(IOException.class,
                () -> TraceReader.read(new ByteArrayInputStream(gz), TraceReader.Format.TEXT));
        assertEquals("not an integer key: line=3, field=key3", e.getMessage());
    }

    @Test
    void nonGzipInputIsRefused() {
        byte[] raw = {0, 0, 0, 1};
        assertThrows(IOException.class,
                () -> TraceReader.read(new ByteArrayInputStream(raw), TraceReader.Format.INT32));
    }

    @Test
    void shippedTracesArePresentWithTheirLicence() {
        Path dir = Path.of("traces/cache2k");
        for (String name : HitRatio.TRACES) {
            assertTrue(Files.isRegularFile(dir.resolve(name + ".trace.gz")), name);
        }
        assertTrue(Files.isRegularFile(dir.resolve("LICENSE.txt")));
    }
}
