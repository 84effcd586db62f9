package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.DeferredDurability;
import io.agni.api.Durability;
import io.agni.api.Evicting;
import io.agni.api.EvictionPolicy;
import io.agni.api.Transactional;
import io.agni.api.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capability model: each accessor is present exactly when the store can do what its capability promises, and a
 * present capability acts on the store it came from.
 */
class CapabilitiesTest
{
    @TempDir
    Path directory;

    @Test
    void aStoreWithoutADirectoryHasNoCheckpointsNorDeferralButTransactionsAndEviction()
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(16L << 20).build())
        {
            assertTrue(store.checkpointing().isEmpty());
            assertTrue(store.deferredDurability().isEmpty());
            assertTrue(store.transactional().isPresent());
            assertTrue(store.evicting().isPresent());
            assertSame(store.evicting(), store.evicting(), "one Optional per store, not one per call");
            // the methods kept on the class for source compatibility still say why they refuse
            assertThrows(IllegalStateException.class, store::checkpoint);
            assertEquals(CheckpointStatus.NONE, store.checkpointStatus());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"FAST", "DURABLE", "PARANOID"})
    void aStoreWithADirectoryHasCheckpointsAndOnlyAParanoidOneHasDeferral(final Durability durability)
    {
        try (OffHeapStore store = open(durability))
        {
            final Checkpointing checkpoints = store.checkpointing().orElseThrow();
            assertEquals(durability, checkpoints.durability());
            store.set(b("k"), b("v"));
            checkpoints.checkpoint();
            assertFalse(checkpoints.checkpointStatus().lastCheckpointFailed());
            assertTrue(checkpoints.checkpointStatus().lastCheckpointMillis() > 0);
            assertEquals(durability == Durability.PARANOID, store.deferredDurability().isPresent());
        }
        try (OffHeapStore reopened = open(durability))
        {
            assertArrayEquals(b("v"), reopened.get(b("k")));
        }
    }

    @Test
    void theDeferralOfAParanoidStoreIsTheStoresOwn()
    {
        try (OffHeapStore store = open(Durability.PARANOID))
        {
            final DeferredDurability deferral = store.deferredDurability().orElseThrow();
            assertTrue(deferral.writesAwaitDurable());
            deferral.deferDurability(true);
            store.set(b("k"), b("v"));
            deferral.awaitDurable();
            deferral.deferDurability(false);
        }
        try (OffHeapStore reopened = open(Durability.PARANOID))
        {
            assertArrayEquals(b("v"), reopened.get(b("k")));
        }
    }

    @Test
    void transactionsAndEvictionActOnTheirStore()
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(16L << 20).build())
        {
            final Transactional transactions = store.transactional().orElseThrow();
            final byte[] found = new byte[2];
            store.set(b("a"), b("1"));
            transactions.write(new WriteBatch().delete(b("a")).delete(b("b")), found);
            assertArrayEquals(new byte[] {Transactional.KEY_PRESENT, 0}, found);
            transactions.runExclusive(() -> store.set(b("c"), b("3")));
            assertArrayEquals(b("3"), store.get(b("c")));

            final Evicting eviction = store.evicting().orElseThrow();
            eviction.evictionPolicy(EvictionPolicy.ALL_KEYS);
            assertEquals(EvictionPolicy.ALL_KEYS, store.evictionPolicy());
            eviction.maxMemory(32L << 20);
            assertEquals(32L << 20, store.stats().budgetBytes());
        }
    }

    @Test
    void anImplementationWithoutCapabilitiesGetsEmptyDefaults()
    {
        try (OffHeapStore delegate = open(Durability.PARANOID))
        {
            // forwards only the abstract methods: the accessors are the interface's defaults, whatever it forwards to
            final AgniStore store = new AbstractMethodsOnlyStore(delegate);
            assertTrue(store.checkpointing().isEmpty());
            assertTrue(store.transactional().isEmpty());
            assertTrue(store.evicting().isEmpty());
            assertTrue(store.deferredDurability().isEmpty());
        }
    }

    /**
     * A store written before the accessors offered its capabilities by implementing their interfaces: the defaults
     * still find them, and leave out the ones its configuration cannot keep.
     */
    @Test
    void aStoreThatImplementsACapabilitysInterfaceGetsItFromTheDefaults()
    {
        final AgniStore onDisk = legacy(Durability.DURABLE, false);
        assertSame(onDisk, onDisk.checkpointing().orElseThrow());
        assertSame(onDisk, onDisk.transactional().orElseThrow());
        assertSame(onDisk, onDisk.evicting().orElseThrow());
        assertTrue(onDisk.deferredDurability().isEmpty(), "its writes do not wait: nothing to defer");

        final AgniStore inMemory = legacy(Durability.NONE, true);
        assertTrue(inMemory.checkpointing().isEmpty(), "Durability.NONE: no checkpoints");
        assertSame(inMemory, inMemory.deferredDurability().orElseThrow());
    }

    /**
     * A proxy that implements AgniStore and the four capability interfaces and answers only what the defaults ask.
     */
    private static AgniStore legacy(final Durability durability, final boolean writesAwaitDurable)
    {
        return (AgniStore)Proxy.newProxyInstance(CapabilitiesTest.class.getClassLoader(),
            new Class<?>[] {AgniStore.class, Checkpointing.class, Transactional.class, Evicting.class,
                DeferredDurability.class},
            (proxy, method, args) ->
            {
                if (method.isDefault())
                {
                    return InvocationHandler.invokeDefault(proxy, method, args);
                }
                return switch (method.getName())
                {
                    case "durability" -> durability;
                    case "writesAwaitDurable" -> writesAwaitDurable;
                    default -> throw new UnsupportedOperationException(method.getName());
                };
            });
    }

    private OffHeapStore open(final Durability durability)
    {
        return OffHeapStore.builder().shards(2).maxMemory(16L << 20).directory(directory).durability(durability)
            .build();
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
