package io.agni.protocol.command;

import io.agni.api.AgniException;
import io.agni.api.AgniStore;
import io.agni.api.Transactional;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Runs {@code EXEC} for one {@link CommandProcessor} (docs/protocol.md, "Transactions"), in one of three ways:
 * <ol>
 *   <li>A transaction of plain writes ({@link TransactionBatch}) on a store with the {@link Transactional}
 *   capability is one {@link Transactional#write(io.agni.api.WriteBatch, byte[]) batch write}: all or nothing, at
 *   one instant, one log record. A refusal of the store refuses all of it:
 *   {@code -EXECABORT Transaction discarded because of: <error>}, the reply Redis gives an {@code EXEC} it refuses
 *   to run (out of memory, writes stopped).</li>
 *   <li>Any other transaction on a store with that capability runs command by command inside
 *   {@link Transactional#runExclusive}: no other client's command runs in between, the changes are one log record,
 *   and each command replies as it would alone, an error included, the others running on, as in Redis.</li>
 *   <li>On any other store, command by command, each as atomic as on its own; the commands of other clients of the
 *   same event loop cannot come in between, those of other loops can.</li>
 * </ol>
 *
 * <h2>Threads</h2>
 * Not thread-safe: one per processor, on its thread. Implements {@link Runnable} for {@code runExclusive}, with the
 * transaction it runs in fields, so that an {@code EXEC} allocates nothing of its own.
 */
final class TransactionRunner implements Runnable
{
    static final String EXEC_WITHOUT_MULTI = "ERR EXEC without MULTI";
    static final String DISCARD_WITHOUT_MULTI = "ERR DISCARD without MULTI";
    static final String NESTED = "ERR MULTI calls can not be nested";
    static final String NOT_IN_TRANSACTION = "ERR Command not allowed inside a transaction";
    static final String EXECABORT = "EXECABORT Transaction discarded because of previous errors.";
    static final String EXECABORT_BECAUSE = "EXECABORT Transaction discarded because of: ";
    static final UnsafeBuffer QUEUED_REPLY = new UnsafeBuffer("+QUEUED\r\n".getBytes(StandardCharsets.US_ASCII));

    private final CommandProcessor processor;
    private final CommandContext context;
    private final CommandTable table;
    private final RespArgs queued = new RespArgs();
    private final TransactionBatch batch = new TransactionBatch();
    private Session session;
    private TransactionQueue queue;
    private RespWriter out;

    TransactionRunner(final CommandProcessor processor, final CommandContext context, final CommandTable table)
    {
        this.processor = processor;
        this.context = context;
        this.table = table;
    }

    /**
     * {@code EXEC}: runs the open transaction and ends it, or replies why not.
     *
     * @param session the client's session.
     * @param store   the store.
     * @param out     where the replies go.
     */
    void exec(final Session session, final AgniStore store, final RespWriter out)
    {
        final TransactionQueue transaction = session.transaction();
        if (!transaction.isOpen())
        {
            out.error(EXEC_WITHOUT_MULTI);
            return;
        }
        try
        {
            if (transaction.isDirty())
            {
                out.error(EXECABORT);
                return;
            }
            this.session = session;
            this.queue = transaction;
            this.out = out;
            final Transactional transactional = transaction.count() > 0 ? store.transactional().orElse(null) : null;
            if (transactional != null)
            {
                if (fillBatch())
                {
                    writeBatch(transactional);
                    return;
                }
                out.arrayHeader(transaction.count());
                transactional.runExclusive(this);
                return;
            }
            out.arrayHeader(transaction.count());
            run();
        }
        finally
        {
            batch.clear();
            transaction.end();
            this.session = null;
            this.queue = null;
            this.out = null;
        }
    }

    /**
     * Runs the queued commands one after another, each reply an element of {@code EXEC}'s array. Only from
     * {@link #exec}, directly or through {@code runExclusive}.
     */
    @Override
    public void run()
    {
        int position = 0;
        for (int i = 0, count = queue.count(); i < count; i++)
        {
            position = queue.read(position, queued);
            processor.executeQueued(command(), session, queued, out);
        }
    }

    /**
     * Puts every queued command into the batch, if each is one it can hold.
     *
     * @return whether all went in.
     */
    private boolean fillBatch()
    {
        int position = 0;
        for (int i = 0, count = queue.count(); i < count; i++)
        {
            position = queue.read(position, queued);
            context.prepare(command(), session, queued, out);
            if (!batch.add(context))
            {
                batch.clear();
                return false;
            }
        }
        return true;
    }

    private void writeBatch(final Transactional store)
    {
        final int mark = out.position();
        try
        {
            final long start = System.nanoTime();
            batch.write(store, out);
            countBatch(System.nanoTime() - start);
        }
        catch (final AgniException ex)
        {
            out.position(mark);
            out.error(EXECABORT_BECAUSE + CommandProcessor.errorReply(ex));
        }
    }

    /**
     * Counts every command of the batch just written as a call that took an equal share of its time.
     */
    private void countBatch(final long nanos)
    {
        final int count = queue.count();
        int position = 0;
        for (int i = 0; i < count; i++)
        {
            position = queue.read(position, queued);
            processor.countBatched(command(), nanos / count);
        }
    }

    private Command command()
    {
        final Command command = table.lookup(queued);
        if (command == null)
        {
            throw new IllegalStateException("a queued command is not in the table: " + queued);
        }
        return command;
    }
}
