package io.agni.store;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The distinct shards of a multi-key operation come out ascending, each once, whether few (sorted by insertion) or
 * many (read back from the table), and the table is left clear for the next operation.
 */
class ShardOrderTest
{
    @Test
    void fewShardsComeOutAscendingAndDistinct()
    {
        final ShardOrder shardOrder = new ShardOrder();
        final int[] order = new int[8];
        final int n = shardOrder.sort(new int[] {5, 1, 5, 3, 1, 7, 0, 3}, 8, 8, order);
        assertArrayEquals(new int[] {0, 1, 3, 5, 7}, Arrays.copyOf(order, n));
    }

    @Test
    void manyShardsComeOutAscendingAndDistinct()
    {
        final ShardOrder shardOrder = new ShardOrder();
        final int shards = 256;
        final int[] shardOf = new int[1_000];
        final SplittableRandom random = new SplittableRandom(33);
        for (int i = 0; i < shardOf.length; i++)
        {
            shardOf[i] = random.nextInt(shards);
        }
        final int[] order = new int[shardOf.length];
        final int n = shardOrder.sort(shardOf, shardOf.length, shards, order);
        assertArrayEquals(Arrays.stream(shardOf).distinct().sorted().toArray(), Arrays.copyOf(order, n));
    }

    @Test
    void sortsInPlaceAndLeavesNothingMarkedForTheNextCall()
    {
        final ShardOrder shardOrder = new ShardOrder();
        final SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 200; round++)
        {
            final int shards = 1 + random.nextInt(64);
            final int count = 1 + random.nextInt(100);
            final int[] shardOf = new int[count];
            for (int i = 0; i < count; i++)
            {
                shardOf[i] = random.nextInt(shards);
            }
            final int[] expected = Arrays.stream(shardOf).distinct().sorted().toArray();
            final int n = shardOrder.sort(shardOf, count, shards, shardOf);
            assertEquals(expected.length, n, "round " + round);
            assertArrayEquals(expected, Arrays.copyOf(shardOf, n), "round " + round);
        }
    }
}
