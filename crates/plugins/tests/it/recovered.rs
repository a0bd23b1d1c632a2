//! Messages recovered from write-ahead logs (`sqlite_wal_history`). iOS Messages (`ios::sms`):
//! two iPhones' databases written in WAL mode by Python's sqlite3 and copied while open
//! (`tests/fixtures/wal/sms_wal.py`) — iOS 16's layout with messages deleted (one naming a
//! wallet, one inserted and deleted inside the log) and one edited, and an older layout with one
//! deleted. Every deleted message and the edited one's earlier text are recorded, each with its
//! GUID, handle, time and text as the generator wrote them (its oracle), said recovered and from
//! which page version; the live messages are recorded once, as before; the wallet in a deleted
//! message is still the sender's claim.

use masf_graph::Phenomenon;

use crate::android_support::{generate, has_fact, triage};

/// The phenomena of a source recorded as recovered.
fn recovered_in(all: &[Phenomenon]) -> Vec<&Phenomenon> {
    all.iter()
        .filter(|p| p.title.ends_with("(recovered)"))
        .collect()
}

/// How many rows an oracle says were deleted or changed (a key it did not find is `null`).
fn changed_rows(o: &serde_json::Value) -> usize {
    ["deleted", "changed"]
        .iter()
        .map(|k| {
            o[*k]
                .as_object()
                .map_or(0, |m| m.values().filter(|v| !v.is_null()).count())
        })
        .sum()
}

/// Runs `tests/fixtures/wal/wal_change.py`: `from` (a database, or a schema `.sql`) changed in
/// WAL mode — rows `delete` of `table` deleted, row `edit`'s `column` edited — and copied to
/// `dest` with its log; returns the oracle (the rows as they were).
#[allow(clippy::too_many_arguments)]
fn change(
    from: &std::path::Path,
    dest: &std::path::Path,
    oracle: &std::path::Path,
    table: &str,
    key: &str,
    delete: &str,
    edit: &str,
    column: &str,
) -> serde_json::Value {
    change_with(from, dest, oracle, table, key, delete, edit, column, None)
}

/// [`change`], deleting also the rows of `cascade` (`table.column`) that name a deleted key.
#[allow(clippy::too_many_arguments)]
fn change_with(
    from: &std::path::Path,
    dest: &std::path::Path,
    oracle: &std::path::Path,
    table: &str,
    key: &str,
    delete: &str,
    edit: &str,
    column: &str,
    cascade: Option<&str>,
) -> serde_json::Value {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        from.as_os_str(),
        dest.as_os_str(),
        oracle.as_os_str(),
        table.as_ref(),
        key.as_ref(),
        delete.as_ref(),
        edit.as_ref(),
        column.as_ref(),
    ];
    if let Some(c) = cascade {
        args.push(c.as_ref());
    }
    generate("", "tests/fixtures/wal/wal_change.py", &args, oracle)
}

/// [`change`] with secure_delete off and the log checkpointed before the copy (no `-wal`): the
/// rows as they were are then only in the file's free space.
#[allow(clippy::too_many_arguments)]
fn change_free(
    from: &std::path::Path,
    dest: &std::path::Path,
    oracle: &std::path::Path,
    table: &str,
    key: &str,
    delete: &str,
    edit: &str,
    column: &str,
) -> serde_json::Value {
    let out = std::process::Command::new("python3")
        .env("WAL_CHANGE_FREE", "1")
        .arg(masf_testkit::corpus::repo_root().join("tests/fixtures/wal/wal_change.py"))
        .arg(from)
        .arg(dest)
        .arg(oracle)
        .args([table, key, delete, edit, column])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!std::path::PathBuf::from(format!("{}-wal", dest.display())).exists());
    serde_json::from_slice(&std::fs::read(oracle).unwrap()).unwrap()
}

/// A store two iPhones each hold at `rel`, changed by [`change`] on phone `a` (in WAL mode:
/// `delete`d rows, an `edit`ed one) and by [`change_free`] on phone `b` (`delete_free`d rows
/// left only in the free space); both triaged in `zone` with no rejection. The two oracles and
/// the run.
struct OnTwoIphones<'a> {
    rel: &'a str,
    table: &'a str,
    key: &'a str,
    column: &'a str,
    zone: (&'a str, &'a str),
}

impl OnTwoIphones<'_> {
    fn changed(
        &self,
        tmp: &std::path::Path,
        (from_a, delete, edit): (&std::path::Path, &str, &str),
        (from_b, delete_free): (&std::path::Path, &str),
    ) -> (
        serde_json::Value,
        serde_json::Value,
        crate::android_support::Run,
    ) {
        let (a, b) = (tmp.join("a"), tmp.join("b"));
        let oa = change(
            from_a,
            &a.join(self.rel),
            &tmp.join("a.json"),
            self.table,
            self.key,
            delete,
            edit,
            self.column,
        );
        let ob = change_free(
            from_b,
            &b.join(self.rel),
            &tmp.join("b.json"),
            self.table,
            self.key,
            delete_free,
            "0",
            self.column,
        );
        for root in [&a, &b] {
            std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
        }
        let (tz, region) = self.zone;
        let run = triage(&[("a", &a, tz, Some(region)), ("b", &b, tz, Some(region))]);
        assert_eq!(run.rejections(), Vec::<String>::new());
        (oa, ob, run)
    }
}

#[test]
fn deleted_and_edited_messages_come_back_from_the_log_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/wal/sms_wal.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "America/Los_Angeles", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, live) in [("a", 118), ("b", 59)] {
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        let messages = all
            .iter()
            .filter(|p| p.category == "messages" && !p.title.ends_with("(recovered)"))
            .filter(|p| p.interpretation.starts_with("Message ROWID"))
            .count();
        assert_eq!(messages, live, "{source}: the live messages, once each");
        let oracle = &o[source];
        assert_eq!(recovered.len(), changed_rows(oracle), "{recovered:#?}");
        for (kind, word) in [("deleted", "Deleted"), ("changed", "Earlier version of")] {
            for (rowid, m) in oracle[kind].as_object().unwrap() {
                let from_me = m["is_from_me"] == 1;
                let handle = oracle["handles"][m["handle_id"].to_string()]
                    .as_str()
                    .unwrap();
                let title = format!(
                    "{word} message {rowid} {} {handle} (recovered)",
                    if from_me { "sent to" } else { "received from" }
                );
                let p = recovered
                    .iter()
                    .find(|p| p.title == title)
                    .unwrap_or_else(|| panic!("{title}: {recovered:#?}"));
                assert_eq!(p.category, "messages");
                for v in [&m["guid"], &m["text"]] {
                    assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
                }
                assert!(has_fact(p, handle));
                let t = &p.verified_facts[p.times[0].fact].value;
                assert_eq!(t, &m["date"].to_string());
                assert!(
                    p.interpretation.contains("still holds it"),
                    "{}",
                    p.interpretation
                );
            }
        }
    }
    // the wallet named in a deleted received message: the sender's claim, as in a live one
    let ids = run.identifiers("a");
    assert!(
        ids.iter()
            .any(|(t, v)| t == "wallet" && v.contains("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")),
        "{ids:?}"
    );
}

