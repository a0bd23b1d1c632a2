//! `sqlite_wal_history` on databases SQLite itself wrote in WAL mode (Python's sqlite3, copied
//! with their -wal while open, `tests/fixtures/wal/wal_history.py`): rows deleted since the last
//! checkpoint (one on overflow pages, one inserted and deleted inside the log) and a row edited
//! are recovered with the exact values the generator wrote (its oracle); after the log is reset,
//! the earlier generation's frames still give deleted rows and never a row that was not there.
//! A database without a log gives none; a log whose header is no WAL header is refused naming
//! its offset; a log cut mid-frame is read to its last whole frame; the evidence is unchanged.

use std::collections::BTreeMap;

use masf_store::InvocationStatus;
use masf_tools::{Catalog, Limits};
use serde_json::{Value, json};

use crate::support::{call, generated, invoker, run, store};

/// The rows of a `sqlite_wal_history` output by status: rowid → (frame_state, cells).
fn rows(text: &str) -> BTreeMap<(String, i64), (String, Vec<String>)> {
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(
        header[..5],
        ["status", "frame", "frame_state", "frames", "rowid"]
    );
    lines
        .filter(|l| l.split('\t').nth(4) != Some("NULL"))
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (
                (c[0].to_string(), c[4].parse().unwrap()),
                (
                    c[2].to_string(),
                    c[5..].iter().map(|s| s.to_string()).collect(),
                ),
            )
        })
        .collect()
}

/// The oracle's row as `sqlite_query` writes its cells.
fn cells(row: &Value) -> Vec<String> {
    let r = row.as_array().unwrap();
    r.iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Null => "NULL".to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) if i == 6 => format!("x'{s}'"),
            Value::String(s) => masf_tools::sqlite::escape_cell(s),
            other => panic!("{other}"),
        })
        .collect()
}

