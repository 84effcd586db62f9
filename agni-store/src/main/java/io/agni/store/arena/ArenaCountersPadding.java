package io.agni.store.arena;

/**
 * Padding between an {@link Arena}'s counters and its segment table.
 */
@SuppressWarnings("unused")
abstract class ArenaCountersPadding extends ArenaCounters
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
