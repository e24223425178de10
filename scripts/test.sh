#!/usr/bin/env bash
# `npm test`: every check, each announced and timed, in three phases:
#   1. build, lint, typecheck, scan, one after the other;
#   2. the fast jest tier (unit, sandbox, engine: no n8n needed) while Chromium, Postgres, Redis,
#      nginx and every tested n8n line (scripts/n8n/lines.json) install, the lines one after the
#      other, newest first (two installs side by side take as long as two in a row, and the newest
#      line's suites take longest: its n8n starts slowest);
#   3. the end-to-end, demo and pictures suites against each n8n line, the lines side by side (each
#      starts as soon as its n8n is installed; N8N_VERSION chooses the line for the test support).
# The suites of a real n8n mostly wait (on n8n's start, on polls), so two lines side by side take
# little longer than one. A job that runs beside another writes to test-results/<name>.log, which
# is printed whole when it ends. Every check runs even when an earlier one failed, so one run shows
# them all; the exit status is non-zero if any failed.
# With arguments, the checks run, then one jest run against the oldest line with those arguments.
# It does not rely on npm's pre/post scripts (this project's .npmrc sets ignore-scripts=true, under
# which npm runs none).
# Writes test-results/checks.tsv (check, result, seconds), test-results/jest-fast.json and
# test-results/jest-e2e-<version>.json (each line), or test-results/jest.json with arguments.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

export NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}" no_proxy="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}"
results=test-results
mkdir -p "$results"
checks=$results/checks.tsv
: >"$checks"
rm -f "$results"/jest*.json "$results"/*.log "$results"/n8n-starts-*.tsv
mapfile -t lines < <(node scripts/n8n/line.cjs versions)
oldest=${lines[0]}

checks_first=(
  "build|n8n-node build && gulp (compile, copy icons, load every node and credential)|npm run -s build"
  "lint|n8n-node lint (n8n's community-node rules)|npm run -s lint"
  "typecheck|tsc -p test/tsconfig.json (sources, tests, bench)|npm run -s typecheck"
  "scan|n8n's community-package scanner on the packed tarball and the sources|npm run -s scan"
)
services=(
  "chromium|install or verify Chromium for the browser and screenshot tests|bash scripts/install-chromium.sh"
  "queue|install or verify Postgres, Redis and nginx for the queue-mode tests|bash scripts/install-queue-services.sh"
)
jest_command() { # version, JSON result file, jest arguments...
  local version=$1 output=$2; shift 2
  echo "N8N_VERSION=$version npx --no-install jest --json --outputFile=$output$(printf ' %q' "$@")"
}
# The suites each line runs: the README's pictures, the demo's sign-up form and the trigger's
# "Listen for test event" in Chromium on the newest (the line npm start opens, whose editor they
# show), a newcomer's first steps in the editor on the oldest; `npm start` itself
# (test/demo/demo.test.ts) on each, as the README offers both.
newest=${lines[-1]}
# Two suites of a line at a time (test/sequencer.cjs starts the slowest first): a suite mostly
# waits (on n8n's start, on polls), so two take little longer than one. Three of each line on 2
# cores only queue for the CPU: beside a busy loop (--e2e-under-load), load median 17.8 against
# 10 to 12 with two, suites took 1.5 to 2 times as long and 3 tests missed their deadlines
# (2026-12-05). E2E_WORKERS=<n> overrides it, for a larger machine.
E2E_WORKERS=${E2E_WORKERS:-2}
line_suites() {
  local suites="test/e2e test/demo/demo.test.ts"
  [ "$1" = "$newest" ] && suites+=" test/demo/signup-form.test.ts test/pictures/pictures.test.ts test/pictures/listen-for-test-event.test.ts"
  [ "$1" = "$oldest" ] && suites+=" test/pictures/first-contact.test.ts"
  echo "$suites"
}
line_e2e_command() { # version: the command line of its end-to-end phase
  echo "N8N_TIMINGS=$results/n8n-starts-$1.tsv $(jest_command "$1" "$results/jest-e2e-$1.json" --maxWorkers=$E2E_WORKERS $(line_suites "$1"))"
}

# `scripts/test.sh --e2e-under-load [runs]`: only the last phase (every line's suites, the lines side
# by side, as `npm test` runs them), `runs` times in a row (default 3), each beside a CPU burner,
# printing each run's time, failures and the load average it ran under. For a change to a suite's
# waits: none may pass or fail by the machine's speed. n8n and the services must be installed.
if [ "${1:-}" = --e2e-under-load ]; then
  runs=${2:-3} failed_runs=0
  for ((run = 1; run <= runs; run++)); do
    node -e 'for (;;);' &
    burner=$!
    (while sleep 15; do cut -d' ' -f1 /proc/loadavg; done) >"$results/load-$run.txt" &
    sampler=$! start=$SECONDS pids=()
    for version in "${lines[@]}"; do
      bash -c "$(line_e2e_command "$version")" \
        >"$results/line-$version-$run.log" 2>&1 &
      pids+=($!)
    done
    outcome=passed
    for pid in "${pids[@]}"; do wait "$pid" || outcome=FAILED; done
    kill "$burner" "$sampler"
    [ "$outcome" = passed ] || failed_runs=$((failed_runs + 1))
    echo "run $run of $runs: $outcome in $(elapsed "$start"); load average (1 min, every 15 s) $(sort -n "$results/load-$run.txt" | awk '{ a[NR] = $1 } END { printf "min %s, median %s, max %s", a[1], a[int((NR + 1) / 2)], a[NR] }')"
    for version in "${lines[@]}"; do
      echo "  n8n $version: $(grep -E '^Tests:' "$results/line-$version-$run.log")"
      grep -E '^FAIL |●.*›' "$results/line-$version-$run.log" | sed 's/^/    /' | head -20
    done
  done
  exit $((failed_runs > 0))
fi

if [ $# -gt 0 ]; then total=$((${#checks_first[@]} + ${#services[@]} + 2)); else
  total=$((${#checks_first[@]} + ${#services[@]} + 1 + 2 * ${#lines[@]})); fi
n=0
next() { n=$((n + 1)); }

run_step() { # number, name, what, command line
  local number=$1 name=$2 what=$3 command=$4
  local start=$SECONDS result
  echo
  echo "━━ [$number/$total] $name: $what"
  echo "   \$ $command"
  if bash -c "$command"; then result=passed; else result=FAILED; fi
  echo "━━ [$number/$total] $name $result ($(elapsed "$start"))"
  printf '%s\t%s\t%s\n' "$name" "$result" $((SECONDS - start)) >>"$checks"
  [ "$result" = passed ]
}

for step in "${checks_first[@]}"; do
  IFS='|' read -r name what command <<<"$step"
  next; run_step "$n" "$name" "$what" "$command"
done

if [ $# -gt 0 ]; then
  for step in "${services[@]}"; do
    IFS='|' read -r name what command <<<"$step"
    next; run_step "$n" "$name" "$what" "$command"
  done
  next; run_step "$n" n8n "install or verify n8n $oldest" "bash scripts/install-n8n.sh $oldest"
  next; run_step "$n" jest "the suites you named, against n8n $oldest" "$(jest_command "$oldest" "$results/jest.json" "$@")"
else
  # Phase 2 and 3. Each line's job: install its n8n, wait until the services are there, run its
  # suites. The installs wait for the checks: begun beside them (tried at 3c3346c), the first
  # install ended 23 s later than after them and the checks took 71 s instead of 40 (the machine's
  # 2 cores are 85-100 % busy through most of npm test).
  services_ready=$results/.services-ready
  rm -f "$services_ready"
  line_job() { # first step number, version, the install to wait for (a marker file, or empty)
    local number=$1 version=$2 after=$3 suites installed
    suites=$(line_suites "$version")
    if [ -n "$after" ]; then while [ ! -e "$after" ]; do sleep 2; done; fi
    run_step "$number" "n8n-$version" "install or verify n8n $version" "bash scripts/install-n8n.sh $version"
    installed=$?
    touch "$results/.installed-$version"
    if [ $installed -ne 0 ]; then
      echo "━━ [$((number + 1))/$total] e2e-$version FAILED (not run: n8n $version did not install)"
      printf '%s\t%s\t%s\n' "e2e-$version" FAILED 0 >>"$checks"
      return
    fi
    while [ ! -e "$services_ready" ]; do sleep 2; done
    run_step $((number + 1)) "e2e-$version" "the ${suites// /, } suites against n8n $version, $E2E_WORKERS at a time" \
      "$(line_e2e_command "$version")"
  }
  line_step=$((n + ${#services[@]} + 1))
  pids=() logs=() previous=""
  rm -f "$results"/.installed-*
  for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
    version=${lines[$i]} log=$results/line-${lines[$i]}.log
    line_job $((line_step + 2 * i + 1)) "$version" "$previous" >"$log" 2>&1 &
    pids+=($!) logs+=("$log") previous=$results/.installed-$version
  done
  echo
  echo "━━ n8n ${lines[*]}: installed one after the other (newest first), then tested side by side, each into $results/line-<version>.log (printed when it ends)"
  for step in "${services[@]}"; do
    IFS='|' read -r name what command <<<"$step"
    next; run_step "$n" "$name" "$what" "$command"
  done
  touch "$services_ready"
  next; run_step "$n" fast "unit, sandbox and engine suites (no n8n needed)" \
    "$(jest_command "$oldest" "$results/jest-fast.json" test/unit test/sandbox test/engine)"

  # Print each line's log once its job ends, the first to end first; meanwhile, once a minute, each
  # line's newest finished suite when it has changed.
  waited=$SECONDS
  declare -A shown=()
  while [ ${#pids[@]} -gt 0 ]; do
    for i in "${!pids[@]}"; do
      if ! kill -0 "${pids[$i]}" 2>/dev/null; then
        wait "${pids[$i]}"
        cat "${logs[$i]}"
        unset 'pids[i]' 'logs[i]'
      fi
    done
    pids=("${pids[@]}") logs=("${logs[@]}")
    [ ${#pids[@]} -gt 0 ] || break
    sleep 5
    if [ $((SECONDS - waited)) -ge 60 ]; then
      waited=$SECONDS
      for log in "${logs[@]}"; do
        latest=$(grep -E '^(PASS|FAIL) |━━ ' "$log" | tail -1 | cut -c1-100)
        [ "$latest" = "${shown[$log]:-}" ] || echo "  ... $(basename "$log" .log): $latest"
        shown[$log]=$latest
      done
    fi
  done
fi

echo
echo "npm test: $(elapsed 0) in all"
echo "checks: $(awk -F'\t' '{ printf "%s%s %s (%ss)", sep, $1, $2, $3; sep = " · " }' "$checks")"
[ "$(wc -l <"$checks")" -eq "$total" ] || { echo "only $(wc -l <"$checks") of $total checks ran"; exit 1; }
! grep -q $'\tFAILED\t' "$checks"
