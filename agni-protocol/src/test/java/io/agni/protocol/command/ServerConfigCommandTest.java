package io.agni.protocol.command;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CONFIG GET, SET, REWRITE and HELP.
 */
class ServerConfigCommandTest
{
    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void configGetSaveAndAppendonlyAnswerWhatRedisBenchmarkNeeds()
    {
        assertEquals("*2\r\n$4\r\nsave\r\n$0\r\n\r\n", harness.reply("CONFIG", "GET", "save"));
        assertEquals("*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n", harness.reply("CONFIG", "GET", "appendonly"));
    }

    @Test
    void configGetMaxmemoryIsTheStoreBudget()
    {
        assertEquals("*2\r\n$9\r\nmaxmemory\r\n$10\r\n1073741824\r\n", harness.reply("CONFIG", "GET", "maxmemory"));
        try (CommandHarness small = new CommandHarness(null, 1L << 20))
        {
            assertEquals("*2\r\n$9\r\nmaxmemory\r\n$7\r\n1048576\r\n", small.reply("CONFIG", "GET", "maxmemory"));
        }
    }

    @ParameterizedTest
    @CsvSource({
        "databases, 1", "maxmemory-policy, noeviction", "port, 0", "bind, ''", "timeout, 0", "maxclients, 10000",
        "proto-max-bulk-len, 536870912", "cluster-enabled, no", "maxmemory-clients, 0",
        "client-query-buffer-limit, 1073741824",
        "client-output-buffer-limit, normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60" })
    void configGetReportsAgnisSettings(final String name, final String value)
    {
        assertEquals(
            "*2\r\n$" + name.length() + "\r\n" + name + "\r\n$" + value.length() + "\r\n" + value + "\r\n",
            harness.reply("CONFIG", "GET", name));
    }

    @Test
    void configGetOfAnUnknownParameterIsAnEmptyArray()
    {
        assertEquals("*0\r\n", harness.reply("CONFIG", "GET", "no-such-parameter"));
        assertEquals("*0\r\n", harness.reply("CONFIG", "GET", "zz*"));
    }

    @Test
    void configGetMatchesGlobPatternsInTableOrder()
    {
        assertEquals(
            "*8\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n$9\r\nmaxmemory\r\n$10\r\n1073741824\r\n" +
            "$17\r\nmaxmemory-clients\r\n$1\r\n0\r\n$16\r\nmaxmemory-policy\r\n$10\r\nnoeviction\r\n",
            harness.reply("CONFIG", "GET", "max*"));
        assertEquals("*2\r\n$4\r\nsave\r\n$0\r\n\r\n", harness.reply("CONFIG", "GET", "s?v[a-f]"));
        assertEquals(28, count(harness.reply("CONFIG", "GET", "*")));
    }

    @Test
    void configGetTakesSeveralPatternsAndReportsEachParameterOnce()
    {
        assertEquals(
            "*4\r\n$4\r\nsave\r\n$0\r\n\r\n$10\r\nappendonly\r\n$2\r\nno\r\n",
            harness.reply("CONFIG", "GET", "save", "appendonly", "sa*", "SAVE"));
    }

    @Test
    void configGetIgnoresCaseAndEchoesAnExactNameAsGiven()
    {
        assertEquals("*2\r\n$4\r\nSAVE\r\n$0\r\n\r\n", harness.reply("CONFIG", "GET", "SAVE"));
        assertEquals("*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n", harness.reply("CONFIG", "GET", "APPEND*"));
    }

