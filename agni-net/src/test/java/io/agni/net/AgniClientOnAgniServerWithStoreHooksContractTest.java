package io.agni.net;

import io.agni.store.OffHeapStore;
import io.agni.testsupport.AgniStoreContract;
import io.agni.testsupport.StoreFixture;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/**
 * The {@link AgniStoreContract} against {@link AgniClient} talking to an {@link AgniServer} in front of an
 * {@link OffHeapStore} whose hooks the test can reach because it runs in the same JVM: a fake clock shared by store
 * and server, the store's expiry sweep, and small length limits. So the tests that move time, count reclaimed
 * entries and refuse entries over the limits run over the wire too, and check that the server's replies (e.g.
 * {@code ERR key too large: length=..., limit=...}) come back as the same exceptions with the same messages.
 * <p>
 * Skipped besides what no remote store can pass: the two limit tests that compare the messages of APPEND and
 * SETRANGE past the value limit, which the server words as Redis does (a key past the limit gets agni's own
 * {@code key too large: ...} from every command, so the key-limit test runs).
 */
@Tag("socket")
class AgniClientOnAgniServerWithStoreHooksContractTest extends AgniStoreContract
{
    private static final int MAX_KEY_LENGTH = 4096;
    private static final int MAX_VALUE_LENGTH = 256 * 1024;

    @RegisterExtension
    static final ClientContractSkips SKIPS = ClientContractTests.skipsForAnAgniServer();

    private OffHeapStore offHeapStore;
    private AgniServer server;

    @Override
    protected StoreFixture createFixture()
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(1_700_000_000_000L);
        offHeapStore = OffHeapStore.builder().shards(4).maxMemory(64L << 20).clock(clock).expirySweepInterval(Duration.ZERO)
            .maxKeyLength(MAX_KEY_LENGTH).maxValueLength(MAX_VALUE_LENGTH).build();
        server = AgniServer.builder(offHeapStore).port(0).eventLoopThreads(2).clock(clock).build().start();
        final AgniClient client = AgniClient.builder().host("127.0.0.1").port(server.port()).connections(2).build();
        return ClientContractTests.fixtureFor(client)
            .fakeClock(clock)
            .reclaimExpired(offHeapStore::sweepExpired)
            .limits(MAX_KEY_LENGTH, MAX_VALUE_LENGTH)
            .build();
    }

    @AfterEach
    void stopServerAndStore()
    {
        ClientContractTests.closeAll(server, offHeapStore);
    }
}
