package io.agni.bench.net.target;

import io.agni.bench.net.load.KeyFill;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A server already running at a host and port: the harness only checks that it answers {@code PING}, and leaves
 * it running.
 */
final class AddressTarget implements Target
{
    private final TargetSpec spec;

    AddressTarget(final TargetSpec spec)
    {
        this.spec = spec;
    }

    @Override
    public TargetSpec spec()
    {
        return spec;
    }

    @Override
    public InetSocketAddress start(final Path logDirectory, final Duration timeout)
        throws IOException, InterruptedException
    {
        final InetSocketAddress address = new InetSocketAddress(spec.host(), spec.port());
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!KeyFill.ping(address))
        {
            if (System.nanoTime() > deadline)
            {
                throw new IOException(spec.name() + ": " + address + " does not answer PING with +PONG");
            }
            Thread.sleep(100);
        }
        return address;
    }

    @Override
    public List<String> command()
    {
        return List.of();
    }

    @Override
    public long pid()
    {
        return -1;
    }

    @Override
    public boolean alive()
    {
        return true;
    }

    @Override
    public void close()
    {
    }
}
