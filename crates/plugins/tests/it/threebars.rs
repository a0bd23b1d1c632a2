//! The Wi-Fi location cache (`ios::threebars`) at parity with iLEAPP's `threeBarsNetworks`,
//! `threeBarsAccessPoints` and `threeBarsTiles` on two iPhones: the corpus holds iLEAPP's
//! recorded results for the MVS 2023 iPhone (430 networks, 16,713 access points, 168 tiles) and
//! Josh Hickman's iOS 17 iPhone (195, 8,927, 5), not the databases. A `ThreeBars.sqlite` is
//! written per device by Python's sqlite3 from those rows, read in place from the corpus — each
//! value back in its stored form (Core Data seconds, 1/0 flags, the network of an access point
//! by its identifier) — and triaged; every row and field iLEAPP reports is then found (its 0/0
//! placeholder positions, which it blanks, recorded as none). Beside them a truncated copy and
//! one whose tables lack `ZCREATED` are noted; a file of the name outside `com.apple.wifid` is
//! passed over.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::android_support::triage;

const DB: &str = "private/var/root/Library/Caches/com.apple.wifid/ThreeBars.sqlite";

const WRITE: &str = r#"
import json, os, sqlite3, sys
out, nets, aps, tiles = sys.argv[1:5]
E = 978307200
os.makedirs(os.path.dirname(out), exist_ok=True)
db = sqlite3.connect(out)
db.executescript("""
CREATE TABLE ZNETWORK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZACCESSPOINTCOUNT INTEGER, ZAUTHMASK INTEGER,
  ZCAPTIVE INTEGER, ZLOWQUALITY INTEGER, ZMOVING INTEGER, ZPOPULARITYSCOREVALUE INTEGER, ZPUBLIC INTEGER, ZQUALITYSCOREVALUE INTEGER,
  ZSUSPICIOUS INTEGER, ZTYPE INTEGER, ZVENUEGROUP INTEGER, ZVENUETYPE INTEGER, ZTILEKEY INTEGER, ZCREATED TIMESTAMP,
  ZCENTROIDLAT FLOAT, ZCENTROIDLNG FLOAT, ZIDENTIFIER VARCHAR, ZNAME VARCHAR);
CREATE TABLE ZACCESSPOINT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZEDGE INTEGER, ZPOPULARITYSCOREVALUE INTEGER,
  ZQUALITYSCOREVALUE INTEGER, ZTCPGOOD INTEGER, ZNETWORK INTEGER, ZCREATED TIMESTAMP, ZLAT FLOAT, ZLNG FLOAT, ZBSSID VARCHAR);
CREATE TABLE ZTILE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNETWORKCOUNT INTEGER, ZKEY INTEGER, ZCREATED TIMESTAMP, ZETAG VARCHAR);
""")
flag = lambda v: {'Yes': 1, 'No': 0}.get(v, v)
pos = lambda v: 0.0 if v == '' else v
by_id = {}
for r in json.load(open(nets))['data']:
    (created, lat, lng, name, ident, aps_n, captive, public, moving, susp, low, q, pop, auth, typ, vg, vt, tile, pk) = r
    by_id[ident] = pk
    db.execute("INSERT INTO ZNETWORK VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (pk, aps_n, auth, flag(captive), flag(low), flag(moving), pop, flag(public), q, flag(susp), typ, vg, vt, tile,
         created - E, pos(lat), pos(lng), ident, name))
