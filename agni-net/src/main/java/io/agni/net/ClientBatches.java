package io.agni.net;

import io.agni.api.AgniException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreRefusedException;
import io.agni.api.WriteBatch;
import org.agrona.DirectBuffer;

import java.util.Objects;

import static io.agni.net.ClientKeywords.DEL;
import static io.agni.net.ClientKeywords.EXEC;
import static io.agni.net.ClientKeywords.MULTI;
import static io.agni.net.ClientKeywords.PERSIST;

/**
 * How {@link AgniClient} sends a {@link WriteBatch}: as a transaction, {@code MULTI}, one command per operation,
 * {@code EXEC}, in one write on one connection, and every reply checked.
 *
 * <h2>Commands</h2>
 * A set is {@code SET} with {@code PXAT}, {@code PX} or {@code KEEPTTL} as {@link ClientCommands#set} says one (a
 * time at or before the epoch or a duration of 0 or less as {@code PXAT 1}, which removes the key as the batch
 * does); a delete is {@code DEL}; an expire {@code PEXPIREAT} ({@code AT}) or {@code PEXPIRE} ({@code AFTER}); a
 * persist {@code PERSIST}. The batch's operations are sets with no condition and expires with none, so each command
 * does what its operation does, in order, and Redis's transaction runs them with no other client's command in
 * between.
 *
 * <h2>All or nothing</h2>
 * <ul>
 *   <li>agni's server applies a transaction of only these commands as one batch on its store
 *   ({@code Transactional.write}): all of it or, refused, none, with {@code -EXECABORT Transaction discarded because
 *   of: <error>}, which becomes the error's exception.</li>
 *   <li>Redis refuses, before it runs any of them, a transaction it cannot run (out of memory, writes stopped):
 *   {@code -EXECABORT} again, or the error of a command it refused while queuing. Once it runs one, these commands
 *   cannot fail.</li>
 *   <li>A server that runs the transaction command by command and has one of them fail (agni's server on a store
 *   without the {@code Transactional} capability, which runs each on its own) leaves the others applied:
 *   {@code write} then
 *   throws {@link StoreRefusedException} with a message that begins {@link #APPLIED_IN_PART}. So does a server that
 *   refused {@code MULTI} on a connection where it had accepted it before (the commands then ran one by one).</li>
 * </ul>
 * The first {@code write} on a connection sends {@code MULTI} alone and waits for its {@code +OK}, so that the
 * commands are never sent to a server that does not have transactions (it throws
 * {@link UnsupportedOperationException}, with nothing changed); later ones pipeline {@code MULTI} with the rest.
 * <p>
 * Stateless; the connection passed in is the calling thread's.
 */
final class ClientBatches
{
    /**
     * How the message of the exception for a batch the server applied only in part begins.
     */
    static final String APPLIED_IN_PART = "the server applied the batch in part: ";

    private static final String EXECABORT_BECAUSE = "EXECABORT Transaction discarded because of: ";
    private static final String UNKNOWN_COMMAND = "ERR unknown command";

    private ClientBatches()
    {
    }

    /**
     * Checks every key and value of a batch against the client's limits, before anything is sent.
     *
     * @param checks the client's checks.
     * @param batch  the batch.
     */
    static void check(final ClientArgumentChecks checks, final WriteBatch batch)
    {
        Objects.requireNonNull(batch, "batch");
        for (int i = 0; i < batch.size(); i++)
        {
            if (batch.operation(i) == WriteBatch.Operation.SET)
            {
                checks.entry(batch.keyLength(i), batch.valueLength(i));
            }
            else
            {
                checks.key(batch.keyLength(i));
            }
        }
    }

