package io.agni.bench;

import io.agni.bench.adapter.StoreKind;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link GetLoop}, which instruction counts run under valgrind, reads every present key on every store.
 */
class GetLoopTest
{
    @ParameterizedTest
    @EnumSource(StoreKind.class)
    @Timeout(60)
    void everyGetHits(final StoreKind kind)
    {
        assertEquals(3_000L * StoreBenchmark.VALUE_LENGTH, GetLoop.sumOfGets(kind.id(), 1_000, 2_000, 100, sum -> { }));
    }
}
