package io.agni.protocol.command;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link ServerContext} with no sockets: an optional password and a list of sessions the caller maintains.
 * For tests and for serving the command layer in-process.
 */
public final class LocalServerContext implements ServerContext
{
    private final byte[] password;
    private final long startTimeMillis;
    private final List<Session> sessions = new CopyOnWriteArrayList<>();

    /**
     * @param password        the password clients must give, {@code null} for none.
     * @param startTimeMillis when the server started, epoch milliseconds.
     */
    public LocalServerContext(final String password, final long startTimeMillis)
    {
        this.password = password == null ? null : password.getBytes(StandardCharsets.UTF_8);
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
        return password != null;
    }

    @Override
    public boolean authenticate(final String username, final byte[] password)
    {
        final boolean defaultUser = username == null || "default".equals(username);
        final boolean matches = this.password == null || MessageDigest.isEqual(this.password, password);
        return defaultUser & matches;
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
}
