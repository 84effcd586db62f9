package io.agni.store;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Checks, before a store allocates anything, that this JVM lets Agrona's buffers work: Agrona 2.x reads
 * {@code jdk.internal.misc.Unsafe}, which a JVM started without the flag the store names refuses at the first
 * buffer access, with an error that does not say what to do.
 */
final class AgronaAccess
{
    private AgronaAccess()
    {
    }

    /**
     * Writes and reads back one long through an {@link UnsafeBuffer}.
     *
     * @param requiredFlag the JVM flag that grants the access, for the message.
     * @throws IllegalStateException naming the flag if the access is refused, or if the buffer reads back wrong.
     */
    static void check(final String requiredFlag)
    {
        try
        {
            final UnsafeBuffer probe = new UnsafeBuffer(new byte[Long.BYTES]);
            probe.putLong(0, 1L);
            if (probe.getLong(0) != 1L)
            {
                throw new IllegalStateException("Agrona buffer self-check failed");
            }
        }
        catch (final LinkageError | RuntimeException ex)
        {
            if (ex instanceof IllegalStateException && ex.getMessage() != null &&
                ex.getMessage().startsWith("Agrona buffer"))
            {
                throw (IllegalStateException)ex;
            }
            throw new IllegalStateException("agni cannot use Agrona's buffers: start the JVM with " +
                requiredFlag + " (Agrona 2.x reads jdk.internal.misc.Unsafe)", ex);
        }
    }
}
