#!/usr/bin/env bash
# Puts the project's Node (the line in .nvmrc) first on PATH: this machine's own when it is that
# line, else a copy from the npm registry (package node-linux-<arch>: bin/node and include/node),
# unpacked once under .cache/node-<version>. npm_config_nodedir points native addons
# (better-sqlite3, sharp, argon2) at that copy's headers.
#   . scripts/use-node.sh              this shell, then npm install, npm start, npm test as usual
#   scripts/use-node.sh npm test       one command under the project's Node
cardlane_use_node() {
  local root want have arch dir version tarball
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  want="$(tr -d ' v\r\n' <"$root/.nvmrc")"
  have="$(node -p 'process.versions.node' 2>/dev/null || true)"
  [ "${have%%.*}" = "${want%%.*}" ] && return 0

  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "use-node: no Node package for $(uname -m); install Node $want by hand" >&2 && return 1 ;;
  esac
  dir="$(ls -d "$root/.cache/node-$want".* "$root/.cache/node-$want" 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -z "$dir" ] || [ ! -x "$dir/bin/node" ]; then
    # The registry's newest release of the line (one version prints as a string, several as a list).
    version="$(npm view "node-linux-$arch@$want" version --json | tr -d '[]" \n' | tr ',' '\n' | sort -V | tail -n 1)"
    [ -n "$version" ] || { echo "use-node: node-linux-$arch@$want not found on the registry" >&2 && return 1; }
    dir="$root/.cache/node-$version"
    echo "use-node: installing Node $version from the npm registry into .cache/node-$version" >&2
    mkdir -p "$dir.tmp" || return 1
    tarball="$(cd "$dir.tmp" && npm pack --silent "node-linux-$arch@$version")" || return 1
    tar -xzf "$dir.tmp/$tarball" -C "$dir.tmp" --strip-components=1 && rm -f "$dir.tmp/$tarball" || return 1
    rm -rf "$dir" && mv "$dir.tmp" "$dir" || return 1
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r
  echo "use-node: Node $(node -v) from ${dir#"$root"/}" >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  cardlane_use_node
  [ "$#" -eq 0 ] || exec "$@"
else
  cardlane_use_node
fi
