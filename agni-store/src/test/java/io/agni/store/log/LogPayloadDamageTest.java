package io.agni.store.log;

import io.agni.store.LogCorruptedException;
import io.agni.store.file.Crc;
import io.agni.store.file.FileLayer;
import io.agni.store.file.MappedFile;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToLongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A record whose checksum matches but whose payload's lengths disagree with its length (a writer's bug, or a crafted
 * file) stops the replay with the file and the offset, before anything decodes it: never an index out of bounds, an
 * allocation of the length it claims, or a wrong record handed on.
 */
class LogPayloadDamageTest
{
    private static final int OFFSET_AFTER_FIRST = LogLayout.SEGMENT_HEADER_LENGTH +
        (int)LogLayout.recordLength(LogLayout.SET_FIXED_LENGTH + "first".length() + "1".length());

    @TempDir
    Path directory;

    @Test
    void aSetWhoseKeyLengthRunsPastItsPayloadIsCorruption() throws IOException
    {
        craft(log -> Logs.set(log, "key", "value"), (buffer, payload) -> buffer.putInt(payload, 1000, LogLayout.ORDER));

        assertCorrupt("a SET of key length 1000 and value length 5 does not fit in 24 bytes");
    }

    @Test
    void aSetWithANegativeValueLengthIsCorruption() throws IOException
    {
        craft(log -> Logs.set(log, "key", "value"),
            (buffer, payload) -> buffer.putInt(payload + Integer.BYTES, -1, LogLayout.ORDER));

        assertCorrupt("a SET of key length 3 and value length -1 does not fit in 24 bytes");
    }

    @Test
    void aSetWhoseLengthsLeaveBytesOverIsCorruption() throws IOException
    {
        // Key "ke", value "yvalu": a wrong record, were it handed on.
        craft(log -> Logs.set(log, "key", "value"), (buffer, payload) ->
        {
            buffer.putInt(payload, 2, LogLayout.ORDER);
            buffer.putInt(payload + 4, 4, LogLayout.ORDER);
        });

        assertCorrupt("a SET payload of 24 bytes holds 2 byte(s) more than its lengths say");
    }

    @Test
    void aDeleteWithANegativeKeyLengthIsCorruption() throws IOException
    {
        craft(log -> Logs.delete(log, "key"), (buffer, payload) -> buffer.putInt(payload, -5, LogLayout.ORDER));

        assertCorrupt("a DELETE of key length -5 does not fit in 7 bytes");
    }

    @Test
    void anExpireWhoseKeyLengthRunsPastItsPayloadIsCorruption() throws IOException
    {
        craft(log -> log.appendExpire(Logs.buffer("key"), 0, 3, 99),
            (buffer, payload) -> buffer.putInt(payload, Integer.MAX_VALUE, LogLayout.ORDER));

        assertCorrupt("an EXPIRE of key length 2147483647 does not fit in 15 bytes");
    }

    @Test
    void aSetTooShortForItsFixedFieldsIsCorruption() throws IOException
    {
        craft(log -> appendBatch(log, new byte[10]), retype(LogLayout.SET));

        assertCorrupt("a SET's fixed fields (16 bytes) do not fit in 10 bytes");
    }

    @Test
    void aBatchWhoseCountExceedsItsOperationsIsCorruption() throws IOException
    {
        craft(log -> appendBatch(log, 3), (buffer, payload) -> { });

        assertCorrupt("a BATCH payload of 29 bytes ends after 2 of its 3 operations");
    }

    @Test
    void aBatchWithAHugeCountIsCorruptionAndNothingTheSizeOfItIsAllocated() throws IOException
    {
        craft(log -> appendBatch(log, Integer.MAX_VALUE), (buffer, payload) -> { });

        assertCorrupt("a BATCH payload of 29 bytes ends after 2 of its 2147483647 operations");
    }

    @Test
    void aBatchWithANegativeCountIsCorruption() throws IOException
    {
        craft(log -> appendBatch(log, -1), (buffer, payload) -> { });

        assertCorrupt("a BATCH payload's operation count is -1");
    }

    @Test
    void aBatchWhoseCountFallsShortOfItsOperationsIsCorruption() throws IOException
    {
        craft(log -> appendBatch(log, 1), (buffer, payload) -> { });

        assertCorrupt("a BATCH payload of 29 bytes holds 6 byte(s) after its 1 operation(s)");
    }

    @Test
    void aBatchOperationWhoseKeyLengthRunsPastTheBatchIsCorruption() throws IOException
    {
        // The first operation, a SET, at payload offset 4: its key length.
        craft(log -> appendBatch(log, 2), (buffer, payload) -> buffer.putInt(payload + 5, 20, LogLayout.ORDER));

        assertCorrupt("operation 1 of a BATCH payload (at payload offset 4): a SET of key length 20 and value " +
            "length 1 does not fit in 24 bytes");
    }

