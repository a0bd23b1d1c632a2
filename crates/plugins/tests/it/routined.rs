//! routined's learned locations (`ios::routined`): trips, learned places with their map items and
//! addresses, locations of interest and visits, in `Local.sqlite` and iCloud's synced copy
//! `Cloud-V2.sqlite`, on two phones' stores written by the sqlite3 CLI from
//! `tests/fixtures/routined/routined.py` (the iOS 17 layout with visit identifiers and places; the
//! iOS 12 layout without). The generator's record is the oracle: every row is found with its
//! values; a trip's origin and destination visits are joined by their identifiers (iLEAPP's
//! `appleMapsTrips` gives the same coordinates on this fixture, and the same places and
//! addresses through its own join); a negative start is no time; a row of the synced copy says
//! it may come from another device of the account.

use crate::android_support::{generate, has_fact, triage};
use serde_json::Value;

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Some(s.clone())
        }
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[test]
fn trips_places_and_interests_local_and_synced() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/routined/routined.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        assert!(
            run.unparsed(source).is_empty(),
            "{source}: {:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        for (store, tables) in o[source].as_object().unwrap() {
            let of = |title: String| {
                all.iter()
                    .find(|p| {
                        p.title.starts_with(&title)
                            && p.verified_facts
                                .iter()
                                .any(|f| f.value.ends_with(&format!("/{store}")))
                    })
                    .unwrap_or_else(|| panic!("{source} {store} {title}"))
            };
            let t = |name: &str| tables[name].as_array().cloned().unwrap_or_default();
            for (table, prefix, columns) in [
                (
                    "ZRTLEARNEDLOCATIONOFINTERESTTRANSITIONMO",
                    "Trip",
                    &["ZPREDOMINANTMOTIONACTIVITYTYPE", "ZLOCATIONOFINTEREST"][..],
                ),
                (
                    "ZRTLEARNEDLOCATIONOFINTERESTMO",
                    "Location of interest",
                    &[
                        "ZLOCATIONLATITUDE",
                        "ZLOCATIONLONGITUDE",
                        "ZLOCATIONHORIZONTALUNCERTAINTY",
                        "ZPLACETYPE",
                        "ZIDENTIFIER",
                    ][..],
                ),
                (
                    "ZRTLEARNEDLOCATIONOFINTERESTVISITMO",
                    "Significant location visit",
                    &["ZLOCATIONLATITUDE", "ZLOCATIONLONGITUDE"][..],
                ),
                (
                    "ZRTLEARNEDPLACEMO",
                    "Significant place",
                    &["ZCUSTOMLABEL", "ZTYPE", "ZTYPESOURCE"][..],
                ),
            ] {
                for r in t(table) {
                    let p = of(format!("{prefix} {}:", r["Z_PK"]));
                    for c in columns {
                        if let Some(v) = scalar(&r[*c]) {
                            assert!(has_fact(p, &v), "{store} {table} {c} {v}: {p:#?}");
                        }
                    }
                    assert!(
                        p.interpretation.contains("copy iCloud syncs")
                            == (store == "Cloud-V2.sqlite"),
                        "{}",
                        p.interpretation
                    );
                }
            }
            // each place with its map item and address (the fixture's map item and address
            // share the place's number)
            for (table, columns) in [
                (
                    "ZRTMAPITEMMO",
                    &["ZNAME", "ZCATEGORY", "ZLATITUDE", "ZLONGITUDE"][..],
                ),
                (
                    "ZRTADDRESSMO",
                    &[
                        "ZSUBTHOROUGHFARE",
                        "ZTHOROUGHFARE",
                        "ZLOCALITY",
                        "ZSUBLOCALITY",
                        "ZPOSTALCODE",
                        "ZCOUNTRY",
                        "ZCOUNTRYCODE",
                        "ZAREASOFINTEREST",
                    ][..],
                ),
            ] {
                for r in t(table) {
                    let place = r.get("ZPLACE").unwrap_or(&r["ZMAPITEM"]);
                    let p = of(format!("Significant place {place}:"));
                    for c in columns {
                        if let Some(v) = scalar(&r[*c]) {
                            assert!(has_fact(p, &v), "{table} {c} {v}: {p:#?}");
                        }
                    }
                }
            }
            // a trip's ends: the visits its identifiers name
            let visits = t("ZRTLEARNEDLOCATIONOFINTERESTVISITMO");
            for r in t("ZRTLEARNEDLOCATIONOFINTERESTTRANSITIONMO") {
                let p = of(format!("Trip {}:", r["Z_PK"]));
                let end = |k: &str| {
                    visits
                        .iter()
                        .find(|v| r.get(k).is_some() && v["ZIDENTIFIER"] == r[k])
                        .map(|v| format!("{}, {}", v["ZLOCATIONLATITUDE"], v["ZLOCATIONLONGITUDE"]))
                        .unwrap_or_else(|| "?".into())
                };
                assert_eq!(
                    p.title,
                    format!(
                        "Trip {}: {} to {}",
                        r["Z_PK"],
                        end("ZVISITIDENTIFIERORIGIN"),
                        end("ZVISITIDENTIFIERDESTINATION")
                    )
                );
                let start = r["ZSTARTDATE"].as_f64().unwrap();
                let expected = if start > 0.0 { 4 } else { 3 };
                assert_eq!(p.times.len(), expected, "{p:#?}");
            }
        }
    }
    let a = run.all_phenomena("a");
    let trip = a.iter().find(|p| p.title.starts_with("Trip 1:")).unwrap();
    assert!(
        trip.interpretation.contains("(driving"),
        "{}",
        trip.interpretation
    );
    let trip = a.iter().find(|p| p.title.starts_with("Trip 2:")).unwrap();
    assert!(
        trip.interpretation
            .contains("its destination visit is no longer in the store"),
        "{}",
        trip.interpretation
    );
    assert!(
        a.iter()
            .any(|p| p.title == "Significant place 2: Lena's flat")
    );
    assert!(
        a.iter()
            .any(|p| p.title == "Significant place 1: Kramgasse 49")
    );
    let b = run.all_phenomena("b");
    assert!(!b.iter().any(|p| p.title.starts_with("Significant place")));
}
