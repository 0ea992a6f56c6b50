#!/usr/bin/env bash
# Prints the bin folder of a Node.js line (22, 24, 26, ...), installing the npm registry's `node`
# package for it on first use into a cache folder: $FINCTL_NODE_LINES (default .cache/node-lines in
# the project, ignored by git). Nothing is fetched from anywhere but the npm registry; no root.
#   PATH="$(scripts/node-line.sh 24):$PATH" node --version
set -euo pipefail
line=${1:?usage: scripts/node-line.sh LINE (e.g. 24)}
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${FINCTL_NODE_LINES:-$root/.cache/node-lines}
dir="$cache/$line"
bin="$dir/node_modules/node/bin"
if ! "$bin/node" --version >/dev/null 2>&1; then
  mkdir -p "$dir"
  # --prefix installs into $dir/node_modules; the package's preinstall fetches node-<os>-<arch> from the registry.
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node@$line" >&2
fi
"$bin/node" --version >/dev/null
echo "$bin"
