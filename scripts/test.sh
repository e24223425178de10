#!/usr/bin/env bash
# `npm test`: every check, in order, each announced and timed, then every jest suite against the
# oldest tested n8n line, then the end-to-end and demo suites again against each newer line
# (scripts/n8n/lines.json; N8N_VERSION chooses the line for the test support).
# It does not rely on npm's pre/post scripts (this project's .npmrc sets ignore-scripts=true, under
# which npm runs none). Every check runs even when an earlier one failed, so one run shows them all;
# the exit status is non-zero if any failed. Arguments are passed to jest; with arguments, only the
# first jest run (oldest line) runs.
# Writes test-results/checks.tsv (check, result, seconds), test-results/jest.json (oldest line)
# and test-results/jest-e2e-<version>.json (each newer line).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

export NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}" no_proxy="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}"
mkdir -p test-results
checks=test-results/checks.tsv
: >"$checks"
rm -f test-results/jest*.json
mapfile -t lines < <(node scripts/n8n/line.cjs versions)

steps=(
  "build|n8n-node build && gulp (compile, copy icons, load every node and credential)|npm run -s build"
  "lint|n8n-node lint (n8n's community-node rules)|npm run -s lint"
  "typecheck|tsc -p test/tsconfig.json (sources, tests, bench)|npm run -s typecheck"
  "scan|n8n's community-package scanner on the packed tarball and the sources|npm run -s scan"
  "n8n|install or verify every tested n8n line (${lines[*]}) for the end-to-end tests|bash scripts/install-n8n.sh"
  "chromium|install or verify Chromium for the screenshot test|bash scripts/install-chromium.sh"
  "queue|install or verify Postgres, Redis and nginx for the queue-mode tests|bash scripts/install-queue-services.sh"
)
newer=("${lines[@]:1}")
[ $# -gt 0 ] && newer=()
total=$((${#steps[@]} + 1 + ${#newer[@]}))
run_step() { # number, name, what, command line
  local n=$1 name=$2 what=$3 command=$4
  local start=$SECONDS
  echo
  echo "━━ [$n/$total] $name: $what"
  echo "   \$ $command"
  if bash -c "$command"; then result=passed; else result=FAILED; fi
  echo "━━ [$n/$total] $name $result ($(elapsed "$start"))"
  printf '%s\t%s\t%s\n' "$name" "$result" $((SECONDS - start)) >>"$checks"
}

n=0
for step in "${steps[@]}"; do
  IFS='|' read -r name what command <<<"$step"
  n=$((n + 1))
  run_step "$n" "$name" "$what" "$command"
done
n=$((n + 1))
run_step "$n" jest "unit, sandbox, engine, end-to-end, demo and pictures suites, against n8n ${lines[0]}" \
  "N8N_VERSION=${lines[0]} npx --no-install jest --json --outputFile=test-results/jest.json$(printf ' %q' "$@")"
for version in "${newer[@]}"; do
  n=$((n + 1))
  run_step "$n" "e2e-$version" "the end-to-end and demo suites against n8n $version" \
    "N8N_VERSION=$version npx --no-install jest test/e2e test/demo --json --outputFile=test-results/jest-e2e-$version.json"
done

echo
echo "checks: $(awk -F'\t' '{ printf "%s%s %s (%ss)", sep, $1, $2, $3; sep = " · " }' "$checks")"
! grep -q $'\tFAILED\t' "$checks"
