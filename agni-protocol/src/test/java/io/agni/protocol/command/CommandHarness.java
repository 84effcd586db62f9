package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;
import org.agrona.concurrent.CachedEpochClock;

import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;

/**
 * Runs commands through a {@link CommandProcessor} on a small {@link OffHeapStore} with a manual clock, and returns
 * each raw RESP reply as text (ISO-8859-1, so every byte maps to one char).
 */
final class CommandHarness implements AutoCloseable
{
    static final long START_MILLIS = 1_700_000_000_000L;

    final CachedEpochClock clock = new CachedEpochClock();
    final OffHeapStore store;
    final LocalServerContext server;
    final CommandProcessor processor;
    final Session session;
    final RespWriter out = new RespWriter(256);
    Outcome lastOutcome;

    CommandHarness()
    {
        this(null, 1L << 30);
    }

    CommandHarness(final String password, final long maxMemory)
    {
        this(password, maxMemory, UnaryOperator.identity());
    }

    /**
     * A harness whose store is configured further, e.g. given a directory.
     *
     * @param configure adds settings to the store's builder.
     */
    CommandHarness(final UnaryOperator<OffHeapStoreBuilder> configure)
    {
        this(null, 1L << 30, configure);
    }

    private CommandHarness(
        final String password, final long maxMemory, final UnaryOperator<OffHeapStoreBuilder> configure)
    {
        clock.update(START_MILLIS);
        store = configure.apply(OffHeapStore.builder().shards(4).maxMemory(maxMemory).clock(clock)).build();
        server = new LocalServerContext(password, START_MILLIS);
        processor = new CommandProcessor(store, server, clock);
        session = newSession(1);
    }

    Session newSession(final long id)
    {
        final Session session = new Session(id, "127.0.0.1:" + (50000 + id), "127.0.0.1:6379", clock.time());
        server.add(session);
        return session;
    }

    /**
     * Executes one command for the harness's session.
     *
     * @param args the command and its arguments.
     * @return the raw reply.
     */
    String reply(final String... args)
    {
        return reply(session, RespArgs.of(args));
    }

    String reply(final byte[]... args)
    {
        return reply(session, RespArgs.of(args));
    }

    String reply(final Session session, final RespArgs args)
    {
        return reply(processor, session, args);
    }

    /**
     * Executes one command for the harness's session on another processor over the harness's store, e.g. one whose
     * server context reports what {@link LocalServerContext} does not.
     *
     * @param other the processor.
     * @param args  the command and its arguments.
     * @return the raw reply.
     */
    String reply(final CommandProcessor other, final String... args)
    {
        return reply(other, session, RespArgs.of(args));
    }

    private String reply(final CommandProcessor other, final Session session, final RespArgs args)
    {
        out.reset();
        lastOutcome = other.execute(session, args, out);
        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    void advanceMillis(final long millis)
    {
        clock.advance(millis);
    }

    @Override
    public void close()
    {
        store.close();
    }
}
