package io.agni.net;

import io.agni.api.AgniException;
import io.agni.api.SetCondition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/scale-out.md's deployment, as it stands: three agni servers behind nutcracker (twemproxy) with the page's
 * configuration ({@link NutcrackerPool}), used through {@link AgniClient}: keys spread over every server, MGET
 * across servers, and the loss of one server. The store contract through the proxy is
 * {@link NutcrackerContractTest}.
 */
@Tag("nutcracker")
@Tag("socket")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NutcrackerTest
{
    private static final int KEYS = 10_000;
    private static final int BATCH = 500;

    private NutcrackerPool pool;
    private AgniClient client;

    @BeforeEach
    void start()
    {
        pool = NutcrackerPool.start();
        client = pool.client();
    }

    @AfterEach
    void stop()
    {
        ClientContractTests.closeAll(client, pool);
    }

    @Test
    void tenThousandKeysLandOnEveryServerNoneWithLessThanAFifth()
    {
        final List<byte[]> keys = keys("user:", KEYS);
        writeThroughTheProxy(keys);
        long total = 0;
        for (int i = 0; i < NutcrackerPool.SERVERS; i++)
        {
            final long size = pool.stores[i].size();
            assertTrue(size >= KEYS / 5, "server agni" + (i + 1) + " holds " + size + " of " + KEYS + " keys");
            total += size;
        }
        assertEquals(KEYS, total, "every key on exactly one server");
        for (int i = 0; i < KEYS; i += 97)
        {
            final int owner = pool.owner(keys.get(i));
            assertArrayEquals(value(keys.get(i)), pool.stores[owner].get(keys.get(i)));
        }
    }

    @Test
    void mgetAcrossServersReturnsTheValuesInTheCallersOrder()
    {
        final List<byte[]> keys = keys("m:", 300);
        writeThroughTheProxy(keys);
        final List<byte[]> asked = new ArrayList<>(keys);
        asked.add(bytes("m:missing-1"));
        asked.add(bytes("m:missing-2"));
        Collections.shuffle(asked, new Random(21));
        final int[] perServer = new int[NutcrackerPool.SERVERS];
        for (final byte[] key : keys)
        {
            perServer[pool.owner(key)]++;
        }
        for (final int count : perServer)
        {
            assertTrue(count > 0, "the keys asked live on every server: " + Arrays.toString(perServer));
        }

        final List<byte[]> values = client.getAll(asked);
        assertEquals(asked.size(), values.size());
        for (int i = 0; i < asked.size(); i++)
        {
            final String key = new String(asked.get(i), StandardCharsets.UTF_8);
            if (key.startsWith("m:missing"))
            {
                assertNull(values.get(i), key);
            }
            else
            {
                assertArrayEquals(value(asked.get(i)), values.get(i), key);
            }
        }
    }

    @Test
    void stoppingOneServerFailsOnlyTheKeysItOwnsWithAClearError()
    {
        final List<byte[]> keys = keys("s:", 300);
        writeThroughTheProxy(keys);
        final int stopped = 1;
        final List<byte[]> lost = new ArrayList<>();
        final List<byte[]> kept = new ArrayList<>();
        for (final byte[] key : keys)
        {
            (pool.owner(key) == stopped ? lost : kept).add(key);
        }
        assertTrue(!lost.isEmpty() && !kept.isEmpty());

        pool.servers[stopped].close();

        for (final byte[] key : lost)
        {
            final AgniException failure = assertThrows(AgniException.class, () -> client.get(key));
            assertTrue(failure.getMessage().contains("Connection refused"), failure.getMessage());
        }
        for (final byte[] key : kept)
        {
            assertArrayEquals(value(key), client.get(key));
        }
        final List<byte[]> values = client.getAll(kept);
        for (int i = 0; i < kept.size(); i++)
        {
            assertArrayEquals(value(kept.get(i)), values.get(i));
        }
        client.set(kept.get(0), bytes("still writable"));
        assertArrayEquals(bytes("still writable"), client.get(kept.get(0)));
    }

    /**
     * Writes the keys through the proxy, {@value #BATCH} per MSET (which nutcracker splits by server), and the
     * first of each batch alone with SET.
     */
    private void writeThroughTheProxy(final List<byte[]> keys)
    {
        for (int from = 0; from < keys.size(); from += BATCH)
        {
            final List<byte[]> batch = keys.subList(from, Math.min(keys.size(), from + BATCH));
            final List<byte[]> values = new ArrayList<>(batch.size());
            for (final byte[] key : batch)
            {
                values.add(value(key));
            }
            client.set(batch.get(0), values.get(0));
            assertTrue(client.setAll(batch, values, SetCondition.ALWAYS));
        }
    }

    private static List<byte[]> keys(final String prefix, final int count)
    {
        final List<byte[]> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            keys.add(bytes(prefix + i));
        }
        return keys;
    }

    private static byte[] value(final byte[] key)
    {
        return bytes("value of " + new String(key, StandardCharsets.UTF_8));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
