package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link AgniServerBuilder} refuses every out-of-range setting with a message that names it and its value.
 */
@Tag("socket")
class AgniServerBuilderTest
{
    private AgniStore store;
    private AgniServerBuilder builder;

    @BeforeEach
    void openStore()
    {
        store = ServerFixture.newStore();
        builder = AgniServer.builder(store);
    }

    @AfterEach
    void closeStore()
    {
        store.close();
    }

    @Test
    void refusesAPortOutsideTheTcpRange()
    {
        assertRefused("port must be from 0 to 65535: port=65536", () -> builder.port(65536));
        assertRefused("port must be from 0 to 65535: port=-1", () -> builder.port(-1));
    }

    @Test
    void refusesNoEventLoopThreads()
    {
        assertRefused("eventLoopThreads must be from 1 to 1024: eventLoopThreads=0", () -> builder.eventLoopThreads(0));
    }

    @Test
    void refusesFewerThanOneClient()
    {
        assertRefused("maxClients must be from 1 to 2147483647: maxClients=0", () -> builder.maxClients(0));
    }

    @Test
    void refusesNegativeTimeouts()
    {
        assertRefused(
            "idleTimeout must not be negative: idleTimeout=PT-1S",
            () -> builder.idleTimeout(Duration.ofSeconds(-1)));
        assertRefused(
            "shutdownTimeout must not be negative: shutdownTimeout=PT-0.005S",
            () -> builder.shutdownTimeout(Duration.ofMillis(-5)));
        // A duration one nanosecond below zero is negative too: it is not rounded to zero milliseconds first.
        assertRefused(
            "idleTimeout must not be negative: idleTimeout=PT-0.000000001S",
            () -> builder.idleTimeout(Duration.ofNanos(-1)));
        assertThrows(NullPointerException.class, () -> builder.shutdownTimeout(null));
    }

    @Test
    void refusesBufferLimitsOutsideTheirRange()
    {
        assertRefused(
            "maxQueryBuffer must be from 1024 to 2147483639: maxQueryBuffer=1023", () -> builder.maxQueryBuffer(1023));
        assertRefused(
            "maxOutputBuffer must be from 1024 to 2147483639: maxOutputBuffer=4294967296",
            () -> builder.maxOutputBuffer(1L << 32));
    }

    @Test
    void refusesAClientMemoryLimitBelowOneMebibyteButZeroMeansNone()
    {
        assertRefused(
            "maxClientMemory must be from 1048576 to 9223372036854775807: maxClientMemory=1000",
            () -> builder.maxClientMemory(1000));
        assertRefused(
            "maxClientMemory must be from 1048576 to 9223372036854775807: maxClientMemory=-1",
            () -> builder.maxClientMemory(-1));

        final AgniServer unlimited = builder.maxClientMemory(0).build();

        assertEquals(0, unlimited.context().maxClientMemory());
        assertEquals(AgniServerBuilder.DEFAULT_MAX_QUERY_BUFFER, unlimited.context().maxQueryBuffer());
        assertEquals(AgniServerBuilder.DEFAULT_MAX_OUTPUT_BUFFER, unlimited.context().maxOutputBuffer());
    }

    @Test
    void perClientLimitsLeftAtTheirDefaultsAreLoweredToTheClientMemoryLimit()
    {
        final AgniServer small = builder.maxClientMemory(8L << 20).build();
        final AgniServer medium = builder.maxClientMemory(256L << 20).build();

        assertEquals(8L << 20, small.context().maxQueryBuffer());
        assertEquals(8L << 20, small.context().maxOutputBuffer());
        assertEquals(256L << 20, medium.context().maxQueryBuffer());
        assertEquals(AgniServerBuilder.DEFAULT_MAX_OUTPUT_BUFFER, medium.context().maxOutputBuffer());
    }

    @Test
    void aPerClientLimitSetAboveTheClientMemoryLimitIsRefused()
    {
        assertRefused(
            "maxQueryBuffer must not exceed maxClientMemory: maxQueryBuffer=16777216, maxClientMemory=8388608",
            () -> builder.maxQueryBuffer(16L << 20).maxClientMemory(8L << 20).build());
        assertRefused(
            "maxOutputBuffer must not exceed maxClientMemory: maxOutputBuffer=16777216, maxClientMemory=8388608",
            () -> AgniServer.builder(store).maxClientMemory(8L << 20).maxOutputBuffer(16L << 20).build());
    }

    @Test
    void theDefaultClientMemoryLimitIsAQuarterOfTheDirectMemoryLimitAtMostOneGibibyte()
    {
        final long direct = AgniServerBuilder.directMemoryLimit();

        assertEquals(Math.min(1L << 30, direct / 4), AgniServerBuilder.defaultMaxClientMemory());
        assertEquals(AgniServerBuilder.defaultMaxClientMemory(), builder.build().context().maxClientMemory());
        if (!ManagementFactory.getRuntimeMXBean().getInputArguments().toString().contains("MaxDirectMemorySize"))
        {
            assertEquals(Runtime.getRuntime().maxMemory(), direct, "without the flag the limit is the heap's");
        }
    }

    @Test
    void refusesABindAddressThatCannotBeResolved()
    {
        assertRefused(
            "bindAddress cannot be resolved: bindAddress=no-such-host.invalid",
            () -> builder.bindAddress("no-such-host.invalid"));
    }

    @Test
    void defaultsAreRedisLike()
    {
        assertEquals("127.0.0.1", AgniServerBuilder.DEFAULT_BIND_ADDRESS);
        assertEquals(6379, AgniServerBuilder.DEFAULT_PORT);
        assertEquals(10_000, AgniServerBuilder.DEFAULT_MAX_CLIENTS);
        assertEquals(Duration.ZERO, AgniServerBuilder.DEFAULT_IDLE_TIMEOUT);
        assertEquals(Duration.ofSeconds(2), AgniServerBuilder.DEFAULT_SHUTDOWN_TIMEOUT);
        assertEquals(1L << 30, AgniServerBuilder.DEFAULT_MAX_QUERY_BUFFER);
        assertEquals(Runtime.getRuntime().availableProcessors(), AgniServerBuilder.defaultEventLoopThreads());
    }

    @Test
    void aSubMillisecondIdleTimeoutIsNotMistakenForNone()
    {
        final AgniServer server = builder.idleTimeout(Duration.ofNanos(10_000)).build();

        assertEquals(1, server.context().idleTimeoutSeconds());
    }

    @Test
    void anEmptyPasswordIsRefusedAndNullMeansNone()
    {
        assertRefused("password must not be empty: pass null for none", () -> builder.password(""));

        final AgniServer server = builder.password(null).build();

        assertEquals(false, server.context().authenticationRequired());
    }

    private static void assertRefused(final String message, final Executable setting)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, setting).getMessage());
    }
}
