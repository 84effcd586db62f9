/**
 * The second client in the same run: {@code redis-benchmark}, pinned as agni-loadgen is, on the workloads both can
 * run, so that every ratio is measured by two tools.
 */
package io.agni.bench.net.crosscheck;
