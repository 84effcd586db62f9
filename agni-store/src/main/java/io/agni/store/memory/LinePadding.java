package io.agni.store.memory;

/**
 * Leading padding for an object whose first fields its owner writes often: 60 bytes before the subclass's fields,
 * so that none of them shares a 64-byte cache line with the object placed before it in the heap, whatever that is
 * (the garbage collector decides, and moves it).
 * <p>
 * The pattern is Agrona's and the Disruptor's: the JVM lays a superclass's fields out before its subclass's, so a
 * chain of classes orders fields where one class could not (the JVM orders a class's own fields by size). A class
 * that needs readers' fields apart from writers' extends this with a class holding the written fields, then one more
 * padding class, then the class with the fields readers load: {@code Segment}, {@code Arena} and {@code Shard} do.
 * The JVM may still put a subclass's field into a gap a superclass left, so padding classes begin with fields that
 * fill such gaps, and {@code CacheLineLayoutTest} checks the offsets.
 * docs/architecture.md ("Cache lines") and docs/experiments/in-process-store.md say why.
 */
@SuppressWarnings("unused")
public abstract class LinePadding
{
    // an int first: it fills the 4 bytes after a 12-byte header, where a subclass's field could otherwise go
    private int p00;
    private long p01;
    private long p02;
    private long p03;
    private long p04;
    private long p05;
    private long p06;
    private long p07;

    /**
     * For subclasses.
     */
    protected LinePadding()
    {
    }
}
