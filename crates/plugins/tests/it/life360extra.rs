//! Life360's circle settings, no-show alerts and pet profiles (`android::life360extra`) on two
//! Android phones and a third tree, written by `tests/fixtures/life360extra/life360extra.py`
//! (Python's sqlite3, the tables and columns ALEAPP's L360circlesettings, L360noshowalerts and
//! L360petprofile read). The generator's record is the oracle: every circle's plan and
//! features, every alert (ids, place, circle, both members in their `life360:` form, last
//! updated and due times), every pet (names, breed, weight, birth date computed, tracker, times);
//! phone B's older layout read with what it has; truncated copies, copies of another layout and a
//! `Premium` table without its column noted; another app's file of the name neither read nor
//! noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn life360_circle_settings_no_show_alerts_and_pets_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/life360extra/life360extra.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/Chicago", Some("US")),
        ("b", &b, "America/Chicago", Some("US")),
        ("c", &c, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let want = &o[source];
        let all = run.all_phenomena(source);

        // circles: one per member of circleFeatureSetInfo, every feature kept
        let circles = want["circles"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Life360 circle ") && p.title.contains(" features ("))
            .count();
        assert_eq!(found, circles.len(), "{source}");
        for ci in circles {
            let p = titled(
                &all,
                &format!(
                    "Life360 circle {} features ({})",
                    s(ci, "circle_id").unwrap(),
                    s(ci, "plan").unwrap()
                ),
            );
            assert_eq!(p.category, "accounts");
            for (k, v) in ci.as_object().unwrap() {
                if let Some(v) = v.as_str() {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
        }

        // no-show alerts: every field, both members qualified, both times
        let alerts = want["alerts"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Life360 no-show alert "))
            .count();
        assert_eq!(found, alerts.len(), "{source}");
        for al in alerts {
            let p = titled(
                &all,
                &format!(
                    "Life360 no-show alert {} for member {}",
                    s(al, "id").unwrap(),
                    s(al, "observed_user_id").unwrap()
                ),
            );
            assert_eq!(p.category, "locations");
            for k in [
                "id",
                "type",
                "trigger_condition",
                "critical_alert",
                "daily",
                "place_id",
                "circle_id",
                "observed_user_id",
                "creator_id",
                "observed_user_id_q",
                "creator_id_q",
            ] {
                if let Some(v) = s(al, k) {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            let mut times = vec![
                s(al, "last_updated").unwrap().to_string(),
                s(al, "run_at").unwrap().to_string(),
            ];
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
            // the members are the circle's `life360:` persons, not the device's user
            let q = s(al, "observed_user_id_q").unwrap();
            assert!(
                run.entities(source).iter().any(|e| e.starts_with(q)),
                "{q}: {:#?}",
                run.entities(source)
            );
            assert!(!run.owner(source).contains(q), "{}", run.owner(source));
        }

        // pets: every field, the birth date computed, both times
        let pets = want["pets"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Life360 pet "))
            .count();
        assert_eq!(found, pets.len(), "{source}");
        for pet in pets {
            let p = titled(&all, &format!("Life360 pet {}", s(pet, "name").unwrap()));
            assert_eq!(p.category, "contacts");
            for k in [
                "id",
                "name",
                "type",
                "petType",
                "breed",
                "color",
                "weightInKg",
                "gender",
                "birthdate",
                "birth_date",
                "trackerId",
                "primaryCircleId",
                "avatarBaseUrl",
            ] {
                if let Some(v) = s(pet, k) {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            let mut times = vec![
                s(pet, "createdAt").unwrap().to_string(),
                s(pet, "lastUpdated").unwrap().to_string(),
            ];
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }

        // the places store is super::life360's: no note of it on the phones
        assert!(
            !run.unparsed(source)
                .iter()
                .any(|u| u.artefact.contains("com.life360.android.safetymapd")),
            "{:#?}",
            run.unparsed(source)
        );
    }
    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "Life360 circle settings, no-show alerts and pets")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }
    let noted: Vec<(String, String)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n[0].as_str().unwrap().to_string(),
                n[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let pairs: Vec<(&str, &str)> = noted
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    run.assert_noted("c", &pairs);
    let all_c = run.all_phenomena("c");
    assert!(
        !all_c.iter().any(|p| p.title.starts_with("Life360 ")),
        "{:#?}",
        run.phenomena("c")
    );
    // another app's file of the name: neither read nor noted
    let foreign = o["c"]["foreign"].as_str().unwrap();
    assert!(
        !all_c
            .iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with(foreign))),
        "{:#?}",
        run.phenomena("c")
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.ends_with(foreign)),
        "{:#?}",
        run.unparsed("c")
    );
    assert!(
        !run.outputs("c")
            .iter()
            .any(|(tool, args, _)| tool == "sqlite_query" && args.contains(foreign)),
    );
}
