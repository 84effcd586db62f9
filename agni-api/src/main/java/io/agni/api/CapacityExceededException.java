package io.agni.api;

/**
 * A write did not fit in the store's memory budget, and the policy is to refuse rather than evict. The store is
 * unchanged by the refused write. Redis replies {@code -OOM} in the same case.
 */
public final class CapacityExceededException extends StoreRefusedException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message how much was asked for and what the budget allows.
     */
    public CapacityExceededException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message how much was asked for and what the budget allows.
     * @param cause   the failure behind it, or {@code null}.
     */
    public CapacityExceededException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
