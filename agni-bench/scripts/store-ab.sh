#!/usr/bin/env bash
# Interleaved A/B runs of one StoreBenchmark method over several stores: round 1 runs every store once, then round
# 2, and so on, so a noisy machine slows them alike. Prints ops/us per run, B/op, and per round each store's ratio to
# the first store named; JSON per run goes to $OUT (a temporary directory unless set).
#
#   agni-bench/scripts/store-ab.sh METHOD KEYS ROUNDS STORE...
#   e.g. agni-bench/scripts/store-ab.sh setOverwrite 1000 4 agni-zc agni-durable-zc chm
#
# A STORE of the form NAME=JAR:STORE runs STORE from another build's benchmarks jar under the name NAME, to compare
# two commits in one interleaved run (copy the first build's jar away before building the second; a relative JAR is
# taken from the repository's root):
#   agni-bench/scripts/store-ab.sh setOverwrite 1000 5 old=OLD.jar:agni-zc new=agni-bench/target/benchmarks.jar:agni-zc
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

JAR=agni-bench/target/benchmarks.jar
METHOD=$1
KEYS=$2
ROUNDS=$3
shift 3
STORES=("$@")
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
for spec in "$JAR" "${STORES[@]}"; do
    jar=$spec
    if [[ $spec == *=*:* ]]; then
        rest=${spec#*=}; jar=${rest%:*}
    elif [ "$spec" != "$JAR" ]; then
        continue
    fi
    if [ ! -f "$jar" ]; then
        echo "no $jar: run mvn -B -q package -DskipTests first" >&2
        exit 2
    fi
done
echo "# $METHOD, $KEYS keys, 2 threads, $ROUNDS rounds; JSON in $OUT"
printf '%-6s %-18s %12s %10s %8s\n' round store 'ops/us' 'B/op' ratio
for round in $(seq 1 "$ROUNDS"); do
    first=""
    for spec in "${STORES[@]}"; do
        name=$spec; jar=$JAR; store=$spec
        if [[ $spec == *=*:* ]]; then
            name=${spec%%=*}; rest=${spec#*=}; jar=${rest%:*}; store=${rest##*:}
        fi
        json="$OUT/r$round-$name.json"
        java -jar "$jar" "StoreBenchmark.$METHOD\$" -p store="$store" -p keyCount="$KEYS" -t 2 -f 1 \
            -wi 3 -w 2s -i 5 -r 2s -prof gc -rf json -rff "$json" >"$OUT/r$round-$name.log" 2>&1 ||
            { echo "$name failed in round $round: see $OUT/r$round-$name.log" >&2; exit 1; }
        score=$(python3 - "$json" <<'PY'
import json, sys
print(json.load(open(sys.argv[1]))[0]["primaryMetric"]["score"])
PY
)
        alloc=$(python3 - "$json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))[0]["secondaryMetrics"]
print(next((s[k]["score"] for k in ("gc.alloc.rate.norm", "·gc.alloc.rate.norm") if k in s), float("nan")))
PY
)
        if [ -z "$first" ]; then
            first=$score
        fi
        printf '%-6s %-18s %12.2f %10.4f %8.2f\n' "$round" "$name" "$score" "$alloc" "$(python3 -c "print($score / $first)")"
    done
done
