#!/usr/bin/env bash
# Runs the demo case: set-up, build, `masf run case.yaml` headless end to end (work files in
# .masf/, the report in masf-report/, both beside case.yaml), then `masf status`; then, when a
# display exists ($DISPLAY or $WAYLAND_DISPLAY set, and no --headless), opens the desktop app on
# the same case, where its findings, hypotheses, entities, timeline and report can be explored
# (and Run pressed again).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
headless=0
if [ "${1:-}" = "--headless" ]; then
  headless=1
  shift
fi
TARGET="${CARGO_TARGET_DIR:-target}"
cargo build --release --locked -p masf-cli
"$TARGET/release/masf" run case.yaml "$@"
"$TARGET/release/masf" status case.yaml
if [ "$headless" = 0 ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  (cd ui && npm ci --no-audit --no-fund && npm run build)
  cargo build --release --locked -p masf-desktop
  exec "$TARGET/release/masf-desktop" "$PWD/case.yaml"
fi
