//! The media a Chromium-family browser played and the sites its bounce-tracking mitigation
//! watched (`plugins::chromium_activity`: `Media History`, `DIPS`; ALEAPP's
//! `chromeMediaHistory`, `chromeDIPS`) on two kinds of evidence: an Android phone's Chrome
//! profile (DIPS's first layout) and a Windows Edge profile (the later layout: user activation,
//! WebAuthn assertions, pop-ups). The stores are built at test time by the sqlite3 CLI from
//! Chromium's statements (`tests/fixtures/chromium/media_history.sql`, `dips.sql`); every row
//! is checked against the CLI's reading, each time against its stored value. Beside them,
//! another program's `Media History` outside a profile (not read) and a DIPS without its
//! `bounces` table (noted).

use crate::android_support::{has_fact, sqlite_fixture, time_values, titled, triage};
use crate::browsers::sqlite3;

#[test]
fn chromium_media_history_and_dips_on_android_and_windows() {
    let tmp = tempfile::tempdir().unwrap();
    let android = tmp.path().join("android");
    let chrome = android.join("data/data/com.android.chrome/app_chrome/Default");
    sqlite_fixture(
        &chrome.join("Media History"),
        "chromium/media_history.sql",
        "SELECT 1;",
    );
    sqlite_fixture(&chrome.join("DIPS"), "chromium/dips.sql", "SELECT 1;");
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(android.join("data/user/0/com.android.providers.telephony")).unwrap();
    let windows = tmp.path().join("windows");
    let edge = windows.join("Users/fung/AppData/Local/Microsoft/Edge/User Data/Profile 1");
    // an older Media History without playbackSession
    sqlite_fixture(
        &edge.join("Media History"),
        "chromium/media_history.sql",
        "DROP TABLE playbackSession;",
    );
    // the later DIPS layout: activation for interaction, WebAuthn assertions, pop-ups
    sqlite_fixture(
        &edge.join("DIPS"),
        "chromium/dips.sql",
        "CREATE TABLE b2(site TEXT PRIMARY KEY NOT NULL,first_site_storage_time INTEGER,last_site_storage_time INTEGER,first_user_activation_time INTEGER,last_user_activation_time INTEGER,first_stateful_bounce_time INTEGER,last_stateful_bounce_time INTEGER,first_bounce_time INTEGER,last_bounce_time INTEGER,first_web_authn_assertion_time INTEGER,last_web_authn_assertion_time INTEGER); \
         INSERT INTO b2 SELECT *, CASE site WHEN 'binance.com' THEN 13358001000000000 END, CASE site WHEN 'binance.com' THEN 13358001000000000 END FROM bounces; \
         DROP TABLE bounces; ALTER TABLE b2 RENAME TO bounces; \
         CREATE TABLE popups(opener_site TEXT NOT NULL,popup_site TEXT NOT NULL,access_id INT64,last_popup_time INTEGER DEFAULT NULL,is_current_interaction BOOL,is_authentication_interaction BOOL,PRIMARY KEY (opener_site, popup_site)); \
         INSERT INTO popups VALUES ('binance.com', 'accounts.google.com', 8812345, 13358000500000000, 1, 1);",
    );
    let other = windows.join("Users/fung/AppData/Roaming/OtherApp/Media History");
    sqlite_fixture(&other, "chromium/media_history.sql", "SELECT 1;");
    let broken = windows.join("Users/fung/AppData/Local/Microsoft/Edge/User Data/Default/DIPS");
    sqlite_fixture(&broken, "chromium/dips.sql", "DROP TABLE bounces;");
    let run = triage(&[
        ("android", &android, "Asia/Hong_Kong", Some("HK")),
        ("windows", &windows, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, browser, dir) in [("android", "Chrome", &chrome), ("windows", "Edge", &edge)] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let store = dir.join("Media History");
        // every playback, with its site, watch time and last update (as stored and in Unix s)
        let rows = sqlite3(
            &store,
            "SELECT p.url, o.origin, p.watch_time_s, p.last_updated_time_s, p.last_updated_time_s - 11644473600 FROM playback p JOIN origin o ON o.id = p.origin_id",
        );
        assert_eq!(rows.len(), 2);
        for r in &rows {
            let p = titled(&all, &format!("{browser} played media: {}", r[0]));
            assert!(
                has_fact(p, &r[1]) && has_fact(p, &r[2]) && has_fact(p, &r[3]),
                "{p:#?}"
            );
            assert_eq!(time_values(p), vec![r[4].clone()]);
        }
        // every site, with its total watch time and two times
        let rows = sqlite3(
            &store,
            "SELECT origin, aggregate_watchtime_audio_video_s, media_engagement_visits, last_updated_time_s - 11644473600, media_engagement_last_playback_time - 11644473600 FROM origin",
        );
        for r in &rows {
            let p = titled(&all, &format!("{browser} media site: {}", r[0]));
            assert!(has_fact(p, &r[1]) && has_fact(p, &r[2]), "{p:#?}");
            let want: Vec<String> = [&r[3], &r[4]]
                .into_iter()
                .filter(|v| !v.starts_with('-'))
                .cloned()
                .collect();
            let got = time_values(p);
            assert_eq!(got.len(), want.len(), "{p:#?}");
            for w in &want {
                let w: f64 = w.parse().unwrap();
                assert!(
                    got.iter()
                        .any(|g| (g.parse::<f64>().unwrap() - w).abs() < 1e-6),
                    "{w}: {p:#?}"
                );
            }
        }
        // DIPS: each site with every time it holds
        let dips = sqlite3(&dir.join("DIPS"), "SELECT * FROM bounces ORDER BY site");
        assert_eq!(dips.len(), 2);
        for r in &dips {
            let p = titled(
                &all,
                &format!("{browser} bounce-tracking record of {}", r[0]),
            );
            let mut want: Vec<String> = r[1..].iter().filter(|v| !v.is_empty()).cloned().collect();
            want.sort();
            assert_eq!(time_values(p), want, "{p:#?}");
        }
    }
    // the media session: title, artist, where it stopped
    let all = run.all_phenomena("android");
    let s = titled(
        &all,
        "Chrome media session: How to move USDT off an exchange",
    );
    for v in [
        "Crypto Tutorials HK",
        "1830000",
        "2400000",
        "YouTube",
        "https://www.youtube.com",
    ] {
        assert!(has_fact(s, v), "{v}: {s:#?}");
    }
    assert_eq!(
        time_values(s),
        vec![(13358000900i64 - 11644473600).to_string()]
    );
    let binance = titled(&all, "Chrome bounce-tracking record of binance.com");
    assert!(
        binance
            .interpretation
            .contains("user's first interaction with the site"),
        "{}",
        binance.interpretation
    );
    // Edge: no sessions in its older store; the pop-up of the later DIPS layout
    let all = run.all_phenomena("windows");
    assert!(
        !all.iter()
            .any(|p| p.title.starts_with("Edge media session"))
    );
    let popup = titled(&all, "Edge pop-up from binance.com to accounts.google.com");
    assert!(has_fact(popup, "8812345"), "{popup:#?}");
    assert_eq!(time_values(popup), vec!["13358000500000000".to_string()]);
    let binance = titled(&all, "Edge bounce-tracking record of binance.com");
    assert!(
        binance
            .times
            .iter()
            .any(|t| t.description == "Last WebAuthn assertion on the site"),
        "{binance:#?}"
    );
    // only the two profiles' stores: not the other program's file
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("Edge played media"))
            .count(),
        2
    );
    assert!(
        !all.iter()
            .any(|p| p.title.contains("played media") && !p.title.starts_with("Edge"))
    );
    run.assert_noted("windows", &[("Default/DIPS", "no bounces table")]);
}
