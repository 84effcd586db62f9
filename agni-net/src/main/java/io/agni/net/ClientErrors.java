package io.agni.net;

import io.agni.api.AgniException;
import io.agni.api.CapacityExceededException;
import io.agni.api.EntryTooLargeException;
import io.agni.api.FloatOverflowException;
import io.agni.api.IntegerOverflowException;
import io.agni.api.InvalidCursorException;
import io.agni.api.NotAFloatException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.StoreReadOnlyException;
import io.agni.api.StoreRefusedException;

/**
 * Turns a server's error reply back into the exception the in-process store throws for the same failure, so that
 * code behaves the same against an embedded and a remote store.
 *
 * <table>
 * <caption>Error replies and the exceptions they become</caption>
 * <tr><th>error reply (Redis's and agni's text)</th><th>exception</th></tr>
 * <tr><td>{@code ERR value is not an integer or out of range}</td><td>{@link NotAnIntegerException}</td></tr>
 * <tr><td>{@code ERR increment or decrement would overflow}, {@code ERR decrement would overflow}</td>
 *     <td>{@link IntegerOverflowException}</td></tr>
 * <tr><td>{@code ERR value is not a valid float}</td><td>{@link NotAFloatException}</td></tr>
 * <tr><td>{@code ERR increment would produce NaN or Infinity}</td><td>{@link FloatOverflowException}</td></tr>
 * <tr><td>{@code OOM command not allowed when used memory > 'maxmemory'.}</td>
 *     <td>{@link CapacityExceededException}</td></tr>
 * <tr><td>{@code ERR string exceeds maximum allowed size (proto-max-bulk-len)}, and agni's
 *     {@code ERR key too large: ...} and {@code ERR value too large: ...}</td>
 *     <td>{@link EntryTooLargeException}</td></tr>
 * <tr><td>{@code ERR invalid cursor}</td><td>{@link InvalidCursorException}</td></tr>
 * <tr><td>{@code READONLY ...} (a Redis replica), {@code MISCONF ...} (a Redis that cannot persist, and agni's
 *     read-only store)</td><td>{@link StoreReadOnlyException} with the whole text, error code first</td></tr>
 * <tr><td>any other</td><td>{@link StoreRefusedException} with the whole text, error code first</td></tr>
 * </table>
 * The mapped {@code ERR} errors carry the text without its {@code ERR} code (the fixed-message ones carry their
 * own).
 */
final class ClientErrors
{
    private static final String ERR = "ERR ";

    private ClientErrors()
    {
    }

    /**
     * The exception for an error reply.
     *
     * @param text the error reply without its leading {@code -}, e.g. {@code "ERR syntax error"}.
     * @return the exception to throw.
     */
    static AgniException toException(final String text)
    {
        if (text.startsWith("OOM"))
        {
            return new CapacityExceededException(text);
        }
        if (text.startsWith("READONLY") || text.startsWith("MISCONF"))
        {
            return new StoreReadOnlyException(text);
        }
        if (!text.startsWith(ERR))
        {
            return new StoreRefusedException(text);
        }
        final String message = text.substring(ERR.length());
        if (message.startsWith("value is not an integer or out of range"))
        {
            return new NotAnIntegerException(message);
        }
        if (message.startsWith("increment or decrement would overflow") || message.startsWith("decrement would overflow"))
        {
            return new IntegerOverflowException(message);
        }
        if (message.startsWith(NotAFloatException.MESSAGE))
        {
            return new NotAFloatException();
        }
        if (message.contains("NaN or Infinity"))
        {
            return new FloatOverflowException();
        }
        if (message.startsWith("string exceeds maximum allowed size") ||
            message.startsWith("key too large:") || message.startsWith("value too large:"))
        {
            return new EntryTooLargeException(message);
        }
        if (message.startsWith("invalid cursor"))
        {
            return new InvalidCursorException(message);
        }
        return new StoreRefusedException(text);
    }
}
