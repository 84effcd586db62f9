package io.agni.store.memory;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves off-heap memory allocated, when the JVM runs in the debug-memory mode
 * ({@code -Dagni.debugMemory=true}, the {@code debug-memory} surefire execution); does nothing otherwise.
 * <p>
 * Registered for every JUnit Jupiter test of this module by auto-detection ({@code junit-platform.properties} and
 * {@code META-INF/services/org.junit.jupiter.api.extension.Extension}); it runs after the test's own
 * {@code @AfterEach} methods, so a store closed there is not a leak. jqwik properties are not Jupiter tests and call
 * {@link #verifyNoLeaks()} themselves.
 */
public final class DebugMemoryLeakCheck implements AfterEachCallback
{
    @Override
    public void afterEach(final ExtensionContext context)
    {
        verifyNoLeaks();
    }

    /**
     * Fails if any off-heap allocation is outstanding, in the debug-memory mode.
     *
     * @throws AssertionError listing each leaked allocation with the stack that made it.
     */
    public static void verifyNoLeaks()
    {
        if (DebugMemory.ENABLED)
        {
            DebugMemory.assertNoLeaks();
        }
    }
}
