//! K-9 Mail and Thunderbird for Android (`android::k9mail`): Dana's phone with K-9 Mail, Ravi's
//! with Thunderbird, who write to each other; their `preferences_storage` and account stores
//! written by Python's sqlite3 with the tables and columns ALEAPP's modules read (the account
//! store's `messages_fulltext` an FTS4 table SQLite builds; no public copy is in the corpus).
//! Every field of ALEAPP's account and message readings (its own queries, its base64 decoding
//! of a body part, by Python) is found, but the server password, which ALEAPP prints and this
//! reader only says is stored (a credential is not copied); each phone's user is the account's
//! address, and Dana's correspondent on her phone is Ravi's phone's user. Beside them a
//! truncated copy and a store of another layout (noted).

use crate::android_support::triage;

/// argv[1]: the preferences, argv[2]: the account store, argv[3]: "k9" or "thunderbird";
/// then ALEAPP's readings of them, one tab-separated line each (values escaped as the tool
/// escapes cells; a base64 body part as the tool renders it decoded, `b64:` first).
const STORES: &str = r#"
import base64, json, sqlite3, sys
prefs, store, kind = sys.argv[1], sys.argv[2], sys.argv[3]
if kind == 'k9':
    uuid, email, name = '2f1b6c1e-8a4d-4f3b-9c2e-7d5a0b1c3e4f', 'dana.whitfield@example.org', 'Dana Whitfield'
    other, other_name = 'ravi.menon@contoso-freight.example', 'Ravi Menon'
else:
    uuid, email, name = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', 'ravi.menon@contoso-freight.example', 'Ravi Menon'
    other, other_name = 'dana.whitfield@example.org', 'Dana Whitfield'
p = sqlite3.connect(prefs)
p.execute('CREATE TABLE preferences_storage (primkey TEXT PRIMARY KEY ON CONFLICT REPLACE, value TEXT)')
incoming = {'type': 'IMAP', 'host': 'imap.example.org', 'port': 993, 'connectionSecurity': 'SSL_TLS_REQUIRED', 'authenticationType': 'PLAIN', 'username': email, 'password': 'hunter2-not-copied', 'clientCertificateAlias': None}
outgoing = {'type': 'SMTP', 'host': 'smtp.example.org', 'port': 465, 'connectionSecurity': 'SSL_TLS_REQUIRED', 'authenticationType': 'PLAIN', 'username': email, 'password': 'hunter2-not-copied'}
for k, v in [('accountUuids', uuid), (uuid + '.email.0', email), (uuid + '.name.0', name), (uuid + '.description', 'Work'),
             (uuid + '.lastSyncTime', '1701345000000'), (uuid + '.incomingServerSettings', json.dumps(incoming)),
             (uuid + '.outgoingServerSettings', json.dumps(outgoing)), ('theme', 'dark')]:
    p.execute('INSERT INTO preferences_storage VALUES (?, ?)', (k, v))
p.commit()
s = sqlite3.connect(store)
s.executescript("""
CREATE TABLE folders (id INTEGER PRIMARY KEY, name TEXT, server_id TEXT, type TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, deleted INTEGER DEFAULT 0, folder_id INTEGER, uid TEXT, subject TEXT, date INTEGER, flags TEXT,
  sender_list TEXT, to_list TEXT, cc_list TEXT, bcc_list TEXT, reply_to_list TEXT, attachment_count INTEGER, internal_date INTEGER, message_id TEXT,
  preview_type TEXT, preview TEXT, mime_type TEXT, empty INTEGER DEFAULT 0, read INTEGER DEFAULT 0, flagged INTEGER DEFAULT 0, answered INTEGER DEFAULT 0,
  forwarded INTEGER DEFAULT 0, message_part_id INTEGER, encryption_type TEXT);
CREATE TABLE message_parts (id INTEGER PRIMARY KEY, type INTEGER, root INTEGER, parent INTEGER, seq INTEGER, mime_type TEXT, decoded_body_size INTEGER,
  display_name TEXT, header TEXT, encoding TEXT, charset TEXT, data_location INTEGER, data BLOB, preamble TEXT, epilogue TEXT, boundary TEXT, content_id TEXT, server_extra TEXT);
""")
if kind == 'thunderbird':
    s.execute('CREATE VIRTUAL TABLE messages_fulltext USING fts4 (fulltext)')
