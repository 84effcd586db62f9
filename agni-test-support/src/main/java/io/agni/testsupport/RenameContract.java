package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.SetCondition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of rename ({@code RENAME} and {@code RENAMENX}: the value and its expiry time move together, the
 * target is replaced only when allowed, a key renamed to itself) and of randomKey ({@code RANDOMKEY}: only live keys,
 * {@code null} for none). Part of {@link AgniStoreContract}.
 */
public abstract class RenameContract extends FloatIncrementContract
{
    // ------------------------------------------------------------------------------------------------------------
    // rename
    // ------------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "replace={0}")
    @ValueSource(booleans = {true, false})
    public void renameMovesTheValueToTheNewKey(final boolean replace)
    {
        store.set(bytes("old"), bytes("value"));

        assertEquals(RenameResult.RENAMED, store.rename(bytes("old"), bytes("new"), replace));

        assertValue(null, "old");
        assertValue("value", "new");
        assertEquals(1, store.size());
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("new")));
    }

    @Test
    public void renameMovesTheExpiryTime()
    {
        final long at = hoursAhead(2);
        store.set(bytes("old"), bytes("value"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertEquals(RenameResult.RENAMED, store.rename(bytes("old"), bytes("new"), true));

        assertEquals(at, store.expireTimeMillis(bytes("new")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.expireTimeMillis(bytes("old")));
    }

    @Test
    public void renameReplacesAnExistingTargetAndItsExpiryTime()
    {
        store.set(bytes("old"), bytes("value"));
        store.set(bytes("new"), bytes("replaced"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        assertEquals(RenameResult.RENAMED, store.rename(bytes("old"), bytes("new"), true));

        assertValue("value", "new");
        assertValue(null, "old");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("new")), "the target's expiry time is gone");
        assertEquals(1, store.size());
    }

    @Test
    public void renameWithoutReplaceLeavesAnExistingTarget()
    {
        final long at = hoursAhead(1);
        store.set(bytes("old"), bytes("value"), SetCondition.ALWAYS, ExpiryMode.AT, at);
        store.set(bytes("new"), bytes("kept"));

        assertEquals(RenameResult.TARGET_EXISTS, store.rename(bytes("old"), bytes("new"), false));

        assertValue("value", "old");
        assertValue("kept", "new");
        assertEquals(at, store.expireTimeMillis(bytes("old")));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("new")));
    }

    @ParameterizedTest(name = "replace={0}")
    @ValueSource(booleans = {true, false})
    public void renameOfAbsentKeyIsNoSuchKeyAndChangesNothing(final boolean replace)
    {
        store.set(bytes("new"), bytes("kept"));

        assertEquals(RenameResult.NO_SUCH_KEY, store.rename(bytes("old"), bytes("new"), replace));
        assertEquals(RenameResult.NO_SUCH_KEY, store.rename(bytes("old"), bytes("other"), replace));

        assertValue("kept", "new");
        assertFalse(store.exists(bytes("other")));
        assertEquals(1, store.size());
    }

    @Test
    public void renameOfExpiredKeyIsNoSuchKey()
    {
        requireFakeClock();
        store.set(bytes("old"), bytes("value"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        fixture.advanceTime(10);

        assertEquals(RenameResult.NO_SUCH_KEY, store.rename(bytes("old"), bytes("new"), true));

        assertFalse(store.exists(bytes("new")));
    }

    @Test
    public void renameWithoutReplaceOntoAnExpiredTargetRenames()
    {
        requireFakeClock();
        store.set(bytes("old"), bytes("value"));
        store.set(bytes("new"), bytes("gone"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        fixture.advanceTime(10);

        assertEquals(RenameResult.RENAMED, store.rename(bytes("old"), bytes("new"), false));

        assertValue("value", "new");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("new")));
    }

    @Test
    public void renamedKeyStillExpiresAtItsTime()
    {
        requireFakeClock();
        store.set(bytes("old"), bytes("value"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 100);
        store.rename(bytes("old"), bytes("new"), true);

        fixture.advanceTime(99);
        assertValue("value", "new");
        fixture.advanceTime(1);
        assertValue(null, "new");
    }

    @Test
    public void renameOfAKeyToItselfLeavesItAsItWas()
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("value"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertEquals(RenameResult.RENAMED, store.rename(bytes("k"), bytes("k"), true));
        assertEquals(RenameResult.TARGET_EXISTS, store.rename(bytes("k"), bytes("k"), false));
        assertEquals(RenameResult.NO_SUCH_KEY, store.rename(bytes("absent"), bytes("absent"), true));
        assertEquals(RenameResult.NO_SUCH_KEY, store.rename(bytes("absent"), bytes("absent"), false));

        assertValue("value", "k");
        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertEquals(1, store.size());
    }

    @Test
    public void renameMovesEmptyKeysEmptyValuesAndBinaryBytes()
    {
        store.set(new byte[0], allByteValues());
        store.set(bytes("\0"), new byte[0]);

        assertEquals(RenameResult.RENAMED, store.rename(new byte[0], bytes("\u00ff\0"), true));
        assertEquals(RenameResult.RENAMED, store.rename(bytes("\0"), new byte[0], true));

        assertValue(allByteValues(), bytes("\u00ff\0"));
        assertValue(new byte[0], new byte[0]);
        assertFalse(store.exists(bytes("\0")));
    }

    @Test
    public void renameMovesALargeValue()
    {
        final byte[] value = patterned(VALUES_UP_TO, 3);
        store.set(bytes("old"), value);
        store.set(bytes("new"), patterned(VALUES_UP_TO, 4));

        assertEquals(RenameResult.RENAMED, store.rename(bytes("old"), bytes("new"), true));

        assertValue(value, bytes("new"));
        assertFalse(store.exists(bytes("old")));
    }

    @Test
    public void renameOfManyKeysKeepsEveryValue()
    {
        final long at = hoursAhead(1);
        for (int i = 0; i < 200; i++)
        {
            store.set(bytes("key:" + i), bytes("value:" + i), SetCondition.ALWAYS,
                i % 2 == 0 ? ExpiryMode.AT : ExpiryMode.CLEAR, i % 2 == 0 ? at + i : 0);
        }

        for (int i = 0; i < 200; i++)
        {
            assertEquals(RenameResult.RENAMED, store.rename(bytes("key:" + i), bytes("renamed-" + i), i % 3 == 0));
        }

        assertEquals(200, store.size());
        for (int i = 0; i < 200; i++)
        {
            assertValue(null, "key:" + i);
            assertValue("value:" + i, "renamed-" + i);
            assertEquals(i % 2 == 0 ? at + i : AgniStore.TTL_NO_EXPIRY,
                store.expireTimeMillis(bytes("renamed-" + i)), "expiry time of renamed-" + i);
        }
    }

    @Test
    public void renameBackAndForthEndsWhereItStarted()
    {
        store.set(bytes("a"), bytes("1"));

        for (int i = 0; i < 50; i++)
        {
            assertEquals(RenameResult.RENAMED, store.rename(bytes("a"), bytes("b"), false));
            assertEquals(RenameResult.RENAMED, store.rename(bytes("b"), bytes("a"), true));
        }

        assertValue("1", "a");
        assertEquals(1, store.size());
    }

    // ------------------------------------------------------------------------------------------------------------
    // randomKey
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void randomKeyOfEmptyStoreIsNull()
    {
        assertNull(store.randomKey());
    }

    @Test
    public void randomKeyReturnsTheOnlyKey()
    {
        store.set(bytes("only"), bytes("v"));

        for (int i = 0; i < 20; i++)
        {
            assertEquals("only", text(store.randomKey()));
        }
    }

    @Test
    public void randomKeyReturnsTheEmptyKey()
    {
        store.set(new byte[0], bytes("v"));

        final byte[] key = store.randomKey();
        assertNotNull(key);
        assertEquals(0, key.length);
    }

    @Test
    public void randomKeyEventuallyReturnsEveryKey()
    {
        final Set<String> keys = Set.of("a", "b", "c", "d", "e");
        for (final String key : keys)
        {
            store.set(bytes(key), bytes("v"));
        }

        final Set<String> seen = new HashSet<>();
        for (int i = 0; i < 20_000 && seen.size() < keys.size(); i++)
        {
            final String key = text(store.randomKey());
            assertTrue(keys.contains(key), "randomKey returned " + key);
            seen.add(key);
        }

        assertEquals(keys, seen);
    }

    @Test
    public void randomKeyReturnsOnlyLiveKeys()
    {
        requireFakeClock();
        for (int i = 0; i < 100; i++)
        {
            store.set(bytes("k" + i), bytes("v"), SetCondition.ALWAYS,
                i % 10 == 0 ? ExpiryMode.CLEAR : ExpiryMode.AT, i % 10 == 0 ? 0 : now() + 10);
        }
        fixture.advanceTime(10);

        for (int i = 0; i < 200; i++)
        {
            final String key = text(store.randomKey());
            assertNotNull(key);
            assertEquals(0, Integer.parseInt(key.substring(1)) % 10, "randomKey returned the expired key " + key);
        }
    }

    @Test
    public void randomKeyWhenEveryKeyHasExpiredIsNull()
    {
        requireFakeClock();
        for (int i = 0; i < 500; i++)
        {
            store.set(bytes("k" + i), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        }
        fixture.advanceTime(10);

        assertNull(store.randomKey());
    }
}
