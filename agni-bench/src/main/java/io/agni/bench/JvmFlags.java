package io.agni.bench;

import java.util.List;
import java.util.stream.Stream;

/**
 * The JVM flags the stores need on Java 17 and later, in one place: the JMH forks take them through
 * {@link StoreBenchmark}'s {@code @Fork}, {@link BytesPerEntry} passes them to the JVMs it starts, and
 * {@code docs/benchmarks.md} lists them.
 */
public final class JvmFlags
{
    /**
     * Agrona 2.x, and so agni, reads {@code jdk.internal.misc.Unsafe}.
     */
    public static final String AGRONA = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED";

    /**
     * A fixed heap of 2 GiB, every page touched at start: the heap does not grow (and collect on the way) while a
     * store is filled or measured, as the JVM's default, small at start, does.
     */
    public static final String HEAP_MIN = "-Xms2g";

    /**
     * See {@link #HEAP_MIN}.
     */
    public static final String HEAP_MAX = "-Xmx2g";

    /**
     * See {@link #HEAP_MIN}.
     */
    public static final String HEAP_PRE_TOUCH = "-XX:+AlwaysPreTouch";

    /**
     * Chronicle Map on Java 17: the flags Chronicle documents for its libraries. Measured with an in-memory
     * {@code byte[]} map: without {@link #CHRONICLE_EXPORT_NIO_CH}, {@link #CHRONICLE_EXPORT_JAVAC_FILE},
     * {@link #CHRONICLE_OPEN_LANG} or {@link #CHRONICLE_OPEN_REFLECT} it fails to start; without
     * {@link #CHRONICLE_EXPORT_REF} it warns that it cannot free its buffers' memory through their cleaners; the
     * other four were not needed by that map and are kept as Chronicle documents them.
     */
    public static final String CHRONICLE_EXPORT_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    /** Required: Chronicle reads {@code sun.nio.ch.FileChannelImpl}. */
    public static final String CHRONICLE_EXPORT_NIO_CH = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    /** Documented by Chronicle; not needed by the map measured. */
    public static final String CHRONICLE_EXPORT_MISC = "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED";
    /** Required: Chronicle's run-time compiler uses javac's file manager. */
    public static final String CHRONICLE_EXPORT_JAVAC_FILE =
        "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED";
    /** Documented by Chronicle; not needed by the map measured. */
    public static final String CHRONICLE_OPEN_JAVAC = "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED";
    /** Required: Chronicle defines classes through {@code ClassLoader.defineClass}. */
    public static final String CHRONICLE_OPEN_LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    /** Required: Chronicle calls {@code AccessibleObject.setAccessible0}. */
    public static final String CHRONICLE_OPEN_REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    /** Documented by Chronicle; not needed by the map measured. */
    public static final String CHRONICLE_OPEN_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    /** Documented by Chronicle; not needed by the map measured. */
    public static final String CHRONICLE_OPEN_UTIL = "--add-opens=java.base/java.util=ALL-UNNAMED";
    /**
     * Stops Chronicle's libraries from sending usage analytics over the network, which they otherwise try at start.
     */
    public static final String CHRONICLE_NO_ANALYTICS = "-Dchronicle.analytics.disable=true";

    /**
     * Every flag Chronicle Map gets.
     */
    public static final List<String> CHRONICLE = List.of(
        CHRONICLE_EXPORT_REF, CHRONICLE_EXPORT_NIO_CH, CHRONICLE_EXPORT_MISC, CHRONICLE_EXPORT_JAVAC_FILE,
        CHRONICLE_OPEN_JAVAC, CHRONICLE_OPEN_LANG, CHRONICLE_OPEN_REFLECT, CHRONICLE_OPEN_IO, CHRONICLE_OPEN_UTIL,
        CHRONICLE_NO_ANALYTICS);

    /**
     * OHC 0.7.4 needs no flag on Java 17: it reaches memory through {@code sun.misc.Unsafe} (module
     * {@code jdk.unsupported}, open to all) and allocates with JNA's {@code malloc}.
     */
    public static final List<String> OHC = List.of();

    private JvmFlags()
    {
    }

    /**
     * The flags for a JVM that may run any of the stores.
     *
     * @return agni's flag, then Chronicle Map's (OHC needs none).
     */
    public static List<String> all()
    {
        return Stream.of(List.of(AGRONA), CHRONICLE, OHC).flatMap(List::stream).toList();
    }
}
