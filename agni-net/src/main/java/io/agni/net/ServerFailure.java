package io.agni.net;

import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The failure that stops a server: a {@link Throwable} that escaped the accept loop or an event loop's loop (not
 * one connection's handling, which closes only that connection). The first one is kept, logged once at ERROR with
 * its stack trace, and stops the whole server, so that it is never left half alive (accepting with no loop to serve
 * the connections, or serving with no acceptor); later ones, from threads failing while it stops, are logged at
 * DEBUG only (an error the JVM preallocated may be shared, so it is not changed by adding them to it).
 * <p>
 * Thread-safe: the acceptor and every event loop of a server share one.
 */
final class ServerFailure
{
    private final Logger log;
    private final AtomicReference<Throwable> first = new AtomicReference<>();
    private volatile Runnable stop = () ->
    {
    };

    ServerFailure(final Logger log)
    {
        this.log = log;
    }

    /**
     * Sets what stops the server. Called once, before the server's threads start.
     */
    void stopWith(final Runnable stop)
    {
        this.stop = stop;
    }

    /**
     * Records a failure the server cannot serve on after, logs the first at ERROR and stops the server. Any of the
     * server's threads; returns once the server has stopped (or, for a later failure, at once).
     *
     * @param thread the name of the thread that failed.
     * @param cause  what escaped its loop.
     */
    void fatal(final String thread, final Throwable cause)
    {
        final Throwable earlier = first.compareAndExchange(null, cause);
        if (earlier != null)
        {
            log.debug("{} failed too while the server stopped: {}", thread, cause.toString());
            return;
        }
        log.error("{} failed; stopping the server: {}", thread, cause.toString(), cause);
        stop.run();
    }

    /**
     * @return the first failure, or {@code null} if none.
     */
    Throwable failure()
    {
        return first.get();
    }
}
