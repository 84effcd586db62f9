package io.agni.store;

/**
 * Run by {@link MissingAddOpensTest} in a JVM started without {@code --add-opens}: opens a store and prints what
 * happened on one line, {@code OPENED} or the exception's class and message.
 */
public final class MissingAddOpensProbe
{
    private MissingAddOpensProbe()
    {
    }

    /**
     * Opens and closes a default store.
     *
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        try (OffHeapStore store = OffHeapStore.open())
        {
            System.out.println("OPENED " + store.shardCount());
        }
        catch (final Throwable t)
        {
            System.out.println("THREW " + t.getClass().getName() + ": " + t.getMessage());
        }
    }
}
