package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionClientCommandTest
{
    private static final String BAD_NAME = "-ERR Client names cannot contain spaces, newlines or special characters.\r\n";

    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void trackingOnIsRefusedWithAClearErrorAndOffIsOk()
    {
        assertEquals("-" + ClientTrackingCommands.TRACKING_REFUSED + "\r\n",
            harness.reply("CLIENT", "TRACKING", "on", "BCAST"));
        assertEquals("+OK\r\n", harness.reply("client", "tracking", "OFF"));
        assertEquals("-ERR syntax error\r\n", harness.reply("CLIENT", "TRACKING", "maybe"));
        assertEquals("-ERR wrong number of arguments for 'client|tracking' command\r\n",
            harness.reply("CLIENT", "TRACKING"));
    }

    @Test
    void trackingInfoGetredirAndCachingAnswerAsForAConnectionThatNeverTracks()
    {
        assertEquals("*6\r\n$5\r\nflags\r\n*1\r\n$3\r\noff\r\n$8\r\nredirect\r\n:-1\r\n$8\r\nprefixes\r\n*0\r\n",
            harness.reply("CLIENT", "TRACKINGINFO"));
        assertEquals(":-1\r\n", harness.reply("CLIENT", "GETREDIR"));
        assertEquals("-" + ClientTrackingCommands.CACHING_WITHOUT_TRACKING + "\r\n",
            harness.reply("CLIENT", "CACHING", "yes"));
        harness.reply("HELLO", "3");
        assertEquals("%3\r\n$5\r\nflags\r\n~1\r\n$3\r\noff\r\n$8\r\nredirect\r\n:-1\r\n$8\r\nprefixes\r\n*0\r\n",
            harness.reply("CLIENT", "TRACKINGINFO"));
    }

    @Test
    void getnameIsNilUntilANameIsSet()
    {
        assertEquals("$-1\r\n", harness.reply("CLIENT", "GETNAME"));
        assertEquals("+OK\r\n", harness.reply("CLIENT", "SETNAME", "worker-1"));
        assertEquals("$8\r\nworker-1\r\n", harness.reply("client", "getname"));
    }

    @Test
    void setnameToTheEmptyStringRemovesTheName()
    {
        harness.reply("CLIENT", "SETNAME", "x");
        assertEquals("+OK\r\n", harness.reply("CLIENT", "SETNAME", ""));
        assertEquals("$-1\r\n", harness.reply("CLIENT", "GETNAME"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "a b", "a\nb", "a\r", "tab\t", "\u00e9t\u00e9", "del\u007f" })
    void setnameRejectsSpacesNewlinesAndSpecialCharacters(final String name)
    {
        harness.reply("CLIENT", "SETNAME", "kept");
        assertEquals(BAD_NAME, harness.reply("CLIENT", "SETNAME", name));
        assertEquals("$4\r\nkept\r\n", harness.reply("CLIENT", "GETNAME"));
    }

    @Test
    void setnameAcceptsEveryPrintableAsciiCharacter()
    {
        final StringBuilder name = new StringBuilder();
        for (char c = '!'; c <= '~'; c++)
        {
            name.append(c);
        }
        assertEquals("+OK\r\n", harness.reply("CLIENT", "SETNAME", name.toString()));
        assertEquals(name.toString(), harness.session.name());
    }

    @Test
    void setinfoRecordsTheLibraryNameAndVersionAsJedisSendsThem()
    {
        assertEquals("+OK\r\n", harness.reply("CLIENT", "SETINFO", "LIB-NAME", "jedis"));
        assertEquals("+OK\r\n", harness.reply("CLIENT", "SETINFO", "lib-ver", "7.1.0"));
        assertEquals("jedis", harness.session.libraryName());
        assertEquals("7.1.0", harness.session.libraryVersion());
        assertTrue(harness.reply("CLIENT", "INFO").contains(" lib-name=jedis lib-ver=7.1.0\n"));
        assertEquals("+OK\r\n", harness.reply("CLIENT", "SETINFO", "lib-ver", ""));
        assertEquals("", harness.session.libraryVersion());
    }

    @Test
    void setinfoRejectsAnInvalidValueNamingTheOptionAsSpelled()
    {
        assertEquals(
            "-ERR LIB-NAME cannot contain spaces, newlines or special characters.\r\n",
            harness.reply("CLIENT", "SETINFO", "LIB-NAME", "my lib"));
        assertEquals(
            "-ERR lib-ver cannot contain spaces, newlines or special characters.\r\n",
            harness.reply("CLIENT", "SETINFO", "lib-ver", "1.0\n"));
        assertEquals("", harness.session.libraryName());
    }

    @Test
    void setinfoRejectsAnUnknownOption()
    {
        assertEquals("-ERR Unrecognized option 'lib-foo'\r\n", harness.reply("CLIENT", "SETINFO", "lib-foo", "x"));
    }

    @Test
    void idRepliesTheSessionId()
    {
        assertEquals(":1\r\n", harness.reply("CLIENT", "ID"));
        final Session other = harness.newSession(1234);
        assertEquals(":1234\r\n", harness.reply(other, RespArgs.of("CLIENT", "ID")));
    }

    @Test
    void infoRepliesThisClientsLineInRedisFormat()
    {
        harness.reply("CLIENT", "SETNAME", "me");
        harness.advanceMillis(5_500);
        assertEquals(
            "$" + expectedLine("me", 5, "client|info").length() + "\r\n" + expectedLine("me", 5, "client|info") +
            "\r\n",
            harness.reply("CLIENT", "INFO"));
    }

    @Test
    void listHasOneLinePerSessionWithIdleTimeAndLastCommand()
    {
        final Session other = harness.newSession(2);
        harness.reply(other, RespArgs.of("PING"));
        harness.advanceMillis(3_000);
        final String list = body(harness.reply("CLIENT", "LIST"));
        final String[] lines = list.split("\n", -1);
        assertEquals(3, lines.length, list);
        assertEquals(expectedLine("", 3, "client|list").trim(), lines[0]);
        assertTrue(lines[1].startsWith("id=2 addr=127.0.0.1:50002 laddr=127.0.0.1:6379 fd=-1 name= age=3 idle=3 "),
            lines[1]);
        assertTrue(lines[1].contains(" cmd=ping "), lines[1]);
        assertEquals("", lines[2]);
    }

    @Test
    void listTypeNormalListsEveryClientAndOtherTypesNone()
    {
        harness.newSession(2);
        assertEquals(2, body(harness.reply("CLIENT", "LIST", "TYPE", "normal")).split("\n").length);
        for (final String type : new String[]{ "master", "replica", "SLAVE", "pubsub" })
        {
            assertEquals("$0\r\n\r\n", harness.reply("CLIENT", "LIST", "TYPE", type));
        }
        assertEquals("-ERR Unknown client type 'bogus'\r\n", harness.reply("CLIENT", "LIST", "TYPE", "bogus"));
    }

    @Test
    void listIdListsTheGivenClientsThatExist()
    {
        harness.newSession(2);
        harness.newSession(3);
        final String list = body(harness.reply("CLIENT", "LIST", "ID", "3", "99", "1"));
        final String[] lines = list.split("\n");
        assertEquals(2, lines.length, list);
        assertTrue(lines[0].startsWith("id=3 "));
        assertTrue(lines[1].startsWith("id=1 "));
        assertEquals("-ERR Invalid client ID\r\n", harness.reply("CLIENT", "LIST", "ID", "1", "x"));
    }

    @Test
    void listWithOtherArgumentsIsASyntaxError()
    {
        assertEquals("-ERR syntax error\r\n", harness.reply("CLIENT", "LIST", "foo"));
        assertEquals("-ERR syntax error\r\n", harness.reply("CLIENT", "LIST", "ID"));
        assertEquals("-ERR syntax error\r\n", harness.reply("CLIENT", "LIST", "TYPE", "normal", "x"));
    }

    @Test
    void unknownSubcommandGetsRedisText()
    {
        assertEquals(
            "-ERR unknown subcommand 'MAINT_NOTIFICATIONS'. Try CLIENT HELP.\r\n",
            harness.reply("CLIENT", "MAINT_NOTIFICATIONS", "on", "moving-endpoint-type", "internal-ip"));
        assertEquals("-ERR unknown subcommand 'kill'. Try CLIENT HELP.\r\n", harness.reply("client", "kill", "x"));
    }

    @Test
    void unknownSubcommandEchoesAtMost128BytesOnOneLine()
    {
        assertEquals(
            "-ERR unknown subcommand '" + "x".repeat(128) + "'. Try CLIENT HELP.\r\n",
            harness.reply("CLIENT", "x".repeat(300)));
        assertEquals("-ERR unknown subcommand 'a  b'. Try CLIENT HELP.\r\n", harness.reply("CLIENT", "a\r\nb"));
    }

    @Test
    void subcommandNamesIgnoreCase()
    {
        assertEquals(":1\r\n", harness.reply("client", "Id"));
        assertEquals("+OK\r\n", harness.reply("CLIENT", "setInfo", "Lib-Name", "lettuce"));
        assertEquals("lettuce", harness.session.libraryName());
    }

    @Test
    void helpListsTheSubcommandsAsStatusReplies()
    {
        final String help = harness.reply("CLIENT", "HELP");
        assertTrue(help.startsWith("*19\r\n+CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n" +
            "+GETNAME\r\n"), help);
        assertTrue(help.endsWith("+HELP\r\n+    Prints this help.\r\n"), help);
        assertEquals(20, help.split("\r\n").length);
    }

    private static String expectedLine(final String name, final long age, final String command)
    {
        return "id=1 addr=127.0.0.1:50001 laddr=127.0.0.1:6379 fd=-1 name=" + name + " age=" + age + " idle=0" +
            " flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=0 rbp=0" +
            " obl=0 oll=0 omem=0 tot-mem=0 events=r cmd=" + command + " user=default redir=-1 resp=2" +
            " lib-name= lib-ver=\n";
    }

    private static String body(final String bulk)
    {
        return bulk.substring(bulk.indexOf("\r\n") + 2, bulk.length() - 2);
    }
}
