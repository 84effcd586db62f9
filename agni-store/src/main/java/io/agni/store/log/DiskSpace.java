package io.agni.store.log;

import java.io.IOException;

/**
 * Tells a full disk from other I/O failures, so the message a user reads says which it was.
 */
final class DiskSpace
{
    private static final String NO_SPACE = "No space left on device";

    private DiskSpace()
    {
    }

    /**
     * Whether a failure, or one of its causes, is the operating system's ENOSPC.
     *
     * @param failure the failure.
     * @return whether the disk (or a quota) is full.
     */
    static boolean isFull(final Throwable failure)
    {
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            if (t instanceof IOException && t.getMessage() != null && t.getMessage().contains(NO_SPACE))
            {
                return true;
            }
        }
        return false;
    }
}
