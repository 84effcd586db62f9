package io.agni.net;

/**
 * The settings of an {@link AgniClient}, validated by {@link AgniClientBuilder} and fixed from then on.
 *
 * @param host                 the server's host name or address.
 * @param port                 the server's port.
 * @param connections          the most connections the pool opens.
 * @param connectTimeoutMillis how long opening a connection may take.
 * @param readTimeoutMillis    how long a reply may take.
 * @param password             sent with {@code AUTH} on every new connection, or {@code null} for none.
 * @param clientName           set with {@code CLIENT SETNAME} on every new connection, or {@code null} for none.
 * @param maxBulkLength        the longest key or value sent or received, in bytes.
 */
record ClientConfig(
    String host,
    int port,
    int connections,
    int connectTimeoutMillis,
    int readTimeoutMillis,
    String password,
    String clientName,
    int maxBulkLength)
{
    /**
     * @return {@code host:port}, for messages.
     */
    String address()
    {
        return host + ":" + port;
    }

    @Override
    public String toString()
    {
        return "ClientConfig{address=" + address() + ", connections=" + connections +
            ", connectTimeoutMillis=" + connectTimeoutMillis + ", readTimeoutMillis=" + readTimeoutMillis +
            ", password=" + (password == null ? "none" : "****") + ", clientName=" + clientName +
            ", maxBulkLength=" + maxBulkLength + "}";
    }
}
