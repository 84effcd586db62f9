package io.agni.net;

import io.agni.api.AgniStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Three agni servers on free loopback ports behind a nutcracker started on the configuration of
 * {@code docs/scale-out.md}, read from that file: only its listening port and the three servers' ports are changed,
 * and its {@code redis_auth} is the servers' password. Closing it stops the proxy by its process id, then the
 * servers and their stores.
 */
final class NutcrackerPool implements AutoCloseable
{
    /**
     * The servers of the documented configuration, in its order.
     */
    static final int SERVERS = 3;

    private static final String MARKER = "<!-- nutcracker-config";
    private static final String DOCUMENTED_LISTEN = "127.0.0.1:22121";
    private static final int DOCUMENTED_FIRST_PORT = 7001;
    private static final int START_ATTEMPTS = 3;

    final String password;
    final AgniStore[] stores = new AgniStore[SERVERS];
    final AgniServer[] servers = new AgniServer[SERVERS];
    final int proxyPort;
    private final NutcrackerProcess proxy;

    private NutcrackerPool()
    {
        final String documented = documentedConfiguration();
        password = redisAuth(documented);
        NutcrackerProcess started = null;
        int port = 0;
        try
        {
            for (int i = 0; i < SERVERS; i++)
            {
                stores[i] = newStore();
                servers[i] = serverOn(stores[i]).password(password).build().start();
            }
            IllegalStateException lastFailure = null;
            for (int attempt = 0; attempt < START_ATTEMPTS && started == null; attempt++)
            {
                port = NutcrackerProcess.freePort();
                try
                {
                    started = NutcrackerProcess.start(configuration(documented, port), port, password);
                }
                catch (final IllegalStateException ex)
                {
                    lastFailure = ex;
                }
            }
            if (started == null)
            {
                throw lastFailure;
            }
        }
        catch (final RuntimeException | Error ex)
        {
            closeServers();
            throw ex;
        }
        proxy = started;
        proxyPort = port;
    }

    /**
     * Starts the servers and the proxy.
     *
     * @return the running pool.
     */
    static NutcrackerPool start()
    {
        NutcrackerProcess.requireNutcracker();
        return new NutcrackerPool();
    }

    /**
     * A client of the proxy, with the configuration's password.
     *
     * @return a new client.
     */
    AgniClient client()
    {
        return AgniClient.builder().host("127.0.0.1").port(proxyPort).password(password).connections(2).build();
    }

    /**
     * The configuration block of docs/scale-out.md, as it stands.
     *
     * @return the YAML text.
     */
    static String documentedConfiguration()
    {
        final String page;
        try
        {
            page = Files.readString(docsPage(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final int marker = page.indexOf(MARKER);
        final int start = page.indexOf("```yaml\n", marker);
        final int end = page.indexOf("\n```", start + 1);
        if (marker < 0 || start < 0 || end < 0)
        {
            fail("docs/scale-out.md has no ```yaml block after " + MARKER);
        }
        return page.substring(start + "```yaml\n".length(), end + 1);
    }

    /**
     * The documented configuration with its ports replaced by this pool's: the text must hold the documented
     * listening address and server addresses exactly once each, so that a change to the page that this test
     * would silently not exercise fails it instead.
     */
    private String configuration(final String documented, final int listenPort)
    {
        String text = replaceOnce(documented, "listen: " + DOCUMENTED_LISTEN, "listen: 127.0.0.1:" + listenPort);
        for (int i = 0; i < SERVERS; i++)
        {
            final String server = "- 127.0.0.1:" + (DOCUMENTED_FIRST_PORT + i) + ":1 agni" + (i + 1) + "\n";
            text = replaceOnce(text, server, "- 127.0.0.1:" + servers[i].port() + ":1 agni" + (i + 1) + "\n");
        }
        return text;
    }

    private static String replaceOnce(final String text, final String documented, final String replacement)
    {
        final int at = text.indexOf(documented);
        assertEquals(at >= 0 ? at : -2, text.lastIndexOf(documented),
            "docs/scale-out.md's configuration must hold '" + documented.strip() + "' exactly once:\n" + text);
        return text.substring(0, at) + replacement + text.substring(at + documented.length());
    }

    private static String redisAuth(final String configuration)
    {
        final Matcher matcher = Pattern.compile("(?m)^\\s*redis_auth:\\s*(\\S+)\\s*$").matcher(configuration);
        if (!matcher.find())
        {
            fail("docs/scale-out.md's configuration has no redis_auth:\n" + configuration);
        }
        return matcher.group(1);
    }

    private static Path docsPage()
    {
        Path directory = Path.of("").toAbsolutePath();
        while (directory != null)
        {
            final Path page = directory.resolve("docs").resolve("scale-out.md");
            if (Files.isRegularFile(page))
            {
                return page;
            }
            directory = directory.getParent();
        }
        throw new IllegalStateException("docs/scale-out.md not found above " + Path.of("").toAbsolutePath());
    }

    /**
     * The server, by index, that holds a key now, or -1 when none does.
     *
     * @param key the key.
     * @return the index.
     */
    int owner(final byte[] key)
    {
        int owner = -1;
        for (int i = 0; i < SERVERS; i++)
        {
            if (stores[i].exists(key))
            {
                if (owner >= 0)
                {
                    fail("a key is on two servers: " + new String(key, StandardCharsets.UTF_8));
                }
                owner = i;
            }
        }
        return owner;
    }

    /**
     * Clears every server's store (the proxy refuses FLUSHALL).
     */
    void clearAll()
    {
        for (final AgniStore store : stores)
        {
            store.clear();
        }
    }

    @Override
    public void close()
    {
        try
        {
            if (proxy != null)
            {
                proxy.close();
            }
        }
        finally
        {
            closeServers();
        }
    }

    private void closeServers()
    {
        ClientContractTests.closeAll(servers[0], servers[1], servers[2], stores[0], stores[1], stores[2]);
    }
}
