#!/usr/bin/env bash
# tools.sh installs the pinned mcpb CLI and TypeScript SDK (package-lock.json
# here) into $MCPB_DIR (default ~/.cache/grove-mcpb) unless they are there.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${MCPB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/grove-mcpb}"
mkdir -p "$work"
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" || [ ! -x "$work/node_modules/.bin/mcpb" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
fi
