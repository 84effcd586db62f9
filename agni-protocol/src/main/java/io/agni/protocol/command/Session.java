package io.agni.protocol.command;

import io.agni.protocol.BufferMemory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of one client connection that commands read and change: its id, name, library, whether it has
 * authenticated, its transaction ({@code MULTI}'s queue). The network adapter makes one per connection and
 * {@link #close() closes} it with the connection; tests make them directly.
 *
 * <h2>Threads</h2>
 * Owned by the thread that serves the connection. Fields other threads read for {@code CLIENT LIST} or {@code INFO}
 * (name, library, last command time) are volatile, so a listing is never torn but may be slightly stale. The last
 * command and its time change with every command, so the owning thread writes them with release stores (a plain
 * store on x86, where a volatile store costs a full fence per command); the volatile reads of a listing pair with
 * them.
 */
public final class Session
{
    private static final VarHandle LAST_COMMAND_MILLIS;
    private static final VarHandle LAST_COMMAND;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            LAST_COMMAND_MILLIS = lookup.findVarHandle(Session.class, "lastCommandMillis", long.class);
            LAST_COMMAND = lookup.findVarHandle(Session.class, "lastCommand", String.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final long id;
    private final String remoteAddress;
    private final String localAddress;
    private final long createdMillis;
    private volatile String name = "";
    private volatile String libraryName = "";
    private volatile String libraryVersion = "";
    private volatile long lastCommandMillis;
    private volatile String lastCommand = "NULL";
    private volatile long queryBufferBytes;
    private volatile long replyBufferBytes;
    private volatile int protocol = 2;
    private boolean authenticated;
    private final TransactionQueue transaction = new TransactionQueue();

    /**
     * A new session, not authenticated yet.
     *
     * @param id            the client id, unique within the server, from 1.
     * @param remoteAddress the peer's address as {@code ip:port}.
     * @param localAddress  the server's address of the connection as {@code ip:port}.
     * @param createdMillis when the connection was accepted, epoch milliseconds.
     */
    public Session(final long id, final String remoteAddress, final String localAddress, final long createdMillis)
    {
        this.id = id;
        this.remoteAddress = remoteAddress;
        this.localAddress = localAddress;
        this.createdMillis = createdMillis;
        this.lastCommandMillis = createdMillis;
    }

    /**
     * Returns the client id.
     *
     * @return the client id.
     */
    public long id()
    {
        return id;
    }

    /**
     * Returns the peer's address, {@code ip:port}.
     *
     * @return the peer's address, {@code ip:port}.
     */
    public String remoteAddress()
    {
        return remoteAddress;
    }

    /**
     * Returns the server's address of the connection, {@code ip:port}.
     *
     * @return the server's address of the connection, {@code ip:port}.
     */
    public String localAddress()
    {
        return localAddress;
    }

    /**
     * Returns when the connection was accepted, epoch milliseconds.
     *
     * @return when the connection was accepted, epoch milliseconds.
     */
    public long createdMillis()
    {
        return createdMillis;
    }

    /**
     * Returns the name set by {@code CLIENT SETNAME} or {@code HELLO SETNAME}, empty when none.
     *
     * @return the name set by {@code CLIENT SETNAME} or {@code HELLO SETNAME}, empty when none.
     */
    public String name()
    {
        return name;
    }

    /**
     * Sets the connection's name ({@code CLIENT SETNAME}).
     *
     * @param name the new name, empty for none.
     */
    public void name(final String name)
    {
        this.name = name;
    }

    /**
     * Returns the library name set by {@code CLIENT SETINFO LIB-NAME}, empty when none.
     *
     * @return the library name set by {@code CLIENT SETINFO LIB-NAME}, empty when none.
     */
    public String libraryName()
    {
        return libraryName;
    }

    /**
     * Sets the client library's name ({@code CLIENT SETINFO LIB-NAME}).
     *
     * @param libraryName the library name.
     */
    public void libraryName(final String libraryName)
    {
        this.libraryName = libraryName;
    }

    /**
     * Returns the library version set by {@code CLIENT SETINFO LIB-VER}, empty when none.
     *
     * @return the library version set by {@code CLIENT SETINFO LIB-VER}, empty when none.
     */
    public String libraryVersion()
    {
        return libraryVersion;
    }

    /**
     * Sets the client library's version ({@code CLIENT SETINFO LIB-VER}).
     *
     * @param libraryVersion the library version.
     */
    public void libraryVersion(final String libraryVersion)
    {
        this.libraryVersion = libraryVersion;
    }

    /**
     * Returns whether the client has authenticated (always true in effect when no password is set).
     *
     * @return whether the client has authenticated (always true in effect when no password is set).
     */
    public boolean authenticated()
    {
        return authenticated;
    }

    /**
     * Records whether the client has authenticated.
     *
     * @param authenticated whether the client has authenticated.
     */
    public void authenticated(final boolean authenticated)
    {
        this.authenticated = authenticated;
    }

    /**
     * Returns the RESP version the connection speaks, 2 (the default) or 3 ({@code CLIENT LIST}'s {@code resp}).
     *
     * @return 2 or 3.
     */
    public int protocol()
    {
        return protocol;
    }

    /**
     * Records the RESP version the connection speaks ({@code HELLO}, {@code RESET}); the reply writer is switched
     * with it by {@link CommandContext#protocol(int)}.
     *
     * @param protocol 2 or 3.
     */
    void protocol(final int protocol)
    {
        this.protocol = protocol;
    }

    /**
     * Returns when the last command was executed, epoch milliseconds.
     *
     * @return when the last command was executed, epoch milliseconds.
     */
    public long lastCommandMillis()
    {
        return lastCommandMillis;
    }

    /**
     * Returns the lower-case name of the last command executed ({@code "client|list"} for a subcommand), {@code "NULL"}
     * before the first.
     *
     * @return the lower-case name of the last command executed ({@code "client|list"} for a subcommand),
     * {@code "NULL"} before the first.
     */
    public String lastCommand()
    {
        return lastCommand;
    }

    /**
     * Returns the bytes the connection's query buffer holds allocated ({@code CLIENT LIST}'s {@code qbuf}).
     *
     * @return the bytes the connection's query buffer holds allocated ({@code CLIENT LIST}'s {@code qbuf}).
     */
    public long queryBufferBytes()
    {
        return queryBufferBytes;
    }

    /**
     * Returns the bytes the connection's reply buffer holds allocated ({@code CLIENT LIST}'s {@code rbs}).
     *
     * @return the bytes the connection's reply buffer holds allocated ({@code CLIENT LIST}'s {@code rbs}).
     */
    public long replyBufferBytes()
    {
        return replyBufferBytes;
    }

    /**
     * Publishes the sizes of the connection's buffers, each time one is allocated anew (rarely: a growth or a
     * shrink). Only the thread that serves the connection.
     *
     * @param queryBufferBytes the query buffer's capacity.
     * @param replyBufferBytes the reply buffer's capacity.
     */
    public void bufferMemory(final long queryBufferBytes, final long replyBufferBytes)
    {
        this.queryBufferBytes = queryBufferBytes;
        this.replyBufferBytes = replyBufferBytes;
    }

    /**
     * Sets the account the connection's transaction queue reports its memory to (the server's client memory) and
     * the most bytes of commands it queues; a transaction that would queue more is aborted
     * ({@code docs/protocol.md}, "Transactions"). Only the thread that serves the connection, before its first
     * command.
     *
     * @param memory   the account.
     * @param maxBytes the most bytes queued, at least 1.
     */
    public void transactionLimits(final BufferMemory memory, final int maxBytes)
    {
        transaction.limits(memory, maxBytes);
    }

    /**
     * Whether the client is inside {@code MULTI} ({@code CLIENT LIST}'s {@code flags=x}). Any thread.
     *
     * @return whether a transaction is open.
     */
    public boolean inTransaction()
    {
        return transaction.queuedCount() >= 0;
    }

    /**
     * The commands the open transaction has queued ({@code CLIENT LIST}'s {@code multi}). Any thread.
     *
     * @return the count, {@code -1} outside a transaction.
     */
    public int queuedCommands()
    {
        return transaction.queuedCount();
    }

    /**
     * The bytes the transaction queue holds allocated ({@code CLIENT LIST}'s {@code multi-mem}). Any thread.
     *
     * @return the bytes, 0 when none.
     */
    public long transactionBufferBytes()
    {
        return transaction.capacity();
    }

    /**
     * Discards the transaction and frees its memory: the connection is closing. Only the thread that serves the
     * connection; the session is not used for commands again.
     */
    public void close()
    {
        transaction.free();
    }

    TransactionQueue transaction()
    {
        return transaction;
    }

    void commandExecuted(final String command, final long nowMillis)
    {
        // Release stores: publish the name and time to a CLIENT LIST on another thread (its volatile reads).
        LAST_COMMAND.setRelease(this, command);
        LAST_COMMAND_MILLIS.setRelease(this, nowMillis);
    }

    /**
     * Names the command being executed more precisely once a container command (CLIENT, CONFIG, COMMAND) has found
     * its subcommand, so that {@code CLIENT LIST} shows {@code cmd=client|list} as Redis does.
     *
     * @param fullName the subcommand's full name, e.g. {@code "client|list"}.
     */
    void subcommandExecuted(final String fullName)
    {
        // Release store, as in commandExecuted.
        LAST_COMMAND.setRelease(this, fullName);
    }
}
