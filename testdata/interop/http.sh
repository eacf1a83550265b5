#!/usr/bin/env bash
# Drives `grove --http` with the official TypeScript SDK client over each
# transport named in the arguments (default: all of them): "http"
# (StreamableHTTPClientTransport at /mcp), "sse" (SSEClientTransport at
# /sse), "ws" (WebSocketClientTransport at /ws), as CI's HTTP interop step:
# see http.mjs. Each runs over plain HTTP and over TLS (needs openssl).
# Uses the clients pinned in package.json and package-lock.json here,
# installed with `npm ci` into $INTEROP_DIR (default /tmp/grove-interop), as
# run.sh does. Needs node, npm and git.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
work="${INTEROP_DIR:-/tmp/grove-interop}"
mkdir -p "$work"
if [ ! -f "$here/package-lock.json" ]; then
  echo "http.sh: $here/package-lock.json is missing (the pinned clients)" >&2
  exit 2
fi
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" || [ ! -d "$work/node_modules" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd "$top" && go build -o "$work/grove" .)
# http.mjs imports the SDK, which node resolves from the script's own directory.
cp "$here/http.mjs" "$here/fixture.mjs" "$work/"
# Each transport runs twice: over plain HTTP, then over TLS with a
# certificate from a CA made here (node trusts it through NODE_EXTRA_CA_CERTS).
. "$here/tls.sh"
certs="$(mktemp -d)"
trap 'rm -rf "$certs"' EXIT
make_certs "$certs"
[ $# -gt 0 ] || set -- http sse ws
for tls in plain tls; do
  for kind in "$@"; do
    root="$(mktemp -d)"
    if [ "$tls" = tls ]; then
      NODE_EXTRA_CA_CERTS="$certs/ca.pem" GROVE_HTTP_ARGS="--http-tls-cert $certs/cert.pem --http-tls-key $certs/key.pem" \
        node "$work/http.mjs" "$work/grove" "$(cd "$root" && pwd -P)" "$kind" || { rm -rf "$root"; exit 1; }
    else
      node "$work/http.mjs" "$work/grove" "$(cd "$root" && pwd -P)" "$kind" || { rm -rf "$root"; exit 1; }
    fi
    rm -rf "$root"
  done
done