s.execute("INSERT INTO folders VALUES (1, 'INBOX', 'INBOX', 'INBOX'), (2, 'Sent', 'Sent', 'SENT')")
body1 = 'Hi Ravi,\r\nplease pay invoice 4471 to IBAN GB33BUKB20201555555555 today.\r\nOr 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7\r\nDana\r\n'
body2 = 'Done, sent 12,400.00 GBP.\r\nRavi\r\n'
me = ('"%s" <%s>' % (name, email))
them = ('"%s" <%s>' % (other_name, other))
rows = [
    (1, 2, 'Invoice 4471', 1701340800000, me, them, 'accounts@example.org', '', me, 0, 1701340801000, '<a1@example.org>', 'Hi Ravi, please pay invoice 4471', 1, 0, 0, 0, body1, 'base64'),
    (2, 1, 'Re: Invoice 4471', 1701344400000, them, me, '', 'audit@contoso-freight.example', them, 1, 1701344405000, '<b2@contoso-freight.example>', 'Done, sent 12,400.00 GBP.', 1, 1, 1, 0, body2, '8bit'),
]
if kind == 'thunderbird':
    rows = [(r[0], 1 if r[1] == 2 else 2) + r[2:4] + (r[5], r[4]) + r[6:8] + (r[5],) + r[9:] for r in rows]
for (i, folder, subject, date, sender, to, cc, bcc, reply, att, internal, mid, preview, read, flagged, answered, forwarded, body, enc) in rows:
    header = 'From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: %s\r\n' % (sender, to, subject, mid)
    s.execute('INSERT INTO message_parts (id, type, root, parent, seq, mime_type, header, encoding, data) VALUES (?, 1, ?, -1, 0, ?, ?, NULL, NULL)', (i * 10, i * 10, 'multipart/mixed', header))
    data = base64.encodebytes(body.encode()) if enc == 'base64' else body.encode()
    s.execute('INSERT INTO message_parts (id, type, root, parent, seq, mime_type, header, encoding, data) VALUES (?, 1, ?, ?, 1, ?, ?, ?, ?)', (i * 10 + 1, i * 10, i * 10, 'text/plain', 'Content-Type: text/plain', enc, data))
    s.execute('INSERT INTO messages (id, deleted, folder_id, uid, subject, date, sender_list, to_list, cc_list, bcc_list, reply_to_list, attachment_count, internal_date, message_id, preview, read, flagged, answered, forwarded, message_part_id) VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
              (i, folder, str(i), subject, date, sender, to, cc, bcc, reply, att, internal, mid, preview, read, flagged, answered, forwarded, i * 10))
    if kind == 'thunderbird':
        s.execute('INSERT INTO messages_fulltext (docid, fulltext) VALUES (?, ?)', (i, body))
# a placeholder row (empty = 1) neither module reports
s.execute("INSERT INTO messages (id, folder_id, uid, date, sender_list, empty) VALUES (3, 1, '3', 1701348000000, '', 1)")
s.commit()
def esc(v):
    if v is None:
        return ''
    v = v.decode('utf-8', 'replace') if isinstance(v, bytes) else str(v)
    return v.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n').replace('\r', '\\r')
# ALEAPP's account reading, but the password
i_, o_ = incoming, outgoing
print('\t'.join(['acct', uuid, email, name, i_['username'], '1701345000000', i_['host'], str(i_['port']), o_['host'], str(o_['port']), 'Work']))
if kind == 'k9':
    q = '''SELECT deleted, subject, date, sender_list, to_list, cc_list, bcc_list, reply_to_list, attachment_count, internal_date, preview, read, flagged, answered, forwarded, name, root, header,
      (SELECT encoding FROM message_parts M_INNER WHERE M_INNER.root = M_OUTER.ROOT AND seq = 1) AS encoding,
      (SELECT data FROM message_parts M_INNER WHERE M_INNER.root = M_OUTER.ROOT AND seq = 1) AS data, data_location
      FROM message_parts M_OUTER JOIN messages ON messages.message_part_id = M_OUTER.root JOIN folders ON folders.id = messages.folder_id WHERE seq = 0'''
    for r in s.execute(q):
        content = ('b64:' + esc(base64.b64decode(r[19]).decode())) if r[18] == 'base64' else esc(r[19])
        print('\t'.join(['msg', esc(r[2]), esc(r[15]), esc(r[1]), esc(r[10]), esc(r[3]), esc(r[4]), esc(r[5]), esc(r[6]), esc(r[7]), esc(r[8]), content, esc(r[9]), esc(r[0]), esc(r[11]), esc(r[12]), esc(r[13]), esc(r[14]), esc(r[17])]))
