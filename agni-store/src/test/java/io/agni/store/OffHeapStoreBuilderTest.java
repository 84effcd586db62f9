package io.agni.store;

import io.agni.store.memory.DirectMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The builder refuses bad settings with a message that says what conflicted, and applies the good ones.
 */
class OffHeapStoreBuilderTest
{
    @ParameterizedTest
    @ValueSource(ints = {0, -1, 3, 6, 12, 100, 1 << 17, Integer.MIN_VALUE})
    void shardsMustBeAPowerOfTwoWithinRange(final int shards)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OffHeapStore.builder().shards(shards).maxMemory(1L << 30).build());

        assertEquals("shards must be a power of two from 1 to 65536: shards=" + shards, ex.getMessage());
    }

    @Test
    void budgetMustHoldTheMinimumPerShard()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OffHeapStore.builder().shards(4).maxMemory(1000).build());

        assertEquals("maxMemory too small for 4 shards: maxMemory=1000, minimum=32768 (8192 per shard)",
            ex.getMessage());
    }

    @Test
    void budgetOfExactlyTheMinimumIsAccepted()
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(4).maxMemory(32 * 1024)
            .maxKeyLength(64).maxValueLength(1024).expirySweepInterval(Duration.ZERO).build())
        {
            assertEquals(32 * 1024, store.stats().budgetBytes());
            assertTrue(store.stats().offHeapBytes() <= 32 * 1024);
        }
    }

    @Test
    void budgetMustFitTheJvmsDirectMemoryLimit()
    {
        final long limit = DirectMemory.limit();

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OffHeapStore.builder().shards(1).maxMemory(limit + 1).build());

        assertEquals("maxMemory exceeds the JVM's direct memory limit: maxMemory=" + (limit + 1) +
            ", maxDirectMemory=" + limit + " (raise -XX:MaxDirectMemorySize or lower maxMemory)", ex.getMessage());
        try (OffHeapStore store = OffHeapStore.builder().shards(1).maxMemory(limit)
            .expirySweepInterval(Duration.ZERO).build())
        {
            assertEquals(limit, store.stats().budgetBytes(), "a budget of exactly the limit is accepted");
        }
    }

    @Test
    void theDirectMemoryLimitIsTheJvmFlag()
    {
        assumeTrue(ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:MaxDirectMemorySize=4g"),
            "agni-store's test runs set -XX:MaxDirectMemorySize=4g");

        assertEquals(4L << 30, DirectMemory.limit());
        assertEquals(4L << 30, OffHeapStoreBuilder.defaultMaxMemory());
    }

    @Test
    void limitsTogetherMustFitTheBudget()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OffHeapStore.builder().shards(4).maxMemory(64 * 1024).maxKeyLength(32 * 1024)
                .maxValueLength(40 * 1024).build());

        assertEquals("maxKeyLength + maxValueLength exceed maxMemory: maxKeyLength=32768, maxValueLength=40960, " +
            "maxMemory=65536", ex.getMessage());
    }

    @Test
    void anExplicitLimitOverAnExplicitBudgetIsRefused()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OffHeapStore.builder().shards(1).maxMemory(64 * 1024).maxValueLength(1 << 20).build());

        assertTrue(ex.getMessage().startsWith("maxKeyLength + maxValueLength exceed maxMemory: "), ex.getMessage());
        assertTrue(ex.getMessage().contains("maxValueLength=1048576"), ex.getMessage());
    }

    @Test
    void anExplicitLimitShrinksTheOtherDefaultLimitToTheBudget()
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(1).maxMemory(256 * 1024).maxValueLength(64 * 1024)
            .expirySweepInterval(Duration.ZERO).build())
        {
            assertEquals(192 * 1024, store.maxKeyLength());
            assertEquals(64 * 1024, store.maxValueLength());
        }
        try (OffHeapStore store = OffHeapStore.builder().shards(1).maxMemory(256 * 1024).maxKeyLength(1024)
            .expirySweepInterval(Duration.ZERO).build())
        {
            assertEquals(1024, store.maxKeyLength());
            assertEquals(255 * 1024, store.maxValueLength());
        }
    }

    @Test
    void defaultLimitsShrinkToFitASmallBudget()
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(1 << 20)
            .expirySweepInterval(Duration.ZERO).build())
        {
            assertEquals(512 * 1024, store.maxKeyLength());
            assertEquals(512 * 1024, store.maxValueLength());
        }
    }

    @Test
    void keyLimitMustBeAtLeastOne()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OffHeapStore.builder().shards(1).maxKeyLength(0).build());

        assertEquals("maxKeyLength must be at least 1: maxKeyLength=0", ex.getMessage());
    }

    @Test
    void valueLimitMustNotBeNegative()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OffHeapStore.builder().shards(1).maxValueLength(-1).build());

        assertEquals("maxValueLength must be at least 0: maxValueLength=-1", ex.getMessage());
    }

    @Test
    void sweepIntervalMustNotBeNegativeAndItsSetterSaysSo()
    {
        final OffHeapStoreBuilder builder = OffHeapStore.builder().shards(1);

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> builder.expirySweepInterval(Duration.ofMillis(-5)));
        assertEquals("expirySweepInterval must not be negative: expirySweepInterval=PT-0.005S", ex.getMessage());
        // One nanosecond below zero is refused too, not rounded to zero milliseconds (which would turn the sweep off).
        assertThrows(IllegalArgumentException.class, () -> builder.expirySweepInterval(Duration.ofNanos(-1)));
        assertThrows(NullPointerException.class, () -> builder.expirySweepInterval(null));
    }

    @Test
    void aSubMillisecondSweepIntervalIsNotMistakenForNone()
    {
        assertEquals(1, OffHeapStore.builder().expirySweepInterval(Duration.ofNanos(10_000)).expirySweepIntervalMs());
        assertEquals(0, OffHeapStore.builder().expirySweepInterval(Duration.ZERO).expirySweepIntervalMs());
        assertEquals(Long.MAX_VALUE, OffHeapStore.builder().expirySweepInterval(Duration.ofSeconds(Long.MAX_VALUE))
            .expirySweepIntervalMs());
        assertEquals(Duration.ofMillis(100), OffHeapStoreBuilder.DEFAULT_EXPIRY_SWEEP_INTERVAL);
    }

    @Test
    void clockMustNotBeNull()
    {
        assertThrows(NullPointerException.class, () -> OffHeapStore.builder().clock(null));
    }

    @Test
    void settingsAreApplied()
    {
        try (OffHeapStore store = TestStores.builder(16, TestStores.clock()).maxMemory(8L << 20)
            .maxKeyLength(100).maxValueLength(1000).build())
        {
            assertEquals(16, store.shardCount());
            assertEquals(100, store.maxKeyLength());
            assertEquals(1000, store.maxValueLength());
            assertEquals(8L << 20, store.stats().budgetBytes());
        }
    }

    @Test
    void aBuilderMayBeReusedForIndependentStores()
    {
        final OffHeapStoreBuilder builder = TestStores.builder(2, TestStores.clock());
        try (OffHeapStore first = builder.build(); OffHeapStore second = builder.build())
        {
            first.set(new byte[] {1}, new byte[] {1});

            assertNull(second.get(new byte[] {1}));
        }
    }

    @Test
    void openWithDefaultsGivesAWorkingStore()
    {
        try (OffHeapStore store = OffHeapStore.open())
        {
            assertEquals(OffHeapStoreBuilder.defaultShards(), store.shardCount());
            assertEquals(OffHeapStoreBuilder.defaultMaxMemory(), store.stats().budgetBytes());
            store.set(new byte[] {1}, new byte[] {2});
            assertEquals(1, store.size());
        }
    }

    @Test
    void defaultShardCountIsAPowerOfTwoOfAtMost256()
    {
        final int shards = OffHeapStoreBuilder.defaultShards();

        assertEquals(1, Integer.bitCount(shards));
        assertTrue(shards >= 1 && shards <= 256, "shards=" + shards);
    }
}
