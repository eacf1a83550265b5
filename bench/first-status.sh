#!/usr/bin/env bash
# First git_status of a fresh grove process, two grove binaries side by side (GIT-RESULTS run 15):
#
#   BASE=/tmp/grove-main NEW=/tmp/grove-branch bench/first-status.sh   # both built with CGO_ENABLED=0 go build
#
# For ROUNDS rounds (default 3), alternating which binary goes first, it runs gitbench's clean-status row on
# log20k (5,000 files) and status50k (50,000 files) with no pause and with PAUSE (default 2s) between
# `initialize` and the first call, and prints gitbench's table row per run. Generate the repositories first
# (REPOS="log20k status50k" bench/git.sh, or its generate step).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/grove-gitbench}
ROUNDS=${ROUNDS:-3}
PAUSE=${PAUSE:-2s}
: "${BASE:?BASE=grove binary to compare against}" "${NEW:?NEW=grove binary to measure}"
go build -o /tmp/gitbench-first ./bench/cmd/gitbench
for r in log20k status50k; do git -C "$CACHE/$r" update-index -q --refresh >/dev/null || true; done
echo "load before: $(cat /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
	order="BASE NEW"
	[ $((round % 2)) = 0 ] && order="NEW BASE"
	for pause in 0s "$PAUSE"; do
		for r in log20k status50k; do
			files=5000
			[ "$r" = status50k ] && files=50000
			for b in $order; do
				line=$(/tmp/gitbench-first -grove "${!b}" -only "status, clean, $files files" -n 3 -first 3 \
					-first-pause "$pause" "$CACHE/$r" 2>/dev/null | grep "^| status" | head -1)
				echo "round=$round pause=$pause bin=$b $line"
			done
		done
	done
done
echo "load after: $(cat /proc/loadavg)"
