#!/usr/bin/env bash
# Runs the test suite several times in a row while stress-ng keeps every core busy, as a build
# running beside it would: the suite's verdict must not depend on how fast the machine is
# (issue 23). Prints each run's result, time and the load average at its end, then the line
# `runs: N passed, N failed`; exits non-zero if any run failed.
#
#   scripts/stress-test.sh                          # 3 runs of scripts/test.sh
#   scripts/stress-test.sh 5                        # 5 runs
#   scripts/stress-test.sh 3 -- bash -c 'cd ui && npm test'     # any other command
#
# STRESS_CPUS sets the number of CPU hogs (default: one per core, `nproc`). Each run's output
# is kept in target/stress/run-N.log (the last lines are shown here).
set -uo pipefail
cd "$(dirname "$0")/.."

runs=3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  runs=$1
  shift
fi
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || set -- scripts/test.sh
case "$runs" in '' | *[!0-9]*) echo "stress-test: RUNS must be a number, not '$runs'" >&2; exit 2 ;; esac

command -v stress-ng >/dev/null || { echo "stress-test: stress-ng not found (scripts/setup.sh installs it)" >&2; exit 1; }
cpus=${STRESS_CPUS:-$(nproc)}
logs=target/stress
mkdir -p "$logs"

# The hogs run until this script ends (timeout 0: no limit of their own), stopped by their pid.
stress-ng --cpu "$cpus" --timeout 0 --quiet &
stress_pid=$!
trap 'kill "$stress_pid" 2>/dev/null; wait "$stress_pid" 2>/dev/null' EXIT
echo "stress-test: stress-ng --cpu $cpus (pid $stress_pid); $runs run(s) of: $*"

elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
passed=0 failed=0 lines=()
for i in $(seq 1 "$runs"); do
  log="$logs/run-$i.log"
  echo "stress-test: run $i/$runs started $(date +%H:%M:%S); output in $log"
  t0=$SECONDS
  if "$@" >"$log" 2>&1; then result=pass passed=$((passed + 1)); else result=FAIL failed=$((failed + 1)); fi
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  lines+=("$(printf 'run %-3s %-5s %8s  load average at its end: %s' "$i" "$result" "$(elapsed $((SECONDS - t0)))" "$load")")
  echo "stress-test: run $i/$runs: $result in $(elapsed $((SECONDS - t0))); its last lines:"
  tail -n 12 "$log" | sed 's/^/  | /'
done

echo
echo "==== stress-test: summary ($cpus CPU hogs) ===="
printf '%s\n' "${lines[@]}"
echo "runs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
