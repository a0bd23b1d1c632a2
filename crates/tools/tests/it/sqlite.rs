//! sqlite_tables / sqlite_query on a working copy: WAL-only rows seen, writes refused, evidence
//! untouched.

use masf_store::InvocationStatus;
use masf_tools::{Catalog, Limits};
use serde_json::json;

use crate::support::{call, evidence, invoker, iphone, run, store};

const SMS: &str = "/private/var/mobile/Library/SMS/sms.db";
const WALLET: &str = "0x1850cE0E73407A9997C467BABc60fe887C567625";
const TX: &str = "0x3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90";

#[test]
fn the_wal_only_messages_are_returned_and_the_evidence_is_unchanged() {
    let zip = evidence("iphone_ffs.zip");
    let before = masf_evidence::hash_file(&zip, &mut |_| {}).unwrap();
    let mtime = std::fs::metadata(&zip).unwrap().modified().unwrap();

    let tables = run(&iphone(), "sqlite_tables", json!({"path": SMS}));
    assert!(tables.text.contains("table\tmessage\t"), "{}", tables.text);

    let q = run(
        &iphone(),
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT ROWID, text FROM message ORDER BY ROWID"}),
    );
    assert!(q.text.starts_with("ROWID\ttext\n"), "{}", q.text);
    let row6 = q
        .text
        .lines()
        .find(|l| l.starts_with("6\t"))
        .expect("row 6 (WAL only)");
    assert!(row6.contains(WALLET), "{row6}");
    let row7 = q
        .text
        .lines()
        .find(|l| l.starts_with("7\t"))
        .expect("row 7 (WAL only)");
    assert!(row7.contains(TX), "{row7}");
    let s = q.structured.unwrap();
    assert_eq!(s["copied"], json!(["-wal", "-shm"]));
    assert_eq!(s["columns"], json!(["ROWID", "text"]));

    // Byte-identical on a second run.
    let again = run(
        &iphone(),
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT ROWID, text FROM message ORDER BY ROWID"}),
    );
    assert_eq!(again.text, q.text);

    let after = masf_evidence::hash_file(&zip, &mut |_| {}).unwrap();
    assert_eq!(before, after);
    assert_eq!(std::fs::metadata(&zip).unwrap().modified().unwrap(), mtime);
}

#[test]
fn anything_but_one_select_is_refused_and_recorded_failed() {
    let (_dir, mut store) = store();
    let inv = invoker(Catalog::standard(), Limits::default());
    let src = iphone();
    for sql in [
        "UPDATE message SET text = 'x'",
        "DELETE FROM message",
        "SELECT 1; DELETE FROM message",
        "PRAGMA journal_mode = DELETE",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "WITH t AS (SELECT 1) DELETE FROM message",
    ] {
        let r = call(
            &inv,
            &mut store,
            &src,
            "sqlite_query",
            json!({"path": SMS, "sql": sql}),
            "a",
            "t",
            1,
        );
        assert_eq!(
            r.record.status,
            InvocationStatus::Failed,
            "{sql}: {:?} {}",
            r.record.reason,
            r.output.text
        );
        let reason = r.record.reason.unwrap();
        assert!(reason.contains("SELECT"), "{sql}: {reason}");
    }
    let ok = call(
        &inv,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT COUNT(*) AS n FROM message"}),
        "a",
        "t",
        2,
    );
    assert_eq!(ok.record.status, InvocationStatus::Ok);
    assert!(ok.output.text.starts_with("n\n"));
}

const ENDLESS: &str =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

/// Runs [`ENDLESS`] with the call's deadline at `deadline`, on a thread of its own as the
/// wrapper does; its error. Only an endless query that nothing stops fails here, after ten
/// minutes: the verdict does not depend on how fast the machine is.
fn endless_until(deadline: std::time::Instant) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        masf_tools::deadline::set(Some(deadline));
        let result = Catalog::standard()
            .get("sqlite_query")
            .unwrap()
            .run(&iphone(), &json!({"path": SMS, "sql": ENDLESS}));
        let _ = tx.send(result.map(|o| o.text).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(std::time::Duration::from_secs(600))
        .expect("the endless query was never stopped")
        .unwrap_err()
}

#[test]
fn a_query_past_its_deadline_is_interrupted() {
    let at = std::time::Instant::now() + std::time::Duration::from_millis(200);
    let err = endless_until(at);
    assert!(err.contains("interrupt"), "{err}");
}

/// On a loaded machine the deadline may pass while the working copy is still being made:
/// the query that starts afterwards is stopped all the same (an interrupt reaches only the
/// statements running when it is sent).
#[test]
fn a_query_that_starts_after_its_deadline_is_interrupted() {
    for _ in 0..20 {
        let err = endless_until(std::time::Instant::now());
        assert!(err.contains("interrupt"), "{err}");
    }
}

