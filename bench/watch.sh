#!/usr/bin/env bash
# Measure grove's change notifications end to end over stdio, both eras.
# Usage: bench/watch.sh [watchbench flags, e.g. -writes 100 -eras legacy]
# Needs go. Prints a Markdown table on stdout; progress on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build_grove
go build -o bench/out/watchbench ./bench/cmd/watchbench
bench/out/watchbench -grove bench/out/grove "$@"
