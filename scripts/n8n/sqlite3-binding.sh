# sqlite3's native binding, compiled once for every tested line. Sourced by scripts/install-n8n.sh.
#
# Each line pins the same sqlite3 (5.1.7), whose binding is an N-API addon. Compiling it is the
# slowest step of an install on a busy machine (2.5 minutes of C beside the tests in `npm test`).
# A binding compiled under the oldest line's Node (20) loads under the newer lines' Node (24); one
# compiled under Node 24 crashes under Node 20 (segmentation fault, measured 2026-12-05). So the
# first install that needs the binding compiles it under the oldest line's Node and leaves it in
# $SQLITE3_PREBUILDS, named as sqlite3's installer (prebuild-install) looks for a local prebuild;
# every later install of any line unpacks it instead of compiling. Whatever its origin,
# install-n8n.sh's `problem` then proves the binding opens a database under the line's own Node, and
# a line whose binding does not load is rebuilt as before.

SQLITE3_PREBUILDS="$(dirname "$N8N_CACHE_DIR")/prebuilds"
# prebuild-install reads its local prebuild folder from this variable (npm_clean lets it through)
export npm_config_sqlite3_local_prebuilds=$SQLITE3_PREBUILDS

# The folder of the Node the oldest tested line runs under, when this machine has it without a
# download (the machine's own Node, or one install-node.sh fetched before); else nothing. Call it
# before the line's own Node is put first on PATH.
sqlite3_shared_node() {
  local oldest
  oldest=$(node "$here/n8n/line.cjs" versions | head -1)
  (
    eval "$(node "$here/n8n/line.cjs" "$oldest")"
    if [ -n "$LINE_NODE" ]; then
      local dir="${N8N_CACHE_ROOT:-$HOME/.cache/n8n-nodes-workforce-management}/node-$LINE_NODE"
      [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$LINE_NODE" ] && echo "$dir"
    elif [ -n "$LINE_MACHINE_NODE_FITS" ]; then
      dirname "$(dirname "$(command -v node)")"
    fi
  )
}

# The prebuild file of the installed sqlite3, as prebuild-install names it (`-r napi`: the highest
# N-API version the package lists that Node supports).
sqlite3_prebuild_file() {
  node -e '
    const pkg = require(process.argv[1]);
    const napi = Math.max(...pkg.binary.napi_versions.filter((v) => v <= Number(process.versions.napi)));
    console.log(`sqlite3-v${pkg.version}-napi-v${napi}-${process.platform}-${process.arch}.tar.gz`);' \
    "$N8N_CACHE_DIR/node_modules/sqlite3/package.json" 2>/dev/null | sed "s|^|$SQLITE3_PREBUILDS/|"
}

sqlite3_binding() { echo "$N8N_CACHE_DIR/node_modules/sqlite3/build/Release/node_sqlite3.node"; }

# Keeps the installed binding for the other lines, if it was compiled under the shared Node and
# none is kept yet. Written whole, then renamed: a line installing beside this one never unpacks
# half a file.
sqlite3_keep_binding() {
  local shared_node=$1 file
  [ -n "$shared_node" ] && [ "$("$shared_node/bin/node" --version)" = "$node_version" ] || return 0
  file=$(sqlite3_prebuild_file)
  [ -n "$file" ] && [ ! -f "$file" ] && [ -f "$(sqlite3_binding)" ] || return 0
  mkdir -p "$SQLITE3_PREBUILDS"
  tar -czf "$file.$$" -C "$N8N_CACHE_DIR/node_modules/sqlite3" build/Release/node_sqlite3.node &&
    mv "$file.$$" "$file" &&
    echo "$name: kept sqlite3's binding (compiled under Node $node_version) for the other lines: $file"
}

# Before a line's own rebuild of sqlite3 under a newer Node: compiles it under the shared Node
# instead and keeps it, so that rebuild, and every later install, unpacks it.
sqlite3_compile_shared() {
  local shared_node=$1 file shared_version
  file=$(sqlite3_prebuild_file)
  [ -n "$shared_node" ] && [ -n "$file" ] && [ ! -f "$file" ] || return 0
  shared_version=$("$shared_node/bin/node" --version)
  [ "$shared_version" != "$node_version" ] || return 0
  echo "$name: compiling sqlite3 under Node $shared_version, the oldest line's, once for every line"
  local nodedir=()
  [ -f "$shared_node/include/node/node_version.h" ] && nodedir=(--nodedir="$shared_node")
  (
    export PATH="$shared_node/bin:$PATH" node_version
    node_version=$(node --version)
    cd "$N8N_CACHE_DIR" &&
      with_progress "$N8N_CACHE_DIR/rebuild-shared.log" "compiling sqlite3" \
        npm_clean rebuild sqlite3 --ignore-scripts=false "${nodedir[@]}" --no-audit --no-fund --loglevel=warn &&
      sqlite3_keep_binding "$shared_node"
  ) || echo "$name: compiling sqlite3 under the oldest line's Node failed (log: $N8N_CACHE_DIR/rebuild-shared.log); it compiles under Node $node_version instead"
}

# What the install did for sqlite3, for its log.
sqlite3_origin() {
  local file
  file=$(sqlite3_prebuild_file)
  if [ -f "$file" ] && tar -xzOf "$file" build/Release/node_sqlite3.node | cmp -s - "$(sqlite3_binding)"; then
    echo "$name: sqlite3's binding is the one kept in $file (compiled once for every line)"
  fi
}
