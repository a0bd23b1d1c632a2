#!/usr/bin/env bash
# Runs the desktop app's end-to-end suite: the REAL built app (target/debug/masf-desktop, built
# against ui/dist) driven through tauri-driver + WebKitWebDriver under Xvfb. Screenshots of every
# step and perf.json (start → interactive, backend event → shown, 100,000 events) are left in
# target/e2e-screenshots/.
#
#   tests/e2e/run.sh            # builds what is missing, then runs the scenario
set -euo pipefail
cd "$(dirname "$0")/../.."
TARGET="${CARGO_TARGET_DIR:-target}"
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

[ -f ui/dist/index.html ] || { echo "e2e: ui/dist is missing: run (cd ui && npm ci && npm run build)" >&2; exit 1; }
# The whole workspace's binaries and examples, not just the two the suite runs: selecting
# packages (-p) resolves features for them alone, which gave 14 dependencies other feature sets
# than `cargo test --workspace` and recompiled the desktop stack (minutes in CI). Over the whole
# workspace the feature sets are those of the test build, so this reuses it and only links.
cargo build --locked --workspace --bins --examples

TAURI_DRIVER="$(command -v tauri-driver || true)"
[ -n "$TAURI_DRIVER" ] || TAURI_DRIVER="$HOME/.cargo/bin/tauri-driver"
[ -x "$TAURI_DRIVER" ] || { echo "e2e: tauri-driver not found (scripts/setup.sh installs it)" >&2; exit 1; }
command -v WebKitWebDriver >/dev/null || { echo "e2e: WebKitWebDriver not found (apt webkit2gtk-driver)" >&2; exit 1; }

export MASF_DESKTOP="${MASF_DESKTOP:-$TARGET/debug/masf-desktop}"
export MASF_LOAD_EVENTS="${MASF_LOAD_EVENTS:-$TARGET/debug/examples/load_events}"
export TAURI_DRIVER
export E2E_OUT="${E2E_OUT:-$PWD/target/e2e-screenshots}"
# A private X server and D-Bus session (AT-SPI). Note: WEBKIT_DISABLE_COMPOSITING_MODE=1 makes
# WebKitWebDriver's screenshots hang; leave it unset.
unset WEBKIT_DISABLE_COMPOSITING_MODE
exec xvfb-run -a -s "-screen 0 1366x768x24" dbus-run-session -- node tests/e2e/e2e.mjs
