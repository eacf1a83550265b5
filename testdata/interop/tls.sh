#!/usr/bin/env bash
# Makes a certificate authority and a server certificate for 127.0.0.1, ::1
# and localhost with openssl, in the directory given: ca.pem, cert.pem,
# key.pem. Sourced by the HTTP interop scripts (http.sh, proxy.sh).
set -euo pipefail
make_certs() {
  local dir="$1"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 \
    -subj "/CN=grove interop CA" -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -subj "/CN=grove" -keyout "$dir/key.pem" -out "$dir/cert.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost%s\nextendedKeyUsage=serverAuth\n' "${2:+,DNS:$2}" > "$dir/ext.cnf"
  openssl x509 -req -in "$dir/cert.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
    -days 1 -extfile "$dir/ext.cnf" -out "$dir/cert.pem" 2>/dev/null
}
