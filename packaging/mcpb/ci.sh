#!/usr/bin/env bash
# ci.sh is CI's bundle step: it cross-builds grove for the six release
# platforms (CGO_ENABLED=0, as goreleaser.yaml does), packs one MCP Bundle
# each with pack.sh, checks every bundle with `mcpb info`, then unpacks the
# linux/amd64 one and drives the binary inside it with the TypeScript SDK
# client, started with exactly the command and args mcpb's own
# getMcpConfigForManifest makes of two chosen folders (check.mjs).
# Bundles go to $MCPB_OUT (default: a temporary directory, removed after).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
work="${MCPB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/grove-mcpb}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
out="${MCPB_OUT:-$tmp/bundles}"
version="0.0.0-ci"

"$here/tools.sh"
# goreleaser.yaml runs pack.sh after each build with the same arguments.
grep -qF 'packaging/mcpb/pack.sh {{ .Version }} {{ .Os }} {{ .Arch }} {{ .Path }} dist/mcpb' "$top/goreleaser.yaml" ||
  { echo "goreleaser.yaml no longer runs pack.sh as ci.sh expects" >&2; exit 1; }
for target in darwin/arm64 darwin/amd64 windows/amd64 windows/arm64 linux/amd64 linux/arm64; do
  goos="${target%/*}" goarch="${target#*/}"
  echo "bundle $goos/$goarch"
  (cd "$top" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$tmp/grove-$goos-$goarch" .)
  "$here/pack.sh" "$version" "$goos" "$goarch" "$tmp/grove-$goos-$goarch" "$out" >"$tmp/pack.log" 2>&1 || { cat "$tmp/pack.log" >&2; exit 1; }
done
for b in "$out"/*.mcpb; do
  "$work/node_modules/.bin/mcpb" info "$b" >"$tmp/info.log" 2>&1 || { cat "$tmp/info.log" >&2; exit 1; }
  grep -q "grove" "$tmp/info.log" || { echo "mcpb info $b: $(cat "$tmp/info.log")" >&2; exit 1; }
  echo "ok   $(basename "$b"): $(du -k "$b" | cut -f1) KiB, mcpb info: $(grep -i -m1 'version' "$tmp/info.log" | tr -s ' ')"
done
ls "$out"/grove-{macos,windows,linux}-{amd64,arm64}.mcpb >/dev/null

"$work/node_modules/.bin/mcpb" unpack "$out/grove-linux-amd64.mcpb" "$tmp/unpacked" >/dev/null
cp "$here/check.mjs" "$work/"
mkdir -p "$tmp/folder one" "$tmp/-folder two"
node "$work/check.mjs" "$tmp/unpacked" "$tmp/folder one" "$tmp/-folder two"
# server.json for the MCP Registry: the template and the one filled in from these bundles.
"$top/packaging/registry/check.sh" "$out"
