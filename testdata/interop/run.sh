#!/usr/bin/env bash
# Runs grove against the official TypeScript SDK client (npm) over stdio.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
work="${INTEROP_DIR:-/tmp/grove-interop}"
mkdir -p "$work"
[ -d "$work/node_modules/@modelcontextprotocol/sdk" ] ||
  npm install --prefix "$work" --no-audit --no-fund @modelcontextprotocol/sdk@1.32.2 >/dev/null
(cd "$top" && go build -o "$work/grove" .)
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
cp "$here/client.mjs" "$work/client.mjs"
node "$work/client.mjs" "$work/grove" "$root"