#[test]
fn an_endless_query_is_recorded_timed_out() {
    let (_dir, mut store) = store();
    let limits = Limits {
        timeout: std::time::Duration::from_millis(300),
        ..Limits::default()
    };
    let inv = invoker(Catalog::standard(), limits);
    let src = iphone();
    let r = call(
        &inv,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": SMS, "sql": ENDLESS}),
        "a",
        "t",
        1,
    );
    assert_eq!(r.record.status, InvocationStatus::TimedOut);
    // The next call on the same source answers (under a limit no answer comes near: a loaded
    // machine cannot time it out).
    let patient = invoker(Catalog::standard(), Limits::default());
    let next = call(
        &patient,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT 1 AS one"}),
        "a",
        "t",
        2,
    );
    assert_eq!(next.record.status, InvocationStatus::Ok);
    assert_eq!(next.output.text, "one\n1\n");
}

const ACCOUNTS: &str = "/private/var/mobile/Library/Accounts/Accounts3.sqlite";

fn fresh_iphone(cache_bytes: Option<u64>) -> masf_tools::SourceCtx {
    let ctx = masf_tools::SourceCtx::open("src-iphone", &evidence("iphone_ffs.zip")).unwrap();
    match cache_bytes {
        Some(b) => ctx.with_sqlite_cache_bytes(b),
        None => ctx,
    }
}

/// The calls an iOS triage makes on one database: the schema, then several queries.
fn sms_calls() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("sqlite_tables", json!({"path": SMS})),
        (
            "sqlite_query",
            json!({"path": SMS, "sql": "SELECT ROWID, guid, text, handle_id, date, is_from_me FROM message ORDER BY ROWID"}),
        ),
        (
            "sqlite_query",
            json!({"path": SMS, "sql": "SELECT * FROM handle ORDER BY ROWID"}),
        ),
        (
            "sqlite_query",
            json!({"path": SMS, "sql": "SELECT ROWID, text FROM message ORDER BY ROWID", "limit": 3}),
        ),
    ]
}

#[test]
fn a_database_is_copied_once_per_source_and_the_outputs_equal_fresh_copies() {
    let zip = evidence("iphone_ffs.zip");
    let before = masf_evidence::hash_file(&zip, &mut |_| {}).unwrap();
    let cached = fresh_iphone(None);
    let uncached = fresh_iphone(Some(0));
    let calls = sms_calls();
    for round in 0..2 {
        for (tool, args) in &calls {
            let a = run(&cached, tool, args.clone());
            let b = run(&uncached, tool, args.clone());
            assert_eq!(a.text, b.text, "round {round}: {tool} {args}");
            assert_eq!(a.structured, b.structured, "round {round}: {tool} {args}");
        }
    }
    // One copy out of the zip for eight calls; the uncached source copied every time.
    assert_eq!(cached.sqlite_copies().copies_made(), 1);
    assert_eq!(uncached.sqlite_copies().copies_made(), 8);
    assert_eq!(
        cached.sqlite_copies().cached_bytes(),
        172_032 + 90_672 + 32_768,
        "sms.db with its -wal and -shm"
    );
    assert_eq!(uncached.sqlite_copies().cached_bytes(), 0);
    // The WAL-only rows are still there on the reused copy (a read-only connection never
    // checkpoints), and the evidence is unchanged.
    let q = run(
        &cached,
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT ROWID, text FROM message WHERE ROWID IN (6, 7) ORDER BY ROWID"}),
    );
    assert!(q.text.contains(WALLET) && q.text.contains(TX), "{}", q.text);
    assert_eq!(cached.sqlite_copies().copies_made(), 1);
    assert_eq!(masf_evidence::hash_file(&zip, &mut |_| {}).unwrap(), before);
}

#[test]
fn the_copy_cache_keeps_within_its_bound_and_evicts_the_least_recently_used() {
    let sms_bytes = 172_032 + 90_672 + 32_768;
    // Room for sms.db or Accounts3.sqlite (131,072 bytes), not both.
    let ctx = fresh_iphone(Some(sms_bytes));
    let one = |path: &str| {
        run(
            &ctx,
            "sqlite_query",
            json!({"path": path, "sql": "SELECT 1 AS one"}),
        )
    };
    one(SMS);
    one(SMS);
    assert_eq!(ctx.sqlite_copies().copies_made(), 1);
    one(ACCOUNTS);
    assert_eq!(ctx.sqlite_copies().copies_made(), 2);
    assert_eq!(
        ctx.sqlite_copies().cached_bytes(),
        131_072,
        "sms.db evicted"
    );
    one(ACCOUNTS);
    assert_eq!(ctx.sqlite_copies().copies_made(), 2);
    one(SMS);
    assert_eq!(ctx.sqlite_copies().copies_made(), 3);
    assert_eq!(ctx.sqlite_copies().cached_bytes(), sms_bytes);

    // A database larger than the bound is used, not kept.
    let tiny = fresh_iphone(Some(1));
    let a = run(
        &tiny,
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT COUNT(*) AS n FROM message"}),
    );
    let b = run(
        &tiny,
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT COUNT(*) AS n FROM message"}),
    );
    assert_eq!(a.text, b.text);
    assert_eq!(tiny.sqlite_copies().copies_made(), 2);
    assert_eq!(tiny.sqlite_copies().cached_bytes(), 0);
}

