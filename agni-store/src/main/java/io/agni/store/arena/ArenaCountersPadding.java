package io.agni.store.arena;

/**
 * Padding between an {@link Arena}'s counters and its segment table.
 */
@SuppressWarnings("unused")
abstract class ArenaCountersPadding extends ArenaCounters
{
    // the JVM puts a class's small fields into gaps its superclasses left before it appends them: these bytes fill
    // any gap the counters left, where it would otherwise put a subclass's field (CacheLineLayoutTest)
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
