package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The bind address means what it says: 0.0.0.0 is every IPv4 interface and no IPv6 one (a JVM socket is dual-stack
 * unless asked otherwise), :: is every interface.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("socket")
class AgniServerBindAddressTest
{
    private AgniStore store;

    @BeforeEach
    void openStore()
    {
        store = newStore();
    }

    @AfterEach
    void closeStore()
    {
        store.close();
    }

    @Test
    void anyIpv4AddressDoesNotListenOnIpv6() throws IOException
    {
        final InetAddress ipv6Loopback = ipv6LoopbackOrSkip();
        try (AgniServer server = serverOn(store).bindAddress("0.0.0.0").protectedMode(false).build().start())
        {
            assertEquals("0.0.0.0", server.localAddress().getAddress().getHostAddress());
            try (RawRespConnection client = new RawRespConnection(InetAddress.getByName("127.0.0.1"), server.port()))
            {
                assertEquals("+PONG", client.call("PING"));
            }
            assertThrows(ConnectException.class, () -> connect(ipv6Loopback, server.port()));
        }
    }

    @Test
    void anyIpv6AddressListensOnBoth() throws IOException
    {
        final InetAddress ipv6Loopback = ipv6LoopbackOrSkip();
        try (AgniServer server = serverOn(store).bindAddress("::").protectedMode(false).build().start())
        {
            for (final InetAddress address : new InetAddress[]{InetAddress.getByName("127.0.0.1"), ipv6Loopback})
            {
                try (RawRespConnection client = new RawRespConnection(address, server.port()))
                {
                    assertEquals("+PONG", client.call("PING"), address.toString());
                }
            }
        }
    }

    private static InetAddress ipv6LoopbackOrSkip() throws IOException
    {
        final InetAddress ipv6Loopback = InetAddress.getByName("::1");
        try (ServerSocket probe = new ServerSocket(0, 1, ipv6Loopback))
        {
            assumeTrue(probe.isBound(), "cannot bind the IPv6 loopback");
            return ipv6Loopback;
        }
        catch (final IOException ex)
        {
            assumeTrue(false, "no IPv6 loopback here: " + ex);
            return ipv6Loopback;
        }
    }

    private static void connect(final InetAddress address, final int port) throws IOException
    {
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress(address, port), 5_000);
        }
    }
}
