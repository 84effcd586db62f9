/**
 * The agni store contract: {@link io.agni.api.AgniStore} and its value types and exceptions.
 */
module io.agni.api
{
    requires transitive org.agrona;

    exports io.agni.api;
}
