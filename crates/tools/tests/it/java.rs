//! `read_java` and `sqlite_query`'s `java` option on streams the JDK's own `ObjectOutputStream`
//! wrote (`tests/fixtures/java/`, built by that folder's generate.sh from Generate.java): a
//! HashMap as WeChat keeps `CompatibleInfo.cfg` (the IMEI at key 258), a list of Proton Mail's
//! first app's recipients (the bytes in a BLOB, their Base64 in a TEXT column), and a class
//! hierarchy with a custom `writeObject`, an enum, arrays, a shared object, a TreeMap, a long
//! and a non-ASCII text; on an ext4 image made by `mkfs.ext4 -d`. A truncated stream and a
//! file of another kind are refused with the byte offset; a cell that does not decode stays as
//! it was.

use std::path::Path;
use std::process::Command;

use masf_tools::{Catalog, SourceCtx};
use serde_json::{Value, json};

use crate::support::run;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/java")
        .join(name)
}

fn decoded(ctx: &SourceCtx, path: &str) -> Value {
    let out = run(ctx, "read_java", json!({"path": path}));
    let (head, body) = out.text.split_once('\n').unwrap();
    assert!(head.starts_with(&format!("# java {path}: ")), "{head}");
    serde_json::from_str(body).unwrap()
}

