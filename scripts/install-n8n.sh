#!/usr/bin/env bash
# Makes sure working n8n installs are in the cache folder, outside this package's node_modules, for
# the end-to-end tests, the demo and the benchmarks.
#   bash scripts/install-n8n.sh              every tested line (scripts/n8n/lines.json)
#   bash scripts/install-n8n.sh 2.41.1       one version (also: N8N_VERSION=2.41.1)
# Folders: $N8N_CACHE_ROOT (default ~/.cache/n8n-nodes-workforce-management)/n8n-<version>, or
# N8N_CACHE_DIR for a single version.
#
# A tested line installs with `npm ci` from its lockfile in scripts/n8n/<version>/, so every
# machine gets the tree CI tested. Its package.json overrides xlsx: n8n-nodes-base depends on an
# xlsx tarball hosted outside the npm registry. A version that is not a tested line (the
# compatibility matrix's 1.123.x) is resolved against the registry of the day, with a warning.
#
# A line whose n8n needs a newer Node than the machine's gets it from the registry
# (scripts/install-node.sh) and installs, builds and runs under it.
#
# A cache is never trusted: every run proves it works (installed from this lockfile, sqlite3's
# native binding opens a database, `n8n --version` answers the version) and repairs or reinstalls it
# when it does not. Installs run with npm scripts set by the line, whatever the calling npm says:
# this project's .npmrc turns scripts off for its own install.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"

