#!/usr/bin/env bash
# Benchmark: decrypting a SQLCipher database of Signal for Android's settings (ROWS message rows,
# the last 5% only in its -wal) into a plain SQLite file, as `sqlite_query`'s `cipher` does
# (`masf_evidence::sqlcipher`, every page's HMAC checked, the log replayed), against the
# sqlcipher CLI's own `sqlcipher_export` of the same file and log into a plain database, side by
# side in one run; prints the ratio of median times. Both read from the page cache and write a
# plain file of the same pages. Reference, not a target of the issue: a decrypted copy should
# cost no more than SQLCipher's own export.
#
#   bench/sqlcipher.sh [ROWS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-200000}"
runs="${2:-3}"
command -v sqlcipher >/dev/null || { echo "sqlcipher CLI missing: run scripts/setup.sh" >&2; exit 1; }
cargo build --release --locked -p masf-evidence --example sqlcipher_decrypt >/dev/null
ours="$PWD/target/release/examples/sqlcipher_decrypt"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
key=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
pragmas="PRAGMA key = '$key'; PRAGMA cipher_page_size = 4096; PRAGMA kdf_iter = 1;"
head_rows=$((rows * 95 / 100))
(cd "$dir" && sqlcipher work.db > /dev/null <<SQL
$pragmas
PRAGMA journal_mode = WAL;
PRAGMA wal_autocheckpoint = 0;
CREATE TABLE message (_id INTEGER PRIMARY KEY, date_sent INTEGER, thread_id INTEGER, type INTEGER, body TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $head_rows)
  INSERT INTO message SELECT i, 1700000000000 + i * 1000, i % 50, 10485780 + (i % 2) * 3, 'message ' || i || ' ' || hex(randomblob(24)) FROM n;
PRAGMA wal_checkpoint(TRUNCATE);
WITH RECURSIVE n(i) AS (SELECT $head_rows + 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
  INSERT INTO message SELECT i, 1700000000000 + i * 1000, i % 50, 10485780, 'in the log ' || i FROM n;
.shell cp work.db signal.db && cp work.db-wal signal.db-wal
SQL
)
cat "$dir/signal.db" "$dir/signal.db-wal" > /dev/null   # warm the page cache

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
time_one() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
# the CLI checkpoints and removes the log of the file it opens: it exports a fresh copy each run
export_one() {
  rm -f "$dir/c.db" "$dir/c.db-wal" "$dir/c.db-shm" "$dir/cli.db"
  cp "$dir/signal.db" "$dir/c.db" && cp "$dir/signal.db-wal" "$dir/c.db-wal"
  (cd "$dir" && time_one sqlcipher c.db "$pragmas ATTACH DATABASE 'cli.db' AS plaintext KEY ''; SELECT sqlcipher_export('plaintext'); DETACH DATABASE plaintext;")
}

ours_t=(); cli_t=()
for _ in $(seq "$runs"); do
  rm -f "$dir/ours.db"
  ours_t+=("$(time_one "$ours" "$dir/signal.db" "$key" "$dir/ours.db")")
  cli_t+=("$(export_one)")
done
# the same rows either way
a=$(sqlite3 "$dir/ours.db" 'SELECT count(*), sum(length(body)) FROM message')
b=$(sqlite3 "$dir/cli.db" 'SELECT count(*), sum(length(body)) FROM message')
[ "$a" = "$b" ] || { echo "the decrypted copies differ: $a vs $b" >&2; exit 1; }
o=$(printf '%s\n' "${ours_t[@]}" | median)
c=$(printf '%s\n' "${cli_t[@]}" | median)
mib=$(echo "($(stat -c %s "$dir/signal.db") + $(stat -c %s "$dir/signal.db-wal")) / 1048576" | bc -l)
printf 'database            %d rows (%s), %.1f MiB with its log, %d runs each, medians\n' "$rows" "$a" "$mib" "$runs"
printf 'masf decrypt        %.3f s  (%s)\n' "$o" "$("$ours" "$dir/signal.db" "$key" "$dir/ours.db")"
printf 'sqlcipher_export    %.3f s\n' "$c"
printf 'ratio masf/sqlcipher = %.2f\n' "$(echo "$o / $c" | bc -l)"
