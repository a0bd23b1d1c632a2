//! Viber on iOS (`ios::viber`) on two iPhones: KA WAI's account and contacts
//! (`tests/fixtures/viber/`, built by the sqlite3 CLI) and CHAN's, the same stores renamed to his
//! number. Every setting and contact of iLEAPP's viber_settings and viber_contacts queries (run
//! here by the CLI) is found; each phone's user is the other's Viber contact by number; a number
//! that is no number is kept as written and observed as nothing; a truncated store and one of
//! another layout are noted; another app's `Settings.data` is passed over.

use std::path::Path;

use masf_graph::Phenomenon;

use crate::android_support::{Run, sqlite_fixture, triage};
use crate::browsers::sqlite3;

const GROUP: &str =
    "private/var/mobile/Containers/Shared/AppGroup/0D1C2B3A-4F5E-4D6C-8B7A-9F8E7D6C5B4A";

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn phone(root: &Path, settings_then: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let viber = root.join(GROUP).join("com.viber");
    let settings = viber.join("settings/Settings.data");
    let contacts = viber.join("database/Contacts.data");
    sqlite_fixture(&settings, "viber/settings.sql", settings_then);
    sqlite_fixture(&contacts, "viber/contacts.sql", "SELECT 1;");
    std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
    (settings, contacts)
}

fn check(run: &Run, source: &str, settings: &Path, contacts: &Path) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let account = all
        .iter()
        .find(|p| p.title == "Viber account (Settings.data)")
        .expect("the account");
    for row in sqlite3(
        settings,
        "SELECT value FROM Data WHERE key IN ('_myUserName', '_currentEmail', '_myPhoneNumber', '_myFormattedPhoneNumber', '_myCountryCode', '_uid', '_appVersion', '_registrationDate')",
    ) {
        assert!(
            has(account, &row[0]),
            "{source}: {} in {account:#?}",
            row[0]
        );
    }
    assert!(!account.interpretation.contains("not reported"));
    for row in sqlite3(
        contacts,
        "SELECT ZABCONTACT.ZMAINNAME, ZABCONTACT.ZPREFIXNAME, ZABCONTACT.ZSUFFIXNAME, ZABCONTACTNUMBER.ZPHONE, ZABCONTACTNUMBER.ZCANONIZEDPHONENUM, ZABCONTACT.ZCONTACTID \
         FROM ZABCONTACT LEFT JOIN ZABCONTACTNUMBER ON ZABCONTACT.Z_PK = ZABCONTACTNUMBER.ZCONTACT",
    ) {
        let p = all
            .iter()
            .find(|p| {
                p.title.starts_with("Viber contact ")
                    && has(p, &row[5])
                    && (row[3].is_empty() || has(p, &row[3]))
            })
            .unwrap_or_else(|| panic!("{source}: {row:?}"));
        for v in &row {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
    }
    // iLEAPP's viber_chats fields, by the CLI
    let rows = sqlite3(
        contacts,
        "SELECT m.ZSTATEDATE, m.ZDATE, m.ZTEXT, s.ZDISPLAYFULLNAME, n.ZPHONE, c.ZNAME, a.ZNAME, a.ZFILESIZE, l.ZLATITUDE, l.ZLONGITUDE, r.ZCALLTYPE, r.ZDURATION, m.ZSTATE \
         FROM ZVIBERMESSAGE m LEFT JOIN ZCONVERSATION c ON c.Z_PK = m.ZCONVERSATION LEFT JOIN ZMEMBER s ON s.Z_PK = m.ZPHONENUMINDEX \
         LEFT JOIN ZPHONENUMBER n ON n.ZMEMBER = s.Z_PK LEFT JOIN ZATTACHMENT a ON a.Z_PK = m.ZATTACHMENT \
         LEFT JOIN ZVIBERLOCATION l ON l.Z_PK = m.ZLOCATION LEFT JOIN ZRECENT r ON r.ZCALLLOGMESSAGE = m.Z_PK",
    );
    let msgs: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Viber message ") || p.title.starts_with("Viber call "))
        .collect();
    assert_eq!(msgs.len(), rows.len(), "{source}");
    for row in &rows {
        let p = msgs
            .iter()
            .find(|p| has(p, &row[0]) && has(p, &row[1]))
            .unwrap_or_else(|| panic!("{source}: {row:?}"));
        for v in &row[2..12] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
        let out = row[12] == "send" || row[12] == "delivered";
        assert_eq!(
            p.title.contains(" sent in ") || p.title.starts_with("Viber call "),
            out,
            "{}",
            p.title
        );
    }
}