#[test]
fn deleted_and_edited_sms_come_back_from_the_log_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/wal/sms_wal.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (c, d) = (tmp.path().join("c"), tmp.path().join("d"));
    let run = triage(&[
        ("c", &c, "Europe/London", Some("GB")),
        ("d", &d, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, live) in [("c", 99), ("d", 39)] {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        let messages: Vec<&str> = all
            .iter()
            .filter(|p| p.title.starts_with("SMS ") && p.interpretation.starts_with("sms._id "))
            .map(|p| p.interpretation.as_str())
            .collect();
        assert_eq!(
            messages.len(),
            live,
            "{source}: the live SMS, once each: {messages:#?}"
        );
        let oracle = &o[source];
        assert_eq!(recovered.len(), changed_rows(oracle), "{recovered:#?}");
        for (kind, word) in [("deleted", "Deleted"), ("changed", "Earlier version of")] {
            for (id, m) in oracle[kind].as_object().unwrap() {
                let p = recovered
                    .iter()
                    .find(|p| p.interpretation.starts_with(&format!("sms._id {id} ")))
                    .unwrap_or_else(|| panic!("{id}: {recovered:#?}"));
                let how = match m["type"].as_i64().unwrap() {
                    1 => "SMS received from",
                    2 => "SMS sent to",
                    _ => "SMS draft to",
                };
                let address = m["address"].as_str().unwrap();
                assert_eq!(p.title, format!("{word} {how} {address} (recovered)"));
                assert!(has_fact(p, m["body"].as_str().unwrap()), "{p:#?}");
                assert!(has_fact(p, address));
                assert_eq!(
                    p.verified_facts[p.times[0].fact].value,
                    m["date"].to_string()
                );
            }
        }
    }
    // the wallet the user wrote in a deleted sent SMS: the user's claim
    let ids = run.identifiers("c");
    assert!(
        ids.iter().any(|(t, v)| t == "wallet"
            && v.eq_ignore_ascii_case("0x52908400098527886E0F7030069857D2E4169EE7")),
        "{ids:?}"
    );
}

/// WhatsApp for iOS (`ios::whatsapp`): the corpus's real iOS 15 `ChatStorage.sqlite` (iLEAPP's
/// public test case) and the generated extraction's, each with messages deleted and one edited
/// by Python's sqlite3 in WAL mode (`tests/fixtures/wal/wal_change.py`, copied while open):
/// every deleted message and the edited one's earlier text come back with WhatsApp's own
/// values (the script's oracle), the chat named from the live sessions.
#[test]
fn deleted_and_edited_whatsapp_messages_come_back_from_the_log_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real/ChatStorage.sqlite");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nn=[i for i in z.namelist() if i.endswith('/ChatStorage.sqlite')][0]\nopen(sys.argv[2],'wb').write(z.read(n))",
        ])
        .arg(masf_testkit::corpus::path(
            "ios/ileapp/testdata.whatsApp.whatsAppMessages.josh_ios15_ffs.zip",
        ))
        .arg(&real)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated = masf_testkit::corpus::repo_root().join(
        "tests/fixtures/ios/ffs/private/var/mobile/Containers/Shared/AppGroup/5A7C9A52-3B8E-4F0C-9C1D-2E6F1B0A7D43/ChatStorage.sqlite",
    );
    let group = "private/var/mobile/Containers/Shared/AppGroup";
    let mut oracles = Vec::new();
    for (source, from, uuid, delete, edit) in [
        (
            "a",
            real.clone(),
            "694FBBC5-2E69-480A-A25B-FF8CC038BEF8",
            "29,27",
            "24",
        ),
        (
            "b",
            generated,
            "5A7C9A52-3B8E-4F0C-9C1D-2E6F1B0A7D43",
            "2",
            "1",
        ),
    ] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let dest = tmp
            .path()
            .join(source)
            .join(group)
            .join(uuid)
            .join("ChatStorage.sqlite");
        let o = change(
            &from,
            &dest,
            &oracle_file,
            "ZWAMESSAGE",
            "Z_PK",
            delete,
            edit,
            "ZTEXT",
        );
        oracles.push((source, o));
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, o) in &oracles {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        assert_eq!(recovered.len(), changed_rows(o), "{recovered:#?}");
        for (kind, word) in [("deleted", "Deleted"), ("changed", "Earlier version of")] {
            for (pk, m) in o[kind].as_object().unwrap() {
                let p = recovered
                    .iter()
                    .find(|p| {
                        p.title
                            .starts_with(&format!("{word} WhatsApp message {pk} "))
                    })
                    .unwrap_or_else(|| panic!("{pk}: {recovered:#?}"));
                for k in ["ZTEXT", "ZSTANZAID", "ZFROMJID", "ZTOJID"] {
                    if let Some(v) = m[k].as_str() {
                        assert!(has_fact(p, v), "{k} {v}: {p:#?}");
                    }
                }
                assert_eq!(
                    p.verified_facts[p.times[0].fact].value,
                    m["ZMESSAGEDATE"].to_string()
                );
                assert!(!p.title.contains("no longer listed"), "{}", p.title);
            }
        }
    }
}

/// WhatsApp for Android (`android::whatsapp`): the 2021+ `message` table and the older
/// `messages`, each built from the committed schema fixtures (`tests/fixtures/whatsapp-android/`)
/// and then changed by Python's sqlite3 in WAL mode (`tests/fixtures/wal/wal_change.py`):
/// a deleted group message comes back with its chat and sender named (from the live `chat` and
/// `jid` tables, or the row's own JIDs), its text, key and time; an edited one's earlier text too.
#[test]
fn deleted_and_edited_whatsapp_messages_come_back_from_the_log_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "data/data/com.whatsapp/databases/msgstore.db";
    let mut oracles = Vec::new();
    for (source, sql, table, delete, edit, text) in [
        ("a", "msgstore.sql", "message", "4", "5", "text_data"),
        ("b", "msgstore_2019.sql", "messages", "3", "2", "data"),
    ] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let dest = tmp.path().join(source).join(rel);
        let schema = masf_testkit::corpus::repo_root()
            .join("tests/fixtures/whatsapp-android")
            .join(sql);
        let o = change(
            &schema,
            &dest,
            &oracle_file,
            table,
            "_id",
            delete,
            edit,
            text,
        );
        oracles.push((source, table, text, o));
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, table, text, o) in &oracles {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        assert_eq!(recovered.len(), 2, "{recovered:#?}");
        for (kind, word) in [("deleted", "Deleted"), ("changed", "Earlier version of")] {
            for (id, m) in o[kind].as_object().unwrap() {
                let p = recovered
                    .iter()
                    .find(|p| {
                        p.title
                            .starts_with(&format!("{word} WhatsApp message {id} "))
                    })
                    .unwrap_or_else(|| panic!("{id}: {recovered:#?}"));
                assert!(has_fact(p, m[*text].as_str().unwrap()), "{p:#?}");
                assert!(has_fact(p, m["key_id"].as_str().unwrap()), "{p:#?}");
                assert_eq!(
                    p.verified_facts[p.times[0].fact].value,
                    m["timestamp"].to_string()
                );
                assert!(p.interpretation.starts_with(&format!("{table}._id {id} ")));
                assert!(!p.title.contains("no longer listed"), "{}", p.title);
            }
        }
        // the deleted group message names its chat and who wrote it
        let group = recovered
            .iter()
            .find(|p| p.title.starts_with("Deleted "))
            .unwrap();
        assert!(has_fact(group, "120363041234567890@g.us"), "{group:#?}");
        assert!(
            group.interpretation.contains("(written by "),
            "{}",
            group.interpretation
        );
    }
}

