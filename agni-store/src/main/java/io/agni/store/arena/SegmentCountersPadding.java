package io.agni.store.arena;

/**
 * Padding between the counters writers store to and the fields readers load.
 */
@SuppressWarnings("unused")
abstract class SegmentCountersPadding extends SegmentCounters
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
