#!/usr/bin/env bash
# Runs the demo case: set-up, build, then
# - with a display ($DISPLAY or $WAYLAND_DISPLAY set): the desktop app opened on case.yaml (press
#   Run in its Live run view);
# - without one (or with --headless): `masf run case.yaml` headless, then `masf status`.
# Work files go to .masf/ and the report to masf-report/ (both beside case.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
headless=0
if [ "${1:-}" = "--headless" ]; then
  headless=1
  shift
fi
if [ "$headless" = 0 ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  (cd ui && npm ci --no-audit --no-fund && npm run build)
  cargo build --release --locked -p masf-desktop
  TARGET="${CARGO_TARGET_DIR:-target}"
  exec "$TARGET/release/masf-desktop" "$PWD/case.yaml"
fi
cargo build --release --locked -p masf-cli
TARGET="${CARGO_TARGET_DIR:-target}"
"$TARGET/release/masf" run case.yaml "$@"
"$TARGET/release/masf" status case.yaml