/// iPhone call history (`ios::callhistory`): the generated extraction's `CallHistory.storedata`
/// and one built from an iOS 12-16 `ZCALLRECORD` schema (`tests/fixtures/wal/callhistory.sql`),
/// calls deleted and one changed by Python's sqlite3 in WAL mode: every deleted call comes back
/// with its address (a BLOB, read as text), unique id, duration and start; the changed one's
/// earlier values too.
#[test]
fn deleted_calls_come_back_from_the_log_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "private/var/mobile/Library/CallHistoryDB/CallHistory.storedata";
    let repo = masf_testkit::corpus::repo_root();
    let mut oracles = Vec::new();
    for (source, from, delete, edit, column) in [
        (
            "a",
            repo.join("tests/fixtures/ios/ffs").join(rel),
            "2",
            "1",
            "ZNAME",
        ),
        (
            "b",
            repo.join("tests/fixtures/wal/callhistory.sql"),
            "2,3",
            "4",
            "ZLOCATION",
        ),
    ] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let dest = tmp.path().join(source).join(rel);
        let o = change(
            &from,
            &dest,
            &oracle_file,
            "ZCALLRECORD",
            "Z_PK",
            delete,
            edit,
            column,
        );
        oracles.push((source, o));
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, o) in &oracles {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        assert_eq!(recovered.len(), changed_rows(o), "{recovered:#?}");
        for (kind, word) in [("deleted", "Deleted"), ("changed", "Earlier version of")] {
            for (pk, m) in o[kind].as_object().unwrap() {
                let address = m["ZADDRESS"].as_str().unwrap();
                let title = format!(
                    "{word} call {pk} {} {address} (recovered)",
                    if m["ZORIGINATED"] == 1 { "to" } else { "from" }
                );
                let p = recovered
                    .iter()
                    .find(|p| p.title == title)
                    .unwrap_or_else(|| panic!("{title}: {recovered:#?}"));
                assert_eq!(p.category, "calls");
                assert!(has_fact(p, m["ZUNIQUE_ID"].as_str().unwrap()), "{p:#?}");
                assert!(has_fact(p, &m["ZDURATION"].to_string()), "{p:#?}");
                assert_eq!(
                    p.verified_facts[p.times[0].fact].value,
                    m["ZDATE"].to_string()
                );
            }
        }
    }
    // the deleted calls leave gaps in Core Data's keys too (plugins::gaps)
    for (source, title) in [
        ("a", &["1 call missing after Z_PK 1"][..]),
        // (the schema's Z_PRIMARYKEY says 5 keys were given out to its 4 calls)
        (
            "b",
            &[
                "2 calls missing between Z_PK 1 and 4",
                "1 call missing after Z_PK 4",
            ][..],
        ),
    ] {
        let all = run.all_phenomena(source);
        let gaps: Vec<&str> = all
            .iter()
            .filter(|p| p.title.contains(" missing "))
            .map(|p| p.title.as_str())
            .collect();
        assert_eq!(gaps, title, "{source}");
    }
}

/// Android call logs (`android::databases::calls`): plaso's real `contacts2.db` (its `calls`, as
/// Android kept them before 7) and an AOSP `calllog.db` built from its schema
/// (`tests/fixtures/wal/calllog.sql`), calls deleted and one changed by Python's sqlite3 in WAL
/// mode: every deleted call comes back with its number, type, duration and time.
#[test]
fn deleted_calls_come_back_from_the_log_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = "data/data/com.android.providers.contacts/databases";
    let mut oracles = Vec::new();
    for (source, from, name, delete, edit) in [
        (
            "c",
            masf_testkit::corpus::path("android/plaso-contacts2.db"),
            "contacts2.db",
            "715",
            "717",
        ),
        (
            "d",
            masf_testkit::corpus::repo_root().join("tests/fixtures/wal/calllog.sql"),
            "calllog.db",
            "2,3",
            "4",
        ),
    ] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let dest = tmp.path().join(source).join(dir).join(name);
        let o = change(
            &from,
            &dest,
            &oracle_file,
            "calls",
            "_id",
            delete,
            edit,
            "name",
        );
        oracles.push((source, o));
    }
    let (c, d) = (tmp.path().join("c"), tmp.path().join("d"));
    let run = triage(&[
        ("c", &c, "America/New_York", Some("US")),
        ("d", &d, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, o) in &oracles {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        assert_eq!(recovered.len(), changed_rows(o), "{recovered:#?}");
        for (kind, word) in [("deleted", "Deleted"), ("changed", "Earlier version of")] {
            for (id, m) in o[kind].as_object().unwrap() {
                let p = recovered
                    .iter()
                    .find(|p| p.interpretation.starts_with(&format!("calls._id {id} ")))
                    .unwrap_or_else(|| panic!("{id}: {recovered:#?}"));
                assert!(p.title.starts_with(word), "{}", p.title);
                assert_eq!(p.category, "calls");
                assert!(has_fact(p, m["number"].as_str().unwrap()), "{p:#?}");
                assert!(has_fact(p, &m["duration"].to_string()), "{p:#?}");
                assert_eq!(
                    p.verified_facts[p.times[0].fact].value,
                    m["date"].to_string()
                );
                if let Some(n) = m["name"].as_str() {
                    assert!(has_fact(p, n), "{p:#?}");
                }
            }
        }
    }
}

/// iPhone contacts (`ios::addressbook`): a real `AddressBook.sqlitedb` with its log (iLEAPP's
/// public Belkasoft CTF 6 case: one card) and one built from iOS's schema
/// (`tests/fixtures/wal/addressbook.sql`), cards
/// deleted (and one changed) by Python's sqlite3 in WAL mode (Apple's triggers dropped from the
/// copy: they call functions only iOS registers): each deleted card comes back with its names
/// and the phone numbers and e-mails deleted with it, observed on its `contact:<ROWID>` entity.
#[test]
fn deleted_contacts_come_back_from_the_log_on_two_iphones() {
    // a and b: changed in WAL mode (the log keeps the rows); c: changed and checkpointed with
    // secure_delete off (the file's free space keeps them)
    let tmp = tempfile::tempdir().unwrap();
    let rel = "private/var/mobile/Library/AddressBook/AddressBook.sqlitedb";
    let real = tmp.path().join("real/AddressBook.sqlitedb");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nfor s in ('', '-wal'):\n    n=[i for i in z.namelist() if i.endswith('/AddressBook.sqlitedb'+s)][0]\n    open(sys.argv[2]+s,'wb').write(z.read(n))",
        ])
        .arg(masf_testkit::corpus::path(
            "ios/ileapp/testdata.addressBook.addressBook.belkasoft_ctf6_ios_device1.zip",
        ))
        .arg(&real)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated = masf_testkit::corpus::repo_root().join("tests/fixtures/wal/addressbook.sql");
    let mut oracles = Vec::new();
    for (source, from, table, delete, edit) in [
        ("a", real.clone(), "ABPerson", "1", "1"),
        ("b", generated.clone(), "ABPerson", "2", "1"),
    ] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let dest = tmp.path().join(source).join(rel);
        // the person deleted; for b, card 1 renamed
        let (delete, edit) = if source == "a" {
            (delete, "0")
        } else {
            (delete, edit)
        };
        let o = change_with(
            &from,
            &dest,
            &oracle_file,
            table,
            "ROWID",
            delete,
            edit,
            "First",
            Some("ABMultiValue.record_id"),
        );
        oracles.push((source, o));
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, o) in &oracles {
        let all = run.all_phenomena(source);
        let recovered: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.ends_with("(recovered)") && p.title.contains("contact card"))
            .collect();
        for (kind, word) in [("deleted", "Deleted"), ("changed", "Earlier version of")] {
            for (rowid, m) in o[kind].as_object().unwrap() {
                if m.is_null() {
                    continue; // row 0 does not exist: no edit
                }
                let p = recovered
                    .iter()
                    .find(|p| {
                        p.title
                            .starts_with(&format!("{word} contact card {rowid}: "))
                    })
                    .unwrap_or_else(|| panic!("{rowid}: {recovered:#?}"));
                for c in ["First", "Last"] {
                    if let Some(v) = m[c].as_str() {
                        assert!(has_fact(p, v), "{c} {v}: {p:#?}");
                    }
                }
            }
        }
    }
    // c: the real store's card deleted with secure_delete off and the log checkpointed, as
    // Apple's SQLite leaves it: the card comes back from the file's free space, its names as
    // they were (with its ROWID, or said lost)
    let oracle_file = tmp.path().join("c.json");
    let dest = tmp.path().join("c").join(rel);
    let out = std::process::Command::new("python3")
        .env("WAL_CHANGE_FREE", "1")
        .arg(masf_testkit::corpus::repo_root().join("tests/fixtures/wal/wal_change.py"))
        .arg(&real)
        .arg(&dest)
        .arg(&oracle_file)
        .args([
            "ABPerson",
            "ROWID",
            "1",
            "0",
            "First",
            "ABMultiValue.record_id",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!dest.with_extension("sqlitedb-wal").exists());
    let o: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&oracle_file).unwrap()).unwrap();
    let c = tmp.path().join("c");
    let free = triage(&[("c", &c, "Asia/Hong_Kong", Some("HK"))]);
    let all = free.all_phenomena("c");
    let card = &o["deleted"]["1"];
    let p = all
        .iter()
        .filter(|p| p.title.ends_with("(recovered)") && p.title.contains("contact card"))
        .find(|p| {
            ["First", "Last"]
                .iter()
                .filter_map(|k| card[*k].as_str())
                .all(|v| has_fact(p, v))
        })
        .unwrap_or_else(|| panic!("{card}: {all:#?}"));
    assert!(
        p.title.starts_with("Deleted contact card 1: ")
            || p.title
                .starts_with("Deleted or earlier version of contact card (rowid lost): "),
        "{}",
        p.title
    );
    assert!(
        p.interpretation.contains("of the database file"),
        "{}",
        p.interpretation
    );
    // the deleted card's e-mail (a) and phone (b), on the card's entity
    let a_ids = run.identifiers("a");
    assert!(
        a_ids
            .iter()
            .any(|(t, v)| t == "email" && v == "billthemegakill@icloud.com"),
        "{a_ids:?}"
    );
    let b_ids = run.identifiers("b");
    assert!(
        b_ids
            .iter()
            .any(|(t, v)| t == "email" && v == "chan.mh@harbour.example"),
        "{b_ids:?}"
    );
}

