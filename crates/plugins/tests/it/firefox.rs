//! Firefox-family browsing data (`plugins::firefox`) on two kinds of evidence: an Android data
//! tree (Firefox for Android's `org.mozilla.firefox/files/places.sqlite`) and a folder holding a
//! Windows Firefox profile. The databases are built at test time by the sqlite3 CLI from
//! Firefox's own schema (`tests/fixtures/firefox/places.sql`, `formhistory.sql`); every visit
//! is checked against the sqlite3 CLI's reading of it. Beside them, a `places.sqlite` of
//! another program (no `moz_historyvisits`) and a form-history file without its table: each
//! noted, naming what it lacks.

use std::path::Path;
use std::process::Command;

use masf_graph::Phenomenon;

use crate::android_support::{Run, triage};
use crate::browsers::sqlite3;

fn build(to: &Path, fixture: &str) {
    crate::android_support::sqlite_fixture(to, &format!("firefox/{fixture}"), "SELECT 1;");
}

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn check(run: &Run, source: &str, places: &Path, browser: &str) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let find = |title: &str| -> &Phenomenon {
        all.iter().find(|p| p.title == title).unwrap_or_else(|| {
            panic!(
                "{title}: {:#?}",
                all.iter().map(|p| &p.title).collect::<Vec<_>>()
            )
        })
    };
    // every visit as the sqlite3 CLI reads it
    for row in sqlite3(
        places,
        "SELECT v.id, p.url, v.visit_date, v.visit_type FROM moz_historyvisits v JOIN moz_places p ON p.id = v.place_id",
    ) {
        let p = find(&format!("{browser} visit {} to {}", row[0], row[1]));
        assert!(has(p, &row[1]) && has(p, &row[2]), "{p:#?}");
        assert_eq!(p.times.len(), 1);
        assert_eq!(p.times[0].encoding, masf_graph::TimeEncoding::UnixMicros);
    }
    let typed = find(&format!(
        "{browser} visit 1 to https://www.binance.com/en/my/wallet/account/main"
    ));
    assert!(typed.interpretation.contains("(typed, visit_type 2)"));
    assert!(
        typed
            .interpretation
            .contains("its address typed by the user")
    );
    let linked = find(&format!(
        "{browser} visit 3 to https://etherscan.io/address/0x8ba1f109551bd432803012645ac136ddd64dba72"
    ));
    assert!(has(
        linked,
        "https://www.binance.com/en/my/wallet/account/main"
    ));
    let bookmark = find(&format!("{browser} bookmark OTC wallet on Etherscan"));
    for v in [
        "toolbar",
        "qWeRtYuIoPaS",
        "1714637500000000",
        "1714637600000000",
    ] {
        assert!(has(bookmark, v), "{v}");
    }
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with(&format!("{browser} bookmark ")))
            .count(),
        1,
        "folders are not bookmarks"
    );
    let download = find(&format!(
        "{browser} download file:///C:/Users/leung/Downloads/otc-agreement.pdf"
    ));
    for v in [
        "https://download.example.org/otc-agreement.pdf",
        "1714638002500",
        "48213",
    ] {
        assert!(has(download, v), "{v}");
    }
    assert!(download.interpretation.contains("finished, 48213 bytes"));
    let email = find(&format!("{browser} form value for email"));
    assert!(has(email, "yl.leung@example.com") && has(email, "1714636700000000"));
    find(&format!("{browser} form value for searchbar-history"));
}

