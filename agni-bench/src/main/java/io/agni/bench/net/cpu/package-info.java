/**
 * Where the servers and the load run, and what CPU they use: disjoint CPU sets ({@code taskset}), CPU time read from
 * {@code /proc} over each measured interval, and the flag for a run whose load generator was saturated.
 */
package io.agni.bench.net.cpu;
