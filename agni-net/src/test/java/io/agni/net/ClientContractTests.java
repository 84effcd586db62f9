package io.agni.net;

import io.agni.testsupport.OptionalOperation;
import io.agni.testsupport.StoreFixture;

/**
 * What the contract runners against remote stores share.
 */
final class ClientContractTests
{
    private ClientContractTests()
    {
    }

    /**
     * Why the two tests that compare the messages of APPEND and SETRANGE past the value limit are skipped against a
     * server that words that refusal as Redis does.
     */
    static final String VALUE_LIMIT_TEXT = "the server answers APPEND and SETRANGE past the value limit " +
        "with Redis's 'ERR string exceeds maximum allowed size (proto-max-bulk-len)', which names no lengths: the " +
        "client throws EntryTooLargeException but cannot give the store's message, which these tests compare";

    /**
     * The contract tests no store behind RESP can pass, with their reasons (besides the optional operations
     * {@link #fixtureFor} declares).
     *
     * @return a new condition; add the skips particular to a server to it.
     */
    static ClientContractSkips skipsForEveryRemoteStore()
    {
        return new ClientContractSkips()
            .skip("directIncrementByFloatIntoTooSmallBufferThrowsAndChangesNothing", "INCRBYFLOAT stores the sum " +
                "before the client sees its length; AgniStore's javadoc allows it ('the value is then already stored')");
    }

    /**
     * The contract tests an agni server cannot pass: those of every remote store, and the two limit tests that
     * compare the messages of APPEND and SETRANGE past the value limit, which the server words as Redis does.
     *
     * @return a new condition.
     */
    static ClientContractSkips skipsForAnAgniServer()
    {
        return skipsForEveryRemoteStore()
            .skip("appendPastTheValueLimitIsRefusedAndLeavesTheValue", VALUE_LIMIT_TEXT)
            .skip("setRangePastTheValueLimitIsRefusedBeforeAnythingChanges", VALUE_LIMIT_TEXT);
    }

    /**
     * A fixture for an {@link AgniClient}, which declares what it cannot do over RESP: {@code setAll} with
     * {@code IF_PRESENT} (Redis has {@code MSET} and {@code MSETNX} but no {@code MSET XX}), which the contract then
     * checks is refused. {@code write(WriteBatch)} it does, as a transaction.
     *
     * @param client the client under test.
     * @return a builder with the client's unsupported operations declared; add the server's hooks to it.
     */
    static StoreFixture.Builder fixtureFor(final AgniClient client)
    {
        return StoreFixture.forStore(client).unsupported(OptionalOperation.SET_ALL_IF_PRESENT);
    }

    /**
     * Closes each of the resources that is not {@code null}, all of them even if one throws.
     *
     * @param resources the server, the store, ...
     */
    static void closeAll(final AutoCloseable... resources)
    {
        RuntimeException failure = null;
        for (final AutoCloseable resource : resources)
        {
            try
            {
                if (resource != null)
                {
                    resource.close();
                }
            }
            catch (final Exception ex)
            {
                if (failure == null)
                {
                    failure = new IllegalStateException("closing " + resource + " failed", ex);
                }
                else
                {
                    failure.addSuppressed(ex);
                }
            }
        }
        if (failure != null)
        {
            throw failure;
        }
    }
}
