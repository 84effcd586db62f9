package io.agni.store.memory;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The JVM's limit on direct {@link java.nio.ByteBuffer} memory and how much of it is taken, so that agni never
 * asks {@code ByteBuffer.allocateDirect} for memory the JVM would refuse. Past its limit, the JDK does not fail at
 * once: it waits for reference processing, calls {@link System#gc()} and sleeps, up to about half a second in all,
 * before it throws {@link OutOfMemoryError}; agni allocates under a shard's write lock, where that stall would stop
 * every other writer and reader of the shard (docs/architecture.md, "Memory, the budget and reclamation").
 *
 * <h2>Concurrency</h2>
 * Any thread; the limit is read once.
 */
public final class DirectMemory
{
    /**
     * The pool the JDK counts direct buffers in, as {@link BufferPoolMXBean} names it.
     */
    public static final String POOL_NAME = "direct";

    private DirectMemory()
    {
    }

    /**
     * The most bytes of direct buffers this JVM allows at once: {@code -XX:MaxDirectMemorySize}, or the maximum heap
     * size when that flag is not set.
     *
     * @return bytes.
     */
    public static long limit()
    {
        return Limit.BYTES;
    }

    /**
     * The capacity of every direct buffer in this JVM now, which the JDK compares with {@link #limit()}.
     *
     * @return bytes.
     */
    public static long totalCapacity()
    {
        return Pool.DIRECT.getTotalCapacity();
    }

    /**
     * The JVM's direct-memory pool, for measurements.
     *
     * @return the {@link #POOL_NAME} pool.
     */
    public static BufferPoolMXBean pool()
    {
        return Pool.DIRECT;
    }

    /**
     * Reads the limit the way the JDK does ({@code jdk.internal.misc.VM.maxDirectMemory()}, reachable with the
     * {@code --add-opens java.base/jdk.internal.misc} flag agni needs anyway); where that is not accessible (agni on
     * the module path), from the JVM's flags.
     */
    private static final class Limit
    {
        static final long BYTES = read();

        private static long read()
        {
            try
            {
                return (long)Class.forName("jdk.internal.misc.VM").getMethod("maxDirectMemory").invoke(null);
            }
            catch (final ReflectiveOperationException | RuntimeException ex)
            {
                return fromFlags();
            }
        }

        private static long fromFlags()
        {
            long limit = -1;
            for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
            {
                if (arg.startsWith("-XX:MaxDirectMemorySize="))
                {
                    limit = parseSize(arg.substring("-XX:MaxDirectMemorySize=".length()));
                }
            }
            return limit >= 0 ? limit : Runtime.getRuntime().maxMemory();
        }

        private static long parseSize(final String text)
        {
            final String lower = text.toLowerCase(Locale.ROOT);
            final int shift = switch (lower.isEmpty() ? ' ' : lower.charAt(lower.length() - 1))
            {
                case 'k' -> 10;
                case 'm' -> 20;
                case 'g' -> 30;
                case 't' -> 40;
                default -> 0;
            };
            try
            {
                return Long.parseLong(shift == 0 ? lower : lower.substring(0, lower.length() - 1)) << shift;
            }
            catch (final NumberFormatException ex)
            {
                return -1;
            }
        }
    }

    /**
     * The direct pool's bean, looked up on first use.
     */
    private static final class Pool
    {
        static final BufferPoolMXBean DIRECT = find();

        private static BufferPoolMXBean find()
        {
            for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
            {
                if (POOL_NAME.equals(pool.getName()))
                {
                    return pool;
                }
            }
            throw new IllegalStateException("the JVM has no \"" + POOL_NAME + "\" buffer pool");
        }
    }
}
