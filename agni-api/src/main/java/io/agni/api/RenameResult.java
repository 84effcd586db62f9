package io.agni.api;

/**
 * The outcome of {@link AgniStore#rename}: Redis's {@code RENAME} and {@code RENAMENX}.
 */
public enum RenameResult
{
    /**
     * The value and its expiry time now live under the new key, and the old key is gone (or, when the two keys are
     * equal, the key was left as it was).
     */
    RENAMED,

    /**
     * The key to rename is absent or expired; nothing changed (Redis: {@code ERR no such key}).
     */
    NO_SUCH_KEY,

    /**
     * The new key exists and the call did not allow replacing it; nothing changed (Redis: {@code RENAMENX} returns
     * {@code 0}).
     */
    TARGET_EXISTS
}
