#!/usr/bin/env bash
# Git-true diff check: grove's git_diff/git_show against `git diff`/`git show` on N sampled single-parent commits
# of a repository (fixed seed), plus HEAD~200..HEAD timed both ways. Prints Markdown (see bench/cmd/gittrue).
#
#   bench/gittrue.sh REPO [N]          # N defaults to 200
#   OUT=/tmp/mismatch bench/gittrue.sh /work/repos/fzf 50   # keep the first mismatching outputs for reading
#   GROVE=/tmp/grove-old bench/gittrue.sh REPO               # measure an existing binary instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/gittrue.sh REPO [N]" >&2; exit 2; }
REPO=$(cd "$1" && pwd)
N=${2:-200}
GROVE=${GROVE:-}
if [ -z "$GROVE" ]; then
	GROVE=$(mktemp -d)/grove
	go build -o "$GROVE" .
fi
go run ./bench/cmd/gittrue -grove "$GROVE" -n "$N" ${OUT:+-out "$OUT"} "$REPO"
