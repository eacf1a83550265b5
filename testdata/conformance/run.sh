#!/usr/bin/env bash
# Runs the official MCP conformance suite (pinned in package.json) against
# grove --http directly, serving a fixture root, once per spec revision
# (2025-11-25 on the legacy wire, 2026-07-28 on the modern one), and judges
# each run with verdict.mjs against expected-failures: it fails on a failure
# not listed there, and on a listed failure that passes now.
#
#   testdata/conformance/run.sh            # from anywhere in the repository
#
# It needs Go, git (to make the fixture repository) and npm; the suite and
# the Node.js 22 it needs are npm packages, installed (npm ci) into
# $GROVE_CONFORMANCE_CACHE (default ~/.cache/grove-conformance), not into the
# repository. grove runs with its production defaults: loopback, a token
# (GROVE_HTTP_TOKEN), Host and Origin checks. The suite cannot send headers of
# its own, so bearer.mjs, preloaded into its Node process, adds the token to
# the requests it sends to grove, as a configured client would.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${GROVE_CONFORMANCE_CACHE:-$HOME/.cache/grove-conformance}
work=$(mktemp -d)
grove_pid=
cleanup() {
  if [ -n "$grove_pid" ]; then kill "$grove_pid" 2>/dev/null || true; wait "$grove_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The suite, at the pinned versions; reinstalled when the lock file changes.
mkdir -p "$cache"
if ! cmp -s "$here/package-lock.json" "$cache/package-lock.json" || [ ! -x "$cache/node_modules/.bin/conformance" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$cache/"
  (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error)
fi
node="$cache/node_modules/node/bin/node"
"$node" --version >/dev/null

# grove and its fixture root: a few files, a binary one, in a git repository.
(cd "$repo" && go build -o "$work/grove" .)
root="$work/root"
mkdir -p "$root/src" "$root/docs"
printf '# fixture\n\nA root for the conformance suite.\n' >"$root/README.md"
printf 'package main\n\nfunc main() {}\n' >"$root/src/main.go"
printf 'notes\n' >"$root/docs/notes.txt"
head -c 256 /dev/urandom >"$root/docs/blob.bin"
git -C "$root" init -q
git -C "$root" add -A
git -C "$root" -c user.name=conformance -c user.email=conformance@example.com commit -qm "fixture"
printf 'changed\n' >>"$root/docs/notes.txt" # something for git_status to show

export GROVE_HTTP_TOKEN
GROVE_HTTP_TOKEN=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
"$work/grove" --http 127.0.0.1:0 --root "$root" 2>"$work/grove.log" &
grove_pid=$!
url=
for _ in $(seq 300); do
  url=$(sed -n 's/^grove: serving MCP over HTTP at \(http[^ ]*\)$/\1/p' "$work/grove.log" | head -n1)
  [ -n "$url" ] && break
  kill -0 "$grove_pid" 2>/dev/null || { cat "$work/grove.log" >&2; echo "grove --http exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { cat "$work/grove.log" >&2; echo "grove --http did not start" >&2; exit 1; }
echo "conformance: grove at $url, suite $("$node" "$cache/node_modules/.bin/conformance" --version)"

export GROVE_CONFORMANCE_ORIGIN=${url%/mcp}
status=0
for rev in 2025-11-25 2026-07-28; do
  # The suite's own exit code counts only what a revision scores; verdict.mjs judges every scenario run.
  NODE_OPTIONS="--import=$here/bearer.mjs" "$node" "$cache/node_modules/.bin/conformance" server \
    --url "$url" --requirements "$rev" -o "$work/out-$rev" >"$work/run-$rev.log" 2>&1 || true
  if ! "$node" "$here/verdict.mjs" "$here/expected-failures" "$rev" "$work/out-$rev" "$work/run-$rev.log"; then
    status=1
    sed -n '/=== SUMMARY ===/,$p' "$work/run-$rev.log"
  fi
done
kill -0 "$grove_pid" 2>/dev/null || { echo "grove died during the run:" >&2; cat "$work/grove.log" >&2; status=1; }
exit $status
