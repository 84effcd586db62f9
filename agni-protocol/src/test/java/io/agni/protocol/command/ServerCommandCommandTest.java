package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * COMMAND and its subcommands, over a table of the connection and server commands plus one keyed command, so that
 * the replies do not depend on the other command families.
 */
class ServerCommandCommandTest
{
    private static final String PING_INFO =
        "*10\r\n$4\r\nping\r\n:-1\r\n*1\r\n+fast\r\n:0\r\n:0\r\n:0\r\n*1\r\n+@fast\r\n*0\r\n*0\r\n*0\r\n";
    private static final String MSET_INFO = "*10\r\n$4\r\nmset\r\n:-3\r\n*2\r\n+write\r\n+denyoom\r\n:1\r\n:-1\r\n:2\r\n" +
        "*2\r\n+@write\r\n+@slow\r\n*0\r\n" +
        "*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RW\r\n+update\r\n" +
        "$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n" +
        "$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n" +
        "*6\r\n$7\r\nlastkey\r\n:-1\r\n$7\r\nkeystep\r\n:2\r\n$5\r\nlimit\r\n:0\r\n*0\r\n";

    private final CommandHarness harness = new CommandHarness();
    private final CommandTable table;
    private final CommandProcessor processor;
    private final RespWriter out = new RespWriter(256);

    ServerCommandCommandTest()
    {
        final CommandTable.Builder builder = new CommandTable.Builder();
        ConnectionCommands.register(builder);
        ServerCommands.register(builder);
        builder.add("mset", -3, Command.FLAG_WRITE | Command.FLAG_DENY_OOM, 1, -1, 2, context -> context.out().ok());
        builder.add("get", 2, Command.FLAG_READONLY | Command.FLAG_FAST, 1, 1, 1, context -> context.out().ok());
        table = builder.build();
        processor = new CommandProcessor(harness.store, harness.server, harness.clock, table);
    }

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void commandRepliesTenFieldsForEveryCommandInTheTable()
    {
        final List<?> commands = (List<?>)parse(reply("COMMAND"));
        assertEquals(table.commands().size(), commands.size());
        for (int i = 0; i < commands.size(); i++)
        {
            final List<?> info = (List<?>)commands.get(i);
            assertEquals(10, info.size());
            assertEquals(table.commands().get(i).name(), info.get(0));
            assertEquals((long)table.commands().get(i).arity(), info.get(1));
        }
    }

    @Test
    void commandOfTheStandardTableIsValidResp()
    {
        final List<?> commands = (List<?>)parse(harness.reply("COMMAND"));
        assertEquals(harness.processor.table().commands().size(), commands.size());
    }

    @Test
    void commandCountIsTheNumberOfTopLevelCommands()
    {
        assertEquals(":" + table.commands().size() + "\r\n", reply("COMMAND", "COUNT"));
    }

    @Test
    void commandInfoDescribesACommandAsRedis7Does()
    {
        assertEquals("*1\r\n" + PING_INFO, reply("COMMAND", "INFO", "ping"));
        assertEquals("*1\r\n" + MSET_INFO, reply("COMMAND", "INFO", "MSET"));
        assertEquals("*2\r\n" + PING_INFO + "$-1\r\n", reply("command", "info", "PING", "nosuchcommand"));
    }

    @Test
    void commandInfoWithoutNamesDescribesEveryCommand()
    {
        assertEquals(reply("COMMAND"), reply("COMMAND", "INFO"));
    }

    @Test
    void commandInfoOfAContainerListsItsSubcommands()
    {
        final List<?> client = (List<?>)((List<?>)parse(reply("COMMAND", "INFO", "client"))).get(0);
        assertEquals("client", client.get(0));
        assertEquals(-2L, client.get(1));
        final List<?> subcommands = (List<?>)client.get(9);
        assertEquals(ConnectionClientCommand.SUBCOMMANDS.commands().size(), subcommands.size());
        final List<String> names = new ArrayList<>();
        for (final Object subcommand : subcommands)
        {
            names.add((String)((List<?>)subcommand).get(0));
        }
        assertTrue(names.containsAll(List.of("client|setname", "client|list", "client|setinfo")), names::toString);
        assertEquals(
            "*1\r\n*10\r\n$11\r\nclient|list\r\n:-2\r\n*1\r\n+admin\r\n:0\r\n:0\r\n:0\r\n" +
            "*3\r\n+@admin\r\n+@slow\r\n+@dangerous\r\n*0\r\n*0\r\n*0\r\n",
            reply("COMMAND", "INFO", "CLIENT|LIST"));
    }

    @Test
    void commandDocsIsAnEmptyArrayWhichRedisCliAccepts()
    {
        assertEquals("*0\r\n", reply("COMMAND", "DOCS"));
        assertEquals("*0\r\n", reply("COMMAND", "DOCS", "get", "set"));
    }

