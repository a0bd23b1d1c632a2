//! Saved logins and autofill data of Chromium-family browsers (`plugins::chromium_forms`) on
//! two kinds of evidence: an Android data tree (Chrome's `app_chrome/Default/Login Data` and a
//! `Web Data` of Chromium 135's layout) and a folder holding a Windows Chrome profile (`Login
//! Data For Account`, and a `Web Data` of the pre-2023 layout). The stores are built at test
//! time by the sqlite3 CLI from Chromium's schemas (`tests/fixtures/chromium/login_data.sql`,
//! `web_data.sql`, `web_data_2022.sql`); every login row is checked against the CLI's reading.
//! Passwords and card numbers are never read: their markers appear in no logged output. Beside
//! them, a journal file (skipped) and another program's `Web Data` (noted).

use std::path::Path;
use std::process::Command;

use masf_graph::Phenomenon;

use crate::android_support::{Run, triage};
use crate::browsers::sqlite3;

fn build(to: &Path, fixture: &str) {
    crate::android_support::sqlite_fixture(to, &format!("chromium/{fixture}"), "SELECT 1;");
}

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn find<'a>(all: &'a [Phenomenon], title: &str) -> &'a Phenomenon {
    all.iter().find(|p| p.title == title).unwrap_or_else(|| {
        panic!(
            "{title}: {:#?}",
            all.iter().map(|p| &p.title).collect::<Vec<_>>()
        )
    })
}

/// Every login as the sqlite3 CLI reads it, and nothing secret in any output.
fn check_logins(run: &Run, source: &str, store: &Path) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let rows = sqlite3(
        store,
        "SELECT username_value, signon_realm, origin_url, date_created, blacklisted_by_user, times_used FROM logins ORDER BY rowid",
    );
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let title = match (row[4].as_str(), row[0].as_str()) {
            ("1", _) => format!("Chrome never saves a password for {}", row[1]),
            (_, "") => format!("Chrome saved login without user name for {}", row[1]),
            (_, user) => format!("Chrome saved login {user} for {}", row[1]),
        };
        let p = find(&all, &title);
        for v in &row[..4] {
            assert!(v.is_empty() || has(p, v), "{v}: {p:#?}");
        }
        assert!(has(p, &row[5]), "times used");
        assert!(p.interpretation.contains("was not read"));
    }
    let shared = find(
        &all,
        "Chrome saved login +85261234567 for https://wallet.example.org/",
    );
    assert!(has(shared, "chan.mh@example.net") && has(shared, "CHAN Man Ho"));
    assert!(has(shared, "13385199000000000"), "received");
    for (tool, args, output) in run.outputs(source) {
        for marker in ["PASSWORD-MARKER", "CARD-MARKER"] {
            assert!(
                !output.contains(marker) && !args.contains(marker),
                "{tool} {args} printed a secret"
            );
        }
    }
}

