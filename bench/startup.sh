#!/usr/bin/env bash
# Time grove's start-up over stdio: N spawns, median time from the spawn to
# the initialize answer (and to the first tools/list answer), with the
# server's CPU time by then. With -before REV, a build of that revision runs
# in the same loop, interleaved, for a before/after table. A floor runs in
# the loop too: bench/cmd/startfloor, a minimal Go program that answers the
# handshake and nothing else, the least "spawn to initialize" costs here.
# Usage: bench/startup.sh [-before REV] [startbench flags, e.g. -n 50 -root DIR]
# Prints a Markdown table on stdout; progress on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build_grove
go build -o bench/out/startbench ./bench/cmd/startbench
go build -o bench/out/startfloor ./bench/cmd/startfloor
args=(-grove bench/out/startfloor)
if [ "${1:-}" = "-before" ]; then
	rev=$2
	shift 2
	src=$(mktemp -d)
	trap 'rm -rf "$src"' EXIT
	git archive "$rev" | tar -x -C "$src"
	(cd "$src" && CGO_ENABLED=0 go build -o grove .)
	cp "$src/grove" bench/out/grove-before
	args+=(-grove bench/out/grove-before)
fi
bench/out/startbench "${args[@]}" -grove bench/out/grove "$@"
