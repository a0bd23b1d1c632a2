#!/usr/bin/env bash
# Runs the whole test suite: set-up, the web UI's unit tests and build (the desktop shell embeds
# ui/dist at compile time, so it comes before any cargo build), the formatting check, one build
# of every target of the workspace with clippy's lints, the integrity check of the committed
# fixtures, every test of the workspace, and the desktop app's end-to-end suite under Xvfb
# (screenshots and perf.json in target/e2e-screenshots/).
#
# A failing step does not stop the others: every step whose inputs are there runs, and the end
# is a table of each step's result and time, then the line `steps: N passed, N failed`. Only a
# failed set-up stops everything. The steps that compile the desktop shell (build+clippy, cargo test,
# e2e) need the UI build: if it failed they are reported `skipped (needs ui build)`. The exit
# status is non-zero when any step failed or was skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# A clean build does not need incremental caches (they only slow its writing); a developer's
# environment may set it back.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# "1m05s" for a number of seconds.
elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

started=$SECONDS
if ! scripts/setup.sh; then
  echo "test: set-up failed (scripts/setup.sh); nothing else was run" >&2
  exit 1
fi
echo "test: set-up done in $(elapsed $((SECONDS - started)))"
# A linker killed by SIGBUS, or "No space left on device", is a full disk, not the code: the
# free space is printed at the start and the end so that such a failure says so.
disk() { echo "test: free disk $1: $(df -h --output=avail . | tail -n 1 | tr -d ' ') in $(pwd)"; }
disk "at the start"

NAMES=() RESULTS=() TIMES=() NOTES=()
passed=0 failed=0 skipped=0

# record NAME RESULT SECONDS [NOTE]
record() {
  NAMES+=("$1") RESULTS+=("$2") TIMES+=("$3") NOTES+=("${4:-}")
  case "$2" in
    pass) passed=$((passed + 1)) ;;
    FAIL) failed=$((failed + 1)) ;;
    *) skipped=$((skipped + 1)) ;;
  esac
}

# step NAME COMMAND...: runs the command (its output as it comes), then records its result.
step() {
  local name=$1 t0=$SECONDS
  shift
  echo
  echo "==== test: $name ===="
  if "$@"; then
    record "$name" pass $((SECONDS - t0))
  else
    record "$name" FAIL $((SECONDS - t0))
  fi
}

skip() { record "$1" "skipped ($2)" 0; }

# ---- ui: unit tests, then the build (tried even when a test failed: the build is what the
# later steps need, and its own result tells whether they can run).
ui_built=false ui_failed=""
ui() {
  (cd ui && npm ci --no-audit --no-fund) || { ui_failed="npm ci"; return 1; }
  (cd ui && npm test) || ui_failed="unit tests"
  if (cd ui && npm run build); then ui_built=true; else ui_failed="${ui_failed:+$ui_failed, }build"; fi
  [ -z "$ui_failed" ]
}
step ui ui
[ -z "$ui_failed" ] || NOTES[${#NOTES[@]} - 1]="failed: $ui_failed"

step fmt cargo fmt --all -- --check

# One compilation serves lint, tests and the e2e app: the workspace's own crates are compiled by
# clippy-driver (what `cargo clippy` runs, here as the compiler of a full build rather than of a
# check), with `cargo clippy -- -D warnings`'s arguments, and every later cargo command sees the
# same wrapper, so nothing is compiled twice (a separate `cargo clippy` re-checked every
# dependency, minutes on two cores). `cargo clippy --workspace --all-targets -- -D warnings`
# finds exactly what this step finds.
lint_with_clippy() {
  RUSTC_WORKSPACE_WRAPPER="$(rustc --print sysroot)/bin/clippy-driver"
  CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
  export RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
}
lint_with_clippy
if $ui_built; then
  step "build+clippy" cargo test --locked --workspace --all-targets --no-run
  if [ "${RESULTS[${#RESULTS[@]} - 1]}" != pass ]; then
    # A lint (or a compile error) stops the crates that depend on it: the tests are built
    # without the lints so that they still say what works.
    unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
  fi
else
  skip "build+clippy" "needs ui build"
fi

step fixtures tests/fixtures/check-fixtures.sh

# cargo test: its output is kept so that its totals can be repeated at the end.
cargo_log=$(mktemp "${TMPDIR:-/tmp}/masf-cargo-test.XXXXXX")
trap 'rm -f "$cargo_log"' EXIT
# --no-fail-fast: every test runs, so one failing crate does not hide the others. With
# cargo-nextest (on the machine's toolchain) every test is its own process and the tests of all
# binaries share the cores, so a binary's last slow test no longer leaves a core idle while the
# next binary waits (measured: 316 s against cargo test's 335 s for the same build); it does not
# run doctests, so `cargo test --doc` follows. Without nextest, cargo test runs everything.
cargo_test() {
  if cargo nextest --version >/dev/null 2>&1; then
    local rc=0
    cargo nextest run --locked --workspace --no-fail-fast 2>&1 | tee "$cargo_log" || rc=1
    cargo test --locked --workspace --doc 2>&1 | tee -a "$cargo_log" || rc=1
    return $rc
  fi
  cargo test --locked --workspace --no-fail-fast 2>&1 | tee "$cargo_log"
}
if $ui_built; then
  step "cargo test" cargo_test
  # The runners' closing lines summed: nextest's `Summary [ 316.0s] 1325 tests run: 1325
  # passed, 0 skipped` (failed and skipped counted when there are any), libtest's `test result:
  # ok. 39 passed; 0 failed; …` (the doctests', or every binary's without nextest).
  totals=$(awk '/^test result:/ {
      for (i = 1; i <= NF; i++) {
        if ($(i) ~ /^passed;?$/) p += $(i - 1)
        if ($(i) ~ /^failed;?$/) f += $(i - 1)
        if ($(i) ~ /^ignored;?$/) g += $(i - 1)
      }
      n++
    }
    / Summary \[/ && / tests run: / {
      for (i = 1; i <= NF; i++) {
        if ($(i) ~ /^passed,?$/) p += $(i - 1)
        if ($(i) ~ /^failed,?$/) f += $(i - 1)
        if ($(i) ~ /^skipped,?$/) g += $(i - 1)
      }
      x = 1
    }
    END {
      if (n || x) printf "%d passed; %d failed; %d ignored or skipped%s", p, f, g, (x ? " (nextest, then the doctests)" : " in " n " test binaries")
    }' "$cargo_log")
  NOTES[${#NOTES[@]} - 1]="$totals"
else
  skip "cargo test" "needs ui build"
fi

if $ui_built; then
  step e2e tests/e2e/run.sh
else
  skip e2e "needs ui build"
fi

# ---- summary
echo
echo "==== test: summary ===="
if [ -s "$cargo_log" ]; then
  echo "cargo test, its closing lines:"
  grep -v '^\s*$' "$cargo_log" | tail -n 4 | sed 's/^/  /'
fi
printf '%-13s %-26s %8s  %s\n' step result time notes
for i in "${!NAMES[@]}"; do
  printf '%-13s %-26s %8s  %s\n' "${NAMES[$i]}" "${RESULTS[$i]}" "$(elapsed "${TIMES[$i]}")" "${NOTES[$i]}"
done
if [ "$skipped" -gt 0 ]; then
  echo "total: $(elapsed $((SECONDS - started))); $skipped step(s) skipped"
else
  echo "total: $(elapsed $((SECONDS - started)))"
fi
disk "at the end"
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ]
