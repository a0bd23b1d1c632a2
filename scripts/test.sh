#!/usr/bin/env bash
# Runs the whole test suite: set-up, the web UI's unit tests and build (the desktop shell embeds
# ui/dist at compile time, so it comes before any cargo build), formatting and lint checks,
# every test of the workspace, the integrity check of the committed fixtures, and the desktop
# app's end-to-end suite under Xvfb (screenshots and perf.json in target/e2e-screenshots/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
(cd ui && npm ci --no-audit --no-fund && npm test && npm run build)
cargo fmt --all -- --check
cargo clippy --locked --workspace --all-targets -- -D warnings
tests/fixtures/check-fixtures.sh
cargo test --locked --workspace
tests/e2e/run.sh
