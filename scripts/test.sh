#!/usr/bin/env bash
# Runs the whole test suite: set-up, formatting and lint checks, every test of the workspace,
# and the integrity check of the committed fixtures.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
cargo fmt --all -- --check
cargo clippy --locked --workspace --all-targets -- -D warnings
tests/fixtures/check-fixtures.sh
cargo test --locked --workspace
