#!/usr/bin/env bash
# Benchmark of sqlite_wal_history (no issue target names it; kept so its cost is known): an
# sms.db-like table of MESSAGES rows written into the write-ahead log (no checkpoint), then a
# tenth of them deleted and a tenth edited, copied with the log while open; the tool recovers
# the deleted rows and earlier versions from a fresh source (working copy included), against the
# sqlite3 CLI reading the same table (the log replayed) beside it — the ratio says how much more
# reading every earlier page version costs than reading the table once.
#
#   bench/wal.sh [MESSAGES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
messages="${1:-200000}"
runs="${2:-3}"
cargo build --release -p masf-tools --example wal_bench >/dev/null 2>&1
bin="$PWD/target/release/examples/wal_bench"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$messages" <<'PY'
import os, shutil, sqlite3, sys
out, n = sys.argv[1], int(sys.argv[2])
work = os.path.join(out, "work"); os.makedirs(work)
db = os.path.join(work, "sms.db")
con = sqlite3.connect(db, isolation_level=None)
con.execute("PRAGMA journal_mode=WAL"); con.execute("PRAGMA wal_autocheckpoint=0")
con.execute("CREATE TABLE message (ROWID INTEGER PRIMARY KEY, guid TEXT, text TEXT, handle_id INTEGER, date INTEGER, is_from_me INTEGER)")
con.execute("BEGIN")
con.executemany("INSERT INTO message VALUES (?, ?, ?, ?, ?, ?)",
                ((i, f"GUID-{i:08d}", f"message {i}: see you at the usual place at {i % 24}h", i % 50, 700000000000000000 + i, i % 2) for i in range(1, n + 1)))
con.execute("COMMIT")
con.execute("DELETE FROM message WHERE ROWID % 10 = 3")
con.execute("UPDATE message SET text = 'edited' WHERE ROWID % 10 = 7")
src = os.path.join(out, "src"); os.makedirs(src)
for s in ("", "-wal"):
    shutil.copyfile(db + s, os.path.join(src, "sms.db" + s))
con.close()
PY
wal=$(stat -c %s "$dir/src/sms.db-wal")
read -r tool_s rows < <("$bin" "$dir/src" sms.db message "$runs")
cli=()
for _ in $(seq "$runs"); do
  mkdir -p "$dir/cli" && cp "$dir/src/sms.db" "$dir/src/sms.db-wal" "$dir/cli/"
  start=$(date +%s.%N)
  sqlite3 "$dir/cli/sms.db" "SELECT * FROM message" > /dev/null
  end=$(date +%s.%N)
  cli+=("$(echo "$end - $start" | bc -l)")
  rm -rf "$dir/cli"
done
cli_s=$(printf '%s\n' "${cli[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
printf 'sqlite_wal_history on %s messages, a %s-byte log: %.3f s, %s rows recovered; sqlite3 CLI reading the table %.3f s; ratio %.2f\n' \
  "$messages" "$wal" "$tool_s" "$rows" "$cli_s" "$(echo "$tool_s / $cli_s" | bc -l)"