#[test]
fn json_rows_are_built_for_small_results_only_and_the_text_has_every_row() {
    let count = |n: usize| {
        format!(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) SELECT x, 'r' || x AS label FROM c"
        )
    };
    let max = masf_tools::sqlite::STRUCTURED_ROWS_MAX;
    let small = run(
        &iphone(),
        "sqlite_query",
        json!({"path": SMS, "sql": count(max), "limit": 5000}),
    );
    let s = small.structured.unwrap();
    assert_eq!(s["rows"].as_array().unwrap().len(), max);
    assert_eq!(s["rows"][max - 1], json!([max, format!("r{max}")]));
    assert_eq!(s["row_count"], json!(max));
    assert_eq!(small.text.lines().count(), max + 1);

    let large = run(
        &iphone(),
        "sqlite_query",
        json!({"path": SMS, "sql": count(max + 1), "limit": 5000}),
    );
    let s = large.structured.unwrap();
    assert!(s.get("rows").is_none(), "{s}");
    assert_eq!(s["row_count"], json!(max + 1));
    assert_eq!(s["truncated"], json!(false));
    assert_eq!(large.text.lines().count(), max + 2);
    assert!(large.text.starts_with("x\tlabel\n1\tr1\n"));
    assert!(large.text.ends_with(&format!("{0}\tr{0}\n", max + 1)));
}

#[test]
fn calls_on_a_reused_copy_re_derive_on_a_new_source_and_on_the_same_one() {
    let (_dir, mut store) = store();
    let catalog = Catalog::standard();
    let inv = invoker(Catalog::standard(), Limits::default());
    let src = std::sync::Arc::new(fresh_iphone(None));
    let mut ids = Vec::new();
    for (i, (tool, args)) in sms_calls().into_iter().enumerate() {
        let r = call(&inv, &mut store, &src, tool, args, "a", "t", i as i64);
        assert_eq!(r.record.status, InvocationStatus::Ok);
        ids.push(r.record.invocation_id);
    }
    assert_eq!(src.sqlite_copies().copies_made(), 1);
    // `masf verify` opens the source anew; a rerun in the same session reuses its copy.
    let anew = fresh_iphone(None);
    for id in &ids {
        let rec = store.invocation(id).unwrap().unwrap();
        for source in [&anew, src.as_ref()] {
            let r = masf_tools::rederive::rederive(&store, &catalog, source, &rec);
            assert_eq!(
                r.verdict,
                masf_tools::rederive::Verdict::Match,
                "{}",
                rec.args
            );
        }
    }
    assert_eq!(anew.sqlite_copies().copies_made(), 1);
    assert_eq!(src.sqlite_copies().copies_made(), 1);
}

#[test]
fn concurrent_calls_on_one_source_share_one_copy() {
    let src = fresh_iphone(None);
    let reference: Vec<String> = sms_calls()
        .into_iter()
        .map(|(tool, args)| run(&fresh_iphone(Some(0)), tool, args).text)
        .collect();
    let barrier = std::sync::Barrier::new(4);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                barrier.wait();
                for ((tool, args), want) in sms_calls().into_iter().zip(&reference) {
                    assert_eq!(&run(&src, tool, args).text, want);
                }
            });
        }
    });
    assert_eq!(src.sqlite_copies().copies_made(), 1);
}

