package io.agni.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The four kinds of store failure: each exception is caught by one {@code catch} of its kind and by one of the root,
 * by no other kind's, carries its message and cause, and has a stack trace only where the kind promises one.
 */
class AgniExceptionHierarchyTest
{
    private enum Kind
    {
        REFUSED, READ_ONLY, CLOSED, CONNECTION
    }

    static Stream<Arguments> everyException()
    {
        return Stream.of(
            of(Kind.REFUSED, StoreRefusedException::new, StoreRefusedException::new),
            of(Kind.REFUSED, CapacityExceededException::new, CapacityExceededException::new),
            of(Kind.REFUSED, EntryTooLargeException::new, EntryTooLargeException::new),
            of(Kind.REFUSED, InvalidCursorException::new, InvalidCursorException::new),
            of(Kind.REFUSED, NotAnIntegerException::new, NotAnIntegerException::new),
            of(Kind.REFUSED, IntegerOverflowException::new, IntegerOverflowException::new),
            of(Kind.REFUSED, NotAFloatException::new, NotAFloatException::new),
            of(Kind.REFUSED, FloatOverflowException::new, FloatOverflowException::new),
            of(Kind.READ_ONLY, StoreReadOnlyException::new, StoreReadOnlyException::new),
            of(Kind.CLOSED, StoreClosedException::new, StoreClosedException::new),
            of(Kind.CONNECTION, StoreConnectionException::new, StoreConnectionException::new));
    }

    private static Arguments of(
        final Kind kind,
        final Function<String, AgniException> withMessage,
        final BiFunction<String, Throwable, AgniException> withCause)
    {
        return Arguments.of(kind, withMessage, withCause);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("everyException")
    void eachExceptionIsCaughtByOneCatchOfItsKindAndOfTheRoot(
        final Kind kind,
        final Function<String, AgniException> withMessage,
        final BiFunction<String, Throwable, AgniException> withCause)
    {
        final AgniException ex = withMessage.apply("m");

        assertEquals(kind, caughtAs(ex), ex.getClass().getSimpleName());
        assertSame(ex, caughtByTheRoot(ex));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("everyException")
    void eachExceptionKeepsItsMessageAndCause(
        final Kind kind,
        final Function<String, AgniException> withMessage,
        final BiFunction<String, Throwable, AgniException> withCause)
    {
        final IOException cause = new IOException("behind it");

        final AgniException plain = withMessage.apply("what failed");
        final AgniException caused = withCause.apply("what failed", cause);

        assertEquals("what failed", plain.getMessage());
        assertNull(plain.getCause());
        assertEquals("what failed", caused.getMessage());
        assertSame(cause, caused.getCause());
        assertEquals(kind, caughtAs(caused));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("everyException")
    void refusalsCarryNoStackTraceAndTheOthersDo(
        final Kind kind,
        final Function<String, AgniException> withMessage,
        final BiFunction<String, Throwable, AgniException> withCause)
    {
        final boolean expected = kind == Kind.CLOSED || kind == Kind.CONNECTION;

        assertEquals(expected, withMessage.apply("m").getStackTrace().length > 0);
        assertEquals(expected, withCause.apply("m", null).getStackTrace().length > 0);
    }

    @Test
    void storeClosedExceptionIsNoLongerAnIllegalStateException()
    {
        final RuntimeException ex = new StoreClosedException("store closed");

        assertFalse(ex instanceof IllegalStateException);
        assertTrue(ex instanceof AgniException);
    }

    @Test
    void theFixedMessageRefusalsStillDefaultToRedissText()
    {
        assertEquals("value is not a valid float", new NotAFloatException().getMessage());
        assertEquals("increment would produce NaN or Infinity", new FloatOverflowException().getMessage());
    }

    /**
     * Throws the exception into one try with a catch per kind, as an application would write it.
     */
    private static Kind caughtAs(final AgniException ex)
    {
        try
        {
            throw ex;
        }
        catch (final StoreRefusedException refused)
        {
            return Kind.REFUSED;
        }
        catch (final StoreReadOnlyException readOnly)
        {
            return Kind.READ_ONLY;
        }
        catch (final StoreClosedException closed)
        {
            return Kind.CLOSED;
        }
        catch (final StoreConnectionException connection)
        {
            return Kind.CONNECTION;
        }
        catch (final AgniException other)
        {
            return fail("an AgniException of no kind: " + other.getClass());
        }
    }

    private static AgniException caughtByTheRoot(final AgniException ex)
    {
        try
        {
            throw ex;
        }
        catch (final AgniException any)
        {
            return any;
        }
    }
}
