/**
 * The off-heap, sharded, in-process {@link io.agni.api.AgniStore}: {@link io.agni.store.OffHeapStore}.
 */
module io.agni.store
{
    requires transitive io.agni.api;
    requires java.management;
    requires org.agrona;
    requires org.slf4j;

    exports io.agni.store;
}
