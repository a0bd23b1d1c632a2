#!/usr/bin/env bash
# Generator for bench/android.sh: an Android data extraction (as `adb pull` or a tool's zip gives
# it) with FILES files and an mmssms.db holding MESSAGES SMS, written by the real tools: the
# sqlite3 CLI with the real telephony-provider schema of tests/fixtures/demo/schema/mmssms.sql
# (triggers left out while loading), and Info-ZIP `zip`.
#
#   bench/android_gen.sh DIR FILES MESSAGES
#
# Writes DIR/tree (the extracted tree) and DIR/android.zip; prints one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$1"
files="$2"
messages="$3"
tree="$dir/tree"
rm -rf "$tree" "$dir/android.zip"
tel="$tree/data/data/com.android.providers.telephony/databases"
mkdir -p "$tel"
strip() { grep -v '^--' "$1" | grep -v '^CREATE TRIGGER'; }
strip tests/fixtures/demo/schema/mmssms.sql | sqlite3 "$tel/mmssms.db"
sqlite3 "$tel/mmssms.db" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $messages)
INSERT INTO sms (_id, thread_id, address, date, date_sent, read, type, body, seen)
SELECT i, 1 + i % 50, '+8529' || printf('%07d', 1000000 + i % 50), 1700000000000 + i * 1000,
       1700000000000 + i * 1000 - 500, 1, 1 + i % 2,
       'Message ' || i || ': the shipment leaves at ' || (i % 24) || ':00, pay the balance first', 1
FROM n;
SQL
media="$tree/media/0/DCIM/Camera"
mkdir -p "$media"
python3 - "$media" "$((files - 1))" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, f"{i // 1000:03d}")
    if i % 1000 == 0:
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"IMG_{i:06d}.bin"), "wb") as f:
        f.write(i.to_bytes(4, "little") * 16)
PY
(cd "$tree" && zip -q -r -1 ../android.zip .)
total=$(cd "$tree" && find . -type f | wc -l)
echo "android_gen: $total files, $messages SMS, zip $(du -h "$dir/android.zip" | cut -f1)"
