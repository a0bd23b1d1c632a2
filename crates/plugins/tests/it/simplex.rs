//! SimpleX Chat for Android (`android::simplex`): Ava's phone and Bo's, who chat on SimpleX, and
//! Cy's, whose extraction holds no key. Each `files_chat.db` is written by SQLCipher 4 itself
//! (the sqlcipher3-binary wheel, its default settings, as the app keeps its store) with the
//! tables and columns of the app's published schema that the reader and ALEAPP use: Ava's of the
//! current schema (a group with a member, a file, an edited message, a reaction, a quote),
//! Bo's of an earlier one (no descriptions, mentions, groups or reactions). Each passphrase is
//! in the extraction's `extra/Secrets/secrets.json` as the acquisition tool writes it. ALEAPP's
//! logic for its five artefacts, re-run in Python through SQLCipher on the same files, is the
//! oracle (its words for direction and flags aside: the stored values are the facts); the
//! passphrase, the files' keys and nonces never reach a fact; each phone's user resolves as the
//! other's contact by the SimpleX address; Cy's store is named encrypted.

use std::path::Path;

use crate::android_support::{assert_rows_in, has_fact, oracle_rows, triage};

const AVA_LINK: &str = "https://simplex.chat/contact#/?v=2-7&smp=smp%3A%2F%2FaVaKey%3D%40smp8.simplex.im%2FaVaQueue%23%2F%3Fv%3D1-3%26dh%3DMCowBQYDK2VuAyEA";
const BO_LINK: &str = "https://simplex.chat/contact#/?v=2-7&smp=smp%3A%2F%2FbOKey%3D%40smp11.simplex.im%2FbOQueue%23%2F%3Fv%3D1-3%26dh%3DMCowBQYDK2VuAyEB";

/// argv: the store's path, the passphrase, which phone (ava, bo, cy), Ava's address, Bo's.
const WRITE: &str = r#"
import os, sys, sqlcipher3
path, key, who, AVA, BO = sys.argv[1:6]
os.makedirs(os.path.dirname(path), exist_ok=True)
db = sqlcipher3.connect(path)
db.execute(f"PRAGMA key = '{key}'")
current = who == "ava"
descr = ", short_descr TEXT" if current else ""
mention = ", user_mention INTEGER NOT NULL DEFAULT 0" if current else ""
db.executescript(f"""
CREATE TABLE contact_profiles(contact_profile_id INTEGER PRIMARY KEY, display_name TEXT NOT NULL, full_name TEXT NOT NULL, properties TEXT NOT NULL DEFAULT '{{}}', created_at TEXT, updated_at TEXT, image TEXT, user_id INTEGER, incognito INTEGER, local_alias TEXT DEFAULT '', preferences TEXT, contact_link BLOB{descr});
CREATE TABLE users(user_id INTEGER PRIMARY KEY, contact_id INTEGER NOT NULL UNIQUE, local_display_name TEXT NOT NULL UNIQUE, active_user INTEGER NOT NULL DEFAULT 0, created_at TEXT, updated_at TEXT, agent_user_id INTEGER, view_pwd_hash BLOB, view_pwd_salt BLOB);
CREATE TABLE contacts(contact_id INTEGER PRIMARY KEY, contact_profile_id INTEGER, user_id INTEGER NOT NULL, local_display_name TEXT NOT NULL, is_user INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL DEFAULT(datetime('now')), updated_at TEXT, enable_ntfs INTEGER, unread_chat INTEGER DEFAULT 0, contact_used INTEGER DEFAULT 0, chat_ts TEXT, deleted INTEGER NOT NULL DEFAULT 0, favorite INTEGER NOT NULL DEFAULT 0, contact_status TEXT NOT NULL DEFAULT 'active');
CREATE TABLE user_contact_links(user_contact_link_id INTEGER PRIMARY KEY, conn_req_contact BLOB NOT NULL, local_display_name TEXT NOT NULL DEFAULT '', created_at TEXT, user_id INTEGER NOT NULL, updated_at TEXT, group_id INTEGER);
CREATE TABLE chat_items(chat_item_id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER NOT NULL, contact_id INTEGER, group_id INTEGER, group_member_id INTEGER, item_sent INTEGER NOT NULL, item_ts TEXT NOT NULL, item_deleted INTEGER NOT NULL DEFAULT 0, item_content TEXT NOT NULL, item_text TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, item_status TEXT, quoted_content TEXT, quoted_sent INTEGER, item_edited INTEGER, timed_ttl INTEGER, timed_delete_at TEXT, item_live INTEGER, item_deleted_ts TEXT{mention});
CREATE TABLE files(file_id INTEGER PRIMARY KEY, contact_id INTEGER, group_id INTEGER, file_name TEXT NOT NULL, file_path TEXT, file_size INTEGER NOT NULL, chunk_size INTEGER NOT NULL, created_at TEXT NOT NULL, user_id INTEGER NOT NULL, chat_item_id INTEGER, updated_at TEXT, cancelled INTEGER, ci_file_status TEXT, protocol TEXT NOT NULL DEFAULT 'smp', file_crypto_key BLOB, file_crypto_nonce BLOB);
CREATE TABLE chat_item_versions(chat_item_version_id INTEGER PRIMARY KEY AUTOINCREMENT, chat_item_id INTEGER NOT NULL, msg_content TEXT NOT NULL, item_version_ts TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
""")
if current:
    db.executescript("""
CREATE TABLE groups(group_id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, local_display_name TEXT NOT NULL, group_profile_id INTEGER, created_at TEXT, updated_at TEXT);
CREATE TABLE group_members(group_member_id INTEGER PRIMARY KEY, group_id INTEGER NOT NULL, member_id BLOB NOT NULL, member_role TEXT NOT NULL, member_category TEXT NOT NULL, member_status TEXT NOT NULL, user_id INTEGER NOT NULL, local_display_name TEXT NOT NULL, contact_profile_id INTEGER NOT NULL, contact_id INTEGER);
CREATE TABLE chat_item_reactions(chat_item_reaction_id INTEGER PRIMARY KEY AUTOINCREMENT, item_member_id BLOB, shared_msg_id BLOB NOT NULL, contact_id INTEGER, group_id INTEGER, group_member_id INTEGER, reaction TEXT NOT NULL, reaction_sent INTEGER NOT NULL, reaction_ts TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
""")
me, other, me_link, other_link = ("Ava", "Bo", AVA, BO) if who != "bo" else ("Bo", "Ava", BO, AVA)
T = lambda s: f"2024-06-0{s}.123456789"
def profile(pid, name, full, link):
    cols = "contact_profile_id, display_name, full_name, created_at, updated_at, incognito, local_alias, contact_link" + (", short_descr" if current else "")
    vals = (pid, name, full, T("1 09:00:00"), T("1 09:00:00"), 0, "", link.encode() if link else None) + (("potter" if name == "Ava" else None,) if current else ())
    db.execute(f"INSERT INTO contact_profiles ({cols}) VALUES ({', '.join('?' * len(vals))})", vals)
