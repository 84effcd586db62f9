package io.agni.store.file;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A {@link FileLayer} that hands every call to another: tests override the calls they watch or hold up.
 */
public class ForwardingFileLayer implements FileLayer
{
    private final FileLayer files;

    /**
     * Forwards to {@code files}.
     *
     * @param files the layer that does the work.
     */
    public ForwardingFileLayer(final FileLayer files)
    {
        this.files = files;
    }

    @Override
    public MappedFile create(final Path path, final long capacity, final long allocated) throws IOException
    {
        return files.create(path, capacity, allocated);
    }

    @Override
    public WritableFile createWritable(final Path path) throws IOException
    {
        return files.createWritable(path);
    }

    @Override
    public MappedFile open(final Path path) throws IOException
    {
        return files.open(path);
    }

    @Override
    public void syncDirectory(final Path directory) throws IOException
    {
        files.syncDirectory(directory);
    }

    @Override
    public void move(final Path from, final Path to) throws IOException
    {
        files.move(from, to);
    }

    @Override
    public void delete(final Path path) throws IOException
    {
        files.delete(path);
    }
}
