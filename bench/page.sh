#!/usr/bin/env bash
# Time resources/list through every page of one directory of 200,000 files.
# Usage: bench/page.sh [pagebench flags, e.g. -files 50000 -reps 5 -grove other/grove]
# Builds grove into bench/out; the directory is kept under ~/.cache/grove-pagebench.
# Prints a Markdown table on stdout; progress on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build_grove
go build -o bench/out/pagebench ./bench/cmd/pagebench
if [[ " $* " != *" -grove "* ]]; then
	set -- -grove bench/out/grove "$@"
fi
bench/out/pagebench "$@"
