#!/usr/bin/env bash
# git_blame against `git blame --porcelain` on a real repository: agreement per line (commit, original line
# and path) and time, first call in a fresh grove per file and warm calls, interleaved with git.
#
#   bench/blametrue.sh /work/repos/git        # the 30 busiest files of at most 2,000 lines
#   bench/blametrue.sh /work/repos/redis 10   # the 10 busiest
#   WARM=4 bench/blametrue.sh REPO            # warm calls per file (default 2)
#   VERBOSE=1 bench/blametrue.sh REPO         # print the first disagreeing lines of each file
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=${1:?usage: bench/blametrue.sh REPO [N]}
N=${2:-30}
GROVE=${GROVE:-/tmp/grove-blametrue}
CGO_ENABLED=0 go build -o "$GROVE" .
go build -o /tmp/blametrue ./bench/cmd/blametrue
args=(-grove "$GROVE" -n "$N" -warm "${WARM:-2}")
[ -n "${VERBOSE:-}" ] && args+=(-v)
/tmp/blametrue "${args[@]}" "$REPO"