#[test]
fn a_damaged_database_is_named_as_such_and_never_blamed_on_the_statement() {
    // A database SQLite wrote, then damaged: its schema page overwritten; and a file that only
    // carries the name of a database.
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.db");
    {
        let conn = rusqlite::Connection::open(&good).unwrap();
        conn.execute_batch(
            "CREATE TABLE message (id INTEGER PRIMARY KEY, text TEXT);
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
             INSERT INTO message (text) SELECT 'message ' || i FROM n;",
        )
        .unwrap();
    }
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[100..4096].fill(0xA5);
    std::fs::write(dir.path().join("malformed.db"), &bytes).unwrap();
    std::fs::write(
        dir.path().join("notadb.db"),
        b"this is a text file named like a database\n".repeat(200),
    )
    .unwrap();
    let src = std::sync::Arc::new(masf_tools::SourceCtx::open("src-folder", dir.path()).unwrap());
    let (_store_dir, mut store) = store();
    let inv = invoker(Catalog::standard(), Limits::default());
    for (path, said) in [
        ("/malformed.db", "malformed"),
        ("/notadb.db", "not a database"),
    ] {
        let r = call(
            &inv,
            &mut store,
            &src,
            "sqlite_query",
            json!({"path": path, "sql": "SELECT id, text FROM message"}),
            "a",
            "t",
            1,
        );
        assert_eq!(r.record.status, InvocationStatus::Failed, "{path}");
        let reason = r.record.reason.unwrap();
        assert!(
            reason.contains(&format!("SQLite database {path} cannot be read"))
                && reason.contains(said)
                && !reason.contains("SELECT"),
            "{path}: {reason}"
        );
    }
    // The intact one answers, and a bad statement on it is still the statement's fault.
    let ok = run(
        &src,
        "sqlite_query",
        json!({"path": "/good.db", "sql": "SELECT COUNT(*) AS n FROM message"}),
    );
    assert_eq!(ok.text, "n\n500\n");
    let r = call(
        &inv,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": "/good.db", "sql": "SELECT FROM WHERE"}),
        "a",
        "t",
        2,
    );
    let reason = r.record.reason.unwrap();
    assert!(
        reason.contains("sql: ") && reason.contains("syntax error"),
        "{reason}"
    );
}

#[test]
fn a_gzip_compressed_database_is_inflated_into_the_copy_and_said() {
    // A database SQLite wrote, compressed by the gzip tool (as iOS rotates PowerLog into
    // `Archives/*.PLSQL.gz`); the same stream cut short; a gzipped text file.
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("log.PLSQL");
    {
        let conn = rusqlite::Connection::open(&good).unwrap();
        conn.execute_batch(
            "CREATE TABLE PLSpringBoardAgent_EventForward_SBLock (ID INTEGER PRIMARY KEY, timestamp REAL, Locked INTEGER);
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
             INSERT INTO PLSpringBoardAgent_EventForward_SBLock (timestamp, Locked) SELECT 1639600000 + i, i % 2 FROM n;",
        )
        .unwrap();
    }
    let gzip = |from: &std::path::Path| {
        let out = std::process::Command::new("gzip")
            .arg("-c")
            .arg(from)
            .output()
            .unwrap();
        assert!(out.status.success());
        out.stdout
    };
    let packed = gzip(&good);
    std::fs::write(dir.path().join("log.PLSQL.gz"), &packed).unwrap();
    std::fs::write(dir.path().join("cut.PLSQL.gz"), &packed[..packed.len() / 2]).unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, b"a text file, not a database\n".repeat(100)).unwrap();
    std::fs::write(dir.path().join("notes.PLSQL.gz"), gzip(&text)).unwrap();
    std::fs::remove_file(&text).unwrap();
    let before: Vec<(String, Vec<u8>)> = ["log.PLSQL.gz", "cut.PLSQL.gz", "notes.PLSQL.gz"]
        .iter()
        .map(|n| (n.to_string(), std::fs::read(dir.path().join(n)).unwrap()))
        .collect();

    let src = std::sync::Arc::new(masf_tools::SourceCtx::open("src-folder", dir.path()).unwrap());
    let sql =
        "SELECT ID, timestamp, Locked FROM PLSpringBoardAgent_EventForward_SBLock ORDER BY ID";
    let plain = run(
        &src,
        "sqlite_query",
        json!({"path": "/log.PLSQL", "sql": sql}),
    );
    let inflated = run(
        &src,
        "sqlite_query",
        json!({"path": "/log.PLSQL.gz", "sql": sql}),
    );
    let size = std::fs::metadata(&good).unwrap().len();
    let said = format!(
        "# gzip: inflated from gzip: {} compressed bytes to {size} bytes\n",
        packed.len()
    );
    assert_eq!(inflated.text, format!("{}{said}", plain.text));
    assert_eq!(inflated.text.lines().count(), 302);
    let s = inflated.structured.unwrap();
    assert_eq!(s["row_count"], json!(300));
    assert!(s["inflated"].as_str().unwrap().contains("compressed bytes"));
    assert_eq!(
        plain.structured.unwrap()["inflated"],
        serde_json::Value::Null
    );
    let tables = run(&src, "sqlite_tables", json!({"path": "/log.PLSQL.gz"}));
    assert!(
        tables
            .text
            .contains("table\tPLSpringBoardAgent_EventForward_SBLock\t300 rows")
            && tables.text.ends_with(&said),
        "{}",
        tables.text
    );

    let (_store_dir, mut store) = store();
    let inv = invoker(Catalog::standard(), Limits::default());
    for (i, (path, said)) in [
        ("/cut.PLSQL.gz", "/cut.PLSQL.gz: not inflated: gzip in "),
        ("/notes.PLSQL.gz", "not a database"),
    ]
    .into_iter()
    .enumerate()
    {
        let r = call(
            &inv,
            &mut store,
            &src,
            "sqlite_query",
            json!({"path": path, "sql": sql}),
            "a",
            "t",
            i as i64 + 1,
        );
        assert_eq!(r.record.status, InvocationStatus::Failed, "{path}");
        let reason = r.record.reason.unwrap();
        assert!(reason.contains(said), "{path}: {reason}");
    }
    let r = call(
        &inv,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": "/cut.PLSQL.gz", "sql": sql}),
        "a",
        "t",
        3,
    );
    let reason = r.record.reason.unwrap();
    assert!(
        reason.contains("corrupt at offset") && reason.contains("truncated or damaged"),
        "{reason}"
    );
    for (name, bytes) in before {
        assert_eq!(
            std::fs::read(dir.path().join(&name)).unwrap(),
            bytes,
            "{name}"
        );
    }
}

