#!/usr/bin/env bash
# grove behind nginx, as docs/http.md describes: two grove instances (a and
# b) on loopback ports, nginx in front on another, ending TLS with a
# certificate made here (tls.sh) and passing the public host name
# grove.example, which the instances allow (--http-allow-host). Then the
# TypeScript SDK client drives it (proxy.mjs). Everything listens on
# 127.0.0.1. Needs nginx, openssl, node, npm and git; packages as http.sh.
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
cp "$here/proxy.mjs" "$work/"
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

dir="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
. "$here/tls.sh"
make_certs "$dir"
mkdir -p "$dir/root" "$dir/tmp"
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port_a="$(free_port)"; port_b="$(free_port)"; port_proxy="$(free_port)"
export GROVE_HTTP_TOKEN="proxy-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
for inst in a b; do
  port="port_$inst"
  "$work/grove" --http "127.0.0.1:${!port}" --http-instance "$inst" --http-allow-host grove.example \
    --root "$dir/root" 2>"$dir/grove-$inst.log" &
  pids+=("$!")
done
sed -e "s|@DIR@|$dir|g" -e "s|@A@|$port_a|g" -e "s|@B@|$port_b|g" -e "s|@PORT@|$port_proxy|g" \
  "$here/nginx.conf" > "$dir/nginx.conf"
"$nginx_bin" -p "$dir" -c "$dir/nginx.conf"
for _ in $(seq 100); do
  if grep -q "serving MCP" "$dir/grove-a.log" && grep -q "serving MCP" "$dir/grove-b.log" && [ -f "$dir/nginx.pid" ]; then break; fi
  sleep 0.1
done
NODE_EXTRA_CA_CERTS="$dir/ca.pem" node "$work/proxy.mjs" "https://127.0.0.1:$port_proxy" "$GROVE_HTTP_TOKEN" ||
  { cat "$dir/error.log" "$dir"/grove-*.log >&2; exit 1; }
