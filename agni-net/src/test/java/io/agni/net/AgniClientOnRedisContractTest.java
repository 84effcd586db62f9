package io.agni.net;

import io.agni.testsupport.AgniStoreContract;
import io.agni.testsupport.StoreFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@link AgniStoreContract} against {@link AgniClient} talking to a real {@code redis-server}: the client's
 * mapping of every operation onto Redis commands gives the in-process store's results and exceptions.
 * <p>
 * One server for the class, flushed before each test, started with {@code proto-max-bulk-len} at its smallest
 * (1 MiB), the limit of every key and value, and a client told the same ({@code maxBulkLength}), so the limit tests
 * run: a longer key or value is refused by the client before it is sent, an APPEND or SETRANGE past it by Redis.
 * Redis runs on the real clock and cannot be told to reclaim expired entries, so the contract skips the tests that
 * need a fake clock by assumption. The tests skipped by name are listed below, each with its reason.
 */
@Tag("socket")
class AgniClientOnRedisContractTest extends AgniStoreContract
{
    private static final int PROTO_MAX_BULK_LEN = 1024 * 1024;
    private static final String LONG_DOUBLE = "Redis adds in an 80-bit long double and prints it with %.17Lf, " +
        "where agni rounds the exact decimal sum to 17 significant digits of a double";

    @RegisterExtension
    static final ClientContractSkips SKIPS = ClientContractTests.skipsForEveryRemoteStore()
        .skip("appendPastTheValueLimitIsRefusedAndLeavesTheValue", ClientContractTests.VALUE_LIMIT_TEXT)
        .skip("setRangePastTheValueLimitIsRefusedBeforeAnythingChanges", ClientContractTests.VALUE_LIMIT_TEXT)
        .skip("statsReportMemoryWithinTheBudget", "Redis's used_memory_dataset is not 0 for an empty database " +
            "(it counts its own overhead) and maxmemory 0 means no budget")
        .skip("statsLiveEntryBytesFollowValueSizes", "Redis's used_memory_dataset is not 0 for an empty database " +
            "and moves in allocator-sized steps")
        .skip("incrementByFloatPastTheDoubleRangeThrowsOverflowAndLeavesTheValue",
            "Redis adds in an 80-bit long double, whose range reaches 1.19e4932: sums past Double.MAX_VALUE fit")
        .skip("incrementByFloatWritesTheLargestFiniteResultInFull", LONG_DOUBLE)
        .skipCase("incrementByFloatStoresTheRoundedSumAsPlainText", "= \"0.00000000000000000001\"",
            LONG_DOUBLE)
        .skipCase("incrementByFloatStoresTheRoundedSumAsPlainText",
            "= \"12345678901234568000\"", LONG_DOUBLE)
        .skipCase("incrementByFloatOfNonNumberThrowsAndLeavesTheValue", "\"inf\"", "Redis's strtold reads inf " +
            "as a number, so the sum overflows instead")
        .skipCase("incrementByFloatOfNonNumberThrowsAndLeavesTheValue", "\"-inf\"", "Redis's strtold reads -inf " +
            "as a number, so the sum overflows instead")
        .skipCase("incrementByFloatOfNonNumberThrowsAndLeavesTheValue", "\"Infinity\"", "Redis's strtold reads " +
            "Infinity as a number, so the sum overflows instead")
        .skip("incrementByFloatReadsNumbersUpToFiveKibibytesLong", "Redis 7's string2ld refuses a number of " +
            "5120 bytes (it accepts at most 5119), one byte less than agni's Decimal.MAX_LENGTH")
        .skip("relativeTimesOfABatchCountFromTheStoresClock", "Redis 7.0 reads its clock for each command of a " +
            "transaction, so the PX and PEXPIRE of one batch can count from instants 1 ms apart (4 in 3000 batches " +
            "here); agni's server applies the batch at one reading");

    private static RedisServerProcess redis;

    @BeforeAll
    static void startRedis()
    {
        redis = RedisServerProcess.start("--proto-max-bulk-len", Integer.toString(PROTO_MAX_BULK_LEN));
    }

    @AfterAll
    static void stopRedis()
    {
        if (redis != null)
        {
            redis.close();
        }
    }

    @Override
    protected StoreFixture createFixture()
    {
        final AgniClient client = AgniClient.builder().host("127.0.0.1").port(redis.port()).connections(2)
            .maxBulkLength(PROTO_MAX_BULK_LEN).build();
        client.clear();
        return ClientContractTests.fixtureFor(client).limits(PROTO_MAX_BULK_LEN, PROTO_MAX_BULK_LEN).build();
    }
}
