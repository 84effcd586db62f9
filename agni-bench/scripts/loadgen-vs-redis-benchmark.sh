#!/usr/bin/env bash
# Is agni-loadgen the bottleneck? Measures it against redis-benchmark on one redis-server, same connections (50),
# key space (1,000), value size (100 B) and pipeline depth (1 and 16), each tool with 1 and 2 threads, interleaved,
# with the order of the tools reversed every other iteration. Prints one line per tool, operation and iteration.
#
#   agni-bench/scripts/loadgen-vs-redis-benchmark.sh [ITERATIONS] [PIPELINES]   (defaults: 3 "1 16")
#
# Needs redis-server, redis-benchmark and agni-bench/target/agni-loadgen.jar (mvn -B -q package -DskipTests).
# Nothing is pinned here (the tools are compared as they were before pinning); the main job now runs redis-benchmark
# beside agni-loadgen in every round, pinned, and reports both tools' ratios (docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ITER=${1:-3}
PIPELINES=${2:-"1 16"}
JAR=agni-bench/target/agni-loadgen.jar
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
OUT=$(mktemp -d)

redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no >"$OUT/redis.log" 2>&1 &
REDIS=$!
trap 'kill $REDIS 2>/dev/null; rm -rf "$OUT"' EXIT
until redis-cli -p "$PORT" ping >/dev/null 2>&1; do sleep 0.1; done

for i in $(seq 1 "$ITER"); do
    if [ $((i % 2)) = 1 ]; then ORDER="rb1 lg1 rb2 lg2"; else ORDER="lg2 rb2 lg1 rb1"; fi
    for P in $PIPELINES; do
        if [ "$P" = 1 ]; then N=300000; else N=1000000; fi
        echo "# iteration $i, pipeline $P, $N requests per operation, load average $(cut -d' ' -f1-3 /proc/loadavg)"
        for tool in $ORDER; do
            T=${tool#??}
            case $tool in
                rb*) redis-benchmark -p "$PORT" -t set,get -c 50 -r 1000 -d 100 -n "$N" -P "$P" --threads "$T" -q 2>&1 \
                         | tr '\r' '\n' | grep 'requests per second' | sed "s/^/redis-benchmark threads=$T P=$P /" ;;
                lg*) java -jar "$JAR" -t "127.0.0.1:$PORT" -w set,get -c 50 -k 1000 -d 100 -n "$N" -P "$P" -r 1 \
                         --threads "$T" --warmup 1s --warmup-round 0s --no-pin --no-cross-check --no-progress -o "$OUT/lg" 2>&1 \
                         | grep '^\[' | sed "s/^/agni-loadgen threads=$T P=$P /" ;;
            esac
        done
    done
done
