#!/usr/bin/env bash
# Drives grove with official MCP clients over stdio, as CI's interop step:
#   1. inspector.mjs: the MCP Inspector CLI calls every tool grove lists, once
#      per optional argument, and every call must validate;
#   2. client.mjs: the TypeScript SDK client, end to end.
# The clients are pinned in package.json and package-lock.json here and
# installed with `npm ci` into $INTEROP_DIR (default /tmp/grove-interop),
# which is reused while the lock file is unchanged. Needs node, npm and git.
# The Inspector is @modelcontextprotocol/inspector-cli 1.0.3, the CLI of the
# Inspector's 1.x line (`inspector --cli`): 2.x needs Node >= 22.19 and CI has 20.
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
# client.mjs imports the SDK, which node resolves from the script's own directory.
cp "$here/client.mjs" "$here/fixture.mjs" "$work/"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
root="$(cd "$root" && pwd -P)"

node "$here/inspector.mjs" "$work/node_modules/@modelcontextprotocol/inspector-cli" "$work/grove"
node "$work/client.mjs" stdio "$work/grove" "$root"
