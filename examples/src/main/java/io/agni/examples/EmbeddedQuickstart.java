package io.agni.examples;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import io.agni.store.OffHeapStore;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The program to copy first: opens an in-process agni store, uses its main operations, prints what each one did,
 * and closes the store. {@link RemoteClient} runs the same walk-through against a server.
 * <p>
 * From the repository root:
 * <pre>
 * mvn -B -q package -DskipTests &amp;&amp; java -jar examples/target/agni-examples.jar
 * </pre>
 * The jar's manifest carries {@code Add-Opens: java.base/jdk.internal.misc}. Run the class any other way (an IDE,
 * {@code java -cp}) and the JVM needs {@code --add-opens java.base/jdk.internal.misc=ALL-UNNAMED}, because Agrona
 * 2.x reaches {@code jdk.internal.misc.Unsafe}.
 */
public final class EmbeddedQuickstart
{
    private static final long MIB = 1024 * 1024;

    private EmbeddedQuickstart()
    {
    }

    /**
     * Runs the walk-through.
     *
     * @param args ignored.
     */
    public static void main(final String[] args)
    {
        // Open a store with a 64 MiB off-heap budget: index and entries together never take more. A write that
        // would go past it is refused with CapacityExceededException. try-with-resources closes the store, which
        // frees all of its off-heap memory.
        try (AgniStore store = OffHeapStore.builder()
            .maxMemory(64 * MIB)
            .build())
        {
            walkThrough(store);
        }
        System.out.println("closed the store: its off-heap memory is freed");
    }

    /**
     * The walk-through itself, written against the {@link AgniStore} interface only, so that it runs unchanged on
     * a remote store ({@link RemoteClient}). It deletes the keys it used when done.
     *
     * @param store an open store.
     */
    static void walkThrough(final AgniStore store)
    {
        final long budget = store.stats().budgetBytes();
        System.out.println("the store's memory budget: " +
            (budget == Long.MAX_VALUE ? "no limit" : budget / MIB + " MiB"));

        // Keys and values are byte strings. get returns a copy of the value, or null if the key is absent.
        store.set(bytes("greeting"), bytes("hello, agni"));
        System.out.println("set greeting = \"hello, agni\"");
        System.out.println("get greeting -> \"" + text(store.get(bytes("greeting"))) + "\"");

        // A conditional set with an expiry, as one atomic step (Redis: SET key value NX PX 60000). AFTER takes a
        // duration in milliseconds, which the store adds to its own clock when it writes, so the caller needs no
        // clock (ExpiryMode.AT takes an absolute time on the store's clock instead). The entry vanishes once the
        // minute has passed.
        final boolean first = store.set(
            bytes("session:42"), bytes("alice"), SetCondition.IF_ABSENT, ExpiryMode.AFTER, 60_000);
        final boolean second = store.set(
            bytes("session:42"), bytes("mallory"), SetCondition.IF_ABSENT, ExpiryMode.AFTER, 60_000);
        System.out.println("set session:42 = \"alice\" if absent, expiring in 60 s -> " + first);
        System.out.println("set session:42 = \"mallory\" if absent, expiring in 60 s -> " + second +
            " (value is still \"" + text(store.get(bytes("session:42"))) + "\")");
        System.out.println("ttl session:42 -> " + store.ttlMillis(bytes("session:42")) + " ms");

        // An atomic counter: the value is decimal text, and an absent key counts as 0 (Redis: INCRBY).
        final long afterOne = store.incrementBy(bytes("visits"), 1);
        final long afterMore = store.incrementBy(bytes("visits"), 41);
        System.out.println("incrementBy visits 1 -> " + afterOne);
        System.out.println("incrementBy visits 41 -> " + afterMore +
            " (stored as the text \"" + text(store.get(bytes("visits"))) + "\")");

        // The zero-copy path: the key is read from a DirectBuffer and the value is copied into a caller's
        // buffer, with no byte[] in between. An ExpandableDirectByteBuffer grows when a value does not fit;
        // reuse one per thread and a read allocates nothing on the heap.
        final UnsafeBuffer key = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final ExpandableDirectByteBuffer value = new ExpandableDirectByteBuffer(64);
        int keyLength = key.putStringWithoutLengthUtf8(0, "greeting");
        int valueLength = store.get(key, 0, keyLength, value, 0);
        System.out.println("zero-copy get greeting -> " + valueLength + " bytes: \"" +
            value.getStringWithoutLengthUtf8(0, valueLength) + "\"");
        keyLength = key.putStringWithoutLengthUtf8(0, "no-such-key");
        valueLength = store.get(key, 0, keyLength, value, 0);
        System.out.println("zero-copy get no-such-key -> " + valueLength +
            (valueLength == AgniStore.NOT_FOUND ? " (NOT_FOUND)" : ""));

        // A snapshot of the counters and of the off-heap memory the store holds.
        final StoreStats stats = store.stats();
        System.out.printf(
            "stats: %d entries (%d with expiry), %d hits, %d misses, %d rejected writes%n",
            stats.entries(), stats.entriesWithExpiry(), stats.hits(), stats.misses(), stats.rejectedWrites());
        System.out.printf(
            "       %,d off-heap bytes held of a %,d byte budget, %,d bytes in live entries%n",
            stats.offHeapBytes(), stats.budgetBytes(), stats.liveEntryBytes());

        // delete removes a key and says whether it was there. Leave the store as we found it.
        int deleted = 0;
        for (final String name : new String[]{"greeting", "session:42", "visits"})
        {
            deleted += store.delete(bytes(name)) ? 1 : 0;
        }
        System.out.println("deleted the " + deleted + " keys this walk-through set");
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(UTF_8);
    }

    private static String text(final byte[] b)
    {
        return null == b ? "(null)" : new String(b, UTF_8);
    }
}
