//! Apple Mail's index (`ios::mail`) at parity with iLEAPP's `mailprotect` on the 4,040 mails of
//! Josh Hickman's iOS 17 iPhone, whose recorded results the corpus holds (not its databases):
//! an `Envelope Index` (messages, mailboxes, recipients, message_attachments, attachments) and a
//! `Protected Index` (addresses, subjects, summaries) are written by Python's sqlite3 from those
//! rows, read in place from the corpus — each value back in its stored form (Unix seconds, the
//! To recipients as `type` 1, attachments by global message id) — and triaged: every row and
//! field iLEAPP reports is found. It also proves the row cap holds a real phone's mailbox.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::android_support::triage;

const WRITE: &str = r#"
import calendar, json, os, sqlite3, sys, time
out, rows = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
env = sqlite3.connect(out + '/Envelope Index')
env.executescript("""
CREATE TABLE messages (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, message_id INTEGER NOT NULL DEFAULT 0, global_message_id INTEGER,
  remote_id INTEGER, sender INTEGER, subject INTEGER, summary INTEGER, date_sent INTEGER, date_received INTEGER, mailbox INTEGER,
  flags INTEGER NOT NULL DEFAULT 0, read INTEGER NOT NULL DEFAULT 0, flagged INTEGER NOT NULL DEFAULT 0,
  deleted INTEGER NOT NULL DEFAULT 0, size INTEGER NOT NULL DEFAULT 0, conversation_id INTEGER NOT NULL DEFAULT 0);
CREATE TABLE recipients (ROWID INTEGER PRIMARY KEY, message INTEGER NOT NULL, address INTEGER NOT NULL, type INTEGER, position INTEGER);
CREATE TABLE mailboxes (ROWID INTEGER PRIMARY KEY, url TEXT UNIQUE);
CREATE TABLE attachments (ROWID INTEGER PRIMARY KEY, attachment_id TEXT, name TEXT, size INTEGER);
CREATE TABLE message_attachments (ROWID INTEGER PRIMARY KEY, global_message_id INTEGER NOT NULL, attachment INTEGER NOT NULL, name TEXT);
""")
pi = sqlite3.connect(out + '/Protected Index')
pi.executescript("""
CREATE TABLE addresses (ROWID INTEGER PRIMARY KEY, address TEXT COLLATE NOCASE, comment TEXT, UNIQUE(address, comment));
CREATE TABLE subjects (ROWID INTEGER PRIMARY KEY, subject TEXT COLLATE BINARY UNIQUE);
CREATE TABLE summaries (ROWID INTEGER PRIMARY KEY, summary TEXT UNIQUE ON CONFLICT IGNORE);
""")
ids = {}
def row_id(db, table, key, sql, args):
    k = (table,) + key
    if k not in ids:
        ids[k] = db.execute(sql, args).lastrowid
    return ids[k]
addr_by_name = {}
def address(a, c):
    i = row_id(pi, 'addresses', (a, c), "INSERT INTO addresses (address, comment) VALUES (?, ?)", (a, c))
    addr_by_name.setdefault(a, i)
    return i
