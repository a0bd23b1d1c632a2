//! Proton VPN's files (`android::protonvpn`) on two Android phones, written by
//! `tests/fixtures/protonvpn/protonvpn.py` (the preferences and log lines ALEAPP's protonVPN
//! reads, the log as the app's FileLogWriter writes it). The generator's record is the oracle:
//! the last known network with its public address, ISP, country and times; every connection event
//! of `Data.log` and the rotated `Data1.log` (requested, connecting to a server with its entry
//! IP, connected, disconnection, server switch, the older "Connecting to:" wording) with the
//! line's time, and no other line; phone B's upper-case event names read; a malformed copy of the
//! preferences noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn protonvpn_network_and_connection_log_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/protonvpn/protonvpn.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "Europe/Stockholm", Some("SE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        // the last known network
        let prefs = o["prefs"].as_object().unwrap();
        let ip = prefs["ipAddress"].as_str().unwrap();
        let p = titled(&all, &format!("ProtonVPN last known network {ip}"));
        assert_eq!(p.category, "device");
        for k in [
            "lastKnownIsp",
            "lastKnownCountry",
            "lastNetzoneForLogicals",
            "vpnServerCount",
        ] {
            if let Some(v) = prefs.get(k) {
                assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}");
            }
        }
        let mut times: Vec<String> = [
            "ipAddressCheckTimestamp",
            "lastFullUpdateTimestamp",
            "serverListLastModified",
        ]
        .iter()
        .filter_map(|k| prefs.get(*k).and_then(|v| v.as_str()).map(str::to_string))
        .collect();
        times.sort();
        assert_eq!(time_values(p), times);
        // every connection event, and only those
        let events = o["events"].as_array().unwrap();
        let logged: Vec<_> = all
            .iter()
            .filter(|p| p.category == "app_usage" && p.title.starts_with("ProtonVPN "))
            .collect();
        assert_eq!(logged.len(), events.len(), "{logged:#?}");
        for e in events {
            let at = e["time"].as_str().unwrap();
            let title = e["title"].as_str().unwrap();
            let p = logged
                .iter()
                .find(|p| p.title == title && time_values(p) == vec![at.to_string()])
                .unwrap_or_else(|| panic!("{e}: {logged:#?}"));
            assert!(has_fact(p, e["tag"].as_str().unwrap()), "{p:#?}");
            let message = e["message"].as_str().unwrap();
            if !message.is_empty() {
                assert!(has_fact(p, message), "{p:#?}");
            }
            for k in ["host", "ip"] {
                if let Some(v) = e[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
        }
    }
    // phone A: both log files read, the older wording among them
    let all = run.all_phenomena("a");
    let old = titled(&all, "ProtonVPN connecting to node-nl-12.protonvpn.net");
    assert!(has_fact(old, "Connecting to: node-nl-12.protonvpn.net"));
    assert!(
        old.verified_facts
            .iter()
            .any(|f| f.value.ends_with("/log/Data1.log")),
        "{old:#?}"
    );
    run.assert_noted(
        "b",
        &[(
            "user/10/ch.protonvpn.android/shared_prefs/ServerListUpdater.xml",
            "malformed",
        )],
    );
}
