#!/usr/bin/env bash
# git_blame of two grove binaries side by side (GIT-RESULTS, "git_blame diffs as git blame does"): for ROUNDS
# rounds (default 1), alternating which binary goes first, bench/cmd/blametrue blames the same files with each,
# a fresh grove per file for the first call, then WARM warm calls (default 2), each right after a git run.
#
#   BASE=/tmp/grove-main NEW=/tmp/grove-branch bench/blame-vs.sh /work/repos/fzf install,src/core.go
#   (both built with CGO_ENABLED=0 go build; FILES: comma-separated paths, default the 6 busiest)
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=${1:?usage: BASE=… NEW=… bench/blame-vs.sh REPO [FILES]}
: "${BASE:?BASE=grove binary to compare against}" "${NEW:?NEW=grove binary to measure}"
go build -o /tmp/blametrue-vs ./bench/cmd/blametrue
files=()
[ -n "${2:-}" ] && files=(-files "$2")
echo "load before: $(cat /proc/loadavg)"
for round in $(seq "${ROUNDS:-1}"); do
	order="BASE NEW"
	[ $((round % 2)) = 0 ] && order="NEW BASE"
	for b in $order; do
		echo "== round=$round bin=$b"
		/tmp/blametrue-vs -grove "${!b}" -n 6 -warm "${WARM:-2}" "${files[@]}" "$REPO"
	done
done
echo "load after: $(cat /proc/loadavg)"
