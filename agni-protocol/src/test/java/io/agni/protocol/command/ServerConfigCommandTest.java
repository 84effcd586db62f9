package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.EvictionPolicy;
import io.agni.store.memory.DirectMemory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Proxy;
import java.util.Locale;
import java.util.Optional;

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
    }

    @ParameterizedTest
    @ValueSource(strings = { "port", "bind", "databases", "timeout", "maxclients", "proto-max-bulk-len" })
    void configSetOfAnotherKnownParameterIsRedisImmutableConfigError(final String name)
    {
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument '" + name + "') - can't set immutable config\r\n",
            harness.reply("CONFIG", "SET", name, "1"));
    }

    @ParameterizedTest
    @CsvSource({
        "noeviction, NO_EVICTION", "allkeys-lru, ALL_KEYS", "allkeys-lfu, ALL_KEYS", "volatile-lru, VOLATILE",
        "volatile-lfu, VOLATILE", "allkeys-random, ALL_KEYS_RANDOM", "volatile-random, VOLATILE_RANDOM",
        "volatile-ttl, VOLATILE_TTL" })
    void configSetMaxmemoryPolicySetsTheStorePolicyAndGetAnswersWithTheNameSet(
        final String name, final EvictionPolicy policy)
    {
        assertEquals("+OK\r\n", harness.reply("CONFIG", "SET", "maxmemory-policy", name.toUpperCase(Locale.ROOT)));
        assertEquals(policy, harness.store.evictionPolicy());
        assertEquals(bulkPair("maxmemory-policy", name), harness.reply("CONFIG", "GET", "maxmemory-policy"));
        assertTrue(harness.reply("INFO", "memory").contains("maxmemory_policy:" + name + "\r\n"));
    }

    @Test
    void aPolicyChangedBehindTheServerIsReportedUnderItsDefaultName()
    {
        assertEquals("+OK\r\n", harness.reply("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu"));
        harness.store.evictionPolicy(EvictionPolicy.VOLATILE);
        assertEquals(bulkPair("maxmemory-policy", "volatile-lru"), harness.reply("CONFIG", "GET", "maxmemory-policy"));
        harness.store.evictionPolicy(EvictionPolicy.ALL_KEYS);
        assertEquals(bulkPair("maxmemory-policy", "allkeys-lfu"), harness.reply("CONFIG", "GET", "maxmemory-policy"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "bogus", "", "allkeys_lru", "lru" })
    void configSetMaxmemoryPolicyRefusesAnotherNameAsRedisDoes(final String name)
    {
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must be one of " +
            "the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, " +
            "allkeys-random, noeviction\r\n",
            harness.reply("CONFIG", "SET", "maxmemory-policy", name));
        assertEquals(EvictionPolicy.NO_EVICTION, harness.store.evictionPolicy());
    }

    @ParameterizedTest
    @CsvSource({ "104857600, 104857600", "100mb, 104857600", "100MB, 104857600", "100m, 100000000",
        "65536k, 65536000", "65536kb, 67108864", "1gb, 1073741824", "1g, 1000000000", "12345678b, 12345678" })
    void configSetMaxmemoryChangesTheStoreBudgetWithRedisUnits(final String value, final long bytes)
    {
        assertEquals("+OK\r\n", harness.reply("CONFIG", "SET", "maxmemory", value));
        assertEquals(bytes, harness.store.maxMemory());
        assertEquals(bytes, harness.store.stats().budgetBytes());
        assertEquals(bulkPair("maxmemory", Long.toString(bytes)), harness.reply("CONFIG", "GET", "maxmemory"));
        assertTrue(harness.reply("INFO", "memory").contains("\r\nmaxmemory:" + bytes + "\r\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "abc", "-1", "1.5gb", " 5", "5 ", "5x", "10 mb", "+5" })
    void configSetMaxmemoryRefusesWhatIsNotAMemoryValueAsRedisDoes(final String value)
    {
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value\r\n",
            harness.reply("CONFIG", "SET", "maxmemory", value));
        assertEquals(1L << 30, harness.store.maxMemory());
    }

    @Test
    void configSetMaxmemoryRefusesABudgetTheStoreCannotHave()
    {
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument out of range: maxMemory " +
            "too small for 4 shards: maxMemory=1000, minimum=32768 (8192 per shard)\r\n",
            harness.reply("CONFIG", "SET", "maxmemory", "1k"));
        assertTrue(harness.reply("CONFIG", "SET", "maxmemory", "99999999999999999999").startsWith(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument out of range: maxMemory " +
            "exceeds the JVM's direct memory limit: maxMemory=9223372036854775807"));
        assertEquals(1L << 30, harness.store.maxMemory());
    }

    @ParameterizedTest
    @ValueSource(strings = { "0", "", "0gb", "0B" })
    void configSetMaxmemoryZeroIsTheLargestBudgetTheStoreCanHave(final String value)
    {
        try (CommandHarness small = new CommandHarness(null, 1L << 20))
        {
            final long largest = DirectMemory.limit();
            assertEquals("+OK\r\n", small.reply("CONFIG", "SET", "maxmemory", value));
            assertEquals(largest, small.store.maxMemory());
            assertEquals(bulkPair("maxmemory", Long.toString(largest)), small.reply("CONFIG", "GET", "maxmemory"));
            assertTrue(small.reply("INFO", "memory").contains("\r\nmaxmemory:" + largest + "\r\n"));
        }
    }

    @Test
    void configSetMaxmemoryZeroLeavesTheClientsTheirShareOfDirectMemory()
    {
        final long clients = 64L << 20;
        final CommandProcessor processor = new CommandProcessor(
            harness.store, new ServerWithClientMemory(harness.server, 0, clients), harness.clock);
        assertEquals("+OK\r\n",
            harness.reply(processor, "CONFIG", "SET", "maxmemory-policy", "allkeys-lru", "maxmemory", "0"));
        final long largest = DirectMemory.limit() - clients;
        assertEquals(largest, harness.store.maxMemory());
        assertEquals(
            bulkPair("maxmemory", Long.toString(largest)), harness.reply(processor, "CONFIG", "GET", "maxmemory"));
        assertEquals(EvictionPolicy.ALL_KEYS, harness.store.evictionPolicy());
    }

    @Test
    void configSetMaxmemoryZeroIsRefusedWhenTheClientsShareLeavesTheStoreNothing()
    {
        final CommandProcessor processor = new CommandProcessor(
            harness.store, new ServerWithClientMemory(harness.server, 0, DirectMemory.limit()), harness.clock);
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument out of range: maxMemory " +
            "too small for 4 shards: maxMemory=0, minimum=32768 (8192 per shard)\r\n",
            harness.reply(processor, "CONFIG", "SET", "maxmemory-policy", "allkeys-lru", "maxmemory", "0"));
        assertEquals(1L << 30, harness.store.maxMemory());
        assertEquals(EvictionPolicy.NO_EVICTION, harness.store.evictionPolicy());
    }

    @Test
    void aFailedConfigSetPutsBackWhatItChangedBefore()
    {
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument out of range: maxMemory " +
            "too small for 4 shards: maxMemory=1000, minimum=32768 (8192 per shard)\r\n",
            harness.reply("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu", "maxmemory", "1k"));
        assertEquals(EvictionPolicy.NO_EVICTION, harness.store.evictionPolicy());
        assertEquals(bulkPair("maxmemory-policy", "noeviction"), harness.reply("CONFIG", "GET", "maxmemory-policy"));
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must be one of " +
            "the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, " +
            "allkeys-random, noeviction\r\n",
            harness.reply("CONFIG", "SET", "maxmemory", "100mb", "maxmemory-policy", "nope"));
        assertEquals(1L << 30, harness.store.maxMemory());
        assertEquals("+OK\r\n", harness.reply("CONFIG", "SET", "maxmemory", "100mb", "maxmemory-policy", "volatile-ttl"));
        assertEquals(100L << 20, harness.store.maxMemory());
        assertEquals(EvictionPolicy.VOLATILE_TTL, harness.store.evictionPolicy());
    }

    @Test
    void aStoreThatCannotEvictAcceptsOnlyItsCurrentPolicyAndBudget()
    {
        final AgniStore plain = (AgniStore)Proxy.newProxyInstance(AgniStore.class.getClassLoader(),
            new Class<?>[] {AgniStore.class}, (proxy, method, args) ->
                method.getReturnType() == Optional.class ? Optional.empty() : method.invoke(harness.store, args));
        final CommandProcessor processor = new CommandProcessor(plain, harness.server, harness.clock);
        assertEquals("+OK\r\n", harness.reply(processor, "CONFIG", "SET", "maxmemory-policy", "noeviction"));
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument must be " +
            "'noeviction' (this store cannot evict: it refuses writes at its budget)\r\n",
            harness.reply(processor, "CONFIG", "SET", "maxmemory-policy", "allkeys-lru"));
        assertEquals("+OK\r\n", harness.reply(processor, "CONFIG", "SET", "maxmemory", "1gb"));
        assertEquals(
            "-ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be '1073741824' " +
            "(this store's budget cannot change while it runs)\r\n",
            harness.reply(processor, "CONFIG", "SET", "maxmemory", "100mb"));
        assertEquals("+OK\r\n", harness.reply(processor, "CONFIG", "SET", "maxmemory", "0"));
        assertEquals(1L << 30, harness.store.maxMemory());
        assertEquals(EvictionPolicy.NO_EVICTION, harness.store.evictionPolicy());
    }

    private static String bulkPair(final String name, final String value)
    {
        return "*2\r\n$" + name.length() + "\r\n" + name + "\r\n$" + value.length() + "\r\n" + value + "\r\n";
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
