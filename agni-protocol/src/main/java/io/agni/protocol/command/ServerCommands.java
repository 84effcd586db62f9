package io.agni.protocol.command;

import io.agni.protocol.RespArgs;

import java.nio.charset.StandardCharsets;

import static io.agni.protocol.command.Command.FLAG_FAST;
import static io.agni.protocol.command.Command.FLAG_READONLY;
import static io.agni.protocol.command.Command.FLAG_WRITE;

/**
 * Server commands: CONFIG ({@link ServerConfigCommand}), COMMAND ({@link ServerCommandCommand}), INFO
 * ({@link ServerInfoCommand}), DBSIZE, FLUSHDB, FLUSHALL and TIME, with Redis 7.2's replies and error texts, so
 * that tools which ask a server about itself on connect (redis-cli, redis-benchmark, Jedis, Lettuce) get the
 * answers they expect.
 *
 * <h2>Identity</h2>
 * agni reports itself as Redis {@value #REDIS_VERSION} (INFO's {@code redis_version}, HELLO's {@code version}),
 * the version whose command set and reply formats it follows ({@code CLIENT SETINFO}, CLIENT LIST's
 * {@code lib-name}); its own version is INFO's {@code agni_version}.
 *
 * <h2>One database</h2>
 * agni has one keyspace, Redis's database 0: FLUSHDB and FLUSHALL both clear the store, and their {@code ASYNC}
 * option is accepted but the clear is always synchronous.
 *
 * <h2>Allocation</h2>
 * DBSIZE and TIME allocate nothing; the other replies are built as text and allocate, off the hot path.
 */
final class ServerCommands
{
    /**
     * The Redis version agni reports and follows.
     */
    static final String REDIS_VERSION = "7.2.4";

    private static final byte[] SYNC = "SYNC".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ASYNC = "ASYNC".getBytes(StandardCharsets.US_ASCII);

    private ServerCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
        table
            .add("config", -2, 0, 0, 0, 0, ServerConfigCommand.SUBCOMMANDS::dispatch)
            .add("command", -1, 0, 0, 0, 0, ServerCommandCommand::command)
            .add("info", -1, 0, 0, 0, 0, ServerInfoCommand::info)
            .add("dbsize", 1, FLAG_READONLY | FLAG_FAST, 0, 0, 0, ServerCommands::dbsize)
            .add("flushdb", -1, FLAG_WRITE, 0, 0, 0, ServerCommands::flush)
            .add("flushall", -1, FLAG_WRITE, 0, 0, 0, ServerCommands::flush)
            .add("time", 1, FLAG_FAST, 0, 0, 0, ServerCommands::time);
    }

    static void dbsize(final CommandContext context)
    {
        context.out().integer(context.store().size());
    }

    static void flush(final CommandContext context)
    {
        final RespArgs args = context.args();
        final int count = args.count();
        if (count == 1 || (count == 2 && (args.equalsIgnoreCase(1, SYNC) || args.equalsIgnoreCase(1, ASYNC))))
        {
            context.store().clear();
            context.out().ok();
        }
        else
        {
            context.syntaxError();
        }
    }

    /**
     * {@code TIME} from the server's clock ({@link CommandContext#clock()}: the store's own unless the server was
     * given another), which has millisecond resolution: the microseconds are a multiple of 1000.
     */
    static void time(final CommandContext context)
    {
        final long nowMillis = context.clock().time();
        context.out()
            .arrayHeader(2)
            .bulkDecimal(Math.floorDiv(nowMillis, 1000))
            .bulkDecimal(Math.floorMod(nowMillis, 1000) * 1000L);
    }
}
