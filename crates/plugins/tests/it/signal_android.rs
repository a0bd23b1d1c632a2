//! Signal for Android (`android::signal`) read with the key an extraction captured: two phones
//! whose `signal.db` and `signal-key-value.db` the real `sqlcipher` CLI encrypted with Signal's
//! settings (the hex string of a random database secret as the passphrase, one PBKDF2 round,
//! 4,096-byte pages), their last rows left only in the `-wal`, the key in the extraction's
//! `extra/Secrets/secrets.json` as the extraction tool writes it. The tables and columns are
//! Signal-Android's (`tests/fixtures/signal/`): phone "c" of the current layout, phone "d" of a
//! 2023 release (`uuid`, `phone`, `recipient_id`, `part`, `groups.members`), phone "e" of a 2021
//! release (messages in `sms` and `mms` with the other party in `address`, a call record as an
//! `sms` row, the account under `account.uuid`). The oracle is the
//! `sqlcipher` CLI's own decryption (`sqlcipher_export` of the file and its log into a plain
//! copy) read by the sqlite3 CLI: every row and field of ALEAPP's Signal artefacts is found.
//! Beside them: a third phone whose `secrets.json` holds another key (noted, the database still
//! named), and a truncated copy (noted).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::android_support::{check, repo, triage};

const DBS: &str = "data/data/org.thoughtcrime.securesms/databases";
const ALEX: &str = "a3c1f0e2-5b7d-4e9a-8c6f-1d2e3f4a5b6c";
const SAM: &str = "7e8f9a0b-1c2d-4e3f-8a5b-6c7d8e9f0a1b";
const WALLET: &str = "0x52908400098527886e0f7030069857d2e4169ee7";