else:
    q = '''SELECT me.date, me.internal_date, me.sender_list, me.to_list, me.cc_list, me.bcc_list, me.subject, me.preview, me.attachment_count, me.read, me.flagged, me.answered, me.forwarded, fo.name, mfc.c0fulltext
      FROM messages me LEFT JOIN folders fo ON fo.id = me.folder_id LEFT JOIN messages_fulltext_content mfc ON mfc.docid = me.id WHERE me.empty is not 1'''
    for r in s.execute(q):
        print('\t'.join(['msg'] + [esc(v) for v in r]))
"#;

fn write(prefs: &std::path::Path, store: &std::path::Path, kind: &str) -> Vec<Vec<String>> {
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(STORES)
        .args([prefs, store])
        .arg(kind)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn k9_mail_and_thunderbird_accounts_and_mail_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("dana"), tmp.path().join("ravi"));
    let k9 = a.join("data/data/com.fsck.k9/databases");
    let tb = b.join("data/data/net.thunderbird.android/databases");
    let dana = write(
        &k9.join("preferences_storage"),
        &k9.join("2f1b6c1e-8a4d-4f3b-9c2e-7d5a0b1c3e4f.db"),
        "k9",
    );
    let ravi = write(
        &tb.join("preferences_storage"),
        &tb.join("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.db"),
        "thunderbird",
    );
    crate::android_support::damaged_copies(
        &a,
        "com.fsck.k9/databases/2f1b6c1e-8a4d-4f3b-9c2e-7d5a0b1c3e4f.db",
        "CREATE TABLE messages (id INTEGER, body TEXT); INSERT INTO messages VALUES (1, 'x');",
    );
    for root in [&a, &b] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let run = triage(&[
        ("dana", &a, "Europe/London", Some("GB")),
        ("ravi", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, rows, app) in [("dana", &dana, "K-9 Mail"), ("ravi", &ravi, "Thunderbird")] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            assert!(
                !p.verified_facts.iter().any(|f| f.value.contains("hunter2")),
                "a password was copied: {p:#?}"
            );
        }
        let accounts: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with(&format!("{app} account")))
            .collect();
        let mails: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with(&format!("{app} e-mail")))
            .collect();
        assert_eq!(accounts.len(), 1, "{source}");
        // two e-mails; the placeholder row (empty) is not one
        assert_eq!(mails.len(), 2, "{source}");
        for row in rows {
            let found = if row[0] == "acct" { &accounts } else { &mails };
            // an account is the one holding its UUID, a message the one holding its sent date
            let key = &row[1];
            let p = found
                .iter()
                .find(|p| p.verified_facts.iter().any(|f| &f.value == key))
                .unwrap_or_else(|| panic!("{row:?} in none of {found:#?}"));
            for v in row[1..].iter().filter(|v| !v.is_empty()) {
                assert!(
                    p.verified_facts.iter().any(|f| &f.value == v),
                    "{source}: {v} of {row:?} not in {p:#?}"
                );
            }
        }
        assert!(
            all.iter()
                .any(|p| p.interpretation.contains("a server password is stored")),
            "{source}"
        );
    }
    let dana_all = run.all_phenomena("dana");
    assert!(
        dana_all
            .iter()
            .any(|p| p.title == "K-9 Mail e-mail sent: Invoice 4471")
    );
    assert!(
        dana_all.iter().any(|p| p.title
            == "K-9 Mail e-mail from ravi.menon@contoso-freight.example: Re: Invoice 4471")
    );
    let owner = run.owner("dana");
    assert!(
        owner.contains("email=dana.whitfield@example.org"),
        "{owner}"
    );
    assert!(
        owner.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{owner}"
    );
    assert!(
        run.owner("ravi")
            .contains("email=ravi.menon@contoso-freight.example")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        (
            "ravi/owner",
            "dana/handle:ravi.menon@contoso-freight.example",
        ),
        ("dana/owner", "ravi/handle:dana.whitfield@example.org"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    run.assert_noted(
        "dana",
        &[
            (
                "user/10/com.fsck.k9/databases/2f1b6c1e-8a4d-4f3b-9c2e-7d5a0b1c3e4f.db",
                "malformed",
            ),
            (
                "user/11/com.fsck.k9/databases/2f1b6c1e-8a4d-4f3b-9c2e-7d5a0b1c3e4f.db",
                "table messages lacks date, sender_list",
            ),
        ],
    );
}
