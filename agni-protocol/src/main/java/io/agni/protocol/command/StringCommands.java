package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.EntryTooLargeException;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.internal.Decimal;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static io.agni.protocol.command.Command.FLAG_DENY_OOM;
import static io.agni.protocol.command.Command.FLAG_FAST;
import static io.agni.protocol.command.Command.FLAG_READONLY;
import static io.agni.protocol.command.Command.FLAG_WRITE;

/**
 * String commands: GET, SET and the rest of Redis's string family, with Redis 7's semantics and reply texts.
 *
 * <h2>Atomicity</h2>
 * Every command that reads and writes a key is one store primitive ({@code SET ... GET} is {@code getAndSet},
 * {@code GETDEL} is {@code getAndDelete}, {@code GETEX} is {@code getAndExpire}, {@code MSETNX} is {@code setAll}),
 * never a read followed by a write. {@code MGET} is the store's {@code getAll}, which reads all its keys at one
 * instant, and {@code MSET} its {@code setAll}, so that a command sees and leaves what the embedded store's calls
 * would. Where Redis answers without writing (an invalid {@code GETEX} expire time on
 * a missing key, an empty {@code SETRANGE}), the handler does one read and no write.
 *
 * <h2>Allocation</h2>
 * GET, plain SET, SET with options, the INCR family, MGET, MSET, MSETNX, GETSET, GETDEL, GETEX, APPEND, STRLEN,
 * GETRANGE and SETRANGE use the store's zero-copy forms with the arguments' {@code (buffer, offset, length)} views;
 * a value read is copied by the store straight into the reply buffer, behind room left for its bulk header
 * ({@link RespWriter#reserveBulk()}), so it is copied once on its way to the socket. MGET has the store copy all
 * its values, one after another, into the reply buffer behind room for every header ({@link #MGET_FRAMING_PER_KEY}
 * bytes a key), then moves each value down behind its header: a second copy, within the reply buffer. Options are
 * compared as bytes, and SET's parsed options are packed into one {@code long}, so none of them allocates in steady
 * state. INCRBYFLOAT allocates in the store (decimal arithmetic). Error replies allocate.
 *
 * <h2>Reply limit</h2>
 * A reply is refused as soon as it would pass the reply buffer's limit, before the buffer grows past it. MGET needs
 * room for the framing of every key while the store copies its values, so it is refused once its values plus
 * {@link #MGET_FRAMING_PER_KEY} bytes a key pass the limit, up to 10 bytes a key before its finished reply would.
 *
 * <h2>Expiry times</h2>
 * {@code EX} and {@code PX} (and {@code SETEX}, {@code PSETEX}) go to the store as durations
 * ({@link ExpiryMode#AFTER}), which the store adds to its own clock when it writes; {@code EXAT} and {@code PXAT}
 * are absolute ({@link ExpiryMode#AT}). As Redis, a time that is not positive, or that would overflow once added to
 * now, is {@code ERR invalid expire time in '<command>' command}; the overflow check reads the server's clock
 * ({@link CommandContext#clock()}, the store's own unless the server was given another). An absolute time already
 * past is accepted and removes the key.
 */
final class StringCommands
{
    static final String STRING_TOO_LONG = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";
    private static final String KEY_TOO_LARGE = "key too large:";
    static final String OFFSET_OUT_OF_RANGE = "ERR offset is out of range";
    static final String DECREMENT_OVERFLOW = "ERR decrement would overflow";

    /**
     * The most bytes of framing one key adds to an MGET reply: {@code $}, the length's up to 10 digits, CRLF, and
     * the value's CRLF (a nil, {@code $-1} CRLF, is less).
     */
    static final int MGET_FRAMING_PER_KEY = 1 + 10 + 2 + 2;

    static final int NX = 1;
    static final int XX = 1 << 1;
    static final int GET = 1 << 2;
    static final int KEEPTTL = 1 << 3;
    static final int PERSIST = 1 << 4;
    static final int EX = 1 << 5;
    static final int PX = 1 << 6;
    static final int EXAT = 1 << 7;
    static final int PXAT = 1 << 8;
    static final int ANY_EXPIRY = EX | PX | EXAT | PXAT;

    /**
     * What {@link #parseOptions} returns for a syntax error; a valid result is never negative.
     */
    static final long SYNTAX_ERROR = -1;