#[test]
fn binary_plists_in_cells_render_as_json_when_asked() {
    // iLEAPP's storeSystem test case of the MVS 2023 iPhone: store_metadata is an
    // NSKeyedArchiver plist per installed app
    let zip = masf_testkit::corpus::path(
        "ios/ileapp/testdata.storeSystem.storeSystemAppInstalls.mvs_ios_2023.zip",
    );
    let ctx = masf_tools::SourceCtx::open("s", &zip).unwrap();
    let db = "/private/var/containers/Data/System/AD313E95-A169-4921-8E46-58ADFAB6583A/Documents/Persistence/storeSystem.db";
    let sql = "SELECT bundle_id, store_metadata FROM app_install WHERE bundle_id = 'com.roblox.robloxmobile'";
    let hex = crate::support::run(
        &ctx,
        "sqlite_query",
        serde_json::json!({"path": db, "sql": sql}),
    );
    assert!(
        hex.text.contains("\tx'62706c697374303"),
        "{}",
        &hex.text[..200]
    );
    let out = crate::support::run(
        &ctx,
        "sqlite_query",
        serde_json::json!({"path": db, "sql": sql, "plists": true}),
    );
    let cell = out.text.lines().nth(1).unwrap().split('\t').nth(1).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(cell.strip_prefix("plist:").unwrap()).unwrap();
    let root = &json["root"];
    assert_eq!(root["itemName"], "Roblox");
    assert_eq!(root["appleID"], "blueisth3best@icloud.com");
    assert_eq!(root["DSPersonID"], 20758809832u64);
    assert_eq!(root["purchaseDate"], "2022-11-27T20:18:09Z");
    // a blob that is no plist stays hex; a wrong argument type is refused
    let other = crate::support::run(
        &ctx,
        "sqlite_query",
        serde_json::json!({"path": db, "sql": "SELECT x'00ff' AS b", "plists": true}),
    );
    assert!(other.text.contains("x'00ff'"));
    let err = masf_tools::Catalog::standard()
        .get("sqlite_query")
        .unwrap()
        .run(
            &ctx,
            &serde_json::json!({"path": db, "sql": sql, "plists": "yes"}),
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("plists must be true or false"),
        "{err}"
    );
}

