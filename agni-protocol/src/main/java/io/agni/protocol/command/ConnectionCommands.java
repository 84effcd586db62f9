package io.agni.protocol.command;

import static io.agni.protocol.command.Command.FLAG_FAST;
import static io.agni.protocol.command.Command.FLAG_NO_AUTH;

/**
 * Connection commands: PING, ECHO, QUIT, HELLO, AUTH, SELECT, CLIENT.
 */
final class ConnectionCommands
{
    private ConnectionCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
        table.add("ping", -1, FLAG_FAST | FLAG_NO_AUTH, 0, 0, 0, ConnectionCommands::ping);
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
}
