//! Clubhouse and GroupMe (account data in preference plists) and carrier voicemail, against
//! iLEAPP's recorded output for the corpus's test cases, plus voicemail databases built at test
//! time from the real schema and broken copies of each.

use std::path::Path;

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::ios::{expected, has, ileapp};
use crate::ios_support::{assert_all_accepted, triage};

/// The row's value of `header` as iLEAPP prints it ("" when absent or null).
fn cell(exp: &Value, row: &Value, header: &str) -> String {
    let i = exp["headers"]
        .as_array()
        .and_then(|h| h.iter().position(|x| x == header))
        .unwrap_or_else(|| panic!("iLEAPP has no column {header}"));
    match &row[i] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

/// Unix seconds of every time mark of `p` (Unix, Apple or ISO 8601 facts), truncated.
fn unix_times(p: &Phenomenon) -> Vec<i64> {
    p.times
        .iter()
        .filter_map(|t| {
            let v = &p.verified_facts[t.fact].value;
            Some(match t.encoding {
                masf_graph::TimeEncoding::UnixSeconds => v.parse::<f64>().ok()?.trunc() as i64,
                masf_graph::TimeEncoding::AppleSeconds => {
                    v.parse::<f64>().ok()?.trunc() as i64 + 978_307_200
                }
                masf_graph::TimeEncoding::Iso8601 => v.parse::<jiff::Timestamp>().ok()?.as_second(),
                _ => return None,
            })
        })
        .collect()
}

/// iLEAPP's "YYYY-MM-DD HH:MM:SS[.ffffff]" UTC text as Unix seconds.
fn utc_seconds(text: &str) -> i64 {
    let civil: jiff::civil::DateTime = text.parse().unwrap();
    jiff::tz::TimeZone::UTC
        .to_timestamp(civil)
        .unwrap()
        .as_second()
}

#[test]
fn ios_ileapp_clubhouse_account_contacts_conversations_notifications() {
    let o = triage(
        &ileapp("testdata.clubhouse.clubhouseAccount.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let club = |p: &&Phenomenon| p.title.starts_with("Clubhouse");
    let accounts: Vec<&Phenomenon> = o.category("accounts").into_iter().filter(club).collect();
    let [account] = accounts.as_slice() else {
        panic!("{accounts:#?}")
    };
    let exp = expected("clubhouse.clubhouseAccount.josh_ios17_ffs");
    let row = &exp["data"][0];
    for field in [
        "Name",
        "Username",
        "User Server ID",
        "Phone Number",
        "Photo URL",
        "Device ID",
        "Invites Remaining",
        "Co-follows",
        "Following User IDs",
    ] {
        let v = cell(&exp, row, field);
        assert!(has(account, &v), "{field} {v}: {account:#?}");
    }
    for (field, said) in [
        ("Is Admin", "admin: "),
        ("Blind Invite User", "blind invite user: "),
        ("Upgraded From V1", "upgraded from v1: "),
        ("Has Seen Onboarding", "onboarding seen: "),
    ] {
        let yes = if cell(&exp, row, field) == "true" {
            "yes"
        } else {
            "no"
        };
        assert!(
            account.interpretation.contains(&format!("{said}{yes}")),
            "{field}: {}",
            account.interpretation
        );
    }
    assert!(unix_times(account).contains(&utc_seconds(&cell(&exp, row, "Last Sync"))));
    // iLEAPP's "Blocked User IDs" is empty: nothing blocked.
    assert!(account.interpretation.contains("blocks 0 ()"));

    // Contacts: the same plist (the contacts case's zip holds it too).
    let exp = expected("clubhouse.clubhouseContacts.josh_ios17_ffs");
    let contacts: Vec<&Phenomenon> = o.category("contacts").into_iter().filter(club).collect();
    let rows = exp["data"].as_array().unwrap();
    assert_eq!(contacts.len(), rows.len());
    for row in rows {
        let hash = cell(&exp, row, "Contact Hash");
        let p = contacts
            .iter()
            .find(|p| has(p, &hash))
            .unwrap_or_else(|| panic!("no contact {hash}"));
        for field in [
            "Name",
            "Phone Number",
            "Popularity Score",
            "Address Book Identifier",
            "Image Path",
        ] {
            let v = cell(&exp, row, field);
            assert!(v.is_empty() || has(p, &v), "{hash} {field} {v}");
        }
        let on = if cell(&exp, row, "Already On Clubhouse") == "Yes" {
            "yes"
        } else {
            "no"
        };
        assert!(
            p.interpretation
                .contains(&format!("already on Clubhouse: {on}"))
        );
        let uploaded: i64 = cell(&exp, row, "Contacts Last Uploaded").parse().unwrap();
        assert!(unix_times(p).contains(&uploaded), "{hash}");
    }

    // Identities: the account is the owner's; each contact carries the address book's GUID.
    let ids = o.identities();
    for (t, v) in [
        ("account_id", "clubhouse:981982138"),
        ("phone", "+19195794674"),
        ("nickname", "thisisdeefer"),
    ] {
        assert!(
            ids.contains(&("owner".into(), t.into(), v.into())),
            "{t} {v}: {ids:#?}"
        );
    }
    assert!(ids.contains(&(
        "clubhouse-contact:P.BCKf8oc0hFGz3yiq".into(),
        "contact_guid".into(),
        "BE6D866A-24A9-4E64-90C0-E06E9C34B0DB".into()
    )));
    assert!(ids.contains(&(
        "clubhouse-contact:P.BCKf8oc0hFGz3yiq".into(),
        "phone".into(),
        "+19199282177".into()
    )));

    // The app group's plist: the widget's conversation and the notification.
    let o = triage(
        &ileapp("testdata.clubhouse.clubhouseConversations.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let exp = expected("clubhouse.clubhouseConversations.josh_ios17_ffs");
    let convs: Vec<&Phenomenon> = o.category("messages").into_iter().filter(club).collect();
    assert_eq!(convs.len(), 1);
    for field in ["Participant Name", "Conversation ID", "Image URL"] {
        let v = cell(&exp, &exp["data"][0], field);
        assert!(has(convs[0], &v), "{field} {v}");
    }
    let exp = expected("clubhouse.clubhouseNotifications.josh_ios17_ffs");
    let notes: Vec<&Phenomenon> = o.category("notifications");
    assert_eq!(notes.len(), 1);
    let row = &exp["data"][0];
    assert!(has(notes[0], &cell(&exp, row, "Notification ID")));
    assert!(unix_times(notes[0]).contains(&cell(&exp, row, "Timestamp").parse().unwrap()));
}

#[test]
fn ios_ileapp_groupme_account_every_field() {
    let o = triage(
        &ileapp("testdata.groupMe.groupMeAccount.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let accounts: Vec<&Phenomenon> = o
        .category("accounts")
        .into_iter()
        .filter(|p| p.title.starts_with("GroupMe"))
        .collect();
    let [p] = accounts.as_slice() else {
        panic!("{accounts:#?}")
    };
    let exp = expected("groupMe.groupMeAccount.josh_ios17_ffs");
    let mut found = 0;
    let rows = exp["data"].as_array().unwrap();
    for row in rows {
        let (key, value) = (cell(&exp, row, "Key"), cell(&exp, row, "Value"));
        let ok = match key.as_str() {
            "Last Full Refresh"
            | "Address Book Last Scanned"
            | "Relationships Last Fetched"
            | "Profile Last Refreshed"
            | "Profile Created At" => unix_times(p).contains(&utc_seconds(&value)),
            // iLEAPP prints Python's True; the tool prints JSON's true.
            "Sync Contacts To Server" => p
                .interpretation
                .contains(&format!("synced to the server: {}", value.to_lowercase())),
            _ => has(p, &value),
        };
        assert!(ok, "{key} = {value}: {p:#?}");
        found += 1;
    }
    assert_eq!(found, 13);
    let ids = o.identities();
    for (t, v) in [
        ("account_id", "groupme:91071677"),
        ("email", "thisisdfir@gmail.com"),
        ("phone", "+19195794674"),
    ] {
        assert!(
            ids.contains(&("owner".into(), t.into(), v.into())),
            "{t} {v}: {ids:#?}"
        );
    }
}

/// Voicemail 2 has no audio file beside the database, and says so.
fn trashed_no_audio(vms: &[&Phenomenon]) -> bool {
    vms.iter().any(|p| {
        p.title.starts_with("Voicemail 2 ")
            && p.interpretation
                .contains("No audio file named after ROWID 2")
    })
}

fn sqlite3(db: &Path, sql: &str) {
    let out = std::process::Command::new("sqlite3")
        .arg(db)
        .arg(sql)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A `voicemail.db` with the schema of the corpus's real one (`.schema` by the sqlite3 CLI)
/// and `rows` (SQL) at `var/mobile/Library/Voicemail/` below `root`.
fn voicemail_db(root: &Path, rows: &str) -> std::path::PathBuf {
    let real = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("unzip")
        .args(["-q", "-j", "-o"])
        .arg(ileapp("testdata.voicemail.voicemail.mvs_ios_2023.zip"))
        .arg("-d")
        .arg(real.path())
        .status()
        .unwrap();
    assert!(st.success() || st.code() == Some(1));
    let schema = std::process::Command::new("sqlite3")
        .arg("-readonly")
        .arg(real.path().join("voicemail.db"))
        // without sqlite_sequence, which the CLI would refuse to create
        .arg(".schema --nosys")
        .output()
        .unwrap();
    assert!(schema.status.success());
    let dir = root.join("private/var/mobile/Library/Voicemail");
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("voicemail.db");
    sqlite3(
        &db,
        &format!("{}\n{rows}", String::from_utf8_lossy(&schema.stdout)),
    );
    db
}

#[test]
fn ios_voicemail_of_two_devices_empty_and_a_built_one_read_with_its_deleted_rows() {
    // Both public voicemail databases are empty (iLEAPP reports no row): nothing recorded,
    // nothing noted.
    for case in ["belkasoft_ctf6_ios_device1", "mvs_ios_2023"] {
        let o = triage(
            &ileapp(&format!("testdata.voicemail.voicemail.{case}.zip")),
            "America/New_York",
        );
        assert_all_accepted(&o);
        assert!(o.unparsed.is_empty(), "{case}: {:#?}", o.unparsed);
        assert!(
            !o.category("calls")
                .iter()
                .any(|p| p.title.starts_with("Voicemail"))
        );
        assert!(
            expected(&format!("voicemail.voicemail.{case}"))["data"]
                .as_array()
                .unwrap()
                .is_empty()
        );
    }

    // A database of the same schema with two kept voicemails (one trashed) and one deleted,
    // the SIM's ICCID in `map`.
    let tmp = tempfile::tempdir().unwrap();
    let db = voicemail_db(
        tmp.path(),
        // (with ROWID 1's audio beside it, a few bytes of an AMR header)
        "INSERT INTO map (account, label) VALUES ('89852000263512345678', 'L1');
         INSERT INTO voicemail (remote_uid, date, token, sender, callback_num, duration, expiration, trashed_date, flags, receiver, label)
           VALUES (11, 1700000000, 'tok-a', '+85261234567', '+85261234567', 42, 1702592000, 0, 1, '+85298765432', 'L1'),
                  (12, 1700003600, 'tok-b', '(212) 555-0100', NULL, 7, 1702595600, 721700000, 3, '+85298765432', 'L1');
         INSERT INTO deleted (remote_uid, date, token, sender, callback_num, duration, expiration, trashed_date, flags, receiver, label)
           VALUES (9, 1699990000, 'tok-z', '+85265550000', NULL, 15, 0, 721690000, 0, '+85298765432', 'L1');",
    );
    std::fs::write(db.with_file_name("1.amr"), b"#!AMR\n\x3c").unwrap();
    let o = triage(tmp.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let vms: Vec<&Phenomenon> = o
        .category("calls")
        .into_iter()
        .filter(|p| p.title.starts_with("Voicemail"))
        .collect();
    assert_eq!(vms.len(), 3, "{vms:#?}");
    let first = vms
        .iter()
        .find(|p| p.title == "Voicemail 1 from +85261234567")
        .unwrap();
    for v in [
        "+85261234567",
        "+85298765432",
        "89852000263512345678",
        "42",
        "1",
    ] {
        assert!(has(first, v), "{v}");
    }
    assert!(unix_times(first).contains(&1_700_000_000));
    assert!(unix_times(first).contains(&1_702_592_000));
    assert!(first.interpretation.contains("not trashed"));
    assert!(first.interpretation.contains("Voicemail/1.amr"));
    assert!(has(first, "/private/var/mobile/Library/Voicemail/1.amr"));
    assert!(trashed_no_audio(&vms));
    let trashed = vms
        .iter()
        .find(|p| p.title.starts_with("Voicemail 2 "))
        .unwrap();
    assert!(unix_times(trashed).contains(&(721_700_000 + 978_307_200)));
    let deleted = vms.iter().find(|p| p.title.contains("(deleted)")).unwrap();
    assert!(has(deleted, "+85265550000"));
    assert!(deleted.interpretation.contains("deleted table"));

    let ids = o.identities();
    assert!(ids.contains(&("owner".into(), "phone".into(), "+85298765432".into())));
    assert!(ids.contains(&(
        "device".into(),
        "iccid".into(),
        "89852000263512345678".into()
    )));
    assert!(ids.contains(&(
        "handle:+85261234567".into(),
        "phone".into(),
        "+85261234567".into()
    )));
    // A US number written nationally is read with the source's region (Hong Kong here): it
    // is no valid Hong Kong number, so no identity is made of it.
    assert!(!ids.iter().any(|(_, _, v)| v.contains("2125550100")));

    // A copy cut short and one of a foreign schema are noted, and the rest is still read.
    let bytes = std::fs::read(&db).unwrap();
    std::fs::write(&db, &bytes[..bytes.len() / 3]).unwrap();
    let club = tmp
        .path()
        .join("private/var/mobile/Containers/Data/Application/A/Library/Preferences");
    std::fs::create_dir_all(&club).unwrap();
    std::fs::write(
        club.join("co.alphaexploration.clubhouse.plist"),
        b"bplist00 cut",
    )
    .unwrap();
    let st = std::process::Command::new("unzip")
        .args(["-q", "-j", "-o"])
        .arg(ileapp("testdata.groupMe.groupMeAccount.josh_ios17_ffs.zip"))
        .arg("-d")
        .arg(&club)
        .status()
        .unwrap();
    assert!(st.success());
    let o = triage(tmp.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    let noted = |suffix: &str| o.noted(suffix);
    let r = noted("/voicemail.db");
    assert!(
        r.contains("malformed") || r.contains("not a database"),
        "{r}"
    );
    assert!(noted("/co.alphaexploration.clubhouse.plist").contains("plist"));
    assert!(
        o.category("accounts")
            .iter()
            .any(|p| p.title.starts_with("GroupMe")),
        "the good plist beside them is still read"
    );

    let foreign = tempfile::tempdir().unwrap();
    let dir = foreign.path().join("private/var/mobile/Library/Voicemail");
    std::fs::create_dir_all(&dir).unwrap();
    sqlite3(
        &dir.join("voicemail.db"),
        "CREATE TABLE voicemail (id INTEGER PRIMARY KEY, who TEXT); INSERT INTO voicemail VALUES (1, 'x');",
    );
    let o = triage(foreign.path(), "Asia/Hong_Kong");
    let r = o
        .unparsed
        .iter()
        .find(|u| u.artefact.ends_with("/voicemail.db"))
        .map(|u| u.reason.clone())
        .unwrap_or_default();
    assert!(r.contains("lacks ROWID") || r.contains("lacks date"), "{r}");
}
