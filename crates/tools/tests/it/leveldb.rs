//! `leveldb_records` on an ext4 image made by `mkfs.ext4 -d` holding real LevelDB files of
//! Chromium profiles (the corpus's MetaMask files): every record line, the Local Storage
//! decoding, the filter, secrets redacted, a truncated log's problems named.

use std::process::Command;

use masf_testkit::corpus;
use masf_tools::{Catalog, SourceCtx};
use serde_json::json;

use crate::support::run;

#[test]
fn records_of_real_stores_on_ext4_with_secrets_redacted() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let ls = root.join("Default/Local Storage/leveldb");
    let ext = root.join("Default/Local Extension Settings/nkbihfbeogaeaoehlefnkodbefgpgknn");
    std::fs::create_dir_all(&ls).unwrap();
    std::fs::create_dir_all(&ext).unwrap();
    std::fs::copy(
        corpus::path("wallet/metamask/walletrs-chromium-90-0.4430.72_2.14.1_000003.log"),
        ls.join("000003.log"),
    )
    .unwrap();
    std::fs::write(ls.join("CURRENT"), "MANIFEST-000001\n").unwrap();
    // MetaMask 4.17's log cut in the middle of a record
    let log = corpus::bytes("wallet/metamask/walletrs-chromium-94.0.4606.81_4.17_000003.log");
    std::fs::write(ext.join("000003.log"), &log[..log.len() * 2 / 3]).unwrap();
    let img = tmp.path().join("fs.img");
    let st = Command::new("mkfs.ext4")
        .args(["-q", "-F", "-d"])
        .arg(&root)
        .arg(&img)
        .arg("4M")
        .status()
        .expect("mkfs.ext4 (e2fsprogs, scripts/setup.sh installs it)");
    assert!(st.success());
    let ctx = SourceCtx::open("s", &img).unwrap();

    let out = run(
        &ctx,
        "leveldb_records",
        json!({"path": "/Default/Local Storage/leveldb"}),
    );
    let mut lines = out.text.lines();
    let head = lines.next().unwrap();
    assert!(
        head.starts_with("# leveldb /Default/Local Storage/leveldb: 1 files, "),
        "{head}"
    );
    assert!(
        head.ends_with(", 0 problems, 1 secret values redacted"),
        "{head}"
    );
    assert_eq!(
        lines.next(),
        Some("file\tkind\toffset\tseq\tstate\tencoding\tkey\tvalue")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 8), "eight columns");
    // Local Storage values are decoded: the Latin-1 byte is gone and the JSON is plain
    let config = rows
        .iter()
        .rfind(|r| r[6].ends_with("\\x00\\x01metamask-config"))
        .expect("metamask-config");
    assert_eq!(config[5], "latin1");
    assert!(
        config[7].starts_with("{\"meta\":{\"version\":4}"),
        "{}",
        config[7]
    );
    let form = rows
        .iter()
        .find(|r| r[6].ends_with("restore-vault-form"))
        .expect("form");
    assert!(
        form[7].contains("[redacted by MASForensics: wallet-seed of"),
        "{}",
        form[7]
    );
    assert!(
        !out.text.contains("accuse odor"),
        "the recovery phrase is in the output"
    );

    let only = run(
        &ctx,
        "leveldb_records",
        json!({"path": "/Default/Local Storage/leveldb", "key_contains": "METAMASK-CONFIG"}),
    );
    let kept: Vec<&str> = only.text.lines().skip(2).collect();
    assert!(
        !kept.is_empty()
            && kept
                .iter()
                .all(|l| l.to_lowercase().contains("metamask-config"))
    );

    let cut = run(
        &ctx,
        "leveldb_records",
        json!({"path": "/Default/Local Extension Settings/nkbihfbeogaeaoehlefnkodbefgpgknn/000003.log"}),
    );
    assert!(
        cut.text.contains("# problem 000003.log offset ")
            || cut.text.contains("# problem /Default"),
        "{}",
        &cut.text[..200]
    );
    assert!(
        cut.text
            .lines()
            .filter(|l| l.starts_with("000003.log\tlog\t"))
            .count()
            > 0,
        "records before the cut"
    );

    let catalog = Catalog::standard();
    let err = catalog
        .get("leveldb_records")
        .unwrap()
        .run(&ctx, &json!({"path": "/nowhere"}))
        .unwrap_err();
    assert!(err.to_string().contains("/nowhere"), "{err}");
}

/// Play services' push-message queue written by Google's LevelDB (plyvel, through
/// `tests/fixtures/fcm/fcm.py`): with `protobuf` the values are decoded messages (the app's
/// package at 2 → 5, the payload pairs at 2 → 7), a table file and a log both read, the key
/// deleted after delivery a `del` record; `skip` and `limit` page the records, each page's
/// `# page` line and structured counts saying which were shown.
#[test]
fn protobuf_values_and_pages_of_a_play_services_queue() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let out = Command::new(corpus::py_oracle("python3", "plyvel"))
        .arg(corpus::repo_root().join("tests/fixtures/fcm/fcm.py"))
        .arg(tmp.path())
        .arg(&oracle_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ctx = SourceCtx::open("a", &tmp.path().join("a")).unwrap();
    let store = "/data/data/com.google.android.gms/files/fcm_queued_messages.ldb";
    let all = run(
        &ctx,
        "leveldb_records",
        json!({"path": store, "protobuf": true}),
    );
    let rows: Vec<Vec<&str>> = all
        .text
        .lines()
        .skip(2)
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect();
    // three messages compacted into the table, two more, a deletion and a version in the log
    assert_eq!(rows.len(), 7, "{}", all.text);
    assert_eq!(rows.iter().filter(|r| r[1] == "table").count(), 3);
    assert_eq!(rows.iter().filter(|r| r[4] == "del").count(), 1);
    let tinder: Vec<_> = rows
        .iter()
        .filter(|r| r[6].starts_with("com.tinder:"))
        .collect();
    assert_eq!(tinder.len(), 2, "the put and its deletion");
    let put = tinder.iter().find(|r| r[4] == "put").unwrap();
    assert_eq!(put[5], "protobuf");
    let v: serde_json::Value = serde_json::from_str(put[7]).unwrap();
    assert_eq!(v["2"][0]["5"][0], "com.tinder");
    assert_eq!(v["2"][0]["7"][1]["2"][0], "You matched with Kasia");
    // the version string is no message: shown as text
    let version = rows.iter().find(|r| r[6] == "version").unwrap();
    assert_eq!((version[5], version[7]), ("utf8", "v2"));
    // without the option the same value is bytes as before
    let plain = run(&ctx, "leveldb_records", json!({"path": store}));
    assert!(!plain.text.contains("\tprotobuf\t"));
    // pages of three: 1–3, 4–6, 7 of 7, together every line once
    let mut paged = Vec::new();
    for (skip, shown) in [(0, 3), (3, 3), (6, 1)] {
        let page = run(
            &ctx,
            "leveldb_records",
            json!({"path": store, "protobuf": true, "skip": skip, "limit": 3}),
        );
        let s = page.structured.clone().unwrap();
        assert_eq!(
            (s["matched"].as_u64(), s["shown"].as_u64()),
            (Some(7), Some(shown))
        );
        assert!(
            page.text.contains(&format!(
                "# page: records {} to {} of 7 shown",
                skip + 1,
                skip + shown
            )),
            "{}",
            page.text
        );
        paged.extend(
            page.text
                .lines()
                .skip(2)
                .filter(|l| !l.starts_with('#'))
                .map(str::to_string),
        );
    }
    let whole: Vec<String> = all
        .text
        .lines()
        .skip(2)
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(paged, whole);
}
