/**
 * RESP2, the Redis protocol, over Agrona buffers: {@link io.agni.protocol.RespDecoder},
 * {@link io.agni.protocol.RespWriter}, and the command layer that executes Redis commands on an
 * {@link io.agni.api.AgniStore}. No sockets: the network adapter feeds it bytes.
 */
module io.agni.protocol
{
    requires transitive io.agni.api;
    requires org.agrona;

    exports io.agni.protocol;
    exports io.agni.protocol.command;
}
