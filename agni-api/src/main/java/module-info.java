/**
 * The agni store contract: {@link io.agni.api.AgniStore} and its value types and exceptions.
 */
module io.agni.api
{
    requires transitive org.agrona;

    exports io.agni.api;
    // Not API: the INCRBYFLOAT number grammar, shared by the store and the command layer only.
    exports io.agni.api.internal to io.agni.store, io.agni.protocol;
}
