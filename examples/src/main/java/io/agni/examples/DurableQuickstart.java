package io.agni.examples;

import io.agni.api.Durability;
import io.agni.store.OffHeapStore;

import java.nio.file.Files;
import java.nio.file.Path;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A store that keeps its data in a directory across restarts (docs/durability.md): opens it, counts this run, closes
 * it, and opens it again to show what came back. The store says what it recovered through slf4j, which the examples
 * jar binds to slf4j-simple (a line on standard error); without a binding those lines go nowhere.
 * <p>
 * From the repository root, twice to see the count go on:
 * <pre>
 * mvn -B -q package -DskipTests &amp;&amp; java -jar examples/target/agni-examples.jar DurableQuickstart [directory]
 * </pre>
 * The directory defaults to {@code agni-data} under the working directory, and is kept.
 */
public final class DurableQuickstart
{
    private DurableQuickstart()
    {
    }

    /**
     * Runs it.
     *
     * @param args the directory, optionally.
     */
    public static void main(final String[] args)
    {
        final Path data = Path.of(args.length > 0 ? args[0] : "agni-data");
        System.out.println("data in " + data.toAbsolutePath() + (Files.isDirectory(data) ? "" : " (new)"));
        final byte[] runs = "runs".getBytes(UTF_8);
        final long run;
        try (OffHeapStore store = OffHeapStore.builder()
                .directory(data)                       // created if missing; owned by this store alone
                .durability(Durability.DURABLE)        // the default once a directory is given
                .build())
        {
            run = store.incrementBy(runs, 1);          // in the log (page cache) when it returns: survives kill -9
            store.set("greeting".getBytes(UTF_8), "hello".getBytes(UTF_8));
            store.checkpoint();                        // optional: a snapshot now, the log it covers is dropped
        }                                              // close: a last snapshot, the log dropped
        System.out.println("run " + run + " written and the store closed");

        // Opening the directory again rebuilds the store from its snapshot; slf4j logs "Recovered ...".
        try (OffHeapStore store = OffHeapStore.builder().directory(data).build())
        {
            System.out.println("reopened: runs = " + new String(store.get(runs), UTF_8) +
                ", greeting = " + new String(store.get("greeting".getBytes(UTF_8)), UTF_8));
        }
    }
}
