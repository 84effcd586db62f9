package io.agni.net;

import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The server logs a problem a hostile client can repeat at most once per interval, says how many it suppressed,
 * and never writes a client's raw bytes into the log.
 */
class ServerRateLimitedWarningsTest
{
    @Test
    void logsTheFirstWarningAndCountsTheRestOfTheInterval()
    {
        final RecordingLogger log = new RecordingLogger();
        final RateLimitedWarnings warnings = new RateLimitedWarnings(log, TimeUnit.HOURS.toNanos(1));

        for (int i = 0; i < 1000; i++)
        {
            warnings.warn("protocol error from client {}: {}", "10.0.0.1:" + i, "bad");
        }

        assertEquals(List.of("protocol error from client 10.0.0.1:0: bad"), log.lines);
    }

    @Test
    void theNextWarningAfterTheIntervalSaysHowManyWereSuppressed()
    {
        final RecordingLogger log = new RecordingLogger();
        final RateLimitedWarnings warnings = new RateLimitedWarnings(log, 0);
        final RateLimitedWarnings slow = new RateLimitedWarnings(log, TimeUnit.HOURS.toNanos(1));

        warnings.warn("refused {}", "a");
        warnings.warn("refused {}", "b");
        slow.warn("x {}", 1);
        slow.warn("x {}", 2);
        slow.warn("x {}", 3);

        assertEquals(List.of("refused a", "refused b", "x 1"), log.lines);
    }

    @Test
    void oneKindOfWarningNeverHidesAnother()
    {
        final RecordingLogger log = new RecordingLogger();
        final ServerWarnings warnings = new ServerWarnings(log, TimeUnit.HOURS.toNanos(1));
        final List<RateLimitedWarnings> kinds = List.of(warnings.protocolErrors, warnings.outputBufferLimit,
            warnings.queryBufferLimit, warnings.clientEvicted, warnings.maxClientsRefused,
            warnings.protectedModeRefused, warnings.internalErrors, warnings.acceptFailures);
        final List<String> expected = new ArrayList<>();

        for (int k = 0; k < kinds.size(); k++)
        {
            for (int i = 0; i < 100; i++) // a flood of each kind in turn, within one interval
            {
                kinds.get(k).warn("kind {} warning {}", k, i);
            }
            expected.add("kind " + k + " warning 0");
        }

        assertEquals(expected, log.lines, "each kind logs its first warning, whatever the others did");
        assertEquals(kinds.size(), kinds.stream().distinct().count(), "one limiter per kind");
    }

    @Test
    void printableEscapesControlAndNonAsciiCharacters()
    {
        assertEquals("Protocol error: expected '$', got '\\x0a'",
            RateLimitedWarnings.printable("Protocol error: expected '$', got '\n'"));
        assertEquals("a\\x00b\\xe9", RateLimitedWarnings.printable("a\0b\u00e9"));
        final String plain = "nothing to escape";
        assertEquals(plain, RateLimitedWarnings.printable(plain));
    }

    /**
     * Keeps the formatted WARN lines.
     */
    static final class RecordingLogger extends AbstractLogger
    {
        private static final long serialVersionUID = 1L;

        final transient List<String> lines = new ArrayList<>();

        RecordingLogger()
        {
            name = "recording";
        }

        @Override
        protected String getFullyQualifiedCallerName()
        {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(
            final Level level,
            final Marker marker,
            final String messagePattern,
            final Object[] arguments,
            final Throwable throwable)
        {
            lines.add(MessageFormatter.basicArrayFormat(messagePattern, arguments));
        }

        @Override
        public boolean isTraceEnabled()
        {
            return false;
        }

        @Override
        public boolean isTraceEnabled(final Marker marker)
        {
            return false;
        }

        @Override
        public boolean isDebugEnabled()
        {
            return false;
        }

        @Override
        public boolean isDebugEnabled(final Marker marker)
        {
            return false;
        }

        @Override
        public boolean isInfoEnabled()
        {
            return false;
        }

        @Override
        public boolean isInfoEnabled(final Marker marker)
        {
            return false;
        }

        @Override
        public boolean isWarnEnabled()
        {
            return true;
        }

        @Override
        public boolean isWarnEnabled(final Marker marker)
        {
            return true;
        }

        @Override
        public boolean isErrorEnabled()
        {
            return true;
        }

        @Override
        public boolean isErrorEnabled(final Marker marker)
        {
            return true;
        }
    }
}
