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
    CLOSE,

    /**
     * Close the connection at once, without the replies: its memory account refused a growth, so the client was
     * chosen for eviction (a transaction queue that grew while the clients' memory was past its limit).
     */
    EVICT
}
