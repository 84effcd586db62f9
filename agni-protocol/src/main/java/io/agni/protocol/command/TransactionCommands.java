package io.agni.protocol.command;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

import static io.agni.protocol.command.Command.FLAG_FAST;
import static io.agni.protocol.command.Command.FLAG_NOT_QUEUED;
import static io.agni.protocol.command.Command.FLAG_NO_AUTH;

/**
 * Transaction commands: MULTI, EXEC, DISCARD and RESET, with Redis 7's replies and error texts (docs/protocol.md,
 * "Transactions"). The state is the session's {@link TransactionQueue}; {@link CommandProcessor} queues the commands
 * that come while a transaction is open, and {@link TransactionRunner} runs them at {@code EXEC}.
 *
 * <h2>Allocation</h2>
 * MULTI, EXEC and DISCARD allocate nothing once the connection's queue exists; their error replies allocate.
 */
final class TransactionCommands
{
    private static final UnsafeBuffer RESET_REPLY = new UnsafeBuffer("+RESET\r\n".getBytes(StandardCharsets.US_ASCII));

    private TransactionCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
        table
            .add("multi", 1, FLAG_FAST | FLAG_NOT_QUEUED, 0, 0, 0, TransactionCommands::multi)
            .add("exec", 1, FLAG_NOT_QUEUED, 0, 0, 0, TransactionCommands::exec)
            .add("discard", 1, FLAG_FAST | FLAG_NOT_QUEUED, 0, 0, 0, TransactionCommands::discard)
            .add("reset", 1, FLAG_FAST | FLAG_NO_AUTH | FLAG_NOT_QUEUED, 0, 0, 0, TransactionCommands::reset);
    }

    /**
     * MULTI: opens a transaction. Inside one it is refused, without dooming the transaction (Redis's
     * {@code multiCommand}).
     */
    static void multi(final CommandContext context)
    {
        final TransactionQueue transaction = context.session().transaction();
        if (transaction.isOpen())
        {
            context.out().error(TransactionRunner.NESTED);
            return;
        }
        transaction.begin();
        context.out().ok();
    }

    static void exec(final CommandContext context)
    {
        context.transactions().exec(context.session(), context.store(), context.out());
    }

    static void discard(final CommandContext context)
    {
        final TransactionQueue transaction = context.session().transaction();
        if (!transaction.isOpen())
        {
            context.out().error(TransactionRunner.DISCARD_WITHOUT_MULTI);
            return;
        }
        transaction.end();
        context.out().ok();
    }

    /**
     * RESET: the connection as it was when it connected: no transaction, no name, RESP2, and not authenticated when
     * the server has a password (Redis's {@code clearClientConnectionState}; the library name and version stay).
     */
    static void reset(final CommandContext context)
    {
        final Session session = context.session();
        session.transaction().end();
        session.name("");
        session.authenticated(false);
        context.protocol(2);
        context.out().raw(RESET_REPLY);
    }
}
