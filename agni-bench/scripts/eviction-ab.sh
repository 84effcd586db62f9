#!/usr/bin/env bash
# Interleaved A/B runs of EvictionBenchmark (issue 20's bars for what eviction costs the hot paths), 2 threads, 16-byte
# keys, 100-byte values, the store full: per round and key count, GET hit with ALL_KEYS against NO_EVICTION (bar:
# >= 0.9), then SET of a new key into the full ALL_KEYS store, every SET evicting, against SET overwrite at
# NO_EVICTION (bar: >= 0.7), each pair back to back so a noisy machine slows both alike. Prints ops/us and B/op per
# run (bar: <= 1 B/op), each round's ratio, and the median ratio over the rounds. JSON and logs per run go to $OUT (a
# temporary directory unless set).
#
#   agni-bench/scripts/eviction-ab.sh [ROUNDS] [KEYS...]       default: 3 rounds, 1000 and 1000000 keys
#   e.g. WI=1 W=1s I=1 R=1s agni-bench/scripts/eviction-ab.sh 1 1000     a smoke run
#
# JMH's iterations come from WI (warm-up iterations, default 3), W (their time, 2s), I (measured iterations, 5) and R
# (their time, 2s). Build first: mvn -B -q -pl agni-bench -am package -DskipTests
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

JAR=agni-bench/target/benchmarks.jar
ROUNDS=${1:-3}
shift || true
KEYS=("$@")
if [ ${#KEYS[@]} -eq 0 ]; then
    KEYS=(1000 1000000)
fi
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
if [ ! -f "$JAR" ]; then
    echo "no $JAR: run mvn -B -q -pl agni-bench -am package -DskipTests first" >&2
    exit 2
fi

# run METHOD POLICY KEYS ROUND: one JMH run; prints "score alloc"
run() {
    local json="$OUT/r$4-$1-$2-$3.json"
    java -jar "$JAR" "EvictionBenchmark.$1\$" -p policy="$2" -p keyCount="$3" -t 2 -f 1 \
        -wi "${WI:-3}" -w "${W:-2s}" -i "${I:-5}" -r "${R:-2s}" -prof gc -rf json -rff "$json" \
        >"$OUT/r$4-$1-$2-$3.log" 2>&1 || { echo "JMH failed, see $OUT/r$4-$1-$2-$3.log" >&2; exit 1; }
    python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))[0]
s = r["secondaryMetrics"]
alloc = next((s[k]["score"] for k in ("gc.alloc.rate.norm", "·gc.alloc.rate.norm") if k in s), float("nan"))
print(r["primaryMetric"]["score"], alloc)
PY
}

echo "# EvictionBenchmark, 2 threads, $ROUNDS rounds, keys: ${KEYS[*]}; JSON in $OUT"
printf '%-6s %-9s %-28s %12s %10s %8s\n' round keys 'method / policy' 'ops/us' 'B/op' ratio
declare -A RATIOS
for round in $(seq 1 "$ROUNDS"); do
    for keys in "${KEYS[@]}"; do
        for pair in "getHit all-keys getHit no-eviction" "setEvict all-keys setOverwrite no-eviction"; do
            read -r method_a policy_a method_b policy_b <<<"$pair"
            read -r score_a alloc_a <<<"$(run "$method_a" "$policy_a" "$keys" "$round")"
            read -r score_b alloc_b <<<"$(run "$method_b" "$policy_b" "$keys" "$round")"
            ratio=$(python3 -c "print($score_a / $score_b)")
            printf '%-6s %-9s %-28s %12.2f %10.4f\n' "$round" "$keys" "$method_b / $policy_b" "$score_b" "$alloc_b"
            printf '%-6s %-9s %-28s %12.2f %10.4f %8.3f\n' "$round" "$keys" "$method_a / $policy_a" "$score_a" \
                "$alloc_a" "$ratio"
            RATIOS["$keys $method_a"]+="$ratio "
        done
    done
done
echo
echo "median ratio over $ROUNDS rounds (bars: getHit >= 0.9, setEvict >= 0.7; every run <= 1 B/op):"
for key in "${!RATIOS[@]}"; do
    python3 - "$key" ${RATIOS[$key]} <<'PY'
import statistics, sys
print(f"  {sys.argv[1]:<24} {statistics.median(float(x) for x in sys.argv[2:]):.3f}  (rounds: {' '.join(sys.argv[2:])})")
PY
done | sort