/// Runs `script` through the `sqlcipher` CLI in `dir`.
fn sqlcipher(dir: &Path, db: &str, script: &str) {
    let mut child = Command::new("sqlcipher")
        .arg(db)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sqlcipher (scripts/setup.sh installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn pragmas(key: &str) -> String {
    format!("PRAGMA key = '{key}';\nPRAGMA cipher_page_size = 4096;\nPRAGMA kdf_iter = 1;\n")
}

/// Writes `name` in `dir` encrypted with `key`: `sql` up to its `-- log --` line checkpointed
/// into the file, the rest only in `name-wal`.
fn encrypted(dir: &Path, name: &str, key: &str, sql: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let (file, log) = sql.split_once("\n-- log --\n").unwrap_or((sql, ""));
    sqlcipher(
        dir,
        "work.db",
        &format!(
            "{}PRAGMA journal_mode = WAL;\nPRAGMA wal_autocheckpoint = 0;\n{file}\nPRAGMA wal_checkpoint(TRUNCATE);\n{log}\n.shell cp work.db {name} && cp work.db-wal {name}-wal\n",
            pragmas(key)
        ),
    );
    for f in ["work.db", "work.db-wal", "work.db-shm"] {
        let _ = std::fs::remove_file(dir.join(f));
    }
}

/// The oracle: the `sqlcipher` CLI's decryption of `db` and its log, as a plain database.
fn decrypted_by_sqlcipher(db: &Path, key: &str, out: &Path) -> PathBuf {
    let dir = out.parent().unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(db, dir.join("copy.db")).unwrap();
    std::fs::copy(format!("{}-wal", db.display()), dir.join("copy.db-wal")).unwrap();
    sqlcipher(
        dir,
        "copy.db",
        &format!(
            "{}ATTACH DATABASE '{}' AS plaintext KEY '';\nSELECT sqlcipher_export('plaintext');\nDETACH DATABASE plaintext;\n",
            pragmas(key),
            out.display()
        ),
    );
    out.to_path_buf()
}

fn key_value(aci: &str, pni: &str, e164: &str, username: &str) -> String {
    key_value_as("account.aci", aci, pni, e164, username)
}

fn key_value_as(aci_key: &str, aci: &str, pni: &str, e164: &str, username: &str) -> String {
    format!(
        "CREATE TABLE key_value (_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, value TEXT, type INTEGER);\n\
INSERT INTO key_value (key, value, type) VALUES ('{aci_key}', '{aci}', 5), ('account.pni', '{pni}', 5), ('account.e164', '{e164}', 5), ('account.username', '{username}', 5), ('account.service_password', 'SERVICE-SECRET-{e164}', 5), ('account.registration_id', '4242', 3);\n-- log --\nINSERT INTO key_value (key, value, type) VALUES ('account.device_name', 'Pixel', 5);\n"
    )
}

/// A phone's extraction at `root`: Signal's two databases encrypted with `key`, and the
/// extraction's secrets.json holding `captured`.
fn phone(root: &Path, fixture: &str, key: &str, captured: &str, kv: &str) {
    let dbs = root.join(DBS);
    let sql = std::fs::read_to_string(repo(&format!("tests/fixtures/signal/{fixture}"))).unwrap();
    encrypted(&dbs, "signal.db", key, &sql);
    encrypted(&dbs, "signal-key-value.db", key, kv);
    std::fs::create_dir_all(root.join("extra/Secrets")).unwrap();
    let secrets = serde_json::json!([
        {"app": "com.whatsapp", "script_output": [{"payload": {"key": "not Signal's"}}]},
        {"app": "org.thoughtcrime.securesms", "script_output": [
            {"payload": {"signal attachment key": {"modernKey": "q83vEjRWeJCrze8SNFZ4kA=="}}},
            {"payload": {"sqlite db key": captured}}
        ]}
    ]);
    std::fs::write(
        root.join("extra/Secrets/secrets.json"),
        serde_json::to_string_pretty(&secrets).unwrap(),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
}

/// The key `profile` opened `source`'s databases with is read by the tool, never passed in a
/// query's arguments or printed in its output (the extraction's key file itself is evidence,
/// read as any file is); at least one query used the profile.
pub(crate) fn key_never_in_queries(
    run: &crate::android_support::Run,
    source: &str,
    key: &str,
    profile: &str,
) {
    let queries: Vec<_> = run
        .outputs(source)
        .into_iter()
        .filter(|(tool, _, _)| tool.starts_with("sqlite_"))
        .collect();
    assert!(queries.iter().any(|(_, args, _)| args.contains(profile)));
    for (tool, args, text) in queries {
        assert!(
            !text.contains(key) && !args.contains(key),
            "the key is in {tool} {args}"
        );
    }
}

const KEY_C: &str = "1f0e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
const KEY_D: &str = "9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b";
const KEY_E: &str = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";
const KIT: &str = "f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b";

#[test]
fn signal_on_two_android_phones_read_with_the_extractions_key() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, d, e, wrong) = (
        tmp.path().join("c"),
        tmp.path().join("d"),
        tmp.path().join("e"),
        tmp.path().join("wrong"),
    );
    phone(
        &e,
        "signal-android-e.sql",
        KEY_E,
        KEY_E,
        &key_value_as(
            "account.uuid",
            KIT,
            "PNI:99887766-5544-4332-8110-ffeeddccbbaa",
            "+447700900999",
            "lantern.11",
        ),
    );
    phone(
        &c,
        "signal-android-c.sql",
        KEY_C,
        KEY_C,
        &key_value(
            ALEX,
            "PNI:0b1c2d3e-4f50-4a6b-9c7d-8e9f0a1b2c3d",
            "+447700900123",
            "harbour.42",
        ),
    );
    phone(
        &d,
        "signal-android-d.sql",
        KEY_D,
        KEY_D,
        &key_value(
            SAM,
            "PNI:11223344-5566-4778-8899-aabbccddeeff",
            "+447700900456",
            "quay.07",
        ),
    );
    // a phone whose secrets.json holds another extraction's key; a truncated copy beside it
    phone(
        &wrong,
        "signal-android-c.sql",
        KEY_C,
        KEY_D,
        &key_value(ALEX, "PNI:x", "+447700900123", "harbour.42"),
    );
    let bytes = std::fs::read(wrong.join(DBS).join("signal.db")).unwrap();
    let cut = wrong.join("data/user/10/org.thoughtcrime.securesms/databases");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(cut.join("signal.db"), &bytes[..bytes.len() / 3 + 100]).unwrap();

    let oracle = tmp.path().join("oracle");
    let plain_c = decrypted_by_sqlcipher(
        &c.join(DBS).join("signal.db"),
        KEY_C,
        &oracle.join("c/plain.db"),
    );
    let plain_d = decrypted_by_sqlcipher(
        &d.join(DBS).join("signal.db"),
        KEY_D,
        &oracle.join("d/plain.db"),
    );
    let plain_e = decrypted_by_sqlcipher(
        &e.join(DBS).join("signal.db"),
        KEY_E,
        &oracle.join("e/plain.db"),
    );

    let run = triage(&[
        ("c", &c, "Europe/London", Some("GB")),
        ("d", &d, "Europe/London", Some("GB")),
        ("e", &e, "Europe/London", Some("GB")),
        ("wrong", &wrong, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, plain) in [("c", &plain_c), ("d", &plain_d)] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        // ALEAPP's contacts: name, number, username, ACI, PNI, about, note of each person
        let people = if source == "c" {
            "SELECT e164, aci, COALESCE(username, ''), COALESCE(pni, ''), COALESCE(profile_joined_name, ''), COALESCE(system_joined_name, ''), COALESCE(about, ''), COALESCE(note, '') FROM recipient WHERE group_id IS NULL"
        } else {
            "SELECT phone, uuid, COALESCE(username, ''), COALESCE(profile_joined_name, ''), COALESCE(system_display_name, '') FROM recipient WHERE group_id IS NULL"
        };
        assert_eq!(
            check(&all, "Signal contact ", plain, people, 0),
            3,
            "{source}"
        );
        // every message (the log's too) with its times, thread and text
        let messages = check(
            &all,
            "Signal message ",
            plain,
            "SELECT date_sent, date_received, thread_id, COALESCE(body, ''), COALESCE(quote_body, '') FROM message",
            0,
        );
        assert_eq!(messages, if source == "c" { 6 } else { 3 }, "{source}");
        let calls = check(&all, "Signal call: ", plain, "SELECT call_id FROM call", 0);
        assert_eq!(calls, if source == "c" { 2 } else { 1 }, "{source}");
        let attachments = check(
            &all,
            "Signal attachment ",
            plain,
            if source == "c" {
                "SELECT data_file, content_type, data_size, COALESCE(file_name, ''), COALESCE(caption, '') FROM attachment"
            } else {
                "SELECT _data, ct, data_size, file_name FROM part"
            },
            0,
        );
        assert_eq!(attachments, if source == "c" { 2 } else { 1 });
        assert_eq!(
            check(
                &all,
                "Signal group ",
                plain,
                "SELECT group_id, title FROM groups",
                0
            ),
            1
        );
        // the account, its service password never copied
        let account: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Signal account"))
            .collect();
        assert_eq!(account.len(), 1, "{source}");
        assert!(!all.iter().any(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("SERVICE-SECRET"))
        }));
        let key = if source == "c" { KEY_C } else { KEY_D };
        // the key is read by the tool, never passed or printed (the extraction's secrets.json
        // itself is evidence, read as any text file is)
        key_never_in_queries(&run, source, key, "signal_android");
    }
    let all = run.all_phenomena("c");
    let find = |needle: &str| {
        all.iter()
            .find(|p| p.verified_facts.iter().any(|f| f.value == needle))
            .unwrap_or_else(|| panic!("{needle}"))
    };
    // direction and status from the type's base; the rows only in the log are read
    let sent = all
        .iter()
        .find(|p| {
            p.title.starts_with("Signal message sent")
                && p.verified_facts.iter().any(|f| {
                    f.value == "send the 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7"
                })
        })
        .expect("the sent message");
    assert!(
        sent.title.starts_with("Signal message sent to Samuel Reed"),
        "{}",
        sent.title
    );
    assert!(sent.verified_facts.iter().any(|f| f.value == "sent"));
    assert!(sent.verified_facts.iter().any(|f| f.value == "604800"));
    let group = find("group hello");
    assert!(group.title.contains("sent"), "{}", group.title);
    let call = find("8812736452");
    assert!(call.title.contains("accepted video"), "{}", call.title);
    let missed = find("8812736451");
    assert!(missed.title.contains("missed audio"), "{}", missed.title);
    let crew = find("Harbour crew");
    assert!(
        crew.verified_facts
            .iter()
            .any(|f| f.value == "Alex Morgan, Samuel Reed, Jo Pike"),
        "{crew:#?}"
    );
    // the older layout: a group's members from its list of recipient ids
    let all_d = run.all_phenomena("d");
    let night = all_d
        .iter()
        .find(|p| p.title == "Signal group Night shift")
        .expect("Night shift");
    assert!(
        night
            .verified_facts
            .iter()
            .any(|f| f.value == "Sam Reed, Alex (boat), Kit Vale"),
        "{night:#?}"
    );

    // the 2021 layout: text in sms, media and quotes in mms, a call record kept as an sms row
    let all_e = run.all_phenomena("e");
    for p in &all_e {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(
        check(
            &all_e,
            "Signal contact ",
            &plain_e,
            "SELECT phone, uuid, COALESCE(profile_joined_name, ''), COALESCE(system_display_name, '') FROM recipient WHERE group_id IS NULL",
            0
        ),
        2
    );
    assert_eq!(
        check(
            &all_e,
            "Signal message ",
            &plain_e,
            "SELECT date_sent, date, thread_id, COALESCE(body, ''), '' FROM sms WHERE (type & 31) NOT IN (1, 2, 3, 8, 10, 11, 12) UNION ALL SELECT date, date_received, thread_id, COALESCE(body, ''), COALESCE(quote_body, '') FROM mms",
            0
        ),
        4
    );
    let missed = all_e
        .iter()
        .find(|p| p.title.starts_with("Signal missed audio call"))
        .expect("the call record");
    assert_eq!(missed.title, "Signal missed audio call from Alex M");
    assert_eq!(missed.category, "calls");
    assert_eq!(
        check(
            &all_e,
            "Signal attachment ",
            &plain_e,
            "SELECT _data, ct, data_size, file_name FROM part",
            0
        ),
        1
    );
    let photo = all_e
        .iter()
        .find(|p| p.title == "Signal attachment IMG_0042.jpg")
        .unwrap();
    assert!(photo.verified_facts.iter().any(|f| f.value == "Alex M"));
    let old_crew = all_e
        .iter()
        .find(|p| p.title == "Signal group Old crew")
        .unwrap();
    assert!(
        old_crew
            .verified_facts
            .iter()
            .any(|f| f.value == "Kit Vale, Alex M")
    );
    assert!(
        all_e
            .iter()
            .any(|p| p.title == "Signal message sent to Alex M"
                && p.verified_facts.iter().any(|f| f.value == "see you"))
    );

    // who is who: each account by its ACI, on every phone
    assert!(
        run.owner("c")
            .contains(&format!("account_id=signal:{ALEX}"))
    );
    assert!(run.owner("c").contains("phone=+447700900123"));
    assert!(
        run.owner("c")
            .contains("signal_username=signal-user:harbour.42")
    );
    assert!(run.owner("d").contains(&format!("account_id=signal:{SAM}")));
    // Alex wrote the wallet on phone c, and Sam received it on phone d from Alex
    assert!(
        run.owner("c").contains(&format!("wallet={WALLET}")),
        "{}",
        run.owner("c")
    );
    let with = crate::who::resolved(&run);
    assert!(run.owner("e").contains(&format!("account_id=signal:{KIT}")));
    for (member, known_as) in [
        ("c/owner", format!("d/signal:{ALEX}")),
        ("c/owner", format!("e/signal:{ALEX}")),
        ("d/owner", format!("c/signal:{SAM}")),
        ("e/owner", format!("d/signal:{KIT}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }

    // the wrong key and the truncated copy: noted, the database still named
    run.assert_noted(
        "wrong",
        &[
            ("databases/signal.db", "the key does not open page 1"),
            (
                "user/10/org.thoughtcrime.securesms/databases/signal.db",
                "not a SQLite database",
            ),
        ],
    );
    assert!(
        run.all_phenomena("wrong")
            .iter()
            .any(|p| p.title == "Signal signal.db (encrypted)"),
        "{:#?}",
        run.phenomena("wrong")
    );
}
