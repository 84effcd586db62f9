package io.agni.protocol.command;

/**
 * The JVM's limit on direct memory, which an off-heap store's budget and the server's client buffers share, for
 * {@code CONFIG SET maxmemory 0} ({@link ServerConfigCommand}). The store checks a budget against the limit
 * {@code jdk.internal.misc.VM.maxDirectMemory()} reports, so this reads the same method, reachable with the
 * {@code --add-opens java.base/jdk.internal.misc} flag agni needs anyway; where it is not accessible (agni on the
 * module path), it falls back to the maximum heap size, the limit the JVM takes when
 * {@code -XX:MaxDirectMemorySize} is not set.
 *
 * <h2>Concurrency</h2>
 * Any thread; the limit is read once.
 */
final class DirectMemoryLimit
{
    private static final long BYTES = read();

    private DirectMemoryLimit()
    {
    }

    /**
     * The most bytes of direct buffers this JVM allows at once.
     *
     * @return bytes.
     */
    static long bytes()
    {
        return BYTES;
    }

    private static long read()
    {
        try
        {
            return (long)Class.forName("jdk.internal.misc.VM").getMethod("maxDirectMemory").invoke(null);
        }
        catch (final ReflectiveOperationException | RuntimeException ex)
        {
            return Runtime.getRuntime().maxMemory();
        }
    }
}