#[test]
fn deleted_and_changed_rows_come_back_from_the_write_ahead_log() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("src");
    let o = generated("tests/fixtures/wal/wal_history.py", &root);
    // damaged logs beside a copy of the database
    for (d, wal) in [
        ("d", {
            let mut w = std::fs::read(root.join("a/sms.db-wal")).unwrap();
            w[..4].copy_from_slice(b"JUNK");
            w
        }),
        ("e", {
            let w = std::fs::read(root.join("a/sms.db-wal")).unwrap();
            w[..w.len() - 1000].to_vec()
        }),
    ] {
        std::fs::create_dir_all(root.join(d)).unwrap();
        std::fs::copy(root.join("a/sms.db"), root.join(d).join("sms.db")).unwrap();
        std::fs::write(root.join(d).join("sms.db-wal"), wal).unwrap();
    }
    let hash = |p: &str| masf_evidence::hash_file(&root.join(p), &mut |_| {}).unwrap();
    let before: Vec<_> = ["a/sms.db", "a/sms.db-wal", "b/sms.db", "b/sms.db-wal"]
        .iter()
        .map(|p| hash(p))
        .collect();
    let src = std::sync::Arc::new(masf_tools::SourceCtx::open("src-folder", &root).unwrap());

    // a: the deleted rows from the database file and from inside the log; the edited row's
    // earlier version
    let a = run(
        &src,
        "sqlite_wal_history",
        json!({"path": "/a/sms.db", "table": "message"}),
    );
    let got = rows(&a.text);
    let mut want = BTreeMap::new();
    for (id, r) in o["a"]["deleted"].as_object().unwrap() {
        want.insert(
            ("deleted".to_string(), id.parse::<i64>().unwrap()),
            cells(r),
        );
    }
    for (id, r) in o["a"]["changed"].as_object().unwrap() {
        want.insert(
            ("changed".to_string(), id.parse::<i64>().unwrap()),
            cells(r),
        );
    }
    let have: BTreeMap<_, _> = got
        .iter()
        .map(|(k, (_, c))| (k.clone(), c.clone()))
        .collect();
    assert_eq!(have, want, "{}", a.text);
    // rows from free space without their rowid: each one the generator wrote
    for l in a.text.lines().filter(|l| l.starts_with("freed\t")) {
        let c: Vec<String> = l.split('\t').skip(5).map(str::to_string).collect();
        assert!(
            want.values().any(|w| w[1..] == c[1..]),
            "a row never written: {l}"
        );
    }
    assert_eq!(got[&("deleted".into(), 7)].0, "database file");
    assert_eq!(got[&("deleted".into(), 152)].0, "committed");
    assert!(
        got[&("deleted".into(), 7)].1[2].len() > 9000,
        "the text on overflow pages, whole"
    );
    assert!(
        a.text
            .lines()
            .any(|l| l.starts_with("# wal /a/sms.db-wal: ")),
        "{}",
        a.text
    );
    assert_eq!(a.structured.as_ref().unwrap()["deleted"], json!(4));
    assert!(a.structured.as_ref().unwrap()["freed"].as_u64() > Some(0));
    // the same call gives the same bytes
    let again = run(
        &src,
        "sqlite_wal_history",
        json!({"path": "/a/sms.db", "table": "message"}),
    );
    assert_eq!(again.text, a.text);

    // b: the log reset; the edit at its start, earlier frames of the previous generation after
    let b = run(
        &src,
        "sqlite_wal_history",
        json!({"path": "/b/sms.db", "table": "message"}),
    );
    let got = rows(&b.text);
    assert_eq!(
        got[&("changed".into(), 10)].1,
        cells(&o["b"]["changed"]["10"]),
        "{}",
        b.text
    );
    let any_of = o["b"]["deleted_any_of"].as_object().unwrap();
    let mut earlier_generation = 0;
    for ((status, id), (state, c)) in &got {
        if status == "deleted" {
            assert_eq!(c, &cells(&any_of[&id.to_string()]), "row {id}: {}", b.text);
            if state == "earlier generation" {
                earlier_generation += 1;
            }
        } else {
            assert_eq!(*id, 10, "{}", b.text);
        }
    }
    assert!(earlier_generation > 0, "{}", b.text);
    let summary = b.text.lines().find(|l| l.starts_with("# wal ")).unwrap();
    assert!(!summary.contains(" 0 earlier generation"), "{summary}");

    // c: no log, no rows
    let c = run(
        &src,
        "sqlite_wal_history",
        json!({"path": "/c/plain.db", "table": "t"}),
    );
    assert!(
        c.text.contains("\n# wal /c/plain.db-wal: none; table t: "),
        "{}",
        c.text
    );
    assert_eq!(c.text.lines().filter(|l| !l.starts_with('#')).count(), 1);

    // e: a log cut mid-frame is read to its last whole frame
    let e = run(
        &src,
        "sqlite_wal_history",
        json!({"path": "/e/sms.db", "table": "message"}),
    );
    assert!(
        rows(&e.text).contains_key(&("deleted".into(), 7)),
        "{}",
        e.text
    );

    // damaged logs (bytes overwritten across the frames, in many patterns): each read or
    // refused, never a panic; a damaged frame fails its checksum and is said so
    let wal = std::fs::read(root.join("a/sms.db-wal")).unwrap();
    let catalog = Catalog::standard();
    let tool = catalog.get("sqlite_wal_history").unwrap();
    for step in [13usize, 97, 389, 1021, 4099] {
        let d = root.join(format!("f{step}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(root.join("a/sms.db"), d.join("sms.db")).unwrap();
        let mut w = wal.clone();
        for i in (32 + step..w.len()).step_by(step) {
            w[i] ^= 0x5a;
        }
        std::fs::write(d.join("sms.db-wal"), w).unwrap();
    }
    let damaged = masf_tools::SourceCtx::open("damaged", &root).unwrap();
    for step in [13usize, 97, 389, 1021, 4099] {
        let r = tool.run(
            &damaged,
            &json!({"path": format!("/f{step}/sms.db"), "table": "message"}),
        );
        if let Ok(out) = r {
            let summary = out.text.lines().find(|l| l.starts_with("# wal ")).unwrap();
            assert!(!summary.contains(" 0 bad checksum"), "{step}: {summary}");
        }
    }

    // refusals: an unknown table, a log that is no log
    let (_store_dir, mut store) = store();
    let inv = invoker(Catalog::standard(), Limits::default());
    for (i, (args, said)) in [
        (
            json!({"path": "/a/sms.db", "table": "nosuch"}),
            "/a/sms.db has no table nosuch",
        ),
        (
            json!({"path": "/d/sms.db", "table": "message"}),
            "/d/sms.db-wal: corrupt at offset 0: magic",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let r = call(
            &inv,
            &mut store,
            &src,
            "sqlite_wal_history",
            args,
            "a",
            "t",
            i as i64 + 1,
        );
        assert_eq!(r.record.status, InvocationStatus::Failed);
        let reason = r.record.reason.unwrap();
        assert!(reason.contains(said), "{reason}");
    }
    let after: Vec<_> = ["a/sms.db", "a/sms.db-wal", "b/sms.db", "b/sms.db-wal"]
        .iter()
        .map(|p| hash(p))
        .collect();
    assert_eq!(before, after);
}

/// Real logs of two iPhones' Contacts and one iPhone's Notes (iLEAPP's public test cases in the
/// corpus): every table is read or, for a virtual table, refused as one; every frame is counted
/// (the log's size says how many there are); each row said deleted has no row of its rowid in the
/// table, and each row said changed differs from the table's row, both by the sqlite3 CLI on a
/// copy of the database and its log. The Notes log keeps an earlier version of a note's data.
#[test]
fn real_logs_of_two_iphones_hold_earlier_rows_that_sqlite_no_longer_shows() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "ios/ileapp/testdata.addressBook.addressBook.mvs_ios_2023.zip",
            "/private/var/mobile/Library/AddressBook/AddressBook.sqlitedb",
        ),
        (
            "ios/ileapp/testdata.addressBook.addressBook.belkasoft_ctf6_ios_device1.zip",
            "/private/var/mobile/Library/AddressBook/AddressBook.sqlitedb",
        ),
        (
            "ios/ileapp/testdata.notes.notes.josh_ios17_ffs.zip",
            "/filesystem1/private/var/mobile/Containers/Shared/AppGroup/72DA7FCC-4DD6-458D-A328-D7CD7ED267D2/NoteStore.sqlite",
        ),
    ];
    let catalog = Catalog::standard();
    let mut recovered = 0;
    let mut note_versions = 0;
    for (n, (zip, db)) in cases.iter().enumerate() {
        let zip_path = masf_testkit::corpus::path(zip);
        // the database and its log copied out for the sqlite3 CLI
        let out_dir = tmp.path().join(n.to_string());
        let py = "import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nfor s in ('', '-wal'):\n    n=[i for i in z.namelist() if i.lstrip('/')==sys.argv[2].lstrip('/')+s][0]\n    open(sys.argv[3]+s,'wb').write(z.read(n))";
        let copy = out_dir.join("db.sqlite");
        std::fs::create_dir_all(&out_dir).unwrap();
        let o = std::process::Command::new("python3")
            .args(["-c", py])
            .arg(&zip_path)
            .arg(db)
            .arg(&copy)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let wal_len = std::fs::metadata(format!("{}-wal", copy.display()))
            .unwrap()
            .len();
        let cli = |sql: &str| -> Vec<String> {
            let o = std::process::Command::new("sqlite3")
                .arg("-readonly")
                .arg(&copy)
                .arg(sql)
                .output()
                .unwrap();
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(str::to_string)
                .collect()
        };
        let src = masf_tools::SourceCtx::open("z", &zip_path).unwrap();
        let tables = cli("SELECT name || char(9) || sql FROM sqlite_master WHERE type = 'table'");
        for line in tables {
            let (table, sql) = line.split_once('\t').unwrap_or((&line, ""));
            let r = catalog
                .get("sqlite_wal_history")
                .unwrap()
                .run(&src, &json!({"path": db, "table": table}));
            let out = match r {
                Ok(out) => out,
                Err(e) => {
                    assert!(
                        sql.starts_with("CREATE VIRTUAL TABLE")
                            && e.to_string().contains("is a virtual table"),
                        "{table}: {e}"
                    );
                    continue;
                }
            };
            let summary = out.text.lines().find(|l| l.starts_with("# wal ")).unwrap();
            let frames = (wal_len - 32) / (24 + 4096);
            assert!(
                summary.contains(&format!(": {frames} frames of 4096-byte pages")),
                "{summary}"
            );
            for ((status, rowid), (_, _cells)) in rows(&out.text) {
                let now = cli(&format!(
                    "SELECT count(*) FROM \"{table}\" WHERE rowid = {rowid}"
                ));
                match status.as_str() {
                    "deleted" => assert_eq!(now, ["0"], "{table} {rowid}"),
                    "changed" => assert_eq!(now, ["1"], "{table} {rowid}"),
                    s => panic!("{s}"),
                }
                recovered += 1;
                if table == "ZICNOTEDATA" {
                    note_versions += 1;
                }
            }
        }
    }
    assert!(recovered > 50, "{recovered}");
    assert!(note_versions >= 1);
}

