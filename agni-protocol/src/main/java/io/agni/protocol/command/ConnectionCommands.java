package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;

import java.nio.charset.StandardCharsets;

import static io.agni.protocol.command.Command.FLAG_FAST;
import static io.agni.protocol.command.Command.FLAG_NOT_QUEUED;
import static io.agni.protocol.command.Command.FLAG_NO_AUTH;

/**
 * Connection commands: PING, ECHO, QUIT, HELLO, AUTH, SELECT and CLIENT ({@link ConnectionClientCommand}), with
 * Redis 7.2's replies and error texts.
 *
 * <h2>Protocol</h2>
 * A connection speaks RESP2 until {@code HELLO 3} switches it to RESP3; {@code HELLO 2} (and {@code RESET})
 * switch it back. {@code HELLO} answers Redis 7's map (server, version, proto, id, mode, role, modules) in the
 * version it switched to: a map in RESP3, a flat array in RESP2; {@code HELLO} without a version changes nothing.
 * Any other version gets {@code NOPROTO}, as in Redis. What RESP3 brings that agni does not serve (client-side
 * caching with {@code CLIENT TRACKING}, push messages) is refused with an error (docs/protocol.md).
 *
 * <h2>Authentication</h2>
 * Only the default user exists. Until a client authenticates on a server with a password, the
 * {@link CommandProcessor} lets through only the commands flagged {@link Command#FLAG_NO_AUTH}: AUTH, HELLO,
 * QUIT and RESET (PING gets {@code -NOAUTH}, as in Redis 7). Credentials are checked by
 * {@link ServerContext#authenticate}, in constant time.
 *
 * <h2>Allocation</h2>
 * PING, ECHO, QUIT and a valid SELECT allocate nothing. HELLO, AUTH and CLIENT allocate: they run once per
 * connection, not per request.
 */
final class ConnectionCommands
{
    static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";
    static final String NOPROTO = "NOPROTO unsupported protocol version";
    static final String HELLO_NOAUTH = "NOAUTH HELLO must be called with the client already authenticated, " +
        "otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select " +
        "the RESP protocol version at the same time";
    static final String AUTH_WITHOUT_PASSWORD = "ERR AUTH <password> called without any password configured for " +
        "the default user. Are you sure your configuration is correct?";

    private static final byte[] AUTH = bytes("AUTH");
    private static final byte[] SETNAME = bytes("SETNAME");

