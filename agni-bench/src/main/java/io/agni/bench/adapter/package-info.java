/**
 * The stores compared by the benchmarks, each behind {@link io.agni.bench.adapter.StoreAdapter}, and the keys and
 * values the benchmarks write ({@link io.agni.bench.adapter.KeySet}, {@link io.agni.bench.adapter.Value}).
 */
package io.agni.bench.adapter;
