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
 * One server for the class, flushed before each test. Redis runs on the real clock and cannot be told to reclaim
 * expired entries or to use small length limits, so the fixture has none of those hooks and the contract skips the
 * tests that need them by assumption. The tests skipped by name are listed below, each with its reason.
 */
@Tag("socket")
class AgniClientOnRedisContractTest extends AgniStoreContract
{
    private static final String LONG_DOUBLE = "Redis adds in an 80-bit long double and prints it with %.17Lf, " +
        "where agni rounds the exact decimal sum to 17 significant digits of a double";

    @RegisterExtension
    static final ClientContractSkips SKIPS = ClientContractTests.skipsForEveryRemoteStore()
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
        redis = RedisServerProcess.start();
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
        final AgniClient client = AgniClient.builder().host("127.0.0.1").port(redis.port()).connections(2).build();
        client.clear();
        return ClientContractTests.fixtureFor(client).build();
    }
}
