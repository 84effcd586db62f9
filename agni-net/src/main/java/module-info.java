/**
 * The network adapter: {@link io.agni.net.AgniServer} serves any {@link io.agni.api.AgniStore} over TCP to Redis
 * clients, and {@link io.agni.net.AgniClient} uses any RESP server as an {@link io.agni.api.AgniStore}. The
 * package {@code io.agni.net.launcher} holds the standalone server's command line, packaged as
 * {@code agni-server.jar}.
 */
module io.agni.net
{
    requires transitive io.agni.api;
    // Transitive because AgniServerBuilder.protocolLimits takes an io.agni.protocol.ProtocolLimits; the command
    // table (io.agni.protocol.command) is exported to this module only, so users do not see it.
    requires transitive io.agni.protocol;
    requires org.agrona;
    requires org.slf4j;
    // Only to read -XX:MaxDirectMemorySize (AgniServerBuilder.directMemoryLimit); without them it falls back.
    requires static java.management;
    requires static jdk.management;
    // Only the standalone launcher (io.agni.net.launcher, not exported) opens a store; see agni-net's pom.
    requires static io.agni.store;

    exports io.agni.net;
}