#[test]
fn members_of_plists_in_cells_are_qualified_when_asked() {
    // plaso's copy of an iPhone's Instagram direct store: each thread's users are IGUser
    // objects inside an NSKeyedArchiver plist, their account ids in the member `pk`
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        masf_testkit::corpus::path("ios/plaso-9368974384.db"),
        dir.path().join("9368974384.db"),
    )
    .unwrap();
    let ctx = masf_tools::SourceCtx::open("s", dir.path()).unwrap();
    let sql = "SELECT thread_id, metadata FROM threads ORDER BY row_id";
    let args = |extra: serde_json::Value| {
        let mut a = serde_json::json!({"path": "/9368974384.db", "sql": sql, "plists": true});
        a.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        a
    };
    let plain = crate::support::run(&ctx, "sqlite_query", args(serde_json::json!({})));
    assert!(!plain.text.contains("pk.qualified"));
    let out = crate::support::run(
        &ctx,
        "sqlite_query",
        args(serde_json::json!({"qualify": {"pk": "instagram"}})),
    );
    // the oracle: Python's plistlib on the same cells found these users (pk, user name),
    // the signed-in account as the threads' inviter
    for (pk, user) in [
        ("22824420", "Instagram User"),
        ("49849116416", "dfirtwo"),
        ("42293925776", "thisisdfirtwo"),
        ("9368974384", "thisisdfir"),
    ] {
        let users: Vec<serde_json::Value> = out
            .text
            .lines()
            .skip(1)
            .filter_map(|l| l.split('\t').nth(1)?.strip_prefix("plist:"))
            .map(|c| serde_json::from_str::<serde_json::Value>(c).unwrap())
            .flat_map(|v| {
                let mut users = v["root"]["NSArray<IGUser *>*users"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                users.push(v["root"]["IGUser*inviter"].clone());
                users
            })
            .filter(|u| u["pk"] == pk)
            .collect();
        assert!(
            users
                .iter()
                .any(|u| u["pk.qualified"] == format!("instagram:{pk}") && u["userName"] == user),
            "{pk}: {users:#?}"
        );
    }
    // qualify without plists, or with a service that is no service name, is refused
    let catalog = masf_tools::Catalog::standard();
    let tool = catalog.get("sqlite_query").unwrap();
    let err = tool
        .run(
            &ctx,
            &serde_json::json!({"path": "/9368974384.db", "sql": sql, "qualify": {"pk": "instagram"}}),
        )
        .unwrap_err();
    assert!(err.to_string().contains("set plists or json true"), "{err}");
    let err = tool
        .run(
            &ctx,
            &args(serde_json::json!({"qualify": {"pk": "Insta gram"}})),
        )
        .unwrap_err();
    assert!(err.to_string().contains("qualify: "), "{err}");
}

#[test]
fn json_blobs_render_as_json_when_asked() {
    // a gzip-compressed JSON object and a plain one, written by Python's gzip, json and sqlite3
    let dir = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("python3")
        .args([
            "-c",
            "import gzip, json, sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)')\n\
             db.execute('INSERT INTO t VALUES (1, ?)', (gzip.compress(json.dumps({'cacheableModel': {'fromUserID': 475222380, 'originalText': 'a\\tb'}}).encode()),))\n\
             db.execute('INSERT INTO t VALUES (2, ?)', (json.dumps([1, {'fromUserID': '7'}]).encode(),))\n\
             db.execute('INSERT INTO t VALUES (3, ?)', (b'\\x1f\\x8b\\x08\\x00not gzip',))\n\
             db.execute('INSERT INTO t VALUES (4, ?)', (b'plain',))\ndb.commit()",
        ])
        .arg(dir.path().join("m.sqlite3"))
        .status()
        .unwrap();
    assert!(st.success());
    let ctx = masf_tools::SourceCtx::open("s", dir.path()).unwrap();
    let sql = "SELECT id, b FROM t ORDER BY id";
    let out = crate::support::run(
        &ctx,
        "sqlite_query",
        serde_json::json!({"path": "/m.sqlite3", "sql": sql, "json": true, "qualify": {"fromUserID": "twitter"}}),
    );
    let lines: Vec<&str> = out.text.lines().collect();
    assert_eq!(
        lines[1],
        "1\tjson:{\"cacheableModel\":{\"fromUserID\":475222380,\"fromUserID.qualified\":\"twitter:475222380\",\"originalText\":\"a\\\\tb\"}}"
    );
    assert_eq!(
        lines[2],
        "2\tjson:[1,{\"fromUserID\":\"7\",\"fromUserID.qualified\":\"twitter:7\"}]"
    );
    // a damaged gzip stream and a blob that is no JSON stay hex
    assert!(lines[3].starts_with("3\tx'1f8b"), "{}", lines[3]);
    assert_eq!(lines[4], "4\tx'706c61696e'");
    // without the option, hex
    let plain = crate::support::run(
        &ctx,
        "sqlite_query",
        serde_json::json!({"path": "/m.sqlite3", "sql": sql}),
    );
    assert!(!plain.text.contains("json:"));
}

