#!/usr/bin/env bash
# The server soak: the standalone agni-server under redis-benchmark's SET, GET, INCR and MSET over 200,000 keys with
# 700-byte values at pipeline 8, round after round, for DURATION seconds. Samples the server's resident memory
# (VmRSS) and INFO's used_memory every SAMPLE seconds, and counts the rounds redis-benchmark ended on an error reply. At the end it prints the largest
# RSS and checks it against budget + heap + client memory limit + FIXED_OVERHEAD, and exits 1 on any error or a
# breach.
#
#   agni-bench/scripts/soak.sh [DURATION_SECONDS]     (default 600)
#
# The server's clients may hold CLIENT_MEMORY_MB (default 64) of buffers (--max-client-memory), and its direct-memory
# limit is set to the budget plus that: with the JVM's default (the heap size) a budget above the heap is refused.
#
# Environment: BUDGET (the store's --max-memory, default 256mb), HEAP (-Xmx, default 512m, as docs/operations.md
# recommends), FIXED_OVERHEAD_MB
# (what the JVM holds beyond heap and budget: code cache, metaspace, thread stacks, GC structures and the
# connections' buffers; default 160), SERVER_CPUS / LOAD_CPUS (taskset lists, default 1 and 0 on a machine with
# two or more CPUs), OUT (where the log and samples go; default a temporary directory).
#
# Needs agni-net/target/agni-server.jar (mvn -B -q package -DskipTests) and redis-benchmark (apt-get install -y
# redis-tools).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

DURATION=${1:-600}
BUDGET=${BUDGET:-256mb}
HEAP=${HEAP:-512m}
FIXED_OVERHEAD_MB=${FIXED_OVERHEAD_MB:-160}
SAMPLE=${SAMPLE:-5}
CLIENT_MEMORY_MB=${CLIENT_MEMORY_MB:-64}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
JAR=agni-net/target/agni-server.jar
for tool in redis-benchmark redis-cli; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed (apt-get install -y redis-tools)" >&2; exit 2; }
done
[ -f "$JAR" ] || { echo "no $JAR: run mvn -B -q package -DskipTests first" >&2; exit 2; }

SERVER_PIN=()
LOAD_PIN=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    SERVER_PIN=(taskset -c "${SERVER_CPUS:-1}")
    LOAD_PIN=(taskset -c "${LOAD_CPUS:-0}")
fi

bytes() { # a Redis-style size (256mb, 128m, 1g) to bytes
    python3 -c '
import re, sys
m = re.fullmatch(r"(\d+)([a-z]*)", sys.argv[1].lower())
units = {"": 1, "k": 1000, "kb": 1024, "m": 1000**2, "mb": 1024**2, "g": 1000**3, "gb": 1024**3}
jvm = {"k": 1024, "m": 1024**2, "g": 1024**3}
print(int(m.group(1)) * (jvm.get(m.group(2)) if sys.argv[2] == "jvm" else units[m.group(2)]))' "$1" "$2"
}

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DIRECT_MB=$(( $(bytes "$BUDGET" redis) / 1048576 + CLIENT_MEMORY_MB ))
"${SERVER_PIN[@]}" java "-Xmx$HEAP" "-XX:MaxDirectMemorySize=${DIRECT_MB}m" -jar "$JAR" --port "$PORT" \
    --max-memory "$BUDGET" --max-client-memory "${CLIENT_MEMORY_MB}mb" >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
    redis-cli -p "$PORT" ping >/dev/null 2>&1 && break
    kill -0 "$SERVER" 2>/dev/null || { echo "the server did not start:" >&2; cat "$OUT/server.log" >&2; exit 1; }
    sleep 0.1
done
redis-cli -p "$PORT" ping >/dev/null || { echo "the server did not answer within 30 s" >&2; exit 1; }

rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$SERVER/status"; }
used_memory() { redis-cli -p "$PORT" info memory | tr -d '\r' | awk -F: '/^used_memory:/ { print $2 }'; }

echo "seconds rss_mb used_memory_mb" >"$OUT/samples.txt"
(
    start=$SECONDS
    while kill -0 "$SERVER" 2>/dev/null; do
        echo "$((SECONDS - start)) $(( $(rss_kb) / 1024 )) $(( $(used_memory) / 1048576 ))" >>"$OUT/samples.txt"
        sleep "$SAMPLE"
    done
) &
SAMPLER=$!

# redis-benchmark 7 exits non-zero at the first error reply (its -e is gone), so a failed round is an error;
# its progress lines end in carriage returns, kept out of the log.
rounds=0
failed=0
end=$((SECONDS + DURATION))
while [ "$SECONDS" -lt "$end" ]; do
    if ! "${LOAD_PIN[@]}" redis-benchmark -p "$PORT" -t set,get,incr,mset -r 200000 -d 700 -P 8 -n 200000 -q \
        2>&1 | tr '\r' '\n' | grep -v 'rps=' >>"$OUT/load.log"; then
        failed=$((failed + 1))
    fi
    rounds=$((rounds + 1))
done
kill "$SAMPLER" 2>/dev/null || true

errors=$(( failed + $(grep -ci 'error' "$OUT/load.log" || true) ))
max_rss_mb=$(awk 'NR > 1 && $2 > max { max = $2 } END { print max + 0 }' "$OUT/samples.txt")
limit_mb=$(( ($(bytes "$BUDGET" redis) + $(bytes "$HEAP" jvm)) / 1048576 + CLIENT_MEMORY_MB + FIXED_OVERHEAD_MB ))
info=$(redis-cli -p "$PORT" info | tr -d '\r' | grep -E '^(used_memory|maxmemory|connected_clients|agni_rejected_writes):')

echo "soak: $rounds rounds in $DURATION s, budget $BUDGET, heap $HEAP, server CPUs ${SERVER_CPUS:-1}, load CPUs ${LOAD_CPUS:-0}"
python3 - "$OUT/load.log" <<'PY'
import re, statistics, sys
rates = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*(.+?): ([\d.]+) requests per second", line)
    if m:
        rates.setdefault(m.group(1), []).append(float(m.group(2)))
for test, values in rates.items():
    print(f"{test}: median {statistics.median(values):,.0f} requests/s over {len(values)} rounds")
PY
echo "$info"
echo "failed rounds and error lines in redis-benchmark's output: $errors"
echo "largest RSS: $max_rss_mb MB; budget + heap + client memory limit + $FIXED_OVERHEAD_MB MB fixed overhead = $limit_mb MB"
echo "samples and logs: $OUT"
if [ "$errors" -ne 0 ] || [ "$max_rss_mb" -gt "$limit_mb" ]; then
    exit 1
fi
