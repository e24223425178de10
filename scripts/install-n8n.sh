#!/usr/bin/env bash
# Makes sure a working n8n (the pinned version) is installed in a cache folder outside this
# package's node_modules, for the end-to-end tests, the demo and the benchmarks.
#
# A cache is never trusted: every run proves it works (sqlite3's native binding opens a database,
# `n8n --version` answers the pinned version) and repairs or reinstalls it when it does not.
# The install runs with npm scripts enabled whatever the calling npm says: sqlite3 builds its
# binding in an install script, and this project's .npmrc turns scripts off for its own install.
#
# n8n 2.8.4 is the newest n8n that runs on Node 20; a plain `npm i n8n@2.8.4` fails because
# n8n-nodes-base depends on an xlsx tarball hosted outside the npm registry, hence the override.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"

N8N_VERSION="${N8N_VERSION:-2.8.4}"
N8N_CACHE_DIR="${N8N_CACHE_DIR:-$HOME/.cache/n8n-nodes-workforce-management/n8n-$N8N_VERSION}"
bin="$N8N_CACHE_DIR/node_modules/.bin/n8n"
marker="$N8N_CACHE_DIR/.installed"
name="n8n $N8N_VERSION"

# Prints nothing when the install works, else what does not.
problem() {
  [ -x "$bin" ] || { echo "$bin is missing"; return; }
  local sqlite
  sqlite=$(cd "$N8N_CACHE_DIR" && node -e '
    const n8nDir = require("path").dirname(require.resolve("n8n/package.json"));
    const sqlite3 = require(require.resolve("sqlite3", { paths: [n8nDir] }));
    const db = new sqlite3.Database(":memory:");
    db.get("select 1 as one", (error, row) => {
      if (error || row.one !== 1) { console.log(String(error)); process.exitCode = 1; }
      db.close();
    });' 2>&1) || { echo "the sqlite3 binding does not load: $(echo "$sqlite" | grep -m1 -iE 'error|cannot|not found' || echo "$sqlite" | head -1)"; return; }
  local version
  version=$(cd "$N8N_CACHE_DIR" && N8N_USER_FOLDER="$N8N_CACHE_DIR/.version-check" timeout 60 "$bin" --version 2>&1 | tail -1)
  [ "$version" = "$N8N_VERSION" ] || echo "\`n8n --version\` answers '$version', not $N8N_VERSION"
}

check_build_tools() {
  local missing=()
  for tool in python3 make g++; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ ${#missing[@]} = 0 ] && return
  fail "$name: cannot install: sqlite3 compiles its native binding here and needs python3, make and g++ (missing: ${missing[*]}).
  On Debian or Ubuntu: sudo apt-get install -y python3 make g++   then run this command again."
}

check_disk_space() {
  local parent=$N8N_CACHE_DIR
  until [ -d "$parent" ]; do parent=$(dirname "$parent"); done
  local free_kb
  free_kb=$(df -Pk "$parent" | awk 'NR == 2 { print $4 }')
  [ "${free_kb:-0}" -ge $((3 * 1024 * 1024)) ] && return
  fail "$name: cannot install: it needs about 3 GB of free disk space in $parent, which has $((free_kb / 1024)) MB.
  Free some space, or set N8N_CACHE_DIR to a folder on a larger disk."
}

progress_probe() {
  local modules="$N8N_CACHE_DIR/node_modules"
  if [ ! -d "$modules" ]; then echo ", resolving the dependency tree"; return; fi
  if [ -d "$modules/sqlite3/build" ] && [ ! -f "$modules/sqlite3/build/Release/node_sqlite3.node" ]; then
    echo ", compiling sqlite3 (1-3 minutes)"
    return
  fi
  local unpacked
  unpacked=$(find "$modules" -mindepth 1 -maxdepth 3 -name package.json -not -path '*/node_modules/*/node_modules/*' 2>/dev/null | wc -l)
  if [ "$unpacked" = 0 ]; then echo ", resolving the dependency tree"; else echo ", $unpacked packages unpacked"; fi
}

install() {
  check_build_tools
  check_disk_space
  mkdir -p "$N8N_CACHE_DIR"
  cat >"$N8N_CACHE_DIR/package.json" <<JSON
{ "name": "n8n-runtime-cache", "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "xlsx": "0.18.5" } }
JSON
  echo "$name: installing into $N8N_CACHE_DIR: about 2,100 packages, 2.3 GB, 5-10 minutes" \
    "(sqlite3 is compiled from source). Progress every 30 s; npm's log: $N8N_CACHE_DIR/install.log"
  local start=$SECONDS
  if ! (cd "$N8N_CACHE_DIR" && with_progress "$N8N_CACHE_DIR/install.log" "installing $name" \
    npm_clean install --ignore-scripts=false --no-audit --no-fund --loglevel=warn); then
    tail -25 "$N8N_CACHE_DIR/install.log" | sed 's/^/    /'
    if grep -qiE 'gyp|sqlite3' "$N8N_CACHE_DIR/install.log"; then
      fail "$name: the install failed while compiling sqlite3 (see npm's output above).
  It needs python3, make, g++ and Node's headers; on Debian: sudo apt-get install -y python3 make g++"
    fi
    fail "$name: npm install failed (see npm's output above; whole log: $N8N_CACHE_DIR/install.log)."
  fi
  echo "$name: installed in $(elapsed "$start")"
}

# A rebuild of the native modules repairs the common breakage (an install made with scripts off,
# or a different Node version since); anything else gets a clean reinstall.
repair() {
  echo "$name: rebuilding the native modules (sqlite3) with scripts enabled, about 1-2 minutes"
  (cd "$N8N_CACHE_DIR" && with_progress "$N8N_CACHE_DIR/rebuild.log" "rebuilding sqlite3" \
    npm_clean rebuild sqlite3 --ignore-scripts=false)
  local issue
  issue=$(problem)
  [ -z "$issue" ] && return
  echo "$name: the rebuild did not help ($issue); reinstalling from scratch"
  rm -rf "$N8N_CACHE_DIR"
  install
}

if [ -f "$marker" ]; then
  issue=$(problem)
  if [ -z "$issue" ]; then
    echo "$name: the cached install in $N8N_CACHE_DIR works (sqlite3 loads, n8n --version answers $N8N_VERSION)"
    exit 0
  fi
  rm -f "$marker"
  echo "$name: the cached install in $N8N_CACHE_DIR does not work: $issue"
  repair
elif [ -d "$N8N_CACHE_DIR/node_modules" ]; then
  echo "$name: $N8N_CACHE_DIR holds an unfinished install; completing it"
  install
else
  install
fi

issue=$(problem)
[ -z "$issue" ] || fail "$name: installed, but it does not work: $issue. Whole npm log: $N8N_CACHE_DIR/install.log"
printf 'n8n %s, node %s, verified %s\n' "$N8N_VERSION" "$(node --version)" "$(date -u +%FT%TZ)" >"$marker"
echo "$name: ready (sqlite3 loads, n8n --version answers $N8N_VERSION)"
