#!/usr/bin/env bash
# Drives `grove --http --http-auth-issuer` with the TypeScript SDK's client
# and authorization server (see oauth.mjs), with the packages pinned here,
# installed into $INTEROP_DIR as http.sh does. Needs node, npm and git.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
work="${INTEROP_DIR:-/tmp/grove-interop}"
mkdir -p "$work"
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" || [ ! -d "$work/node_modules" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd "$top" && go build -o "$work/grove" .)
cp "$here/oauth.mjs" "$here/fixture.mjs" "$work/"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
node "$work/oauth.mjs" "$work/grove" "$(cd "$root" && pwd -P)"
