/**
 * The hit-ratio harness of agni's eviction (issue 20, {@code docs/eviction.md}): {@link io.agni.bench.eviction.HitRatio}
 * replays recorded traces ({@link io.agni.bench.eviction.TraceReader}) and synthetic workloads
 * ({@link io.agni.bench.eviction.Workloads}) as a read-through cache against a true LRU, Caffeine and the candidate
 * algorithms for the store, each simulated at an equal entry count with only the per-entry state and per-eviction
 * work the store can afford; against agni itself in process ({@link io.agni.bench.eviction.AgniCache}), at the budget
 * that holds the same entry count; and, at that budget in bytes, against Caffeine bounded by weight
 * ({@link io.agni.bench.eviction.CaffeineWeightPolicy}) and Redis over the network
 * ({@link io.agni.bench.eviction.RedisCache}, checked against a strictly sequential replay by
 * {@link io.agni.bench.eviction.RedisPipelineCheck}).
 */
package io.agni.bench.eviction;
