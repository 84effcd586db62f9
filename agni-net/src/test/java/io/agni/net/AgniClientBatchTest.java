package io.agni.net;

import io.agni.api.CapacityExceededException;
import io.agni.api.EntryTooLargeException;
import io.agni.api.ExpiryMode;
import io.agni.api.StoreRefusedException;
import io.agni.api.WriteBatch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AgniClient#write(WriteBatch)} against a scripted server ({@link ClientTestServer}): the commands it sends,
 * and what each way a server can answer a transaction becomes. The contract suites run it against agni's server and
 * Redis.
 */
@Tag("socket")
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AgniClientBatchTest
{
    private static final String QUEUED = "+QUEUED\r\n";

    @Test
    void aBatchIsMultiACommandPerOperationAndExecAndTheFirstMultiGoesAlone() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(transaction("*5\r\n+OK\r\n+OK\r\n:1\r\n:1\r\n:0\r\n"));
            AgniClient client = clientOf(server))
        {
            final WriteBatch batch = new WriteBatch()
                .set(bytes("a"), bytes("1"))
                .set(bytes("b"), bytes("2"), ExpiryMode.AFTER, 5_000)
                .delete(bytes("c"))
                .expire(bytes("a"), 1_800_000_000_000L)
                .persist(bytes("b"));

            client.write(batch);
            client.write(batch);

            final List<List<String>> commands = List.of(
                List.of("SET", "a", "1"), List.of("SET", "b", "2", "PX", "5000"), List.of("DEL", "c"),
                List.of("PEXPIREAT", "a", "1800000000000"), List.of("PERSIST", "b"), List.of("EXEC"));
            final List<List<String>> sent = server.commands();
            assertEquals(List.of("PING"), sent.get(0));
            assertEquals(List.of("MULTI"), sent.get(1));
            assertEquals(commands, sent.subList(2, 8));
            assertEquals(List.of("MULTI"), sent.get(8));
            assertEquals(commands, sent.subList(9, 15));
            assertEquals(15, sent.size());
        }
    }

    @Test
    void aServerWithoutTransactionsGetsNothingButMulti() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(ClientTestServer.pongThen((c, command) ->
            "-ERR unknown command 'MULTI', with args beginning with: \r\n"));
            AgniClient client = clientOf(server))
        {
            final UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
                () -> client.write(new WriteBatch().set(bytes("a"), bytes("1"))));

            assertTrue(refused.getMessage().contains("has no transactions"), refused.getMessage());
            assertEquals(List.of(List.of("PING"), List.of("MULTI")), server.commands());
        }
    }

    @Test
    void aCommandRefusedWhileQueuingBecomesItsException() throws IOException
    {
        final ClientTestServer.Responder responder = ClientTestServer.pongThen((c, command) ->
        {
            switch (command.get(0))
            {
                case "EXISTS":
                    return ":1\r\n";
                case "MULTI":
                    return "+OK\r\n";
                case "EXEC":
                    return "-EXECABORT Transaction discarded because of previous errors.\r\n";
                default:
                    return "-OOM command not allowed when used memory > 'maxmemory'.\r\n";
            }
        });
        try (ClientTestServer server = new ClientTestServer(responder); AgniClient client = clientOf(server))
        {
            assertThrows(CapacityExceededException.class,
                () -> client.write(new WriteBatch().set(bytes("a"), bytes("1")).delete(bytes("b"))));
            assertTrue(inStep(client), "the connection is in step");
        }
    }

    @Test
    void anExecTheServerRefusedBecomesTheExceptionOfItsReason() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(transaction(
            "-EXECABORT Transaction discarded because of: ERR value too large: length=9, limit=8\r\n"));
            AgniClient client = clientOf(server))
        {
            final EntryTooLargeException refused = assertThrows(EntryTooLargeException.class,
                () -> client.write(new WriteBatch().set(bytes("a"), bytes("123456789"))));
            assertEquals("value too large: length=9, limit=8", refused.getMessage());
        }
    }

    @Test
    void aBatchTheServerAppliedInPartSaysSo() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(transaction("*2\r\n+OK\r\n-ERR no room\r\n"));
            AgniClient client = clientOf(server))
        {
            final StoreRefusedException partly = assertThrows(StoreRefusedException.class,
                () -> client.write(new WriteBatch().set(bytes("a"), bytes("1")).set(bytes("b"), bytes("2"))));

            assertTrue(partly.getMessage().startsWith(ClientBatches.APPLIED_IN_PART + "operation 1 of 2 failed " +
                "(ERR no room)"), partly.getMessage());
            assertTrue(inStep(client), "the connection is in step");
        }
    }

    @Test
    void anEmptyBatchSendsNothing() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(transaction("*0\r\n"));
            AgniClient client = clientOf(server))
        {
            client.write(new WriteBatch());

            assertEquals(List.of(List.of("PING")), server.commands());
        }
    }

    /**
     * A server that answers the handshake, MULTI and the queued commands as Redis does, and EXEC with
     * {@code execReply}.
     */
    private static ClientTestServer.Responder transaction(final String execReply)
    {
        return ClientTestServer.pongThen((c, command) ->
        {
            switch (command.get(0))
            {
                case "EXISTS":
                    return ":1\r\n";
                case "MULTI":
                    return "+OK\r\n";
                case "EXEC":
                    return execReply;
                default:
                    return QUEUED;
            }
        });
    }

    /**
     * A scripted server answers EXISTS with 1: a client whose connection is out of step would read another reply.
     */
    private static boolean inStep(final AgniClient client)
    {
        return client.exists(bytes("any")) && client.openConnections() == 1;
    }

    private static AgniClient clientOf(final ClientTestServer server)
    {
        return AgniClient.builder().host("127.0.0.1").port(server.port()).connections(1).build();
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
