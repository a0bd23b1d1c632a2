//! Tile's trackers and account on two iPhones (`ios::tile`), written by
//! `tests/fixtures/tile/tile.py` (Python's sqlite3, the tables and columns iLEAPP's tileAppDb
//! and tileAppNetDb read; iPhone A's current schema with the state table, iPhone B's older one
//! without it). The generator's record is the oracle: every Tile with its name, id, type,
//! status, lost flag, position and times; the account with its e-mail, name and phone, observed
//! as the device owner's.

use crate::android_support::{generate, has_fact, triage};

/// Whether a printed number is the oracle's (a TIMESTAMP column keeps a whole number as an
/// integer).
fn same(printed: &str, v: &serde_json::Value) -> bool {
    printed.parse::<f64>().ok() == v.as_f64()
}

#[test]
fn tile_trackers_and_account_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/tile/tile.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let tiles: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Tile ") && p.title.ends_with(" last seen"))
            .collect();
        let expected = o["tiles"].as_array().unwrap();
        assert_eq!(tiles.len(), expected.len(), "{source}: {tiles:#?}");
        for t in expected {
            let name = t["ZNAME"].as_str().unwrap();
            let p = tiles
                .iter()
                .find(|p| p.title == format!("Tile {name} last seen"))
                .unwrap();
            assert_eq!(p.category, "locations");
            for k in ["ZID", "ZNODE_TYPE", "ZSTATUS"] {
                assert!(has_fact(p, t[k].as_str().unwrap()), "{k}");
            }
            for k in ["ZLATITUDE", "ZLONGITUDE", "ZALTITUDE"] {
                if let Some(v) = t.get(k) {
                    assert!(
                        p.verified_facts.iter().any(|f| same(&f.value, v)),
                        "{k}: {p:#?}"
                    );
                }
            }
            assert!(p.interpretation.contains(&format!(
                "marked lost: {}",
                if t["ZIS_LOST"] == 1 { "yes" } else { "no" }
            )));
            for (k, what) in [
                ("ZTIMESTAMP", "Tile last seen"),
                ("ZACTIVATION_TIMESTAMP", "Tile activated"),
                ("ZREGISTRATION_TIMESTAMP", "Tile registered"),
                (
                    "ZLAST_LOST_TILE_COMMUNITY_CONNECTION",
                    "Lost Tile last heard by the Tile community",
                ),
            ] {
                let mark = p.times.iter().find(|m| m.description == what);
                match t.get(k).filter(|v| !v.is_null()) {
                    Some(v) => assert!(
                        same(&p.verified_facts[mark.unwrap().fact].value, v),
                        "{k}: {p:#?}"
                    ),
                    None => assert!(mark.is_none(), "{k}"),
                }
            }
        }
        let u = &o["user"];
        let email = u["ZEMAIL"].as_str().unwrap();
        let p = all
            .iter()
            .find(|p| p.title == format!("Tile account {email}"))
            .unwrap();
        assert_eq!(p.category, "accounts");
        assert!(has_fact(p, u["ZFULL_NAME"].as_str().unwrap()));
        let ids = run.identifiers(source);
        assert!(
            ids.iter().any(|(t, v)| t == "email" && v == email),
            "{ids:?}"
        );
        if let Some(phone) = u["ZMOBILE_PHONE"].as_str() {
            assert!(has_fact(p, phone));
            assert!(
                ids.iter().any(|(t, v)| t == "phone" && v == phone),
                "{ids:?}"
            );
        }
    }
}
