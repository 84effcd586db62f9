package io.agni.net;

import io.agni.api.AgniException;
import io.agni.api.CapacityExceededException;
import io.agni.api.EntryTooLargeException;
import io.agni.api.FloatOverflowException;
import io.agni.api.IntegerOverflowException;
import io.agni.api.NotAFloatException;
import io.agni.api.NotAnIntegerException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ClientErrorsTest
{
    @ParameterizedTest(name = "-{0}")
    @CsvSource(delimiter = '|', value = {
        "ERR value is not an integer or out of range | NotAnIntegerException | value is not an integer or out of range",
        "ERR increment or decrement would overflow | IntegerOverflowException | increment or decrement would overflow",
        "ERR decrement would overflow | IntegerOverflowException | decrement would overflow",
        "ERR value is not a valid float | NotAFloatException | value is not a valid float",
        "ERR increment would produce NaN or Infinity | FloatOverflowException | increment would produce NaN or Infinity",
        "OOM command not allowed when used memory > 'maxmemory'. | CapacityExceededException | " +
            "OOM command not allowed when used memory > 'maxmemory'.",
        "ERR string exceeds maximum allowed size (proto-max-bulk-len) | EntryTooLargeException | " +
            "string exceeds maximum allowed size (proto-max-bulk-len)",
        "ERR key too large: length=4097, limit=4096 | EntryTooLargeException | key too large: length=4097, limit=4096",
        "ERR value too large: length=9, limit=8 | EntryTooLargeException | value too large: length=9, limit=8",
        "ERR invalid cursor | InvalidCursorException | invalid cursor",
        "READONLY You can't write against a read only replica. | StoreReadOnlyException | " +
            "READONLY You can't write against a read only replica.",
        "MISCONF Errors writing to the AOF file: No space left on device | StoreReadOnlyException | " +
            "MISCONF Errors writing to the AOF file: No space left on device",
        "WRONGTYPE Operation against a key holding the wrong kind of value | StoreRefusedException | " +
            "WRONGTYPE Operation against a key holding the wrong kind of value",
        "ERR syntax error | StoreRefusedException | ERR syntax error",
        "ERR the store is closed | StoreRefusedException | ERR the store is closed",
        "NOSCRIPT No matching script | StoreRefusedException | NOSCRIPT No matching script"
    })
    void errorReplyBecomesTheStoresException(final String reply, final String type, final String message)
    {
        final AgniException ex = ClientErrors.toException(reply);

        assertEquals(type, ex.getClass().getSimpleName());
        assertEquals(message, ex.getMessage());
    }

    @org.junit.jupiter.api.Test
    void mappedTypesAreTheApisOwn()
    {
        assertEquals(NotAnIntegerException.class, ClientErrors.toException("ERR value is not an integer or out of range")
            .getClass());
        assertEquals(IntegerOverflowException.class, ClientErrors.toException("ERR decrement would overflow").getClass());
        assertEquals(NotAFloatException.class, ClientErrors.toException("ERR value is not a valid float").getClass());
        assertEquals(FloatOverflowException.class,
            ClientErrors.toException("ERR increment would produce NaN or Infinity").getClass());
        assertEquals(CapacityExceededException.class, ClientErrors.toException("OOM x").getClass());
        assertEquals(EntryTooLargeException.class,
            ClientErrors.toException("ERR string exceeds maximum allowed size (proto-max-bulk-len)").getClass());
    }
}
