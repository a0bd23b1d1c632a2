//! Waze's `user.db` (`crate::waze`, read by the Android and iOS plugins): an Android phone's
//! store with every table, an older Android copy without `SHARED_PLACES`, `EVENTS_PLACES` and
//! `is_residential`, and an iPhone's (the container holding `com.waze.iphone.plist`; another
//! app's `user.db` left alone), written by the sqlite3 CLI from `tests/fixtures/waze/waze.py`
//! with the columns ALEAPP's and iLEAPP's waze modules read. The generator's record is the
//! oracle: every row of every table is found with its own values, its place's address and its
//! coordinates (stored E6 and in degrees), its times; home and work said.

use crate::android_support::{generate, has_fact, triage};
use serde_json::Value;

#[test]
fn waze_places_recents_favourites_on_android_and_ios() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/waze/waze.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["android", "android_old", "iphone"]
        .iter()
        .map(|n| tmp.path().join(n))
        .collect();
    let run = triage(&[
        ("android", &dirs[0], "Europe/Zurich", Some("CH")),
        ("android_old", &dirs[1], "Europe/Lisbon", Some("PT")),
        ("iphone", &dirs[2], "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["android", "android_old", "iphone"] {
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let waze: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Waze "))
            .collect();
        let tables = o[source].as_object().unwrap();
        let total: usize = tables.values().map(|r| r.as_array().unwrap().len()).sum();
        assert_eq!(waze.len(), total, "{source}: {waze:#?}");
        let places = tables["PLACES"].as_array().unwrap();
        for (table, prefix) in [
            ("PLACES", "Waze place"),
            ("RECENTS", "Waze recent destination"),
            ("FAVORITES", "Waze saved place"),
            ("SHARED_PLACES", "Waze shared place"),
            ("EVENTS_PLACES", "Waze planned drive"),
        ] {
            for r in tables
                .get(table)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let place = if table == "PLACES" {
                    r
                } else {
                    places.iter().find(|p| p["id"] == r["place_id"]).unwrap()
                };
                let p = waze
                    .iter()
                    .find(|p| {
                        p.title.starts_with(prefix)
                            && p.interpretation
                                .starts_with(&format!("{table} row {} ", r["id"]))
                    })
                    .unwrap_or_else(|| panic!("{source} {table} {}: {waze:#?}", r["id"]));
                assert_eq!(p.category, "locations");
                for k in ["street", "city", "venue_id"] {
                    if let Some(v) = place[k].as_str() {
                        assert!(has_fact(p, v), "{k}: {p:#?}");
                    }
                }
                assert!(has_fact(p, &place["latitude"].to_string()), "{p:#?}");
                for k in ["name", "owner_id", "event_id", "server_id"] {
                    match &r[k] {
                        Value::String(v) => assert!(has_fact(p, v), "{k}: {p:#?}"),
                        Value::Number(n) => assert!(has_fact(p, &n.to_string()), "{k}: {p:#?}"),
                        _ => {}
                    }
                }
                let timed = r
                    .as_object()
                    .unwrap()
                    .iter()
                    .filter(|(k, v)| k.ends_with("_time") && v.as_i64().unwrap_or(0) > 0)
                    .count();
                assert_eq!(p.times.len(), timed, "{p:#?}");
            }
        }
    }
    let android = run.all_phenomena("android");
    assert!(
        android
            .iter()
            .any(|p| p.title == "Waze saved place (home): Home")
            && android
                .iter()
                .any(|p| p.title == "Waze saved place (work): Work"),
        "{android:#?}"
    );
    assert!(
        !run.all_phenomena("iphone")
            .iter()
            .any(|p| p.title.contains("not waze"))
    );
}
