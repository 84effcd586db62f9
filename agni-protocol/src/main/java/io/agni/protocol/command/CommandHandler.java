package io.agni.protocol.command;

/**
 * Executes one command whose name and arity have been checked, writing exactly one reply to
 * {@link CommandContext#out()}.
 *
 * <p>A handler that reads and writes a key calls ONE atomic store primitive, never a read followed by a write.
 * Exceptions the store throws for expected outcomes ({@link io.agni.api.AgniException} subclasses) may propagate:
 * {@link CommandProcessor} maps them to Redis's error replies, so a handler only writes replies for the outcomes it
 * handles itself. A handler must not have written any part of a reply when it throws.
 */
@FunctionalInterface
public interface CommandHandler
{
    /**
     * Executes the command in {@code context}.
     *
     * @param context the command's arguments, the store, the session and the reply writer.
     */
    void execute(CommandContext context);
}
