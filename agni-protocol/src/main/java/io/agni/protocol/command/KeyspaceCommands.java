package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.ExpireCondition;
import io.agni.api.RenameResult;
import io.agni.api.ScanResult;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.agni.protocol.command.Command.FLAG_FAST;
import static io.agni.protocol.command.Command.FLAG_READONLY;
import static io.agni.protocol.command.Command.FLAG_WRITE;

/**
 * Keyspace commands: DEL, UNLINK, EXISTS, TYPE, the EXPIRE and TTL families, PERSIST, SCAN, KEYS, RANDOMKEY, RENAME
 * and RENAMENX, with Redis 7's semantics and reply texts.
 *
 * <h2>Atomicity</h2>
 * Each command that reads and writes a key is one store primitive: EXPIRE and PEXPIRE with their options are
 * {@link AgniStore#expireAfter} (a duration the store adds to its own clock), EXPIREAT and PEXPIREAT are
 * {@link AgniStore#expire}, RENAME and RENAMENX are {@link AgniStore#rename}. DEL, UNLINK and EXISTS over several
 * keys are a loop of single-key operations, so unlike Redis they are not atomic across their keys. UNLINK is DEL:
 * the store frees an entry's memory in place, there is nothing to hand to a background thread.
 *
 * <h2>Allocation</h2>
 * DEL, UNLINK, EXISTS, TYPE, the EXPIRE and TTL families, PERSIST, RENAME and RENAMENX use the store's zero-copy
 * forms on the argument views, compare options with upper-case byte constants and write pre-encoded replies, so they
 * allocate nothing of their own in steady state (the store's default zero-copy rename copies the keys into arrays;
 * agni's off-heap store reads them in place); only their error replies allocate. SCAN, KEYS and RANDOMKEY copy keys
 * out of the store, as their store methods return {@code byte[]}. KEYS counts the length of its reply as it collects
 * the keys and stops (the connection's reply limit refuses it) as soon as the reply could not be sent, rather than
 * collecting a whole large keyspace first.
 *
 * <h2>SCAN cursors</h2>
 * Redis reads a cursor as an unsigned 64-bit decimal and replies {@code ERR invalid cursor} to anything else; here
 * the same 64 bits are the store's {@code long} cursor, written back unsigned. Redis continues from any number; the
 * store refuses a cursor it could not have returned, which is replied as {@code ERR invalid cursor} too.
 *
 * <h2>Patterns</h2>
 * SCAN and KEYS hand the glob pattern to the store, whose matcher follows Redis's {@code stringmatchlen}: a match
 * nesting more than 1000 {@code *} groups deep fails, so a hostile pattern matches nothing and cannot exhaust the
 * event loop's stack.
 */
final class KeyspaceCommands
{
    static final String NO_SUCH_KEY = "ERR no such key";
    static final String INVALID_CURSOR = "ERR invalid cursor";
    static final String NX_NOT_COMPATIBLE = "ERR NX and XX, GT or LT options at the same time are not compatible";
    static final String GT_LT_NOT_COMPATIBLE = "ERR GT and LT options at the same time are not compatible";

    /**
     * {@link #expireMillis} read the time.
     */
    static final int EXPIRE_TIME_PARSED = 0;

    /**
     * {@link #expireMillis}: the time is not an integer.
     */
    static final int EXPIRE_TIME_NOT_AN_INTEGER = 1;

    /**
     * {@link #expireMillis}: the time overflows in milliseconds or once added to now.
     */
    static final int EXPIRE_TIME_INVALID = 2;

    /**
     * Milliseconds in a second: the unit of EXPIRE and EXPIREAT.
     */
    static final long MILLIS_PER_SECOND = 1000;

    /**
     * The count of one store scan step for KEYS: about this many keys looked at, at most ten times as many buckets.
     */
    static final int KEYS_SCAN_STEP = 1024;

    /**
     * The longest array header: {@code *}, ten digits, CRLF.
     */
    private static final int ARRAY_HEADER_MAX = 1 + 10 + 2;

    private static final long DEFAULT_SCAN_COUNT = 10;
    private static final long UNSIGNED_MAX_DIV_10 = Long.divideUnsigned(-1L, 10);

    private static final byte[] NX = ascii("NX");
    private static final byte[] XX = ascii("XX");
    private static final byte[] GT = ascii("GT");
    private static final byte[] LT = ascii("LT");
    private static final byte[] MATCH = ascii("MATCH");
    private static final byte[] COUNT = ascii("COUNT");
    private static final byte[] TYPE = ascii("TYPE");
    private static final byte[] STRING_TYPE = ascii("STRING");

