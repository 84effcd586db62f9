package io.agni.store.shard;

/**
 * Padding between a {@link Shard}'s counters and the references its reads load.
 */
@SuppressWarnings("unused")
abstract class ShardCountersPadding extends ShardCounters
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
