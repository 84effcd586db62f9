#!/usr/bin/env bash
# Opens an agni-loadgen HTML report in headless Chromium and fails if the page does not load cleanly: Chromium
# must exit 0, the rendered DOM must hold the report's title and its SVG charts, and the log must show no console
# message, uncaught exception or failed load (net::ERR_...). The report has no scripts and no external resources,
# so any of those is a bug.
#
#   agni-bench/scripts/check-report-in-chromium.sh [REPORT.html]   (default: the newest under target/agni-bench-report)
#
# Needs chromium (Debian: apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

REPORT=${1:-$(ls -t target/agni-bench-report/*/report.html 2>/dev/null | head -1)}
if [ -z "$REPORT" ] || [ ! -f "$REPORT" ]; then
    echo "no report: run java -jar agni-bench/target/agni-loadgen.jar first, or name one" >&2
    exit 2
fi
CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROMIUM" ]; then
    echo "chromium is not installed (apt-get install -y chromium)" >&2
    exit 2
fi

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
URL="file://$(cd "$(dirname "$REPORT")" && pwd)/$(basename "$REPORT")"
"$CHROMIUM" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --dump-dom "$URL" \
    >"$OUT/dom.html" 2>"$OUT/chromium.log"

fail=0
if ! grep -q "<title>agni load generator report</title>" "$OUT/dom.html"; then
    echo "FAIL: the rendered page has no report title" >&2; fail=1
fi
charts=$(grep -o "<svg" "$OUT/dom.html" | wc -l)
if [ "$charts" -lt 1 ]; then
    echo "FAIL: the rendered page has no SVG chart" >&2; fail=1
fi
if grep -E "CONSOLE|Uncaught|net::ERR_" "$OUT/chromium.log" >&2; then
    echo "FAIL: Chromium logged the errors above while loading the page" >&2; fail=1
fi
if [ "$fail" = 0 ]; then
    echo "OK: $REPORT renders in headless Chromium with $charts charts and no errors"
fi
exit $fail