    private static final int OPTION_NX = 1;
    private static final int OPTION_XX = 1 << 1;
    private static final int OPTION_GT = 1 << 2;
    private static final int OPTION_LT = 1 << 3;
    private static final int OPTION_UNKNOWN = -1;

    private static final UnsafeBuffer TYPE_STRING_REPLY = new UnsafeBuffer(ascii("+string\r\n"));
    private static final UnsafeBuffer TYPE_NONE_REPLY = new UnsafeBuffer(ascii("+none\r\n"));

    private KeyspaceCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
        table
            .add("del", -2, FLAG_WRITE, 1, -1, 1, KeyspaceCommands::del)
            .add("unlink", -2, FLAG_WRITE | FLAG_FAST, 1, -1, 1, KeyspaceCommands::del)
            .add("exists", -2, FLAG_READONLY | FLAG_FAST, 1, -1, 1, KeyspaceCommands::exists)
            .add("type", 2, FLAG_READONLY | FLAG_FAST, 1, 1, 1, KeyspaceCommands::type)
            .add("expire", -3, FLAG_WRITE | FLAG_FAST, 1, 1, 1, KeyspaceCommands::expire)
            .add("pexpire", -3, FLAG_WRITE | FLAG_FAST, 1, 1, 1, KeyspaceCommands::pexpire)
            .add("expireat", -3, FLAG_WRITE | FLAG_FAST, 1, 1, 1, KeyspaceCommands::expireAt)
            .add("pexpireat", -3, FLAG_WRITE | FLAG_FAST, 1, 1, 1, KeyspaceCommands::pexpireAt)
            .add("ttl", 2, FLAG_READONLY | FLAG_FAST, 1, 1, 1, KeyspaceCommands::ttl)
            .add("pttl", 2, FLAG_READONLY | FLAG_FAST, 1, 1, 1, KeyspaceCommands::pttl)
            .add("expiretime", 2, FLAG_READONLY | FLAG_FAST, 1, 1, 1, KeyspaceCommands::expireTime)
            .add("pexpiretime", 2, FLAG_READONLY | FLAG_FAST, 1, 1, 1, KeyspaceCommands::pexpireTime)
            .add("persist", 2, FLAG_WRITE | FLAG_FAST, 1, 1, 1, KeyspaceCommands::persist)
            .add("scan", -2, FLAG_READONLY, 0, 0, 0, KeyspaceCommands::scan)
            .add("keys", 2, FLAG_READONLY, 0, 0, 0, KeyspaceCommands::keys)
            .add("randomkey", 1, FLAG_READONLY, 0, 0, 0, KeyspaceCommands::randomKey)
            .add("rename", 3, FLAG_WRITE, 1, 2, 1, KeyspaceCommands::rename)
            .add("renamenx", 3, FLAG_WRITE | FLAG_FAST, 1, 2, 1, KeyspaceCommands::renameIfAbsent);
    }

    // ------------------------------------------------------------------------------------------------------------
    // DEL, UNLINK, EXISTS, TYPE
    // ------------------------------------------------------------------------------------------------------------

    static void del(final CommandContext context)
    {
        final RespArgs args = context.args();
        final AgniStore store = context.store();
        final DirectBuffer buffer = args.buffer();
        long deleted = 0;
        for (int i = 1, count = args.count(); i < count; i++)
        {
            if (store.delete(buffer, args.offset(i), args.length(i)))
            {
                deleted++;
            }
        }
        context.out().integer(deleted);
    }

    static void exists(final CommandContext context)
    {
        final RespArgs args = context.args();
        final AgniStore store = context.store();
        final DirectBuffer buffer = args.buffer();
        long present = 0;
        for (int i = 1, count = args.count(); i < count; i++)
        {
            if (store.exists(buffer, args.offset(i), args.length(i)))
            {
                present++;
            }
        }
        context.out().integer(present);
    }

    static void type(final CommandContext context)
    {
        final boolean present = context.store().exists(context.argBuffer(), context.argOffset(1), context.argLength(1));
        context.out().raw(present ? TYPE_STRING_REPLY : TYPE_NONE_REPLY);
    }

    // ------------------------------------------------------------------------------------------------------------
    // EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, PERSIST
    // ------------------------------------------------------------------------------------------------------------

    static void expire(final CommandContext context)
    {
        expire(context, true, MILLIS_PER_SECOND);
    }

    static void pexpire(final CommandContext context)
    {
        expire(context, true, 1);
    }

    static void expireAt(final CommandContext context)
    {
        expire(context, false, MILLIS_PER_SECOND);
    }

    static void pexpireAt(final CommandContext context)
    {
        expire(context, false, 1);
    }

    /**
     * Redis's {@code expireGenericCommand}: options first, then the time, then the unit and base with overflow
     * checks, then one conditional store write (a time at or before now removes the key). A relative time (EXPIRE,
     * PEXPIRE) goes to the store as a duration ({@link AgniStore#expireAfter}), so that the store adds it to its own
     * clock; only the overflow check reads the server's clock, as Redis's does.
     */
    private static void expire(final CommandContext context, final boolean relative, final long unitMillis)
    {
        final ExpireCondition condition = parseExpireOptions(context);
        if (condition == null)
        {
            return;
        }
        final int parsed = expireMillis(context, relative, unitMillis);
        if (parsed != EXPIRE_TIME_PARSED)
        {
            if (parsed == EXPIRE_TIME_NOT_AN_INTEGER)
            {
                context.notAnInteger();
            }
            else
            {
                invalidExpireTime(context);
            }
            return;
        }
        final long when = context.parsedLong();
        final AgniStore store = context.store();
        final boolean changed = relative ?
            store.expireAfter(context.argBuffer(), context.argOffset(1), context.argLength(1), when, condition) :
            store.expire(context.argBuffer(), context.argOffset(1), context.argLength(1), when, condition);
        context.out().integer(changed ? 1 : 0);
    }

    /**
     * Reads the time of an EXPIRE-family command (argument 2) into milliseconds, with Redis's overflow checks; on
     * success the milliseconds (a duration for a relative command, a time else) are {@link CommandContext#parsedLong()}.
     *
     * @return {@link #EXPIRE_TIME_PARSED}, {@link #EXPIRE_TIME_NOT_AN_INTEGER} or {@link #EXPIRE_TIME_INVALID}.
     */
    static int expireMillis(final CommandContext context, final boolean relative, final long unitMillis)
    {
        if (!context.parseLong(2))
        {
            return EXPIRE_TIME_NOT_AN_INTEGER;
        }
        long when = context.parsedLong();
        if (unitMillis == MILLIS_PER_SECOND)
        {
            if (when > Long.MAX_VALUE / MILLIS_PER_SECOND || when < Long.MIN_VALUE / MILLIS_PER_SECOND)
            {
                return EXPIRE_TIME_INVALID;
            }
            when *= MILLIS_PER_SECOND;
        }
        if (relative && when > Long.MAX_VALUE - context.clock().time())
        {
            return EXPIRE_TIME_INVALID;
        }
        context.parsedLong(when);
        return EXPIRE_TIME_PARSED;
    }

    /**
     * Parses NX, XX, GT and LT from argument 3 on and checks their combination as Redis does.
     *
     * @return the condition, or {@code null} when an error reply has been written.
     */
    private static ExpireCondition parseExpireOptions(final CommandContext context)
    {
        final RespArgs args = context.args();
        int options = 0;
        for (int i = 3, count = args.count(); i < count; i++)
        {
            final int option = expireOption(args, i);
            if (option == OPTION_UNKNOWN)
            {
                context.out().error("ERR Unsupported option " + args.asString(i));
                return null;
            }
            options |= option;
        }
        if ((options & OPTION_NX) != 0 && (options & (OPTION_XX | OPTION_GT | OPTION_LT)) != 0)
        {
            context.out().error(NX_NOT_COMPATIBLE);
            return null;
        }
        if ((options & OPTION_GT) != 0 && (options & OPTION_LT) != 0)
        {
            context.out().error(GT_LT_NOT_COMPATIBLE);
            return null;
        }
        return expireCondition(options);
    }

    /**
     * The condition of a valid combination of options: XX with GT is GT, which already needs an expiry time.
     */
    private static ExpireCondition expireCondition(final int options)
    {
        final boolean xx = (options & OPTION_XX) != 0;
        if ((options & OPTION_NX) != 0)
        {
            return ExpireCondition.IF_NO_EXPIRY;
        }
        if ((options & OPTION_GT) != 0)
        {
            return ExpireCondition.IF_LATER;
        }
        if ((options & OPTION_LT) != 0)
        {
            return xx ? ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER : ExpireCondition.IF_EARLIER;
        }
        return xx ? ExpireCondition.IF_HAS_EXPIRY : ExpireCondition.ALWAYS;
    }

    private static int expireOption(final RespArgs args, final int index)
    {
        if (args.equalsIgnoreCase(index, NX))
        {
            return OPTION_NX;
        }
        if (args.equalsIgnoreCase(index, XX))
        {
            return OPTION_XX;
        }
        if (args.equalsIgnoreCase(index, GT))
        {
            return OPTION_GT;
        }
        if (args.equalsIgnoreCase(index, LT))
        {
            return OPTION_LT;
        }
        return OPTION_UNKNOWN;
    }

    private static void invalidExpireTime(final CommandContext context)
    {
        context.out().error("ERR invalid expire time in '" + context.command().name() + "' command");
    }

    static void persist(final CommandContext context)
    {
        final boolean removed = context.store().persist(context.argBuffer(), context.argOffset(1), context.argLength(1));
        context.out().integer(removed ? 1 : 0);
    }

    // ------------------------------------------------------------------------------------------------------------
    // TTL, PTTL, EXPIRETIME, PEXPIRETIME
    // ------------------------------------------------------------------------------------------------------------

    static void ttl(final CommandContext context)
    {
        context.out().integer(toSeconds(context.store().ttlMillis(
            context.argBuffer(), context.argOffset(1), context.argLength(1))));
    }

    static void pttl(final CommandContext context)
    {
        context.out().integer(context.store().ttlMillis(context.argBuffer(), context.argOffset(1), context.argLength(1)));
    }

    static void expireTime(final CommandContext context)
    {
        context.out().integer(toSeconds(context.store().expireTimeMillis(
            context.argBuffer(), context.argOffset(1), context.argLength(1))));
    }

    static void pexpireTime(final CommandContext context)
    {
        context.out().integer(
            context.store().expireTimeMillis(context.argBuffer(), context.argOffset(1), context.argLength(1)));
    }

    /**
     * Redis's {@code (ms + 500) / 1000} for a time, without its overflow near {@code Long.MAX_VALUE}; the negative
     * codes -1 and -2 pass through.
     */
    static long toSeconds(final long millis)
    {
        if (millis < 0)
        {
            return millis;
        }
        return millis / MILLIS_PER_SECOND + (millis % MILLIS_PER_SECOND >= MILLIS_PER_SECOND / 2 ? 1 : 0);
    }

    // ------------------------------------------------------------------------------------------------------------
    // SCAN, KEYS
    // ------------------------------------------------------------------------------------------------------------

    static void scan(final CommandContext context)
    {
        final RespArgs args = context.args();
        final DirectBuffer buffer = args.buffer();
        if (!isCursor(buffer, args.offset(1), args.length(1)))
        {
            context.out().error(INVALID_CURSOR);
            return;
        }
        final long cursor = cursorValue(buffer, args.offset(1), args.length(1));

        long count = DEFAULT_SCAN_COUNT;
        byte[] pattern = null;
        boolean stringType = true;
        for (int i = 2, argCount = args.count(); i < argCount; i += 2)
        {
            final boolean hasValue = i + 1 < argCount;
            if (hasValue && args.equalsIgnoreCase(i, COUNT))
            {
                if (!context.parseLong(i + 1))
                {
                    context.notAnInteger();
                    return;
                }
                count = context.parsedLong();
                if (count < 1)
                {
                    context.syntaxError();
                    return;
                }
            }
            else if (hasValue && args.equalsIgnoreCase(i, MATCH))
            {
                pattern = isMatchAll(args, i + 1) ? null : args.copy(i + 1);
            }
            else if (hasValue && args.equalsIgnoreCase(i, TYPE))
            {
                stringType = args.equalsIgnoreCase(i + 1, STRING_TYPE);
            }
            else
            {
                context.syntaxError();
                return;
            }
        }

        // A cursor the store refuses throws its InvalidCursorException (no stack trace), which CommandProcessor
        // replies as ERR invalid cursor.
        final ScanResult result = context.store().scan(cursor, pattern, (int)Math.min(count, Integer.MAX_VALUE));
        writeScanReply(context.out(), result, stringType);
    }

    private static void writeScanReply(final RespWriter out, final ScanResult result, final boolean withKeys)
    {
        out.arrayHeader(2);
        final long next = result.cursor();
        if (next >= 0)
        {
            out.bulkDecimal(next);
        }
        else
        {
            out.bulk(Long.toUnsignedString(next));
        }
        final List<byte[]> keys = withKeys ? result.keys() : List.of();
        out.arrayHeader(keys.size());
        for (final byte[] key : keys)
        {
            out.bulk(key);
        }
    }

    static void keys(final CommandContext context)
    {
        final RespArgs args = context.args();
        final byte[] pattern = isMatchAll(args, 1) ? null : args.copy(1);
        final AgniStore store = context.store();
        final RespWriter out = context.out();
        final List<byte[]> keys = new ArrayList<>();
        final Set<ByteBuffer> seen = new HashSet<>();
        long replyLength = ARRAY_HEADER_MAX;
        long cursor = 0;
        do
        {
            final ScanResult result = store.scan(cursor, pattern, KEYS_SCAN_STEP);
            for (final byte[] key : result.keys())
            {
                if (seen.add(ByteBuffer.wrap(key)))
                {
                    keys.add(key);
                    replyLength += bulkLength(key.length);
                }
            }
            // A reply past the connection's limit is refused here, before more keys are collected or any encoded.
            out.checkRoom(replyLength);
            cursor = result.cursor();
        }
        while (cursor != 0);

        out.arrayHeader(keys.size());
        for (final byte[] key : keys)
        {
            out.bulk(key);
        }
    }

    /**
     * @return the encoded length of a bulk string of {@code length} bytes: {@code $}, the digits, CRLF, the bytes,
     * CRLF.
     */
    static long bulkLength(final int length)
    {
        int digits = 1;
        for (int n = length; n >= 10; n /= 10)
        {
            digits++;
        }
        return 1L + digits + 2 + length + 2;
    }

    private static boolean isMatchAll(final RespArgs args, final int index)
    {
        return args.length(index) == 1 && args.byteAt(index, 0) == '*';
    }

    /**
     * Whether the bytes are a cursor as Redis reads one: decimal digits, optionally after a '+', at most
     * 2<sup>64</sup> - 1. No sign '-', no spaces, not empty.
     */
    static boolean isCursor(final DirectBuffer buffer, final int offset, final int length)
    {
        int i = 0;
        if (length > 0 && buffer.getByte(offset) == '+')
        {
            i++;
        }
        if (i == length)
        {
            return false;
        }
        long value = 0;
        for (; i < length; i++)
        {
            final int digit = buffer.getByte(offset + i) - '0';
            if (digit < 0 || digit > 9 || Long.compareUnsigned(value, UNSIGNED_MAX_DIV_10) > 0)
            {
                return false;
            }
            final long next = value * 10 + digit;
            if (Long.compareUnsigned(next, value * 10) < 0)
            {
                return false;
            }
            value = next;
        }
        return true;
    }

    /**
     * The unsigned value of bytes that {@link #isCursor} accepted, as the 64 bits of a {@code long}.
     */
    static long cursorValue(final DirectBuffer buffer, final int offset, final int length)
    {
        long value = 0;
        for (int i = buffer.getByte(offset) == '+' ? 1 : 0; i < length; i++)
        {
            value = value * 10 + (buffer.getByte(offset + i) - '0');
        }
        return value;
    }

    // ------------------------------------------------------------------------------------------------------------
    // RANDOMKEY, RENAME, RENAMENX
    // ------------------------------------------------------------------------------------------------------------

    static void randomKey(final CommandContext context)
    {
        final byte[] key = context.store().randomKey();
        if (key == null)
        {
            context.out().nullBulk();
        }
        else
        {
            context.out().bulk(key);
        }
    }

    static void rename(final CommandContext context)
    {
        final RenameResult result = rename(context, true);
        if (result == RenameResult.RENAMED)
        {
            context.out().ok();
        }
        else
        {
            context.out().error(NO_SUCH_KEY);
        }
    }

    static void renameIfAbsent(final CommandContext context)
    {
        final RenameResult result = rename(context, false);
        if (result == RenameResult.NO_SUCH_KEY)
        {
            context.out().error(NO_SUCH_KEY);
        }
        else
        {
            context.out().integer(result == RenameResult.RENAMED ? 1 : 0);
        }
    }

    private static RenameResult rename(final CommandContext context, final boolean replace)
    {
        final RespArgs args = context.args();
        final DirectBuffer buffer = args.buffer();
        return context.store().rename(
            buffer, args.offset(1), args.length(1), buffer, args.offset(2), args.length(2), replace);
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
