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
        c.text.ends_with("\n# wal /c/plain.db-wal: none\n"),
        "{}",
        c.text
    );
    assert_eq!(c.text.lines().count(), 2);

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
