package io.agni.store.file;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The system's files, except that the first call the test chooses is held up, on the thread that made it, until the
 * test releases it: to catch a store in the middle of a file operation (a log segment being made, a snapshot file
 * being opened, a spare segment being renamed) and see what it does meanwhile.
 */
public final class HoldingFileLayer extends ForwardingFileLayer
{
    /**
     * The calls that can be held up.
     */
    public enum Call
    {
        /**
         * {@link FileLayer#create}: a log segment.
         */
        CREATE,
        /**
         * {@link FileLayer#createWritable}: a snapshot file.
         */
        CREATE_WRITABLE,
        /**
         * {@link FileLayer#move}, with the path moved from.
         */
        MOVE
    }

    /**
     * Which call to hold up, asked on the calling thread with the call and its path.
     */
    @FunctionalInterface
    public interface Choice
    {
        /**
         * @param call the call.
         * @param path the file it is about.
         * @return whether to hold it up (only the first chosen call is).
         */
        boolean holds(Call call, Path path);
    }

    /**
     * Counted down when the chosen call is held up.
     */
    public final CountDownLatch entered = new CountDownLatch(1);
    /**
     * Counted down by the test to let it go on.
     */
    public final CountDownLatch release = new CountDownLatch(1);

    private final Choice choice;

    /**
     * @param choice which call to hold up.
     */
    public HoldingFileLayer(final Choice choice)
    {
        super(FileLayer.system());
        this.choice = choice;
    }

    @Override
    public MappedFile create(final Path path, final long capacity, final long allocated) throws IOException
    {
        holdUpIfChosen(Call.CREATE, path);
        return super.create(path, capacity, allocated);
    }

    @Override
    public WritableFile createWritable(final Path path) throws IOException
    {
        holdUpIfChosen(Call.CREATE_WRITABLE, path);
        return super.createWritable(path);
    }

    @Override
    public void move(final Path from, final Path to) throws IOException
    {
        holdUpIfChosen(Call.MOVE, from);
        super.move(from, to);
    }

    private void holdUpIfChosen(final Call call, final Path path) throws IOException
    {
        if (entered.getCount() == 0 || !choice.holds(call, path))
        {
            return;
        }
        entered.countDown();
        try
        {
            if (!release.await(30, TimeUnit.SECONDS))
            {
                throw new IOException("the test never released the " + call + " of " + path);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException(ex);
        }
    }
}