#[test]
fn viber_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let (sa, ca) = phone(&a, "SELECT 1;");
    // a truncated store, one of another layout, another app's Settings.data
    let bytes = std::fs::read(&ca).unwrap();
    let other_group = a.join("private/var/mobile/Containers/Shared/AppGroup/11111111-2222-4333-8444-555555555555/com.viber/database");
    std::fs::create_dir_all(&other_group).unwrap();
    std::fs::write(other_group.join("Contacts.data"), &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &a.join("private/var/mobile/Containers/Shared/AppGroup/66666666-7777-4888-9999-000000000000/com.viber/settings/Settings.data"),
        "CREATE TABLE Prefs (k TEXT, v TEXT);",
    );
    crate::ios_nearby::sqlite3(
        &a.join("private/var/mobile/Containers/Data/Application/ABCDEF01-2345-4678-9ABC-DEF012345678/Library/Settings.data"),
        "CREATE TABLE Data (key TEXT, value); INSERT INTO Data VALUES ('_myCanonizedPhoneNumber', '85211112222');",
    );
    let b = tmp.path().join("b");
    let (sb, cb) = phone(
        &b,
        "UPDATE Data SET value = '85298765432' WHERE key = '_myCanonizedPhoneNumber'; \
         UPDATE Data SET value = 'Man Ho Chan' WHERE key = '_myUserName'; \
         UPDATE Data SET value = 'R9mT4xWq2Ke7Uv1A' WHERE key = '_uid'; \
         UPDATE Data SET value = 'chan.mh@example.com' WHERE key = '_currentEmail';",
    );
    crate::ios_nearby::sqlite3(
        &cb,
        "UPDATE ZABCONTACT SET ZMAINNAME = 'Ka Wai' WHERE Z_PK = 1; UPDATE ZABCONTACTNUMBER SET ZPHONE = '6123 4567', ZCANONIZEDPHONENUM = '85261234567' WHERE Z_PK = 1;",
    );

    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert_eq!(run.report("a").plugin.as_deref(), Some("ios"));
    check(&run, "a", &sa, &ca);
    check(&run, "b", &sb, &cb);
    let ents = run.entities("a");
    assert!(
        ents.iter()
            .any(|e| e.starts_with("owner [Person] device owner:")
                && e.contains("phone=+85261234567")
                && e.contains("email=kawai.w@example.com")
                && e.contains("account_id=viber:W5bN2kQv8Ld0Y3Zp")),
        "{ents:#?}"
    );
    // the received message's sender: Chan, by his number, claims the wallet he wrote
    assert!(
        ents.iter().any(|e| e.contains("phone=+85298765432")
            && e.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{ents:#?}"
    );
    assert!(
        !ents.iter().any(|e| e.contains("+85211112222")),
        "another app's Settings.data was read: {ents:#?}"
    );
    let with = crate::who::resolved(&run);
    let a_owner = with("a/owner");
    assert!(a_owner.iter().any(|e| e.starts_with("b/")), "{a_owner:#?}");
    let b_owner = with("b/owner");
    assert!(b_owner.iter().any(|e| e.starts_with("a/")), "{b_owner:#?}");
    let notes = run.unparsed("a");
    assert!(
        notes
            .iter()
            .any(|u| u.artefact.contains("11111111-2222") && u.reason.contains("malformed")),
        "{notes:#?}"
    );
    assert!(
        notes
            .iter()
            .any(|u| u.artefact.contains("66666666-7777") && u.reason.contains("Data")),
        "{notes:#?}"
    );
}
