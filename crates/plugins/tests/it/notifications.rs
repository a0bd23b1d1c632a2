//! Delivered notifications (`ios::notifications`): two iPhones' `UserNotifications`, keyed
//! archives written by `tests/fixtures/notifications/notifications.py`
//! (tests/fixtures/keyedarchive.py over plistlib; no public copy is in the corpus). Phone A keeps
//! its apps' folders by UUID with `Library.plist` naming them (iOS 15 on), phone B by bundle id.
//! The generator's record is the oracle: every notification is found under its app's bundle id
//! with each text value, its delivery time, its attachments; values at their default are left
//! out and one that is not is said; an inline thumbnail is said by its size, never copied; an app
//! whose notifications were cleared gives nothing, and a truncated plist is noted while the rest
//! is read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn notifications_on_two_iphones_by_uuid_and_by_bundle() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/notifications/notifications.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.category == "notifications")
            .collect();
        let expected = o[source]["notifications"].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{source}: {found:#?}");
        for n in expected {
            let bundle = n["bundle"].as_str().unwrap();
            let texts = n["texts"].as_object().unwrap();
            let title = texts
                .get("title")
                .or(texts.get("message"))
                .and_then(|v| v.as_str())
                .unwrap();
            let p = found
                .iter()
                .find(|p| p.title == format!("Notification of {bundle}: {title}"))
                .unwrap_or_else(|| panic!("{source} {bundle} {title}: {found:#?}"));
            assert!(has_fact(p, bundle), "{p:#?}");
            for (k, v) in texts {
                assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}");
            }
            for a in n["attachments"].as_array().unwrap() {
                assert!(has_fact(p, a.as_str().unwrap()), "{a}: {p:#?}");
            }
            assert_eq!(p.times.len(), 1, "{p:#?}");
            assert!(
                p.interpretation.contains(n["time"].as_str().unwrap()),
                "{}",
                p.interpretation
            );
        }
    }
    let a = run.all_phenomena("a");
    let by = |t: &str| {
        a.iter()
            .find(|p| p.title.starts_with(t))
            .unwrap_or_else(|| panic!("{t}"))
    };
    // the folder's UUID is named by Library.plist: no title carries a UUID (iLEAPP's module, run
    // on this fixture, shows the UUIDs: it looks for Library.plist in `UserNotificationsServer/`,
    // where neither public device's file list has it; every other field is the same)
    assert!(
        !a.iter()
            .any(|p| p.category == "notifications" && p.title.contains("-43C7-")),
        "{a:#?}"
    );
    let mail = by("Notification of com.apple.mobilemail");
    assert!(
        mail.interpretation.contains("ShouldPresentAlert false")
            && !mail.interpretation.contains("BadgeApplicationIcon")
            && !mail.interpretation.contains("SoundShouldRepeat"),
        "{}",
        mail.interpretation
    );
    let photos = by("Notification of com.apple.mobileslideshow");
    assert!(
        photos
            .interpretation
            .contains("UNNotificationUserInfo.thumbnail.<600 bytes of data>")
            && photos.interpretation.contains("memoryId M-77"),
        "{}",
        photos.interpretation
    );
    assert!(
        !photos
            .verified_facts
            .iter()
            .any(|f| f.value.contains("ffd8ffe0")),
        "{photos:#?}"
    );
    let sms = by("Notification of com.apple.MobileSMS: Lena");
    assert!(
        sms.interpretation.contains("sender Lena Meier")
            && sms
                .interpretation
                .contains("IMG_0042.jpeg (stored as file:///"),
        "{}",
        sms.interpretation
    );
    let notes = run.unparsed("a");
    assert!(
        notes.iter().any(|u| u
            .artefact
            .ends_with("12426B31-F77D-4D1E-BA93-F0C41029EFB7/DeliveredNotifications.plist")),
        "{notes:#?}"
    );
    assert!(
        !notes.iter().any(|u| u.artefact.contains("6C183F92")),
        "{notes:#?}"
    );
}
