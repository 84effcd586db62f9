# Sourced by the benchmark scripts that start servers: the processes they start (PIDS, stopped and waited for on
# exit), a work directory (WORK, removed on exit), and free loopback ports (take_port).

PIDS=()
PORTS=()
WORK=$(mktemp -d)

cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# Sets the variable named $1 to a loopback TCP port that no socket uses and no earlier call took (recorded in
# PORTS; not in a subshell, so two calls before either port is bound still differ).
take_port() {
    local candidate
    while true; do
        candidate=$(( 20000 + RANDOM % 40000 ))
        if [ -z "$(ss -Htan "( sport = :$candidate or dport = :$candidate )")" ] &&
            ! printf '%s\n' "${PORTS[@]:-}" | grep -qx "$candidate"; then
            PORTS+=("$candidate")
            printf -v "$1" '%s' "$candidate"
            return
        fi
    done
}
