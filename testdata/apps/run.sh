#!/usr/bin/env bash
# The review view in a real browser, as CI's apps step: Debian's headless
# chromium, driven by puppeteer-core, hosts ui://grove/review in a sandboxed
# iframe; ext-apps' AppBridge (the host side of MCP Apps) talks to it, and
# the TypeScript SDK client gets the view and a git_show of a generated
# 40-file, 3,000-line commit from grove (view.mjs).
# Packages are pinned in package-lock.json here and installed with npm ci
# into $APPS_DIR (default ~/.cache/grove-apps), reused while the lock is
# unchanged. Needs node, npm, git and chromium ($CHROMIUM, default
# /usr/bin/chromium).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
work="${APPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/grove-apps}"
mkdir -p "$work"
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" || [ ! -d "$work/node_modules" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd "$top" && go build -o "$work/grove" .)
cp "$here/view.mjs" "$work/"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
node "$work/view.mjs" "$work/grove" "$(cd "$root" && pwd -P)" "${CHROMIUM:-/usr/bin/chromium}"