/// The oracle's row as `sqlite_query` writes it (no BLOB columns).
fn plain_cells(row: &Value) -> Vec<String> {
    row.as_array()
        .unwrap()
        .iter()
        .map(|v| match v {
            Value::Null => "NULL".to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => masf_tools::sqlite::escape_cell(s),
            other => panic!("{other}"),
        })
        .collect()
}

/// Databases SQLite wrote without a log, rows deleted and changed with secure_delete off
/// (`tests/fixtures/wal/free_space.py`): the rows come back from the freelist's pages, the free
/// blocks and the unallocated space, each equal to the generator's row (with its rowid, or with
/// the rowid lost when a free block's header overwrote it); a table altered by ADD COLUMN gives
/// its older, shorter records too; free pages that fit two tables are claimed by neither; the
/// same database written with secure_delete on gives nothing; after 4,000 random changes to
/// three tables, every row the free space gives is a version the generator wrote (its
/// oracle keeps them all); damaged copies are read or
/// refused, never a panic; the evidence is unchanged.
#[test]
fn deleted_rows_come_back_from_a_databases_free_space() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("src");
    let o = generated("tests/fixtures/wal/free_space.py", &root);
    let hash = |p: &str| masf_evidence::hash_file(&root.join(p), &mut |_| {}).unwrap();
    let before: Vec<_> = ["a/sms.db", "b/chat.db"].iter().map(|p| hash(p)).collect();
    let src = masf_tools::SourceCtx::open("free-space", &root).unwrap();
    let mut recalled = BTreeMap::new();
    for (db, table) in [
        ("a/sms.db", "message"),
        ("a/sms.db", "handle"),
        ("b/chat.db", "chat_message"),
        ("b/chat.db", "draft"),
        ("c/sms.db", "message"),
    ] {
        let out = run(
            &src,
            "sqlite_wal_history",
            json!({"path": format!("/{db}"), "table": table}),
        );
        let want = |k: &str| -> BTreeMap<i64, Vec<String>> {
            o[db][table][k]
                .as_object()
                .unwrap()
                .iter()
                .map(|(id, r)| (id.parse().unwrap(), plain_cells(r)))
                .collect()
        };
        let (deleted, changed) = (want("deleted"), want("changed"));
        let mut lines = out.text.lines().filter(|l| !l.starts_with('#'));
        lines.next();
        let mut found = std::collections::BTreeSet::new();
        let mut states = std::collections::BTreeSet::new();
        for l in lines {
            let c: Vec<String> = l.split('\t').map(str::to_string).collect();
            let (status, state, rowid, cells) = (&c[0], &c[2], &c[4], &c[5..]);
            assert!(
                ["freelist page", "free block", "unallocated"].contains(&state.as_str()),
                "{db} {table}: {l}"
            );
            states.insert(state.clone());
            match status.as_str() {
                "deleted" => {
                    let id: i64 = rowid.parse().unwrap();
                    assert_eq!(Some(&cells.to_vec()), deleted.get(&id), "{db} {table}: {l}");
                    found.insert(id);
                }
                "changed" => {
                    let id: i64 = rowid.parse().unwrap();
                    assert_eq!(Some(&cells.to_vec()), changed.get(&id), "{db} {table}: {l}");
                    found.insert(id);
                }
                "freed" => {
                    // the rowid is lost, and so the INTEGER PRIMARY KEY it stands for
                    assert_eq!(rowid, "NULL");
                    assert_eq!(cells[0], "NULL");
                    let id = deleted
                        .iter()
                        .chain(&changed)
                        .find(|(_, r)| r[1..] == cells[1..])
                        .map(|(id, _)| *id);
                    assert!(id.is_some(), "{db} {table}: a row never written: {l}");
                    found.insert(id.unwrap());
                }
                other => panic!("{other}: {l}"),
            }
        }
        let summary = out
            .text
            .lines()
            .find(|l| l.starts_with("# free space: "))
            .unwrap()
            .to_string();
        recalled.insert(
            (db, table),
            (found, deleted.len() + changed.len(), summary, states),
        );
    }
    let got = |db: &'static str, table: &'static str| &recalled[&(db, table)];
    // every deleted handle; most deleted messages, from all three places: the freelist pages
    // of rows 139-160, the free blocks of single deletions, the unallocated space of row 599
    // (the last written, at the start of its page's content); rows whose bytes SQLite reused
    // (rows 101-116, the earlier text of 42 and 43) are gone
    assert_eq!(got("a/sms.db", "handle").0.len(), 2);
    let (sms, _, _, states) = got("a/sms.db", "message");
    assert!(sms.len() >= 45, "{sms:?}");
    for id in [7, 33, 139, 160, 250, 251, 400, 599] {
        assert!(sms.contains(&id), "{id}: {sms:?}");
    }
    for s in ["freelist page", "free block", "unallocated"] {
        assert!(states.contains(s), "{s}: {states:?}");
    }
    // the altered table: its records from before ADD COLUMN (five values) and after (six)
    let (chat, _, summary, _) = got("b/chat.db", "chat_message");
    assert!(
        chat.iter().any(|id| *id < 200) && chat.iter().any(|id| *id > 200),
        "{chat:?}"
    );
    assert!(!summary.contains("(0 read as this table's"), "{summary}");
    // the draft table's freed pages also fit the altered table: neither claims them
    let (_, _, summary, states) = got("b/chat.db", "draft");
    assert!(!states.contains("freelist page"), "{summary}");
    assert!(
        !summary.contains(", 0 fitting other tables too"),
        "{summary}"
    );
    // secure_delete on: nothing
    assert!(got("c/sms.db", "message").0.is_empty());
    // churn: whatever the free space gives is a version of a row the generator wrote (with
    // its rowid when it says one), never a row made of bytes of several
    let mut churned = 0;
    for table in ["message", "contact", "note"] {
        let out = run(
            &src,
            "sqlite_wal_history",
            json!({"path": "/d/churn.db", "table": table}),
        );
        let versions = o["d/churn.db"][table].as_object().unwrap();
        let mut lines = out.text.lines().filter(|l| !l.starts_with('#'));
        lines.next();
        for l in lines {
            let c: Vec<String> = l.split('\t').map(str::to_string).collect();
            let cells = &c[5..];
            let written = |id: &str| {
                versions[id]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|v| plain_cells(v)[1..] == cells[1..])
            };
            if c[4] == "NULL" {
                assert!(
                    versions.keys().any(|id| written(id)),
                    "{table}: never written: {l}"
                );
            } else {
                assert!(
                    written(&c[4]),
                    "{table}: never written under its rowid: {l}"
                );
            }
            churned += 1;
        }
    }
    assert!(churned > 50, "{churned}");
    // damaged copies (bytes overwritten across every page but the first, which holds the
    // schema, in many patterns):
    // each read or refused, never a panic
    let db = std::fs::read(root.join("a/sms.db")).unwrap();
    let damaged = dir.path().join("damaged");
    for step in [7usize, 13, 97, 389, 1021, 4099] {
        let mut d = db.clone();
        for i in (4096 + step..d.len()).step_by(step) {
            d[i] ^= 0x5a;
        }
        std::fs::create_dir_all(&damaged).unwrap();
        std::fs::write(damaged.join(format!("{step}.db")), d).unwrap();
    }
    let src = masf_tools::SourceCtx::open("damaged", &damaged).unwrap();
    let catalog = Catalog::standard();
    let tool = catalog.get("sqlite_wal_history").unwrap();
    let mut read = 0;
    for step in [7usize, 13, 97, 389, 1021, 4099] {
        for table in ["message", "handle"] {
            let r = tool.run(
                &src,
                &json!({"path": format!("/{step}.db"), "table": table}),
            );
            match r {
                Ok(out) => read += usize::from(out.structured.unwrap()["from_free_space"] != 0),
                Err(e) => assert!(e.to_string().starts_with(&format!("/{step}.db")), "{e}"),
            }
        }
    }
    assert!(read > 0, "some damaged copy still gives its free space");
    let after: Vec<_> = ["a/sms.db", "b/chat.db"].iter().map(|p| hash(p)).collect();
    assert_eq!(before, after);
}

