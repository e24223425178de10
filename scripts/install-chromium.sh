#!/usr/bin/env bash
# Makes sure a working Chromium is on the machine for the screenshot test and `npm run pictures`:
# Debian's package (playwright-core drives it; npm never downloads a browser). An existing
# chromium is used only after it has rendered a page headless; otherwise it is (re)installed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

# Prints nothing when chromium renders a page headless, else what went wrong.
problem() {
  [ -x "$CHROMIUM_PATH" ] || { echo "$CHROMIUM_PATH is missing"; return; }
  local profile dom
  profile=$(mktemp -d)
  dom=$(timeout 60 "$CHROMIUM_PATH" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --dump-dom 'data:text/html,<p id="probe">rendered</p>' 2>&1)
  rm -rf "$profile"
  [[ $dom == *'<p id="probe">rendered</p>'* ]] && return
  local said
  said=$(echo "$dom" | grep -m1 -iE 'error|cannot|fail' || echo "$dom" | tail -1)
  echo "it does not render a page headless (${said:-it printed nothing})"
}

issue=$(problem)
if [ -z "$issue" ]; then
  echo "chromium: $CHROMIUM_PATH works ($("$CHROMIUM_PATH" --version 2>/dev/null))"
  exit 0
fi
echo "chromium: $issue"

if [ "$CHROMIUM_PATH" != /usr/bin/chromium ]; then
  fail "chromium: CHROMIUM_PATH=$CHROMIUM_PATH does not work; point it at a working Chromium or unset it to use Debian's."
fi
if ! command -v apt-get >/dev/null; then
  fail "chromium: this machine has no apt-get. Install Chromium with your package manager and set CHROMIUM_PATH to it."
fi
echo "chromium: installing Debian's package (about 1-2 minutes)"
start=$SECONDS
APT_FOR=chromium apt_install chromium
issue=$(problem)
[ -z "$issue" ] || fail "chromium: installed, but $issue"
echo "chromium: installed in $(elapsed "$start"), works ($("$CHROMIUM_PATH" --version 2>/dev/null))"