/// Android contacts (`android::databases::contacts`): AOSP's `contacts2.db` schema
/// (`tests/fixtures/demo/schema/contacts2.sql`) with people (`tests/fixtures/wal/contacts2_rows.sql`),
/// in two phones' states changed by Python's sqlite3 in WAL mode: a raw contact deleted with its
/// data rows comes back with its names, numbers and e-mails, observed on its
/// `contact:<raw_contacts._id>` entity, and with its deletion time where `deleted_contacts`
/// names its aggregate contact.
#[test]
fn deleted_contacts_come_back_from_the_log_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = masf_testkit::corpus::repo_root();
    let schema = format!(
        "{}+{}",
        repo.join("tests/fixtures/demo/schema/contacts2.sql")
            .display(),
        repo.join("tests/fixtures/wal/contacts2_rows.sql").display()
    );
    let rel = "data/data/com.android.providers.contacts/databases/contacts2.db";
    for (source, delete) in [("e", "2"), ("f", "3")] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        change_with(
            std::path::Path::new(&schema),
            &tmp.path().join(source).join(rel),
            &oracle_file,
            "raw_contacts",
            "_id",
            delete,
            "0",
            "display_name",
            Some("data.raw_contact_id"),
        );
    }
    let (e, f) = (tmp.path().join("e"), tmp.path().join("f"));
    let run = triage(&[
        ("e", &e, "Europe/Zurich", Some("CH")),
        ("f", &f, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, name, values) in [
        (
            "e",
            "Lena Meier",
            &["+41 79 123 45 67", "lena.meier@example.ch"][..],
        ),
        ("f", "Karim Haddad", &["+33 6 12 34 56 78"][..]),
    ] {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        assert_eq!(recovered.len(), 1, "{recovered:#?}");
        let p = recovered[0];
        assert_eq!(p.title, format!("Deleted contact {name} (recovered)"));
        assert_eq!(p.category, "contacts");
        for v in values {
            assert!(has_fact(p, v), "{v}: {p:#?}");
        }
        let deleted_at = p
            .times
            .iter()
            .find(|t| t.description == "Contact deleted")
            .map(|t| p.verified_facts[t.fact].value.as_str());
        assert_eq!(
            deleted_at,
            (source == "e").then_some("1700000500000"),
            "{p:#?}"
        );
        let entities = run.entities(source);
        assert!(
            entities.iter().any(|e| e.contains(&name.to_lowercase())),
            "{entities:#?}"
        );
    }
}

/// Google Messages (`android::bugle`): the committed `bugle_db` schema with its conversations
/// (`tests/fixtures/google-messages/bugle_db.sql`), on two phones whose messages were deleted
/// with their parts by Python's sqlite3 in WAL mode: each deleted message comes back with its
/// texts, time and sender's number (from the live participants), the user's own said sent.
#[test]
fn deleted_google_messages_come_back_from_the_log_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let schema =
        masf_testkit::corpus::repo_root().join("tests/fixtures/google-messages/bugle_db.sql");
    let rel = "data/data/com.google.android.apps.messaging/databases/bugle_db";
    let mut oracles = Vec::new();
    for (source, delete) in [("g", "1,2"), ("h", "4")] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let o = change_with(
            &schema,
            &tmp.path().join(source).join(rel),
            &oracle_file,
            "messages",
            "_id",
            delete,
            "0",
            "sms_message_uri",
            Some("parts.message_id"),
        );
        oracles.push((source, o));
    }
    let (g, h) = (tmp.path().join("g"), tmp.path().join("h"));
    let run = triage(&[
        ("g", &g, "Asia/Hong_Kong", Some("HK")),
        ("h", &h, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let texts = [
        (
            "1",
            "Send the 5,000 USDT to TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2 tonight",
            "from +85298765432",
        ),
        (
            "2",
            "OK, sending from my wallet now",
            "sent by the device's user",
        ),
    ];
    for (source, o) in &oracles {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        assert_eq!(recovered.len(), changed_rows(o), "{recovered:#?}");
        for (id, m) in o["deleted"].as_object().unwrap() {
            let p = recovered
                .iter()
                .find(|p| {
                    p.title
                        .starts_with(&format!("Deleted Google Messages message {id} "))
                })
                .unwrap_or_else(|| panic!("{id}: {recovered:#?}"));
            assert_eq!(
                p.verified_facts[p.times[0].fact].value,
                m["received_timestamp"].to_string()
            );
            if let Some((_, text, how)) = texts.iter().find(|(i, ..)| i == id) {
                assert!(has_fact(p, text), "{p:#?}");
                assert!(
                    p.title.ends_with(&format!("{how} (recovered)")),
                    "{}",
                    p.title
                );
            }
        }
    }
}

/// Telegram for Android (`android::telegram`): the committed `cache4.db` (`messages_v2`) and one
/// built from the corpus's real Telegram blobs (the older `messages`, by the fixtures'
/// `tl_cache4.py`), each with messages deleted by Python's sqlite3 in WAL mode. The oracle is the
/// same store unchanged, read live: every deleted message comes back with the title and every
/// value the live reading gave it (its stored object decoded by the log tool's `telegram`).
#[test]
fn deleted_telegram_messages_read_as_they_read_before_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = masf_testkit::corpus::repo_root();
    let rel = "data/data/org.telegram.messenger/files/cache4.db";
    // b's store as SQL, from the corpus's real blobs
    let sql = std::process::Command::new("python3")
        .arg(repo.join("tests/fixtures/android-telegram/tl_cache4.py"))
        .arg("b")
        .arg(masf_testkit::corpus::root())
        .output()
        .unwrap();
    assert!(
        sql.status.success(),
        "{}",
        String::from_utf8_lossy(&sql.stderr)
    );
    let b_sql = tmp.path().join("b.sql");
    std::fs::write(&b_sql, &sql.stdout).unwrap();
    let a_db = repo.join("tests/fixtures/android-telegram/out/a").join(rel);
    let cases = [
        ("a", a_db, "messages_v2", "202,204"),
        ("b", b_sql, "messages", "-210004,301"),
    ];
    for (source, from, table, delete) in &cases {
        // the store unchanged (the oracle) and changed
        change(
            from,
            &tmp.path().join(format!("{source}0")).join(rel),
            &tmp.path().join(format!("{source}0.json")),
            table,
            "mid",
            "0",
            "0",
            "mid",
        );
        change(
            from,
            &tmp.path().join(source).join(rel),
            &tmp.path().join(format!("{source}.json")),
            table,
            "mid",
            delete,
            "0",
            "mid",
        );
    }
    let dirs: Vec<(String, std::path::PathBuf)> = ["a0", "a", "b0", "b"]
        .iter()
        .map(|s| (s.to_string(), tmp.path().join(s)))
        .collect();
    let sources: Vec<(&str, &std::path::Path, &str, Option<&str>)> = dirs
        .iter()
        .map(|(s, p)| (s.as_str(), p.as_path(), "Europe/Moscow", Some("RU")))
        .collect();
    let run = triage(&sources);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, _, _, delete) in &cases {
        let before = run.all_phenomena(&format!("{source}0"));
        let after = run.all_phenomena(source);
        let recovered = recovered_in(&after);
        let mids: Vec<&str> = delete.split(',').collect();
        assert_eq!(recovered.len(), mids.len(), "{recovered:#?}");
        for mid in mids {
            let live = before
                .iter()
                .find(|p| p.title.starts_with(&format!("Telegram message {mid} ")))
                .unwrap_or_else(|| panic!("{mid} read live"));
            let p = recovered
                .iter()
                .find(|p| p.title == format!("Deleted {} (recovered)", live.title))
                .unwrap_or_else(|| panic!("{}: {recovered:#?}", live.title));
            let values = |p: &Phenomenon| {
                let mut v: Vec<String> = p
                    .verified_facts
                    .iter()
                    .map(|f| f.value.clone())
                    .filter(|v| v != "deleted")
                    .collect();
                v.sort();
                v
            };
            assert_eq!(values(p), values(live), "{mid}");
        }
    }
}

