package io.agni.net;

import io.agni.testsupport.AgniStoreContract;
import io.agni.testsupport.StoreFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@link AgniStoreContract} against {@link AgniClient} pointed at nutcracker (twemproxy) in front of three agni
 * servers, with docs/scale-out.md's configuration ({@link NutcrackerPool}): every operation the proxy forwards gives
 * the in-process store's results. The stores are cleared directly before each test (the proxy refuses FLUSHALL).
 * The tests of operations whose commands nutcracker refuses are skipped by name below, each with its reason.
 */
@Tag("nutcracker")
@Tag("socket")
class NutcrackerContractTest extends AgniStoreContract
{
    private static final String REFUSED = "nutcracker 0.5.0 refuses ";
    private static final String CLOSES = " and closes the client's connection (docs/scale-out.md, 'What passes through " +
        "the proxy')";
    private static final String SIZE = REFUSED + "DBSIZE, which size() sends (the test counts the keys)" + CLOSES;
    private static final String PEXPIRETIME = REFUSED + "PEXPIRETIME, a Redis 7.0 command it does not know, which " +
        "expireTimeMillis() sends" + CLOSES;
    private static final String TRANSACTION = REFUSED + "MULTI and EXEC, which write(WriteBatch) sends" + CLOSES;
    private static final String EXPIRE_CONDITION = REFUSED + "EXPIRE, PEXPIRE and PEXPIREAT with NX, XX, GT or LT " +
        "(it allows one argument after the key), which expire() and expireAfter() send with a condition" + CLOSES;
    private static final String RENAME = REFUSED + "RENAME and RENAMENX (two keys that may live on two servers), " +
        "which rename() sends" + CLOSES;
    private static final String INFO = REFUSED + "INFO, which stats() sends" + CLOSES;
    private static final String SCAN = REFUSED + "SCAN, which scan() sends" + CLOSES;
    private static final String MSETNX = REFUSED + "MSETNX, which setAll() with IF_ABSENT sends" + CLOSES;
    private static final String RANDOMKEY = REFUSED + "RANDOMKEY, which randomKey() sends" + CLOSES;
    private static final String FLUSHALL = REFUSED + "FLUSHALL, which clear() sends" + CLOSES;
    private static final String TIME = REFUSED + "TIME, which currentTimeMillis() sends (the store's clock is " +
        "the server's)" + CLOSES;

    private static NutcrackerPool pool;

