//! `read_json` on an ext4 image made by `mkfs.ext4 -d` holding JSON files written by Python's
//! `json` module in redux-persist's layout (each reducer's state a JSON text inside the file's
//! object, as React Native apps such as MetaMask Mobile write `persistStore/persist-root`):
//! pointers into the nested texts, secrets redacted in nested texts decoded or not, and
//! truncated, non-UTF-8, over-deep and foreign files refused with the byte offset.

use std::path::Path;
use std::process::Command;

use masf_tools::{Catalog, SourceCtx};
use serde_json::{Value, json};

use crate::support::run;

const PERSIST_ROOT: &str = r#"
import json, sys
engine = {"backgroundState": {
  "PreferencesController": {"identities": {
    "0x5aEdA56215b167893e80B4fE645BA6d5Bab767DE": {"address": "0x5aEdA56215b167893e80B4fE645BA6d5Bab767DE", "name": "Leung \"main\" 帳戶", "importTime": 1700000000000}}},
  "KeyringController": {"vault": "{\"data\":\"c2VjcmV0\",\"iv\":\"aXY=\",\"salt\":\"c2FsdA==\"}"},
  "Backup": {"mnemonic": "abandon ability able about above absent absorb abstract absurd abuse access accident"},
  "TokenListController": {"tokenList": {("0x%040x" % i): {"symbol": "T%d" % i} for i in range(2000)}}}}
root = {"engine": json.dumps(engine), "browser": json.dumps({"history": [{"name": "Uniswap", "url": "https://app.uniswap.org/"}]}),
        "_persist": json.dumps({"version": 104, "rehydrated": True})}
open(sys.argv[1], "w").write(json.dumps(root))
"#;

