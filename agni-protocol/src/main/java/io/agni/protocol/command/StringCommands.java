package io.agni.protocol.command;

/**
 * String commands: GET, SET and the rest of Redis's string family.
 */
final class StringCommands
{
    private StringCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
    }
}