    /**
     * What {@link #expiryTime} returns when the time is not an integer; a valid time is always positive.
     */
    static final long EXPIRE_NOT_AN_INTEGER = -1;

    /**
     * What {@link #expiryTime} returns when the time is not positive or overflows.
     */
    static final long EXPIRE_INVALID = -2;

    private static final byte[] NX_BYTES = {'N', 'X'};
    private static final byte[] XX_BYTES = {'X', 'X'};
    private static final byte[] GET_BYTES = {'G', 'E', 'T'};
    private static final byte[] KEEPTTL_BYTES = {'K', 'E', 'E', 'P', 'T', 'T', 'L'};
    private static final byte[] PERSIST_BYTES = {'P', 'E', 'R', 'S', 'I', 'S', 'T'};
    private static final byte[] EX_BYTES = {'E', 'X'};
    private static final byte[] PX_BYTES = {'P', 'X'};
    private static final byte[] EXAT_BYTES = {'E', 'X', 'A', 'T'};
    private static final byte[] PXAT_BYTES = {'P', 'X', 'A', 'T'};
    private static final int FIRST_SET_OPTION = 3;
    private static final int FIRST_GETEX_OPTION = 2;
    private static final int MILLIS_PER_SECOND = 1000;

    private StringCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
        final int writeGrow = FLAG_WRITE | FLAG_DENY_OOM;
        table.add("get", 2, FLAG_READONLY | FLAG_FAST, 1, 1, 1, StringCommands::get);
        table.add("set", -3, writeGrow, 1, 1, 1, StringCommands::set);
        table.add("setnx", 3, writeGrow | FLAG_FAST, 1, 1, 1, StringCommands::setnx);
        table.add("setex", 4, writeGrow, 1, 1, 1, StringCommands::setex);
        table.add("psetex", 4, writeGrow, 1, 1, 1, StringCommands::psetex);
        table.add("getset", 3, writeGrow | FLAG_FAST, 1, 1, 1, StringCommands::getset);
        table.add("getdel", 2, FLAG_WRITE | FLAG_FAST, 1, 1, 1, StringCommands::getdel);
        table.add("getex", -2, FLAG_WRITE | FLAG_FAST, 1, 1, 1, StringCommands::getex);
        table.add("mget", -2, FLAG_READONLY | FLAG_FAST, 1, -1, 1, StringCommands::mget);
        table.add("mset", -3, writeGrow, 1, -1, 2, StringCommands::mset);
        table.add("msetnx", -3, writeGrow, 1, -1, 2, StringCommands::msetnx);
        table.add("append", 3, writeGrow | FLAG_FAST, 1, 1, 1, StringCommands::append);
        table.add("strlen", 2, FLAG_READONLY | FLAG_FAST, 1, 1, 1, StringCommands::strlen);
        table.add("getrange", 4, FLAG_READONLY, 1, 1, 1, StringCommands::getrange);
        table.add("setrange", 4, writeGrow, 1, 1, 1, StringCommands::setrange);
        table.add("incr", 2, writeGrow | FLAG_FAST, 1, 1, 1, StringCommands::incr);
        table.add("decr", 2, writeGrow | FLAG_FAST, 1, 1, 1, StringCommands::decr);
        table.add("incrby", 3, writeGrow | FLAG_FAST, 1, 1, 1, StringCommands::incrby);
        table.add("decrby", 3, writeGrow | FLAG_FAST, 1, 1, 1, StringCommands::decrby);
        table.add("incrbyfloat", 3, writeGrow | FLAG_FAST, 1, 1, 1, StringCommands::incrbyfloat);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // GET and SET
    // ----------------------------------------------------------------------------------------------------------------

    static void get(final CommandContext context)
    {
        final RespArgs args = context.args();
        final RespWriter out = context.out();
        final int at = out.reserveBulk();
        final int length = context.store().get(args.buffer(), args.offset(1), args.length(1), out.buffer(), at);
        bulkOrNull(out, at, length);
    }

