/**
 * What a benchmark produced and how it is shown: medians and round-by-round ratios
 * ({@link io.agni.bench.net.report.Summary}), the terminal table, CSV, JSON and the self-contained HTML report.
 */
package io.agni.bench.net.report;
