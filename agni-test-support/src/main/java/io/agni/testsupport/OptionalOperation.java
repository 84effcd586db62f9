package io.agni.testsupport;

import io.agni.api.AgniStore;

/**
 * The operations {@link AgniStore} lets an implementation refuse with {@link UnsupportedOperationException} (its
 * javadoc, "Optional operations"). A fixture declares the ones its store refuses with
 * {@link StoreFixture.Builder#unsupported(OptionalOperation)}; the contract then skips, by assumption and with the
 * reason, the tests of that operation, and checks instead that the store refuses it and changes nothing.
 */
public enum OptionalOperation
{
    /**
     * {@link AgniStore#setAll(java.util.List, java.util.List, io.agni.api.SetCondition) setAll}, both forms, with
     * {@link io.agni.api.SetCondition#IF_PRESENT}: a store over RESP cannot do it atomically (Redis has {@code MSET}
     * and {@code MSETNX} but no {@code MSET XX}).
     */
    SET_ALL_IF_PRESENT("setAll with IF_PRESENT"),

    /**
     * {@link AgniStore#write(io.agni.api.WriteBatch) write(WriteBatch)}: atomic only where the implementation applies
     * the batch itself; the interface's default refuses it, and so does a store over RESP until it sends batches as
     * {@code MULTI}/{@code EXEC} transactions.
     */
    WRITE_BATCH("write(WriteBatch)");

    private final String description;

    OptionalOperation(final String description)
    {
        this.description = description;
    }

    /**
     * What the operation is, for skip messages.
     *
     * @return e.g. {@code "setAll with IF_PRESENT"}.
     */
    public String description()
    {
        return description;
    }
}