#[test]
fn json_texts_inside_plist_and_json_cells_decode_when_asked() {
    // as Microsoft Teams keeps a call log: JSON text (written with `/` as `\/`, as Apple's
    // JSON writer writes it) inside a binary plist's string, one more JSON text inside that;
    // written by Python's plistlib, json and sqlite3
    let dir = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, plistlib, sqlite3, sys\n\
             inner = json.dumps({'latitude': 52.5, 'deviceId': 'd-1'})\n\
             log = json.dumps({'originator': '8:orgid:aa-1', 'url': 'https://teams.example/x', 'id': inner}).replace('/', '\\\\/')\n\
             db = sqlite3.connect(sys.argv[1])\ndb.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)')\n\
             db.execute('INSERT INTO t VALUES (1, ?)', (plistlib.dumps({'call-log': log, 'n': '[1'}, fmt=plistlib.FMT_BINARY),))\n\
             db.execute('INSERT INTO t VALUES (2, ?)', (json.dumps({'cards': log}).encode(),))\ndb.commit()",
        ])
        .arg(dir.path().join("p.sqlite"))
        .status()
        .unwrap();
    assert!(st.success());
    let ctx = masf_tools::SourceCtx::open("s", dir.path()).unwrap();
    let args = |extra: serde_json::Value| {
        let mut a = serde_json::json!({"path": "/p.sqlite", "sql": "SELECT id, b FROM t ORDER BY id", "plists": true, "json": true});
        a.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        a
    };
    let cells = |text: &str| -> Vec<serde_json::Value> {
        text.lines()
            .skip(1)
            .map(|l| {
                let c = l.split('\t').nth(1).unwrap();
                let body = c
                    .strip_prefix("plist:")
                    .or_else(|| c.strip_prefix("json:"))
                    .unwrap();
                serde_json::from_str(&body.replace("\\\\", "\\")).unwrap()
            })
            .collect()
    };
    // without the option the log is one escaped string, its URL written `https:\/\/…`
    let plain = crate::support::run(&ctx, "sqlite_query", args(serde_json::json!({})));
    assert!(
        plain.text.contains(r"https:\\\\/\\\\/teams"),
        "{}",
        plain.text
    );
    assert!(cells(&plain.text)[0]["call-log"].is_string());
    // with it, both levels are objects; their values print once, unescaped, and qualify
    // reaches them; text that only starts like JSON stays text
    let out = crate::support::run(
        &ctx,
        "sqlite_query",
        args(serde_json::json!({"decode_nested": true, "qualify": {"originator": "teams"}})),
    );
    assert!(
        out.text.contains("\"url\":\"https://teams.example/x\""),
        "{}",
        out.text
    );
    let got = cells(&out.text);
    for (v, key) in [(&got[0], "call-log"), (&got[1], "cards")] {
        let log = &v[key];
        assert_eq!(log["originator.qualified"], "teams:8:orgid:aa-1", "{v}");
        assert_eq!(log["id"]["latitude"], 52.5);
        assert_eq!(log["id"]["deviceId"], "d-1");
    }
    assert_eq!(got[0]["n"], "[1");
    // without plists or json the option is refused
    let err = masf_tools::Catalog::standard()
        .get("sqlite_query")
        .unwrap()
        .run(
            &ctx,
            &serde_json::json!({"path": "/p.sqlite", "sql": "SELECT 1", "decode_nested": true}),
        )
        .unwrap_err();
    assert!(err.to_string().contains("set plists or json true"), "{err}");
}