    @Test
    void commandListNamesEveryCommandAndSubcommand()
    {
        final List<?> names = (List<?>)parse(reply("COMMAND", "LIST"));
        assertTrue(names.containsAll(List.of("ping", "config", "config|get", "client|list", "command|docs")));
        assertEquals(List.of("get"), parse(reply("COMMAND", "LIST", "FILTERBY", "PATTERN", "?e?")));
        assertEquals(
            List.of("flushall", "flushdb", "mset"), parse(reply("COMMAND", "LIST", "FILTERBY", "ACLCAT", "WRITE")));
        assertEquals(List.of("config|get", "config|set"), parse(reply("COMMAND", "LIST", "FILTERBY", "PATTERN",
            "CONFIG|?et")));
        assertEquals("*0\r\n", reply("COMMAND", "LIST", "FILTERBY", "MODULE", "json"));
        assertEquals("-ERR syntax error\r\n", reply("COMMAND", "LIST", "FILTERBY", "ACLCAT"));
        assertEquals("-ERR syntax error\r\n", reply("COMMAND", "LIST", "FILTERBY", "NAME", "x"));
    }

    @Test
    void commandGetkeysFindsTheKeysOfACommand()
    {
        assertEquals("*2\r\n$1\r\na\r\n$1\r\nb\r\n", reply("COMMAND", "GETKEYS", "MSET", "a", "1", "b", "2"));
        assertEquals("*1\r\n$1\r\nk\r\n", reply("COMMAND", "GETKEYS", "get", "k"));
        assertEquals("-ERR Invalid command specified\r\n", reply("COMMAND", "GETKEYS", "nosuchcommand", "k"));
        assertEquals("-ERR The command has no key arguments\r\n", reply("COMMAND", "GETKEYS", "ping", "x"));
        assertEquals(
            "-ERR Invalid number of arguments specified for command\r\n", reply("COMMAND", "GETKEYS", "get", "a", "b"));
    }

    @Test
    void commandHelpListsTheSubcommands()
    {
        final List<?> help = (List<?>)parse(reply("COMMAND", "HELP"));
        assertEquals("COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", help.get(0));
        assertEquals("    Prints this help.", help.get(help.size() - 1));
    }

    @Test
    void commandUnknownSubcommandGetsRedisText()
    {
        assertEquals("-ERR unknown subcommand 'foo'. Try COMMAND HELP.\r\n", reply("COMMAND", "foo"));
    }

    @ParameterizedTest
    @CsvSource({
        "COMMAND COUNT x, command|count", "COMMAND GETKEYS, command|getkeys", "COMMAND HELP x, command|help" })
    void wrongArityOfASubcommandNamesTheSubcommand(final String command, final String fullName)
    {
        assertEquals("-ERR wrong number of arguments for '" + fullName + "' command\r\n", reply(command.split(" ")));
    }

    @Test
    void theSessionRecordsTheSubcommandItRan()
    {
        reply("COMMAND", "COUNT");
        assertEquals("command|count", harness.session.lastCommand());
        reply("COMMAND");
        assertEquals("command", harness.session.lastCommand());
    }

    private String reply(final String... args)
    {
        out.reset();
        processor.execute(harness.session, RespArgs.of(args), out);
        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * Parses one RESP2 reply that must fill {@code text} exactly: simple strings and bulk strings become
     * {@code String}, integers {@code Long}, arrays {@code List}, nulls {@code null}, errors an {@link AssertionError}.
     */
    static Object parse(final String text)
    {
        final int[] position = { 0 };
        final Object value = parse(text, position);
        assertEquals(text.length(), position[0], "trailing bytes after the reply");
        return value;
    }

    private static Object parse(final String text, final int[] position)
    {
        final int lineEnd = text.indexOf("\r\n", position[0]);
        assertTrue(lineEnd > position[0], "a line at " + position[0]);
        final char type = text.charAt(position[0]);
        final String line = text.substring(position[0] + 1, lineEnd);
        position[0] = lineEnd + 2;
        switch (type)
        {
            case '+':
                return line;
            case '-':
                throw new AssertionError("error reply: " + line);
            case ':':
                return Long.parseLong(line);
            case '$':
                final int length = Integer.parseInt(line);
                if (length < 0)
                {
                    return null;
                }
                final String bulk = text.substring(position[0], position[0] + length);
                assertEquals("\r\n", text.substring(position[0] + length, position[0] + length + 2));
                position[0] += length + 2;
                return bulk;
            case '*':
                final int count = Integer.parseInt(line);
                if (count < 0)
                {
                    return null;
                }
                final List<Object> elements = new ArrayList<>(count);
                for (int i = 0; i < count; i++)
                {
                    elements.add(parse(text, position));
                }
                return elements;
            default:
                throw new AssertionError("not a RESP2 type: " + type);
        }
    }

    @Test
    void parserReadsNestedRepliesAndNulls()
    {
        final List<?> parsed = (List<?>)parse("*3\r\n$-1\r\n*1\r\n:5\r\n+OK\r\n");
        assertNull(parsed.get(0));
        assertInstanceOf(List.class, parsed.get(1));
        assertEquals("OK", parsed.get(2));
    }
}
