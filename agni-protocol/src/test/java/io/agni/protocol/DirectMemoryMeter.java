package io.agni.protocol;

/**
 * The JVM's direct-buffer pool ({@code BufferPoolMXBean} "direct"): the bytes of every direct buffer not yet freed.
 * Looked up reflectively, as {@link AllocationMeter} does: the module under test does not read
 * {@code java.management}, but the tests run on the class path, where it is reachable.
 */
final class DirectMemoryMeter
{
    private DirectMemoryMeter()
    {
    }

    /**
     * @return the bytes of direct buffers allocated and not yet freed, in this JVM.
     */
    static long used()
    {
        try
        {
            final Class<?> poolType = Class.forName("java.lang.management.BufferPoolMXBean");
            final Iterable<?> pools = (Iterable<?>)Class.forName("java.lang.management.ManagementFactory")
                .getMethod("getPlatformMXBeans", Class.class).invoke(null, poolType);
            for (final Object pool : pools)
            {
                if ("direct".equals(poolType.getMethod("getName").invoke(pool)))
                {
                    return (Long)poolType.getMethod("getMemoryUsed").invoke(pool);
                }
            }
            throw new AssertionError("the JVM reports no direct buffer pool");
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError("cannot read the direct buffer pool", ex);
        }
    }
}