#[test]
fn chrome_logins_and_autofill_on_android_and_windows() {
    let tmp = tempfile::tempdir().unwrap();
    let android = tmp.path().join("android");
    let chrome = android.join("data/data/com.android.chrome/app_chrome/Default");
    build(&chrome.join("Login Data"), "login_data.sql");
    build(&chrome.join("Web Data"), "web_data.sql");
    crate::android_support::sqlite_fixture(
        &chrome.join("Shortcuts"),
        "chromium/shortcuts.sql",
        "DROP TABLE network_action_predictor;",
    );
    crate::android_support::sqlite_fixture(
        &chrome.join("Network/Cookies"),
        "chromium/cookies.sql",
        "SELECT 1;",
    );
    crate::android_support::sqlite_fixture(
        &chrome.join("Network Action Predictor"),
        "chromium/shortcuts.sql",
        "DROP TABLE omni_box_shortcuts;",
    );
    // an empty rollback journal, as Chrome leaves between transactions
    std::fs::write(chrome.join("Login Data-journal"), b"").unwrap();
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(android.join("data/user/0/com.android.providers.telephony")).unwrap();
    let windows = tmp.path().join("windows");
    let profile = windows.join("Users/fung/AppData/Local/Google/Chrome/User Data/Default");
    build(&profile.join("Login Data For Account"), "login_data.sql");
    build(&profile.join("Web Data"), "web_data_2022.sql");
    let other = windows.join("Users/fung/AppData/Roaming/OtherApp");
    std::fs::create_dir_all(&other).unwrap();
    // a file named Shortcuts outside a browser profile: not a browser's, not read
    std::fs::write(other.join("Shortcuts"), b"[shortcuts]\n").unwrap();
    let out = Command::new("sqlite3")
        .arg(other.join("Web Data"))
        .arg("CREATE TABLE t (a); INSERT INTO t VALUES (1);")
        .status()
        .unwrap();
    assert!(out.success());

    let run = triage(&[
        ("android", &android, "Asia/Hong_Kong", Some("HK")),
        ("windows", &windows, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    check_logins(&run, "android", &chrome.join("Login Data"));
    check_logins(&run, "windows", &profile.join("Login Data For Account"));

    // Android, Chromium 135's layout: autocomplete, an address of typed tokens, two cards
    let all = run.all_phenomena("android");
    let email = find(&all, "Chrome autocomplete value for email");
    for v in ["yl.leung@example.com", "1739500000", "1739584000", "6"] {
        assert!(has(email, v), "{v}");
    }
    let address = find(&all, "Chrome autofill profile LEUNG Yuk Lam");
    for v in [
        "yl.leung@example.com",
        "+852 6987 1122",
        "Kowloon",
        "Flat 12B, 8 Nathan Road",
        "1739584200",
        "7c1e4a52-93d4-4f0b-a3c4-2b9d0e6f1a11",
    ] {
        assert!(has(address, v), "{v}: {address:#?}");
    }
    // what was typed in the address bar: every row as the CLI reads it
    for (file, sql) in [
        (
            "Shortcuts",
            "SELECT text, url, last_access_time, number_of_hits FROM omni_box_shortcuts",
        ),
        (
            "Network Action Predictor",
            "SELECT user_text, url, number_of_hits FROM network_action_predictor",
        ),
    ] {
        for row in sqlite3(&chrome.join(file), sql) {
            let p = find(&all, &format!("Chrome address bar: typed {}", row[0]));
            for v in &row {
                assert!(has(p, v), "{file}: {v} in {p:#?}");
            }
        }
    }
    // the sites that set cookies, one per host; never a value
    for row in sqlite3(
        &chrome.join("Network/Cookies"),
        "SELECT host_key, count(*), min(creation_utc), max(last_access_utc) FROM cookies GROUP BY host_key",
    ) {
        let p = find(&all, &format!("Chrome cookies of {}", row[0]));
        for v in &row {
            assert!(has(p, v), "cookies: {v} in {p:#?}");
        }
    }
    for (tool, args, output) in run.outputs("android") {
        assert!(
            !output.contains("COOKIE-MARKER"),
            "{tool} {args} printed a cookie value"
        );
    }
    let card = find(&all, "Chrome saved card of LEUNG YUK LAM");
    assert!(has(card, "OTC card") && card.interpretation.contains("expiring 8/2028"));
    let server = find(&all, "Chrome server card ending 4242 of LEUNG YUK LAM");
    assert!(has(server, "visa") && has(server, "Example Bank"));
    let entities = run.entities("android");
    for want in [
        "browser-profile:/data/data/com.android.chrome/app_chrome/Default [Person] user of browser profile /data/data/com.android.chrome/app_chrome/Default: email=yl.leung@example.com, phone=+85261234567",
        "handle:chan.mh@example.net [Person] CHAN Man Ho: display_name=chan man ho, email=chan.mh@example.net",
        "autofill:7c1e4a52-93d4-4f0b-a3c4-2b9d0e6f1a11 [Person] LEUNG Yuk Lam: display_name=leung yuk lam, email=yl.leung@example.com, phone=+85269871122",
    ] {
        assert!(entities.iter().any(|e| e == want), "{want}: {entities:#?}");
    }

    // Windows, the pre-2023 layout: the address from its four tables
    let all = run.all_phenomena("windows");
    let address = find(&all, "Chrome autofill profile FUNG Chi Ching");
    for v in [
        "Fung Trading Ltd",
        "3/F, 21 Queen's Road Central",
        "fung.cc@example.org",
        "+852 5432 1098",
        "Chi Ching",
        "FUNG",
        "1650400000",
        "7",
    ] {
        assert!(has(address, v), "{v}: {address:#?}");
    }
    let entities = run.entities("windows");
    let want = "autofill:b2f1c0de-1111-4a4a-8c8c-000000000001 [Person] FUNG Chi Ching: display_name=fung chi ching, email=fung.cc@example.org, phone=+85254321098";
    assert!(entities.iter().any(|e| e == want), "{entities:#?}");

    let notes = run.unparsed("windows");
    assert!(
        notes
            .iter()
            .any(|u| u.artefact.ends_with("OtherApp/Web Data")
                && u.reason.contains("not a Chromium Web Data store")),
        "{notes:#?}"
    );
    assert!(
        !run.outputs("windows").iter().any(
            |(tool, args, _)| tool.starts_with("sqlite") && args.contains("OtherApp/Shortcuts")
        ),
        "a Shortcuts file outside a profile was read"
    );
    assert!(
        run.unparsed("android").is_empty(),
        "{:#?}",
        run.unparsed("android")
    );
}

/// Chrome on an iPhone keeps the same stores in its container's profile folder, read by the
/// iOS plugin.
#[test]
fn chrome_logins_and_autofill_on_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let profile = tmp.path().join(
        "private/var/mobile/Containers/Data/Application/2C4E6A8B-0D1F-4A3C-9E5B-7D9F1B3D5F7A/Library/Application Support/Google/Chrome/Default",
    );
    build(&profile.join("Login Data"), "login_data.sql");
    build(&profile.join("Web Data"), "web_data.sql");
    std::fs::create_dir_all(tmp.path().join("private/var/mobile/Library")).unwrap();
    let o = crate::ios_support::triage(tmp.path(), "Asia/Hong_Kong");
    crate::ios_support::assert_all_accepted(&o);
    let titles: Vec<&String> = o.findings().iter().map(|p| &p.title).collect();
    for title in [
        "Chrome saved login yl.leung@example.com for https://accounts.binance.com/",
        "Chrome never saves a password for https://ads.example.com/",
        "Chrome autocomplete value for amount",
        "Chrome autofill profile LEUNG Yuk Lam",
        "Chrome server card ending 4242 of LEUNG YUK LAM",
    ] {
        assert!(titles.iter().any(|t| *t == title), "{title}: {titles:#?}");
    }
}

/// Chromium's `Top Sites` (ALEAPP's `chromeTopSites`) on an Android phone's Chrome profile
/// (version 5: URL, rank, title) and a Windows profile (the version-4 layout, with redirects):
/// every site as the sqlite3 CLI reads it, ranked; a `Top Sites` outside a profile is not read;
/// one without its table is noted.
#[test]
fn chrome_top_sites_in_two_layouts() {
    let tmp = tempfile::tempdir().unwrap();
    let android = tmp.path().join("android");
    let chrome = android.join("data/data/com.android.chrome/app_chrome/Default");
    build(&chrome.join("Top Sites"), "top_sites.sql");
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(android.join("data/user/0/com.android.providers.telephony")).unwrap();
    let windows = tmp.path().join("windows");
    let profile = windows.join("Users/fung/AppData/Local/Google/Chrome/User Data/Profile 1");
    crate::android_support::sqlite_fixture(
        &profile.join("Top Sites"),
        "chromium/top_sites.sql",
        "CREATE TABLE t (url LONGVARCHAR PRIMARY KEY, url_rank INTEGER, title LONGVARCHAR, redirects LONGVARCHAR); \
         INSERT INTO t SELECT url, url_rank, title, CASE url_rank WHEN 0 THEN 'https://binance.com/ https://p2p.binance.com/en' ELSE url END FROM top_sites; \
         DROP TABLE top_sites; ALTER TABLE t RENAME TO top_sites;",
    );
    let other = windows.join("Users/fung/AppData/Roaming/OtherApp/Top Sites");
    build(&other, "top_sites.sql");
    let broken = windows.join("Users/fung/AppData/Local/Google/Chrome/User Data/Default/Top Sites");
    crate::android_support::sqlite_fixture(
        &broken,
        "chromium/top_sites.sql",
        "DROP TABLE top_sites;",
    );
    let run = triage(&[
        ("android", &android, "Asia/Hong_Kong", Some("HK")),
        ("windows", &windows, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, store) in [
        ("android", chrome.join("Top Sites")),
        ("windows", profile.join("Top Sites")),
    ] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let rows = sqlite3(
            &store,
            "SELECT url, url_rank, title FROM top_sites ORDER BY url_rank",
        );
        assert_eq!(rows.len(), 3);
        for row in &rows {
            let p = find(&all, &format!("Chrome top site {}: {}", row[1], row[0]));
            assert!(
                has(p, &row[0]) && has(p, &row[1]) && has(p, &row[2]),
                "{p:#?}"
            );
            assert!(p.times.is_empty());
        }
    }
    let all = run.all_phenomena("windows");
    let first = find(&all, "Chrome top site 0: https://p2p.binance.com/en");
    assert!(has(
        first,
        "https://binance.com/ https://p2p.binance.com/en"
    ));
    assert!(
        first
            .interpretation
            .contains("reached through https://binance.com/")
    );
    // only the two profiles' stores: not the other program's file
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("Chrome top site"))
            .count(),
        3
    );
    let notes = run.unparsed("windows");
    assert!(
        notes
            .iter()
            .any(|u| u.artefact.ends_with("Default/Top Sites")
                && u.reason.contains("no top_sites table")),
        "{notes:#?}"
    );
}