    /**
     * Each test skipped is listed under the first operation it calls that the proxy refuses.
     */
    @RegisterExtension
    static final ClientContractSkips SKIPS = ClientContractTests.skipsForAnAgniServer()
        .skipAll(PEXPIRETIME,
            "aModeThatIgnoresTheTimeAcceptsZero",
            "aTimeGivenWithAModeThatIgnoresItIsRefusedBeforeAnythingChanges",
            "afterSaturatesAtTheLatestTimeInsteadOfOverflowing",
            "appendKeepsTheExpiryTime",
            "conditionalSetWritesOnlyWhenTheConditionHoldsAndAppliesTheExpiryMode",
            "directExpireUsesOnlyTheGivenKeyRange",
            "directGetAndExpireCopiesTheValueAndSetsTheExpiry",
            "expireAfterSaturatesAtTheLatestTimeInsteadOfOverflowing",
            "expireAfterSetsTheExpiryTheDurationAfterTheStoresNowWhenItWrites",
            "expireSetsTheExpiryTime",
            "getAndExpireAfterReturnsTheValueAndSetsTheDuration",
            "getAndExpireWithAtSetsTheExpiry",
            "getAndExpireWithKeepReturnsTheValueAndLeavesTheExpiry",
            "getAndSetAfterReturnsThePreviousValueAndSetsTheDuration",
            "getAndSetReturnsThePreviousValueAndWritesOnlyWhenTheConditionHolds",
            "incrementByFloatKeepsTheExpiryTime",
            "incrementByFloatOfNonNumberThrowsAndLeavesTheValue",
            "incrementByFloatPastTheDoubleRangeThrowsOverflowAndLeavesTheValue",
            "incrementByKeepsTheExpiryTime",
            "incrementByOfNonIntegerThrowsAndLeavesTheValue",
            "incrementByPastTheRangeThrowsOverflowAndLeavesTheValue",
            "setAfterExpiresTheDurationAfterTheStoresNowWhenItWrites",
            "setRangeKeepsTheExpiryTimeInPlaceAndWhenTheValueGrows",
            "setRangeOfEmptyValueOnExistingKeyReturnsItsLengthAndChangesNothing",
            "setWithAtInThePastMakesTheKeyInvisibleAtOnce",
            "setWithKeepKeepsTheRemainingTimeToLive",
            "ttlAndExpireTimeOfAbsentKeyAreMinusTwo",
            "ttlAndExpireTimeOfKeyWithExpiry",
            "ttlAndExpireTimeOfKeyWithoutExpiryAreMinusOne")
        .skipAll(SIZE,
            "anEmptyBatchChangesNothing",
            "deleteRemovesAKeyAndSaysWhetherItWasThere",
            "directAndByteArrayFormsAddressTheSameEntry",
            "directKeyRangeMatchesByContentNotByBuffer",
            "directSetReadsOnlyTheGivenRanges",
            "directSetWithKeyAndValueInTheSameBytesWorks",
            "emptyValueIsStoredAndDiffersFromAbsent",
            "expireAfterOfAnAbsentKeyReturnsFalseAndCreatesNothing",
            "expireOfAbsentKeyReturnsFalseAndCreatesNothing",
            "getAndDeleteReturnsTheValueAndRemovesTheKey",
            "getAndExpireOfAbsentKeyReturnsNullAndCreatesNothing",
            "keyCanBeSetAgainAfterDelete",
            "keysThatArePrefixesOfEachOtherAreDistinct",
            "persistOfAbsentKeyReturnsFalseAndCreatesNothing",
            "setAllFromOneBufferRefusesArraysShorterThanThePairs",
            "setAllFromOneBufferWritesEveryPairAndTheLastValueOfARepeatedKey",
            "setAllIfPresentIsDoneOrRefusedAsTheFixtureDeclares",
            "setAllOfALargeBatchThenOfASmallOneWritesBothWhole",
            "setAllWithARepeatedKeyKeepsTheLastValue",
            "setAllWithListsOfDifferentSizesThrowsAndWritesNothing",
            "setAllWritesEveryKey",
            "setOverwritesWithLongerAndShorterValues",
            "setRangeOfEmptyValueOnAbsentKeyCreatesNothing",
            "setWithIfPresentDoesNotCreateAKey",
            "sizeCountsEntries")
        .skipAll(TRANSACTION,
            "aBatchHoldsCopiesOfWhatWasAdded",
            "aBatchIsReusedAfterClearAndCanBeWrittenAgain",
            "aLargeBatchWithRepeatedKeysKeepsEachKeysLastWrite",
            "binaryAndEmptyKeysAndValuesGoThroughABatch",
            "directFormsOfEveryOperationReadTheirRange",
            "expiryTimesAtOrBeforeTheBatchsInstantRemoveTheKey",
            "laterOperationsOfABatchSeeWhatEarlierOnesDidToTheirKey",
            "operationsOnAbsentKeysChangeNothing",
            "relativeTimesOfABatchCountFromTheStoresClock",
            "writeAppliesEveryKindOfOperation",
            "writeChangesValuesAndExpiryTimesOfEveryShape",
            "writeIsDoneOrRefusedAsTheFixtureDeclares",
            "writeLeavesTheBatchAsItWas")
        .skipAll(EXPIRE_CONDITION,
            "expireAfterHonoursTheConditionAgainstTheResultingTime",
            "expireIfEarlierIsAlwaysTrueForAKeyWithoutExpiry",
            "expireIfEarlierSetsOnlyAStrictlyEarlierTime",
            "expireIfEarlierWithPastTimeDeletesTheKey",
            "expireIfHasExpiryAndEarlierIsNeverTrueForAKeyWithoutExpiry",
            "expireIfHasExpiryAndEarlierSetsOnlyAStrictlyEarlierTime",
            "expireIfHasExpiryAndEarlierWithPastTimeDeletesAKeyWithExpiry",
            "expireIfHasExpirySetsOnlyAKeyWithOne",
            "expireIfLaterIsNeverTrueForAKeyWithoutExpiry",
            "expireIfLaterSetsOnlyAStrictlyLaterTime",
            "expireIfNoExpirySetsOnlyAKeyWithoutOne",
            "expireWithPastTimeStillHonoursTheCondition")
        .skipAll(RENAME,
            "directRenameGivesTheSameResultsAsTheArrayForm",
            "directRenameMovesTheValueAndItsExpiryTime",
            "renameBackAndForthEndsWhereItStarted",
            "renameMovesALargeValue",
            "renameMovesEmptyKeysEmptyValuesAndBinaryBytes",
            "renameMovesTheExpiryTime",
            "renameMovesTheValueToTheNewKey",
            "renameOfAKeyToItselfLeavesItAsItWas",
            "renameOfAbsentKeyIsNoSuchKeyAndChangesNothing",
            "renameOfManyKeysKeepsEveryValue",
            "renameReplacesAnExistingTargetAndItsExpiryTime",
            "renameWithoutReplaceLeavesAnExistingTarget")
        .skipAll(SCAN,
            "scanOfEmptyStoreCompletesWithNoKeys",
            "scanResultsBelongToTheCaller",
            "scanReturnsEveryKeyWhateverTheCount",
            "scanSkipsExpiredKeys",
            "scanWhileOtherKeysAreDeletedReturnsTheKeysThatStay",
            "scanWhileTheStoreGrowsReturnsEveryKeyPresentThroughout",
            "scanWithPatternReturnsExactlyTheMatchingKeys")
        .skipAll(INFO,
            "directGetAllCountsAHitOrMissPerKey",
            "statsCountAReadOfAnExpiredKeyAsAMiss",
            "statsCountEntriesAndEntriesWithExpiry",
            "statsCountHitsAndMissesOfReads",
            "statsLiveEntryBytesFollowValueSizes",
            "statsReportMemoryWithinTheBudget")
        .skipAll(MSETNX,
            "setAllIfAbsentTreatsAnExpiredKeyAsAbsent",
            "setAllIfAbsentWithARepeatedAbsentKeyWritesTheLastValue",
            "setAllIfAbsentWritesNothingWhenOneKeyExists",
            "setAllIfAbsentWritesWhenNoKeyExists")
        .skipAll(RANDOMKEY,
            "randomKeyEventuallyReturnsEveryKey",
            "randomKeyOfEmptyStoreIsNull",
            "randomKeyReturnsTheEmptyKey",
            "randomKeyReturnsTheOnlyKey")
        .skipAll(FLUSHALL,
            "clearRemovesEveryEntry",
            "storeWorksAsNewAfterClear")
        .skipAll(TIME,
            "currentTimeMillisIsTheClockExpiryTimesAreOn");


    @BeforeAll
    static void startPool()
    {
        pool = NutcrackerPool.start();
    }

    @AfterAll
    static void stopPool()
    {
        if (pool != null)
        {
            pool.close();
        }
    }

    @Override
    protected StoreFixture createFixture()
    {
        pool.clearAll();
        return ClientContractTests.fixtureFor(pool.client()).build();
    }
}
