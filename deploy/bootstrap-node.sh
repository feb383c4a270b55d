#!/bin/sh
# Installs, for the image's build stages only, the Node.js that package-lock.json pins (the
# node-linux-<cpu> package of ADR 0013, checked against the lock's sha512) and npm, into /opt.
# The image needs no Node.js base image: the runtime's Node.js is the same package, installed by
# `npm ci` into node_modules, as on a developer's machine.
# Usage: bootstrap-node.sh <registry URL> <npm version> <npm tarball sha512 integrity>
set -eu
registry=${1%/}
npm_version=$2
npm_integrity=$3

case "$(uname -m)" in
  x86_64) cpu=x64 ;;
  aarch64) cpu=arm64 ;;
  *) echo "bootstrap-node: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac

# The lock's entry for node_modules/node-linux-<cpu>: its version and integrity.
field() {
  awk -v key="\"node_modules/node-linux-$cpu\": {" -v name="\"$1\":" '
    index($0, key) { inside = 1; next }
    inside && index($0, name) { gsub(/[",]/, "", $2); print $2; exit }
    inside && /^    }/ { exit }
  ' package-lock.json
}
node_version=$(field version)
node_integrity=$(field integrity)
[ -n "$node_version" ] && [ -n "$node_integrity" ] || {
  echo "bootstrap-node: node-linux-$cpu is not in package-lock.json" >&2
  exit 1
}

# Behind a TLS-intercepting proxy, NODE_EXTRA_CA_CERTS names its CA (npm, on Node.js, reads it
# too); curl gets it beside the system's.
cacert=/etc/ssl/certs/ca-certificates.crt
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
  cat "$cacert" "$NODE_EXTRA_CA_CERTS" > /tmp/ca.pem
  cacert=/tmp/ca.pem
fi

# Downloads an npm tarball, refuses it unless its sha512 is the expected one, unpacks it to $3.
fetch() {
  curl -fsSL --retry 3 --cacert "$cacert" -o /tmp/pkg.tgz "$1"
  got="sha512-$(openssl dgst -sha512 -binary /tmp/pkg.tgz | openssl base64 -A)"
  if [ "$got" != "$2" ]; then
    echo "bootstrap-node: $1 has integrity $got, expected $2" >&2
    exit 1
  fi
  mkdir -p "$3"
  tar -xzf /tmp/pkg.tgz -C "$3" --strip-components=1 --no-same-owner
  rm /tmp/pkg.tgz
}

fetch "$registry/node-linux-$cpu/-/node-linux-$cpu-$node_version.tgz" "$node_integrity" /opt/node
fetch "$registry/npm/-/npm-$npm_version.tgz" "$npm_integrity" /opt/npm
rm -f /tmp/ca.pem
ln -sf /opt/node/bin/node /usr/local/bin/node
printf '#!/bin/sh\nexec node /opt/npm/bin/npm-cli.js "$@"\n' > /usr/local/bin/npm
chmod 755 /usr/local/bin/npm
echo "bootstrap-node: Node.js $(node --version), npm $(npm --version)"