versions=("$@")
[ ${#versions[@]} = 0 ] && [ -n "${N8N_VERSION:-}" ] && versions=("$N8N_VERSION")
if [ ${#versions[@]} = 0 ]; then
  mapfile -t versions < <(node "$here/n8n/line.cjs" versions)
fi
if [ ${#versions[@]} -gt 1 ]; then
  [ -z "${N8N_CACHE_DIR:-}" ] || fail "N8N_CACHE_DIR names one folder; for several lines set N8N_CACHE_ROOT instead."
  status=0
  for version in "${versions[@]}"; do bash "$0" "$version" || status=1; done
  exit $status
fi

N8N_VERSION=${versions[0]}
eval "$(node "$here/n8n/line.cjs" "$N8N_VERSION")"
N8N_CACHE_DIR="${N8N_CACHE_DIR:-${N8N_CACHE_ROOT:-$HOME/.cache/n8n-nodes-workforce-management}/n8n-$N8N_VERSION}"
bin="$N8N_CACHE_DIR/node_modules/.bin/n8n"
marker="$N8N_CACHE_DIR/.installed"
ci_marker="$N8N_CACHE_DIR/.npm-ci-lockfile-sha256"
name="n8n $N8N_VERSION"
lock_sha=
[ -n "$LINE_LOCK_DIR" ] && lock_sha=$(sha256sum "$LINE_LOCK_DIR/package-lock.json" | cut -d' ' -f1)

source "$here/n8n/sqlite3-binding.sh"
shared_node=$(sqlite3_shared_node)

# The Node this line runs on: the registry's, first on PATH (npm then runs under it too, and
# node-gyp builds against its headers), or the machine's when it fits the line.
npm_node_args=()
if [ -n "$LINE_NODE" ]; then
  node_dir=$(bash "$here/install-node.sh" "$LINE_NODE") || exit 1
  export PATH="$node_dir/bin:$PATH"
  npm_node_args=(--nodedir="$node_dir")
elif [ -z "$LINE_MACHINE_NODE_FITS" ]; then
  fail "$name: needs Node $LINE_NODE_RANGE, and this machine's is $(node --version).
  Install a Node in that range and put it first on PATH, then run this command again."
else
  # Build against the headers of the Node that will run n8n, not a user npmrc's nodedir, which may
  # belong to another Node on this machine (a binding built against it does not load).
  node_prefix=$(dirname "$(dirname "$(command -v node)")")
  [ -f "$node_prefix/include/node/node_version.h" ] && npm_node_args=(--nodedir="$node_prefix")
fi
node_version=$(node --version)

# Prints nothing when the install works, else what does not.
problem() {
  [ -x "$bin" ] || { echo "$bin is missing"; return; }
  # only `npm ci` makes the tree exactly the lockfile's (`npm install` may keep extraneous packages)
  if [ -n "$lock_sha" ] && [ "$(cat "$ci_marker" 2>/dev/null)" != "$lock_sha" ]; then
    echo "it was not installed with npm ci from scripts/n8n/$N8N_VERSION/package-lock.json (sha256 ${lock_sha:0:12}…)"
    return
  fi
  local sqlite
  sqlite=$(cd "$N8N_CACHE_DIR" && node -e '
    const n8nDir = require("path").dirname(require.resolve("n8n/package.json"));
    const sqlite3 = require(require.resolve("sqlite3", { paths: [n8nDir] }));
    const db = new sqlite3.Database(":memory:");
    db.get("select 1 as one", (error, row) => {
      if (error || row.one !== 1) { console.log(String(error)); process.exitCode = 1; }
      db.close();
    });' 2>&1) || { echo "the sqlite3 binding does not load under Node $node_version: $(echo "$sqlite" | grep -m1 -iE 'error|cannot|not found' || echo "$sqlite" | head -1)"; return; }
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
  Free some space, or set N8N_CACHE_ROOT to a folder on a larger disk."
}

# What the install is doing, for the progress line every 30 s: $phase is "download" during npm's
# install, "compile" during the rebuild of the native modules ($phase_stamp: when it began).
phase=download phase_stamp=
progress_probe() {
  local modules="$N8N_CACHE_DIR/node_modules"
  if [ "$phase" = compile ]; then
    # sqlite3 is the one compiled from source, and the long one (isolated-vm ships a binary for Linux x64)
    if [ -z "$(find "$modules/sqlite3/build/Release/node_sqlite3.node" -newer "$phase_stamp" 2>/dev/null)" ]; then
      echo ", compiling the native modules: sqlite3 (C code, the slowest step on a busy machine)"
    else
      local others
      others=$(echo ${LINE_REBUILD//sqlite3/})
      echo ", compiling the native modules: sqlite3 done${others:+, finishing $others}"
    fi
    return
  fi
  if [ ! -d "$modules" ]; then echo ", resolving the dependency tree"; return; fi
  if [ -d "$modules/sqlite3/build" ] && [ ! -f "$modules/sqlite3/build/Release/node_sqlite3.node" ]; then
    echo ", compiling the native module sqlite3 (C code, 1-3 minutes)"
    return
  fi
  local unpacked total
  # packages at the top of node_modules (scoped or not), against the lockfile's count of them
  unpacked=$(find "$modules" -mindepth 2 -maxdepth 3 -name package.json -regextype posix-extended \
    -regex '.*/node_modules/(@[^/]+/[^/]+|[^@/][^/]*)/package\.json' 2>/dev/null | wc -l)
  total=$(grep -cE '^    "node_modules/(@[^/"]+/)?[^/"]+": \{' "$N8N_CACHE_DIR/package-lock.json" 2>/dev/null)
  if [ "$unpacked" = 0 ]; then echo ", resolving the dependency tree"; return; fi
  echo ", downloading and unpacking packages: $unpacked${total:+ of about $total} in place"
}

# Why an install from the lockfile failed, and what to do about it.
explain_failure() {
  local log=$1 missing
  missing=$(grep -m1 -oE 'No matching version found for [^ ]+[^.]|404 +Not Found - [A-Z]+ [^ ]+' "$log" | head -1)
  if [ -n "$missing" ] && [ -n "$LINE_LOCK_DIR" ]; then
    fail "$name: the npm registry lacks a package version that scripts/n8n/$N8N_VERSION/package-lock.json pins ($missing).
  To install anyway, re-resolve the lockfile against today's registry and commit it after \`npm test\` passes:
    cd scripts/n8n/$N8N_VERSION && rm package-lock.json && PATH=<the line's Node>/bin:\$PATH npm install --package-lock-only --ignore-scripts
  If n8n $N8N_VERSION itself is gone, add the newest version that installs to scripts/n8n/lines.json with its own folder."
  fi
  if grep -q EINTEGRITY "$log"; then
    fail "$name: a downloaded package does not match the checksum in the lockfile (EINTEGRITY, see above): the registry
  or a proxy serves other bytes than on the day the lockfile was made. Clear npm's cache (npm cache clean --force) and retry."
  fi
  if grep -qiE 'gyp|sqlite3' "$log"; then
    fail "$name: the install failed while compiling $(grep -m1 -oE 'npm_package_name [^ ]+' "$log" | cut -d' ' -f2 || echo sqlite3) (see npm's output above).
  It needs python3, make, g++ and Node's headers; on Debian: sudo apt-get install -y python3 make g++"
  fi
  fail "$name: npm failed (see npm's output above; whole log: $log)."
}

# npm in the cache folder, with the line's Node headers and only the user's own npm config.
cache_npm() {
  local log=$1 label=$2; shift 2
  (cd "$N8N_CACHE_DIR" && with_progress "$log" "$label" npm_clean "$@" "${npm_node_args[@]}" --no-audit --no-fund --loglevel=warn) && return
  tail -25 "$log" | sed 's/^/    /'
  explain_failure "$log"
}

install() {
  check_build_tools
  check_disk_space
  rm -rf "$N8N_CACHE_DIR/node_modules" "$ci_marker"
  mkdir -p "$N8N_CACHE_DIR"
  local start=$SECONDS ignore=false
  [ -n "$LINE_IGNORE_SCRIPTS" ] && ignore=true
  if [ -n "$LINE_LOCK_DIR" ]; then
    cp "$LINE_LOCK_DIR/package.json" "$LINE_LOCK_DIR/package-lock.json" "$N8N_CACHE_DIR/"
    echo "$name: installing into $N8N_CACHE_DIR under Node $node_version with npm ci from scripts/n8n/$N8N_VERSION/package-lock.json" \
      "(sha256 $lock_sha): $(grep -c '"node_modules/' "$LINE_LOCK_DIR/package-lock.json") packages, 2-3 GB; the first install takes $LINE_INSTALL_TIME." \
      "Progress every 30 s; npm's log: $N8N_CACHE_DIR/install.log"
    cache_npm "$N8N_CACHE_DIR/install.log" "installing $name" ci --ignore-scripts=$ignore
    echo "$lock_sha" >"$ci_marker"
  else
    cat >"$N8N_CACHE_DIR/package.json" <<JSON
{ "name": "n8n-runtime-cache", "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "xlsx": "0.18.5" } }
JSON
    echo "$name: not a tested line (scripts/n8n/lines.json), so there is no lockfile: resolving against today's registry." \
      "Installing into $N8N_CACHE_DIR under Node $node_version, $LINE_INSTALL_TIME; npm's log: $N8N_CACHE_DIR/install.log"
    cache_npm "$N8N_CACHE_DIR/install.log" "installing $name" install --ignore-scripts=$ignore
  fi
  echo "$name: installed in $(elapsed "$start")"
  # n8n 2.36+ (Node 24) pulls in @confluentinc/kafka-javascript, whose install script builds librdkafka
  # and downloads zlib and openssl from the internet, which fails where only the npm registry is
  # reachable. Such a line installs with scripts off and then builds only the native modules n8n
  # needs to start and run code (lines.json "rebuild"); only n8n's Kafka node is left without its binary.
  [ -n "$LINE_REBUILD" ] && rebuild
}

rebuild() {
  local modules=${LINE_REBUILD:-sqlite3}
  [[ " $modules " == *" sqlite3 "* ]] && sqlite3_compile_shared "$shared_node"
  local start=$SECONDS
  echo "$name: compiling the native modules ($modules) under Node $node_version, part of the time above"
  phase=compile phase_stamp="$N8N_CACHE_DIR/.rebuild-started"
  touch "$phase_stamp"
  # shellcheck disable=SC2086
  cache_npm "$N8N_CACHE_DIR/rebuild.log" "compiling $modules" rebuild $modules --ignore-scripts=false
  echo "$name: compiled $modules in $(elapsed "$start")"
}

# A rebuild of the native modules repairs the common breakage (an install made with scripts off,
# or a different Node version since); anything else gets a clean reinstall.
repair() {
  local issue=$1
  if [[ $issue != *"not installed with npm ci"* && $issue != *missing ]]; then
    rebuild
    issue=$(problem)
    [ -z "$issue" ] && return
    echo "$name: the rebuild did not help ($issue); reinstalling from scratch"
  fi
  install
}

if [ -f "$marker" ] || [ -d "$N8N_CACHE_DIR/node_modules" ]; then
  issue=$(problem)
  if [ -z "$issue" ]; then
    echo "$name: the cached install in $N8N_CACHE_DIR works (${lock_sha:+lockfile sha256 ${lock_sha:0:12}…, }sqlite3 loads under Node $node_version, n8n --version answers $N8N_VERSION)"
    sqlite3_keep_binding "$shared_node"
    [ -f "$marker" ] || printf 'n8n %s, node %s, lockfile sha256 %s, verified %s\n' "$N8N_VERSION" "$node_version" "${lock_sha:-none}" "$(date -u +%FT%TZ)" >"$marker"
    exit 0
  fi
  rm -f "$marker"
  echo "$name: the cached install in $N8N_CACHE_DIR does not work: $issue"
  repair "$issue"
else
  install
fi

issue=$(problem)
if [[ $issue == *"sqlite3 binding"* ]] && [ -n "$(sqlite3_origin)" ]; then
  echo "$name: the sqlite3 binding kept for every line does not load here ($issue); compiling this line's own"
  rm -f "$(sqlite3_prebuild_file)"
  shared_node="" LINE_REBUILD=sqlite3 rebuild
  issue=$(problem)
fi
[ -z "$issue" ] || fail "$name: installed, but it does not work: $issue. Whole npm log: $N8N_CACHE_DIR/install.log"
sqlite3_keep_binding "$shared_node"
sqlite3_origin
printf 'n8n %s, node %s, lockfile sha256 %s, verified %s\n' "$N8N_VERSION" "$node_version" "${lock_sha:-none}" "$(date -u +%FT%TZ)" >"$marker"
echo "$name: ready under Node $node_version (${lock_sha:+lockfile sha256 $lock_sha, }sqlite3 loads, n8n --version answers $N8N_VERSION)"
