package io.agni.store.arena;

/**
 * Padding between an {@link Arena}'s counters and its segment table.
 */
@SuppressWarnings("unused")
abstract class ArenaCountersPadding extends ArenaCounters
{
    // bytes first in the source, though the JVM places them last: they fill any gap the counters left, where the
    // JVM would otherwise put a subclass's field (CacheLineLayoutTest)
    private byte b01;
    private byte b02;
    private byte b03;
    private byte b04;
    private byte b05;
    private byte b06;
    private byte b07;
    private int q00;
    private long q01;
    private long q02;
    private long q03;
    private long q04;
    private long q05;
    private long q06;
    private long q07;
    private long q08;
}
