#!/usr/bin/env bash
# Instructions per GET hit, counted rather than timed: runs io.agni.bench.GetLoop (StoreBenchmark.getHit's work on
# one thread, 1,000 keys of 16 bytes, 100-byte values) under valgrind's cachegrind twice per store, with the same
# warm-up and two operation counts, and prints (instructions of the long run - instructions of the short run) /
# (difference in operations). The count does not depend on the machine's load, so a change of a few percent in the
# work a GET does shows where a timed A/B on a shared machine cannot; it says nothing about cache misses or stalls.
# Repeated runs of one build agree to within about 10 instructions per GET (JIT compilation and GC timing differ).
#
#   agni-bench/scripts/instructions-per-get.sh [STORE...]   (default: agni-zc chm; ids as StoreBenchmark's store)
#
# To compare two builds of agni-store, put one build's classes ahead of the jar: CLASSES=path/to/classes.
#
# Needs valgrind (Debian: apt-get install -y valgrind) and agni-bench/target/benchmarks.jar
# (mvn -B -q package -DskipTests). Each store takes about a minute.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

JAR=agni-bench/target/benchmarks.jar
WARMUP=500000
SHORT=500000
LONG=2500000
if ! command -v valgrind >/dev/null; then
    echo "valgrind is not installed (apt-get install -y valgrind)" >&2
    exit 2
fi
if [ ! -f "$JAR" ]; then
    echo "no $JAR: run mvn -B -q package -DskipTests first" >&2
    exit 2
fi

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# Prints the instructions valgrind counted for one run, after checking that GetLoop finished (it prints the sum of
# the lengths read, before it closes the store). Under valgrind the JVM often dies when the store's expiry-sweep
# thread ends at close: the JDK's Thread.exit runs compiled code whose implicit null check (a SIGSEGV that HotSpot
# handles) valgrind turns into a fatal signal. That is after the count; valgrind still prints it, so the exit
# status is not used. (Without valgrind the same close runs in every store test.)
instructions() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        java -XX:+UseSerialGC -Xmx512m -XX:MaxDirectMemorySize=2g -Xbatch -XX:ErrorFile="$OUT/hs_err_%p.log" \
        --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
        -cp "${CLASSES:+$CLASSES:}$JAR" io.agni.bench.GetLoop "$1" "$WARMUP" "$2" >"$OUT/run.log" 2>&1 || true
    if ! grep -qx "$(( (WARMUP + $2) * 100 ))" "$OUT/run.log"; then
        echo "GetLoop did not finish for $1:" >&2
        grep -v '^==' "$OUT/run.log" | head -20 >&2
        return 1
    fi
    sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$OUT/run.log" | tr -d ,
}

STORES=("$@")
if [ ${#STORES[@]} -eq 0 ]; then
    STORES=(agni-zc chm)
fi
for S in "${STORES[@]}"; do
    A=$(instructions "$S" "$SHORT")
    B=$(instructions "$S" "$LONG")
    if [ -z "$A" ] || [ -z "$B" ]; then
        echo "$S: valgrind gave no count" >&2
        exit 1
    fi
    echo "$S: $(( (B - A) / (LONG - SHORT) )) instructions per GET"
done
