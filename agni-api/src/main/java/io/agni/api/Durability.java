package io.agni.api;

/**
 * What a store keeps when its process stops, chosen when the store is opened.
 */
public enum Durability
{
    /**
     * Nothing: an in-memory store. The default when no directory is given.
     */
    NONE,

    /**
     * Snapshots only, no log: {@code close()} and {@code checkpoint()} write a snapshot, and a crash loses what was
     * written since the last one. For caches that should come back warm.
     */
    FAST,

    /**
     * A write-ahead log in the operating system's page cache: every acknowledged write survives a crash of the
     * process or the JVM. A power loss can lose the last moments, never leave a torn or half-applied state. The
     * default when a directory is given.
     */
    DURABLE,

    /**
     * The log is synced to the device ({@code fdatasync}) before a write returns; concurrent writers share one sync.
     * Every acknowledged write survives a power loss.
     */
    PARANOID
}
