//! Uber's rider app (`android::uberandroid`) on two Android phones and a third tree, written by
//! `tests/fixtures/uberandroid/uberandroid.py` (the key-value store files — one header byte then
//! JSON —, the cached location's Protocol Buffers message and the telemetry queue, in the
//! members and columns ALEAPP's uber reads). The generator's record is the oracle: the rider
//! account with every member and its two record times, observed as the owner's (`uber:<uuid>`,
//! e-mail, and the mobile number only where its country is the source's region); every
//! suggested destination with its address, coordinates, categories, trigger position, map cell
//! and time; the target location, the city, each payment profile, the last session, the client
//! status, the cached location (fixed32 floats decoded) and every telemetry message with its
//! device and session details; members not asked for in no output; phone B's older files read;
//! phone C's cut, headerless and foreign files noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn uberandroid_rider_places_and_telemetry_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/uberandroid/uberandroid.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Dublin", Some("IE")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Dublin", Some("IE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    let strs = |v: &serde_json::Value| -> Vec<String> {
        let mut out: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect();
        out.sort();
        out
    };
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        // the rider account, the owner's
        let r = &o["rider"];
        let p = titled(&all, &format!("Uber rider account {}", s(&r["email"])));
        assert_eq!(p.category, "accounts");
        for (k, v) in r.as_object().unwrap() {
            assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}");
        }
        assert_eq!(time_values(p), strs(&o["rider_times"]), "{p:#?}");
        let owner = run.owner(source).to_lowercase();
        assert!(
            owner.contains(&format!("account_id={}", s(&r["qualified"]))),
            "{owner}"
        );
        assert!(
            owner.contains(&format!("email={}", s(&r["email"]))),
            "{owner}"
        );
        match o["phone_e164"].as_str() {
            Some(e) => assert!(owner.contains(&format!("phone={e}")), "{owner}"),
            // national digits of another country than the source's region: no number
            None => assert!(!owner.contains("phone="), "{owner}"),
        }
        // every suggested destination
        let shortcuts = o["shortcuts"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Uber suggested destination "))
            .collect();
        assert_eq!(found.len(), shortcuts.len(), "{found:#?}");
        for sc in shortcuts {
            let p = titled(
                &all,
                &format!("Uber suggested destination {}", s(&sc["title"])),
            );
            assert_eq!(p.category, "locations");
            for k in [
                "cell",
                "title",
                "subtitle",
                "uuid",
                "accelerator",
                "id",
                "addressLine1",
                "addressLine2",
                "fullAddress",
                "lat",
                "lng",
                "provider",
                "locale",
                "trigger_lat",
                "trigger_lng",
            ] {
                if let Some(v) = sc[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            for cat in strs(&sc["categories"]) {
                assert!(has_fact(p, &cat), "{cat}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(&sc["timestamp"])]);
            assert!(
                p.interpretation.contains("not proof"),
                "{}",
                p.interpretation
            );
        }
        // the last session
        let sess = &o["session"];
        let p = titled(&all, &format!("Uber session {}", s(&sess["sessionId"])));
        assert_eq!(time_values(p), vec![s(&sess["start"])]);
        match sess["backgrounded"].as_str() {
            Some(v) => assert!(has_fact(p, v) && p.times.len() == 1, "{p:#?}"),
            None => assert_eq!(p.verified_facts.len(), 3, "{p:#?}"),
        }
        // the cached location, its floats decoded
        let cached = &o["cached"];
        let p = titled(
            &all,
            &format!(
                "Uber cached location {}, {}",
                s(&cached["lat"]),
                s(&cached["lng"])
            ),
        );
        assert_eq!(p.category, "locations");
        assert!(has_fact(p, &s(&cached["field3"])), "{p:#?}");
        let when: Vec<String> = cached["time"]
            .as_str()
            .map(|t| vec![t.to_string()])
            .unwrap_or_default();
        assert_eq!(time_values(p), when);
        // every telemetry message, the session's user the owner's account
        let messages = o["telemetry"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Uber telemetry message "))
            .collect();
        assert_eq!(found.len(), messages.len(), "{found:#?}");
        for m in messages {
            let p = titled(
                &all,
                &format!(
                    "Uber telemetry message {} {}",
                    s(&m["message_type"]),
                    s(&m["message_uuid"])
                ),
            );
            assert_eq!(p.category, "app_usage");
            let mut times = vec![s(&m["createdAt"])];
            for (k, v) in m.as_object().unwrap() {
                match k.as_str() {
                    "createdAt" => {}
                    "createdAtNtp" => times.push(s(v)),
                    _ => assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}"),
                }
            }
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
            assert!(
                owner.contains(&format!("account_id={}", s(&m["user"]))),
                "{owner}"
            );
        }
        // what the reader does not ask for is never printed
        for u in strs(&o["unread"]) {
            for (tool, args, text) in run.outputs(source) {
                assert!(!text.contains(&u), "{u} in {tool} {args}");
            }
        }
    }
    // phone A only: the target location, the city, the payment profiles, the client status
    let o = &o["a"];
    let all = run.all_phenomena("a");
    let t = &o["target"];
    let p = titled(
        &all,
        &format!("Uber target location {}, {}", s(&t["lat"]), s(&t["lng"])),
    );
    assert!(p.times.is_empty(), "the file keeps no time: {p:#?}");
    let city = titled(&all, "Uber city Dublin");
    for (k, v) in o["city"].as_object().unwrap() {
        assert!(has_fact(city, v.as_str().unwrap()), "{k}: {city:#?}");
    }
    assert_eq!(time_values(city), strs(&o["city_times"]));
    for pp in o["payments"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "Uber payment profile {} {}",
                s(&pp["tokenType"]),
                s(&pp["tokenDisplayName"])
            ),
        );
        assert_eq!(p.category, "accounts");
        for (k, v) in pp.as_object().unwrap() {
            if k != "updatedAt" {
                assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}");
            }
        }
        assert_eq!(time_values(p), vec![s(&pp["updatedAt"])]);
    }
    let st = &o["status"];
    let p = titled(&all, &format!("Uber client status {}", s(&st["status"])));
    assert!(
        has_fact(p, &s(&st["statusDescription"])) && has_fact(p, &s(&st["lastRequestJobUUID"]))
    );
    assert_eq!(time_values(p), strs(&st["times"]));
    // phone B has none of these files
    let all_b = run.all_phenomena("b");
    for prefix in [
        "Uber city",
        "Uber payment profile",
        "Uber target location",
        "Uber client status",
    ] {
        assert!(
            !all_b.iter().any(|p| p.title.starts_with(prefix)),
            "{prefix}"
        );
    }
    // phone C: a cut rider record, no JSON in the first 8 bytes, a cut message, a foreign store
    run.assert_noted(
        "c",
        &[
            ("base-key-value-store/realtime-demo_KEY_RIDER", "not JSON"),
            (
                "base-key-value-store/ShortcutsCache_CACHED_SHORTCUTS_MAP_KEY",
                "no JSON object or array",
            ),
            ("CACHED_UBER_LOCATION", "not a Protocol Buffers message"),
            ("com.ubercab/databases/ur_message.db", "message"),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Uber ")),
    );
}