    /**
     * Sends a non-empty batch as one transaction and checks every reply.
     *
     * @param c       the connection.
     * @param batch   the batch, its lengths already checked.
     * @param address the server's address, for messages.
     */
    static void write(final ClientConnection c, final WriteBatch batch, final String address)
    {
        final boolean pipelineMulti = c.multiConfirmed();
        if (!pipelineMulti)
        {
            c.request().command(1).keyword(MULTI);
            final String refused = c.call().errorText();
            if (refused != null)
            {
                throw refusedMulti(refused, address);
            }
            c.confirmMulti();
        }
        final ClientRequestWriter request = c.request();
        try
        {
            if (pipelineMulti)
            {
                request.command(1).keyword(MULTI);
            }
            for (int i = 0; i < batch.size(); i++)
            {
                encode(request, batch, i);
            }
            request.command(1).keyword(EXEC);
        }
        catch (final RuntimeException ex)
        {
            if (!pipelineMulti)
            {
                // The server is inside MULTI: the connection must not serve another call.
                c.markBroken();
            }
            throw ex;
        }
        c.send();

        final String multiRefused = pipelineMulti ? c.next().errorText() : null;
        AgniException queuingError = null;
        for (int i = 0; i < batch.size(); i++)
        {
            final String error = c.next().errorText();
            if (error != null && queuingError == null)
            {
                queuingError = ClientErrors.toException(error);
            }
        }
        final ClientReply exec = c.next();
        if (multiRefused != null)
        {
            throw new StoreRefusedException(APPLIED_IN_PART + "the server refused MULTI (" + multiRefused +
                "), so it ran the commands one by one");
        }
        final String execError = exec.errorText();
        if (execError != null)
        {
            if (queuingError != null)
            {
                throw queuingError;
            }
            throw ClientErrors.toException(
                execError.startsWith(EXECABORT_BECAUSE) ? execError.substring(EXECABORT_BECAUSE.length()) : execError);
        }
        checkResults(exec, batch.size());
    }

    private static void checkResults(final ClientReply exec, final int operations)
    {
        final int results = exec.arrayLength(0);
        if (results != operations)
        {
            throw exec.unexpected("an array of " + operations, ClientReplyReader.ARRAY);
        }
        for (int i = 0; i < operations; i++)
        {
            final String error = exec.errorTextAt(i + 1);
            if (error != null)
            {
                throw new StoreRefusedException(APPLIED_IN_PART + "operation " + i + " of " + operations +
                    " failed (" + error + ") and the others were applied");
            }
        }
    }

    private static void encode(final ClientRequestWriter request, final WriteBatch batch, final int i)
    {
        final DirectBuffer bytes = batch.buffer();
        final int keyOffset = batch.keyOffset(i);
        final int keyLength = batch.keyLength(i);
        switch (batch.operation(i))
        {
            case SET:
                ClientCommands.set(request, bytes, keyOffset, keyLength, bytes, batch.valueOffset(i),
                    batch.valueLength(i), SetCondition.ALWAYS, batch.expiryMode(i), batch.expiryTime(i), false);
                break;
            case DELETE:
                request.command(2).keyword(DEL).bulk(bytes, keyOffset, keyLength);
                break;
            case EXPIRE:
                if (batch.expiryMode(i) == ExpiryMode.AT)
                {
                    ClientCommands.pexpireAt(request, bytes, keyOffset, keyLength, batch.expiryTime(i),
                        ExpireCondition.ALWAYS);
                }
                else
                {
                    ClientCommands.pexpire(request, bytes, keyOffset, keyLength, batch.expiryTime(i),
                        ExpireCondition.ALWAYS);
                }
                break;
            default:
                request.command(2).keyword(PERSIST).bulk(bytes, keyOffset, keyLength);
                break;
        }
    }

    private static RuntimeException refusedMulti(final String error, final String address)
    {
        if (error.startsWith(UNKNOWN_COMMAND))
        {
            return new UnsupportedOperationException("the server at " + address + " has no transactions, so a " +
                "batch cannot be written atomically: " + error);
        }
        return ClientErrors.toException(error);
    }
}
