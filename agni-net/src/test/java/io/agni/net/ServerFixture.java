package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.store.OffHeapStore;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the server tests share: a small store with a fixed shard count, a builder on an ephemeral loopback port
 * with two event loops, and polling with a deadline instead of sleeping.
 */
final class ServerFixture
{
    static final long AWAIT_MS = 10_000;
    private static final long POLL_INTERVAL_NS = 5_000_000;

    private ServerFixture()
    {
    }

    static AgniStore newStore()
    {
        return OffHeapStore.builder().shards(4).maxMemory(64L << 20).build();
    }

    static AgniServerBuilder serverOn(final AgniStore store)
    {
        return AgniServer.builder(store).port(0).eventLoopThreads(2);
    }

    /**
     * Polls the condition until it holds, failing the test with the message if it does not within
     * {@link #AWAIT_MS}.
     */
    static void await(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + AWAIT_MS * 1_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out after " + AWAIT_MS + " ms waiting for: " + what);
            }
            LockSupport.parkNanos(POLL_INTERVAL_NS);
            if (Thread.interrupted())
            {
                fail("interrupted waiting for: " + what);
            }
        }
    }

    /**
     * @return an IPv4 address of this machine that is not a loopback or link-local one, if it has any.
     */
    static Optional<InetAddress> nonLoopbackAddress() throws SocketException
    {
        return NetworkInterface.networkInterfaces()
            .filter(ServerFixture::isUp)
            .flatMap(NetworkInterface::inetAddresses)
            .filter(address -> address instanceof Inet4Address)
            .filter(address -> !address.isLoopbackAddress() && !address.isLinkLocalAddress())
            .findFirst();
    }

    private static boolean isUp(final NetworkInterface networkInterface)
    {
        try
        {
            return networkInterface.isUp() && !networkInterface.isLoopback();
        }
        catch (final SocketException ex)
        {
            return false;
        }
    }

    static void closeQuietly(final AutoCloseable closeable)
    {
        try
        {
            if (closeable != null)
            {
                closeable.close();
            }
        }
        catch (final IOException ex)
        {
            // the test is already over
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
