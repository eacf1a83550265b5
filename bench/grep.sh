#!/usr/bin/env bash
# Compare grove's grep tool with ripgrep and git grep on a tree.
# Usage: bench/grep.sh [grepbench flags, e.g. -tree /work/repos/git -reps 5,
#        or -copies 21 -out /tmp/grepbench-big for a tree of 100,000 files and 1 GB]
# Needs go, rg (apt-get install ripgrep) and git. Prints a Markdown table on stdout; progress on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

command -v rg >/dev/null || { echo "bench/grep.sh: ripgrep (rg) missing: apt-get install -y ripgrep" >&2; exit 1; }
build_grove
go build -o bench/out/grepbench ./bench/cmd/grepbench
bench/out/grepbench -grove bench/out/grove "$@"
