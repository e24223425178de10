#!/usr/bin/env bash
# Makes sure Postgres, Redis and nginx are on the machine for the queue-mode end-to-end suites and
# `npm start -- --queue`: Debian's packages. The tests start their own short-lived cluster,
# redis-server and nginx (the balancer in front of the webhook processes) on free loopback ports
# (harness/queue/); nothing here starts a service, and the tests never use the system's
# nginx service (where apt is allowed to start it, it listens on port 80 unused).
# Existing binaries are used only after they have answered; otherwise the packages are installed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"

# The newest Postgres Debian installs, unless POSTGRES_BIN_DIR names one (harness/queue reads the same).
postgres_bin_dir() {
  if [ -n "${POSTGRES_BIN_DIR:-}" ]; then echo "$POSTGRES_BIN_DIR"; return; fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}
REDIS_SERVER="${REDIS_SERVER:-/usr/bin/redis-server}"
NGINX="${NGINX:-/usr/sbin/nginx}"

# Prints nothing when both work, else what does not.
problem() {
  local bin version
  bin=$(postgres_bin_dir)
  if [ -z "$bin" ]; then
    echo "no Postgres in /usr/lib/postgresql"
  else
    for tool in initdb pg_ctl postgres; do
      version=$("$bin/$tool" --version 2>&1) || { echo "$bin/$tool does not run (${version:-it printed nothing})"; break; }
    done
  fi
  if id postgres >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then :; else echo "there is no user postgres to run a cluster as root"; fi
  if [ -x "$REDIS_SERVER" ]; then
    version=$("$REDIS_SERVER" --version 2>&1) || echo "$REDIS_SERVER does not run (${version:-it printed nothing})"
  else
    echo "$REDIS_SERVER is missing"
  fi
  if [ -x "$NGINX" ]; then
    version=$("$NGINX" -v 2>&1) || echo "$NGINX does not run (${version:-it printed nothing})"
  else
    echo "$NGINX is missing"
  fi
}

versions() {
  local bin
  bin=$(postgres_bin_dir)
  echo "$("$bin/postgres" --version), $("$REDIS_SERVER" --version | cut -d' ' -f1-3), $("$NGINX" -v 2>&1 | sed 's/^nginx version: //')"
}

issue=$(problem)
if [ -z "$issue" ]; then
  echo "queue services: Postgres, Redis and nginx work ($(versions))"
  exit 0
fi
echo "queue services: $(echo "$issue" | paste -sd ';' | sed 's/;/; /g')"

if [ -n "${POSTGRES_BIN_DIR:-}" ] || [ "$REDIS_SERVER" != /usr/bin/redis-server ] || [ "$NGINX" != /usr/sbin/nginx ]; then
  fail "queue services: POSTGRES_BIN_DIR=${POSTGRES_BIN_DIR:-} REDIS_SERVER=$REDIS_SERVER NGINX=$NGINX do not work; point them at working binaries or unset them to use Debian's."
fi
if ! command -v apt-get >/dev/null; then
  fail "queue services: this machine has no apt-get. Install Postgres (15 or newer), Redis and nginx with your package manager,
  then set POSTGRES_BIN_DIR (the folder with initdb, pg_ctl and postgres), REDIS_SERVER (the redis-server binary) and NGINX (the nginx binary)."
fi
echo "queue services: installing Debian's postgresql, redis-server and nginx (about 1 minute)"
start=$SECONDS
APT_FOR="queue services" apt_install --no-install-recommends postgresql redis-server nginx
issue=$(problem)
[ -z "$issue" ] || fail "queue services: installed, but $issue"
echo "queue services: installed in $(elapsed "$start"), work ($(versions))"
