package io.agni.store.arena;

/**
 * Padding between the counters writers store to and the fields readers load.
 */
@SuppressWarnings("unused")
abstract class SegmentCountersPadding extends SegmentCounters
{
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