profile(1, me, me + " Quill", me_link)
profile(2, other, other + " Reed", other_link)
db.execute("INSERT INTO users VALUES (1, 1, ?, 1, ?, ?, 1, NULL, NULL)", (me, T("1 09:00:00"), T("1 09:00:00")))
db.execute("INSERT INTO contacts (contact_id, contact_profile_id, user_id, local_display_name, is_user, created_at, updated_at, chat_ts) VALUES (1, 1, 1, ?, 1, ?, ?, NULL)", (me, T("1 09:00:00"), T("1 09:00:00")))
db.execute("INSERT INTO contacts (contact_id, contact_profile_id, user_id, local_display_name, is_user, created_at, updated_at, chat_ts, enable_ntfs, unread_chat, contact_used) VALUES (2, 2, 1, ?, 0, ?, ?, ?, 1, 0, 1)", (other.lower(), T("1 09:05:00"), T("2 10:00:00"), T("2 10:00:00")))
db.execute("INSERT INTO user_contact_links (conn_req_contact, local_display_name, created_at, user_id, updated_at) VALUES (?, '', ?, 1, ?)", (me_link.encode(), T("1 09:01:00"), T("1 09:01:00")))
def item(iid, sent, contact, text, ts, **kw):
    row = {"chat_item_id": iid, "user_id": 1, "contact_id": contact, "item_sent": sent, "item_ts": ts, "item_content": '{"type":"' + ("sndMsgContent" if sent else "rcvMsgContent") + '","msgContent":{"type":"text","text":"' + text + '"}}',
           "item_text": text, "created_at": ts, "updated_at": ts, "item_status": "snd_rcvd" if sent else "rcv_read"}
    row.update(kw)
    db.execute(f"INSERT INTO chat_items ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
wallet = "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"
item(1, 1 if who == "ava" else 0, 2, f"Pay to {wallet}", T("2 09:50:00"))
item(2, 0 if who == "ava" else 1, 2, "Sent, check it", T("2 09:55:00"), item_edited=1, quoted_content='{"type":"text","text":"Pay to"}', quoted_sent=1)
if current:
    db.execute("INSERT INTO groups VALUES (7, 1, 'kiln_club', NULL, ?, ?)", (T("1 11:00:00"), T("1 11:00:00")))
    db.execute("INSERT INTO group_members VALUES (71, 7, x'01', 'member', 'memAccepted', 'memConnected', 1, 'dara', 2, NULL)")
    item(3, 0, None, "Firing at 6", T("2 12:00:00"), group_id=7, group_member_id=71, timed_ttl=86400, timed_delete_at=T("3 12:00:00"), user_mention=1)
    item(4, 1, 2, "", T("2 12:30:00"), item_deleted=1, item_deleted_ts=T("2 12:31:00"))
    db.execute("INSERT INTO files (file_id, contact_id, file_name, file_path, file_size, chunk_size, created_at, user_id, chat_item_id, updated_at, cancelled, ci_file_status, file_crypto_key, file_crypto_nonce) VALUES (1, 2, 'receipt.jpg', 'receipt_1.jpg', 48213, 16384, ?, 1, 2, ?, 0, 'rcv_complete', x'00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', x'000102030405060708090a0b0c0d0e0f1011121314151617')", (T("2 09:56:00"), T("2 09:57:00")))
    db.execute("INSERT INTO chat_item_versions VALUES (1, 2, '{\"type\":\"text\",\"text\":\"Sent\"}', ?, ?, ?)", (T("2 09:55:00"), T("2 09:55:00"), T("2 09:55:00")))
    db.execute("INSERT INTO chat_item_reactions VALUES (1, NULL, x'aa', 2, NULL, NULL, '{\"type\":\"emoji\",\"emoji\":\"👍\"}', 1, ?, ?, ?)", (T("2 09:58:00"), T("2 09:58:00"), T("2 09:58:00")))
db.commit()
"#;

/// ALEAPP's rows by its logic (values as stored), from a store (argv 1) and its passphrase
/// (argv 2), as JSON lines `[kind, key, values…]`.
const ORACLE: &str = r#"
import json, sys, sqlcipher3
db = sqlcipher3.connect(sys.argv[1])
db.execute(f"PRAGMA key = '{sys.argv[2]}'")
def out(kind, key, values):
    print(json.dumps([kind, str(key)] + [str(v) for v in values if v not in (None, "")]))
def rows(sql):
    try:
        return db.execute(sql).fetchall()
    except sqlcipher3.Error:
        return []
names = {}
for cid, local, disp in rows("SELECT c.contact_id, c.local_display_name, p.display_name FROM contacts c LEFT JOIN contact_profiles p ON p.contact_profile_id = c.contact_profile_id"):
    names[cid] = disp or local
cols = {r[1] for r in rows("PRAGMA table_info(chat_items)")}
mention = "user_mention" if "user_mention" in cols else "NULL"
for r in rows(f"SELECT item_ts, created_at, updated_at, item_sent, contact_id, group_id, item_text, item_content, item_status, item_deleted, item_edited, item_deleted_ts, quoted_content, quoted_sent, item_live, timed_ttl, timed_delete_at, {mention}, chat_item_id FROM chat_items"):
    out("message", r[18], [r[0], r[1], r[2], r[11], r[3], names.get(r[4], r[4]) if r[4] is not None else None, r[6], r[8], r[9], r[10], r[12], r[13], r[14], r[15], r[16], r[17], r[5], r[7], r[18]])
pcols = {r[1] for r in rows("PRAGMA table_info(contact_profiles)")}
descr = "p.short_descr" if "short_descr" in pcols else "NULL"
for r in rows(f"SELECT c.chat_ts, c.created_at, c.updated_at, c.contact_id, c.local_display_name, p.display_name, p.full_name, p.local_alias, p.incognito, CAST(p.contact_link AS TEXT), {descr}, c.favorite, c.deleted, c.contact_status, c.unread_chat, c.contact_used, c.enable_ntfs FROM contacts c LEFT JOIN contact_profiles p ON p.contact_profile_id = c.contact_profile_id WHERE c.is_user = 0"):
    out("contact", r[3], [r[0], r[1], r[2], r[5] or r[4], r[6], r[7], r[10], r[8], r[11], r[12], r[13], r[14], r[15], r[16], r[9], r[3]])
for r in rows("SELECT created_at, updated_at, file_name, file_path, file_size, ci_file_status, contact_id, group_id, protocol, cancelled, file_crypto_key, file_crypto_nonce, chat_item_id, file_id FROM files"):
    out("file", r[13], [r[0], r[1], r[2], r[4], r[5], names.get(r[6], r[6]), r[8], r[9], "yes" if r[10] else "no", len(r[10]) if r[10] else None, len(r[11]) if r[11] else None, r[3], r[7], r[12], r[13]])
for r in rows("SELECT v.item_version_ts, v.created_at, v.updated_at, v.msg_content, i.item_text, i.item_sent, v.chat_item_id, v.chat_item_version_id FROM chat_item_versions v LEFT JOIN chat_items i ON i.chat_item_id = v.chat_item_id"):
    out("version", r[7], list(r))
for r in rows("SELECT reaction_ts, created_at, updated_at, reaction, reaction_sent, contact_id, chat_item_reaction_id FROM chat_item_reactions"):
    out("reaction", r[6], [r[0], r[1], r[2], r[3], r[4], names.get(r[5], r[5]), r[6]])
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn python() -> String {
    masf_testkit::corpus::py_oracle("python3", "sqlcipher3-binary")
        .to_string_lossy()
        .into_owned()
}

fn write(root: &Path, key: &str, who: &str, with_secrets: bool) -> std::path::PathBuf {
    let db = root.join("data/data/chat.simplex.app/files/files_chat.db");
    std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    let out = std::process::Command::new(python())
        .args(["-c", WRITE, s(&db), key, who, AVA_LINK, BO_LINK])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    if with_secrets {
        let secrets = root.join("extra/Secrets");
        std::fs::create_dir_all(&secrets).unwrap();
        std::fs::write(
            secrets.join("secrets.json"),
            serde_json::json!([
                {"app": "org.thoughtcrime.securesms", "script_output": [{"payload": {"sqlite db key": "00ff"}}]},
                {"app": "chat.simplex.app", "script_output": [{"payload": {"databasePassword": key}}]}
            ])
            .to_string(),
        )
        .unwrap();
    }
    db
}

fn check(all: &[masf_graph::Phenomenon], db: &Path, key: &str, kind: &str, prefix: &str) -> usize {
    let rows = oracle_rows(&python(), ORACLE, &[s(db), key], kind);
    assert_rows_in(all, &rows, prefix, 2, &has_fact)
}

#[test]
fn simplex_on_two_android_phones_read_with_the_extractions_key() {
    let tmp = tempfile::tempdir().unwrap();
    let (ava, bo, cy) = (
        tmp.path().join("ava"),
        tmp.path().join("bo"),
        tmp.path().join("cy"),
    );
    let (ka, kb) = ("pass-Ava-7Q!", "pass-Bo-3Z?");
    let adb = write(&ava, ka, "ava", true);
    let bdb = write(&bo, kb, "bo", true);
    write(&cy, "pass-Cy", "cy", false);
    let run = triage(&[
        ("ava", &ava, "Europe/Berlin", Some("DE")),
        ("bo", &bo, "Europe/Berlin", Some("DE")),
        ("cy", &cy, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("ava");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    for (kind, prefix, n) in [
        ("message", "SimpleX message ", 4),
        ("contact", "SimpleX contact", 1),
        ("file", "SimpleX file", 1),
        ("version", "SimpleX message version", 1),
        ("reaction", "SimpleX reaction", 1),
    ] {
        assert_eq!(check(&all, &adb, ka, kind, prefix), n, "{kind}");
    }
    assert!(
        all.iter()
            .any(|p| p.title == "SimpleX message from dara in group kiln_club")
    );
    assert!(all.iter().any(|p| p.title == "SimpleX message sent to Bo"));
    assert!(all.iter().any(|p| p.title == "SimpleX profile Ava"));
    // the UTC text and its Unix seconds, computed in the query
    let first = all
        .iter()
        .find(|p| {
            p.title == "SimpleX message sent to Bo"
                && p.verified_facts
                    .iter()
                    .any(|f| f.value.starts_with("Pay to"))
        })
        .unwrap();
    assert!(
        first.verified_facts.iter().any(|f| f.value == "1717321800"),
        "{first:#?}"
    );
    // the passphrase, the file's key and nonce never reach a fact
    for who in ["ava", "bo"] {
        assert!(!run.all_phenomena(who).iter().any(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("pass-") || f.value.contains("00112233445566778899"))
        }));
    }
    let owner = run.owner("ava").to_lowercase();
    assert!(
        owner.contains("account_id=simplex:https://simplex.chat/contact"),
        "{owner}"
    );
    assert!(
        run.identifiers("ava")
            .iter()
            .any(|(t, v)| t == "wallet" && v == "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l")
    );
    // Bo's earlier schema
    let ball = run.all_phenomena("bo");
    assert_eq!(check(&ball, &bdb, kb, "message", "SimpleX message "), 2);
    assert_eq!(check(&ball, &bdb, kb, "contact", "SimpleX contact"), 1);
    // Cy's store without its key: named encrypted
    run.assert_noted(
        "cy",
        &[("chat.simplex.app/files/files_chat.db", "encrypted")],
    );
    // who is who: each phone's user is the other's contact, by the SimpleX address
    let with = crate::who::resolved(&run);
    assert!(
        with("ava/owner").contains(&format!("bo/simplex:{AVA_LINK}")),
        "{:#?}",
        with("ava/owner")
    );
    assert!(
        with("bo/owner").contains(&format!("ava/simplex:{BO_LINK}")),
        "{:#?}",
        with("bo/owner")
    );
}