/// Apple Notes (`ios::notes`): two iPhones' real `NoteStore.sqlite` with their logs (iLEAPP's
/// public Josh Hickman iOS 17 and Belkasoft CTF 6 cases), each with one note's text edited and
/// another note's data row deleted by Python's sqlite3 in WAL mode
/// (`tests/fixtures/wal/notes_wal.py`, which reads the texts as they were apart from the reader:
/// gzip, then the protobuf's field 2 → 3 → 2): the earlier text and the deleted one come back,
/// each under its note's live title.
#[test]
fn deleted_and_earlier_note_texts_come_back_from_the_log_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let mut oracles = Vec::new();
    for (source, zip, group, edit, delete) in [
        (
            "a",
            "ios/ileapp/testdata.notes.notes.josh_ios17_ffs.zip",
            "72DA7FCC-4DD6-458D-A328-D7CD7ED267D2",
            "15",
            "16",
        ),
        (
            "b",
            "ios/ileapp/testdata.cloudkitSharing.cloudkit_participants.belkasoft_ctf6_ios_device1.zip",
            "AF67BA79-B4B6-4F89-AD78-9054620F3322",
            "1",
            "2",
        ),
    ] {
        let real = tmp.path().join(format!("{source}-real/NoteStore.sqlite"));
        std::fs::create_dir_all(real.parent().unwrap()).unwrap();
        let out = std::process::Command::new("python3")
            .args([
                "-c",
                "import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nfor s in ('', '-wal'):\n    n=[i for i in z.namelist() if i.endswith('/NoteStore.sqlite'+s)][0]\n    open(sys.argv[2]+s,'wb').write(z.read(n))",
            ])
            .arg(masf_testkit::corpus::path(zip))
            .arg(&real)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dest = tmp
            .path()
            .join(source)
            .join("private/var/mobile/Containers/Shared/AppGroup")
            .join(group)
            .join("NoteStore.sqlite");
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let args: Vec<&std::ffi::OsStr> = vec![
            real.as_os_str(),
            dest.as_os_str(),
            oracle_file.as_os_str(),
            edit.as_ref(),
            delete.as_ref(),
        ];
        let o = generate("", "tests/fixtures/wal/notes_wal.py", &args, &oracle_file);
        oracles.push((source, o));
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, o) in &oracles {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        for (kind, word) in [("changed", "Earlier version of"), ("deleted", "Deleted")] {
            let note = &o[kind]["note"];
            let text = o[kind]["text"].as_str().unwrap();
            let p = recovered
                .iter()
                .find(|p| p.title.starts_with(&format!("{word} note {note}: ")))
                .unwrap_or_else(|| panic!("{source} {kind}: {recovered:#?}"));
            assert_eq!(p.category, "notes");
            assert!(
                has_fact(p, &masf_plugins::outputs::in_json_cell(text)),
                "{text}: {p:#?}"
            );
            assert!(!p.title.contains("no longer listed"), "{}", p.title);
        }
        // the live note shows the edit
        let edited = o["edited_to"].as_str().unwrap();
        assert!(
            all.iter().any(|p| p.title.starts_with("Note ")
                && p.verified_facts.iter().any(|f| f.value == edited)),
            "{edited}"
        );
    }
}

/// Safari history (`ios::safarihistory`): plaso's real `History.db` and one built from Safari's
/// schema (`tests/fixtures/wal/safari_history.sql`), pages deleted with their visits by Python's
/// sqlite3 in WAL mode (as clearing history deletes them): every deleted visit comes back with its
/// page's URL, title and time.
#[test]
fn cleared_safari_history_comes_back_from_the_log_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let mut oracles = Vec::new();
    for (source, from, rel, delete) in [
        (
            "a",
            masf_testkit::corpus::path("ios/plaso-safari-History.db"),
            "private/var/mobile/Library/Safari/History.db",
            "31,33",
        ),
        (
            "b",
            masf_testkit::corpus::repo_root().join("tests/fixtures/wal/safari_history.sql"),
            "private/var/mobile/Containers/Data/Application/6C1A2B3D-0000-4000-8000-00000000A001/Library/Safari/History.db",
            "1,2",
        ),
    ] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let o = change_with(
            &from,
            &tmp.path().join(source).join(rel),
            &oracle_file,
            "history_items",
            "id",
            delete,
            "0",
            "url",
            Some("history_visits.history_item"),
        );
        oracles.push((source, from, delete, o));
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, from, delete, o) in &oracles {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        // the deleted pages' visits, as the unchanged store holds them (read by the sqlite3 CLI
        // from a copy)
        let copy = tmp.path().join(format!("{source}-oracle.db"));
        if from.extension().is_some_and(|e| e == "sql") {
            crate::android_support::sqlite_fixture(&copy, "wal/safari_history.sql", "SELECT 1;");
        } else {
            std::fs::copy(from, &copy).unwrap();
        }
        let visits = crate::browsers::sqlite3(
            &copy,
            &format!(
                "SELECT v.id, i.url, v.visit_time FROM history_visits v JOIN history_items i ON i.id = v.history_item WHERE i.id IN ({delete})"
            ),
        );
        assert!(!visits.is_empty());
        for v in &visits {
            let (id, url, time) = (&v[0], &v[1], &v[2]);
            let p = recovered
                .iter()
                .find(|p| p.title == format!("Deleted Safari visit {id} to {url} (recovered)"))
                .unwrap_or_else(|| panic!("{id} {url}: {recovered:#?}"));
            assert_eq!(p.category, "web");
            let at: f64 = p.verified_facts[p.times[0].fact].value.parse().unwrap();
            assert!((at - time.parse::<f64>().unwrap()).abs() < 1e-6, "{p:#?}");
        }
        assert_eq!(changed_rows(o), delete.split(',').count());
    }
}

