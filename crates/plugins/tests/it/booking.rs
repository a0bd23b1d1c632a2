//! Booking.com's stores (`android::booking`) on two Android phones and a third tree, written by
//! `tests/fixtures/booking/booking.py` (Python's sqlite3 and plain XML: Apollo's `records`
//! caches, `notifications.db`, the profile and search preferences ALEAPP's booking reads). The
//! generator's record is the oracle: every reservation with its property, address, hours,
//! statuses and check-in/out (Unix s); every room once (one cached twice under a second key);
//! the cached profile and the preference files with the owner's e-mail, phone and
//! `booking:<user id>`; the stored search; the notifications; phone B's Apollo 2 table with
//! inline objects and fewer records read; a foreign cache and a malformed preference file noted;
//! and no PIN code, card number or token in any output of the run.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn booking_reservations_rooms_and_account_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/booking/booking.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Amsterdam", Some("NL")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let want = &o[source];
        let all = run.all_phenomena(source);

        // reservations: every field, both check-in and check-out
        let res = want["reservations"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Booking.com reservation "))
            .count();
        assert_eq!(found, res.len(), "{source}");
        for r in res {
            let number = s(r, "number").unwrap();
            let p = titled(
                &all,
                &format!(
                    "Booking.com reservation {number} at {}",
                    s(r, "name").unwrap()
                ),
            );
            assert_eq!(p.category, "transactions");
            for k in [
                "number",
                "status",
                "confirmed",
                "cancelled",
                "purpose",
                "address",
                "city",
                "zip",
                "country",
                "cc",
                "tz",
                "phone",
                "email",
                "url",
                "hotel_id",
                "type",
                "formatted",
                "pay",
            ] {
                if let Some(v) = s(r, k) {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            let hours_in = format!(
                "{} - {}",
                s(r, "in_from").unwrap(),
                s(r, "in_until").unwrap()
            );
            assert!(has_fact(p, &hours_in), "{hours_in}: {p:#?}");
            let mut times = vec![
                s(r, "in").unwrap().to_string(),
                s(r, "out").unwrap().to_string(),
            ];
            times.sort();
            assert_eq!(time_values(p), times);
        }
        // phone B's cache keeps no hotelPageProperty nor payment: those facts are absent
        if source == "b" {
            let p = all
                .iter()
                .find(|p| p.title.starts_with("Booking.com reservation "))
                .unwrap();
            assert!(
                !p.verified_facts.iter().any(|f| f.value.contains(", ")),
                "{p:#?}"
            );
        }

        // rooms: once each (the room cached twice on phone A is one phenomenon)
        let rooms = want["rooms"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Booking.com room "))
            .collect();
        assert_eq!(found.len(), rooms.len(), "{found:#?}");
        for r in rooms {
            let p = titled(
                &all,
                &format!(
                    "Booking.com room {} of reservation {}",
                    s(r, "rrid").unwrap(),
                    s(r, "booking").unwrap()
                ),
            );
            for k in [
                "index",
                "room_id",
                "room_name",
                "room_type",
                "guests",
                "max",
                "max_children",
                "smoking",
                "ctype",
                "ctrans",
                "bucket",
                "cdesc",
            ] {
                let v = s(r, k).unwrap();
                assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
            }
        }

        // the cached profile: names, e-mail, phone where kept; the owner's
        let pr = &want["profile"];
        let email = s(pr, "email").unwrap();
        let p = titled(&all, &format!("Booking.com profile {email}"));
        assert_eq!(p.category, "accounts");
        for k in [
            "first", "last", "display", "gender", "citizen", "phone", "street", "city", "postcode",
            "genius",
        ] {
            if let Some(v) = s(pr, k) {
                assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
            }
        }
        let owner = run.owner(source);
        assert!(owner.contains(email), "{owner}");
        assert!(
            owner.contains(&format!("booking:{}", s(want, "uid").unwrap())),
            "{owner}"
        );
        if let Some(phone) = s(pr, "phone") {
            assert!(owner.contains(phone.trim_start_matches('+')), "{owner}");
        }

        // the preference files: one account per file
        let acc = titled(
            &all,
            &format!("Booking.com account {email} (mybooking.xml)"),
        );
        assert!(has_fact(acc, s(want, "uid").unwrap()), "{acc:#?}");
        if let Some(prefs) = want.get("prefs").and_then(|p| p.as_object()) {
            for (k, v) in prefs {
                assert!(has_fact(acc, v.as_str().unwrap()), "{k}: {acc:#?}");
            }
        }
        assert_eq!(
            all.iter()
                .any(|p| p.title == format!("Booking.com account {email} (remote_profile.xml)")),
            want["remote_profile"].as_bool().unwrap()
        );

        // the stored search, under both keys
        if let Some(q) = want.get("query").filter(|q| !q.is_null()) {
            let place = q["location"]["name"].as_str().unwrap();
            for key in ["specific_query", "general_query"] {
                let p = titled(&all, &format!("Booking.com search {place} ({key})"));
                assert_eq!(p.category, "web");
                for v in [
                    q["arrival_date"].as_str().unwrap(),
                    q["departure_date"].as_str().unwrap(),
                    q["location"]["id"].as_str().unwrap(),
                    q["location"]["country_code"].as_str().unwrap(),
                ] {
                    assert!(has_fact(p, v), "{v}: {p:#?}");
                }
            }
        } else {
            assert!(
                !all.iter()
                    .any(|p| p.title.starts_with("Booking.com search "))
            );
        }

        // notifications, phone B's table without the click and sync columns
        for n in want["notifications"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Booking.com notification {}", n[4].as_str().unwrap()),
            );
            assert_eq!(p.category, "notifications");
            assert!(has_fact(p, n[5].as_str().unwrap()), "{p:#?}");
            assert!(has_fact(p, n[2].as_str().unwrap()), "{p:#?}");
            assert_eq!(time_values(p), vec![n[1].as_str().unwrap().to_string()]);
        }

        // never a PIN code, card number or token, in a phenomenon or in any output logged
        let secrets: Vec<&str> = want["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            for x in &secrets {
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
        }
        for p in &all {
            for x in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{x}: {p:#?}"
                );
            }
        }
    }
    run.assert_noted(
        "c",
        &[
            ("post_booking_reservation_cache", "records"),
            ("mybooking.xml", "malformed"),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Booking.com")),
    );
}
