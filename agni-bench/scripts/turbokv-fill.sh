#!/usr/bin/env bash
# TurboKV's fill (issue 33), agni against RocksDB, one JVM per run: every run opens one store on a fresh directory,
# fills it (FillOnce: 20 B sequential keys, 400 B values, one key per write or atomic batches), settles and closes
# it, and reports acknowledged and settled keys/s and the bytes it caused to be written to the device per byte of
# user data; after a fill whose preset is in REOPEN_PRESETS, a second JVM reopens the directory (ReopenOnce). Runs
# are interleaved: round 1 of every configuration, then round 2, ...; the store that goes first in a pair alternates
# from round to round. Raw lines go to $OUT, then a summary of medians is printed (and appended to $OUT).
# docs/benchmarks.md, "TurboKV's fill, one JVM per run", says what the columns mean.
#
#   agni-bench/scripts/turbokv-fill.sh                    # the full matrix (hours on a slow disk)
#   SIZES=200000 BATCHES="1 1000" PRESETS=durable ROUNDS=1 agni-bench/scripts/turbokv-fill.sh   # a quick run
#   agni-bench/scripts/turbokv-fill.sh --summary RESULTS  # the summary of an earlier results file
#
# Environment (defaults in brackets):
#   ROUNDS [3]  SIZES ["200000 2000000"]  BATCHES ["1 100 1000"]  PRESETS ["durable paranoid no-log"]
#   TARGETS ["agni rocksdb"]
#   PARANOID_SINGLE_KEYS [20000]  paranoid runs one key per write fill this many keys instead of SIZES (an fsync per
#                                 key: 2,000,000 would take hours); 0 keeps SIZES
#   REOPEN_PRESETS [durable]      presets whose fills are reopened in a second JVM ("" for none)
#   DROP_CACHES [0]               1: sync and drop the page cache before each reopen (needs root)
#   CPUS []                       e.g. 1 or 0-1: pin every JVM with taskset -c CPUS (if taskset is installed)
#   DATA [agni-bench/target/turbokv-fill/data]  where stores are written: must be on the disk measured, not a tmpfs
#   DEVICE [the device under DATA]  its name in /sys/class/block, whose count of bytes written is read around each
#                                 fill ("" for none)
#   OUT [agni-bench/target/turbokv-fill/results-DATE.txt]  raw lines; run logs go next to it
#   JAR [agni-bench/target/benchmarks.jar]  JAVA [java]  JVM_OPTS ["-Xmx3g -XX:MaxDirectMemorySize=3g"]
#   RUN_TIMEOUT [3600]            seconds a JVM may run before it is stopped and the run counted as failed
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

summarize()
{
    python3 - "$1" <<'PY'
import collections, statistics, sys

runs = collections.defaultdict(lambda: collections.defaultdict(list))
errors = 0
for line in open(sys.argv[1]):
    fields = line.split()
    if not fields or fields[0] not in ("fill", "reopen", "error"):
        continue
    if fields[0] == "error":
        errors += 1
        continue
    f = dict(x.split("=", 1) for x in fields[1:] if "=" in x)
    key = (int(f["keys"]), int(f["batch"]), f["preset"], f["store"])
    if fields[0] == "fill":
        for name in ("acknowledged", "settled", "write_per_user", "net_write_per_user", "device_per_user"):
            if name in f:
                runs[key][name].append(float(f[name]))
    else:
        runs[key]["open_ms"].append(float(f["open_ms"]))
        runs[key]["checked"].append(int(f["checked"]))

def med(key, name):
    values = runs.get(key, {}).get(name, [])
    return statistics.median(values) if values else None

def num(value, fmt):
    return "-" if value is None else format(value, fmt)

def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}"

order = {"durable": 0, "paranoid": 1, "no-log": 2}
configs = sorted({k[:3] for k in runs}, key=lambda c: (c[0], c[1], order.get(c[2], 9)))
print("keys/s, medians; ratio = agni / rocksdb (above 1: agni is faster)")
print(f"{'keys':>9} {'batch':>5} {'preset':<8} {'runs':>4} | {'ack agni':>10} {'ack rocks':>10} {'ratio':>6} | "
      f"{'settled agni':>12} {'settled rocks':>13} {'ratio':>6}")
