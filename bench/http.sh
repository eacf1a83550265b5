#!/usr/bin/env bash
# grove over Streamable HTTP: requests per second and p50/p99 latency of a
# 4 KiB resources/read and of git_status with 1, 8 and 64 sessions, stdio
# (one session) beside them. Prints a Markdown table on stdout; progress on
# stderr. Usage: bench/http.sh [httpbench flags, e.g. -duration 10s -sessions 1,8,64]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build_grove
go build -o bench/out/httpbench ./bench/cmd/httpbench
echo "load before: $(cat /proc/loadavg 2>/dev/null || echo ?)" >&2
bench/out/httpbench -grove bench/out/grove "$@"
echo "load after: $(cat /proc/loadavg 2>/dev/null || echo ?)" >&2
