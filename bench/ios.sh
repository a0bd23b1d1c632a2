#!/usr/bin/env bash
# Benchmark (issue 5): triage of an iOS-like zip with 50,000 files and an sms.db of 200,000
# messages through the real runtime (scan, detection, ios-triage on a case store): seconds and
# files/s; and the sms.db message query through our sqlite_query path (-wal included, TSV
# rendering) against the sqlite3 CLI running the same statement on the extracted file, two pages
# of 100,000 rows each (the tool's row limit): with the source's working copy reused (every call
# after a source's first on that db), and cold (copy out of the zip included) against
# `unzip -p` + the CLI. Target: ratio <= 1.5.
#
#   bench/ios.sh [FILES] [MESSAGES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
files="${1:-50000}"
messages="${2:-200000}"
runs="${3:-3}"
cargo build --release -p masf-plugins --example ios_bench >/dev/null 2>&1
bin="$PWD/target/release/examples/ios_bench"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
# The iOS-like zip and its extracted tree (generator shared with bench/run.sh).
bench/ios_gen.sh "$dir" "$files" "$messages"
total=$(cd "$dir/tree" && find . -type f | wc -l)
db="$dir/tree/private/var/mobile/Library/SMS/sms.db"
"$bin" "$dir/ios.zip" "$db" "$runs" "$total"
