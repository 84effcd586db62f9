package io.agni.net;

import io.agni.api.AgniException;
import io.agni.api.AgniStore;
import io.agni.api.InvalidCursorException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreConnectionException;
import io.agni.api.StoreReadOnlyException;
import io.agni.api.StoreRefusedException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The four kinds of store failure as a user of {@link AgniClient} meets them, each from a real server: caught by
 * one {@code catch} of its kind, and all of them by one {@code catch (AgniException ex)}. Plus what Redis answers
 * that only a remote store meets: a read-only replica.
 */
@Tag("socket")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AgniClientFailureKindsTest
{
    private enum Kind
    {
        REFUSED, READ_ONLY, CLOSED, CONNECTION
    }

    @Test
    void aRefusalOfTheServersStoreIsCaughtAsRefused()
    {
        try (AgniStore store = ServerFixture.newStore();
            AgniServer server = ServerFixture.serverOn(store).build().start();
            AgniClient client = AgniClient.connect("127.0.0.1", server.port()))
        {
            client.set(bytes("k"), bytes("abc"));

            final AgniException ex = kindOf(Kind.REFUSED, () -> client.incrementBy(bytes("k"), 1));

            assertInstanceOf(NotAnIntegerException.class, ex);
            assertEquals("abc", new String(client.get(bytes("k")), StandardCharsets.US_ASCII), "the client serves on");
        }
    }

    @Test
    void aCursorTheServersStoreNeverReturnedIsAnInvalidCursorRefusal()
    {
        try (AgniStore store = ServerFixture.newStore();
            AgniServer server = ServerFixture.serverOn(store).build().start();
            AgniClient client = AgniClient.connect("127.0.0.1", server.port()))
        {
            client.set(bytes("k"), bytes("v"));

            final AgniException ex = kindOf(Kind.REFUSED, () -> client.scan(1L << 31, null, 10));

            assertInstanceOf(InvalidCursorException.class, ex);
            assertEquals("invalid cursor: 2147483648", ex.getMessage());
            assertEquals(List.of("k"), client.scan(0, null, 1000).keys().stream()
                .map(key -> new String(key, StandardCharsets.US_ASCII)).toList());
        }
    }

    @Test
    void aWriteToARedisReplicaIsCaughtAsReadOnlyAndReadsAreStillServed()
    {
        // A replica of a master that is not there: Redis serves reads (replica-serve-stale-data) and refuses writes.
        try (RedisServerProcess replica = RedisServerProcess.start("--replicaof", "127.0.0.1", "1");
            AgniClient client = AgniClient.connect("127.0.0.1", replica.port()))
        {
            final AgniException set = kindOf(Kind.READ_ONLY, () -> client.set(bytes("k"), bytes("v")));
            kindOf(Kind.READ_ONLY, () -> client.setAll(List.of(bytes("a")), List.of(bytes("1")), SetCondition.ALWAYS));
            kindOf(Kind.READ_ONLY, () -> client.incrementBy(bytes("n"), 1));

            assertTrue(set.getMessage().startsWith("READONLY "), set.getMessage());
            assertNull(client.get(bytes("k")));
        }
    }

    @Test
    void aCallAfterCloseIsCaughtAsClosed()
    {
        try (AgniStore store = ServerFixture.newStore();
            AgniServer server = ServerFixture.serverOn(store).build().start())
        {
            final AgniClient client = AgniClient.connect("127.0.0.1", server.port());
            client.close();

            kindOf(Kind.CLOSED, () -> client.get(bytes("k")));
        }
    }

    @Test
    void aServerThatWentAwayIsCaughtAsAConnectionFailure()
    {
        try (AgniStore store = ServerFixture.newStore())
        {
            final AgniServer server = ServerFixture.serverOn(store).build().start();
            try (AgniClient client = AgniClient.connect("127.0.0.1", server.port()))
            {
                server.close();

                final AgniException ex = kindOf(Kind.CONNECTION, () -> client.get(bytes("k")));

                assertTrue(ex.getMessage().contains(Integer.toString(server.port())), ex.getMessage());
            }
        }
    }

    /**
     * Runs the call in a try with one catch per kind, as an application would write it, asserts which caught it,
     * and that one catch of the root catches the same call too.
     */
    private static AgniException kindOf(final Kind expected, final Executable call)
    {
        Kind caught = null;
        AgniException failure = null;
        try
        {
            call.execute();
        }
        catch (final StoreRefusedException ex)
        {
            caught = Kind.REFUSED;
            failure = ex;
        }
        catch (final StoreReadOnlyException ex)
        {
            caught = Kind.READ_ONLY;
            failure = ex;
        }
        catch (final StoreClosedException ex)
        {
            caught = Kind.CLOSED;
            failure = ex;
        }
        catch (final StoreConnectionException ex)
        {
            caught = Kind.CONNECTION;
            failure = ex;
        }
        catch (final Throwable ex)
        {
            fail("not a store failure of any kind", ex);
        }
        assertEquals(expected, caught);
        assertThrows(AgniException.class, call, "one catch of the root");
        return failure;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