    @Test
    void aBatchOperationOfAnUnknownTypeIsCorruption() throws IOException
    {
        craft(log -> appendBatch(log, 2), (buffer, payload) -> buffer.putByte(payload + 4, LogLayout.SYNCED));

        assertCorrupt("operation 1 of a BATCH payload (at payload offset 4): unknown operation type 6");
    }

    @Test
    void aClearWithAPayloadIsCorruption() throws IOException
    {
        craft(log -> appendBatch(log, new byte[3]), retype(LogLayout.CLEAR));

        assertCorrupt("a CLEAR payload of 3 bytes holds 3 byte(s) more than its lengths say");
    }

    @Test
    void wellFormedRecordsOfEveryTypeReplay() throws IOException
    {
        craft(log -> appendBatch(log, 2), (buffer, payload) -> { });
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            log.appendExpire(Logs.buffer("key"), 0, 3, 5);
            log.appendClear();
            Logs.delete(log, "key");
        }

        final List<Logs.Entry> replayed = Logs.replay(directory, FileLayer.system(), 1);
        assertEquals(List.of(LogLayout.SET, LogLayout.BATCH, LogLayout.SET, LogLayout.EXPIRE, LogLayout.CLEAR,
            LogLayout.DELETE), replayed.stream().map(Logs.Entry::type).toList());
    }

    /**
     * Writes a record, the one {@code append} makes, and one more; then changes the second's payload with
     * {@code change} and gives it a matching checksum again.
     */
    private void craft(final ToLongFunction<LogWriter> append, final PayloadChange change) throws IOException
    {
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            Logs.set(log, "first", "1");
            append.applyAsLong(log);
            Logs.set(log, "last", "2");
        }
        final MappedFile file = FileLayer.system().open(segment());
        try
        {
            final int length = LogLayout.payloadLength(file.buffer(), OFFSET_AFTER_FIRST);
            change.apply(file.buffer(), OFFSET_AFTER_FIRST + LogLayout.RECORD_HEADER_LENGTH);
            LogLayout.sealRecord(file.buffer(), new Crc(file.memory()), OFFSET_AFTER_FIRST, length);
            file.sync();
        }
        finally
        {
            file.close();
        }
    }

    private void assertCorrupt(final String problem)
    {
        final LogCorruptedException ex = assertThrows(LogCorruptedException.class,
            () -> Logs.replay(directory, FileLayer.system(), 1));
        assertEquals(segment(), ex.file());
        assertEquals(OFFSET_AFTER_FIRST, ex.offset());
        assertTrue(ex.getMessage().contains("the record of sequence 2 has a matching checksum, but " + problem),
            ex.getMessage());
    }

    private Path segment()
    {
        return directory.resolve(LogLayout.segmentFileName(1));
    }

    /**
     * A batch of a SET ("k" to "v") and a DELETE ("k") that says it holds {@code count} operations.
     */
    private static long appendBatch(final LogWriter log, final int count)
    {
        final ExpandableArrayBuffer batch = new ExpandableArrayBuffer();
        int p = 0;
        batch.putInt(p, count, LogLayout.ORDER);
        p += LogLayout.BATCH_FIXED_LENGTH;
        batch.putByte(p++, LogLayout.SET);
        batch.putInt(p, 1, LogLayout.ORDER);
        batch.putInt(p + 4, 1, LogLayout.ORDER);
        batch.putLong(p + 8, LogLayout.NO_EXPIRY, LogLayout.ORDER);
        p += LogLayout.SET_FIXED_LENGTH;
        batch.putByte(p++, (byte)'k');
        batch.putByte(p++, (byte)'v');
        batch.putByte(p++, LogLayout.DELETE);
        batch.putInt(p, 1, LogLayout.ORDER);
        p += LogLayout.DELETE_FIXED_LENGTH;
        batch.putByte(p++, (byte)'k');
        return log.appendBatch(batch, 0, p);
    }

    /**
     * A record whose payload is {@code payload} as it is: a batch's, until {@link #retype} changes its type.
     */
    private static long appendBatch(final LogWriter log, final byte[] payload)
    {
        return log.appendBatch(new UnsafeBuffer(payload), 0, payload.length);
    }

    private static PayloadChange retype(final byte type)
    {
        return (buffer, payload) -> buffer.putByte(payload - LogLayout.RECORD_HEADER_LENGTH + LogLayout.TYPE_OFFSET,
            type);
    }

    @FunctionalInterface
    private interface PayloadChange
    {
        void apply(MutableDirectBuffer buffer, int payloadOffset);
    }
}
