# Shared by the scripts in this folder: timing, progress for long installs, and a clean npm
# environment for installs that are not this package's own.

# Seconds since the script started, as "1m05s".
elapsed() {
  local s=$((SECONDS - ${1:-0}))
  printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# Runs "$@" in the background with its output in $log, printing a line every 30 s with the elapsed
# time and what `progress_probe` reports, so a user watching a long install sees it move and what it is doing.
# Returns the command's exit status.
with_progress() {
  local log=$1 label=$2; shift 2
  local start=$SECONDS
  "$@" >"$log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && echo "  ... $label: $(elapsed "$start")$(progress_probe)"
  done
  wait "$pid"
}
progress_probe() { :; }

# `npm test` and `npm start` export npm_config_* for this project (ignore-scripts=true among them)
# to every child. An install into another folder must see only the user's own npm config, as if
# the user had typed `npm install` there.
npm_clean() {
  local var
  local -a unset_args=()
  for var in $(compgen -e); do
    case $var in npm_config_sqlite3_local_prebuilds) ;; # scripts/n8n/sqlite3-binding.sh's, not the caller's
    npm_config_* | npm_package_* | npm_lifecycle_* | npm_command | npm_execpath | npm_node_execpath | INIT_CWD) unset_args+=(-u "$var") ;; esac
  done
  env "${unset_args[@]}" npm "$@"
}

# Installs Debian packages ("$@": apt-get install arguments) as root or through `sudo -n`, with
# progress lines; without either it stops and prints the command for the user to run. $APT_FOR
# names the check in its messages.
apt_install() {
  local -a apt
  if [ "$(id -u)" = 0 ]; then
    apt=(apt-get)
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    apt=(sudo -n apt-get)
  else
    fail "$APT_FOR: installing needs root. Run:  sudo apt-get update && sudo apt-get install -y $*
  then run this command again."
  fi
  local log
  log=$(mktemp)
  export DEBIAN_FRONTEND=noninteractive
  if ! with_progress "$log" "installing $*" apt_update_install "$@"; then
    tail -15 "$log" | sed 's/^/    /'
    fail "$APT_FOR: apt-get could not install $* (see above)."
  fi
}
# Runs in with_progress's background shell, where apt_install's $apt is still visible.
apt_update_install() {
  "${apt[@]}" update -qq && "${apt[@]}" install -y -qq "$@"
}

fail() {
  echo "$*" >&2
  exit 1
}
