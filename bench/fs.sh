#!/usr/bin/env bash
# Compare grove's file tools with the reference MCP filesystem server.
# Usage: bench/fs.sh [fsbench flags, e.g. -n 30 -resources 100000]
# Needs go and node/npm. Prints a Markdown table on stdout; progress on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

REF_PKG=@modelcontextprotocol/server-filesystem
REF_VERSION=2026.8.31 # pinned; its SDK speaks protocol versions up to 2025-11-25
REF_DIR=bench/node/node_modules/$REF_PKG

if ! grep -q "\"version\": \"$REF_VERSION\"" "$REF_DIR/package.json" 2>/dev/null; then
	npm install --prefix bench/node --no-audit --no-fund "$REF_PKG@$REF_VERSION" >&2
fi
build_grove
go build -o bench/out/fsbench ./bench/cmd/fsbench
bench/out/fsbench -grove bench/out/grove -ref "$REF_DIR/dist/index.js" "$@"
