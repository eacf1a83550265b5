#!/usr/bin/env bash
# Merge replay: grove's merge engine against git's default merge (`git merge-tree --write-tree`, the ort
# strategy) on the last N two-parent merges of a real repository.
#
#   bench/mergereplay.sh REPO [N]     # N defaults to 300
#   KEEP=/tmp/diffs bench/mergereplay.sh REPO   # also write git's and grove's version of each differing conflicted file
#
# REPO is only read: it is cloned (a local clone hard-links its objects, so this is cheap) into a scratch
# directory, because git merge-tree writes its merged trees and blobs into the object
# store. For every merge the command compares: a merge git completes must give the identical tree; a merge
# git stops on must conflict on the same set of paths, and each conflicted file (with its markers, as the
# merge-tree tree records them, which is what `git merge` leaves in the worktree when the two sides are
# labelled alike) must be byte-identical. It prints the counts, the median time per merge of each (grove in
# process, git as a process), and every mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=${1:?usage: bench/mergereplay.sh REPO [N]}
N=${2:-300}
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/mergereplay.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
git clone -q --no-checkout "$REPO" "$SCRATCH/repo"
go build -o "$SCRATCH/mergereplay" ./bench/cmd/mergereplay
args=(-repo "$SCRATCH/repo" -n "$N")
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	args+=(-keep "$KEEP")
fi
echo "load: $(uptime)"
"$SCRATCH/mergereplay" "${args[@]}"
