package io.agni.bench.net.target;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TargetSpecTest
{
    @Test
    void agniWithoutFlagsIsNamedAgni()
    {
        assertEquals(new TargetSpec("agni", TargetSpec.Kind.AGNI, List.of(), null, 0), TargetSpec.parse("agni"));
    }

    @Test
    void agniWithFlagsSplitsThemAtSpacesAndIsNamedByItsText()
    {
        final TargetSpec spec = TargetSpec.parse("agni:--shards 1  --threads 2");

        assertEquals(TargetSpec.Kind.AGNI, spec.kind());
        assertEquals(List.of("--shards", "1", "--threads", "2"), spec.flags());
        assertEquals("agni:--shards 1  --threads 2", spec.name());
        assertEquals("agni_--shards_1_--threads_2", spec.fileName());
        assertEquals("agni --shards 1 --threads 2", spec.describe());
    }

    @Test
    void aNameBeforeTheSpecLabelsTheTarget()
    {
        final TargetSpec spec = TargetSpec.parse("agni-1shard=agni:--shards 1");

        assertEquals("agni-1shard", spec.name());
        assertEquals(List.of("--shards", "1"), spec.flags());
    }

    @Test
    void anEqualsSignInsideFlagsIsNotAName()
    {
        final TargetSpec spec = TargetSpec.parse("agni:--max-memory=1g");

        assertEquals("agni:--max-memory=1g", spec.name());
        assertEquals(List.of("--max-memory=1g"), spec.flags());
    }

    @Test
    void redisWithAndWithoutFlags()
    {
        assertEquals(TargetSpec.Kind.REDIS, TargetSpec.parse("redis").kind());
        assertEquals(List.of("--io-threads", "2"), TargetSpec.parse("r=redis:--io-threads 2").flags());
    }

    @Test
    void hostAndPortIsAnAddressEvenWhenTheHostIsCalledRedis()
    {
        assertEquals(new TargetSpec("127.0.0.1:6379", TargetSpec.Kind.ADDRESS, List.of(), "127.0.0.1", 6379),
            TargetSpec.parse("127.0.0.1:6379"));
        assertEquals(new TargetSpec("other", TargetSpec.Kind.ADDRESS, List.of(), "redis", 6380),
            TargetSpec.parse("other=redis:6380"));
    }

    @Test
    void rejectsWhatIsNoTarget()
    {
        assertEquals("unknown target: memcached (expected [NAME=]agni[:FLAGS], [NAME=]redis[:FLAGS] or " +
            "[NAME=]HOST:PORT)", assertThrows(IllegalArgumentException.class,
            () -> TargetSpec.parse("memcached")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> TargetSpec.parse("agni:shards 1"));
        assertThrows(IllegalArgumentException.class, () -> TargetSpec.parse("localhost:70000"));
        assertThrows(IllegalArgumentException.class, () -> TargetSpec.parse(":6379"));
    }
}
