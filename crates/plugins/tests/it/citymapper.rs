//! Citymapper's database and preferences (`android::citymapper`) on two Android phones, written
//! by `tests/fixtures/citymapper/citymapper.py` (Python's sqlite3, the tables, columns and keys
//! ALEAPP's citymapper reads). The generator's record is the oracle: every place of the
//! location history with its coordinates, role and date; every saved commute with its home and
//! work; the preferences with the last location, IP address and last use; another app's
//! `preferences.xml` not read; phone B's older table (no role, Unix dates) read; a truncated copy
//! and a store of another layout noted; no identity.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn citymapper_places_commutes_and_last_location_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/citymapper/citymapper.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let places = o["places"].as_array().unwrap();
        assert_eq!(count("Citymapper place "), places.len());
        for pl in places {
            let name = s(pl, "name").unwrap();
            let title = match s(pl, "role") {
                Some(role) => format!("Citymapper place {name} ({role})"),
                None => format!("Citymapper place {name}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "locations");
            for k in ["address", "lat", "lng", "id"] {
                assert!(has_fact(p, &s(pl, k).unwrap()), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(pl, "date").unwrap()], "{p:#?}");
        }
        let trips = o["trips"].as_array().unwrap();
        assert_eq!(count("Citymapper saved trip "), trips.len());
        for tr in trips {
            let p = titled(
                &all,
                &format!(
                    "Citymapper saved trip {} ({})",
                    s(tr, "id").unwrap(),
                    s(tr, "commuteType").unwrap()
                ),
            );
            for k in ["homeLat", "homeLng", "workLat", "workLng", "regionCode"] {
                assert!(has_fact(p, &s(tr, k).unwrap()), "{k}: {p:#?}");
            }
            assert!(
                !p.verified_facts.iter().any(|f| f.value.contains("legs")),
                "the route is not read: {p:#?}"
            );
            assert_eq!(time_values(p), vec![s(tr, "created").unwrap()]);
        }
        let prefs = o["prefs"].as_object().unwrap();
        assert_eq!(count("Citymapper preferences "), prefs.len());
        for (file, keys) in prefs {
            let p = titled(&all, &format!("Citymapper preferences {file}"));
            let keys = keys.as_object().unwrap();
            for (k, v) in keys {
                let v = v.as_str().unwrap();
                if ["LastUsedDate", "onboarding_terms_accepted_date"].contains(&k.as_str()) {
                    assert!(time_values(p).contains(&v.to_string()), "{k}: {p:#?}");
                } else if k != "show_tips" {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert_eq!(
                p.category,
                if keys.contains_key("LAST_LOCATION") {
                    "locations"
                } else {
                    "app_usage"
                }
            );
        }
        // homes and workplaces are places, not identities
        for pl in places {
            let address = s(pl, "address").unwrap();
            assert!(
                !run.entities(source).iter().any(|e| e.contains(&address)),
                "{address}: {:#?}",
                run.entities(source)
            );
        }
    }
    // phone A: the last location's parts (another app's preferences.xml is not counted above)
    let all = run.all_phenomena("a");
    let p = titled(&all, "Citymapper preferences preferences.xml");
    assert!(has_fact(p, "51.5312") && has_fact(p, "-0.0934"), "{p:#?}");
    assert!(
        !p.verified_facts.iter().any(|f| f.value == "10.0.0.9"),
        "{p:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.citymapper.app.release/databases/citymapper.db",
                "malformed",
            ),
            (
                "user/11/com.citymapper.app.release/databases/citymapper.db",
                "none of the tables",
            ),
        ],
    );
}
