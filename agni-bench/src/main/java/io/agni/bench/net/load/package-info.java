/**
 * The load: connections driven by NIO selector threads ({@link io.agni.bench.net.load.LoadRun}), requests encoded
 * from templates ({@link io.agni.bench.net.load.RequestEncoder}), replies counted without being built
 * ({@link io.agni.bench.net.load.ReplyCounter}), closed loop or open loop on a schedule of intended send times
 * ({@link io.agni.bench.net.load.OpenLoopSchedule}), latency in HdrHistogram.
 */
package io.agni.bench.net.load;
