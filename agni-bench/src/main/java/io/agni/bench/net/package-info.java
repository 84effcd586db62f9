/**
 * agni's network benchmark: {@link io.agni.bench.net.LoadGen}, a RESP load generator for any server that runs
 * several targets interleaved over rounds and writes a terminal table, CSV, JSON and a self-contained HTML report.
 * The load itself is in {@code io.agni.bench.net.load}, starting and stopping servers in
 * {@code io.agni.bench.net.target}, the reports in {@code io.agni.bench.net.report}. Method and figures:
 * {@code docs/benchmarks.md}.
 */
package io.agni.bench.net;
