package io.agni.net;

/**
 * What the contract runners against remote stores share.
 */
final class ClientContractTests
{
    private ClientContractTests()
    {
    }

    /**
     * The contract tests no store behind RESP can pass, with their reasons.
     *
     * @return a new condition; add the skips particular to a server to it.
     */
    static ClientContractSkips skipsForEveryRemoteStore()
    {
        return new ClientContractSkips()
            .skip("setAllIfPresent*", "RESP has MSET and MSETNX but no MSET XX, so AgniClient refuses " +
                "setAll(IF_PRESENT) with UnsupportedOperationException")
            .skip("directIncrementByFloatIntoTooSmallBufferThrowsAndChangesNothing", "INCRBYFLOAT stores the sum " +
                "before the client sees its length; AgniStore's javadoc allows it ('the value is then already stored')");
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