for r in json.load(open(aps))['data']:
    (created, lat, lng, bssid, name, ident, edge, tcp, q, pop, pk) = r
    db.execute("INSERT INTO ZACCESSPOINT VALUES (?, 2, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (pk, edge, pop, q, flag(tcp), by_id.get(ident), created - E, pos(lat), pos(lng), bssid))
for r in json.load(open(tiles))['data']:
    (created, key, n, etag, pk) = r
    db.execute("INSERT INTO ZTILE VALUES (?, 3, 1, ?, ?, ?, ?)", (pk, n, key, created - E, etag))
db.commit()
"#;

/// A value of iLEAPP's output as our facts hold it (1/0 for its Yes/No); `None` for what it
/// leaves blank.
fn as_fact(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if s == "Yes" => Some("1".into()),
        Value::String(s) if s == "No" => Some("0".into()),
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[test]
fn threebars_at_parity_with_ileapp_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = ["mvs_ios_2023", "josh_ios17_ffs"];
    let mut sources = Vec::new();
    for case in cases {
        let root = tmp.path().join(case);
        let prefix = |what: &str| {
            let exp = crate::ios::expected(&format!("threeBars.{what}.{case}"));
            let file = tmp.path().join(format!("{case}-{what}.json"));
            std::fs::write(&file, exp.to_string()).unwrap();
            file
        };
        let st = std::process::Command::new("python3")
            .args(["-c", WRITE])
            .arg(root.join(DB))
            .arg(prefix("threeBarsNetworks"))
            .arg(prefix("threeBarsAccessPoints"))
            .arg(prefix("threeBarsTiles"))
            .status()
            .unwrap();
        assert!(st.success());
        std::fs::create_dir_all(root.join("private/var/mobile/Library/SMS")).unwrap();
        sources.push((case, root));
    }
    // beside the first: a truncated copy, tables without ZCREATED, another folder's file
    let first = &sources[0].1;
    let bytes = std::fs::read(first.join(DB)).unwrap();
    let cut = first.join("private/var/mobile/Library/Caches/com.apple.wifid/ThreeBars.sqlite");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let foreign = first.join(
        "private/var/root/Library/Caches/com.apple.wifid/old/com.apple.wifid/ThreeBars.sqlite",
    );
    crate::ios_nearby::sqlite3(
        &foreign,
        "CREATE TABLE ZNETWORK (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR); INSERT INTO ZNETWORK VALUES (1, 'x');",
    );
    let elsewhere = first.join("private/var/mobile/Containers/Data/Application/0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9/Library/ThreeBars.sqlite");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    std::fs::copy(first.join(DB), &elsewhere).unwrap();

    let run = triage(
        &sources
            .iter()
            .map(|(c, r)| (*c, r.as_path(), "UTC", None))
            .collect::<Vec<(&str, &Path, &str, Option<&str>)>>(),
    );
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (case, _) in &sources {
        let all = run.all_phenomena(case);
        // (table, Z_PK) → the phenomenon's facts and time
        let mut by_pk: HashMap<(String, String), (Vec<String>, Option<String>)> = HashMap::new();
        for p in all
            .iter()
            .filter(|p| p.title.starts_with("Wi-Fi location cache "))
        {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            let mut words = p.interpretation.split(' ');
            let (Some(table), Some("Z_PK"), Some(pk)) = (words.next(), words.next(), words.next())
            else {
                panic!("{}", p.interpretation)
            };
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.value.contains("/Containers/")),
                "the file outside com.apple.wifid was read: {}",
                p.title
            );
            let time = p
                .times
                .first()
                .map(|m| p.verified_facts[m.fact].value.clone());
            by_pk.insert(
                (table.to_string(), pk.to_string()),
                (
                    p.verified_facts.iter().map(|f| f.value.clone()).collect(),
                    time,
                ),
            );
        }
        let (mut fields, mut found) = (0usize, 0usize);
        for (what, table) in [
            ("threeBarsNetworks", "ZNETWORK"),
            ("threeBarsAccessPoints", "ZACCESSPOINT"),
            ("threeBarsTiles", "ZTILE"),
        ] {
            let exp = crate::ios::expected(&format!("threeBars.{what}.{case}"));
            let rows = exp["data"].as_array().unwrap();
            assert!(!rows.is_empty() || *case == "josh_ios17_ffs");
            for row in rows {
                let row = row.as_array().unwrap();
                let pk = row.last().unwrap().to_string();
                let (facts, time) = by_pk
                    .get(&(table.to_string(), pk.clone()))
                    .unwrap_or_else(|| panic!("{case}: {table} {pk}"));
                // Created: iLEAPP's Unix seconds, ours the stored Core Data seconds
                let created = row[0].as_i64().unwrap();
                assert_eq!(
                    time.as_deref(),
                    Some((created - 978_307_200).to_string().as_str()),
                    "{case}: {table} {pk}"
                );
                for v in &row[1..] {
                    // a REAL as the tool prints it (Rust's shortest round-trip form) may differ
                    // from Python's in the last digit when both are as short (8.459976196289063
                    // against 8.459976196289062 for the float32 value 8.4599761962890625): the
                    // same double, compared as one
                    let same_float = |f: &String| {
                        v.as_f64()
                            .filter(|_| v.is_f64())
                            .is_some_and(|x| f.parse::<f64>() == Ok(x))
                    };
                    if let Some(v) = as_fact(v) {
                        fields += 1;
                        if facts.contains(&v) || facts.iter().any(same_float) {
                            found += 1;
                        } else {
                            panic!("{case}: {table} {pk}: {v} not in {facts:?}");
                        }
                    }
                }
            }
        }
        eprintln!("{case}: {found} of {fields} fields");
        assert_eq!(found, fields);
    }
    run.assert_noted(
        "mvs_ios_2023",
        &[
            (
                "mobile/Library/Caches/com.apple.wifid/ThreeBars.sqlite",
                "malformed",
            ),
            (
                "old/com.apple.wifid/ThreeBars.sqlite",
                "ZNETWORK lacks ZCREATED",
            ),
        ],
    );
}
