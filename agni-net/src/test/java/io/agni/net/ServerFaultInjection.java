package io.agni.net;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Makes a server's thread fail, for tests outside this package (the launcher's): the package-private
 * {@link ServerFaults} seam behind a public method.
 */
public final class ServerFaultInjection
{
    private ServerFaultInjection()
    {
    }

    /**
     * Makes the first event-loop iteration after a client has connected throw {@code error}, once, outside any
     * connection's handling: what escapes a loop.
     *
     * @param server a server not started yet.
     * @param error  what to throw.
     */
    public static void failAnEventLoopOnceAClientConnects(final AgniServer server, final Error error)
    {
        final AtomicBoolean thrown = new AtomicBoolean();
        server.injectFaults(new ServerFaults()
        {
            @Override
            public void loopIteration()
            {
                if (server.connectedClients() > 0 && thrown.compareAndSet(false, true))
                {
                    throw error;
                }
            }
        });
    }
}
