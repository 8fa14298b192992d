#!/usr/bin/env bash
# Makes the TLS files of the driver's target jupiter-tls (and of the examples' --tls-* flags) in directory DIR: a
# throwaway CA (ca.crt, ca.key) and a server certificate for localhost and 127.0.0.1 signed by it (server.crt,
# server.key; PKCS#8 EC P-256 keys), valid for 30 days. Needs the openssl command. For tests and benchmarks only.
#
#   bench/tls-certs.sh target/bench-tls
#   bench/compare.sh --targets jupiter,jupiter-tls --tls-dir target/bench-tls --cases "sync 32 small,async 32 small"
set -euo pipefail
dir="${1:?usage: bench/tls-certs.sh DIR}"
mkdir -p "$dir"
cd "$dir"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ca.key
openssl req -x509 -new -key ca.key -subj /CN=jupiter-bench-ca -days 30 \
    -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign,cRLSign -out ca.crt
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out server.key
openssl req -new -key server.key -subj /CN=localhost -out server.csr
printf 'basicConstraints=CA:false\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\nkeyUsage=digitalSignature\n' > server.ext
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -set_serial "$RANDOM$RANDOM" -days 30 \
    -extfile server.ext -out server.crt 2>/dev/null
rm -f server.csr server.ext
echo "TLS files in $(pwd): ca.crt server.crt server.key"
