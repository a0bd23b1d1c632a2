#!/usr/bin/env bash
# Shared generator (used by bench/ios.sh and bench/run.sh): an iOS-like full-file-system zip with
# FILES files in a device-like layout and an sms.db holding MESSAGES generated messages, written by
# the real tools (sqlite3 CLI with the real Messages layout of tests/fixtures/demo/schema/sms.sql,
# Info-ZIP `zip`, deflated as extraction tools write).
#
#   bench/ios_gen.sh DIR FILES MESSAGES [BASE_ZIP]
#
# Without BASE_ZIP: a fresh sms.db (triggers left out) with 50 handles and chats and MESSAGES
# messages, plus FILES-1 small files. With BASE_ZIP (e.g. the demo's iphone_ffs.zip): the base
# extraction is unpacked first and grown: 50 handles/chats and MESSAGES messages are added to
# the main file of its sms.db after its own rows (with its triggers); rows the base had only in
# its -wal are written again into a new -wal on top, so they stay WAL-only; and small files are
# added until the tree holds FILES files. Writes DIR/tree (the extracted tree) and DIR/ios.zip; prints one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$1"
files="$2"
messages="$3"
base="${4:-}"
tree="$dir/tree"
db="$tree/private/var/mobile/Library/SMS/sms.db"
rm -rf "$tree" "$dir/ios.zip"
mkdir -p "$tree"
if [[ -n "$base" ]]; then
  unzip -q "$base" -d "$tree"
fi
mkdir -p "$(dirname "$db")"

if [[ ! -f "$db" ]]; then
  python3 - "$PWD/tests/fixtures/demo/schema/sms.sql" > "$dir/schema.sql" <<'PY'
import re, sys
text = "\n".join(l for l in open(sys.argv[1]).read().splitlines() if not l.startswith("--"))
for s in re.split(r";\s*\n", text):
    s = s.strip()
    if s and not s.upper().startswith("CREATE TRIGGER"):
        print(s + ";")
PY
  sqlite3 "$db" ".read $dir/schema.sql"
fi

