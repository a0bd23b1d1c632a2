#!/usr/bin/env bash
# Benchmark (issue 17, the Android twin of bench/ios.sh): triage of an Android data extraction
# zip with 50,000 files and an mmssms.db of 200,000 SMS through the real runtime (scan,
# detection, android-triage on a case store): seconds, files/s and the process's peak memory
# (targets: under 2 min and 1 GiB); then the SMS query of the Android plugin through our
# sqlite_query path against the sqlite3 CLI running the same statements on the extracted file,
# two pages of 100,000 rows (ratio printed).
#
#   bench/android.sh [FILES] [MESSAGES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
files="${1:-50000}"
messages="${2:-200000}"
runs="${3:-3}"
cargo build --release -p masf-plugins --example android_bench >/dev/null 2>&1
bin="$PWD/target/release/examples/android_bench"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
bench/android_gen.sh "$dir" "$files" "$messages"
total=$(cd "$dir/tree" && find . -type f | wc -l)
"$bin" "$dir/android.zip" "$dir/tree/data/data/com.android.providers.telephony/databases/mmssms.db" "$runs" "$total"
