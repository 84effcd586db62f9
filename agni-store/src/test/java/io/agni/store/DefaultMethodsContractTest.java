package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.StoreClosedException;
import io.agni.testsupport.AgniStoreContract;
import io.agni.testsupport.OptionalOperation;
import io.agni.testsupport.StoreFixture;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The contract over {@link AbstractMethodsOnlyStore}: an {@link OffHeapStore} reached only through the methods
 * {@link AgniStore} leaves abstract, so that every default method of the interface (the {@code byte[]} forms, the
 * zero-copy multi-key forms, {@code expireAfter}) is run against the whole contract. The default of
 * {@code write(WriteBatch)} refuses every batch, which the contract checks (the fixture declares
 * {@link OptionalOperation#WRITE_BATCH} unsupported).
 */
class DefaultMethodsContractTest extends AgniStoreContract
{
    private OffHeapStore offHeapStore;

    @Override
    protected StoreFixture createFixture()
    {
        final CachedEpochClock clock = TestStores.clock();
        offHeapStore = TestStores.builder(4, clock).maxKeyLength(4096).maxValueLength(256 * 1024).build();
        return StoreFixture.forStore(new AbstractMethodsOnlyStore(offHeapStore))
            .fakeClock(clock)
            .reclaimExpired(offHeapStore::sweepExpired)
            .limits(4096, 256 * 1024)
            .unsupported(OptionalOperation.WRITE_BATCH)
            .build();
    }

    @AfterEach
    void structureIsIntactAfterTheTest()
    {
        try
        {
            offHeapStore.verifyIntegrity();
        }
        catch (final StoreClosedException ex)
        {
            // the test closed the store itself: nothing left to check
        }
    }

    @Test
    void theWrapperImplementsOnlyTheAbstractMethodsAndTheClock()
    {
        final Set<String> abstractMethods = Arrays.stream(AgniStore.class.getMethods())
            .filter(m -> Modifier.isAbstract(m.getModifiers()))
            .map(DefaultMethodsContractTest::signature)
            .collect(Collectors.toCollection(TreeSet::new));
        abstractMethods.add("currentTimeMillis()");

        final Set<String> implemented = Arrays.stream(AbstractMethodsOnlyStore.class.getDeclaredMethods())
            .filter(m -> Modifier.isPublic(m.getModifiers()))
            .map(DefaultMethodsContractTest::signature)
            .collect(Collectors.toCollection(TreeSet::new));

        assertEquals(abstractMethods, implemented);
    }

    private static String signature(final Method method)
    {
        return method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
            .collect(Collectors.joining(",", "(", ")"));
    }
}
