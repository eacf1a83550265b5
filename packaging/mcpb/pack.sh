#!/usr/bin/env bash
# pack.sh VERSION GOOS GOARCH BINARY OUTDIR packs one MCP Bundle,
# OUTDIR/grove-<os>-<arch>.mcpb (os: macos, windows, linux), from a grove
# binary built for GOOS/GOARCH: manifest.json here with the version, the
# binary's name and the platform filled in, the binary as server/grove (or
# server/grove.exe), icon.png and the LICENSE. It validates the manifest
# before packing. goreleaser.yaml runs it after each build; ci.sh for all six.
# Needs node and npm: mcpb is installed from package-lock.json here into
# $MCPB_DIR (default ~/.cache/grove-mcpb), reused while the lock is unchanged.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
[ $# -eq 5 ] || { echo "usage: pack.sh VERSION GOOS GOARCH BINARY OUTDIR" >&2; exit 2; }
version="${1#v}" goos="$2" goarch="$3" bin="$4" out="$5"
"$here/tools.sh"
mcpb="${MCPB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/grove-mcpb}/node_modules/.bin/mcpb"

case "$goos" in
  darwin) os=macos platform=darwin exe=grove ;;
  windows) os=windows platform=win32 exe=grove.exe ;;
  linux) os=linux platform=linux exe=grove ;;
  *) echo "pack.sh: no bundle for $goos" >&2; exit 2 ;;
esac
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/server" "$out"
cp "$bin" "$stage/server/$exe"
chmod 755 "$stage/server/$exe"
cp "$here/icon.png" "$top/LICENSE" "$stage/"
node - "$here/manifest.json" "$stage/manifest.json" "$version" "$platform" "server/$exe" <<'JS'
const fs = require("node:fs");
const [src, dst, version, platform, entry] = process.argv.slice(2);
const m = JSON.parse(fs.readFileSync(src, "utf8"));
m.version = version;
m.server.entry_point = entry;
m.server.mcp_config.command = "${__dirname}/" + entry;
m.compatibility.platforms = [platform];
fs.writeFileSync(dst, JSON.stringify(m, null, 2) + "\n");
JS
"$mcpb" validate "$stage/manifest.json"
"$mcpb" pack "$stage" "$out/grove-$os-$goarch.mcpb"
