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
tree="$dir/tree"
db="$tree/private/var/mobile/Library/SMS/sms.db"
mkdir -p "$(dirname "$db")"

# sms.db with the real Messages layout (tests/fixtures/demo/schema/sms.sql, triggers left out),
# filled by the sqlite3 CLI: 50 handles and chats, MESSAGES messages with iOS 11+ nanosecond dates.
python3 - "$PWD/tests/fixtures/demo/schema/sms.sql" > "$dir/schema.sql" <<'PY'
import re, sys
text = "\n".join(l for l in open(sys.argv[1]).read().splitlines() if not l.startswith("--"))
for s in re.split(r";\s*\n", text):
    s = s.strip()
    if s and not s.upper().startswith("CREATE TRIGGER"):
        print(s + ";")
PY
sqlite3 "$db" <<SQL
.read $dir/schema.sql
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
INSERT INTO handle (ROWID, id, country, service) SELECT i, '+8526' || printf('%07d', i), 'hk', 'iMessage' FROM n;
INSERT INTO chat (ROWID, guid, style, state, chat_identifier, service_name, account_login)
  SELECT ROWID, 'iMessage;-;' || id, 45, 3, id, 'iMessage', 'E:owner@example.org' FROM handle;
INSERT INTO chat_handle_join (chat_id, handle_id) SELECT ROWID, ROWID FROM handle;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $messages)
INSERT INTO message (ROWID, guid, text, handle_id, service, account, date, is_from_me, is_finished)
  SELECT i, printf('%08X-0000-4000-8000-%012d', i, i),
         'Message number ' || i || ' about the 12,500 USDT transfer, see you at the desk',
         1 + i % 50, 'iMessage', 'e:owner@example.org', 700000000000000000 + i * 60000000000,
         i % 2, 1 FROM n;
INSERT INTO chat_message_join (chat_id, message_id) SELECT handle_id, ROWID FROM message;
COMMIT;
SQL

# FILES small files in a device-like layout, then the zip (deflated, as extraction tools write).
python3 - "$tree" "$files" <<'PY'
import os, random, sys
root, files = sys.argv[1], int(sys.argv[2])
r = random.Random(7)
apps = ['%08X-%04X-4%03X-8%03X-%012X' % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
        r.getrandbits(12), r.getrandbits(48)) for _ in range(60)]
subs = ['Caches', 'Preferences', 'Application Support', 'Cookies', 'WebKit/WebsiteData',
        'SplashBoard/Snapshots', 'Saved Application State', 'Logs', 'Databases', 'Documents/Inbox']
for i in range(files - 1):
    d = i // 10
    p = os.path.join(root, f'private/var/mobile/Containers/Data/Application/{apps[d // 100 % 60]}/'
                     f'Library/{subs[d % 100 // 10]}/{d % 10:02d}/file{i:05d}.txt')
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'w') as f:
        f.write('x' * r.randint(10, 400))
PY
(cd "$tree" && zip -q -r "$dir/ios.zip" private)
total=$(cd "$tree" && find . -type f | wc -l)
echo "zip: $(du -h "$dir/ios.zip" | cut -f1), $total files, sms.db $(du -h "$db" | cut -f1) with $messages messages"
"$bin" "$dir/ios.zip" "$db" "$runs" "$total"
