package io.agni.protocol.command;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link ServerContext} with no sockets: an optional password and a list of sessions the caller maintains.
 * For tests and for serving the command layer in-process. It does not listen, so {@link #tcpPort()} is 0 and the
 * other settings are {@link ServerContext}'s defaults.
 *
 * <h2>Passwords</h2>
 * Only the SHA-256 digest of the password is kept, and a candidate is compared digest to digest with
 * {@link MessageDigest#isEqual}, as Redis's ACL compares password hashes: the time taken depends neither on the
 * password's content nor on its length.
 */
public final class LocalServerContext implements ServerContext
{
    private final byte[] passwordDigest;
    private final long startTimeMillis;
    private final List<Session> sessions = new CopyOnWriteArrayList<>();
    private final ServerStatistics statistics = new ServerStatistics();
    /**
     * The Redis name the store's policy was last set under; any thread.
     */
    private volatile String memoryPolicyName;

    /**
     * A server context for one process.
     *
     * @param password        the password clients must give, {@code null} for none.
     * @param startTimeMillis when the server started, epoch milliseconds.
     */
    public LocalServerContext(final String password, final long startTimeMillis)
    {
        this.passwordDigest = password == null ? null : sha256(password.getBytes(StandardCharsets.UTF_8));
        this.startTimeMillis = startTimeMillis;
    }

    /**
     * Adds a session to the list.
     *
     * @param session the session.
     */
    public void add(final Session session)
    {
        sessions.add(session);
    }

    /**
     * Removes a session from the list.
     *
     * @param session the session.
     */
    public void remove(final Session session)
    {
        sessions.remove(session);
    }

    @Override
    public boolean authenticationRequired()
    {
        return passwordDigest != null;
    }

    @Override
    public boolean authenticate(final String username, final byte[] password)
    {
        final boolean defaultUser = username == null || "default".equals(username);
        final boolean matches = passwordDigest == null || MessageDigest.isEqual(sha256(password), passwordDigest);
        return defaultUser & matches;
    }

    private static byte[] sha256(final byte[] bytes)
    {
        try
        {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every JVM provides SHA-256", ex);
        }
    }

    @Override
    public List<Session> sessions()
    {
        return sessions;
    }

    @Override
    public long startTimeMillis()
    {
        return startTimeMillis;
    }

    @Override
    public int tcpPort()
    {
        return 0;
    }

    /**
     * Returns the statistics every processor over this context counts into.
     *
     * @return the statistics every processor over this context counts into.
     */
    @Override
    public ServerStatistics statistics()
    {
        return statistics;
    }

    @Override
    public String memoryPolicyName()
    {
        return memoryPolicyName;
    }

    @Override
    public void memoryPolicyName(final String name)
    {
        memoryPolicyName = name;
    }
}