#[test]
fn firefox_for_android_and_a_windows_profile() {
    let tmp = tempfile::tempdir().unwrap();
    let android = tmp.path().join("android");
    let fenix = android.join("data/data/org.mozilla.firefox/files");
    build(&fenix.join("places.sqlite"), "places.sql");
    build(&fenix.join("formhistory.sqlite"), "formhistory.sql");
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(android.join("data/user/0/com.android.providers.telephony")).unwrap();
    let windows = tmp.path().join("windows");
    let profile = windows
        .join("Users/leung/AppData/Roaming/Mozilla/Firefox/Profiles/k3x9v2q1.default-release");
    build(&profile.join("places.sqlite"), "places.sql");
    build(&profile.join("formhistory.sqlite"), "formhistory.sql");
    // another program's places.sqlite, and a form-history file without its table
    let other = windows.join("Users/leung/AppData/Roaming/OtherApp");
    std::fs::create_dir_all(&other).unwrap();
    let out = Command::new("sqlite3")
        .arg(other.join("places.sqlite"))
        .arg("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places VALUES (1, 'x');")
        .status()
        .unwrap();
    assert!(out.success());
    let out = Command::new("sqlite3")
        .arg(other.join("formhistory.sqlite"))
        .arg("CREATE TABLE t (a); INSERT INTO t VALUES (1);")
        .status()
        .unwrap();
    assert!(out.success());

    let run = triage(&[
        ("android", &android, "Asia/Hong_Kong", None),
        ("windows", &windows, "Asia/Hong_Kong", None),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert_eq!(run.report("android").plugin.as_deref(), Some("android"));
    check(
        &run,
        "android",
        &fenix.join("places.sqlite"),
        "Firefox for Android",
    );
    check(&run, "windows", &profile.join("places.sqlite"), "Firefox");
    let notes = run.unparsed("windows");
    let noted = |suffix: &str, word: &str| {
        assert!(
            notes
                .iter()
                .any(|u| u.artefact.ends_with(suffix) && u.reason.contains(word)),
            "{suffix} {word}: {notes:#?}"
        )
    };
    noted("OtherApp/places.sqlite", "no moz_historyvisits table");
    // each database is read once per source, though two readers look for it (the Android
    // parsers every plugin runs, then the generic tree triage)
    for source in ["android", "windows"] {
        let reads = run
            .outputs(source)
            .iter()
            .filter(|(tool, args, _)| {
                tool == "sqlite_tables"
                    && args.contains("places.sqlite")
                    && !args.contains("OtherApp")
            })
            .count();
        assert_eq!(reads, 1, "{source}");
    }
    noted("OtherApp/formhistory.sqlite", "no moz_formhistory table");
}

/// Mozilla's Application Services store (`tests/fixtures/firefox/places_appservices.sql`, its
/// schema's history and bookmark tables) as Firefox for iOS keeps it (`profile.profile/places.db`
/// of its app group) and as Firefox for Android does since Fenix (`files/places.sqlite`): times in
/// Unix milliseconds, each visit said made on this device or synced from the account's other
/// devices, the pages' local and synced counts; every visit checked against the sqlite3 CLI.
#[test]
fn application_services_places_on_an_iphone_and_firefox_for_android() {
    let tmp = tempfile::tempdir().unwrap();
    let iphone = tmp.path().join("iphone");
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library/Preferences")).unwrap();
    let ios_db = iphone.join(
        "private/var/mobile/Containers/Shared/AppGroup/3E0B1C2D-4F5A-4B6C-8D7E-9F0A1B2C3D4E/profile.profile/places.db",
    );
    build(&ios_db, "places_appservices.sql");
    let android = tmp.path().join("android");
    let fenix = android.join("data/data/org.mozilla.fenix/files/places.sqlite");
    build(&fenix, "places_appservices.sql");
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("iphone", &iphone, "Europe/Zurich", Some("CH")),
        ("android", &android, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, db, browser) in [
        ("iphone", &ios_db, "Firefox for iOS"),
        ("android", &fenix, "Firefox for Android"),
    ] {
        let all = run.all_phenomena(source);
        let find = |title: &str| -> &Phenomenon {
            all.iter().find(|p| p.title == title).unwrap_or_else(|| {
                panic!(
                    "{source}: {title}: {:#?}",
                    all.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            })
        };
        for row in sqlite3(
            db,
            "SELECT v.id, p.url, v.visit_date, v.is_local, p.visit_count_local, p.visit_count_remote, p.guid FROM moz_historyvisits v JOIN moz_places p ON p.id = v.place_id",
        ) {
            let p = find(&format!("{browser} visit {} to {}", row[0], row[1]));
            for v in [&row[1], &row[2], &row[6]] {
                assert!(has(p, v), "{source} {v}: {p:#?}");
            }
            assert_eq!(p.times.len(), 1);
            assert_eq!(p.times[0].encoding, masf_graph::TimeEncoding::UnixMillis);
            let said = if row[3] == "1" {
                "made on this device (is_local 1)"
            } else {
                "synced from another device of the Firefox account (is_local 0)"
            };
            assert!(p.interpretation.contains(said), "{}", p.interpretation);
            assert!(
                p.interpretation.contains(&format!(
                    "{} time(s) on this device and {} time(s) on the account's other devices",
                    row[4], row[5]
                )),
                "{}",
                p.interpretation
            );
            assert!(p.interpretation.contains("visit_date is Unix milliseconds"));
        }
        let described = find(&format!(
            "{browser} visit 3 to https://app.uniswap.org/swap?outputCurrency=0xdAC17F958D2ee523a2206206994597C13D831ec7"
        ));
        assert!(has(
            described,
            "Swap, earn, and build on the leading decentralized crypto trading protocol."
        ));
        let came = find(&format!("{browser} visit 4 to https://www.kraken.com/"));
        assert!(has(
            came,
            "https://app.uniswap.org/swap?outputCurrency=0xdAC17F958D2ee523a2206206994597C13D831ec7"
        ));
        let bookmark = find(&format!("{browser} bookmark Kraken withdrawals"));
        for v in [
            "https://www.kraken.com/u/funding/withdraw",
            "mobile",
            "bMkKrAkEn006",
            "1732960500000",
            "1732960600000",
        ] {
            assert!(has(bookmark, v), "{source} {v}: {bookmark:#?}");
        }
        assert!(bookmark.interpretation.contains("at position 0"));
        assert!(
            bookmark
                .times
                .iter()
                .all(|t| t.encoding == masf_graph::TimeEncoding::UnixMillis)
        );
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with(&format!("{browser} bookmark ")))
                .count(),
            1,
            "folders are not bookmarks"
        );
    }
}
