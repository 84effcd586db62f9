package io.agni.protocol.command;

import io.agni.protocol.RespArgs;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import static io.agni.protocol.command.Command.FLAG_ADMIN;

/**
 * {@code CLIENT ID}, {@code INFO}, {@code LIST}, {@code GETNAME}, {@code SETNAME}, {@code SETINFO} and {@code HELP},
 * with Redis 7.2's replies and error texts: what Jedis and Lettuce send on connect to name themselves, and what
 * operators ask to see who is connected; client-side caching's {@code TRACKING}, {@code TRACKINGINFO},
 * {@code GETREDIR} and {@code CACHING} as a connection that never tracks ({@link ClientTrackingCommands}). Other
 * subcommands get Redis's unknown-subcommand error, which those clients ignore.
 *
 * <h2>Names</h2>
 * A client name and the library attributes are shown in CLIENT LIST, which must stay splittable on spaces, so they
 * are limited to printable ASCII without spaces, as Redis limits them.
 *
 * <h2>Threads</h2>
 * CLIENT LIST reads other sessions' volatile fields from this connection's thread: a listing is never torn but may
 * be slightly stale.
 */
final class ConnectionClientCommand
{
    static final String BAD_CLIENT_NAME = "ERR Client names cannot contain spaces, newlines or special characters.";

    private static final byte[] LIB_NAME = bytes("LIB-NAME");
    private static final byte[] LIB_VER = bytes("LIB-VER");
    private static final byte[] TYPE = bytes("TYPE");
    private static final byte[] ID = bytes("ID");

    static final Subcommands SUBCOMMANDS = new Subcommands(
        "client",
        new Command("client|id", 2, 0, 0, 0, 0, ConnectionClientCommand::clientId),
        new Command("client|info", 2, 0, 0, 0, 0, ConnectionClientCommand::clientInfo),
        new Command("client|list", -2, FLAG_ADMIN, 0, 0, 0, ConnectionClientCommand::clientList),
        new Command("client|getname", 2, 0, 0, 0, 0, ConnectionClientCommand::clientGetName),
        new Command("client|setname", 3, 0, 0, 0, 0, ConnectionClientCommand::clientSetName),
        new Command("client|setinfo", 4, 0, 0, 0, 0, ConnectionClientCommand::clientSetInfo),
        new Command("client|tracking", -3, 0, 0, 0, 0, ClientTrackingCommands::tracking),
        new Command("client|trackinginfo", 2, 0, 0, 0, 0, ClientTrackingCommands::trackingInfo),
        new Command("client|getredir", 2, 0, 0, 0, 0, ClientTrackingCommands::getRedirect),
        new Command("client|caching", 3, 0, 0, 0, 0, ClientTrackingCommands::caching),
        new Command("client|help", 2, 0, 0, 0, 0, ConnectionClientCommand::clientHelp));

    private ConnectionClientCommand()
    {
    }

    static void clientId(final CommandContext context)
    {
        context.out().integer(context.session().id());
    }

    static void clientInfo(final CommandContext context)
    {
        final StringBuilder info = new StringBuilder(256);
        appendClientInfo(info, context.session(), context.clock().time());
        context.out().verbatim(info);
    }

    /**
     * {@code CLIENT LIST [TYPE NORMAL|MASTER|REPLICA|PUBSUB] | [ID id ...]}: every session is a normal client, so
     * TYPE NORMAL lists all and the other types none.
     */
    static void clientList(final CommandContext context)
    {
        final RespArgs args = context.args();
        final long nowMillis = context.clock().time();
        final List<Session> sessions = context.server().sessions();
        final StringBuilder list = new StringBuilder(256 * sessions.size());
        if (args.count() == 4 && args.equalsIgnoreCase(2, TYPE))
        {
            final String type = args.asString(3).toLowerCase(Locale.ROOT);
            if (!List.of("normal", "master", "slave", "replica", "pubsub").contains(type))
            {
                context.out().error("ERR Unknown client type '" + args.asString(3) + "'");
                return;
            }
            if (type.equals("normal"))
            {
                sessions.forEach(session -> appendClientInfo(list, session, nowMillis));
            }
        }
        else if (args.count() > 3 && args.equalsIgnoreCase(2, ID))
        {
            for (int i = 3; i < args.count(); i++)
            {
                if (!context.parseLong(i))
                {
                    context.out().error("ERR Invalid client ID");
                    return;
                }
                final long id = context.parsedLong();
                sessions.stream().filter(s -> s.id() == id).forEach(s -> appendClientInfo(list, s, nowMillis));
            }
        }
        else if (args.count() != 2)
        {
            context.syntaxError();
            return;
        }
        else
        {
            sessions.forEach(session -> appendClientInfo(list, session, nowMillis));
        }
        context.out().verbatim(list);
    }

