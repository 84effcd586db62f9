package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.Durability;
import io.agni.protocol.RespArgs;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static io.agni.protocol.command.Command.FLAG_ADMIN;
import static io.agni.protocol.command.Command.FLAG_FAST;
import static io.agni.protocol.command.Command.FLAG_NO_MULTI;

/**
 * SAVE, BGSAVE and LASTSAVE, with Redis 7's replies, on a store that keeps its data in a directory: one whose {@link
 * io.agni.api.AgniStore#checkpointing()} is present (its {@link Durability} is then not {@code NONE}). A checkpoint (a
 * snapshot, and with a log the log it covers dropped) is agni's RDB save.
 *
 * <ul>
 *   <li>{@code SAVE}: a checkpoint on the calling thread; {@code +OK} once it is published. Like Redis's SAVE it
 *   holds up its caller (here the connection's event loop, not the whole server).</li>
 *   <li>{@code BGSAVE [SCHEDULE]}: a checkpoint on the store's own thread; {@code +Background saving started}.</li>
 *   <li>{@code LASTSAVE}: the unix time, in seconds, of the newest snapshot; when the directory has none yet, of
 *   the server's start (everything the store held then came from its directory), as Redis reports its start
 *   until the first save.</li>
 * </ul>
 * While a checkpoint runs (a BGSAVE's, or one the store started itself), SAVE and BGSAVE get Redis's
 * {@code ERR Background save already in progress}. A store that keeps nothing on disk cannot save, where a Redis
 * without persistence still writes an RDB file: the three commands get {@link #NOTHING_ON_DISK}.
 */
final class PersistenceCommands
{
    /**
     * The error of SAVE, BGSAVE and LASTSAVE on a store that keeps nothing on disk.
     */
    static final String NOTHING_ON_DISK =
        "ERR this server's store keeps nothing on disk (durability none): there is nothing to save";

    static final String IN_PROGRESS = "ERR Background save already in progress";

    private static final String STARTED = "Background saving started";
    private static final byte[] SCHEDULE = "SCHEDULE".getBytes(StandardCharsets.US_ASCII);

    private PersistenceCommands()
    {
    }

    static void register(final CommandTable.Builder table)
    {
        table
            .add("save", 1, FLAG_ADMIN | FLAG_NO_MULTI, 0, 0, 0, PersistenceCommands::save)
            .add("bgsave", -1, FLAG_ADMIN, 0, 0, 0, PersistenceCommands::bgsave)
            .add("lastsave", 1, FLAG_FAST, 0, 0, 0, PersistenceCommands::lastsave);
    }

    /**
     * The store's {@link Checkpointing} capability when it keeps its data on disk
     * ({@link AgniStore#checkpointing()}).
     *
     * @param store a store.
     * @return the capability, or {@code null} when it keeps nothing on disk.
     */
    static Checkpointing onDisk(final AgniStore store)
    {
        return store.checkpointing().orElse(null);
    }

    static void save(final CommandContext context)
    {
        final Checkpointing store = onDisk(context.store());
        if (store == null)
        {
            context.out().error(NOTHING_ON_DISK);
            return;
        }
        if (store.checkpointStatus().inProgress())
        {
            context.out().error(IN_PROGRESS);
            return;
        }
        try
        {
            store.checkpoint();
            context.out().ok();
        }
        catch (final UncheckedIOException | IllegalStateException ex)
        {
            context.out().error("ERR " + ex.getMessage());
        }
    }

    static void bgsave(final CommandContext context)
    {
        final RespArgs args = context.args();
        if (args.count() > 2 || args.count() == 2 && !args.equalsIgnoreCase(1, SCHEDULE))
        {
            context.syntaxError();
            return;
        }
        final Checkpointing store = onDisk(context.store());
        if (store == null)
        {
            context.out().error(NOTHING_ON_DISK);
            return;
        }
        if (store.checkpointInBackground())
        {
            context.out().simpleString(STARTED);
        }
        else
        {
            context.out().error(IN_PROGRESS);
        }
    }

    static void lastsave(final CommandContext context)
    {
        final Checkpointing store = onDisk(context.store());
        if (store == null)
        {
            context.out().error(NOTHING_ON_DISK);
            return;
        }
        context.out().integer(lastSaveSeconds(store.checkpointStatus(), context.server()));
    }

    /**
     * LASTSAVE's and INFO's {@code rdb_last_save_time}: the newest snapshot's time, or the server's start when the
     * directory has none.
     */
    static long lastSaveSeconds(final CheckpointStatus status, final ServerContext server)
    {
        final long millis = status.lastCheckpointMillis();
        return Math.floorDiv(millis > 0 ? millis : server.startTimeMillis(), 1000);
    }
}
