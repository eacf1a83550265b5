#!/usr/bin/env bash
# Cherry-pick and revert replay: grove's engine (what git_cherry_pick and git_revert run) against the git
# program's `git cherry-pick` and `git revert` on n commits sampled from a real repository, each
# cherry-picked onto C~DIST and reverted DIST commits later (see bench/cmd/pickreplay).
#
#   bench/pickreplay.sh REPO [N] [DIST]     # N defaults to 200, DIST to 20
#
# REPO is only read: it is cloned into a scratch directory, where git checks out, picks and resets.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=${1:?usage: bench/pickreplay.sh REPO [N] [DIST]}
N=${2:-200}
DIST=${3:-20}
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/pickreplay.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
git clone -q "$REPO" "$SCRATCH/repo"
go build -o "$SCRATCH/pickreplay" ./bench/cmd/pickreplay
echo "load: $(uptime)"
echo "repository: $REPO at $(git -C "$REPO" rev-parse HEAD)"
"$SCRATCH/pickreplay" -repo "$SCRATCH/repo" -n "$N" -dist "$DIST"
