/**
 * agni's in-process benchmarks: {@link io.agni.bench.StoreBenchmark} (JMH), {@link io.agni.bench.BytesPerEntry},
 * {@link io.agni.bench.ResidentMemoryPerEntry} and {@link io.agni.bench.ChurnUtilisation}. How to build and run them,
 * and the method: {@code docs/benchmarks.md}.
 */
package io.agni.bench;