/// Viber for Android (`android::vibermsg`): the committed `viber_messages` schema with its
/// conversations (`tests/fixtures/viber/viber_messages.sql`), two phones' states with a message
/// deleted by Python's sqlite3 in WAL mode: each comes back with its text, time and the
/// participant's number from the live participants.
#[test]
fn deleted_viber_messages_come_back_from_the_log_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = masf_testkit::corpus::repo_root().join("tests/fixtures/viber/viber_messages.sql");
    let rel = "data/data/com.viber.voip/databases/viber_messages";
    let mut oracles = Vec::new();
    for (source, delete) in [("v", "1"), ("w", "2")] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let o = change(
            &schema,
            &tmp.path().join(source).join(rel),
            &oracle_file,
            "messages",
            "_id",
            delete,
            "0",
            "body",
        );
        oracles.push((source, o));
    }
    let (v, w) = (tmp.path().join("v"), tmp.path().join("w"));
    let run = triage(&[
        ("v", &v, "Asia/Hong_Kong", Some("HK")),
        ("w", &w, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, title) in [
        ("v", "Deleted Viber message from +85298765432 (recovered)"),
        (
            "w",
            "Deleted Viber message sent in conversation 1 (recovered)",
        ),
    ] {
        let o = &oracles.iter().find(|(s, _)| *s == source).unwrap().1;
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        assert_eq!(recovered.len(), 1, "{recovered:#?}");
        let p = recovered[0];
        assert_eq!(p.title, title);
        let m = o["deleted"].as_object().unwrap().values().next().unwrap();
        assert!(has_fact(p, m["body"].as_str().unwrap()), "{p:#?}");
        assert_eq!(
            p.verified_facts[p.times[0].fact].value,
            m["msg_date"].to_string()
        );
    }
}

/// Kik for iOS (`ios::kik`): plaso's real `kik.sqlite` and one built from Kik's Core Data schema
/// (`tests/fixtures/wal/kik_ios.sql`), messages deleted by Python's sqlite3 in WAL mode: each
/// comes back with its text, time and the user's name from the live users.
#[test]
fn deleted_kik_messages_come_back_from_the_log_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "private/var/mobile/Containers/Shared/AppGroup/2A1C3E5F-0000-4000-8000-00000000B001/cores/private/9f1a/kik.sqlite";
    let mut oracles = Vec::new();
    for (source, from, delete, user) in [
        (
            "a",
            masf_testkit::corpus::path("ios/plaso-kik.sqlite"),
            "2,5",
            None,
        ),
        (
            "b",
            masf_testkit::corpus::repo_root().join("tests/fixtures/wal/kik_ios.sql"),
            "1",
            Some("dealmaker99"),
        ),
    ] {
        let oracle_file = tmp.path().join(format!("{source}.json"));
        let o = change(
            &from,
            &tmp.path().join(source).join(rel),
            &oracle_file,
            "ZKIKMESSAGE",
            "Z_PK",
            delete,
            "0",
            "ZBODY",
        );
        oracles.push((source, o, user));
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, o, user) in &oracles {
        let all = run.all_phenomena(source);
        let recovered = recovered_in(&all);
        assert_eq!(recovered.len(), changed_rows(o), "{recovered:#?}");
        for (pk, m) in o["deleted"].as_object().unwrap() {
            let p = recovered
                .iter()
                .find(|p| p.title.starts_with(&format!("Deleted Kik message {pk} ")))
                .unwrap_or_else(|| panic!("{pk}: {recovered:#?}"));
            assert!(has_fact(p, m["ZBODY"].as_str().unwrap()), "{p:#?}");
            assert_eq!(
                p.verified_facts[p.times[0].fact].value,
                m["ZTIMESTAMP"].to_string()
            );
            assert!(!p.title.contains("an unknown user"), "{}", p.title);
            if let Some(u) = user {
                assert!(p.title.contains(u), "{}", p.title);
            }
        }
    }
}

/// Two iPhones' `sms.db` without a log, messages deleted with secure_delete off as Apple's SQLite
/// leaves it (`tests/fixtures/wal/sms_wal.py`, phones e and f: iOS 16's layout and an older one):
/// the deleted messages come back from the file's free space — whole freed pages, free blocks,
/// unallocated space —, each recorded as recovered with the GUID, text, handle and time the
/// generator wrote; a message whose cell lost its rowid is said so ("(rowid lost)"); no
/// recovered message is one the generator never deleted; the live messages are recorded once.
#[test]
fn messages_deleted_before_the_last_checkpoint_come_back_from_free_space_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/wal/sms_wal.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (e, f) = (tmp.path().join("e"), tmp.path().join("f"));
    let run = triage(&[
        ("e", &e, "America/New_York", Some("US")),
        ("f", &f, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, live) in [("e", 356), ("f", 127)] {
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let messages = all
            .iter()
            .filter(|p| p.category == "messages" && !p.title.ends_with("(recovered)"))
            .filter(|p| p.interpretation.starts_with("Message ROWID"))
            .count();
        assert_eq!(messages, live, "{source}: the live messages, once each");
        let oracle = &o[source];
        let deleted = oracle["deleted"].as_object().unwrap();
        let mut found = std::collections::BTreeSet::new();
        let mut lost = 0;
        for p in recovered_in(&all) {
            let (rowid, m) = deleted
                .iter()
                .find(|(_, m)| has_fact(p, m["guid"].as_str().unwrap()))
                .unwrap_or_else(|| panic!("{source}: a message never deleted: {p:#?}"));
            let handle = oracle["handles"][m["handle_id"].to_string()]
                .as_str()
                .unwrap();
            let to_from = if m["is_from_me"] == 1 {
                "sent to"
            } else {
                "received from"
            };
            let whole = format!("Deleted message {rowid} {to_from} {handle} (recovered)");
            let headless = format!(
                "Deleted or earlier version of message (rowid lost) {to_from} {handle} (recovered)"
            );
            assert!(
                p.title == whole || p.title == headless,
                "{}: {whole}",
                p.title
            );
            lost += usize::from(p.title == headless);
            assert!(has_fact(p, m["text"].as_str().unwrap()), "{p:#?}");
            assert!(has_fact(p, handle));
            assert_eq!(
                &p.verified_facts[p.times[0].fact].value,
                &m["date"].to_string()
            );
            assert!(
                p.interpretation.contains("of the database file"),
                "{}",
                p.interpretation
            );
            found.insert(rowid.clone());
        }
        // most come back (rows whose bytes SQLite reused for later cells are gone); some
        // without their rowid, said so
        let (least, of) = if source == "e" { (30, 44) } else { (6, 23) };
        assert_eq!(deleted.len(), of);
        assert!(found.len() >= least, "{source}: {found:?}");
        assert!(lost > 0, "{source}");
    }
}

/// Viber on two iPhones (`ios::viber`): its `Contacts.data` built from the committed schema and
/// rows (`tests/fixtures/viber/contacts.sql`); phone a's changed by Python's sqlite3 in WAL mode
/// (message 1 deleted, message 2's text edited), phone b's changed with secure_delete off and
/// the log checkpointed (messages 1 and 3 deleted: only the file's free space keeps them). Each
/// comes back with its text, time, conversation or sender named from the live tables, said
/// recovered and from where.
#[test]
fn deleted_viber_messages_come_back_from_the_log_and_free_space_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "private/var/mobile/Containers/Shared/AppGroup/0D1C2B3A-4F5E-4D6C-8B7A-9F8E7D6C5B4A/com.viber/database/Contacts.data";
    let schema = masf_testkit::corpus::repo_root().join("tests/fixtures/viber/contacts.sql");
    let store = OnTwoIphones {
        rel,
        table: "ZVIBERMESSAGE",
        key: "Z_PK",
        column: "ZTEXT",
        zone: ("Asia/Hong_Kong", "HK"),
    };
    let (oa, ob, run) = store.changed(tmp.path(), (&schema, "1", "2"), (&schema, "1,3"));
    // a: the log
    let all = run.all_phenomena("a");
    let recovered = recovered_in(&all);
    assert_eq!(recovered.len(), changed_rows(&oa), "{recovered:#?}");
    let p = recovered
        .iter()
        .find(|p| p.title == "Deleted Viber message 1 from Man Ho Chan (recovered)")
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    assert!(has_fact(p, oa["deleted"]["1"]["ZTEXT"].as_str().unwrap()));
    assert!(has_fact(p, "Man Ho Chan"));
    assert_eq!(p.verified_facts[p.times[0].fact].value, "720000000");
    let p = recovered
        .iter()
        .find(|p| {
            p.title == "Earlier version of Viber message 2 sent in conversation 1 (recovered)"
        })
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    assert!(has_fact(p, "done"), "{p:#?}");
    assert!(
        p.interpretation.contains("write-ahead log"),
        "{}",
        p.interpretation
    );
    // b: the free space; a message whose cell lost its Z_PK is said so
    let all = run.all_phenomena("b");
    let recovered = recovered_in(&all);
    assert!(
        !recovered.is_empty() && recovered.len() <= 2,
        "{recovered:#?}"
    );
    for p in &recovered {
        assert!(
            p.interpretation.contains("of the database file"),
            "{}",
            p.interpretation
        );
        let (pk, sender) = if has_fact(p, "Man Ho Chan") {
            ("1", "Man Ho Chan")
        } else {
            ("3", "Lam OTC")
        };
        assert!(
            [
                format!("Deleted Viber message {pk} from {sender} (recovered)"),
                format!("Deleted or earlier version of Viber message (rowid lost) from {sender} (recovered)"),
            ]
            .contains(&p.title),
            "{}",
            p.title
        );
        let m = &ob["deleted"][pk];
        assert_eq!(
            p.verified_facts[p.times[0].fact].value,
            m["ZSTATEDATE"].to_string()
        );
        if let Some(text) = m["ZTEXT"].as_str() {
            assert!(has_fact(p, text), "{p:#?}");
        }
    }
}

