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
mkdir -p "$tmp/bin" # the binaries; "$tmp/grove-<os>-<arch>" is where each bundle is unpacked
for target in darwin/arm64 darwin/amd64 windows/amd64 windows/arm64 linux/amd64 linux/arm64; do
  goos="${target%/*}" goarch="${target#*/}"
  echo "bundle $goos/$goarch"
  (cd "$top" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$tmp/bin/grove-$goos-$goarch" .)
  "$here/pack.sh" "$version" "$goos" "$goarch" "$tmp/bin/grove-$goos-$goarch" "$out" >"$tmp/pack.log" 2>&1 || { cat "$tmp/pack.log" >&2; exit 1; }
done
for b in "$out"/*.mcpb; do
  name="$(basename "$b" .mcpb)"
  "$work/node_modules/.bin/mcpb" info "$b" >"$tmp/info.log" 2>&1 || { cat "$tmp/info.log" >&2; exit 1; }
  grep -q "^Size:" "$tmp/info.log" || { echo "mcpb info $b: $(cat "$tmp/info.log")" >&2; exit 1; }
  # Each bundle holds its platform's binary where its manifest says.
  "$work/node_modules/.bin/mcpb" unpack "$b" "$tmp/$name" >/dev/null
  "$work/node_modules/.bin/mcpb" validate "$tmp/$name/manifest.json" >/dev/null
  node - "$tmp/$name" "$name" <<'JS'
const fs = require("node:fs"), path = require("node:path");
const [dir, name] = process.argv.slice(2);
const m = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
const [, os] = name.split("-");
const want = { macos: ["darwin", [0xcf, 0xfa, 0xed, 0xfe]], windows: ["win32", [0x4d, 0x5a]], linux: ["linux", [0x7f, 0x45, 0x4c, 0x46]] }[os];
const head = [...fs.readFileSync(path.join(dir, m.server.entry_point)).subarray(0, want[1].length)];
if (m.compatibility.platforms.join() !== want[0] || head.join() !== want[1].join() || m.version !== "0.0.0-ci") {
  console.error(`${name}: platforms ${m.compatibility.platforms}, version ${m.version}, binary starts ${head}`);
  process.exit(1);
}
JS
  echo "ok   $name.mcpb: $(du -k "$b" | cut -f1) KiB, validated, $(grep -m1 -i 'sign' "$tmp/info.log" | sed 's/^WARNING: //')"
done
ls "$out"/grove-{macos,windows,linux}-{amd64,arm64}.mcpb >/dev/null

cp "$here/check.mjs" "$work/"
mkdir -p "$tmp/folder one" "$tmp/-folder two"
node "$work/check.mjs" "$tmp/grove-linux-amd64" "$tmp/folder one" "$tmp/-folder two"
# server.json for the MCP Registry: the template and the one filled in from these bundles.
"$top/packaging/registry/check.sh" "$out"
