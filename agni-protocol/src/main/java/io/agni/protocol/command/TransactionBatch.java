package io.agni.protocol.command;

import io.agni.api.ExpiryMode;
import io.agni.api.Transactional;
import io.agni.api.WriteBatch;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * A transaction of plain writes, as one {@link WriteBatch}: what lets {@code EXEC} give such a transaction all or
 * nothing where Redis would run it command by command (docs/protocol.md, "Transactions"). {@code AgniClient}'s
 * {@code write(WriteBatch)} sends exactly such transactions.
 *
 * <h2>What goes in</h2>
 * A command goes in when the batch can say all it does and its reply can be told from what each operation found
 * ({@link Transactional#write(WriteBatch, byte[])}):
 * <ul>
 *   <li>{@code SET key value} with at most one of {@code EX}, {@code PX}, {@code EXAT}, {@code PXAT},
 *   {@code KEEPTTL} (no {@code NX}, {@code XX} or {@code GET}), {@code SETEX}, {@code PSETEX}, {@code MSET}:
 *   sets, replied {@code +OK};</li>
 *   <li>{@code DEL}, {@code UNLINK}: a delete per key, replied with the count of keys found;</li>
 *   <li>{@code EXPIRE}, {@code PEXPIRE}, {@code EXPIREAT}, {@code PEXPIREAT} without a condition: an expire,
 *   replied {@code 1} when the key was found;</li>
 *   <li>{@code PERSIST}: a persist, replied {@code 1} when the key was found with an expiry time.</li>
 * </ul>
 * Arguments are read as the commands' handlers read them (the same parsers); a command whose arguments they would
 * refuse (a syntax error, an invalid expire time) keeps the transaction out of the batch, so that it runs command by
 * command and that command replies its error, as in Redis.
 *
 * <h2>Memory</h2>
 * One per processor, reused: the batch and the arrays keep their memory between transactions, up to
 * {@link #RETAINED_BYTES} of keys and values and {@link #RETAINED_OPERATIONS} operations. The batch copies the keys and values out of the transaction's queue.
 */
final class TransactionBatch
{
    /**
     * A batch that held more than this many bytes is replaced after its transaction.
     */
    static final int RETAINED_BYTES = 64 * 1024;

    /**
     * A batch of more operations than this is replaced after its transaction, with the arrays.
     */
    static final int RETAINED_OPERATIONS = 1024;

    private static final int INITIAL_COMMANDS = 16;
    private static final int REPLY_OK = 0;
    private static final int REPLY_FOUND_COUNT = 1;
    private static final int REPLY_FOUND = 2;
    private static final int REPLY_FOUND_EXPIRING = 3;

    private WriteBatch batch = new WriteBatch();
    private byte[] found = new byte[INITIAL_COMMANDS];
    private int[] replies = new int[INITIAL_COMMANDS];
    private int[] firstOperations = new int[INITIAL_COMMANDS];
    private int commands;

    /**
     * Adds the command the context holds, if it is one the batch can hold.
     *
     * @param context prepared with the queued command.
     * @return whether it went in; if not, the batch must be {@link #clear() cleared}.
     */
    boolean add(final CommandContext context)
    {
        final int first = batch.size();
        final int reply;
        try
        {
            reply = addOperations(context);
        }
        catch (final IllegalArgumentException ex)
        {
            // the batch's own limit (WriteBatch.MAX_BYTES): the transaction runs command by command
            return false;
        }
        if (reply < 0)
        {
            return false;
        }
        if (commands == replies.length)
        {
            replies = Arrays.copyOf(replies, 2 * commands);
            firstOperations = Arrays.copyOf(firstOperations, 2 * commands);
        }
        replies[commands] = reply;
        firstOperations[commands] = first;
        commands++;
        return true;
    }

    /**
     * Applies the batch, then writes {@code EXEC}'s array of replies.
     *
     * @param store the store.
     * @param out   where the replies go.
     * @throws io.agni.api.AgniException as {@link Transactional#write(WriteBatch, byte[])}, with nothing changed
     *                                   and nothing written.
     */
    void write(final Transactional store, final RespWriter out)
    {
        final int operations = batch.size();
        if (found.length < operations)
        {
            found = new byte[Math.max(operations, 2 * found.length)];
        }
        store.write(batch, found);
        out.arrayHeader(commands);
        for (int c = 0; c < commands; c++)
        {
            final int first = firstOperations[c];
            final int end = c + 1 < commands ? firstOperations[c + 1] : operations;
            switch (replies[c])
            {
                case REPLY_OK:
                    out.ok();
                    break;
                case REPLY_FOUND_COUNT:
                    long count = 0;
                    for (int i = first; i < end; i++)
                    {
                        count += found[i] & Transactional.KEY_PRESENT;
                    }
                    out.integer(count);
                    break;
                case REPLY_FOUND:
                    out.integer(found[first] & Transactional.KEY_PRESENT);
                    break;
                default:
                    out.integer((found[first] & Transactional.KEY_EXPIRING) != 0 ? 1 : 0);
                    break;
            }
        }
    }

    /**
     * Forgets the batch, giving back the memory of a large one.
     */
    void clear()
    {
        commands = 0;
        if (batch.byteLength() > RETAINED_BYTES || batch.size() > RETAINED_OPERATIONS)
        {
            batch = new WriteBatch();
            found = new byte[INITIAL_COMMANDS];
            replies = new int[INITIAL_COMMANDS];
            firstOperations = new int[INITIAL_COMMANDS];
        }
        else
        {
            batch.clear();
        }
    }

    /**
     * Adds the operations of one command.
     *
     * @return how its reply is made, or -1 when the batch cannot hold it.
     */
    private int addOperations(final CommandContext context)
    {
        final RespArgs args = context.args();
        final DirectBuffer buffer = args.buffer();
        switch (context.command().name())
        {
            case "set":
                return set(context, args, buffer);
            case "setex":
                return setWithExpiry(context, args, buffer, StringCommands.EX);
            case "psetex":
                return setWithExpiry(context, args, buffer, StringCommands.PX);
            case "mset":
                if ((args.count() - 1) % 2 != 0)
                {
                    return -1;
                }
                for (int i = 1; i < args.count(); i += 2)
                {
                    batch.set(buffer, args.offset(i), args.length(i), buffer, args.offset(i + 1), args.length(i + 1));
                }
                return REPLY_OK;
            case "del":
            case "unlink":
                for (int i = 1; i < args.count(); i++)
                {
                    batch.delete(buffer, args.offset(i), args.length(i));
                }
                return REPLY_FOUND_COUNT;
            case "expire":
                return expire(context, args, buffer, true, KeyspaceCommands.MILLIS_PER_SECOND);
            case "pexpire":
                return expire(context, args, buffer, true, 1);
            case "expireat":
                return expire(context, args, buffer, false, KeyspaceCommands.MILLIS_PER_SECOND);
            case "pexpireat":
                return expire(context, args, buffer, false, 1);
            case "persist":
                batch.persist(buffer, args.offset(1), args.length(1));
                return REPLY_FOUND_EXPIRING;
            default:
                return -1;
        }
    }

    private int set(final CommandContext context, final RespArgs args, final DirectBuffer buffer)
    {
        ExpiryMode mode = ExpiryMode.CLEAR;
        long time = 0;
        if (args.count() > 3)
        {
            final long options = StringCommands.parseOptions(args, 3, true);
            if (options == StringCommands.SYNTAX_ERROR)
            {
                return -1;
            }
            final int flags = StringCommands.flags(options);
            if ((flags & (StringCommands.NX | StringCommands.XX | StringCommands.GET)) != 0)
            {
                return -1;
            }
            final int unit = flags & StringCommands.ANY_EXPIRY;
            if (unit != 0)
            {
                time = StringCommands.expiryTime(context, StringCommands.expireIndex(options), unit);
                if (time < 0)
                {
                    return -1;
                }
                mode = StringCommands.expiryMode(unit);
            }
            else if ((flags & StringCommands.KEEPTTL) != 0)
            {
                mode = ExpiryMode.KEEP;
            }
        }
        batch.set(buffer, args.offset(1), args.length(1), buffer, args.offset(2), args.length(2), mode, time);
        return REPLY_OK;
    }

    private int setWithExpiry(
        final CommandContext context, final RespArgs args, final DirectBuffer buffer, final int unit)
    {
        final long duration = StringCommands.expiryTime(context, 2, unit);
        if (duration < 0)
        {
            return -1;
        }
        batch.set(buffer, args.offset(1), args.length(1), buffer, args.offset(3), args.length(3), ExpiryMode.AFTER,
            duration);
        return REPLY_OK;
    }

    private int expire(
        final CommandContext context, final RespArgs args, final DirectBuffer buffer, final boolean relative,
        final long unitMillis)
    {
        if (args.count() != 3 ||
            KeyspaceCommands.expireMillis(context, relative, unitMillis) != KeyspaceCommands.EXPIRE_TIME_PARSED)
        {
            return -1;
        }
        if (relative)
        {
            batch.expireAfter(buffer, args.offset(1), args.length(1), context.parsedLong());
        }
        else
        {
            batch.expire(buffer, args.offset(1), args.length(1), context.parsedLong());
        }
        return REPLY_FOUND;
    }
}
