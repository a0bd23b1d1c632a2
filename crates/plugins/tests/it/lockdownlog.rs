//! lockdownd's log (`ios::lockdownlog`): the corpus's real log (plaso's `ios_lockdownd.log`, from
//! a sysdiagnose: a Mac's Finder reading an iPhone) and a log of the lines iLEAPP's
//! `lockdownEvents` reports with two clients' sessions and a rotation. Every key a client asked
//! for and every service it started is found on its session, with the first and last line's
//! times as written (month first, `us_local_text`); the keys the device had no value for are
//! said; iLEAPP's three events are found with their messages; lines that are not lockdownd's are
//! passed over.

use masf_graph::{Phenomenon, TimeEncoding};

use crate::android_support::{has_fact, triage};

fn sessions(all: &[Phenomenon]) -> Vec<&Phenomenon> {
    all.iter()
        .filter(|p| p.title.starts_with("Lockdown client "))
        .collect()
}

#[test]
fn lockdownd_log_real_and_written() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let logs = a.join("private/var/logs");
    std::fs::create_dir_all(&logs).unwrap();
    let real =
        std::fs::read_to_string(masf_testkit::corpus::path("ios/plaso-ios_lockdownd.log")).unwrap();
    std::fs::write(logs.join("lockdownd.log"), &real).unwrap();

    let b = tmp.path().join("b");
    let blogs = b.join("private/var/logs");
    std::fs::create_dir_all(&blogs).unwrap();
    std::fs::write(
        blogs.join("lockdownd.log"),
        "03/02/24 09:15:01.120045 pid=71 main: Starting Up\n\
         03/02/24 09:15:03.000001 pid=71 roll_keys: Detected upgrade from 21C66 to 21D50\n\
         03/02/24 21:40:12.500000 pid=71 password_changed_callback: passcode changed\n\
         not a lockdownd line\n\
         03/02/24 22:00:00.000000 pid=71 handle_get_value: iTunes attempting to get [SerialNumber]\n\
         03/02/24 22:00:00.100000 pid=71 handle_get_value: iTunes attempting to get [PhoneNumber]\n\
         03/02/24 22:00:00.100400 pid=71 set_response_error: handle_get_value MissingValue\n\
         03/02/24 22:00:30.000000 pid=71 handle_start_service: iTunes attempting to spawn com.apple.afc service.\n\
         03/02/24 22:05:00.000000 pid=71 handle_get_value: iTunes attempting to get [UniqueDeviceID]\n\
         13/02/24 22:05:01.000000 pid=71 handle_get_value: iTunes attempting to get [Bogus]\n",
    )
    .unwrap();
    std::fs::write(
        blogs.join("lockdownd.log.1"),
        "02/28/24 08:00:00.000000 pid=64 handle_get_value: Xcode attempting to get [ProductVersion]\n",
    )
    .unwrap();

    let run = triage(&[
        ("a", &a, "America/Los_Angeles", Some("US")),
        ("b", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // The real log: one session of the Mac's Finder, every key and service of its lines.
    let all = run.all_phenomena("a");
    let found = sessions(&all);
    assert_eq!(found.len(), 1, "{found:#?}");
    let s = found[0];
    assert_eq!(s.title, "Lockdown client AMPDevicesAgent (lockdownd log)");
    let mut keys = 0;
    for line in real.lines() {
        for (head, tail) in [
            (" attempting to get [", "]"),
            (" attempting to spawn ", " "),
        ] {
            if let Some((_, rest)) = line.split_once(head) {
                let key = rest.split(tail).next().unwrap();
                assert!(has_fact(s, key), "{key}: {s:#?}");
                keys += 1;
            }
        }
    }
    assert_eq!(keys, 91);
    let times: Vec<&str> = s
        .times
        .iter()
        .map(|t| {
            assert_eq!(t.encoding, TimeEncoding::UsLocalText);
            s.verified_facts[t.fact].value.as_str()
        })
        .collect();
    assert_eq!(
        times,
        ["10/13/21 07:57:42.867018", "10/13/21 07:57:42.994331"]
    );
    assert!(
        s.interpretation.contains("a Mac's Finder")
            && s.interpretation.contains("no value for")
            && s.interpretation
                .contains("com.apple.mobile.installation_proxy"),
        "{}",
        s.interpretation
    );

    // The written logs: iLEAPP's events, two iTunes sessions (a gap over a minute), Xcode's.
    let all = run.all_phenomena("b");
    for (title, message) in [
        ("lockdownd started (lockdownd log)", "main: Starting Up"),
        (
            "Upgrade detected by lockdownd (lockdownd log)",
            "roll_keys: Detected upgrade from 21C66 to 21D50",
        ),
        (
            "Device passcode changed (lockdownd log)",
            "password_changed_callback: passcode changed",
        ),
    ] {
        let p = all
            .iter()
            .find(|p| p.title == title)
            .unwrap_or_else(|| panic!("{title}: {all:#?}"));
        assert!(has_fact(p, message), "{p:#?}");
        assert_eq!(p.times.len(), 1);
    }
    let found = sessions(&all);
    let titles: Vec<&str> = found.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(found.len(), 3, "{titles:?}");
    let first = found.iter().find(|p| has_fact(p, "SerialNumber")).unwrap();
    assert!(has_fact(first, "PhoneNumber") && has_fact(first, "com.apple.afc"));
    assert!(
        !has_fact(first, "UniqueDeviceID"),
        "after a five-minute gap: {first:#?}"
    );
    assert!(
        first.interpretation.contains("no value for PhoneNumber"),
        "{}",
        first.interpretation
    );
    assert!(found.iter().any(|p| has_fact(p, "UniqueDeviceID")));
    assert!(
        found
            .iter()
            .any(|p| p.title == "Lockdown client Xcode (lockdownd log)")
    );
    assert!(
        !all.iter().any(|p| has_fact(p, "Bogus")),
        "a line of month 13 is no line"
    );
}