for c in configs:
    a, r = c + ("agni",), c + ("rocksdb",)
    n = max(len(runs.get(a, {}).get("acknowledged", [])), len(runs.get(r, {}).get("acknowledged", [])))
    print(f"{c[0]:>9} {c[1]:>5} {c[2]:<8} {n:>4} | {num(med(a, 'acknowledged'), ',.0f'):>10} "
          f"{num(med(r, 'acknowledged'), ',.0f'):>10} {ratio(med(a, 'acknowledged'), med(r, 'acknowledged')):>6} | "
          f"{num(med(a, 'settled'), ',.0f'):>12} {num(med(r, 'settled'), ',.0f'):>13} "
          f"{ratio(med(a, 'settled'), med(r, 'settled')):>6}")
print()
print("bytes written per user byte (keys x 420 B): proc = the process's write_bytes (/proc/self/io; counts a whole")
print("page-cache folio per dirtying), net = proc less cancelled_write_bytes, disk = the device's own count between two")
print("syncs (every writer on the machine: only meaningful when nothing else writes); and the reopen of the closed store")
print("in a fresh JVM (ms; page cache warm unless DROP_CACHES=1; checked: the fewest keys any reopen checked); medians")
print(f"{'keys':>9} {'batch':>5} {'preset':<8} | {'proc agni':>9} {'rocks':>7} | {'net agni':>8} {'rocks':>7} | "
      f"{'disk agni':>9} {'rocks':>7} | {'reopen agni':>11} {'rocks':>7} {'checked':>7}")
for c in configs:
    a, r = c + ("agni",), c + ("rocksdb",)
    checked = runs.get(a, {}).get("checked", []) + runs.get(r, {}).get("checked", [])
    disk_a, disk_r = med(a, "device_per_user"), med(r, "device_per_user")
    print(f"{c[0]:>9} {c[1]:>5} {c[2]:<8} | {num(med(a, 'write_per_user'), '.2f'):>9} "
          f"{num(med(r, 'write_per_user'), '.2f'):>7} | {num(med(a, 'net_write_per_user'), '.2f'):>8} "
          f"{num(med(r, 'net_write_per_user'), '.2f'):>7} | "
          f"{num(disk_a if disk_a is not None and disk_a >= 0 else None, '.2f'):>9} "
          f"{num(disk_r if disk_r is not None and disk_r >= 0 else None, '.2f'):>7} | "
          f"{num(med(a, 'open_ms'), ',.0f'):>11} {num(med(r, 'open_ms'), ',.0f'):>7} "
          f"{(min(checked) if checked else '-'):>7}")
if errors:
    print(f"\n{errors} run(s) failed: see the error lines in {sys.argv[1]}")
PY
}

if [ "${1:-}" = "--summary" ]; then
    summarize "$2"
    exit 0
fi

JAR=${JAR:-agni-bench/target/benchmarks.jar}
JAVA=${JAVA:-java}
JVM_OPTS=${JVM_OPTS:-"-Xmx3g -XX:MaxDirectMemorySize=3g"}
ROUNDS=${ROUNDS:-3}
SIZES=${SIZES:-"200000 2000000"}
BATCHES=${BATCHES:-"1 100 1000"}
PRESETS=${PRESETS:-"durable paranoid no-log"}
TARGETS=${TARGETS:-"agni rocksdb"}
PARANOID_SINGLE_KEYS=${PARANOID_SINGLE_KEYS:-20000}
REOPEN_PRESETS=${REOPEN_PRESETS-durable}
DROP_CACHES=${DROP_CACHES:-0}
CPUS=${CPUS:-}
DATA=${DATA:-agni-bench/target/turbokv-fill/data}
OUT=${OUT:-agni-bench/target/turbokv-fill/results-$(date +%Y%m%d-%H%M%S).txt}
RUN_TIMEOUT=${RUN_TIMEOUT:-3600}
LOGS=${OUT%.txt}-logs

if [ ! -f "$JAR" ]; then
    echo "no $JAR: run mvn -B -q -pl agni-bench -am package -DskipTests first" >&2
    exit 2
fi
mkdir -p "$DATA" "$LOGS" "$(dirname "$OUT")"
FSTYPE=$(df -PT "$DATA" | awk 'NR==2 {print $2}')
if [ "$FSTYPE" = tmpfs ] && [ "${ALLOW_TMPFS:-0}" != 1 ]; then
    echo "$DATA is on a tmpfs: set DATA to a directory on the disk to measure (or ALLOW_TMPFS=1)" >&2
    exit 2
fi
# The block device under $DATA, for the device's own count of bytes written (none if it cannot be found).
DEVICE=${DEVICE-$(basename "$(readlink -f "$(df -P "$DATA" | awk 'NR==2 {print $1}')")")}
if [ -n "$DEVICE" ] && [ ! -r "/sys/class/block/$DEVICE/stat" ]; then
    DEVICE=""
