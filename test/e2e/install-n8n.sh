#!/usr/bin/env bash
# Installs the pinned n8n into a cache folder outside this package's node_modules and reuses it
# when present. n8n 2.8.4 is the newest n8n that runs on Node 20; a plain `npm i n8n@2.8.4` fails
# because n8n-nodes-base depends on an xlsx tarball hosted outside the npm registry, hence the override.
set -euo pipefail
N8N_VERSION="${N8N_VERSION:-2.8.4}"
N8N_CACHE_DIR="${N8N_CACHE_DIR:-$HOME/.cache/n8n-nodes-workforce-management/n8n-$N8N_VERSION}"
bin="$N8N_CACHE_DIR/node_modules/.bin/n8n"
if [ -x "$bin" ] && [ -f "$N8N_CACHE_DIR/.installed" ]; then
  echo "n8n $N8N_VERSION: using the cached install in $N8N_CACHE_DIR"
  exit 0
fi
echo "n8n $N8N_VERSION: installing into $N8N_CACHE_DIR (first run only: ~2.3 GB, 5-10 minutes)"
mkdir -p "$N8N_CACHE_DIR"
cat > "$N8N_CACHE_DIR/package.json" <<JSON
{ "name": "n8n-runtime-cache", "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "xlsx": "0.18.5" } }
JSON
(cd "$N8N_CACHE_DIR" && npm install --no-audit --no-fund --loglevel=error)
"$bin" --version
touch "$N8N_CACHE_DIR/.installed"
echo "n8n $N8N_VERSION: installed"
