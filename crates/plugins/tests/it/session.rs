//! Session on Android (`android::session`): the preferences file as the app writes it (Android's
//! shared-preferences XML, written here by Python's xml.sax.saxutils escaping as Android's
//! `XmlUtils` does) and its SQLCipher stores (random bytes where the SQLite header would be, as
//! an encrypted database has). Every field of ALEAPP's `session_account` and every key of its
//! `session_preferences` (the wrapped passphrases named, not copied) is found; the Account ID is
//! the device's user; the encrypted stores are noted as such; a malformed preferences file is
//! noted.

use crate::android_support::triage;

const PREFS: &str = r#"
import sys
from xml.sax.saxutils import escape, quoteattr
items = [
    ('string', 'pref_local_number', '05a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90'),
    ('string', 'pref_profile_name', 'Dana W'),
    ('string', 'pref_profile_avatar_url', 'https://file.getsession.example/file/38272'),
    ('string', 'pref_profile_avatar_id', '38272'),
    ('string', 'pref_profile_key', 'q3Zl0K1bUeYw8yBq9vV1m2Jx0c4Zk8bTgQm1pL7rS6E='),
    ('int', 'pref_local_registration_id', '4412'),
    ('boolean', 'has_viewed_seed', 'true'),
    ('int', 'last_version_code', '419'),
    ('long', 'pref_last_profile_update_time', '1701340800000'),
    ('long', 'last_profile_picture_upload', '0'),
    ('string', 'pref_database_encrypted_secret', '{"data":"c2VjcmV0","iv":"aXY="}'),
    ('string', 'pref_theme', 'classic.dark & bright'),
    ('boolean', 'pref_typing_indicators', 'false'),
]
out = ["<?xml version='1.0' encoding='utf-8' standalone='yes' ?>", '<map>']
for tag, name, value in items:
    if tag == 'string':
        out.append(f'    <string name="{name}">{escape(value)}</string>')
    else:
        out.append(f'    <{tag} name="{name}" value={quoteattr(value)} />')
out.append('</map>')
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
"#;

#[test]
fn session_account_preferences_and_encrypted_stores() {
    let tmp = tempfile::tempdir().unwrap();
    let phone = tmp.path().join("phone");
    let pkg = phone.join("data/data/network.loki.messenger");
    let prefs = pkg.join("shared_prefs/network.loki.messenger_preferences.xml");
    std::fs::create_dir_all(prefs.parent().unwrap()).unwrap();
    crate::ios_support::python(PREFS, &prefs);
    std::fs::create_dir_all(pkg.join("databases")).unwrap();
    // an encrypted store: no SQLite header, bytes that look random
    let noise: Vec<u8> = (0..8192u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(pkg.join("databases/signal_v4.db"), &noise).unwrap();
    std::fs::write(pkg.join("databases/session.db"), &noise[..4096]).unwrap();
    let bad = phone.join(
        "data/user/10/network.loki.messenger/shared_prefs/network.loki.messenger_preferences.xml",
    );
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, "<map><string name=\"pref_local_number\">05ab</map").unwrap();
    std::fs::create_dir_all(phone.join("data/system/users/0")).unwrap();

    let run = triage(&[("phone", &phone, "Europe/London", Some("GB"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("phone");
    let has = |p: &masf_graph::Phenomenon, v: &str| p.verified_facts.iter().any(|f| f.value == v);
    let account = all
        .iter()
        .find(|p| p.title.starts_with("Session account 05a1b2"))
        .expect("the account");
    // ALEAPP's session_account (its 0 time left blank, as here)
    for v in [
        "05a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
        "Dana W",
        "https://file.getsession.example/file/38272",
        "38272",
        "q3Zl0K1bUeYw8yBq9vV1m2Jx0c4Zk8bTgQm1pL7rS6E=",
        "4412",
        "true",
        "419",
        "1701340800000",
    ] {
        assert!(has(account, v), "{v} in {account:#?}");
    }
    assert_eq!(account.times.len(), 1, "{account:#?}");
    // ALEAPP's session_preferences: every key; the wrapped passphrase named only; a value as
    // the XML holds it (escaped)
    let rest = all
        .iter()
        .find(|p| p.title == "Session preferences")
        .expect("the preferences");
    for v in [
        "pref_typing_indicators",
        "false",
        "pref_theme",
        "classic.dark &amp; bright",
        "pref_last_profile_update_time",
    ] {
        assert!(has(rest, v), "{v} in {rest:#?}");
    }
    assert!(
        !rest
            .verified_facts
            .iter()
            .any(|f| f.value.contains("c2VjcmV0"))
    );
    assert!(
        rest.interpretation
            .contains("pref_database_encrypted_secret are present and not copied")
    );
    let owner = run.owner("phone");
    assert!(
        owner.contains(
            "account_id=session:05a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
        ) && owner.contains("display_name=dana w"),
        "{owner}"
    );
    run.assert_noted(
        "phone",
        &[
            ("network.loki.messenger/databases/signal_v4.db", "encrypted (SQLCipher)"),
            ("network.loki.messenger/databases/session.db", "encrypted (SQLCipher)"),
            (
                "user/10/network.loki.messenger/shared_prefs/network.loki.messenger_preferences.xml",
                "",
            ),
        ],
    );
}
