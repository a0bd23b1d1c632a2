//! `read_protobuf` on an ext4 image made by `mkfs.ext4 -d` holding Jetpack DataStore files
//! encoded by `protoc --encode` (`tests/fixtures/tinder/datastore/`, built by that folder's
//! generate.sh): nested messages, repeated fields, varints and text decoded raw; a gzip copy
//! (Python's gzip) inflated; a truncated copy and a text file refused with a clear error.

use std::path::Path;
use std::process::Command;

use masf_tools::{Catalog, SourceCtx};
use serde_json::{Value, json};

use crate::support::run;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/tinder/datastore")
        .join(name)
}

fn image(root: &Path, img: &Path) -> SourceCtx {
    let st = Command::new("mkfs.ext4")
        .args(["-q", "-F", "-d"])
        .arg(root)
        .arg(img)
        .arg("8M")
        .status()
        .expect("mkfs.ext4 (e2fsprogs, scripts/setup.sh installs it)");
    assert!(st.success());
    SourceCtx::open("s", img).unwrap()
}

fn decoded(ctx: &SourceCtx, path: &str) -> Value {
    let out = run(ctx, "read_protobuf", json!({"path": path}));
    let (head, body) = out.text.split_once('\n').unwrap();
    assert!(head.starts_with(&format!("# protobuf {path}: ")), "{head}");
    serde_json::from_str(body).unwrap()
}

