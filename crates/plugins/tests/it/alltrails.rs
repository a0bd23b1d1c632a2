//! AllTrails' store (`android::alltrails`) on two Android phones, written by
//! `tests/fixtures/alltrails/alltrails.py` (Python's sqlite3, the tables and columns ALEAPP's
//! allTrails reads). The generator's record is the oracle: the account held on the phone (its
//! e-mail, `alltrails:` id, user name and name the owner's — the user the recorded maps belong to
//! on phone A, the only user on phone B) and another cached user as an `alltrails:` person; the
//! maps with their line statistics; each track summarised once (points, first and last position
//! and time), never one phenomenon per point; photos with their places; lists; an older store on
//! phone B read; a truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn alltrails_account_maps_tracks_photos_and_lists_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/alltrails/alltrails.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Zagreb", Some("HR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let owner = run.owner(source);
        let entities = run.entities(source);
        for u in o["users"].as_array().unwrap() {
            let user = u["user_name"].as_str().unwrap();
            let p = titled(&all, &format!("AllTrails user {user}"));
            assert_eq!(p.category, "accounts");
            let id = format!("alltrails:{}", u["remote_id"]);
            if u["owner"].as_bool().unwrap() {
                assert!(owner.contains(&id), "{id}: {owner}");
                assert!(owner.contains(&format!("nickname={user}")), "{owner}");
                if let Some(email) = u["email"].as_str() {
                    assert!(owner.contains(&format!("email={email}")), "{owner}");
                }
            } else {
                assert!(!owner.contains(&id), "{id}: {owner}");
                assert!(
                    entities
                        .iter()
                        .any(|e| e.starts_with(&format!("{id} [Person] {user}"))),
                    "{entities:#?}"
                );
            }
        }
        for m in o["maps"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("AllTrails map {}", m["name"].as_str().unwrap()),
            );
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, m["created_at"].as_str().unwrap()), "{p:#?}");
        }
        let tracks = o["tracks"].as_object().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("AllTrails track "))
            .count();
        assert_eq!(
            found,
            tracks.len(),
            "one phenomenon per track, none per point"
        );
        for (id, t) in tracks {
            let p = titled(&all, &format!("AllTrails track {id}"));
            assert!(has_fact(p, &t["points"].to_string()), "{p:#?}");
            for end in ["first", "last"] {
                for v in t[end].as_array().unwrap() {
                    assert!(has_fact(p, v.as_str().unwrap()), "{end} {v}: {p:#?}");
                }
            }
            let times = time_values(p);
            for k in ["first_time", "last_time"] {
                assert!(times.contains(&t[k].to_string()), "{k}: {p:#?}");
            }
        }
        for title in o["photos"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("AllTrails photo {}", title.as_str().unwrap()),
            );
            assert_eq!(p.category, "media");
        }
        for name in o["lists"].as_array().unwrap() {
            titled(&all, &format!("AllTrails list {}", name.as_str().unwrap()));
        }
    }
    // phone A: the recorded hike's statistics and times, the owner's place, the photo's place
    let all = run.all_phenomena("a");
    let hike = titled(&all, "AllTrails map Partnachklamm loop");
    let stats = &o["a"]["stats"][0];
    assert!(
        has_fact(hike, "11482.25") && has_fact(hike, "katrin.hikes"),
        "{hike:#?}"
    );
    let times = time_values(hike);
    for k in ["time_start", "time_end"] {
        assert!(times.contains(&stats[k].to_string()), "{k}: {hike:#?}");
    }
    assert!(
        times.contains(&"2024-06-01T07:58:10Z".to_string()),
        "{hike:#?}"
    );
    let account = titled(&all, "AllTrails user katrin.hikes");
    assert!(has_fact(account, "Garmisch-Partenkirchen") && has_fact(account, "82467"));
    let photo = titled(&all, "AllTrails photo Gorge entrance");
    assert!(
        has_fact(photo, "47.4211") && has_fact(photo, "Grainau"),
        "{photo:#?}"
    );
    // phone B: created_at in Unix milliseconds is a time
    let all = run.all_phenomena("b");
    let map = titled(&all, "AllTrails map Sljeme morning");
    assert!(
        time_values(map).contains(&"1719817000000".to_string()),
        "{map:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.alltrails.alltrails/databases/alltrails",
                "malformed",
            ),
            (
                "user/11/com.alltrails.alltrails/databases/alltrails",
                "users",
            ),
        ],
    );
}
