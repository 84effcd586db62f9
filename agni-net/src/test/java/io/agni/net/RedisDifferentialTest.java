package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same commands to redis-server and to agni, under RESP2 and under RESP3, their raw replies compared byte for
 * byte: every command of agni's {@code COMMAND LIST} with its error cases ({@code differential-commands.txt}, and
 * every command with too few arguments). A step whose replies differ passes only if docs/protocol.md lists it as
 * a deliberate difference (between {@link DifferentialScript#BEGIN} and {@link DifferentialScript#END}), compared
 * then as the list says; so an undocumented difference fails. Both servers have a password, so the steps before
 * {@code AUTH} are compared too. Skipped without redis-server, failed then when {@code CI} is set.
 */
@Tag("redis")
@Tag("socket")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisDifferentialTest
{
    private static final String SCRIPT = "differential-commands.txt";
    private static final Path DOC = Path.of("..", "docs", "protocol.md");
    private static final String PASSWORD = "differential-secret";
    private static final int READ_TIMEOUT_MS = 10_000;
    private static final int SHOWN = 300;

    private static RedisServerProcess redis;
    private static AgniStore store;
    private static AgniServer agni;

    @BeforeAll
    static void startServers()
    {
        redis = RedisServerProcess.start("--requirepass", PASSWORD);
        store = newStore();
        agni = serverOn(store).password(PASSWORD).build().start();
    }

    @AfterAll
    static void stopServers()
    {
        closeQuietly(agni);
        closeQuietly(store);
        closeQuietly(redis);
    }

    @ParameterizedTest(name = "RESP{0}")
    @ValueSource(ints = { 2, 3 })
    void everyStepRepliesAsRedisDoesOrAsDocsProtocolMdSays(final int protocol) throws IOException
    {
        final Map<String, DifferentialScript.Difference> differences = differences();
        final List<DifferentialScript.Step> steps = withAritySteps(DifferentialScript.steps(SCRIPT));
        final List<String> failures = new ArrayList<>();
        final List<String> unneeded = new ArrayList<>();
        try (Peer toRedis = new Peer(redis.port()); Peer toAgni = new Peer(agni.port()))
        {
            for (final DifferentialScript.Step step : steps)
            {
                final List<byte[]> args = step.resolve(protocol, PASSWORD);
                final RawReply fromRedis = toRedis.call(args);
                final RawReply fromAgni = toAgni.call(args);
                final DifferentialScript.Difference listed = differences.get(step.id());
                final boolean applies = listed != null && listed.protocols().contains(protocol);
                if (Arrays.equals(fromRedis.bytes(), fromAgni.bytes()))
                {
                    if (applies && listed.compare() != DifferentialScript.Compare.ANY)
                    {
                        unneeded.add(step.id());
                    }
                    continue;
                }
                if (!applies || !listed.compare().accepts(fromRedis, fromAgni))
                {
                    failures.add(step.id() + " (" + String.join(" ", show(args)) + ")" +
                        (applies ? " is listed as '" + listed.compare().name().toLowerCase(Locale.ROOT) +
                            "' but differs more" : " differs and docs/protocol.md does not list it") +
                        "\n    redis: " + fromRedis.show(SHOWN) + "\n    agni:  " + fromAgni.show(SHOWN));
                }
            }
            assertTrue(toRedis.closedAfterQuit(), "redis-server kept the connection open after QUIT");
            assertTrue(toAgni.closedAfterQuit(), "agni kept the connection open after QUIT");
        }
        if (!unneeded.isEmpty())
        {
            System.out.println("RESP" + protocol + ": listed differences whose replies were the same this run: " +
                unneeded);
        }
        assertTrue(failures.isEmpty(), "RESP" + protocol + ": " + failures.size() + " steps differ from " +
            "redis-server:\n" + String.join("\n", failures));
    }

    @Test
    void theStepsCoverEveryCommandOfAgnisCommandList() throws IOException
    {
        final Set<String> sent = new HashSet<>();
        for (final DifferentialScript.Step step : DifferentialScript.steps(SCRIPT))
        {
            sent.add(step.args().get(0).toLowerCase(Locale.ROOT));
        }
        final Set<String> missing = new TreeSet<>(agniCommands());
        missing.removeAll(sent);
        assertEquals(Set.of(), missing, "commands of agni's COMMAND LIST that " + SCRIPT + " never sends");
    }

    @Test
    void everyListedDifferenceNamesAStep() throws IOException
    {
        final Set<String> ids = new HashSet<>();
        for (final DifferentialScript.Step step : withAritySteps(DifferentialScript.steps(SCRIPT)))
        {
            assertTrue(ids.add(step.id()), "step " + step.id() + " twice in " + SCRIPT);
        }
        final Set<String> unknown = new TreeSet<>(differences().keySet());
        unknown.removeAll(ids);
        assertEquals(Set.of(), unknown, "docs/protocol.md lists differences of steps that do not exist");
    }

    private static Map<String, DifferentialScript.Difference> differences() throws IOException
    {
        return DifferentialScript.differences(Files.readString(DOC));
    }

    /**
     * After the step {@code arity-begin}: every command of agni's table with too few arguments (its name alone),
     * or one too many for a command of arity 1; commands that take any number (arity -1) have no such error.
     */
    private static List<DifferentialScript.Step> withAritySteps(final List<DifferentialScript.Step> steps)
        throws IOException
    {
        final List<DifferentialScript.Step> all = new ArrayList<>();
        for (final DifferentialScript.Step step : steps)
        {
            all.add(step);
            if (!step.id().equals("arity-begin"))
            {
                continue;
            }
            try (Peer toAgni = new Peer(agni.port()))
            {
                toAgni.call(List.of(bytes("AUTH"), bytes(PASSWORD)));
                for (final String name : agniCommands(toAgni))
                {
                    final RawReply info = toAgni.call(List.of(bytes("COMMAND"), bytes("INFO"), bytes(name)));
                    final int arity = Integer.parseInt(info.elements().get(0).elements().get(1).text());
                    if (Math.abs(arity) >= 2)
                    {
                        all.add(new DifferentialScript.Step("arity-" + name, List.of(name)));
                    }
                    else if (arity == 1)
                    {
                        all.add(new DifferentialScript.Step("arity-" + name, List.of(name, "extra")));
                    }
                }
            }
        }
        return all;
    }

    private static Set<String> agniCommands() throws IOException
    {
        try (Peer toAgni = new Peer(agni.port()))
        {
            toAgni.call(List.of(bytes("AUTH"), bytes(PASSWORD)));
            return agniCommands(toAgni);
        }
    }

    /**
     * agni's {@code COMMAND LIST}, without the subcommands ({@code client|list}).
     */
    private static Set<String> agniCommands(final Peer toAgni) throws IOException
    {
        final Set<String> names = new TreeSet<>();
        for (final RawReply name : toAgni.call(List.of(bytes("COMMAND"), bytes("LIST"))).elements())
        {
            if (name.text().indexOf('|') < 0)
            {
                names.add(name.text());
            }
        }
        assertTrue(names.size() > 50, () -> "agni's COMMAND LIST: " + names);
        return names;
    }

    private static List<String> show(final List<byte[]> args)
    {
        final List<String> shown = new ArrayList<>();
        for (final byte[] arg : args)
        {
            shown.add(new String(arg, StandardCharsets.ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n"));
        }
        return shown;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * One connection to a server: a command written as a multibulk, its reply read whole.
     */
    private static final class Peer implements AutoCloseable
    {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Peer(final int port) throws IOException
        {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), READ_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        RawReply call(final List<byte[]> args) throws IOException
        {
            final ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("*" + args.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (final byte[] arg : args)
            {
                request.writeBytes(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                request.writeBytes(arg);
                request.writeBytes(new byte[]{'\r', '\n'});
            }
            out.write(request.toByteArray());
            out.flush();
            return RawReply.read(in);
        }

        boolean closedAfterQuit() throws IOException
        {
            return in.read() < 0;
        }

        @Override
        public void close() throws IOException
        {
            socket.close();
        }
    }
}
