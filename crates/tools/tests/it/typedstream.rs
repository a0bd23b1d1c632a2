//! NSArchiver typedstreams (`masf_tools::typedstream`, `sqlite_query`'s `typedstream` option) on
//! the real `attributedBody` archives of plaso's public Messages database (10 messages written by
//! macOS Messages, in the corpus): each read as pytypedstream (PyPI, an independent reader) reads
//! it, its text equal to the row's `text` column; every truncation and seeded damage gives a
//! typed error or a reading, never a panic.

use std::process::Command;

use masf_testkit::corpus;
use masf_tools::typedstream;
use serde_json::{Value, json};

use crate::support::run;

const DB: &str = "ios/plaso-imessage_chat.db";

/// The (rowid, text, attributedBody) rows of the corpus database.
fn rows() -> Vec<(i64, String, Vec<u8>)> {
    let db = rusqlite::Connection::open_with_flags(
        corpus::path(DB),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let mut stmt = db
        .prepare("SELECT ROWID, text, attributedBody FROM message ORDER BY ROWID")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// pytypedstream's reading of every row (tests/fixtures/typedstream/oracle.py).
fn oracle() -> Vec<Value> {
    let python = corpus::py_oracle("python3", "pytypedstream");
    let script = corpus::repo_root().join("tests/fixtures/typedstream/oracle.py");
    let out = Command::new(python)
        .arg(script)
        .arg(corpus::path(DB))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Data holding a binary plist is decoded by us and left as bytes by the oracle: both become
/// one marker, so the rest compares exactly.
fn plist_data_as_marker(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let is_plist = m.contains_key("$data_plist")
                || m.get("$data_hex")
                    .and_then(Value::as_str)
                    .is_some_and(|h| h.starts_with(&hex::encode("bplist00")));
            if is_plist && m.len() == 1 {
                *v = json!("<binary plist>");
            } else {
                m.values_mut().for_each(plist_data_as_marker);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(plist_data_as_marker),
        _ => {}
    }
}

#[test]
fn attributed_bodies_read_as_an_independent_reader_reads_them() {
    let rows = rows();
    let oracle = oracle();
    assert_eq!(rows.len(), 10);
    assert_eq!(oracle.len(), 10);
    for ((rowid, text, blob), want) in rows.iter().zip(&oracle) {
        assert_eq!(want["rowid"], json!(rowid));
        let mut got = typedstream::decode(blob).unwrap();
        // the text column beside the archive: the same words, except in rows 6 and 10, whose
        // text column says "Open Office" where the archive (read alike by pytypedstream) says
        // "Microsoft Office": the column was changed after Messages wrote the rows
        if [6, 10].contains(rowid) {
            assert!(text.contains(" Open Office"), "{text}");
            assert_eq!(
                got["text"],
                json!(text.replace("Open Office", "Microsoft Office"))
            );
        } else {
            assert_eq!(got["text"], json!(text), "row {rowid}");
        }
        assert_eq!(got["$class"], "NSMutableAttributedString");
        let mut want = want["value"].clone();
        plist_data_as_marker(&mut got);
        plist_data_as_marker(&mut want);
        assert_eq!(got, want, "row {rowid}");
        // the runs cover the text, counted in UTF-16 units as Foundation counts
        let total: u64 = got["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["length"].as_u64().unwrap())
            .sum();
        let words = got["text"].as_str().unwrap();
        assert_eq!(total as usize, words.encode_utf16().count(), "row {rowid}");
    }
    // row 1: Messages marked the product code as a phone link
    let first = typedstream::decode(&rows[0].2).unwrap();
    assert_eq!(
        first["runs"][1]["attributes"]["__kIMLinkAttributeName"],
        "tel:128874"
    );
    assert_eq!(first["runs"][1]["from"], 153);
    // row 2: the data detector's result is an NSKeyedArchiver plist inside NSData, decoded
    let second = typedstream::decode(&rows[1].2).unwrap();
    let event = &second["runs"][1]["attributes"]["__kIMCalendarEventAttributeName"];
    assert!(event.get("$data_plist").is_some(), "{event}");
}

#[test]
fn the_sqlite_option_renders_the_archive_and_leaves_other_blobs_hex() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(corpus::path(DB), tmp.path().join("sms.db")).unwrap();
    let ctx = masf_tools::SourceCtx::open("s", tmp.path()).unwrap();
    let sql = "SELECT ROWID, attributedBody, x'00ff' AS other FROM message ORDER BY ROWID";
    let plain = run(&ctx, "sqlite_query", json!({"path": "/sms.db", "sql": sql}));
    assert!(plain.text.contains("\tx'040b73747265616d7479706564"));
    let out = run(
        &ctx,
        "sqlite_query",
        json!({"path": "/sms.db", "sql": sql, "typedstream": true}),
    );
    let rows = rows();
    let lines: Vec<&str> = out.text.lines().skip(1).collect();
    assert_eq!(lines.len(), rows.len());
    for (line, (_, _, blob)) in lines.iter().zip(&rows) {
        let cells: Vec<&str> = line.split('\t').collect();
        // the cell is the decoded JSON, escaped as every text cell is
        let json = serde_json::to_string(&masf_tools::canonical_value(
            &typedstream::decode(blob).unwrap(),
        ))
        .unwrap();
        assert_eq!(
            cells[1],
            format!("typedstream:{}", masf_tools::sqlite::escape_cell(&json))
        );
        assert_eq!(cells[2], "x'00ff'");
    }
    assert!(lines[0].contains("MacBook Air 13.3\\\\\"")); // a quote, JSON- then cell-escaped
    // the text alone, as the column beside it holds it (rows 6 and 10 differ: see above)
    let words = run(
        &ctx,
        "sqlite_query",
        json!({"path": "/sms.db", "sql": "SELECT ROWID, attributedBody, text FROM message ORDER BY ROWID", "typedstream_text": true, "typedstream": true}),
    );
    let mut differ = Vec::new();
    for line in words.text.lines().skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        let archived = cells[1].strip_prefix("typedstream-text:").unwrap();
        if archived != cells[2] {
            differ.push(cells[0]);
        }
    }
    assert_eq!(differ, ["6", "10"]);
    let err = masf_tools::Catalog::standard()
        .get("sqlite_query")
        .unwrap()
        .run(
            &ctx,
            &json!({"path": "/sms.db", "sql": sql, "typedstream": 1}),
        )
        .unwrap_err();
    assert!(err.to_string().contains("typedstream"), "{err}");
    // the evidence is unchanged
    assert_eq!(
        std::fs::read(tmp.path().join("sms.db")).unwrap(),
        corpus::bytes(DB)
    );
}

#[test]
fn truncated_and_damaged_archives_give_typed_errors_never_a_panic() {
    for (rowid, _, blob) in rows() {
        // every proper prefix ends inside the root object: an error inside the prefix
        for cut in 0..blob.len() {
            let e = typedstream::decode(&blob[..cut]).unwrap_err();
            assert!(e.offset <= cut, "row {rowid} cut {cut}: {e}");
            assert!(!e.reason.is_empty());
        }
        // seeded damage: one to four bytes changed, read or refused with a reason
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ rowid as u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let mut b = blob.clone();
            for _ in 0..=(next() % 4) {
                let at = 16 + (next() as usize) % (b.len() - 16);
                b[at] = next() as u8;
            }
            match typedstream::decode(&b) {
                Ok(v) => assert!(serde_json::to_string(&v).is_ok()),
                Err(e) => assert!(e.offset <= b.len(), "{e}"),
            }
        }
    }
}

#[test]
fn crafted_nesting_and_self_references_are_bounded() {
    const HEAD: &[u8] = b"\x04\x0bstreamtyped\x81\xe8\x03";
    // an NSArray holding itself: `@`, new object, new class NSArray v0, nil superclass, `i` 1,
    // `@` a reference to object 0, end
    let mut b = HEAD.to_vec();
    b.extend_from_slice(b"\x84\x01@\x84\x84\x84\x07NSArray\x00\x85\x84\x01i\x01\x92\x92\x86");
    assert_eq!(typedstream::decode(&b).unwrap(), json!([{"$ref": 0}]));
    // arrays nested past the bound: an error naming the depth, not a stack overflow
    let mut deep = HEAD.to_vec();
    deep.extend_from_slice(b"\x84\x01@\x84\x84\x84\x07NSArray\x00\x85\x84\x01i\x01");
    for _ in 0..100 {
        // `@` (shared string 0), a new NSArray (class reference 1), `i` (shared string 2) 1
        deep.extend_from_slice(b"\x92\x84\x93\x94\x01");
    }
    let e = typedstream::decode(&deep).unwrap_err();
    assert!(e.reason.contains("deeper than 64"), "{e}");
    // 5,000 arrays side by side, each holding the one before: read flat, and the rendering
    // stops at its bound instead of following the chain down the stack
    let mut chain = HEAD.to_vec();
    // `@`, a new NSArray (class NSArray v0, nil superclass) holding `i` 5000 then the elements
    chain.extend_from_slice(
        b"\x84\x01@\x84\x84\x84\x07NSArray\x00\x85\x84\x01i\x82\x88\x13\x00\x00",
    );
    // element 0: `@`, a new NSArray (class reference 1), `i` 0, end
    chain.extend_from_slice(b"\x92\x84\x93\x94\x00\x86");
    for i in 1..5000u32 {
        // element i: `@`, a new NSArray, `i` 1, `@` a reference to element i-1, end; the
        // object table holds the outer array (0), its class (1), then element k at 2 + k
        let previous = 2 + i - 1;
        chain.extend_from_slice(b"\x92\x84\x93\x94\x01\x92");
        let n = i64::from(previous) - 110;
        if n <= 127 {
            chain.push(n as i8 as u8);
        } else {
            chain.push(0x81);
            chain.extend_from_slice(&(n as i16).to_le_bytes());
        }
        chain.push(0x86);
    }
    chain.push(0x86);
    let e = typedstream::decode(&chain).unwrap_err();
    assert!(e.reason.contains("more than 256 deep"), "{e}");
    // a length past the end, a reference to nothing yet read
    let mut long = HEAD.to_vec();
    long.extend_from_slice(b"\x84\x01+\x82\xff\xff\xff\x7fabc");
    let e = typedstream::decode(&long).unwrap_err();
    assert!(e.reason.contains("truncated"), "{e}");
    let mut dangling = HEAD.to_vec();
    dangling.extend_from_slice(b"\x84\x01@\x99");
    let e = typedstream::decode(&dangling).unwrap_err();
    assert!(e.reason.contains("reference 7"), "{e}");
}
