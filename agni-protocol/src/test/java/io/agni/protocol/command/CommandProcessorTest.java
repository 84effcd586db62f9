package io.agni.protocol.command;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class CommandProcessorTest
{
    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void commandNamesAreCaseInsensitive()
    {
        assertEquals("+PONG\r\n", harness.reply("ping"));
        assertEquals("+PONG\r\n", harness.reply("PING"));
        assertEquals("+PONG\r\n", harness.reply("PiNg"));
    }

    @Test
    void unknownCommandGetsRedisTextWithItsFirstArguments()
    {
        assertEquals(
            "-ERR unknown command 'foo', with args beginning with: 'a' 'b c' \r\n",
            harness.reply("foo", "a", "b c"));
        assertEquals("-ERR unknown command 'foo', with args beginning with: \r\n", harness.reply("foo"));
    }

    @Test
    void unknownCommandListsArgumentsUpTo128Bytes()
    {
        final String longArg = "x".repeat(300);
        final String reply = harness.reply("nope", longArg, "second");
        assertEquals("-ERR unknown command 'nope', with args beginning with: '" + "x".repeat(128) + "' \r\n", reply);
    }

    @Test
    void unknownCommandWithLineBreaksCannotSplitTheReply()
    {
        assertEquals(
            "-ERR unknown command 'a  b', with args beginning with: 'c d' \r\n",
            harness.reply("a\r\nb", "c\nd"));
    }

    @Test
    void wrongArityGetsRedisText()
    {
        assertEquals("-ERR wrong number of arguments for 'ping' command\r\n", harness.reply("ping", "a", "b"));
    }

    @Test
    void emptyCommandIsIgnored()
    {
        assertEquals("", harness.reply(new byte[0][]));
    }

    @Test
    void tableLooksUpEveryRegisteredCommandInAnyCase()
    {
        final CommandTable table = harness.processor.table();
        for (final Command command : table.commands())
        {
            assertSame(command, table.lookup(command.name()));
            assertSame(command, table.lookup(command.name().toUpperCase(java.util.Locale.ROOT)));
        }
        assertNotNull(table.lookup("PING"));
    }

    @Test
    void clientThatHasNotAuthenticatedGetsNoauthForCommandsNotMarkedNoAuth()
    {
        final CommandTable table = new CommandTable.Builder()
            .add("ping", -1, Command.FLAG_NO_AUTH, 0, 0, 0, ConnectionCommands::ping)
            .add("secret", 1, 0, 0, 0, 0, context -> context.out().ok())
            .build();
        try (CommandHarness secured = new CommandHarness("pw", 1L << 20))
        {
            final CommandProcessor processor =
                new CommandProcessor(secured.store, secured.server, secured.clock, table);
            final io.agni.protocol.RespWriter out = new io.agni.protocol.RespWriter(64);
            processor.execute(secured.session, io.agni.protocol.RespArgs.of("secret"), out);
            processor.execute(secured.session, io.agni.protocol.RespArgs.of("ping"), out);
            secured.session.authenticated(true);
            processor.execute(secured.session, io.agni.protocol.RespArgs.of("secret"), out);
            final byte[] bytes = new byte[out.position()];
            out.buffer().getBytes(0, bytes);
            assertEquals(
                "-NOAUTH Authentication required.\r\n+PONG\r\n+OK\r\n",
                new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void theScratchBufferReturnsToItsSmallSizeAfterALargeCommand()
    {
        final CommandTable table = new CommandTable.Builder()
            .add("fill", 2, 0, 0, 0, 0, context ->
            {
                context.scratch().setMemory(0, Integer.parseInt(context.args().asString(1)), (byte)'x');
                context.out().integer(context.scratch().capacity());
            })
            .build();
        final CommandProcessor processor = new CommandProcessor(harness.store, harness.server, harness.clock, table);
        final io.agni.protocol.RespWriter out = new io.agni.protocol.RespWriter(64);

        processor.execute(harness.session, io.agni.protocol.RespArgs.of("fill", "1000000"), out);

        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        assertEquals(":1000000\r\n", new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1),
            "the command had a 1 MB scratch buffer");
        assertEquals(CommandContext.SCRATCH_CAPACITY, processor.scratchCapacity(), "and gave it back after");
        processor.free();
        out.free();
    }
}
