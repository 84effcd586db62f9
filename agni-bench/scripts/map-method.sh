#!/usr/bin/env bash
# What separates two ways of measuring GET hit against ConcurrentHashMap at 1,000,000 keys (16-byte keys, 100-byte
# values, 2 threads, keys picked uniformly): StoreBenchmark's own method, and a method that favours the map (lookup
# keys wrapped before measuring with their hash cached, the stored array returned rather than copied, a fixed 2 GiB
# heap touched up front). One factor changes at a time:
#
#   heap    default (the JVM's ergonomic heap, grown on demand) or fixed (-Xms2g -Xmx2g -XX:+AlwaysPreTouch)
#   store   agni-zc, chm (a key wrapper made and hashed per GET, value copied out), chm-prekeyed (wrapper made
#           before measuring, value copied out), chm-prekeyed-ref (and the stored array returned, not read)
#
# Runs every (heap, store) pair ROUNDS times, interleaved (round 1: all pairs, round 2: all pairs, ...), with
# -prof gc, so that GC counts inside the measured window show too. Prints one line per run and writes JMH's JSON
# per run to OUT (default: a temporary directory, printed at the end).
#
#   agni-bench/scripts/map-method.sh [ROUNDS] [KEYS]      (defaults: 2 rounds, 1000000 keys)
#
# Needs agni-bench/target/benchmarks.jar (mvn -B -q package -DskipTests). About 25 s per run, 8 runs per round.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

JAR=agni-bench/target/benchmarks.jar
ROUNDS=${1:-2}
KEYS=${2:-1000000}
OUT=${OUT:-$(mktemp -d)}
STORES=(agni-zc chm chm-prekeyed chm-prekeyed-ref)
FIXED="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [ ! -f "$JAR" ]; then
    echo "no $JAR: run mvn -B -q package -DskipTests first" >&2
    exit 2
fi

printf '%-6s %-8s %-18s %12s %10s %10s\n' round heap store 'ops/us' 'gc count' 'B/op'
for round in $(seq 1 "$ROUNDS"); do
    for heap in default fixed; do
        for store in "${STORES[@]}"; do
            json="$OUT/r$round-$heap-$store.json"
            args=()
            if [ "$heap" = fixed ]; then
                args=(-jvmArgsPrepend "$FIXED") # -jvmArgsAppend would replace the fork flags of the annotation
            fi
            java -jar "$JAR" 'StoreBenchmark.getHit$' -p store="$store" -p keyCount="$KEYS" -t 2 -f 1 \
                -wi 3 -w 2s -i 5 -r 2s -prof gc "${args[@]}" -rf json -rff "$json" >"$OUT/r$round-$heap-$store.log" 2>&1
            python3 - "$json" "$round" "$heap" "$store" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))[0]
secondary = run["secondaryMetrics"]
def metric(name, default):
    for key in (name, "·" + name):  # JMH names them with or without a leading dot
        if key in secondary:
            return secondary[key]["score"]
    return default
gc = metric("gc.count", 0)
alloc = metric("gc.alloc.rate.norm", float("nan"))
print(f'{sys.argv[2]:<6} {sys.argv[3]:<8} {sys.argv[4]:<18} {run["primaryMetric"]["score"]:12.2f} {gc:10.0f} {alloc:10.2f}')
PY
        done
    done
done
echo "JSON and logs: $OUT"