    static void set(final CommandContext context)
    {
        final RespArgs args = context.args();
        final AgniStore store = context.store();
        final DirectBuffer buffer = args.buffer();
        if (args.count() == FIRST_SET_OPTION)
        {
            store.set(buffer, args.offset(1), args.length(1), buffer, args.offset(2), args.length(2));
            context.out().ok();
            return;
        }

        final long options = parseOptions(args, FIRST_SET_OPTION, true);
        if (options == SYNTAX_ERROR)
        {
            context.syntaxError();
            return;
        }
        final int flags = flags(options);
        long expiryTime = 0;
        if ((flags & ANY_EXPIRY) != 0)
        {
            expiryTime = expiryTime(context, expireIndex(options), flags & ANY_EXPIRY);
            if (expiryTime < 0)
            {
                expireError(context, expiryTime);
                return;
            }
        }

        final SetCondition condition = (flags & NX) != 0 ? SetCondition.IF_ABSENT :
            (flags & XX) != 0 ? SetCondition.IF_PRESENT : SetCondition.ALWAYS;
        final ExpiryMode expiryMode = (flags & ANY_EXPIRY) != 0 ? expiryMode(flags & ANY_EXPIRY) :
            (flags & KEEPTTL) != 0 ? ExpiryMode.KEEP : ExpiryMode.CLEAR;
        if ((flags & GET) != 0)
        {
            final RespWriter out = context.out();
            final int at = out.reserveBulk();
            final int previous = store.getAndSet(
                buffer, args.offset(1), args.length(1), buffer, args.offset(2), args.length(2),
                condition, expiryMode, expiryTime, out.buffer(), at);
            bulkOrNull(out, at, previous);
        }
        else if (store.set(
            buffer, args.offset(1), args.length(1), buffer, args.offset(2), args.length(2),
            condition, expiryMode, expiryTime))
        {
            context.out().ok();
        }
        else
        {
            context.out().nullBulk();
        }
    }

    static void setnx(final CommandContext context)
    {
        final RespArgs args = context.args();
        final DirectBuffer buffer = args.buffer();
        final boolean written = context.store().set(
            buffer, args.offset(1), args.length(1), buffer, args.offset(2), args.length(2),
            SetCondition.IF_ABSENT, ExpiryMode.CLEAR, 0);
        context.out().integer(written ? 1 : 0);
    }

    static void setex(final CommandContext context)
    {
        setWithExpiry(context, EX);
    }

    static void psetex(final CommandContext context)
    {
        setWithExpiry(context, PX);
    }

    private static void setWithExpiry(final CommandContext context, final int unit)
    {
        final long duration = expiryTime(context, 2, unit);
        if (duration < 0)
        {
            expireError(context, duration);
            return;
        }
        final RespArgs args = context.args();
        final DirectBuffer buffer = args.buffer();
        context.store().set(
            buffer, args.offset(1), args.length(1), buffer, args.offset(3), args.length(3),
            SetCondition.ALWAYS, ExpiryMode.AFTER, duration);
        context.out().ok();
    }

    static void getset(final CommandContext context)
    {
        final RespArgs args = context.args();
        final DirectBuffer buffer = args.buffer();
        final RespWriter out = context.out();
        final int at = out.reserveBulk();
        final int previous = context.store().getAndSet(
            buffer, args.offset(1), args.length(1), buffer, args.offset(2), args.length(2),
            SetCondition.ALWAYS, ExpiryMode.CLEAR, 0, out.buffer(), at);
        bulkOrNull(out, at, previous);
    }

    static void getdel(final CommandContext context)
    {
        final RespArgs args = context.args();
        final RespWriter out = context.out();
        final int at = out.reserveBulk();
        final int length = context.store().getAndDelete(
            args.buffer(), args.offset(1), args.length(1), out.buffer(), at);
        bulkOrNull(out, at, length);
    }

