package io.agni.bench.adapter;

import io.agni.bench.Directories;
import io.agni.store.OffHeapStore;
import org.agrona.MutableDirectBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * A durable agni store in a fresh directory that is deleted when the adapter closes.
 */
final class DurableDirectory
{
    private DurableDirectory()
    {
    }

    static StoreAdapter open(final Function<Path, OffHeapStore> opener)
    {
        final Path directory;
        try
        {
            directory = Files.createTempDirectory("agni-bench-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final AgniZeroCopyAdapter adapter = new AgniZeroCopyAdapter(opener.apply(directory));
        return new StoreAdapter()
        {
            @Override
            public int get(final KeySet keys, final int index, final MutableDirectBuffer dst)
            {
                return adapter.get(keys, index, dst);
            }

            @Override
            public void put(final KeySet keys, final int index, final Value value)
            {
                adapter.put(keys, index, value);
            }

            @Override
            public OffHeapUsage offHeapUsage()
            {
                return adapter.offHeapUsage();
            }

            @Override
            public void close()
            {
                try
                {
                    adapter.close();
                }
                finally
                {
                    Directories.deleteRecursively(directory);
                }
            }
        };
    }
}
