/**
 * The servers measured: started by the harness (agni's server jar, redis-server) on a free loopback port and stopped
 * by process id, also on Ctrl-C ({@link io.agni.bench.net.target.ProcessReaper}), or already running at an address.
 */
package io.agni.bench.net.target;
