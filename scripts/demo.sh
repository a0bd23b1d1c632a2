#!/usr/bin/env bash
# Runs the demo case end to end, headless: set-up, build, `masf run case.yaml`.
# Work files go to .masf/ and the report to masf-report/ (both beside case.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release --locked -p masf-cli
./target/release/masf run case.yaml "$@"
./target/release/masf status case.yaml
