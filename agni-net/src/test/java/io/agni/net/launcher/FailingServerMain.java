package io.agni.net.launcher;

import io.agni.net.ServerFaultInjection;

/**
 * The launcher's {@code main}, with a server whose event loop fails once a client has connected: what
 * {@link ServerMainTest} runs in a separate JVM to see the exit status and the log of a server that stops itself.
 */
public final class FailingServerMain
{
    private FailingServerMain()
    {
    }

    /**
     * Runs the launcher.
     *
     * @param args the launcher's command line.
     */
    public static void main(final String[] args)
    {
        ServerMain.launch(args, server -> ServerFaultInjection.failAnEventLoopOnceAClientConnects(
            server, new OutOfMemoryError("injected by FailingServerMain")));
    }
}