    private ConnectionCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
        table
            .add("ping", -1, FLAG_FAST, 0, 0, 0, ConnectionCommands::ping)
            .add("echo", 2, FLAG_FAST, 0, 0, 0, ConnectionCommands::echo)
            .add("quit", -1, FLAG_FAST | FLAG_NO_AUTH | FLAG_NOT_QUEUED, 0, 0, 0, ConnectionCommands::quit)
            .add("hello", -1, FLAG_FAST | FLAG_NO_AUTH, 0, 0, 0, ConnectionCommands::hello)
            .add("auth", -2, FLAG_FAST | FLAG_NO_AUTH, 0, 0, 0, ConnectionCommands::auth)
            .add("select", 2, FLAG_FAST, 0, 0, 0, ConnectionCommands::select)
            .add("client", -2, 0, 0, 0, 0, ConnectionClientCommand.SUBCOMMANDS::dispatch);
    }

    static void ping(final CommandContext context)
    {
        final int count = context.args().count();
        if (count == 1)
        {
            context.out().pong();
        }
        else if (count == 2)
        {
            context.out().bulk(context.argBuffer(), context.argOffset(1), context.argLength(1));
        }
        else
        {
            context.out().error("ERR wrong number of arguments for 'ping' command");
        }
    }

    static void echo(final CommandContext context)
    {
        context.out().bulk(context.argBuffer(), context.argOffset(1), context.argLength(1));
    }

    static void quit(final CommandContext context)
    {
        context.out().ok();
        context.closeAfterReply();
    }

    static void select(final CommandContext context)
    {
        if (!context.parseLong(1) || context.parsedLong() != (int)context.parsedLong())
        {
            context.notAnInteger();
        }
        else if (context.parsedLong() != 0)
        {
            context.out().error("ERR DB index is out of range");
        }
        else
        {
            context.out().ok();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // HELLO and AUTH
    // ------------------------------------------------------------------------------------------------------------

    /**
     * {@code HELLO [protover [AUTH username password] [SETNAME clientname]]}, checked in Redis's order: the version,
     * the options (SETNAME's name is validated here), the credentials, then whether the client is authenticated.
     */
    static void hello(final CommandContext context)
    {
        final RespArgs args = context.args();
        final RespWriter out = context.out();
        final int version;
        if (args.count() >= 2)
        {
            version = protocolVersion(context);
            if (version < 0)
            {
                return;
            }
        }
        else
        {
            version = out.protocol();
        }
        String username = null;
        byte[] password = null;
        String name = null;
        for (int i = 2; i < args.count(); i++)
        {
            final int more = args.count() - 1 - i;
            if (args.equalsIgnoreCase(i, AUTH) && more >= 2)
            {
                username = args.asString(i + 1);
                password = args.copy(i + 2);
                i += 2;
            }
            else if (args.equalsIgnoreCase(i, SETNAME) && more >= 1)
            {
                if (!ConnectionClientCommand.isValidAttribute(args, i + 1))
                {
                    out.error(ConnectionClientCommand.BAD_CLIENT_NAME);
                    return;
                }
                name = args.asString(i + 1);
                i++;
            }
            else
            {
                out.error("ERR Syntax error in HELLO option '" + args.asString(i) + "'");
                return;
            }
        }
        final Session session = context.session();
        if (password != null && !authenticate(context, username, password))
        {
            out.error(WRONGPASS);
            return;
        }
        if (!session.authenticated() && context.server().authenticationRequired())
        {
            out.error(HELLO_NOAUTH);
            return;
        }
        if (name != null)
        {
            session.name(name);
        }
        context.protocol(version);
        helloReply(out, session);
    }

    /**
     * The version HELLO asks for, 2 or 3; -1 once an error is written.
     */
    private static int protocolVersion(final CommandContext context)
    {
        if (!context.parseLong(1))
        {
            context.out().error("ERR Protocol version is not an integer or out of range");
            return -1;
        }
        final long version = context.parsedLong();
        if (version != 2 && version != 3)
        {
            context.out().error(NOPROTO);
            return -1;
        }
        return (int)version;
    }

    private static void helloReply(final RespWriter out, final Session session)
    {
        out.mapHeader(7)
            .bulk("server").bulk("agni")
            .bulk("version").bulk(ServerCommands.REDIS_VERSION)
            .bulk("proto").integer(out.protocol())
            .bulk("id").integer(session.id())
            .bulk("mode").bulk("standalone")
            .bulk("role").bulk("master")
            .bulk("modules").arrayHeader(0);
    }

    /**
     * {@code AUTH [username] password}. The one-argument form on a server without a password is Redis's
     * configuration error; a failed attempt leaves an authenticated client authenticated, as in Redis.
     */
    static void auth(final CommandContext context)
    {
        final RespArgs args = context.args();
        if (args.count() > 3)
        {
            context.syntaxError();
            return;
        }
        if (args.count() == 2 && !context.server().authenticationRequired())
        {
            context.out().error(AUTH_WITHOUT_PASSWORD);
            return;
        }
        final String username = args.count() == 3 ? args.asString(1) : null;
        if (authenticate(context, username, args.copy(args.count() - 1)))
        {
            context.out().ok();
        }
        else
        {
            context.out().error(WRONGPASS);
        }
    }

    private static boolean authenticate(final CommandContext context, final String username, final byte[] password)
    {
        if (context.server().authenticate(username, password))
        {
            context.session().authenticated(true);
            return true;
        }
        return false;
    }

    private static byte[] bytes(final String upperCaseAscii)
    {
        return upperCaseAscii.getBytes(StandardCharsets.US_ASCII);
    }
}
