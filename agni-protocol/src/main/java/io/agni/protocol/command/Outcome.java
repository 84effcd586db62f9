package io.agni.protocol.command;

/**
 * What the connection does after a command's reply is written.
 */
public enum Outcome
{
    /**
     * Go on reading commands.
     */
    CONTINUE,

    /**
     * Write the replies encoded so far, then close the connection (QUIT).
     */
    CLOSE
}