#[test]
fn java_streams_written_by_the_jdk_decode_and_bad_ones_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let mm = root.join("data/com.tencent.mm/MicroMsg");
    std::fs::create_dir_all(&mm).unwrap();
    std::fs::copy(
        fixture("compatible-info.cfg"),
        mm.join("CompatibleInfo.cfg"),
    )
    .unwrap();
    std::fs::copy(fixture("features.ser"), root.join("features.ser")).unwrap();
    let ser = std::fs::read(fixture("recipients.ser")).unwrap();
    std::fs::write(root.join("cut.ser"), &ser[..ser.len() - 9]).unwrap();
    std::fs::write(root.join("notes.txt"), b"not a stream\n").unwrap();
    let b64 = std::fs::read_to_string(fixture("recipients.b64")).unwrap();
    let db = root.join("MessagesDatabase.db");
    let st = Command::new("python3")
        .args([
            "-c",
            "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute('CREATE TABLE messagev3 (ID TEXT, ToList TEXT, Raw BLOB, Other TEXT)')\ndb.execute('INSERT INTO messagev3 VALUES (?, ?, ?, ?)', ('m1', sys.argv[2], open(sys.argv[3], 'rb').read(), 'rO0ABnotastream'))\ndb.execute('INSERT INTO messagev3 VALUES (?, ?, ?, ?)', ('m2', 'plain text', open(sys.argv[3], 'rb').read()[:40], None))\ndb.commit()",
        ])
        .arg(&db)
        .arg(&b64)
        .arg(fixture("recipients.ser"))
        .status()
        .unwrap();
    assert!(st.success());
    let img = tmp.path().join("fs.img");
    let st = Command::new("mkfs.ext4")
        .args(["-q", "-F", "-d"])
        .arg(&root)
        .arg(&img)
        .arg("8M")
        .status()
        .unwrap();
    assert!(st.success());
    let ctx = SourceCtx::open("s", &img).unwrap();

    // WeChat's CompatibleInfo.cfg: a HashMap<Integer, Object>
    let info = decoded(&ctx, "/data/com.tencent.mm/MicroMsg/CompatibleInfo.cfg");
    assert_eq!(info[0]["@class"], "java.util.HashMap");
    let entries = info[0]["@entries"].as_array().unwrap();
    let at = |k: i64| {
        entries
            .iter()
            .find(|e| e["key"] == json!(k))
            .map(|e| e["value"].clone())
    };
    assert_eq!(at(258), Some(json!("352099001761481")));
    assert_eq!(at(256), Some(json!("Pixel 3a")));
    assert_eq!(at(259), Some(json!(28)));
    assert_eq!(at(274436), Some(json!(true)));
    assert_eq!(entries.len(), 4);

    // every feature of the stream
    let f = &decoded(&ctx, "/features.ser")[0];
    assert_eq!(f["@class"], "Generate$Child");
    assert_eq!(
        (f["name"].clone(), f["age"].clone()),
        (json!("Carl"), json!(41))
    );
    assert_eq!(f["balance"], json!(1234.5));
    assert_eq!(f["initial"], json!("C"));
    assert_eq!(f["active"], json!(true));
    assert_eq!(f["id"], json!(9007199254740993i64));
    assert_eq!(
        f["colour"],
        json!({"@enum": "Generate$Colour", "@name": "GREEN"})
    );
    assert_eq!(f["numbers"], json!([3, 1, 4]));
    assert_eq!(f["bytes"], json!({"@bytes": "cafe"}));
    assert_eq!(f["tags"], json!(["a", null, "c"]));
    // the shared object: the second field a back-reference to the first
    let shared = json!({"@class": "Generate$Shared", "label": "Zürich office ☕ 🦊"});
    assert_eq!(
        (f["first"].clone(), f["second"].clone()),
        (shared.clone(), shared)
    );
    assert_eq!(f["sizes"]["@class"], "java.util.TreeMap");
    assert_eq!(
        f["sizes"]["@entries"],
        json!([{"key": "big", "value": 1u64 << 40}, {"key": "small", "value": 7}])
    );
    // the custom writeObject's data: an int and a UTF string as block data, then the long text
    let data = f["@data"].as_array().unwrap();
    assert_eq!(data.len(), 2, "{data:?}");
    assert!(data[0]["@block"].as_str().unwrap().starts_with("0000002a"));
    assert_eq!(data[1].as_str().map(str::len), Some(70000));
    assert!(f.get("note").is_none(), "a transient field is not written");

    // sqlite_query's java option: the Base64 in TEXT and the bytes in a BLOB, the same list
    let out = run(
        &ctx,
        "sqlite_query",
        json!({"path": "/MessagesDatabase.db", "sql": "SELECT ID, ToList, Raw, Other FROM messagev3 ORDER BY ID", "java": true}),
    );
    let lines: Vec<&str> = out.text.lines().collect();
    let m1: Vec<&str> = lines[1].split('\t').collect();
    let list = |cell: &str| -> Value {
        serde_json::from_str(cell.strip_prefix("java:").unwrap()).unwrap()
    };
    let to = list(m1[1]);
    assert_eq!(to, list(m1[2]));
    assert_eq!(to["@class"], "java.util.ArrayList");
    let people: Vec<(Value, Value)> = to["@elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["Name"].clone(), r["Address"].clone()))
        .collect();
    assert_eq!(
        people,
        vec![
            (json!("Iris Vogel"), json!("iris@proton.me")),
            (json!(""), json!("dana@example.org"))
        ]
    );
    assert_eq!(
        to["@elements"][0]["@class"],
        "ch.protonmail.android.api.models.MessageRecipient"
    );
    // what does not decode stays as stored
    assert_eq!(m1[3], "rO0ABnotastream");
    let m2: Vec<&str> = lines[2].split('\t').collect();
    assert_eq!(m2[1], "plain text");
    assert!(m2[2].starts_with("x'aced0005"), "{}", m2[2]);

    // refused: a truncated stream, another kind of file (the offsets named)
    let catalog = Catalog::standard();
    let tool = catalog.get("read_java").unwrap();
    let e = tool
        .run(&ctx, &json!({"path": "/cut.ser"}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("/cut.ser: not a Java serialization stream at byte") && e.contains("truncated"),
        "{e}"
    );
    let e = tool
        .run(&ctx, &json!({"path": "/notes.txt"}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("at byte 0: not a Java serialization stream (no AC ED 00 05 magic)"),
        "{e}"
    );
}

/// Every truncation and thousands of byte flips of the JDK's streams: an error with an offset
/// inside the stream or a decoding, never a panic or a hang.
#[test]
fn damaged_java_streams_never_panic() {
    for name in [
        "compatible-info.cfg",
        "recipients.ser",
        "empty-list.ser",
        "features.ser",
    ] {
        let b = std::fs::read(fixture(name)).unwrap();
        let step = if b.len() > 4096 { 509 } else { 1 };
        for cut in (0..b.len()).step_by(step) {
            if let Err(e) = masf_tools::javaser::decode(&b[..cut]) {
                assert!(e.offset <= cut, "{name}[..{cut}]: {e}");
            }
        }
        // flips: a fixed linear congruential sequence, so a failure reproduces
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mut m = b.clone();
            let at = (x >> 33) as usize % m.len();
            m[at] ^= (x >> 8) as u8 | 1;
            if let Err(e) = masf_tools::javaser::decode(&m) {
                assert!(e.offset <= m.len(), "{name} flip at {at}: {e}");
            }
        }
    }
}
