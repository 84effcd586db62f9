package io.agni.net;

import io.agni.store.OffHeapStore;
import io.agni.testsupport.AgniStoreContract;
import io.agni.testsupport.StoreFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@link AgniStoreContract} against {@link AgniClient} talking to an {@link AgniServer} in front of an
 * {@link OffHeapStore}, as a deployment runs them: real clock, no hooks into the store. A new store and server for
 * each test.
 * <p>
 * Only what RESP cannot carry is skipped: {@code setAll} with {@code IF_PRESENT} (no {@code MSET XX}), and the
 * float increment into a buffer too small for its result (the server stores the sum before the client sees its
 * length). {@link AgniClientOnAgniServerWithStoreHooksContractTest} runs the time and limit tests too.
 */
@Tag("socket")
class AgniClientOnAgniServerContractTest extends AgniStoreContract
{
    @RegisterExtension
    static final ClientContractSkips SKIPS = ClientContractTests.skipsForEveryRemoteStore();

    private OffHeapStore offHeapStore;
    private AgniServer server;

    @Override
    protected StoreFixture createFixture()
    {
        offHeapStore = OffHeapStore.builder().shards(4).maxMemory(64L << 20).build();
        server = AgniServer.builder(offHeapStore).port(0).eventLoopThreads(2).build().start();
        final AgniClient client = AgniClient.builder().host("127.0.0.1").port(server.port()).connections(2).build();
        return ClientContractTests.fixtureFor(client).build();
    }

    @AfterEach
    void stopServerAndStore()
    {
        ClientContractTests.closeAll(server, offHeapStore);
    }
}
