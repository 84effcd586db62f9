package io.agni.protocol.command;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * One entry of the {@link CommandTable}: a command's name, its arity and key positions as Redis's {@code COMMAND}
 * reports them, its flags, and its handler.
 *
 * @param name     the name in lower case, e.g. {@code "get"}.
 * @param arity    Redis's arity: {@code n > 0} means exactly n arguments (the name included), {@code -n} at least n.
 * @param flags    a bit set of the {@code FLAG_} constants.
 * @param firstKey the index of the first key argument, 0 when the command takes no key.
 * @param lastKey  the index of the last key argument, -1 for "the last argument", 0 when none.
 * @param keyStep  the step between key arguments (2 for MSET), 0 when none.
 * @param handler  what executes it.
 */
public record Command(String name, int arity, int flags, int firstKey, int lastKey, int keyStep, CommandHandler handler)
{
    /**
     * The command writes to the keyspace.
     */
    public static final int FLAG_WRITE = 1;

    /**
     * The command only reads the keyspace.
     */
    public static final int FLAG_READONLY = 1 << 1;

    /**
     * The command may be executed before the client authenticates (AUTH, HELLO, QUIT, RESET).
     */
    public static final int FLAG_NO_AUTH = 1 << 2;

    /**
     * The command may need memory (a write that can grow the store); refused when the store is full.
     */
    public static final int FLAG_DENY_OOM = 1 << 3;

    /**
     * The command is fast: O(1) or O(log n).
     */
    public static final int FLAG_FAST = 1 << 4;

    /**
     * The command concerns the connection or the server, not the keyspace.
     */
    public static final int FLAG_ADMIN = 1 << 5;

    /**
     * The command is refused inside a transaction ({@code ERR Command not allowed inside a transaction}), which it
     * then makes {@code EXEC} abort: Redis's {@code no-multi} (SAVE).
     */
    public static final int FLAG_NO_MULTI = 1 << 6;

    /**
     * Inside a transaction the command runs at once instead of being queued: MULTI, EXEC, DISCARD, QUIT and RESET,
     * as Redis's {@code processCommand} singles them out. Not one of Redis's flags: {@code COMMAND} does not show
     * it.
     */
    public static final int FLAG_NOT_QUEUED = 1 << 7;

    /**
     * Validates the components.
     *
     * @param name     the name in lower case.
     * @param arity    Redis's arity.
     * @param flags    a bit set of the {@code FLAG_} constants.
     * @param firstKey the index of the first key argument.
     * @param lastKey  the index of the last key argument.
     * @param keyStep  the step between key arguments.
     * @param handler  what executes it.
     */
    public Command
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        if (name.isEmpty() || !name.equals(name.toLowerCase(Locale.ROOT)))
        {
            throw new IllegalArgumentException("command name must be non-empty lower case: " + name);
        }
        if (arity == 0)
        {
            throw new IllegalArgumentException("arity must not be 0: " + name);
        }
    }

    /**
     * Whether {@code argumentCount} arguments (the name included) satisfy the arity.
     *
     * @param argumentCount the number of arguments.
     * @return whether the count is allowed.
     */
    public boolean acceptsArgumentCount(final int argumentCount)
    {
        return arity > 0 ? argumentCount == arity : argumentCount >= -arity;
    }

    /**
     * Whether this command has a flag.
     *
     * @param flag one of the {@code FLAG_} constants.
     * @return whether this command has it.
     */
    public boolean hasFlag(final int flag)
    {
        return (flags & flag) != 0;
    }

    byte[] upperCaseName()
    {
        return name.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
    }
}