#[test]
fn datastore_files_decode_raw_and_bad_ones_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let dir = root.join("data/com.tinder/files/datastore");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["account", "accountinfo", "id", "user"] {
        std::fs::copy(fixture(f), dir.join(f)).unwrap();
    }
    let user = std::fs::read(fixture("user")).unwrap();
    std::fs::write(dir.join("user.cut"), &user[..user.len() - 7]).unwrap();
    std::fs::write(dir.join("notes.txt"), b"not a message at all\n").unwrap();
    let st = Command::new("python3")
        .args([
            "-c",
            "import gzip, sys; open(sys.argv[2], 'wb').write(gzip.compress(open(sys.argv[1], 'rb').read(), mtime=0))",
        ])
        .arg(fixture("account"))
        .arg(dir.join("account.gz"))
        .status()
        .unwrap();
    assert!(st.success());
    let ctx = image(&root, &tmp.path().join("fs.img"));
    let at = |f: &str| format!("/data/com.tinder/files/datastore/{f}");

    let account = decoded(&ctx, &at("account"));
    assert_eq!(
        account["1"][0]["1"][0]["1"][0],
        "dana.whitfield@example.org"
    );
    assert_eq!(account["1"][0]["4"][0]["1"][0], "+447700900123");
    assert_eq!(decoded(&ctx, &at("account.gz")), account);
    let info = decoded(&ctx, &at("accountinfo"));
    assert_eq!(info["1"][0]["1"][0], 1_650_000_000_000u64);
    assert_eq!(info["1"][0]["2"][0]["1"][0], 1_701_345_600_000u64);
    assert_eq!(
        decoded(&ctx, &at("id"))["1"][0]["1"][0],
        "5f1e2d3c4b5a69788796a5b4"
    );
    let profile = &decoded(&ctx, &at("user"))["1"][0];
    assert_eq!(profile["6"][0], "Dana");
    assert_eq!(profile["4"][0]["1"][0], 567_993_600_000u64);
    assert_eq!(profile["12"][0]["1"][0], "gen_1");
    assert_eq!(profile["12"][0]["2"][0], "Woman");
    assert_eq!(profile["8"][0]["2"][0]["1"][0], "Contoso Freight");
    assert_eq!(
        profile["7"][0]["1"][0],
        "https://images-ssl.gotinder.example/5f1e2d3c4b5a69788796a5b4/original_1.jpeg"
    );

    let catalog = Catalog::standard();
    let tool = catalog.get("read_protobuf").unwrap();
    for f in ["user.cut", "notes.txt"] {
        let e = tool
            .run(&ctx, &json!({"path": at(f)}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a Protocol Buffers message"), "{f}: {e}");
    }
    let e = tool
        .run(&ctx, &json!({"path": at("absent")}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("absent"), "{e}");
}

#[test]
fn zlib_cells_inflate_whole_or_after_one_leading_byte() {
    // a protoc-encoded message (the Tinder fixture's `user`) kept in SQLite by Python's zlib and
    // sqlite3: raw, as a zlib stream, and as Gmail's bigTopDataDB keeps messages (one format
    // byte, then zlib); a stream cut short and one followed by stray bytes stay hex
    let dir = tempfile::tempdir().unwrap();
    let st = Command::new("python3")
        .args([
            "-c",
            "import sqlite3, sys, zlib\nraw = open(sys.argv[2], 'rb').read()\nz = zlib.compress(raw)\n\
             db = sqlite3.connect(sys.argv[1])\ndb.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)')\n\
             for i, b in enumerate([raw, z, b'\\x02' + z, b'\\x02' + z[:-6], z + b'\\x00\\x01']):\n    db.execute('INSERT INTO t VALUES (?, ?)', (i, b))\ndb.commit()",
        ])
        .arg(dir.path().join("z.db"))
        .arg(fixture("user"))
        .status()
        .unwrap();
    assert!(st.success());
    let ctx = SourceCtx::open("s", dir.path()).unwrap();
    let out = run(
        &ctx,
        "sqlite_query",
        json!({"path": "/z.db", "sql": "SELECT id, b FROM t ORDER BY id", "protobuf": true}),
    );
    let cells: Vec<&str> = out
        .text
        .lines()
        .skip(1)
        .map(|l| l.split_once('\t').unwrap().1)
        .collect();
    assert!(cells[0].starts_with("protobuf:{"), "{}", cells[0]);
    assert_eq!(cells[1], cells[0]);
    assert_eq!(cells[2], cells[0]);
    for cut in &cells[3..] {
        assert!(cut.starts_with("x'"), "{cut}");
    }
}

#[test]
fn checksummed_cs_files_are_read_after_their_adler32_and_doubles_print() {
    // Google Maps' caches as tests/fixtures/mapscaches/mapscaches.py writes them (Google's
    // protobuf runtime; the 8-byte big-endian Adler-32 by Python's struct and zlib, as the app's
    // ProtoFileHelper writes it): a `.cs` file, the older layout's message file, a cut `.cs`
    let tmp = tempfile::tempdir().unwrap();
    let python = masf_testkit::corpus::py_oracle("python3", "protobuf");
    let st = Command::new(python)
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/fixtures/mapscaches/mapscaches.py"),
        )
        .arg(tmp.path())
        .arg(tmp.path().join("oracle.json"))
        .status()
        .unwrap();
    assert!(st.success());
    let ctx = SourceCtx::open("s", tmp.path()).unwrap();
    let cs = "/a/data/data/com.google.android.apps.maps/files/new_recent_history_cache_search.cs";
    let size = std::fs::metadata(tmp.path().join(&cs[1..])).unwrap().len();

    // doubles: each fixed64 with the double it encodes; the checksum named and verified
    let out = run(&ctx, "read_protobuf", json!({"path": cs, "doubles": true}));
    let (head, body) = out.text.split_once('\n').unwrap();
    assert!(
        head.starts_with(&format!(
            "# protobuf {cs}: {size} bytes: the Adler-32 checksum "
        )) && head.ends_with(&format!("(verified) then a message of {} bytes", size - 8)),
        "{head}"
    );
    let m: Value = serde_json::from_str(body).unwrap();
    let first = &m["1"][0];
    assert_eq!(first["2"][0], 1_717_398_000_123_456u64);
    assert_eq!(first["4"][0]["1"][0], "Café Savoy");
    assert_eq!(first["4"][0]["5"][0]["3"][0]["double"], 50.080162);
    assert_eq!(first["4"][0]["5"][0]["4"][0]["double"], 14.407418);
    assert_eq!(
        first["4"][0]["5"][0]["3"][0]["fixed64"],
        50.080162f64.to_bits()
    );
    assert_eq!(out.structured.as_ref().unwrap()["message_offset"], 8);
    // without doubles: the integer alone, as before
    let plain = run(&ctx, "read_protobuf", json!({"path": cs}));
    let m: Value = serde_json::from_str(plain.text.split_once('\n').unwrap().1).unwrap();
    assert_eq!(m["1"][0]["4"][0]["5"][0]["3"][0], 50.080162f64.to_bits());

    // the older layout (the message alone, its checksum in a `.adler32` beside it): a message
    let v1 = "/b/data/data/com.google.android.apps.maps/files/saved_directions.data";
    let out = run(&ctx, "read_protobuf", json!({"path": v1, "doubles": true}));
    let (head, body) = out.text.split_once('\n').unwrap();
    assert!(head.ends_with(" bytes"), "{head}");
    let m: Value = serde_json::from_str(body).unwrap();
    assert_eq!(
        m["2"][0]["1"][0]["1"][0]["1"][1]["1"][0]["1"][0]["1"][0],
        "Toronto Pearson International Airport"
    );

    // a cut `.cs`: its checksum fails, an error naming both sums
    let cut =
        "/b/data/user/10/com.google.android.apps.maps/files/new_recent_history_cache_navigated.cs";
    let e = Catalog::standard()
        .get("read_protobuf")
        .unwrap()
        .run(&ctx, &json!({"path": cut}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("not a Protocol Buffers message") && e.contains("Adler-32 checksum"),
        "{e}"
    );
}
