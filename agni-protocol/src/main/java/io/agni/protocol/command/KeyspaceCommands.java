package io.agni.protocol.command;

/**
 * Keyspace commands: DEL, EXISTS, EXPIRE and the TTL family, SCAN, KEYS, RENAME, ...
 */
final class KeyspaceCommands
{
    private KeyspaceCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
    }
}