fi
PIN=()
if [ -n "$CPUS" ]; then
    if command -v taskset >/dev/null; then
        PIN=(taskset -c "$CPUS")
    else
        echo "no taskset: CPUS=$CPUS ignored, JVMs run unpinned" >&2
    fi
fi
read -r -a JVM <<<"$JAVA --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -XX:-UsePerfData $JVM_OPTS -cp $JAR"

# The configurations, in the order a round runs them: "KEYS BATCH PRESET", each for every target.
CONFIGS=()
declare -A SEEN=()
for size in $SIZES; do
    for batch in $BATCHES; do
        for preset in $PRESETS; do
            keys=$size
            if [ "$preset" = paranoid ] && [ "$batch" = 1 ] && [ "$PARANOID_SINGLE_KEYS" -gt 0 ] &&
                [ "$size" -gt "$PARANOID_SINGLE_KEYS" ]; then
                keys=$PARANOID_SINGLE_KEYS
            fi
            config="$keys $batch $preset"
            if [ -z "${SEEN[$config]:-}" ]; then
                SEEN[$config]=1
                CONFIGS+=("$config")
            fi
        done
    done
done

{
    echo "# TurboKV's fill, one JVM per run: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
    echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) online; pinned: ${CPUS:-no}"
    echo "# kernel $(uname -r); $("${JAVA}" -version 2>&1 | head -1)"
    echo "# data: $DATA on $(df -P "$DATA" | awk 'NR==2 {print $1}') ($FSTYPE); device counted: ${DEVICE:-none}; page cache dropped before reopen: $DROP_CACHES"
    echo "# rounds $ROUNDS; sizes $SIZES; batches $BATCHES; presets $PRESETS; targets $TARGETS; reopen: ${REOPEN_PRESETS:-none}"
    echo "# paranoid with one key per write fills ${PARANOID_SINGLE_KEYS} keys, not the size (0: no bound)"
    echo "# jvm: ${JVM[*]}"
} | tee "$OUT"

# Runs one JVM; prints the line starting with $1 that it printed, prefixed by the run's labels, or an error line.
run()
{
    local kind=$1 labels=$2 log=$3
    shift 3
    local status=0
    timeout "$RUN_TIMEOUT" "${PIN[@]}" "${JVM[@]}" "$@" >"$log" 2>&1 || status=$?
    local line
    line=$(grep "^$kind " "$log" | tail -1 || true)
    if [ "$status" = 0 ] && [ -n "$line" ]; then
        echo "$kind $labels ${line#"$kind" }"
    else
        echo "error $labels step=$kind status=$status log=$log"
    fi
}

for round in $(seq 1 "$ROUNDS"); do
    read -r -a targets <<<"$TARGETS"
    if [ $((round % 2)) = 0 ]; then
        reversed=()
        for ((i = ${#targets[@]} - 1; i >= 0; i--)); do reversed+=("${targets[i]}"); done
        targets=("${reversed[@]}")
    fi
    for config in "${CONFIGS[@]}"; do
        read -r keys batch preset <<<"$config"
        java_preset=$preset
        if [ "$preset" = no-log ]; then
            java_preset=fast
        fi
        for store in "${targets[@]}"; do
            name="r$round-$store-$preset-$keys-$batch"
            dir="$DATA/$name"
            rm -rf "$dir"
            labels="round=$round store=$store preset=$preset"
            result=$(run fill "$labels" "$LOGS/$name-fill.log" io.agni.bench.durability.FillOnce \
                --target="$store:$java_preset" --keys="$keys" --batch="$batch" --dir="$dir" --device="$DEVICE")
            echo "$result" | tee -a "$OUT"
            if [[ " $REOPEN_PRESETS " == *" $preset "* ]] && [[ $result == fill* ]]; then
                if [ "$DROP_CACHES" = 1 ]; then
                    sync
                    echo 3 >/proc/sys/vm/drop_caches
                fi
                run reopen "$labels batch=$batch" "$LOGS/$name-reopen.log" io.agni.bench.durability.ReopenOnce \
                    --target="$store:$java_preset" --keys="$keys" --dir="$dir" | tee -a "$OUT"
            fi
            rm -rf "$dir"
            # The next run starts with no write-back of this one's files pending.
            sync
        done
    done
done

echo | tee -a "$OUT"
summarize "$OUT" | tee -a "$OUT"
echo "raw lines: $OUT"
