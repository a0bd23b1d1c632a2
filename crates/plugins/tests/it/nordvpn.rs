//! NordVPN's stores (`android::nordvpn`) on two Android phones, written by
//! `tests/fixtures/nordvpn/nordvpn.py` (Python's sqlite3 and json, the tables, columns, keys and
//! JSON members ALEAPP's nordVpn reads). The generator's record is the oracle: the recorded state
//! with its server, address, ISP and times (its `.meta` key not taken for the value); every
//! queued event with its name, time, local time, ISP, ASN and on-VPN flag, one that is not JSON
//! kept as stored; every settings row; phone B's older layout read; a truncated Moose.db and a
//! Settings.db of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn nordvpn_state_events_and_settings_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/nordvpn/nordvpn.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Warsaw", Some("PL")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        // queued events: one each, with the network they were on
        let events = o["events"].as_array().unwrap();
        for e in events {
            let p = all
                .iter()
                .find(|p| {
                    p.title == format!("NordVPN event {}", s(e, "name").unwrap())
                        && time_values(p) == vec![s(e, "timestamp").unwrap()]
                })
                .unwrap_or_else(|| panic!("{e}: {all:#?}"));
            assert_eq!(p.category, "app_usage");
            for k in [
                "local_time",
                "category",
                "isp",
                "isp_asn",
                "on_vpn",
                "country",
                "fingerprint",
                "body",
            ] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
        }
        let junk = s(o, "junk");
        let queued = all
            .iter()
            .filter(|p| p.title.starts_with("NordVPN event ") || p.title == "NordVPN queued event")
            .count();
        assert_eq!(queued, events.len() + usize::from(junk.is_some()));
        if let Some(j) = junk {
            let p = titled(&all, "NordVPN queued event");
            assert!(has_fact(p, &j) && p.times.is_empty(), "{p:#?}");
        }
        // settings: every row of every table
        for (table, rows) in o["settings"].as_object().unwrap() {
            for r in rows.as_array().unwrap() {
                let p = all
                    .iter()
                    .find(|p| {
                        p.category == "apps"
                            && r.as_object()
                                .unwrap()
                                .iter()
                                .filter(|(k, _)| *k != "id")
                                .all(|(_, v)| has_fact(p, v.as_str().unwrap()))
                    })
                    .unwrap_or_else(|| panic!("{table} {r}: {all:#?}"));
                assert!(p.title.starts_with("NordVPN "), "{p:#?}");
            }
        }
    }
    // phone A: the recorded state, its values unwrapped, its times Unix seconds
    let all = run.all_phenomena("a");
    let st = &o["a"]["state"];
    let p = titled(&all, "NordVPN recorded state (server de1054.nordvpn.com)");
    for (k, v) in st.as_object().unwrap() {
        if k != "times" {
            assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}");
        }
    }
    let times: Vec<String> = st["times"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    assert_eq!(time_values(p), times);
    assert!(
        !p.verified_facts.iter().any(|f| f.value.contains("carrier")),
        "the .meta key is not the value: {p:#?}"
    );
    titled(&all, "NordVPN preferred technology NORDLYNX");
    titled(&all, "NordVPN multi-factor authentication ENABLED");
    // phone B: no shared context, so no state
    assert!(
        !run.all_phenomena("b")
            .iter()
            .any(|p| p.title.starts_with("NordVPN recorded state"))
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.nordvpn.android/databases/Moose.db",
                "malformed",
            ),
            (
                "user/11/com.nordvpn.android/databases/Settings.db",
                "none of the tables",
            ),
        ],
    );
}
