package io.agni.net.launcher;

import io.agni.api.Durability;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LauncherOptionsTest
{
    @Test
    void noArgumentsLeaveEveryDefaultToTheBuilders() throws UsageException
    {
        final LauncherOptions options = LauncherOptions.parse();
        assertFalse(options.help);
        assertNull(options.port);
        assertNull(options.bind);
        assertNull(options.threads);
        assertNull(options.shards);
        assertNull(options.maxMemory);
        assertNull(options.maxmemoryPolicy);
        assertNull(options.requirepass);
        assertNull(options.protectedMode);
        assertNull(options.maxClients);
        assertNull(options.timeoutSeconds);
        assertNull(options.maxQueryBuffer);
        assertNull(options.maxOutputBuffer);
        assertNull(options.maxClientMemory);
        assertNull(options.dir);
        assertNull(options.durability);
    }

    @Test
    void parsesEveryFlagInBothForms() throws UsageException
    {
        final LauncherOptions options = LauncherOptions.parse(
            "--port", "6380", "--bind=0.0.0.0", "--threads", "3", "--shards=16", "--max-memory", "100mb",
            "--requirepass", "s3cret=x", "--protected-mode=no", "--max-clients", "50", "--timeout", "300",
            "--max-query-buffer", "1mb", "--max-output-buffer=2MB", "--max-client-memory", "64mb");
        assertEquals(6380, options.port);
        assertEquals("0.0.0.0", options.bind);
        assertEquals(3, options.threads);
        assertEquals(16, options.shards);
        assertEquals(100L << 20, options.maxMemory);
        assertEquals("s3cret=x", options.requirepass);
        assertFalse(options.protectedMode);
        assertEquals(50, options.maxClients);
        assertEquals(300L, options.timeoutSeconds);
        assertEquals(1L << 20, options.maxQueryBuffer);
        assertEquals(2L << 20, options.maxOutputBuffer);
        assertEquals(64L << 20, options.maxClientMemory);
    }

    @Test
    void protectedModeTakesYesOrNo() throws UsageException
    {
        assertTrue(LauncherOptions.parse("--protected-mode", "yes").protectedMode);
        assertTrue(LauncherOptions.parse("--protected-mode", "YES").protectedMode);
        assertEquals("--protected-mode must be yes or no: --protected-mode=on",
            usageError("--protected-mode", "on"));
    }

    @Test
    void helpWinsOverEverythingElse() throws UsageException
    {
        assertTrue(LauncherOptions.parse("--port", "1", "--help", "--no-such-flag").help);
        assertTrue(LauncherOptions.parse("-h").help);
        assertTrue(LauncherOptions.parse("--version").version);
    }

    @Test
    void rejectsUnknownFlagsAndStrayArguments()
    {
        assertEquals("unknown option: --prot", usageError("--prot", "yes"));
        assertEquals("unknown option: --prot", usageError("--prot=yes"));
        assertEquals("unexpected argument: 6380", usageError("6380"));
        assertEquals("unknown option: -p", usageError("-p", "6380"));
    }

    @Test
    void rejectsMissingAndMalformedValues()
    {
        assertEquals("--port needs a value", usageError("--port"));
        assertEquals("--bind needs a value", usageError("--bind="));
        assertEquals("--requirepass needs a non-empty password (leave the flag out for none)",
            usageError("--requirepass", ""));
        assertEquals("--requirepass needs a non-empty password (leave the flag out for none)",
            usageError("--requirepass="));
        assertEquals("--port must be an integer: --port=abc", usageError("--port", "abc"));
        assertEquals("--timeout must be an integer: --timeout=1.5", usageError("--timeout", "1.5"));
        assertEquals("--max-memory must be a size, unknown unit 'tb' (use b, k, kb, m, mb, g or gb): " +
            "--max-memory=1tb", usageError("--max-memory", "1tb"));
    }

    @Test
    void parsesTheDirectoryAndTheDurabilityInAnyCase() throws UsageException
    {
        final LauncherOptions options = LauncherOptions.parse("--dir=data", "--durability", "Paranoid");
        assertEquals(Path.of("data"), options.dir);
        assertEquals(Durability.PARANOID, options.durability);
        assertEquals(Durability.PARANOID, options.effectiveDurability());
        assertEquals(Durability.FAST, LauncherOptions.parse("--dir", "d", "--durability=fast").effectiveDurability());
        assertEquals("--dir needs a value", usageError("--dir="));
        assertEquals("--durability must be none, fast, durable or paranoid: --durability=always",
            usageError("--durability", "always"));
    }

    @Test
    void theDurabilityIsDurableWithADirectoryAndNoneWithout() throws UsageException
    {
        assertEquals(Durability.DURABLE, LauncherOptions.parse("--dir", "d").effectiveDurability());
        assertEquals(Durability.NONE, LauncherOptions.parse().effectiveDurability());
        assertEquals(Durability.NONE, LauncherOptions.parse("--durability", "none").effectiveDurability());
        assertEquals("--durability durable needs --dir: the store keeps its data on disk in a directory",
            assertThrows(UsageException.class,
                () -> LauncherOptions.parse("--durability", "durable").effectiveDurability()).getMessage());
    }

    @Test
    void rejectsAFlagGivenTwice()
    {
        assertEquals("--port given more than once", usageError("--port", "1", "--port=2"));
        assertEquals("--maxmemory given more than once (--max-memory and --maxmemory are the same option)",
            usageError("--max-memory", "1mb", "--maxmemory", "2mb"));
    }

    @Test
    void takesRedisSpellingsOfTheBudgetAndItsPolicy() throws UsageException
    {
        final LauncherOptions options = LauncherOptions.parse("--maxmemory", "100mb", "--maxmemory-policy=allkeys-lfu");
        assertEquals(100L << 20, options.maxMemory);
        assertEquals("allkeys-lfu", options.maxmemoryPolicy);
        assertEquals(1_000_000_000L, LauncherOptions.parse("--maxmemory=1g").maxMemory);
        assertEquals("--maxmemory must be a size, unknown unit 'x' (use b, k, kb, m, mb, g or gb): --maxmemory=5x",
            usageError("--maxmemory", "5x"));
        assertEquals("--maxmemory-policy needs a value", usageError("--maxmemory-policy="));
        assertEquals("--maxmemory-policy needs a value", usageError("--maxmemory-policy"));
    }

    @Test
    void usageNamesEveryFlag()
    {
        final String usage = LauncherOptions.usage();
        for (final String flag : new String[]{"--port", "--bind", "--threads", "--shards", "--max-memory",
            "--maxmemory", "--maxmemory-policy", "allkeys-lfu", "volatile-ttl", "noeviction",
            "--requirepass", "--protected-mode", "--max-clients", "--timeout", "--max-query-buffer",
            "--max-output-buffer", "--max-client-memory", "--dir", "--durability", "--help", "--version"})
        {
            assertTrue(usage.contains(flag), flag);
        }
    }

    private static String usageError(final String... args)
    {
        return assertThrows(UsageException.class, () -> LauncherOptions.parse(args)).getMessage();
    }
}
