/**
 * RESP2 and RESP3, the Redis protocol, over Agrona buffers: {@link io.agni.protocol.RespDecoder},
 * {@link io.agni.protocol.RespWriter}, and the command layer ({@code io.agni.protocol.command}, exported to
 * {@code io.agni.net} only) that executes Redis commands on an {@link io.agni.api.AgniStore}. No sockets: the network
 * adapter feeds it bytes.
 */
module io.agni.protocol
{
    requires transitive io.agni.api;
    requires org.agrona;
    // INFO's cpu section reads the command threads' CPU time (ThreadMXBean)
    requires java.management;

    exports io.agni.protocol;
    // The server's command table is agni-net's business, not its users': exported to agni-net only.
    exports io.agni.protocol.command to io.agni.net;
}
