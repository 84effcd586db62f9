package io.agni.net;

import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.DirectBuffer;

import java.util.List;

import static io.agni.net.ClientKeywords.COUNT;
import static io.agni.net.ClientKeywords.GET;
import static io.agni.net.ClientKeywords.GETEX;
import static io.agni.net.ClientKeywords.GT;
import static io.agni.net.ClientKeywords.INCRBYFLOAT;
import static io.agni.net.ClientKeywords.KEEPTTL;
import static io.agni.net.ClientKeywords.LT;
import static io.agni.net.ClientKeywords.MATCH;
import static io.agni.net.ClientKeywords.MGET;
import static io.agni.net.ClientKeywords.MSET;
import static io.agni.net.ClientKeywords.MSETNX;
import static io.agni.net.ClientKeywords.NX;
import static io.agni.net.ClientKeywords.PERSIST;
import static io.agni.net.ClientKeywords.PEXPIRE;
import static io.agni.net.ClientKeywords.PEXPIREAT;
import static io.agni.net.ClientKeywords.PX;
import static io.agni.net.ClientKeywords.PXAT;
import static io.agni.net.ClientKeywords.SCAN;
import static io.agni.net.ClientKeywords.SET;
import static io.agni.net.ClientKeywords.XX;

/**
 * How {@link AgniClient} says each store operation with options in Redis's commands: the conditions and expiry
 * modes of {@code SET}, {@code GETEX}, {@code PEXPIRE} and {@code PEXPIREAT}, the multi-key {@code MGET} and
 * {@code MSET}, and {@code SCAN}. The one-key commands without options are encoded where they are sent.
 *
 * <h2>Expiry</h2>
 * {@link ExpiryMode#AT} is {@code PXAT} with the time, {@link ExpiryMode#AFTER} {@code PX} with the duration, which
 * the server adds to its own clock. Redis refuses a time or duration that is not positive, and a duration it cannot
 * add to its clock without overflow: a time at or before the epoch and a duration of 0 or less, which all remove the
 * key at once, go as {@code PXAT 1}, which does the same on any server whose clock is past the epoch; a duration
 * above {@link #LONGEST_SENT_DURATION}, which would reach past the year 292 million, goes as
 * {@code PXAT Long.MAX_VALUE}, the time the in-process store saturates such a sum to.
 * <p>
 * Stateless; the writer passed in is the calling thread's connection's.
 */
final class ClientCommands
{
    /**
     * The longest duration sent as a duration: Redis adds it to its clock without overflow as long as that clock
     * reads less than {@code 2^50} ms (until the year 37 000).
     */
    static final long LONGEST_SENT_DURATION = Long.MAX_VALUE - (1L << 50);

    private ClientCommands()
    {
    }

    /**
     * {@code SET key value [NX|XX] [PXAT t|PX d|KEEPTTL] [GET]}: {@link ExpiryMode#CLEAR} needs no option, since a
     * plain {@code SET} clears the expiry time.
     */
    static void set(
        final ClientRequestWriter request,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis, final boolean get)
    {
        final int options = (condition == SetCondition.ALWAYS ? 0 : 1) +
            (expiryMode.takesTime() ? 2 : expiryMode == ExpiryMode.KEEP ? 1 : 0) + (get ? 1 : 0);
        request.command(3 + options).keyword(SET).bulk(key, keyOffset, keyLength).bulk(value, valueOffset, valueLength);
        if (condition != SetCondition.ALWAYS)
        {
            request.keyword(condition == SetCondition.IF_ABSENT ? NX : XX);
        }
        if (expiryMode.takesTime())
        {
            expiry(request, expiryMode, expiryMillis);
        }
        else if (expiryMode == ExpiryMode.KEEP)
        {
            request.keyword(KEEPTTL);
        }
        if (get)
        {
            request.keyword(GET);
        }
    }

    /**
     * {@code GETEX key [PXAT t|PX d|PERSIST]}: {@link ExpiryMode#KEEP} is a plain {@code GETEX}.
     */
    static void getEx(
        final ClientRequestWriter request, final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode expiryMode, final long expiryMillis)
    {
        switch (expiryMode)
        {
            case AT:
            case AFTER:
                request.command(4).keyword(GETEX).bulk(key, keyOffset, keyLength);
                expiry(request, expiryMode, expiryMillis);
                break;
            case CLEAR:
                request.command(3).keyword(GETEX).bulk(key, keyOffset, keyLength).keyword(PERSIST);
                break;
            default:
                request.command(2).keyword(GETEX).bulk(key, keyOffset, keyLength);
        }
    }

    /**
     * {@code PEXPIREAT key t [NX|XX|GT|LT|XX LT]}.
     */
    static void pexpireAt(
        final ClientRequestWriter request, final DirectBuffer key, final int keyOffset, final int keyLength,
        final long expireAtMillis, final ExpireCondition condition)
    {
        if (condition == ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER)
        {
            request.command(5).keyword(PEXPIREAT).bulk(key, keyOffset, keyLength)
                .bulk(sentExpiryTime(expireAtMillis)).keyword(XX).keyword(LT);
            return;
        }
        final DirectBuffer option = expireOption(condition);
        request.command(option == null ? 3 : 4).keyword(PEXPIREAT).bulk(key, keyOffset, keyLength)
            .bulk(sentExpiryTime(expireAtMillis));
        if (option != null)
        {
            request.keyword(option);
        }
    }

