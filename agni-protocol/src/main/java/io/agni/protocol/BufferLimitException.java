package io.agni.protocol;

/**
 * A {@link GrowableDirectBuffer} was asked to grow past its limit, or its {@link BufferMemory} refused the growth.
 * Nothing was allocated. It is an {@link IndexOutOfBoundsException} because that is what a store's zero-copy read
 * throws for a destination that "cannot hold the value and cannot grow", so it passes through a store's read
 * unchanged, and a reply that could not be completed is dropped by its caller.
 * <p>
 * Each buffer throws one instance, made when the buffer is, without a stack trace: a client that asks for a reply
 * above its limit costs no allocation. Its message says which limit: {@code reply buffer limit reached: limit=...}.
 */
public final class BufferLimitException extends IndexOutOfBoundsException
{
    private static final long serialVersionUID = 1L;

    BufferLimitException(final String message)
    {
        super(message);
    }

    /**
     * No stack trace: the exception is thrown at a client's request and made once.
     *
     * @return this exception.
     */
    @Override
    public synchronized Throwable fillInStackTrace()
    {
        return this;
    }
}