unix = lambda s: calendar.timegm(time.strptime(s, '%Y-%m-%d %H:%M:%S'))
attached = set()
for r in json.load(open(rows))['data']:
    (sent, received, addr, comment, to, subject, summary, read, flagged, deleted, mailbox, names, sizes, gid) = r
    sender = address(addr, comment)
    subj = row_id(pi, 'subjects', (subject,), "INSERT INTO subjects (subject) VALUES (?)", (subject,))
    summ = None if summary is None else row_id(pi, 'summaries', (summary,), "INSERT INTO summaries (summary) VALUES (?)", (summary,))
    mb = row_id(env, 'mailboxes', (mailbox,), "INSERT INTO mailboxes (url) VALUES (?)", (mailbox,))
    m = env.execute("INSERT INTO messages (global_message_id, sender, subject, summary, date_sent, date_received, mailbox, read, flagged, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (gid, sender, subj, summ, unix(sent), unix(received), mb, read, flagged, deleted)).lastrowid
    for pos, a in enumerate(to.split(', ') if to else []):
        i = addr_by_name.get(a) or address(a, None)
        env.execute("INSERT INTO recipients (message, address, type, position) VALUES (?, ?, 1, ?)", (m, i, pos))
    if names and gid not in attached:
        attached.add(gid)
        sz = sizes.split(', ') if sizes else []
        for j, n in enumerate(names.split(', ')):
            a = env.execute("INSERT INTO attachments (attachment_id, name, size) VALUES (?, ?, ?)", (str(j), n, int(sz[j]) if j < len(sz) else None)).lastrowid
            env.execute("INSERT INTO message_attachments (global_message_id, attachment, name) VALUES (?, ?, ?)", (gid, a, n))
env.commit()
pi.commit()
"#;

/// A value of iLEAPP's output as our facts hold it (text as `sqlite_query` escapes it); `None`
/// for what it leaves blank.
fn as_fact(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(masf_plugins::outputs::escape(s)),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[test]
fn mail_at_parity_with_ileapp_mailprotect() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("josh");
    let exp = crate::ios::expected("mailprotect.mailprotect.josh_ios17_ffs");
    let rows = tmp.path().join("mailprotect.json");
    std::fs::write(&rows, exp.to_string()).unwrap();
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE])
        .arg(root.join("private/var/mobile/Library/Mail"))
        .arg(&rows)
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[("josh", root.as_path(), "America/New_York", Some("US"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("josh");
    let mut by_row: HashMap<String, (BTreeSet<String>, BTreeSet<String>)> = HashMap::new();
    for p in all.iter().filter(|p| p.title.starts_with("Mail ")) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        let rowid = p.interpretation.split(' ').nth(2).unwrap().to_string();
        by_row.insert(rowid, crate::ios_support::facts_and_times(p));
    }
    let data = exp["data"].as_array().unwrap();
    assert_eq!(by_row.len(), data.len());
    let unix = |s: &str| unix_seconds(s).to_string();
    let (mut fields, mut found) = (0usize, 0usize);
    for (i, row) in data.iter().enumerate() {
        let rowid = (i + 1).to_string();
        let (facts, times) = by_row.get(&rowid).unwrap_or_else(|| panic!("{rowid}"));
        for (c, v) in row.as_array().unwrap().iter().enumerate() {
            let ok = match c {
                0 | 1 => times.contains(&unix(v.as_str().unwrap())),
                4 => {
                    // To Recipients: each address
                    let list = v.as_str().unwrap_or_default();
                    if list.is_empty() {
                        continue;
                    }
                    list.split(", ").all(|a| facts.contains(a))
                }
                _ => {
                    let Some(f) = as_fact(v) else { continue };
                    facts.contains(&f)
                }
            };
            fields += 1;
            if ok {
                found += 1;
            } else {
                panic!("mail {rowid}: column {c} = {v} not in {facts:?} / {times:?}");
            }
        }
    }
    eprintln!("mailprotect: {found} of {fields} fields");
    assert_eq!(found, fields);
}

/// `YYYY-MM-DD HH:MM:SS` (UTC, as SQLite's `datetime(…, 'UNIXEPOCH')` writes it) in Unix
/// seconds (days from the civil date, Howard Hinnant's algorithm).
fn unix_seconds(s: &str) -> i64 {
    let n = |a: usize, b: usize| s[a..b].parse::<i64>().unwrap();
    let (y, m, d) = (n(0, 4), n(5, 7), n(8, 10));
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    days * 86_400 + n(11, 13) * 3600 + n(14, 16) * 60 + n(17, 19)
}

#[test]
fn sqlite_datetimes_read_back() {
    assert_eq!(unix_seconds("1970-01-01 00:00:00"), 0);
    assert_eq!(unix_seconds("2023-03-28 21:37:07"), 1_680_039_427);
    assert_eq!(unix_seconds("2000-02-29 12:00:00"), 951_825_600);
}