/// A folder extraction holding an encrypted Signal database (made by the `sqlcipher` CLI with
/// Signal for Android's settings, 3 rows in the file and 2 only in its `-wal`) and the
/// extraction's `extra/Secrets/secrets.json` with its key.
fn signal_extraction(dir: &std::path::Path, key_in_secrets: &str) -> std::path::PathBuf {
    use std::io::Write as _;
    let root = dir.join("extraction");
    let db_dir = root.join("data/data/org.thoughtcrime.securesms/databases");
    std::fs::create_dir_all(&db_dir).unwrap();
    std::fs::create_dir_all(root.join("extra/Secrets")).unwrap();
    let script = format!(
        "PRAGMA key = '{SIGNAL_KEY}';\nPRAGMA cipher_page_size = 4096;\nPRAGMA kdf_iter = 1;\n\
PRAGMA journal_mode = WAL;\nPRAGMA wal_autocheckpoint = 0;\n\
CREATE TABLE message (_id INTEGER PRIMARY KEY, body TEXT);\n\
INSERT INTO message VALUES (1, 'first'), (2, 'second'), (3, 'third');\n\
PRAGMA wal_checkpoint(TRUNCATE);\n\
INSERT INTO message VALUES (4, 'only in the log'), (5, 'also in the log');\n\
.shell cp t.db signal.db && cp t.db-wal signal.db-wal\n"
    );
    let mut child = std::process::Command::new("sqlcipher")
        .arg("t.db")
        .current_dir(&db_dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("sqlcipher (scripts/setup.sh installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    std::fs::remove_file(db_dir.join("t.db")).unwrap();
    let _ = std::fs::remove_file(db_dir.join("t.db-wal"));
    let _ = std::fs::remove_file(db_dir.join("t.db-shm"));
    let secrets = json!([
        {"app": "com.other.app", "script_output": [{"payload": {"sqlite db key": "00"}}]},
        {"app": "org.thoughtcrime.securesms", "script_output": [
            {"payload": {"signal attachment key": {"modernKey": "AAECAw=="}}},
            {"payload": {"sqlite db key": key_in_secrets}}
        ]}
    ]);
    std::fs::write(
        root.join("extra/Secrets/secrets.json"),
        serde_json::to_vec_pretty(&secrets).unwrap(),
    )
    .unwrap();
    root
}

const SIGNAL_KEY: &str = "3e5a9c0f7b2d4e6a8c1f3b5d7e9a0c2e4f6b8d0a1c3e5f7a9b2d4f6a8c0e1b3d";
const SIGNAL_DB: &str = "/data/data/org.thoughtcrime.securesms/databases/signal.db";

#[test]
fn a_sqlcipher_database_opens_with_the_key_the_extraction_captured() {
    let dir = tempfile::tempdir().unwrap();
    let root = signal_extraction(dir.path(), SIGNAL_KEY);
    let db = root.join(SIGNAL_DB.trim_start_matches('/'));
    let wal = root.join(format!("{}-wal", SIGNAL_DB.trim_start_matches('/')));
    let before = (std::fs::read(&db).unwrap(), std::fs::read(&wal).unwrap());
    let src = masf_tools::SourceCtx::open("src-signal", &root).unwrap();
    let cipher = json!({"profile": "signal_android", "secrets": "/extra/Secrets/secrets.json"});

    let q = run(
        &src,
        "sqlite_query",
        json!({"path": SIGNAL_DB, "sql": "SELECT _id, body FROM message ORDER BY _id", "cipher": cipher}),
    );
    let lines: Vec<&str> = q.text.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "_id\tbody",
            "1\tfirst",
            "2\tsecond",
            "3\tthird",
            "4\tonly in the log",
            "5\talso in the log"
        ],
        "{}",
        q.text
    );
    let last = lines[6];
    assert!(
        last.starts_with("# sqlcipher: decrypted with the \"sqlite db key\" of org.thoughtcrime.securesms in /extra/Secrets/secrets.json (profile signal_android: 4096-byte pages, PBKDF2-HMAC-SHA1 of 1 round, HMAC-SHA1)"),
        "{last}"
    );
    assert!(last.contains("every page authenticated"), "{last}");
    assert!(last.contains("committed frame"), "{last}");
    assert!(!q.text.contains(SIGNAL_KEY), "the key is never written");
    let s = q.structured.unwrap();
    assert_eq!(s["row_count"], json!(5));
    assert!(s["decrypted"].as_str().unwrap().contains("secrets.json"));

    let tables = run(
        &src,
        "sqlite_tables",
        json!({"path": SIGNAL_DB, "cipher": cipher}),
    );
    assert!(
        tables.text.contains("table\tmessage\t5 rows"),
        "{}",
        tables.text
    );
    assert!(tables.text.contains("# sqlcipher: "), "{}", tables.text);

    // the evidence is as it was (file and log)
    assert_eq!(
        (std::fs::read(&db).unwrap(), std::fs::read(&wal).unwrap()),
        before
    );

    // refusals an agent can act on
    let catalog = Catalog::standard();
    let t = catalog.get("sqlite_query").unwrap();
    let err = |args: serde_json::Value| t.run(&src, &args).unwrap_err().to_string();
    let e = err(json!({"path": SIGNAL_DB, "sql": "SELECT 1 FROM message"}));
    assert!(
        e.contains("not a database") || e.contains("encrypted"),
        "{e}"
    );
    let e = err(
        json!({"path": SIGNAL_DB, "sql": "SELECT 1", "cipher": {"profile": "signal_android", "secrets": "/extra/none.json"}}),
    );
    assert!(e.contains("cipher.secrets /extra/none.json"), "{e}");
    let e = err(
        json!({"path": SIGNAL_DB, "sql": "SELECT 1", "cipher": {"profile": "whatsapp", "secrets": "/extra/Secrets/secrets.json"}}),
    );
    assert!(e.contains("not a profile"), "{e}");
    let e =
        err(json!({"path": "/extra/Secrets/secrets.json", "sql": "SELECT 1", "cipher": cipher}));
    assert!(e.contains("Truncated") || e.contains("truncated"), "{e}");

    // another extraction's key does not open it, and says so
    let other = tempfile::tempdir().unwrap();
    let root2 = signal_extraction(other.path(), "00ff");
    let src2 = masf_tools::SourceCtx::open("src-signal-2", &root2).unwrap();
    let e = t
        .run(
            &src2,
            &json!({"path": SIGNAL_DB, "sql": "SELECT 1", "cipher": cipher}),
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("the key does not open page 1"), "{e}");
}