    @Test
    void configGetNeverRevealsThePassword()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            secured.reply("AUTH", "s3cret");
            assertEquals("*0\r\n", secured.reply("CONFIG", "GET", "requirepass"));
            assertFalse(secured.reply("CONFIG", "GET", "*").contains("s3cret"));
        }
    }

    @ParameterizedTest
    @CsvSource({ "save, ''", "appendonly, no", "appendonly, NO", "maxmemory-policy, noeviction", "SAVE, ''" })
    void configSetAcceptsTheOneSupportedValueAsANoOp(final String name, final String value)
    {
        assertEquals("+OK\r\n", harness.reply("CONFIG", "SET", name, value));
    }

    @Test
    void configSetAcceptsSeveralPairs()
    {
        assertEquals("+OK\r\n", harness.reply("CONFIG", "SET", "save", "", "appendonly", "no"));
    }

    @Test
    void configSetOfAnotherValueSaysWhatAgniSupports()
    {
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'appendonly') - argument must be 'no' " +
            "(the store's durability is chosen when it is opened)\r\n",
            harness.reply("CONFIG", "SET", "appendonly", "yes"));
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'save') - argument must be '' " +
            "(agni has no save schedule: its store checkpoints as its log grows, and on SAVE and BGSAVE)\r\n",
            harness.reply("CONFIG", "SET", "SAVE", "3600 1"));
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must be one of " +
            "the following: noeviction\r\n",
            harness.reply("CONFIG", "SET", "maxmemory-policy", "allkeys-lru"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "maxmemory", "port", "bind", "databases", "timeout", "maxclients", "proto-max-bulk-len" })
    void configSetOfAnotherKnownParameterIsRedisImmutableConfigError(final String name)
    {
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument '" + name + "') - can't set immutable config\r\n",
            harness.reply("CONFIG", "SET", name, "1"));
    }

    @Test
    void configSetOfAnUnknownParameterIsRedisUnknownOptionError()
    {
        assertEquals(
            "-ERR Unknown option or number of arguments for CONFIG SET - 'foo'\r\n",
            harness.reply("CONFIG", "SET", "foo", "bar"));
        assertEquals(
            "-ERR Unknown option or number of arguments for CONFIG SET - 'requirepass'\r\n",
            harness.reply("CONFIG", "SET", "requirepass", "x"));
    }

    @Test
    void configSetReportsTheFirstBadParameterAndChangesNothing()
    {
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'port') - can't set immutable config\r\n",
            harness.reply("CONFIG", "SET", "save", "", "port", "1", "foo", "x"));
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'save') - duplicate parameter\r\n",
            harness.reply("CONFIG", "SET", "save", "", "save", ""));
    }

    @Test
    void configSetWithAParameterMissingItsValueIsASyntaxError()
    {
        assertEquals("-ERR syntax error\r\n", harness.reply("CONFIG", "SET", "save", "", "appendonly"));
    }

    @Test
    void configRewriteSaysThereIsNoConfigFile()
    {
        assertEquals("-ERR The server is running without a config file\r\n", harness.reply("CONFIG", "REWRITE"));
    }

    @Test
    void configHelpListsTheSubcommands()
    {
        assertEquals(
            "*11\r\n+CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+GET <pattern>\r\n" +
            "+    Return parameters matching the glob-like <pattern> and their values.\r\n" +
            "+SET <directive> <value>\r\n+    Set the configuration <directive> to <value>.\r\n+RESETSTAT\r\n" +
            "+    Reset statistics reported by the INFO command.\r\n+REWRITE\r\n" +
            "+    Rewrite the configuration file.\r\n+HELP\r\n+    Prints this help.\r\n",
            harness.reply("config", "help"));
    }

    @Test
    void configUnknownSubcommandGetsRedisText()
    {
        assertEquals("-ERR unknown subcommand 'RESETSTATS'. Try CONFIG HELP.\r\n", harness.reply("CONFIG", "RESETSTATS"));
        assertEquals("-ERR unknown subcommand 'foo'. Try CONFIG HELP.\r\n", harness.reply("config", "foo", "bar"));
    }

    @ParameterizedTest
    @CsvSource({
        "CONFIG GET, config|get", "CONFIG SET save, config|set", "CONFIG SET, config|set",
        "CONFIG REWRITE x, config|rewrite", "CONFIG HELP x, config|help", "CONFIG RESETSTAT x, config|resetstat" })
    void wrongArityOfASubcommandNamesTheSubcommand(final String command, final String fullName)
    {
        assertEquals(
            "-ERR wrong number of arguments for '" + fullName + "' command\r\n", harness.reply(command.split(" ")));
    }

    @ParameterizedTest
    @CsvSource({
        "save, save, true", "SA*, save, true", "*, anything, true", "s?ve, save, true", "s?ve, sve, false",
        "[a-c]x, bx, true", "[^a-c]x, bx, false", "[c-a]x, bx, true", "a\\*, a*, true", "a\\*, ab, false",
        "*mem*, maxmemory-policy, true", "*a*a*a*a*a*a*b, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, false",
        "[abc, b, true", "max*, maxclients, true", "max*y, maxmemory-policy, true", "**, '', true" })
    void globMatchesAsRedisStringmatchIgnoringCase(final String pattern, final String text, final boolean matches)
    {
        assertEquals(matches, ServerConfigCommand.Glob.matches(pattern, text));
    }

    private static int count(final String arrayReply)
    {
        return Integer.parseInt(arrayReply.substring(1, arrayReply.indexOf("\r\n")));
    }
}
