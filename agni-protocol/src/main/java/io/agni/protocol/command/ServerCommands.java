package io.agni.protocol.command;

/**
 * Server commands: CONFIG, COMMAND, INFO, DBSIZE, FLUSHDB, FLUSHALL, TIME.
 */
final class ServerCommands
{
    private ServerCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
    }
}
