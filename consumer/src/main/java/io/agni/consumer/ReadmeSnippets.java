package io.agni.consumer;

import io.agni.api.AgniStore;
import io.agni.net.AgniClient;
import io.agni.net.AgniServer;
import io.agni.store.OffHeapStore;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Arrays;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The README's Java snippets, as a user would paste them. consumer/run checks that every Java block of the README
 * appears here line for line (indentation aside), so a snippet that no longer compiles or runs fails CI.
 */
public final class ReadmeSnippets
{
    private ReadmeSnippets()
    {
    }

    /**
     * Runs the embedding snippet, then the server snippet over a store of its own, and checks what they wrote.
     *
     * @param args none.
     * @throws Exception if a snippet fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final PrintStream console = System.out;
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, UTF_8));
        try
        {
            embed();
        }
        finally
        {
            System.setOut(console);
        }
        console.print(printed.toString(UTF_8));
        check(printed.toString(UTF_8).equals("alice, visit 1" + System.lineSeparator()),
            "the embedding snippet printed something else: " + printed.toString(UTF_8));
        try (AgniStore store = OffHeapStore.builder().maxMemory(64L << 20).build())
        {
            serve(store);
            check(Arrays.equals("bob".getBytes(UTF_8), store.get("user:2".getBytes(UTF_8))),
                "the remote set through the server did not reach the store");
        }
        System.out.println("README snippets ran");
    }

    private static void embed()
    {
        // README: "Use it", the embedding snippet (its imports are this file's).
        try (AgniStore store = OffHeapStore.builder().maxMemory(256L << 20).build()) // 256 MiB off-heap
        {
            store.set("user:1".getBytes(UTF_8), "alice".getBytes(UTF_8));
            byte[] name = store.get("user:1".getBytes(UTF_8));            // a copy, or null if absent
            long visits = store.incrementBy("visits".getBytes(UTF_8), 1); // atomic counter
            System.out.println(new String(name, UTF_8) + ", visit " + visits);  // alice, visit 1
        }
    }

    private static void serve(final AgniStore store) throws Exception
    {
        // README: "Use it", the server snippet.
        AgniServer server = AgniServer.builder(store).port(6380).build().start(); // 127.0.0.1 unless told otherwise
        // redis-cli -p 6380, Jedis and Lettuce can talk to it now; so can agni's own client:
        try (AgniStore remote = AgniClient.connect("localhost", 6380))             // agni or Redis
        {
            remote.set("user:2".getBytes(UTF_8), "bob".getBytes(UTF_8));
        }
        server.close();                                                            // the store stays open
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalStateException(message);
        }
    }
}