    /**
     * {@code PEXPIRE key d [NX|XX|GT|LT|XX LT]}, or {@code PEXPIREAT key Long.MAX_VALUE ...} for a duration above
     * {@link #LONGEST_SENT_DURATION}. A duration of 0 or less goes as it is: Redis then removes the key (if the
     * condition holds), as the store does.
     */
    static void pexpire(
        final ClientRequestWriter request, final DirectBuffer key, final int keyOffset, final int keyLength,
        final long durationMillis, final ExpireCondition condition)
    {
        if (durationMillis > LONGEST_SENT_DURATION)
        {
            pexpireAt(request, key, keyOffset, keyLength, Long.MAX_VALUE, condition);
            return;
        }
        final DirectBuffer option = expireOption(condition);
        final int options = condition == ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER ? 2 : option == null ? 0 : 1;
        request.command(3 + options).keyword(PEXPIRE).bulk(key, keyOffset, keyLength).bulk(durationMillis);
        if (condition == ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER)
        {
            request.keyword(XX).keyword(LT);
        }
        else if (option != null)
        {
            request.keyword(option);
        }
    }

    /**
     * {@code MGET key...}.
     */
    static void mget(final ClientRequestWriter request, final List<byte[]> keys)
    {
        request.command(keys.size() + 1).keyword(MGET);
        for (final byte[] key : keys)
        {
            request.bulk(key);
        }
    }

    /**
     * {@code MGET key...} for keys that lie in one buffer.
     */
    static void mget(
        final ClientRequestWriter request, final DirectBuffer keys, final int[] offsets, final int[] lengths,
        final int count)
    {
        request.command(count + 1).keyword(MGET);
        for (int i = 0; i < count; i++)
        {
            request.bulk(keys, offsets[i], lengths[i]);
        }
    }

    /**
     * {@code MSET key value...}, or {@code MSETNX} when only absent keys may be written.
     */
    static void mset(
        final ClientRequestWriter request, final List<byte[]> keys, final List<byte[]> values, final boolean ifAbsent)
    {
        final int n = keys.size();
        request.command(2 * n + 1).keyword(ifAbsent ? MSETNX : MSET);
        for (int i = 0; i < n; i++)
        {
            request.bulk(keys.get(i)).bulk(values.get(i));
        }
    }

    /**
     * {@code SCAN cursor [MATCH pattern] COUNT count}, the cursor as the unsigned number the server gave.
     */
    static void scan(final ClientRequestWriter request, final long cursor, final byte[] pattern, final int count)
    {
        request.command(pattern == null ? 4 : 6).keyword(SCAN).bulk(Long.toUnsignedString(cursor));
        if (pattern != null)
        {
            request.keyword(MATCH).bulk(pattern);
        }
        request.keyword(COUNT).bulk(count);
    }

    /**
     * {@code INCRBYFLOAT key delta}, the delta as the text of {@link #floatText(double)}.
     */
    static void incrByFloat(
        final ClientRequestWriter request, final DirectBuffer key, final int keyOffset, final int keyLength,
        final double delta)
    {
        request.command(3).keyword(INCRBYFLOAT).bulk(key, keyOffset, keyLength).bulk(floatText(delta));
    }

    /**
     * The text of an increment that the server reads back as the same {@code double}: Java's shortest round-trip
     * form, which both Redis's {@code strtold} and agni's {@code Decimal} read. A delta that is not finite goes as
     * {@code inf} or {@code -inf}, so that the server reports it as the in-process store does: a stored value that
     * is not a number first, else {@code increment would produce NaN or Infinity}.
     */
    static String floatText(final double delta)
    {
        if (Double.isNaN(delta) || delta == Double.POSITIVE_INFINITY)
        {
            return "inf";
        }
        return delta == Double.NEGATIVE_INFINITY ? "-inf" : Double.toString(delta);
    }

    /**
     * Redis refuses an expiry time that is not positive; every time up to now has the same effect (the key is
     * gone at once), so the earliest positive one is sent instead.
     */
    static long sentExpiryTime(final long expireAtMillis)
    {
        return Math.max(1, expireAtMillis);
    }

    /**
     * {@code PXAT t} or {@code PX d}, as the class comment says.
     */
    private static void expiry(final ClientRequestWriter request, final ExpiryMode mode, final long millis)
    {
        if (mode == ExpiryMode.AT)
        {
            request.keyword(PXAT).bulk(sentExpiryTime(millis));
        }
        else if (millis <= 0)
        {
            request.keyword(PXAT).bulk(1L);
        }
        else if (millis > LONGEST_SENT_DURATION)
        {
            request.keyword(PXAT).bulk(Long.MAX_VALUE);
        }
        else
        {
            request.keyword(PX).bulk(millis);
        }
    }

    private static DirectBuffer expireOption(final ExpireCondition condition)
    {
        switch (condition)
        {
            case IF_NO_EXPIRY:
                return NX;
            case IF_HAS_EXPIRY:
                return XX;
            case IF_LATER:
                return GT;
            case IF_EARLIER:
                return LT;
            default:
                return null;
        }
    }
}
