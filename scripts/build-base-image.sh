#!/usr/bin/env bash
# Makes, on a machine that cannot pull from a registry, the base image the Dockerfile names
# (node:<the .nvmrc line>-bookworm-slim): Debian bookworm from debootstrap (minbase) plus the
# project's Node (scripts/use-node.sh: this machine's, or the npm registry's copy) and this
# machine's npm, laid out as the official image lays them (/usr/local, user `node` 1000:1000).
# A normal deployment never runs this: it pulls the official image (docs/deploy.md, "The image").
#   sudo scripts/build-base-image.sh            (needs debootstrap and podman)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/use-node.sh
. "$root/scripts/use-node.sh"

tag="${BASE_IMAGE:-docker.io/library/node:$(tr -d ' v\r\n' <"$root/.nvmrc")-bookworm-slim}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
node_bin="$(readlink -f "$(command -v node)")"
node_prefix="$(dirname "$(dirname "$node_bin")")"
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
[ -d "$npm_dir" ] || { echo "npm not found at $npm_dir" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

debootstrap --variant=minbase bookworm "$rootfs" "$mirror"

install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# node-gyp (better-sqlite3 from source) reads the headers here instead of downloading them.
if [ -d "$node_prefix/include/node" ]; then cp -a "$node_prefix/include/node" "$rootfs/usr/local/include/node"; fi
# This machine's trust store, so npm reaches the registry through whatever proxy this machine trusts.
install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"

chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

# What the slim image leaves out too.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/usr/share/doc/* \
  "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log

tar -C "$rootfs" --numeric-owner -c . | podman import \
  --change 'ENV NODE_VERSION='"$("$node_bin" -v | tr -d v)" \
  --change 'ENV npm_config_nodedir=/usr/local' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' \
  - "$tag"
podman image ls "$tag"