/// LINE on two iPhones (`ios::line`): `Line.sqlite` built from the two committed LINE fixtures
/// (`tests/fixtures/asia/line-ios-{a,b}.sql`); phone a's changed in WAL mode (a received message
/// deleted, a sent one edited), phone b's changed with secure_delete off and the log
/// checkpointed (a received message deleted: only the free space keeps it). Each comes back
/// with its text, server id, time and the sender's mid and name from the live `ZUSER`.
#[test]
fn deleted_line_messages_come_back_from_the_log_and_free_space_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "private/var/mobile/Containers/Shared/AppGroup/7C1E3B2A-9D8F-4E6A-B5C4-2F1E0D9C8B7A/Library/Application Support/PrivateStore/P_u3f0/Messages/Line.sqlite";
    let fixtures = masf_testkit::corpus::repo_root().join("tests/fixtures/asia");
    let store = OnTwoIphones {
        rel,
        table: "ZMESSAGE",
        key: "Z_PK",
        column: "ZTEXT",
        zone: ("Asia/Tokyo", "JP"),
    };
    let (oa, ob, run) = store.changed(
        tmp.path(),
        (&fixtures.join("line-ios-a.sql"), "2", "1"),
        (&fixtures.join("line-ios-b.sql"), "1"),
    );
    let all = run.all_phenomena("a");
    let recovered = recovered_in(&all);
    assert_eq!(recovered.len(), changed_rows(&oa), "{recovered:#?}");
    let p = recovered
        .iter()
        .find(|p| p.title == "Deleted LINE message 2 from 陳美 (recovered)")
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    let m = &oa["deleted"]["2"];
    for v in ["ZTEXT", "ZID"] {
        assert!(has_fact(p, m[v].as_str().unwrap()), "{v}: {p:#?}");
    }
    assert!(has_fact(p, "u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e"));
    assert_eq!(
        p.verified_facts[p.times[0].fact].value,
        m["ZTIMESTAMP"].to_string()
    );
    let p = recovered
        .iter()
        .find(|p| {
            p.title
                == "Earlier version of LINE message 1 sent to u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e (recovered)"
        })
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    assert!(has_fact(p, oa["changed"]["1"]["ZTEXT"].as_str().unwrap()));
    // b: from the free space, with its Z_PK or said lost
    let all = run.all_phenomena("b");
    let recovered = recovered_in(&all);
    assert_eq!(recovered.len(), 1, "{recovered:#?}");
    let p = recovered[0];
    let m = &ob["deleted"]["1"];
    assert!(
        p.title.ends_with("LINE message 1 from 陳美 (recovered)")
            || p.title.ends_with("(rowid lost) from 陳美 (recovered)"),
        "{}",
        p.title
    );
    assert!(has_fact(p, m["ZTEXT"].as_str().unwrap()), "{p:#?}");
    assert!(
        p.interpretation.contains("of the database file"),
        "{}",
        p.interpretation
    );
}

/// Snapchat (`crate::snapchat`, shared by both platforms) on an Android phone and an iPhone:
/// the committed `arroyo.db` (`tests/fixtures/snapchat/`, generate.sh) changed on the phone in
/// WAL mode (message 2 deleted, message 1's state edited) and on the iPhone with secure_delete
/// off and the log checkpointed (messages 1 and 4 deleted: only the free space keeps them).
/// Each comes back with the text its `message_content` protobuf holds (4 › 4 › 2 › 1), its
/// server id and sender, said recovered and from where.
#[test]
fn deleted_snapchat_messages_come_back_from_the_log_and_free_space_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = masf_testkit::corpus::repo_root().join("tests/fixtures/snapchat/arroyo.db");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let oa = change(
        &fixture,
        &a.join("data/data/com.snapchat.android/databases/arroyo.db"),
        &tmp.path().join("a.json"),
        "conversation_message",
        "rowid",
        "2",
        "1",
        "message_state_type",
    );
    change_free(
        &fixture,
        &b.join("private/var/mobile/Containers/Data/Application/9A1B2C3D-4E5F-4A6B-8C7D-0E1F2A3B4C5D/Documents/user_scoped/77e1f0aa/arroyo/arroyo.db"),
        &tmp.path().join("b.json"),
        "conversation_message",
        "rowid",
        "1,4",
        "0",
        "message_state_type",
    );
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(b.join("private/var/mobile/Library")).unwrap();
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    let recovered = recovered_in(&all);
    assert_eq!(recovered.len(), changed_rows(&oa), "{recovered:#?}");
    let p = recovered
        .iter()
        .find(|p| p.title.starts_with("Deleted Snapchat message 2 from "))
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    assert!(has_fact(p, "yeah. meet at the usual spot, 10"), "{p:#?}");
    assert!(has_fact(p, "9002"));
    let p = recovered
        .iter()
        .find(|p| {
            p.title
                .starts_with("Earlier version of Snapchat message 1 ")
        })
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    assert!(has_fact(p, "9001"), "{p:#?}");
    assert!(
        has_fact(
            p,
            "you got the 2 bags? send btc to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
        ),
        "{p:#?}"
    );
    // the iPhone: from the free space
    let all = run.all_phenomena("b");
    let recovered = recovered_in(&all);
    assert!(
        !recovered.is_empty() && recovered.len() <= 2,
        "{recovered:#?}"
    );
    for p in &recovered {
        assert!(
            p.interpretation.contains("of the database file"),
            "{}",
            p.interpretation
        );
        assert!(
            has_fact(p, "who is this?")
                || has_fact(
                    p,
                    "you got the 2 bags? send btc to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
                ),
            "{p:#?}"
        );
    }
}

