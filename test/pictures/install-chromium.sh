#!/usr/bin/env bash
# Installs Debian's chromium for the pictures (playwright-core drives /usr/bin/chromium; no browser
# is ever downloaded by npm). Reuses it when present.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "chromium: using $(command -v chromium) ($(chromium --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
echo "chromium: installing Debian's package (about 1 minute)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
echo "chromium: installed $(chromium --version)"