    static void getex(final CommandContext context)
    {
        final RespArgs args = context.args();
        final long options = parseOptions(args, FIRST_GETEX_OPTION, false);
        if (options == SYNTAX_ERROR)
        {
            context.syntaxError();
            return;
        }
        final int flags = flags(options);
        final AgniStore store = context.store();
        long expiryTime = 0;
        if ((flags & ANY_EXPIRY) != 0)
        {
            expiryTime = expiryTime(context, expireIndex(options), flags & ANY_EXPIRY);
            if (expiryTime < 0)
            {
                // Redis looks the key up before it reads the time: a missing key is nil whatever the time says.
                if (store.exists(args.buffer(), args.offset(1), args.length(1)))
                {
                    expireError(context, expiryTime);
                }
                else
                {
                    context.out().nullBulk();
                }
                return;
            }
        }
        final ExpiryMode expiryMode = (flags & ANY_EXPIRY) != 0 ? expiryMode(flags & ANY_EXPIRY) :
            (flags & PERSIST) != 0 ? ExpiryMode.CLEAR : ExpiryMode.KEEP;
        final RespWriter out = context.out();
        final int at = out.reserveBulk();
        final int length = store.getAndExpire(
            args.buffer(), args.offset(1), args.length(1), expiryMode, expiryTime, out.buffer(), at);
        bulkOrNull(out, at, length);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Several keys
    // ----------------------------------------------------------------------------------------------------------------

    /**
     * MGET: one {@code getAll}, which copies the values into the reply buffer behind room for every key's framing;
     * then each value is moved down behind its header. The framing written so far never reaches a value not yet
     * moved: before key {@code i}, the gap between the writer's position and value {@code i} is at least the most
     * framing keys {@code i} on can take.
     */
    static void mget(final CommandContext context)
    {
        final RespWriter out = context.out();
        final int keys = context.args().count() - 1;
        out.arrayHeader(keys);
        final long valuesAt = out.position() + (long)MGET_FRAMING_PER_KEY * keys;
        if (valuesAt > Integer.MAX_VALUE)
        {
            out.checkRoom(valuesAt - out.position());
        }
        final int[] lengths = context.valueLengths(keys);
        final MutableDirectBuffer buffer = out.buffer();
        context.store().getAll(context.argBuffer(), context.argOffsetsFrom(1), context.argLengthsFrom(1), keys,
            buffer, (int)valuesAt, lengths);
        int from = (int)valuesAt;
        for (int i = 0; i < keys; i++)
        {
            final int length = lengths[i];
            if (length == AgniStore.NOT_FOUND)
            {
                out.nullBulk();
            }
            else
            {
                out.bulk(buffer, from, length);
                from += length;
            }
        }
    }

    static void mset(final CommandContext context)
    {
        if (isOddPairCount(context))
        {
            return;
        }
        setAll(context, SetCondition.ALWAYS);
        context.out().ok();
    }

    static void msetnx(final CommandContext context)
    {
        if (isOddPairCount(context))
        {
            return;
        }
        context.out().integer(setAll(context, SetCondition.IF_ABSENT) ? 1 : 0);
    }

    private static boolean isOddPairCount(final CommandContext context)
    {
        if ((context.args().count() & 1) == 0)
        {
            context.out().error("ERR wrong number of arguments for '" + context.command().name() + "' command");
            return true;
        }
        return false;
    }

    private static boolean setAll(final CommandContext context, final SetCondition condition)
    {
        final int pairs = (context.args().count() - 1) / 2;
        return context.store().setAll(context.argBuffer(), context.argOffsetsFrom(1), context.argLengthsFrom(1), pairs,
            condition);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Parts of a value
    // ----------------------------------------------------------------------------------------------------------------

    static void append(final CommandContext context)
    {
        final RespArgs args = context.args();
        final DirectBuffer buffer = args.buffer();
        final long length;
        try
        {
            length = context.store().append(
                buffer, args.offset(1), args.length(1), buffer, args.offset(2), args.length(2));
        }
        catch (final EntryTooLargeException ex)
        {
            valueTooLong(context, ex);
            return;
        }
        context.out().integer(length);
    }

    static void strlen(final CommandContext context)
    {
        final RespArgs args = context.args();
        final int length = context.store().valueLength(args.buffer(), args.offset(1), args.length(1));
        context.out().integer(Math.max(0, length));
    }

    static void getrange(final CommandContext context)
    {
        if (!context.parseLong(2))
        {
            context.notAnInteger();
            return;
        }
        final long start = context.parsedLong();
        if (!context.parseLong(3))
        {
            context.notAnInteger();
            return;
        }
        final long end = context.parsedLong();
        final RespWriter out = context.out();
        if (start < 0 && end < 0 && start > end)
        {
            out.commitBulk(out.reserveBulk(), 0);
            return;
        }
        final RespArgs args = context.args();
        final int at = out.reserveBulk();
        final int length = context.store().getRange(
            args.buffer(), args.offset(1), args.length(1), start, end, out.buffer(), at);
        out.commitBulk(at, length);
    }

    static void setrange(final CommandContext context)
    {
        if (!context.parseLong(2))
        {
            context.notAnInteger();
            return;
        }
        final long offset = context.parsedLong();
        if (offset < 0)
        {
            context.out().error(OFFSET_OUT_OF_RANGE);
            return;
        }
        final RespArgs args = context.args();
        final DirectBuffer buffer = args.buffer();
        final int valueLength = args.length(3);
        if (valueLength == 0)
        {
            // Redis writes nothing and answers the current length, whatever the offset.
            final int length = context.store().valueLength(buffer, args.offset(1), args.length(1));
            context.out().integer(Math.max(0, length));
            return;
        }
        if (offset > Integer.MAX_VALUE - valueLength)
        {
            context.out().error(STRING_TOO_LONG);
            return;
        }
        final long length;
        try
        {
            length = context.store().setRange(
                buffer, args.offset(1), args.length(1), offset, buffer, args.offset(3), valueLength);
        }
        catch (final EntryTooLargeException ex)
        {
            valueTooLong(context, ex);
            return;
        }
        context.out().integer(length);
    }

    /**
     * APPEND's and SETRANGE's refusal of a value past the limit, Redis's {@code string exceeds maximum allowed
     * size}; a key past the limit is refused as by every command (the exception's message, which says which part
     * was too large, is {@code key too large: ...} then), by {@link CommandProcessor}.
     */
    private static void valueTooLong(final CommandContext context, final EntryTooLargeException ex)
    {
        if (ex.getMessage().startsWith(KEY_TOO_LARGE))
        {
            throw ex;
        }
        context.out().error(STRING_TOO_LONG);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Counters
    // ----------------------------------------------------------------------------------------------------------------

    static void incr(final CommandContext context)
    {
        incrementBy(context, 1);
    }

    static void decr(final CommandContext context)
    {
        incrementBy(context, -1);
    }

    static void incrby(final CommandContext context)
    {
        if (!context.parseLong(2))
        {
            context.notAnInteger();
            return;
        }
        incrementBy(context, context.parsedLong());
    }

    static void decrby(final CommandContext context)
    {
        if (!context.parseLong(2))
        {
            context.notAnInteger();
            return;
        }
        final long decrement = context.parsedLong();
        if (decrement == Long.MIN_VALUE)
        {
            context.out().error(DECREMENT_OVERFLOW);
            return;
        }
        incrementBy(context, -decrement);
    }

    private static void incrementBy(final CommandContext context, final long delta)
    {
        final RespArgs args = context.args();
        context.out().integer(context.store().incrementBy(args.buffer(), args.offset(1), args.length(1), delta));
    }

    static void incrbyfloat(final CommandContext context)
    {
        final RespArgs args = context.args();
        final double delta = Decimal.parseDouble(args.buffer(), args.offset(2), args.length(2));
        final RespWriter out = context.out();
        final int at = out.reserveBulk();
        final int length = context.store().incrementByFloat(
            args.buffer(), args.offset(1), args.length(1), delta, out.buffer(), at);
        out.commitBulk(at, length);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Options and expiry times
    // ----------------------------------------------------------------------------------------------------------------

    /**
     * Parses SET's or GETEX's options as Redis's {@code parseExtendedStringArgumentsOrReply}: any order and case;
     * NX with XX, KEEPTTL or PERSIST with an expiry, or two different expiry units are a syntax error; the same
     * option twice is allowed, and for an expiry the last time wins. An expiry option must have an argument after it.
     *
     * @param args  the command.
     * @param from  the index of the first option.
     * @param isSet SET's options (NX, XX, GET, KEEPTTL) rather than GETEX's (PERSIST).
     * @return the option flags in the low 32 bits and the index of the expiry time (0 for none) in the high 32
     * bits, or {@link #SYNTAX_ERROR}.
     */
    static long parseOptions(final RespArgs args, final int from, final boolean isSet)
    {
        final int count = args.count();
        int flags = 0;
        int expireIndex = 0;
        for (int i = from; i < count; i++)
        {
            final int unit;
            if (isSet && (flags & XX) == 0 && args.equalsIgnoreCase(i, NX_BYTES))
            {
                flags |= NX;
            }
            else if (isSet && (flags & NX) == 0 && args.equalsIgnoreCase(i, XX_BYTES))
            {
                flags |= XX;
            }
            else if (isSet && args.equalsIgnoreCase(i, GET_BYTES))
            {
                flags |= GET;
            }
            else if (isSet && (flags & ANY_EXPIRY) == 0 && args.equalsIgnoreCase(i, KEEPTTL_BYTES))
            {
                flags |= KEEPTTL;
            }
            else if (!isSet && (flags & ANY_EXPIRY) == 0 && args.equalsIgnoreCase(i, PERSIST_BYTES))
            {
                flags |= PERSIST;
            }
            else if (i + 1 < count && (unit = expiryUnit(args, i)) != 0 &&
                (flags & (KEEPTTL | PERSIST | (ANY_EXPIRY & ~unit))) == 0)
            {
                flags |= unit;
                expireIndex = ++i;
            }
            else
            {
                return SYNTAX_ERROR;
            }
        }
        return (long)expireIndex << 32 | flags;
    }

    static int flags(final long options)
    {
        return (int)options;
    }

    static int expireIndex(final long options)
    {
        return (int)(options >>> 32);
    }

    private static int expiryUnit(final RespArgs args, final int index)
    {
        if (args.equalsIgnoreCase(index, EX_BYTES))
        {
            return EX;
        }
        if (args.equalsIgnoreCase(index, PX_BYTES))
        {
            return PX;
        }
        if (args.equalsIgnoreCase(index, EXAT_BYTES))
        {
            return EXAT;
        }
        if (args.equalsIgnoreCase(index, PXAT_BYTES))
        {
            return PXAT;
        }
        return 0;
    }

    /**
     * The expiry time an argument gives, in milliseconds, checked as Redis's {@code getExpireMillisecondsOrReply}
     * checks it: for {@link #EX} and {@link #PX} the duration the store is to add to its clock
     * ({@link ExpiryMode#AFTER}), for {@link #EXAT} and {@link #PXAT} the absolute time ({@link ExpiryMode#AT}).
     *
     * @param context the command.
     * @param index   the argument holding the time.
     * @param unit    {@link #EX}, {@link #PX}, {@link #EXAT} or {@link #PXAT}.
     * @return the duration or time in milliseconds, always positive; or {@link #EXPIRE_NOT_AN_INTEGER} or
     * {@link #EXPIRE_INVALID}.
     */
    static long expiryTime(final CommandContext context, final int index, final int unit)
    {
        if (!context.parseLong(index))
        {
            return EXPIRE_NOT_AN_INTEGER;
        }
        long millis = context.parsedLong();
        final boolean seconds = unit == EX || unit == EXAT;
        if (millis <= 0 || seconds && millis > Long.MAX_VALUE / MILLIS_PER_SECOND)
        {
            return EXPIRE_INVALID;
        }
        if (seconds)
        {
            millis *= MILLIS_PER_SECOND;
        }
        if ((unit == EX || unit == PX) && millis > Long.MAX_VALUE - context.clock().time())
        {
            return EXPIRE_INVALID;
        }
        return millis;
    }

    /**
     * {@link ExpiryMode#AFTER} for the relative units, {@link ExpiryMode#AT} for the absolute ones.
     */
    static ExpiryMode expiryMode(final int unit)
    {
        return unit == EX || unit == PX ? ExpiryMode.AFTER : ExpiryMode.AT;
    }

    private static void expireError(final CommandContext context, final long code)
    {
        if (code == EXPIRE_NOT_AN_INTEGER)
        {
            context.notAnInteger();
        }
        else
        {
            context.out().error("ERR invalid expire time in '" + context.command().name() + "' command");
        }
    }

    /**
     * Completes a bulk whose value the store copied to {@code at} (from {@link RespWriter#reserveBulk()}), or, for
     * {@link AgniStore#NOT_FOUND}, replies the null bulk instead.
     */
    private static void bulkOrNull(final RespWriter out, final int at, final int length)
    {
        if (length == AgniStore.NOT_FOUND)
        {
            out.nullBulk();
        }
        else
        {
            out.commitBulk(at, length);
        }
    }
}
