#!/usr/bin/env bash
# Server CPU cost per request, agni against Redis (or one agni build against another), measured with
# redis-benchmark. Every target server is started once, pinned to CPU 1 (agni with --threads 1: the whole JVM, JIT
# and GC included, runs under taskset), and left running; redis-benchmark runs pinned to CPU 0. Each round runs,
# for every pipeline depth and every test, one redis-benchmark invocation against each target in turn
# (A, B, A, B, ...), and reads the server's CPU time (utime + stime, fields 14 and 15 of /proc/PID/stat, in ticks
# of getconf CLK_TCK) before and after it. It prints each measurement (total and system CPU seconds), then for
# every target but the last the per-round ratios to the last target of requests per server CPU-second and of
# requests per second, and their medians over the rounds after the first (the first round is JIT warm-up for agni).
#
#   agni-bench/scripts/server-cost.sh [TARGET...]
#
# A TARGET is "redis" (redis-server on the PATH) or the path of an agni-server.jar; the default is
# "agni-net/target/agni-server.jar redis". To compare two builds, copy the old jar aside and pass "new.jar old.jar".
# A suffix turns persistence on, in a fresh directory under the script's temporary one (on the disk of $TMPDIR):
# "redis:everysec" and "redis:always" run Redis with appendonly yes and that appendfsync; "agni-server.jar:durable"
# (or fast, paranoid) runs agni with --dir and --durability.
# Environment: ROUNDS (default 6), PIPELINES (default "1 16"), TESTS (default "set get"), N_P1 and N_P16 (requests
# per invocation at pipeline 1 and at pipeline 16 or more; defaults 300000 and 2000000), CLIENTS (default 50),
# KEYS (-r, default 1000), SIZE (-d, default 100), JAVA_OPTS (extra JVM options for agni, e.g. to record JFR),
# SERVER_CPU and CLIENT_CPU (default 1 and 0), OUT (a file for the raw rows, tab-separated; default none).
#
# Needs redis-server and redis-benchmark on the PATH, taskset and ss. Ports are chosen free; servers are started
# and stopped by PID and stopped on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ROUNDS=${ROUNDS:-6}
PIPELINES=${PIPELINES:-"1 16"}
TESTS=${TESTS:-"set get"}
N_P1=${N_P1:-300000}
N_P16=${N_P16:-2000000}
CLIENTS=${CLIENTS:-50}
KEYS=${KEYS:-1000}
SIZE=${SIZE:-100}
SERVER_CPU=${SERVER_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
JAVA_OPTS=${JAVA_OPTS:-}
TICK=$(getconf CLK_TCK)

TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    TARGETS=(agni-net/target/agni-server.jar redis)
fi
if [ ${#TARGETS[@]} -lt 2 ]; then
    echo "give at least two targets: the last one is the reference" >&2
    exit 2
fi

# shellcheck source=processes.sh
source agni-bench/scripts/processes.sh
NAMES=()

cpu_ticks() {
    # Fields 14 and 15 (utime, stime) counted after the ")" that ends the command name (which may hold spaces).
    local stat
    stat=$(<"/proc/$1/stat")
    stat=${stat##*) }
    set -- $stat
    echo "${12} ${13}"
}

wait_ready() {
    local port=$1 pid=$2 i
    for i in $(seq 1 200); do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "the server on port $port exited; its log:" >&2
            cat "$WORK/server-$port.log" >&2
            exit 1
        fi
        if [ "$(redis-cli -p "$port" ping 2>/dev/null)" = "PONG" ]; then
            return
        fi
        sleep 0.1
    done
    echo "the server on port $port did not answer PING" >&2
    exit 1
}

for i in "${!TARGETS[@]}"; do
    target=${TARGETS[$i]%%:*}
    persistence=""
    if [ "$target" != "${TARGETS[$i]}" ]; then
        persistence=${TARGETS[$i]#*:}
    fi
    take_port port
    if [ "$target" = "redis" ]; then
        if [ -n "$persistence" ]; then
            mkdir -p "$WORK/redis-$port"
            taskset -c "$SERVER_CPU" redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly yes \
                --appendfsync "$persistence" --dir "$WORK/redis-$port" >"$WORK/server-$port.log" 2>&1 &
            name="redis:$persistence"
        else
            taskset -c "$SERVER_CPU" redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
                >"$WORK/server-$port.log" 2>&1 &
            name=redis
        fi
    else
        if [ ! -f "$target" ]; then
            echo "no such jar: $target" >&2
            exit 2
        fi
        durability=()
        name="$i:$(basename "$target" .jar)"
        if [ -n "$persistence" ]; then
            durability=(--dir "$WORK/agni-$port" --durability "$persistence")
            name="$name:$persistence"
        fi
        # shellcheck disable=SC2086
        taskset -c "$SERVER_CPU" java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED $JAVA_OPTS \
            -jar "$target" --port "$port" --threads 1 "${durability[@]}" >"$WORK/server-$port.log" 2>&1 &
    fi
    PIDS+=("$!")
    NAMES+=("$name")
    wait_ready "$port" "$!"
    echo "target $name: pid $! port $port"
done

# ROWS: round pipeline test target requests ticks rps user_ticks system_ticks
ROWS="$WORK/rows"
: >"$ROWS"
printf '%-5s %-3s %-4s %-22s %9s %7s %7s %12s %14s\n' round P test target requests cpu_s sys_s req/s req/cpu-s
for round in $(seq 1 "$ROUNDS"); do
    for p in $PIPELINES; do
        n=$N_P1
        if [ "$p" -gt 1 ]; then
            n=$N_P16
        fi
        for t in $TESTS; do
            for i in "${!TARGETS[@]}"; do
                read -r user0 sys0 < <(cpu_ticks "${PIDS[$i]}")
                line=$(taskset -c "$CLIENT_CPU" redis-benchmark -p "${PORTS[$i]}" -t "$t" -c "$CLIENTS" -r "$KEYS" \
                    -d "$SIZE" -n "$n" -P "$p" -q 2>/dev/null | tr '\r' '\n' | grep 'requests per second' | tail -1)
                read -r user1 sys1 < <(cpu_ticks "${PIDS[$i]}")
                rps=$(sed -n 's/^[A-Z]*: \([0-9.]*\) requests per second.*/\1/p' <<<"$line")
                user=$(( user1 - user0 ))
                sys=$(( sys1 - sys0 ))
                ticks=$(( user + sys ))
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$p" "$t" "$i" "$n" "$ticks" "$rps" "$user" \
                    "$sys" >>"$ROWS"
                awk -v r="$round" -v p="$p" -v t="$t" -v name="${NAMES[$i]}" -v n="$n" -v ticks="$ticks" \
                    -v sys="$sys" -v hz="$TICK" -v rps="$rps" 'BEGIN {
                        printf "%-5s %-3s %-4s %-22s %9d %7.2f %7.2f %12.0f %14.0f\n",
                            r, p, t, name, n, ticks / hz, sys / hz, rps, (ticks > 0 ? n * hz / ticks : 0) }'
            done
        done
    done
done
if [ -n "${OUT:-}" ]; then
    cp "$ROWS" "$OUT"
fi

echo
echo "ratios to ${NAMES[-1]} (per round; median of rounds 2..$ROUNDS)"
last=$(( ${#TARGETS[@]} - 1 ))
for i in $(seq 0 $(( last - 1 ))); do
    for p in $PIPELINES; do
        for t in $TESTS; do
            awk -F '\t' -v p="$p" -v t="$t" -v a="$i" -v b="$last" -v name="${NAMES[$i]}" '
                function median(v, k,   s, j, m, x) {
                    for (j = 1; j <= k; j++) s[j] = v[j]
                    for (j = 2; j <= k; j++) { x = s[j]; m = j - 1; while (m > 0 && s[m] > x) { s[m + 1] = s[m]; m-- } s[m + 1] = x }
                    return k % 2 ? s[(k + 1) / 2] : (s[k / 2] + s[k / 2 + 1]) / 2
                }
                $2 == p && $3 == t { n[$1] = $5; tk[$1 "," $4] = $6; rps[$1 "," $4] = $7; if ($1 > rounds) rounds = $1 }
                END {
                    cpu = ""; speed = ""; k = 0
                    for (r = 1; r <= rounds; r++) {
                        ta = tk[r "," a]; tb = tk[r "," b]
                        c = (ta > 0 && tb > 0) ? tb / ta : 0
                        s = rps[r "," b] > 0 ? rps[r "," a] / rps[r "," b] : 0
                        cpu = cpu sprintf(" %.3f", c); speed = speed sprintf(" %.3f", s)
                        if (r > 1) { k++; cv[k] = c; sv[k] = s }
                    }
                    printf "%-22s P%-3s %-4s req/cpu-s median %.3f [%s ]  req/s median %.3f [%s ]\n",
                        name, p, t, k ? median(cv, k) : 0, cpu, k ? median(sv, k) : 0, speed
                }' "$ROWS"
        done
    done
done
