#!/usr/bin/env bash
# The cost of twemproxy (nutcracker) in front of agni, measured with agni-loadgen: one agni server reached directly
# against the same server behind nutcracker, and nutcracker with 2 and 3 agni servers behind it. The proxies use
# docs/scale-out.md's configuration, read from that page: its ports are replaced, and its redis_auth line dropped
# (the load generator sends no AUTH, so the servers here run without a password).
#
#   agni-bench/scripts/proxy-overhead.sh
#
# Targets, run by agni-loadgen interleaved in every round (direct, proxy-1, proxy-2, proxy-3, direct, ...):
#   direct   agni server 1 on its own port
#   proxy-1  nutcracker -> agni 1
#   proxy-2  nutcracker -> agni 1, 2
#   proxy-3  nutcracker -> agni 1, 2, 3
# The agni servers (--threads 1 each) and the proxies (one thread each, as nutcracker is) run pinned to SERVER_CPUS,
# the load generator to CLIENT_CPUS. On a machine with few CPUs the servers share them, so the figures say what the
# proxy costs (the latency it adds, the throughput one proxy process carries), not how throughput grows with
# servers: with a CPU per server and per proxy, proxy-2 and proxy-3 would be bounded by the proxy's CPU, not by
# the servers'.
# Environment: ROUNDS (default 3), DURATION (per run, default 5s), WORKLOADS (default set,get), PIPELINES
# (default 1,16), CONNECTIONS (default 50), KEYS (default 1000), SIZE (default 100), SERVER_CPUS (default 1),
# CLIENT_CPUS (default 0), OUT (the report directory; default target/proxy-overhead/<timestamp>), NICE (a niceness
# for everything started, default 0).
#
# Needs agni-net/target/agni-server.jar and agni-bench/target/agni-loadgen.jar (mvn -B -q package -DskipTests),
# nutcracker (in /usr/sbin on Debian), redis-cli, taskset and ss. Ports are chosen free; every process is started
# and stopped by PID and stopped on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
WORKLOADS=${WORKLOADS:-set,get}
PIPELINES=${PIPELINES:-1,16}
CONNECTIONS=${CONNECTIONS:-50}
KEYS=${KEYS:-1000}
SIZE=${SIZE:-100}
SERVER_CPUS=${SERVER_CPUS:-1}
CLIENT_CPUS=${CLIENT_CPUS:-0}
NICE=${NICE:-0}
OUT=${OUT:-target/proxy-overhead/$(date +%Y%m%d-%H%M%S)}
AGNI_JAR=agni-net/target/agni-server.jar
LOADGEN_JAR=agni-bench/target/agni-loadgen.jar
NUTCRACKER=$(command -v nutcracker || echo /usr/sbin/nutcracker)

for file in "$AGNI_JAR" "$LOADGEN_JAR" "$NUTCRACKER"; do
    if [ ! -e "$file" ]; then
        echo "missing $file (build with: mvn -B -q package -DskipTests; install nutcracker)" >&2
        exit 2
    fi
done

# shellcheck source=processes.sh
source agni-bench/scripts/processes.sh

wait_ready() {
    local port=$1 pid=$2 log=$3 i
    for i in $(seq 1 200); do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "the process on port $port exited; its log:" >&2
            cat "$log" >&2
            exit 1
        fi
        if [ "$(redis-cli -p "$port" ping 2>/dev/null)" = "PONG" ]; then
            return
        fi
        sleep 0.1
    done
    echo "nothing answered PING on port $port within 20 s" >&2
    exit 1
}

# The documented configuration: the yaml block after the nutcracker-config marker.
documented_configuration() {
    awk '/<!-- nutcracker-config/ { marker = 1 } marker && /^```yaml/ { inside = 1; next } inside && /^```/ { exit }
        inside { print }' docs/scale-out.md
}

# proxy_configuration LISTEN_PORT SERVER_PORT...: the documented block with its ports replaced, its server lines
# cut to the servers given, and no redis_auth.
proxy_configuration() {
    local listen=$1
    shift
    local i=1 line
    documented_configuration | grep -v '^  redis_auth:' | sed "s/127\.0\.0\.1:22121/127.0.0.1:$listen/" |
        while IFS= read -r line; do
            if [[ $line =~ ^\ +-\ 127\.0\.0\.1:700([0-9]):1\ agni([0-9])$ ]]; then
                local n=${BASH_REMATCH[1]}
                if [ "$n" -le $# ]; then
                    local ports=("$@")
                    echo "   - 127.0.0.1:${ports[$((n - 1))]}:1 agni$n"
                fi
            else
                echo "$line"
            fi
        done
}

SERVER_PORTS=()
for n in 1 2 3; do
    take_port port
    log="$WORK/agni-$n.log"
    taskset -c "$SERVER_CPUS" nice -n "$NICE" java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
        -jar "$AGNI_JAR" --port "$port" --threads 1 >"$log" 2>&1 &
    PIDS+=("$!")
    wait_ready "$port" "$!" "$log"
    SERVER_PORTS+=("$port")
    echo "agni $n: pid $! port $port"
done

PROXY_PORTS=()
for servers in 1 2 3; do
    take_port port
    take_port stats
    proxy_configuration "$port" "${SERVER_PORTS[@]:0:$servers}" >"$WORK/proxy-$servers.yml"
    "$NUTCRACKER" -t -c "$WORK/proxy-$servers.yml" >/dev/null 2>&1 || {
        echo "nutcracker refused the configuration:" >&2
        cat "$WORK/proxy-$servers.yml" >&2
        exit 1
    }
    taskset -c "$SERVER_CPUS" nice -n "$NICE" "$NUTCRACKER" -c "$WORK/proxy-$servers.yml" -s "$stats" \
        -a 127.0.0.1 -o "$WORK/proxy-$servers.log" &
    PIDS+=("$!")
    wait_ready "$port" "$!" "$WORK/proxy-$servers.log"
    PROXY_PORTS+=("$port")
    echo "proxy-$servers: pid $! port $port, servers ${SERVER_PORTS[*]:0:$servers}"
done

mkdir -p "$OUT"
cp "$WORK"/proxy-*.yml "$OUT"/
nice -n "$NICE" java -jar "$LOADGEN_JAR" \
    -t "direct=127.0.0.1:${SERVER_PORTS[0]}" \
    -t "proxy-1=127.0.0.1:${PROXY_PORTS[0]}" \
    -t "proxy-2=127.0.0.1:${PROXY_PORTS[1]}" \
    -t "proxy-3=127.0.0.1:${PROXY_PORTS[2]}" \
    -w "$WORKLOADS" -P "$PIPELINES" -c "$CONNECTIONS" -k "$KEYS" -d "$SIZE" \
    --rounds "$ROUNDS" --duration "$DURATION" --no-cross-check \
    --server-cpus "$SERVER_CPUS" --client-cpus "$CLIENT_CPUS" --no-progress -o "$OUT"
echo "report: $OUT"
