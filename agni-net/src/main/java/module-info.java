/**
 * The network adapter: {@link io.agni.net.AgniServer} serves any {@link io.agni.api.AgniStore} over TCP to Redis
 * clients, and {@link io.agni.net.AgniClient} uses any RESP server as an {@link io.agni.api.AgniStore}.
 */
module io.agni.net
{
    requires transitive io.agni.api;
    requires transitive io.agni.protocol;
    requires org.agrona;
    requires org.slf4j;

    exports io.agni.net;
}
