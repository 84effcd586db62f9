package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionCommandsTest
{
    static final String HELLO_REPLY_ID_1 = "*14\r\n" +
        "$6\r\nserver\r\n$4\r\nagni\r\n" +
        "$7\r\nversion\r\n$5\r\n7.2.4\r\n" +
        "$5\r\nproto\r\n:2\r\n" +
        "$2\r\nid\r\n:1\r\n" +
        "$4\r\nmode\r\n$10\r\nstandalone\r\n" +
        "$4\r\nrole\r\n$6\r\nmaster\r\n" +
        "$7\r\nmodules\r\n*0\r\n";
    static final String HELLO3_REPLY_ID_1 = "%7\r\n" +
        "$6\r\nserver\r\n$4\r\nagni\r\n" +
        "$7\r\nversion\r\n$5\r\n7.2.4\r\n" +
        "$5\r\nproto\r\n:3\r\n" +
        "$2\r\nid\r\n:1\r\n" +
        "$4\r\nmode\r\n$10\r\nstandalone\r\n" +
        "$4\r\nrole\r\n$6\r\nmaster\r\n" +
        "$7\r\nmodules\r\n*0\r\n";
    static final String NOAUTH = "-NOAUTH Authentication required.\r\n";
    static final String WRONGPASS = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    // PING, ECHO, QUIT, SELECT

    @Test
    void pingRepliesPongOrEchoesItsMessage()
    {
        assertEquals("+PONG\r\n", harness.reply("PING"));
        assertEquals("$5\r\nhello\r\n", harness.reply("PING", "hello"));
        assertEquals("$0\r\n\r\n", harness.reply("PING", ""));
    }

    @Test
    void echoRepliesItsArgumentAsBinarySafeBulk()
    {
        assertEquals("$3\r\na b\r\n", harness.reply("ECHO", "a b"));
        assertEquals("$3\r\n\u0000\r\u00ff\r\n", harness.reply(new byte[][]{ bytes("echo"), { 0, '\r', (byte)0xff } }));
    }

    @Test
    void quitRepliesOkThenClosesTheConnection()
    {
        assertEquals("+OK\r\n", harness.reply("QUIT"));
        assertSame(Outcome.CLOSE, harness.lastOutcome);
        assertEquals("+OK\r\n", harness.reply("quit", "ignored", "arguments"));
        assertSame(Outcome.CLOSE, harness.lastOutcome);
        harness.reply("PING");
        assertSame(Outcome.CONTINUE, harness.lastOutcome);
    }

    @Test
    void selectZeroIsOk()
    {
        assertEquals("+OK\r\n", harness.reply("SELECT", "0"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "1", "15", "-1", "2147483647" })
    void selectAnyOtherIndexIsOutOfRange(final String index)
    {
        assertEquals("-ERR DB index is out of range\r\n", harness.reply("SELECT", index));
    }

    @ParameterizedTest
    @ValueSource(strings = { "abc", "", "1.0", " 1", "01", "2147483648", "99999999999999999999" })
    void selectOfNotAnIntIsNotAnInteger(final String index)
    {
        assertEquals("-ERR value is not an integer or out of range\r\n", harness.reply("SELECT", index));
    }

    // HELLO

    @Test
    void helloWithoutVersionRepliesTheHelloMapAsAFlatResp2Array()
    {
        assertEquals(HELLO_REPLY_ID_1, harness.reply("HELLO"));
    }

    @Test
    void hello2RepliesTheHelloMapAsAFlatResp2Array()
    {
        assertEquals(HELLO_REPLY_ID_1, harness.reply("hello", "2"));
        final Session other = harness.newSession(42);
        assertTrue(harness.reply(other, RespArgs.of("HELLO", "2")).contains("$2\r\nid\r\n:42\r\n"));
    }

    @Test
    void hello3SwitchesTheConnectionToResp3AndRepliesTheHelloMap()
    {
        assertEquals(HELLO3_REPLY_ID_1, harness.reply("HELLO", "3"));
        assertEquals(3, harness.out.protocol());
        assertEquals(3, harness.session.protocol());
        assertEquals("_\r\n", harness.reply("GET", "missing"));
        assertEquals("_\r\n", harness.reply("CLIENT", "GETNAME"));
        assertEquals("%1\r\n$4\r\nsave\r\n$0\r\n\r\n", harness.reply("CONFIG", "GET", "save"));
        assertEquals("%0\r\n", harness.reply("CONFIG", "GET", "no-such-parameter"));
        assertEquals(HELLO3_REPLY_ID_1, harness.reply("HELLO"));
        assertEquals("+OK\r\n", harness.reply("SET", "k", "v"));
        assertEquals("*2\r\n$1\r\nv\r\n_\r\n", harness.reply("MGET", "k", "missing"));
    }

    @Test
    void hello2SwitchesAResp3ConnectionBack()
    {
        harness.reply("HELLO", "3");
        assertEquals(HELLO_REPLY_ID_1, harness.reply("HELLO", "2"));
        assertEquals(2, harness.session.protocol());
        assertEquals("$-1\r\n", harness.reply("GET", "missing"));
        assertEquals("*2\r\n$4\r\nsave\r\n$0\r\n\r\n", harness.reply("CONFIG", "GET", "save"));
    }

    @Test
    void resetSwitchesAResp3ConnectionBackToResp2()
    {
        harness.reply("HELLO", "3");
        assertEquals("+RESET\r\n", harness.reply("RESET"));
        assertEquals(2, harness.session.protocol());
        assertEquals("$-1\r\n", harness.reply("GET", "missing"));
    }

    @Test
    void hello3WithAuthAndSetnameAuthenticatesNamesAndSwitches()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            assertEquals(WRONGPASS, secured.reply("HELLO", "3", "AUTH", "default", "wrong", "SETNAME", "lettuce"));
            assertEquals(2, secured.out.protocol());
            assertEquals(HELLO3_REPLY_ID_1,
                secured.reply("HELLO", "3", "AUTH", "default", "s3cret", "SETNAME", "lettuce"));
            assertEquals("lettuce", secured.session.name());
            assertTrue(secured.reply("CLIENT", "INFO").startsWith("="));
            assertTrue(secured.reply("CLIENT", "INFO").contains(" resp=3 "));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "1", "4", "0", "-2" })
    void helloWithAnotherVersionRepliesRedisNoproto(final String version)
    {
        assertEquals("-NOPROTO unsupported protocol version\r\n", harness.reply("HELLO", version));
    }

    @ParameterizedTest
    @ValueSource(strings = { "two", "2.0", "", "99999999999999999999" })
    void helloWithAVersionThatIsNotANumberIsAnError(final String version)
    {
        assertEquals("-ERR Protocol version is not an integer or out of range\r\n", harness.reply("HELLO", version));
    }

    @Test
    void helloSetnameNamesTheClient()
    {
        assertEquals(HELLO_REPLY_ID_1, harness.reply("HELLO", "2", "setname", "worker-1"));
        assertEquals("$8\r\nworker-1\r\n", harness.reply("CLIENT", "GETNAME"));
    }

    @Test
    void helloSetnameWithASpaceIsRejectedAndChangesNothing()
    {
        assertEquals(
            "-ERR Client names cannot contain spaces, newlines or special characters.\r\n",
            harness.reply("HELLO", "2", "SETNAME", "a b"));
        assertEquals("", harness.session.name());
    }

    @Test
    void helloWithAnUnknownOrIncompleteOptionIsASyntaxError()
    {
        assertEquals("-ERR Syntax error in HELLO option 'foo'\r\n", harness.reply("HELLO", "2", "foo"));
        assertEquals("-ERR Syntax error in HELLO option 'AUTH'\r\n", harness.reply("HELLO", "2", "AUTH", "user"));
        assertEquals("-ERR Syntax error in HELLO option 'SETNAME'\r\n", harness.reply("HELLO", "2", "SETNAME"));
    }

    @Test
    void hello2AuthWithAWrongPasswordRepliesWrongpassAndStaysUnauthenticated()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            assertEquals(WRONGPASS, secured.reply("HELLO", "2", "AUTH", "default", "wrong", "SETNAME", "x"));
            assertFalse(secured.session.authenticated());
            assertEquals("", secured.session.name());
            assertEquals(WRONGPASS, secured.reply("HELLO", "2", "AUTH", "alice", "s3cret"));
            assertEquals(NOAUTH, secured.reply("ECHO", "x"));
        }
    }

    @Test
    void hello2AuthWithTheRightPasswordAuthenticatesAndReplies()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            assertEquals(HELLO_REPLY_ID_1, secured.reply("HELLO", "2", "AUTH", "default", "s3cret", "SETNAME", "me"));
            assertTrue(secured.session.authenticated());
            assertEquals("me", secured.session.name());
            assertEquals("$1\r\nx\r\n", secured.reply("ECHO", "x"));
        }
    }

    @Test
    void helloWithoutAuthBeforeAuthenticatingRepliesRedisNoauthText()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            assertEquals(
                "-NOAUTH HELLO must be called with the client already authenticated, otherwise the " +
                "HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP " +
                "protocol version at the same time\r\n",
                secured.reply("HELLO", "2", "SETNAME", "x"));
            assertEquals("", secured.session.name());
        }
    }

    @Test
    void helloAuthWithoutAConfiguredPasswordAcceptsTheDefaultUserOnly()
    {
        assertEquals(HELLO_REPLY_ID_1, harness.reply("HELLO", "2", "AUTH", "default", "anything"));
        assertEquals(WRONGPASS, harness.reply("HELLO", "2", "AUTH", "alice", "anything"));
    }

    // AUTH

    @Test
    void authWithoutAConfiguredPasswordRepliesRedisConfigurationError()
    {
        assertEquals(
            "-ERR AUTH <password> called without any password configured for the default user. " +
            "Are you sure your configuration is correct?\r\n",
            harness.reply("AUTH", "pw"));
        assertEquals("+OK\r\n", harness.reply("AUTH", "default", "pw"));
        assertEquals(WRONGPASS, harness.reply("AUTH", "alice", "pw"));
    }

    @Test
    void authWithAWrongPasswordRepliesWrongpass()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            assertEquals(WRONGPASS, secured.reply("AUTH", "wrong"));
            assertEquals(WRONGPASS, secured.reply("AUTH", "default", "wrong"));
            assertEquals(WRONGPASS, secured.reply("AUTH", "s3cre"));
            assertEquals(WRONGPASS, secured.reply("AUTH", "alice", "s3cret"));
            assertFalse(secured.session.authenticated());
        }
    }

    @Test
    void authWithTheRightPasswordAuthenticatesTheSessionOnly()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            assertEquals("+OK\r\n", secured.reply("auth", "s3cret"));
            assertTrue(secured.session.authenticated());
            final Session other = secured.newSession(2);
            assertEquals(NOAUTH, secured.reply(other, RespArgs.of("ECHO", "x")));
            assertEquals("+OK\r\n", secured.reply(other, RespArgs.of("AUTH", "default", "s3cret")));
            assertEquals("$1\r\nx\r\n", secured.reply(other, RespArgs.of("ECHO", "x")));
        }
    }

    @Test
    void aFailedAuthDoesNotUnauthenticate()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            secured.reply("AUTH", "s3cret");
            assertEquals(WRONGPASS, secured.reply("AUTH", "wrong"));
            assertTrue(secured.session.authenticated());
        }
    }

    @Test
    void authWithTooManyArgumentsIsASyntaxError()
    {
        assertEquals("-ERR syntax error\r\n", harness.reply("AUTH", "a", "b", "c"));
    }

    @Test
    void preAuthFlowAnswersOnlyAuthHelloAndQuit()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            for (final String[] command : new String[][]{
                { "ECHO", "x" }, { "SELECT", "0" }, { "CLIENT", "SETINFO", "LIB-NAME", "jedis" },
                { "CLIENT", "ID" }, { "CONFIG", "GET", "save" }, { "COMMAND" }, { "COMMAND", "DOCS" }, { "INFO" },
                { "DBSIZE" }, { "FLUSHALL" }, { "TIME" }, { "PING" } })
            {
                assertEquals(NOAUTH, secured.reply(command), String.join(" ", command));
            }
            assertTrue(secured.reply("HELLO", "3").startsWith("-NOAUTH HELLO must be called"));
            assertTrue(secured.reply("HELLO", "2").startsWith("-NOAUTH HELLO must be called"));
            assertEquals(2, secured.out.protocol());
            assertEquals(WRONGPASS, secured.reply("AUTH", "wrong"));
            assertEquals("+OK\r\n", secured.reply("AUTH", "s3cret"));

            assertEquals("$1\r\nx\r\n", secured.reply("ECHO", "x"));
            assertEquals("+OK\r\n", secured.reply("SELECT", "0"));
            assertEquals("*2\r\n$4\r\nsave\r\n$0\r\n\r\n", secured.reply("CONFIG", "GET", "save"));
            assertEquals(HELLO_REPLY_ID_1, secured.reply("HELLO", "2"));
            assertEquals("+PONG\r\n", secured.reply("PING"));
        }
    }

    @Test
    void quitIsAnsweredBeforeAuthenticating()
    {
        try (CommandHarness secured = new CommandHarness("s3cret", 1L << 20))
        {
            assertEquals("+OK\r\n", secured.reply("QUIT"));
            assertSame(Outcome.CLOSE, secured.lastOutcome);
        }
    }

    @Test
    void onlyAuthHelloQuitAndResetCarryTheNoAuthFlag()
    {
        final Set<String> noAuth = new TreeSet<>();
        for (final Command command : harness.processor.table().commands())
        {
            if (command.hasFlag(Command.FLAG_NO_AUTH))
            {
                noAuth.add(command.name());
            }
        }
        assertEquals(Set.of("auth", "hello", "quit", "reset"), noAuth, "PING too gets NOAUTH before AUTH, as in Redis 7");
    }

    // wrong arity

    @ParameterizedTest
    @ValueSource(strings = { "echo", "echo a b", "auth", "select", "select 0 1", "client" })
    void wrongArityGetsRedisText(final String command)
    {
        final String[] args = command.split(" ");
        assertEquals("-ERR wrong number of arguments for '" + args[0] + "' command\r\n", harness.reply(args));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "client id x", "client info x", "client getname x", "client setname", "client setname a b",
        "client setinfo lib-name", "client setinfo lib-name a b", "client help x" })
    void wrongArityOfASubcommandNamesTheSubcommand(final String command)
    {
        final String[] args = command.split(" ");
        assertEquals(
            "-ERR wrong number of arguments for 'client|" + args[1] + "' command\r\n", harness.reply(args));
    }

    static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