# A base sms.db with a -wal: fold a scratch copy (full view) and keep a copy of the main file
# alone, take the WAL away from the tree, grow the main file, then re-add the rows that existed
# only in the WAL as a new WAL on top, so they stay WAL-only (as on the device, where the bulk of
# the messages is in the main file). Rows the base WAL changes or deletes are not supported.
src=main
scratch="$dir/wal-scratch"
rm -rf "$scratch"
if [[ -f "$db-wal" ]]; then
  src=f
  mkdir -p "$scratch"
  cp "$db" "$scratch/main.db"
  cp "$db" "$scratch/full.db"
  cp "$db-wal" "$scratch/full.db-wal"
  sqlite3 "$scratch/full.db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
  rm -f "$db-wal" "$db-shm"
  tables=$(sqlite3 "$scratch/main.db" \
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
     ORDER BY name LIKE '%_join', name")
  for t in $tables; do
    n=$(sqlite3 "$scratch/main.db" "ATTACH '$scratch/full.db' AS f;
      SELECT COUNT(*) FROM (SELECT rowid, * FROM main.\"$t\" EXCEPT SELECT rowid, * FROM f.\"$t\")")
    if [[ "$n" != 0 ]]; then
      echo "ios_gen.sh: the base WAL changes or deletes $n row(s) of $t; not supported" >&2
      exit 1
    fi
  done
fi

# 50 handles and chats and MESSAGES messages with iOS 11+ nanosecond dates, numbered after every
# row already there (h0, c0, m0; WAL rows included). Committed to the main file.
sqlite3 "$db" >/dev/null <<SQL
$([[ $src == f ]] && echo "ATTACH '$scratch/full.db' AS f;")
BEGIN;
CREATE TEMP TABLE base AS
  SELECT (SELECT COALESCE(MAX(ROWID), 0) FROM $src.handle) AS h0,
         (SELECT COALESCE(MAX(ROWID), 0) FROM $src.chat) AS c0,
         (SELECT COALESCE(MAX(ROWID), 0) FROM $src.message) AS m0;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
INSERT INTO main.handle (ROWID, id, country, service)
  SELECT h0 + i, '+8526' || printf('%07d', i), 'hk', 'iMessage' FROM n, base;
INSERT INTO main.chat (ROWID, guid, style, state, chat_identifier, service_name, account_login)
  SELECT c0 + h.ROWID - h0, 'iMessage;-;' || h.id, 45, 3, h.id, 'iMessage', 'E:owner@example.org'
  FROM main.handle h, base WHERE h.ROWID > h0;
INSERT INTO main.chat_handle_join (chat_id, handle_id)
  SELECT c0 + h.ROWID - h0, h.ROWID FROM main.handle h, base WHERE h.ROWID > h0;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $messages)
INSERT INTO main.message (ROWID, guid, text, handle_id, service, account, date, is_from_me, is_finished)
  SELECT m0 + i, printf('%08X-0000-4000-8000-%012d', i, i),
         'Message number ' || i || ' about the 12,500 USDT transfer, see you at the desk',
         h0 + 1 + i % 50, 'iMessage', 'e:owner@example.org', 700000000000000000 + i * 60000000000,
         i % 2, 1 FROM n, base;
INSERT INTO main.chat_message_join (chat_id, message_id)
  SELECT c0 + m.handle_id - h0, m.ROWID FROM main.message m, base WHERE m.ROWID > m0;
COMMIT;
SQL

# The base's WAL-only rows again, into a WAL that is neither checkpointed nor removed on close.
if [[ $src == f ]]; then
  {
    echo ".dbconfig no_ckpt_on_close on"
    echo "PRAGMA wal_autocheckpoint = 0;"
    echo "ATTACH '$scratch/main.db' AS m; ATTACH '$scratch/full.db' AS f;"
    echo "BEGIN;"
    for t in $tables; do
      echo "INSERT INTO main.\"$t\" SELECT * FROM f.\"$t\" WHERE rowid NOT IN (SELECT rowid FROM m.\"$t\");"
    done
    echo "COMMIT;"
  } | sqlite3 "$db" >/dev/null
  # Check: the main file alone lacks exactly the WAL-only messages.
  cp "$db" "$scratch/check.db"
  alone=$(sqlite3 "$scratch/check.db" "SELECT COUNT(*) FROM message")
  full=$(sqlite3 "$scratch/full.db" "SELECT COUNT(*) FROM message")
  base_alone=$(sqlite3 "$scratch/main.db" "SELECT COUNT(*) FROM message")
  if [[ "$alone" != "$((base_alone + messages))" ]]; then
    echo "ios_gen.sh: main file holds $alone messages, expected $((base_alone + messages))" >&2
    exit 1
  fi
  echo "sms.db: $((full - base_alone)) base message(s) kept WAL-only" >&2
  rm -rf "$scratch"
fi

# Small files in a device-like layout until the tree holds FILES files, then the zip.
have=$(cd "$tree" && find . -type f | wc -l)
python3 - "$tree" "$((files - have))" <<'PY'
import os, random, sys
root, files = sys.argv[1], int(sys.argv[2])
r = random.Random(7)
apps = ['%08X-%04X-4%03X-8%03X-%012X' % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
        r.getrandbits(12), r.getrandbits(48)) for _ in range(60)]
subs = ['Caches', 'Preferences', 'Application Support', 'Cookies', 'WebKit/WebsiteData',
        'SplashBoard/Snapshots', 'Saved Application State', 'Logs', 'Databases', 'Documents/Inbox']
for i in range(max(files, 0)):
    d = i // 10
    p = os.path.join(root, f'private/var/mobile/Containers/Data/Application/{apps[d // 100 % 60]}/'
                     f'Library/{subs[d % 100 // 10]}/{d % 10:02d}/file{i:05d}.txt')
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'w') as f:
        f.write('x' * r.randint(10, 400))
PY
zip_abs="$(cd "$dir" && pwd)/ios.zip"
(cd "$tree" && zip -q -r "$zip_abs" -- *)
total=$(cd "$tree" && find . -type f | wc -l)
count=$(sqlite3 "file:$db?mode=ro" "SELECT COUNT(*) FROM message" 2>/dev/null || echo "?")
echo "zip: $(du -h "$zip_abs" | cut -f1), $total files, sms.db $(du -h "$db" | cut -f1)" \
     "(-wal $(du -h "$db-wal" 2>/dev/null | cut -f1 || echo none)) with $count messages"