    /**
     * One line of {@code CLIENT LIST} in Redis 7.2's field order. A connection's memory is its buffers: {@code qbuf}
     * is the query buffer's allocated size, {@code rbs} the reply buffer's (agni keeps every reply waiting in it, so
     * {@code omem} is 0), {@code multi-mem} the transaction queue's, {@code tot-mem} their sum, which is what client
     * eviction compares. Inside {@code MULTI} the flags are {@code x} and {@code multi} counts the queued commands
     * (-1 outside). agni does not expose file descriptors, so {@code fd} is -1; the other buffer fields are 0.
     */
    static void appendClientInfo(final StringBuilder line, final Session session, final long nowMillis)
    {
        final long query = session.queryBufferBytes();
        final long reply = session.replyBufferBytes();
        final long multi = session.transactionBufferBytes();
        final int queued = session.queuedCommands();
        line.append("id=").append(session.id())
            .append(" addr=").append(session.remoteAddress())
            .append(" laddr=").append(session.localAddress())
            .append(" fd=-1")
            .append(" name=").append(session.name())
            .append(" age=").append(Math.max(0, nowMillis - session.createdMillis()) / 1000)
            .append(" idle=").append(Math.max(0, nowMillis - session.lastCommandMillis()) / 1000)
            .append(" flags=").append(queued >= 0 ? 'x' : 'N')
            .append(" db=0 sub=0 psub=0 ssub=0 multi=").append(queued)
            .append(" qbuf=").append(query)
            .append(" qbuf-free=0 argv-mem=0 multi-mem=").append(multi)
            .append(" rbs=").append(reply)
            .append(" rbp=0 obl=0 oll=0 omem=0 tot-mem=").append(query + reply + multi)
            .append(" events=r")
            .append(" cmd=").append(session.lastCommand())
            .append(" user=default redir=-1 resp=").append(session.protocol())
            .append(" lib-name=").append(session.libraryName())
            .append(" lib-ver=").append(session.libraryVersion())
            .append('\n');
    }

    static void clientGetName(final CommandContext context)
    {
        final String name = context.session().name();
        if (name.isEmpty())
        {
            context.out().nullBulk();
        }
        else
        {
            context.out().bulk(name);
        }
    }

    static void clientSetName(final CommandContext context)
    {
        if (!isValidAttribute(context.args(), 2))
        {
            context.out().error(BAD_CLIENT_NAME);
            return;
        }
        context.session().name(context.args().asString(2));
        context.out().ok();
    }

    /**
     * {@code CLIENT SETINFO LIB-NAME|LIB-VER value}: the error echoes the option as the client spelled it, as Redis
     * does; an empty value clears the attribute.
     */
    static void clientSetInfo(final CommandContext context)
    {
        final RespArgs args = context.args();
        final boolean libraryName = args.equalsIgnoreCase(2, LIB_NAME);
        if (!libraryName && !args.equalsIgnoreCase(2, LIB_VER))
        {
            context.out().error("ERR Unrecognized option '" + args.asString(2) + "'");
            return;
        }
        if (!isValidAttribute(args, 3))
        {
            context.out().error("ERR " + args.asString(2) + " cannot contain spaces, newlines or special characters.");
            return;
        }
        if (libraryName)
        {
            context.session().libraryName(args.asString(3));
        }
        else
        {
            context.session().libraryVersion(args.asString(3));
        }
        context.out().ok();
    }

    static void clientHelp(final CommandContext context)
    {
        SUBCOMMANDS.help(
            context,
            "GETNAME",
            "    Return the name of the current connection.",
            "ID",
            "    Return the ID of the current connection.",
            "INFO",
            "    Return information about the current client connection.",
            "LIST [options ...]",
            "    Return information about client connections. Options:",
            "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
            "      Return clients of specified type.",
            "SETNAME <name>",
            "    Assign the name <name> to the current connection.",
            "SETINFO <option> <value>",
            "    Set client meta attr. Options are:",
            "    * LIB-NAME: the client lib name.",
            "    * LIB-VER: the client lib version.");
    }

    /**
     * Redis's {@code validateClientAttr}: only printable ASCII without spaces ({@code '!'} to {@code '~'}), so that
     * CLIENT LIST can always be split on spaces. The empty string is valid.
     */
    static boolean isValidAttribute(final RespArgs args, final int index)
    {
        for (int i = 0, length = args.length(index); i < length; i++)
        {
            final byte b = args.byteAt(index, i);
            if (b < '!' || b > '~')
            {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(final String upperCaseAscii)
    {
        return upperCaseAscii.getBytes(StandardCharsets.US_ASCII);
    }
}