/// Real databases of two iPhones' apps (plaso's Twitter `twitter.db` and Kik `kik.sqlite`) and
/// two Android apps (plaso's Tango `tango_profile.db` and `tango_android_tc.db`), read in place:
/// every table is read (virtual ones refused as such); a row said deleted has no row of its
/// rowid now and one said changed has, by SQL on the same file; every text (not a number) the
/// free space gave is in the file's bytes as written; each store's free space gives rows (deleted Twitter
/// users and statuses, earlier Kik user records, cached Tango profiles and messages); the
/// files are unchanged.
#[test]
fn real_databases_of_ios_and_android_apps_keep_deleted_rows_in_free_space() {
    let cases = [
        ("ios", "plaso-twitter.db", "Users", "Heather Mahalik"),
        ("ios", "plaso-kik.sqlite", "ZKIKUSER", "jon.doh2015"),
        (
            "android",
            "plaso-tango_profile.db",
            "profiletable",
            "cget.tango.me",
        ),
        (
            "android",
            "plaso-tango_android_tc.db",
            "messages",
            "sw9dX9KKt9JIhOxd2Kkv9Q",
        ),
    ];
    let catalog = Catalog::standard();
    let tool = catalog.get("sqlite_wal_history").unwrap();
    for (dir, file, table_with_rows, text) in cases {
        let path = masf_testkit::corpus::path(&format!("{dir}/{file}"));
        let folder = path.parent().unwrap();
        let before = masf_evidence::hash_file(&path, &mut |_| {}).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let conn = rusqlite::Connection::open_with_flags(
            &path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        let tables: Vec<(String, String)> = conn
            .prepare("SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type = 'table'")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let src = masf_tools::SourceCtx::open("corpus", folder).unwrap();
        let mut from_free_space = 0;
        let mut seen_text = false;
        for (table, sql) in tables {
            let out = match tool.run(&src, &json!({"path": format!("/{file}"), "table": table})) {
                Ok(out) => out,
                Err(e) => {
                    assert!(
                        sql.starts_with("CREATE VIRTUAL TABLE")
                            && e.to_string().contains("virtual"),
                        "{file} {table}: {e}"
                    );
                    continue;
                }
            };
            let mut lines = out.text.lines().filter(|l| !l.starts_with('#'));
            lines.next();
            for l in lines {
                let c: Vec<&str> = l.split('\t').collect();
                let live = |rowid: &str| -> i64 {
                    conn.query_row(
                        &format!("SELECT count(*) FROM \"{table}\" WHERE rowid = {rowid}"),
                        [],
                        |r| r.get(0),
                    )
                    .unwrap()
                };
                match c[0] {
                    "deleted" => assert_eq!(live(c[4]), 0, "{file} {table}: {l}"),
                    "changed" => assert_eq!(live(c[4]), 1, "{file} {table}: {l}"),
                    "freed" => assert_eq!(c[4], "NULL", "{l}"),
                    other => panic!("{other}: {l}"),
                }
                // no -wal: every row is from free space
                assert!(
                    ["freelist page", "free block", "unallocated"].contains(&c[2]),
                    "{l}"
                );
                from_free_space += 1;
                for cell in &c[5..] {
                    if cell.len() >= 12
                        && !cell.contains('\\')
                        && !cell.starts_with("x'")
                        && cell.parse::<f64>().is_err()
                    {
                        assert!(
                            bytes.windows(cell.len()).any(|w| w == cell.as_bytes()),
                            "{file} {table}: {cell} is not in the file"
                        );
                    }
                }
                if table == table_with_rows && l.contains(text) {
                    seen_text = true;
                }
            }
        }
        assert!(from_free_space > 0, "{file}");
        assert!(seen_text, "{file}: {table_with_rows} {text}");
        assert_eq!(
            masf_evidence::hash_file(&path, &mut |_| {}).unwrap(),
            before
        );
    }
}
