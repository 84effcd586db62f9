package io.agni.protocol.command;

import io.agni.api.AgniException;
import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.EntryTooLargeException;
import io.agni.api.FloatOverflowException;
import io.agni.api.IntegerOverflowException;
import io.agni.api.InvalidCursorException;
import io.agni.api.NotAFloatException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreConnectionException;
import io.agni.api.StoreReadOnlyException;
import io.agni.api.StoreRefusedException;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every kind of store failure, thrown by the store under a real command, becomes the RESP error the docs' failure
 * table gives (docs/protocol.md, "Failures: Java result and RESP reply"): the Redis texts for the refusals Redis
 * has, {@code MISCONF} for a read-only store, one fixed text for a closed store.
 */
class CommandProcessorErrorReplyTest
{
    static Stream<Arguments> failures()
    {
        return Stream.of(
            Arguments.of(new CapacityExceededException("memory budget exceeded: requested=64, held=0, budget=32"),
                "-OOM command not allowed when used memory > 'maxmemory'.\r\n"),
            Arguments.of(new EntryTooLargeException("key too large: length=5, limit=4"),
                "-ERR key too large: length=5, limit=4\r\n"),
            Arguments.of(new EntryTooLargeException("value too large: length=9, limit=8"),
                "-ERR value too large: length=9, limit=8\r\n"),
            Arguments.of(new NotAnIntegerException("value is not an integer or out of range: 'abc'"),
                "-ERR value is not an integer or out of range\r\n"),
            Arguments.of(new IntegerOverflowException("increment or decrement would overflow: 1 + 9223372036854775807"),
                "-ERR increment or decrement would overflow\r\n"),
            Arguments.of(new NotAFloatException(), "-ERR value is not a valid float\r\n"),
            Arguments.of(new FloatOverflowException(), "-ERR increment would produce NaN or Infinity\r\n"),
            Arguments.of(new InvalidCursorException("invalid cursor: 77"), "-ERR invalid cursor\r\n"),
            Arguments.of(new StoreRefusedException("a refusal of another store"),
                "-ERR a refusal of another store\r\n"),
            Arguments.of(new StoreReadOnlyException("store is read-only: sync failed"),
                "-MISCONF store is read-only: sync failed\r\n"),
            Arguments.of(new StoreClosedException("OffHeapStore is closed"), "-ERR the store is closed\r\n"),
            Arguments.of(new StoreConnectionException("cannot connect to localhost:6379"),
                "-ERR cannot connect to localhost:6379\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void storeFailureBecomesItsErrorReply(final AgniException failure, final String expected)
    {
        assertEquals(expected, replyTo(failure, "GET", "k"));
        assertEquals(expected, replyTo(failure, "SET", "k", "v"));
    }

    private static String replyTo(final AgniException failure, final String... command)
    {
        final AgniStore store = (AgniStore)Proxy.newProxyInstance(
            AgniStore.class.getClassLoader(), new Class<?>[] {AgniStore.class}, (proxy, method, args) ->
            {
                throw failure;
            });
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(CommandHarness.START_MILLIS);
        final CommandProcessor processor =
            new CommandProcessor(store, new LocalServerContext(null, CommandHarness.START_MILLIS), clock);
        final RespWriter out = new RespWriter(256);
        final Session session = new Session(1, "127.0.0.1:50001", "127.0.0.1:6379", clock.time());
        try
        {
            processor.execute(session, RespArgs.of(command), out);
            final byte[] bytes = new byte[out.position()];
            out.buffer().getBytes(0, bytes);
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        finally
        {
            processor.free();
        }
    }
}