fn python(script: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let st = Command::new("python3")
        .args(["-c", script])
        .arg(to)
        .status()
        .unwrap();
    assert!(st.success());
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

fn fails(ctx: &SourceCtx, args: Value) -> String {
    let catalog = Catalog::standard();
    catalog
        .get("read_json")
        .unwrap()
        .run(ctx, &args)
        .unwrap_err()
        .to_string()
}

#[test]
fn nested_redux_persist_texts_are_read_by_pointer_with_secrets_redacted() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let store = root.join("data/io.metamask/files/persistStore");
    python(PERSIST_ROOT, &store.join("persist-root"));
    let whole = std::fs::read(store.join("persist-root")).unwrap();
    std::fs::write(store.join("truncated"), &whole[..whole.len() / 2]).unwrap();
    std::fs::write(store.join("latin1"), b"{\"name\": \"caf\xe9\"}").unwrap();
    std::fs::write(
        store.join("deep"),
        format!("{}{}", "[".repeat(5000), "]".repeat(5000)),
    )
    .unwrap();
    std::fs::write(store.join("bom"), b"\xef\xbb\xbf{\"a\": [1, 2]}").unwrap();
    let ctx = image(&root, &tmp.path().join("fs.img"));
    let path = "/data/io.metamask/files/persistStore/persist-root";

    let pointers = [
        "/engine/backgroundState/PreferencesController",
        "/engine/backgroundState/KeyringController",
        "/engine/backgroundState/Backup",
        "/browser/history",
        "/engine/backgroundState/AddressBookController",
    ];
    let out = run(
        &ctx,
        "read_json",
        json!({"path": path, "pointers": pointers, "decode_nested": true}),
    );
    let mut lines = out.text.lines();
    assert_eq!(
        lines.next(),
        Some(
            format!(
                "# json {path}: {} bytes, 4 nested JSON texts decoded, 1 secret values redacted",
                whole.len()
            )
            .as_str()
        )
    );
    // the values print as the app wrote them, escaped once as JSON does
    assert!(
        out.text
            .contains("# at /engine/backgroundState/PreferencesController\n{")
    );
    assert!(
        out.text.contains(r#""name": "Leung \"main\" 帳戶","#),
        "{}",
        out.text
    );
    assert!(out.text.contains(r#""importTime": 1700000000000"#));
    // the vault is decoded too (it is JSON) and kept: it is encrypted
    assert!(out.text.contains(r#""salt": "c2FsdA==""#));
    assert!(
        out.text
            .contains("[redacted by MASForensics: mnemonic of 84 characters, 12 words]")
    );
    assert!(!out.text.contains("abandon ability"));
    assert!(out.text.contains(r#""url": "https://app.uniswap.org/""#));
    assert!(
        out.text
            .ends_with("# at /engine/backgroundState/AddressBookController: not present\n")
    );
    // the token list was not asked for
    assert!(!out.text.contains("TokenListController"));
    let s = out.structured.unwrap();
    assert_eq!(
        (s["pointers"].as_u64(), s["found"].as_u64()),
        (Some(5), Some(4))
    );

    // not decoded: the nested text stays a string, its secret redacted inside it
    let out = run(
        &ctx,
        "read_json",
        json!({"path": path, "pointers": ["/engine"]}),
    );
    assert!(out.text.starts_with(&format!(
        "# json {path}: {} bytes, 0 nested JSON texts decoded, 1 secret values redacted\n",
        whole.len()
    )));
    let engine: Value = serde_json::from_str(out.text.lines().nth(2).unwrap()).unwrap();
    let inner: Value = serde_json::from_str(engine.as_str().unwrap()).unwrap();
    assert!(
        inner["backgroundState"]["Backup"]["mnemonic"]
            .as_str()
            .unwrap()
            .starts_with("[redacted by MASForensics")
    );
    // the same call gives the same bytes
    let again = run(
        &ctx,
        "read_json",
        json!({"path": path, "pointers": ["/engine"]}),
    );
    assert_eq!(again.text, out.text);

    // a byte-order mark is skipped; the whole document is the default
    let out = run(
        &ctx,
        "read_json",
        json!({"path": "/data/io.metamask/files/persistStore/bom"}),
    );
    assert!(
        out.text.contains("# at (root)\n{\n  \"a\": [\n    1,"),
        "{}",
        out.text
    );

    // hostile copies: refused with where reading stopped, nothing panics
    let e = fails(
        &ctx,
        json!({"path": "/data/io.metamask/files/persistStore/truncated"}),
    );
    assert!(e.contains("not JSON: EOF while parsing"), "{e}");
    assert!(
        e.ends_with(&format!("(byte offset {})", whole.len() / 2)),
        "{e}"
    );
    let e = fails(
        &ctx,
        json!({"path": "/data/io.metamask/files/persistStore/latin1"}),
    );
    assert!(e.contains("not JSON") && e.contains("byte offset"), "{e}");
    let e = fails(
        &ctx,
        json!({"path": "/data/io.metamask/files/persistStore/deep"}),
    );
    assert!(e.contains("recursion limit exceeded"), "{e}");
    let e = fails(&ctx, json!({"path": path, "pointers": ["engine"]}));
    assert!(
        e.contains("must be empty (the whole document) or start with /"),
        "{e}"
    );
    let e = fails(&ctx, json!({"path": "/data/io.metamask/files/nothing"}));
    assert!(e.contains("nothing"), "{e}");
}

/// An app's cached API response (Discord's `fsCachedData`: a list of messages, written by
/// Python's `json`), with its user ids qualified, in nested texts too; a bad `qualify` refused.
#[test]
fn members_named_in_qualify_gain_their_service_qualified_id() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    python(
        r#"
import json, sys
msgs = [{"id": "1300000000000000001", "content": "hi", "author": {"id": "1100000000000000001", "username": "dana_w"},
         "mentions": [{"id": 1100000000000000002, "username": "ravi.m"}]},
        {"id": "1300000000000000002", "state": json.dumps({"author": {"id": "1100000000000000003"}})}]
open(sys.argv[1], "w").write(json.dumps(msgs))
"#,
        &root.join("fsCachedData/5D0E3A1B-7C2F-4E88-9A61-3B4C5D6E7F80"),
    );
    let ctx = image(&root, &tmp.path().join("fs.img"));
    let path = "/fsCachedData/5D0E3A1B-7C2F-4E88-9A61-3B4C5D6E7F80";
    let out = run(
        &ctx,
        "read_json",
        json!({"path": path, "decode_nested": true, "qualify": {"id": "discord", "username": "discord-username"}}),
    );
    let doc: Value = serde_json::from_str(out.text.split_once("# at (root)\n").unwrap().1).unwrap();
    assert_eq!(
        doc[0]["author"]["id.qualified"],
        "discord:1100000000000000001"
    );
    assert_eq!(
        doc[0]["author"]["username.qualified"],
        "discord-username:dana_w"
    );
    // an integer id too, and a member of a decoded nested text
    assert_eq!(
        doc[0]["mentions"][0]["id.qualified"],
        "discord:1100000000000000002"
    );
    assert_eq!(
        doc[1]["state"]["author"]["id.qualified"],
        "discord:1100000000000000003"
    );
    assert_eq!(doc[0]["content"], "hi");
    assert!(doc[0].get("content.qualified").is_none());
    let e = fails(&ctx, json!({"path": path, "qualify": {"id": "Discord!"}}));
    assert!(e.contains("qualify"), "{e}");
}

#[test]
fn session_tokens_are_redacted_and_their_neighbours_kept() {
    // an app's session as Mastodon's accounts.json and Bluesky's persisted state keep it
    const SESSION: &str = r#"
import json, sys
json.dump({"accounts": [{"a": {"access_token": "mZ3-tok.en_123", "token_type": "Bearer", "scope": "read write"},
  "b": {"acct": "ines"}}], "session": {"accounts": [{"did": "did:plc:x", "accessJwt": "eyJ.a.b", "refreshJwt": "eyJ.c.d",
  "refresh-token": "r-1"}]}}, open(sys.argv[1], "w"))
"#;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    python(SESSION, &root.join("files/accounts.json"));
    let ctx = image(&root, &tmp.path().join("fs.img"));
    let out = run(&ctx, "read_json", json!({"path": "/files/accounts.json"}));
    assert!(
        out.text
            .lines()
            .next()
            .unwrap()
            .ends_with("4 secret values redacted"),
        "{}",
        out.text
    );
    for secret in ["mZ3-tok.en_123", "eyJ.a.b", "eyJ.c.d", "r-1"] {
        assert!(!out.text.contains(secret), "{secret} in {}", out.text);
    }
    for kept in [
        r#""token_type": "Bearer""#,
        r#""scope": "read write""#,
        r#""did": "did:plc:x""#,
        r#""acct": "ines""#,
    ] {
        assert!(out.text.contains(kept), "{kept} in {}", out.text);
    }
}

/// A JSON file compressed by Python's zlib and gzip modules (Android's telephony backup keeps
/// its SMS as a zlib stream) is inflated first and said so; one that does not inflate is
/// refused naming why.
#[test]
fn zlib_and_gzip_json_files_are_inflated() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("src");
    std::fs::create_dir_all(&dir).unwrap();
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import gzip, json, sys, zlib\n\
             d = sys.argv[1]\n\
             doc = [{'address': '+85261234000', 'body': 'meet at 9'}]\n\
             open(d + '/z', 'wb').write(zlib.compress(json.dumps(doc).encode()))\n\
             open(d + '/g', 'wb').write(gzip.compress(json.dumps(doc).encode()))\n\
             open(d + '/bad', 'wb').write(zlib.compress(json.dumps(doc).encode())[:12])\n",
        )
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ctx = masf_tools::SourceCtx::open("a", &dir).unwrap();
    for (file, how) in [("/z", "zlib"), ("/g", "gzip")] {
        let got = crate::support::run(
            &ctx,
            "read_json",
            serde_json::json!({"path": file, "pointers": ["/0/body"]}),
        );
        let head = got.text.lines().next().unwrap();
        assert!(head.contains(&format!("({how}-compressed, ")), "{head}");
        assert!(got.text.contains("\"meet at 9\""), "{}", got.text);
    }
    let e = masf_tools::Catalog::standard()
        .get("read_json")
        .unwrap()
        .run(&ctx, &serde_json::json!({"path": "/bad"}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("zlib-compressed, and it does not inflate"),
        "{e}"
    );
}
