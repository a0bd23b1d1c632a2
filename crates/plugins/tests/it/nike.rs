//! Nike Run Club's stores (`android::nike`) on two Android phones, written by
//! `tests/fixtures/nike/nike.py` (Python's sqlite3, the tables and columns ALEAPP's
//! NikeActivities, NikeAMoments, NikePolyline and NikeNotifications read). The generator's record
//! is the oracle: every activity with its tags, summary, moment counts and times; each route as
//! one phenomenon — its point count and first and last position, decoded from the encoded
//! polyline in the query — never one per point; the inbox's notifications; an older store on
//! phone B read; an empty `-wal` beside the store not taken for one; a truncated copy and a store
//! of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn nike_run_club_activities_routes_and_notifications_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/nike/nike.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Vienna", Some("AT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let acts = o["activities"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Nike Run Club activity "))
            .count();
        assert_eq!(found, acts.len());
        for act in acts {
            let id = act["as2_sa_id"].to_string();
            let p = titled(&all, &format!("Nike Run Club activity {id}"));
            assert_eq!(p.category, "health");
            let times = time_values(p);
            for k in ["as2_sa_start_utc_ms", "as2_sa_end_utc_ms"] {
                assert!(times.contains(&act[k].to_string()), "{k}: {p:#?}");
            }
            for v in act["tags"].as_object().unwrap().values() {
                assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
            }
            for v in act["summary"].as_array().unwrap() {
                assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
            }
            if let Some(n) = act["moments"].as_i64() {
                assert!(has_fact(p, &n.to_string()), "moments: {p:#?}");
            }
        }
        // one phenomenon per route, its ends and point count decoded in the query
        let routes = o["routes"].as_object().unwrap();
        let located: Vec<_> = all
            .iter()
            .filter(|p| p.category == "locations" && p.title.starts_with("Nike Run Club"))
            .collect();
        assert_eq!(located.len(), routes.len(), "{located:#?}");
        for (id, r) in routes {
            let p = titled(&all, &format!("Nike Run Club route of activity {id}"));
            assert!(has_fact(p, &r["points"].to_string()), "{p:#?}");
            for end in ["first", "last"] {
                for v in r[end].as_array().unwrap() {
                    assert!(has_fact(p, v.as_str().unwrap()), "{end} {v}: {p:#?}");
                }
            }
            assert!(!time_values(p).is_empty(), "{p:#?}");
        }
        assert!(
            !run.unparsed(source)
                .iter()
                .any(|u| u.artefact.ends_with("-wal")),
            "{:#?}",
            run.unparsed(source)
        );
    }
    // phone A: the run with its pauses and lost GPS signal, the deleted run, the inbox
    let all = run.all_phenomena("a");
    let run1 = titled(&all, "Nike Run Club activity 1");
    assert!(has_fact(run1, "Tiergarten loop") && has_fact(run1, "7.65"));
    let deleted = titled(&all, "Nike Run Club activity 3");
    assert!(has_fact(deleted, "1"), "{deleted:#?}");
    for n in o["a"]["notifications"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "Nike Run Club notification: {}",
                n["message"].as_str().unwrap()
            ),
        );
        assert_eq!(p.category, "notifications");
        assert!(time_values(p).contains(&n["notification_timestamp"].to_string()));
    }
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.nike.plusgps/databases/com.nike.nrc.room.database",
                "malformed",
            ),
            (
                "user/11/com.nike.plusgps/databases/com.nike.nrc.room.database",
                "activity",
            ),
        ],
    );
}
