package io.agni.bench.durability;

/**
 * The durability settings compared, named after agni's presets; each target maps them onto its own options.
 */
enum Preset
{
    /**
     * Data reaches the disk only at a snapshot, flush or commit the store chooses; a crash loses recent writes.
     */
    FAST,

    /**
     * Every acknowledged write is in the operating system's page cache: it survives the process, not a power loss.
     */
    DURABLE,

    /**
     * Every acknowledged write is on the device (fsync or fdatasync before the call returns).
     */
    PARANOID
}
