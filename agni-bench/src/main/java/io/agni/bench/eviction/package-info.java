/**
 * The hit-ratio harness of agni's eviction (issue 20, {@code docs/eviction.md}): {@link io.agni.bench.eviction.HitRatio}
 * replays recorded traces ({@link io.agni.bench.eviction.TraceReader}) and synthetic workloads
 * ({@link io.agni.bench.eviction.Workloads}) against a true LRU, Caffeine and the candidate algorithms for the store,
 * each simulated at an equal entry count with only the per-entry state and per-eviction work the store can afford.
 */
package io.agni.bench.eviction;
