package io.agni.bench.durability;

import java.nio.file.Path;

/**
 * The command line of {@link FillOnce} and {@link ReopenOnce}: {@code --target=STORE:PRESET --keys=N --dir=DIR},
 * and for a fill {@code --batch=N} and {@code --device=NAME}. Both derive agni's memory budget from the key count the same way, so that a
 * reopen gets the budget its fill had.
 *
 * @param target    the store and its preset.
 * @param keys      the number of keys the fill writes (or wrote).
 * @param batch     keys per write: 1, or the size of an atomic batch.
 * @param directory the store's directory.
 * @param device    the block device under the directory, as named in {@code /sys/class/block}, or null.
 */
record OneRunOptions(DurableFill.Target target, int keys, int batch, Path directory, String device)
{
    /**
     * Bytes of agni's budget per key: about 2.4 times an entry (20 + 400 bytes and a header), room for the index and
     * for the tables a growing index replaces and has not freed yet.
     */
    static final long AGNI_BUDGET_PER_KEY = 1024;

    /**
     * Parses the arguments.
     *
     * @param args      the command line.
     * @param forFill   whether {@code --batch} and {@code --device} are accepted.
     * @return the options.
     * @throws IllegalArgumentException for an unknown, missing or malformed option.
     */
    static OneRunOptions parse(final String[] args, final boolean forFill)
    {
        DurableFill.Target target = null;
        int keys = -1;
        int batch = 1;
        Path directory = null;
        String device = null;
        for (final String arg : args)
        {
            final int eq = arg.indexOf('=');
            final String name = eq < 0 ? arg : arg.substring(0, eq);
            final String text = eq < 0 ? "" : arg.substring(eq + 1);
            switch (name)
            {
                case "--target" -> target = DurableFill.Target.parse(text);
                case "--keys" -> keys = Integer.parseInt(text.replace("_", ""));
                case "--batch" -> batch = Integer.parseInt(fillOnly(forFill, arg, text));
                case "--device" -> device = fillOnly(forFill, arg, text);
                case "--dir" -> directory = Path.of(text);
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (target == null || keys < 1 || batch < 1 || directory == null)
        {
            throw new IllegalArgumentException("need --target=STORE:PRESET, --keys=N (at least 1), --dir=DIR" +
                (forFill ? " and --batch=N (at least 1)" : "") + ": " + String.join(" ", args));
        }
        return new OneRunOptions(target, keys, batch, directory, device);
    }

    private static String fillOnly(final boolean forFill, final String arg, final String text)
    {
        if (!forFill)
        {
            throw new IllegalArgumentException("unknown option " + arg);
        }
        return text;
    }

    /**
     * agni's memory budget for this many keys: at least {@link AgniTarget#DEFAULT_MAX_MEMORY}.
     *
     * @return the budget in bytes; the JVM's {@code -XX:MaxDirectMemorySize} must be above it.
     */
    long agniMaxMemory()
    {
        return Math.max(AgniTarget.DEFAULT_MAX_MEMORY, keys * AGNI_BUDGET_PER_KEY);
    }
}
