//! Withings Health Mate's stores (`android::withings`) on two Android phones, written by
//! `tests/fixtures/withings/withings.py` (Python's sqlite3, the tables ALEAPP's
//! WithingsHealthMate reads, with the column names of the app's own schema). The generator's
//! record is the oracle: the account holder (the one user with an e-mail) as the owner — e-mail,
//! `withings:` id, name — and the other users and leaderboard entries as `withings:` persons;
//! each device as `bluetooth:<address>` (an address stored without colons given them in the
//! query), the same scale on both phones under the same `bluetooth:` context; measurements with
//! their measures; the days' activity; tracked activities with the GPS points recorded during
//! them; the GPS points per day, never one phenomenon per point; the older devices layout on
//! phone B read; no `klSecret` in any output; a truncated copy and a store of another layout
//! noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn withings_account_devices_measurements_and_tracks_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/withings/withings.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Paris", Some("FR")),
        ("b", &b, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let secrets: Vec<&str> = o["secrets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let entities = run.entities(source);
        // the account holder is the owner, the other people are persons
        let owner = run.owner(source);
        let me = &o["owner"];
        assert!(
            owner.contains(&format!("email={}", me["email"].as_str().unwrap())),
            "{owner}"
        );
        assert!(owner.contains(me["id"].as_str().unwrap()), "{owner}");
        titled(
            &all,
            &format!("Withings user {}", me["name"].as_str().unwrap()),
        );
        for p in o["persons"].as_array().unwrap() {
            let id = p["id"].as_str().unwrap();
            let name = p["name"].as_str().unwrap();
            assert!(!owner.contains(id), "{id}: {owner}");
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("{id} [Person] {name}"))),
                "{entities:#?}"
            );
        }
        // each device by its Bluetooth address
        for d in o["devices"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Withings device {}", d["name"].as_str().unwrap()),
            );
            assert_eq!(p.category, "device");
            assert!(has_fact(p, d["mac"].as_str().unwrap()), "{p:#?}");
            assert!(has_fact(p, d["bt"].as_str().unwrap()), "{p:#?}");
            let device = format!("bluetooth:{} [Device]", d["entity"].as_str().unwrap());
            assert!(
                entities.iter().any(|e| e.starts_with(&device)),
                "{device}: {entities:#?}"
            );
            let times = time_values(p);
            for t in d["times"].as_array().unwrap() {
                assert!(times.contains(&t.to_string()), "{t}: {p:#?}");
            }
        }
        for m in o["measurements"].as_array().unwrap() {
            let p = titled(&all, &format!("Withings measurement {}", m["id"]));
            assert!(has_fact(p, m["measures"].as_str().unwrap()), "{p:#?}");
            assert!(time_values(p).contains(&m["date"].to_string()), "{p:#?}");
        }
        for d in o["days"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Withings activity of {}", d["day"].as_str().unwrap()),
            );
            assert!(has_fact(p, &d["steps"].to_string()), "{p:#?}");
            assert!(
                time_values(p).contains(&d["midnight"].to_string()),
                "{p:#?}"
            );
        }
        for t in o["tracks"].as_array().unwrap() {
            let p = titled(&all, &format!("Withings track {}", t["id"]));
            assert!(has_fact(p, &t["gps_points"].to_string()), "{p:#?}");
            for end in ["first", "last"] {
                if let Some(vs) = t[end].as_array() {
                    for v in vs {
                        assert!(has_fact(p, v.as_str().unwrap()), "{end} {v}: {p:#?}");
                    }
                }
            }
            assert!(time_values(p).contains(&t["start"].to_string()), "{p:#?}");
        }
        let gps_days = o["gps_days"].as_object().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Withings GPS points of "))
            .count();
        assert_eq!(
            found,
            gps_days.len(),
            "one phenomenon per day, none per point"
        );
        for (day, g) in gps_days {
            let p = titled(&all, &format!("Withings GPS points of {day}"));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, &g["points"].to_string()), "{p:#?}");
            for end in ["first", "last"] {
                for v in g[end].as_array().unwrap() {
                    assert!(has_fact(p, v.as_str().unwrap()), "{end} {v}: {p:#?}");
                }
            }
            let times = time_values(p);
            for k in ["first_time", "last_time"] {
                assert!(times.contains(&g[k].to_string()), "{k}: {p:#?}");
            }
        }
        for title in o["leaderboard"].as_array().unwrap() {
            let p = titled(&all, title.as_str().unwrap());
            assert_eq!(p.category, "contacts");
        }
        // the devices' keys are never read
        for (tool, args, text) in run.outputs(source) {
            for s in &secrets {
                assert!(!text.contains(s), "{s} in {tool} {args}");
            }
        }
    }
    // phone A: where the scale was set up
    let all = run.all_phenomena("a");
    let scale = titled(&all, "Withings device Body+");
    assert!(has_fact(scale, "48.856613") && has_fact(scale, "75004 Paris"));
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.withings.wiscale2/databases/Withings-WiScale",
                "malformed",
            ),
            (
                "user/11/com.withings.wiscale2/databases/Withings-WiScale",
                "users",
            ),
        ],
    );
}