/// Threema on two iPhones (`ios::threema`): phone a's `ThreemaData.sqlite` (the store
/// `tests/it/threema.rs` writes with Python's sqlite3) changed in WAL mode (a received text
/// deleted, a sent one edited) and again with secure_delete off and the log checkpointed (two
/// texts deleted: only the free space keeps them). Each comes back with its text, time and the
/// sender's Threema ID and name from the live `ZCONTACT`.
#[test]
fn deleted_threema_messages_come_back_from_the_log_and_free_space_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("ThreemaData.sqlite");
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(crate::threema::STORE)
        .arg(&base)
        .arg("a")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rel = "private/var/mobile/Containers/Shared/AppGroup/1F2E3D4C-5B6A-4978-8A9B-0C1D2E3F4A5B/ThreemaData.sqlite";
    let store = OnTwoIphones {
        rel,
        table: "ZMESSAGE",
        key: "Z_PK",
        column: "ZTEXT",
        zone: ("Europe/London", "GB"),
    };
    let (oa, ob, run) = store.changed(tmp.path(), (&base, "5", "1"), (&base, "1,2"));
    let all = run.all_phenomena("a");
    let recovered = recovered_in(&all);
    assert_eq!(recovered.len(), changed_rows(&oa), "{recovered:#?}");
    let p = recovered
        .iter()
        .find(|p| p.title == "Deleted Threema message 5 from lena.v (recovered)")
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    assert!(has_fact(p, "who has the van keys?"), "{p:#?}");
    assert!(has_fact(p, "9KX4PQ2Z"));
    assert_eq!(
        p.verified_facts[p.times[0].fact].value,
        oa["deleted"]["5"]["ZDATE"].to_string()
    );
    let p = recovered
        .iter()
        .find(|p| {
            p.title == "Earlier version of Threema message 1 sent in conversation 1 (recovered)"
        })
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    assert!(
        has_fact(p, oa["changed"]["1"]["ZTEXT"].as_str().unwrap()),
        "{p:#?}"
    );
    // b: the free space
    let all = run.all_phenomena("b");
    let recovered = recovered_in(&all);
    assert!(
        !recovered.is_empty() && recovered.len() <= 2,
        "{recovered:#?}"
    );
    for p in &recovered {
        assert!(
            p.interpretation.contains("of the database file"),
            "{}",
            p.interpretation
        );
        assert!(
            ["1", "2"]
                .iter()
                .any(|k| has_fact(p, ob["deleted"][*k]["ZTEXT"].as_str().unwrap())),
            "{p:#?}"
        );
    }
}

/// Facebook Messenger's msys store (`crate::messenger`, both platforms), built from
/// `tests/fixtures/messenger/msys.sql`: on an Android phone a received message deleted and a sent
/// one edited in WAL mode come back with their text, time, thread and the sender named from the
/// live contacts — the deleted one's wallet address still its writer's claim; on an iPhone a
/// message deleted with secure_delete off and checkpointed comes back from the free space.
#[test]
fn deleted_messenger_messages_come_back_from_the_log_and_free_space_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = masf_testkit::corpus::repo_root().join("tests/fixtures/messenger/msys.sql");
    let uid = "100012345678901";
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let oa = change(
        &schema,
        &a.join(format!(
            "data/data/com.facebook.orca/databases/msys_database_{uid}"
        )),
        &tmp.path().join("a.json"),
        "messages",
        "rowid",
        "1",
        "2",
        "text",
    );
    // the iPhone's store has been in use longer: a message of a later rowid (payload length and
    // rowid two bytes each, so freeing the cell overwrites only them)
    let later = tmp.path().join("later.sql");
    std::fs::write(
        &later,
        "INSERT INTO messages (rowid, thread_key, timestamp_ms, message_id, offline_threading_id, sender_id, text, is_admin_message, send_status) VALUES \
         (5000, 100098765432101, 1739599000000, 'mid.$cAAAAC9', '8209', 100098765432101, \
         'Move the rest to bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn tonight, and delete this chat after you read it.', 0, 2);",
    )
    .unwrap();
    let ob = change_free(
        std::path::Path::new(&format!("{}+{}", schema.display(), later.display())),
        &b.join(format!(
            "private/var/mobile/Containers/Shared/AppGroup/6A1C2F3E-7B8D-4E9F-A0B1-C2D3E4F5A6B7/lightspeed-userDatabases/{uid}.db"
        )),
        &tmp.path().join("b.json"),
        "messages",
        "rowid",
        "5000",
        "0",
        "text",
    );
    std::fs::create_dir_all(b.join("private/var/mobile/Library")).unwrap();
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    let recovered = recovered_in(&all);
    assert_eq!(recovered.len(), changed_rows(&oa), "{recovered:#?}");
    let deleted = &oa["deleted"]["1"];
    let p = recovered
        .iter()
        .find(|p| p.title == "Deleted Facebook Messenger message from Man Ho Chan (recovered)")
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    for v in [
        deleted["text"].as_str().unwrap(),
        deleted["message_id"].as_str().unwrap(),
        "Man Ho Chan",
        "100098765432101",
    ] {
        assert!(has_fact(p, v), "{v}: {p:#?}");
    }
    assert_eq!(
        p.verified_facts[p.times[0].fact].value,
        deleted["timestamp_ms"].to_string()
    );
    // the deleted message's TRON address is still its writer's claim
    assert!(
        all.iter()
            .any(|c| c.title.contains("TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")
                && c.interpretation
                    .contains("recovered Facebook Messenger message")),
        "{all:#?}"
    );
    let p = recovered
        .iter()
        .find(|p| {
            p.title
                == "Earlier version of Facebook Messenger message sent in thread 100098765432101 (recovered)"
        })
        .unwrap_or_else(|| panic!("{recovered:#?}"));
    assert!(
        has_fact(p, oa["changed"]["2"]["text"].as_str().unwrap()),
        "{p:#?}"
    );
    // b: the free space of the database file (a freed cell's first four bytes are lost: for a
    // rowid under 128 and a short record those reach the first serial type, which a table whose
    // first column is not the rowid cannot do without, so such a cell is not carved)
    let all = run.all_phenomena("b");
    let recovered = recovered_in(&all);
    assert_eq!(recovered.len(), 1, "{recovered:#?}");
    let p = recovered[0];
    let deleted = &ob["deleted"]["5000"];
    assert_eq!(
        p.title,
        "Deleted or earlier version of Facebook Messenger message from Man Ho Chan (recovered)"
    );
    for v in ["text", "message_id"] {
        assert!(has_fact(p, deleted[v].as_str().unwrap()), "{v}: {p:#?}");
    }
    assert!(
        p.interpretation.contains("of the database file"),
        "{}",
        p.interpretation
    );
}
