#!/usr/bin/env bash
# check.sh BUNDLE_DIR validates the top-level server.json (the template a
# release fills in) and the server.json that fill.mjs makes of the bundles in
# BUNDLE_DIR, against the MCP Registry's published server.json schema.
# The schema comes from the registry's own Go module (it embeds the published
# schemas to validate submissions), fetched through the Go module proxy at
# the pinned version below and never committed here. ajv comes from
# packaging/mcpb's pinned npm tools (tools.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
work="${MCPB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/grove-mcpb}"
registry=github.com/modelcontextprotocol/registry@v1.8.9
schema_version=2025-12-11
[ $# -eq 1 ] || { echo "usage: check.sh BUNDLE_DIR" >&2; exit 2; }
"$top/packaging/mcpb/tools.sh"
dir="$(cd "$top" && go mod download -json "$registry" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
schema="$dir/internal/validators/schemas/$schema_version.json"
[ -f "$schema" ] || { echo "no schema $schema_version in $registry" >&2; exit 1; }
cp "$here/fill.mjs" "$here/validate.mjs" "$work/"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
node "$work/fill.mjs" "$top/server.json" v0.0.0-ci "$1" >"$tmp/server.json"
node "$work/validate.mjs" "$schema" "$top/server.json" "$tmp/server.json"
