//! WhatsApp for Android (`android::whatsapp`) on two phones built with the sqlite3 CLI from the
//! committed SQL of `tests/fixtures/whatsapp-android` (WhatsApp's own tables and columns; the
//! rows invented): phone A with the 2021-on `msgstore.db`, its `wa.db` and the account's
//! preferences; phone B, the other party, with the layout before 2021. Every field ALEAPP's
//! `WhatsApp` module reports is checked (contacts; one-to-one and group messages with media,
//! location, live location; calls; group details with the creator; the user profile), then
//! the documented failures, then who is who across both phones.

use std::path::Path;

use crate::android_support::{Run, sqlite_fixture, triage};

const APP: &str = "data/data/com.whatsapp";

fn phone(root: &Path, store: &str, with_wa: bool, prefs: Option<&str>) {
    sqlite_fixture(
        &root.join(APP).join("databases/msgstore.db"),
        &format!("whatsapp-android/{store}"),
        "SELECT 1;",
    );
    if with_wa {
        sqlite_fixture(
            &root.join(APP).join("databases/wa.db"),
            "whatsapp-android/wa.sql",
            "SELECT 1;",
        );
    }
    if let Some(xml) = prefs {
        let p = root
            .join(APP)
            .join("shared_prefs/com.whatsapp_preferences_light.xml");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, xml).unwrap();
    }
    std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(root.join("data/user/0/com.android.providers.telephony")).unwrap();
}

const PREFS_A: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<map>
    <string name="push_name">Mia</string>
    <string name="my_current_status">Hey there! I am using WhatsApp.</string>
    <string name="version">2.24.9.78</string>
    <string name="cc">852</string>
    <string name="ph">51234567</string>
    <int name="reg_state" value="3" />
</map>
"#;

fn titles(run: &Run, source: &str, start: &str) -> Vec<String> {
    let mut t: Vec<String> = run
        .all_phenomena(source)
        .into_iter()
        .filter(|p| p.title.starts_with(start))
        .map(|p| p.title)
        .collect();
    t.sort();
    t
}

fn find(run: &Run, source: &str, title: &str) -> masf_graph::Phenomenon {
    run.all_phenomena(source)
        .into_iter()
        .find(|p| p.title == title)
        .unwrap_or_else(|| panic!("{title}: {:#?}", titles(run, source, "")))
}

fn values(p: &masf_graph::Phenomenon) -> Vec<String> {
    p.verified_facts.iter().map(|f| f.value.clone()).collect()
}

fn has_all(p: &masf_graph::Phenomenon, want: &[&str]) {
    let v = values(p);
    for w in want {
        assert!(v.iter().any(|x| x == w), "{}: {w} not in {v:#?}", p.title);
    }
}

#[test]
fn whatsapp_android_two_phones_two_layouts() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    phone(&a, "msgstore.sql", true, Some(PREFS_A));
    phone(&b, "msgstore_2019.sql", false, None);
    // newer stores name some group members by LID only, and map LIDs to phone JIDs (`jid_map`,
    // as WhatsApp creates it)
    crate::ios_nearby::sqlite3(
        &a.join(APP).join("databases/msgstore.db"),
        "CREATE TABLE jid_map (lid_row_id INTEGER PRIMARY KEY NOT NULL, jid_row_id INTEGER NOT NULL, sort_id INTEGER NOT NULL DEFAULT 0);
INSERT INTO jid (_id, user, server, agent, device, type, raw_string) VALUES (5, '187654321098765', 'lid', 0, 0, 17, '187654321098765@lid');
INSERT INTO group_participant_user (group_jid_row_id, user_jid_row_id, rank, pending) VALUES (3, 5, 0, 0);
INSERT INTO jid_map (lid_row_id, jid_row_id, sort_id) VALUES (5, 4, 0);",
    );
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for s in ["a", "b"] {
        assert_eq!(run.report(s).plugin.as_deref(), Some("android"));
        for p in run.all_phenomena(s) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let noted = run.unparsed(s);
        assert!(noted.is_empty(), "{s}: {noted:#?}");
    }

    // contacts (ALEAPP: name, JID, number) and more
    assert_eq!(
        titles(&run, "a", "WhatsApp contact "),
        [
            "WhatsApp contact Ka Yan Lee (85263334444@s.whatsapp.net)",
            "WhatsApp contact OTC desk (120363041234567890@g.us)",
            "WhatsApp contact Tai Man Chan (85291112222@s.whatsapp.net)",
        ]
    );
    let chan = find(
        &run,
        "a",
        "WhatsApp contact Tai Man Chan (85291112222@s.whatsapp.net)",
    );
    has_all(
        &chan,
        &[
            "85291112222@s.whatsapp.net",
            "+852 9111 2222",
            "Chan Tai Man",
            "TM Chan",
            "Fast OTC, HK",
            "1714000000000",
        ],
    );

    // one-to-one messages: text, picture with its file, live location
    let m1 = find(
        &run,
        "a",
        "WhatsApp message received from 85291112222@s.whatsapp.net",
    );
    has_all(
        &m1,
        &[
            "send the USDT to TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
            "1714600000000",
            "1714600001500",
        ],
    );
    assert!(
        m1.interpretation
            .contains("TM Chan (85291112222@s.whatsapp.net)")
    );
    assert!(m1.interpretation.contains("starred"));
    let sent = find(
        &run,
        "a",
        "WhatsApp message sent to 85291112222@s.whatsapp.net",
    );
    has_all(
        &sent,
        &[
            "Media/WhatsApp Images/Sent/IMG-20240501-WA0007.jpg",
            "183422",
            "image/jpeg",
            "receipt",
        ],
    );
    assert!(
        sent.interpretation
            .contains("a picture sent by the device's user")
    );
    let live = run
        .all_phenomena("a")
        .into_iter()
        .find(|p| p.interpretation.contains("a live location"))
        .expect("live location");
    has_all(
        &live,
        &[
            "22.2819",
            "114.1582",
            "IFC Mall",
            "8 Finance Street, Central",
            "https://maps.example.org/ifc",
            "900",
            "22.2855",
            "114.1577",
            "1714601100000",
        ],
    );
    // group messages: the writer of a received one, the quoted message of a reply
    let g = find(
        &run,
        "a",
        "WhatsApp message received in group OTC desk (120363041234567890@g.us) from 85263334444@s.whatsapp.net",
    );
    has_all(&g, &["OTC desk", "85263334444@s.whatsapp.net"]);
    let reply = find(
        &run,
        "a",
        "WhatsApp message sent to group OTC desk (120363041234567890@g.us)",
    );
    has_all(&reply, &["3EB0C1A2B6", "ok, noted"]);
    assert!(reply.interpretation.contains("quoting message 3EB0C1A2B6"));

    // calls
    let call = find(
        &run,
        "a",
        "WhatsApp voice call to 85291112222@s.whatsapp.net",
    );
    has_all(
        &call,
        &["184", "512000", "CALL0A1B2C3D4E5F", "1714602000000"],
    );
    let group_call = find(
        &run,
        "a",
        "WhatsApp video call from 85263334444@s.whatsapp.net",
    );
    has_all(&group_call, &["OTC desk", "120363041234567890@g.us"]);

    // group details: creator from wa.db, participants with their rank
    let group = find(
        &run,
        "a",
        "WhatsApp group OTC desk (120363041234567890@g.us)",
    );
    has_all(
        &group,
        &[
            "1714500000000",
            "85291112222@s.whatsapp.net",
            "85263334444@s.whatsapp.net",
        ],
    );
    assert!(
        group
            .interpretation
            .contains("created by TM Chan (85291112222@s.whatsapp.net)"),
        "{}",
        group.interpretation
    );
    assert!(
        group
            .interpretation
            .contains("TM Chan (85291112222@s.whatsapp.net) (creator)")
    );

    let map = find(
        &run,
        "a",
        "WhatsApp LID 187654321098765@lid is 85263334444@s.whatsapp.net",
    );
    has_all(&map, &["187654321098765@lid", "85263334444@s.whatsapp.net"]);

    // the user profile
    let me = find(&run, "a", "WhatsApp account Mia");
    has_all(&me, &["Mia", "852", "51234567", "2.24.9.78"]);
    let owner = run.owner("a");
    assert!(owner.contains("phone=+85251234567"), "{owner}");
    assert!(
        owner.contains("display_name=mia") || owner.contains("display_name=Mia"),
        "{owner}"
    );

    // phone B, the older layout: the placeholder row is no message; the group's sender kept
    assert_eq!(
        titles(&run, "b", "WhatsApp message"),
        [
            "WhatsApp message received from 85251234567@s.whatsapp.net",
            "WhatsApp message received in 120363041234567890@g.us from 85263334444@s.whatsapp.net",
            "WhatsApp message sent to 85251234567@s.whatsapp.net",
        ]
    );
    let pic = find(
        &run,
        "b",
        "WhatsApp message received from 85251234567@s.whatsapp.net",
    );
    has_all(
        &pic,
        &[
            "https://mmg.whatsapp.net/d/f/AbCdEf.enc",
            "image/jpeg",
            "183422",
            "IMG-20240501-WA0003.jpg",
        ],
    );
    let bg = find(
        &run,
        "b",
        "WhatsApp group OTC desk (120363041234567890@g.us)",
    );
    assert!(
        bg.interpretation
            .contains("85251234567@s.whatsapp.net (admin)"),
        "{}",
        bg.interpretation
    );

    // who is who: phone A's user is the contact phone B chats with; Lee is one person on both
    crate::who::resolve(&run);
    let state = run.session.state().unwrap();
    let actors = masf_graph::resolution::actors(&state);
    let actor_of = |source: &str, context: &str| {
        actors
            .iter()
            .position(|a| {
                a.entities.iter().any(|e| {
                    let e = &state.entities()[e];
                    e.source_id == source && e.context == context
                })
            })
            .unwrap_or_else(|| panic!("{source}/{context}"))
    };
    assert_eq!(
        actor_of("a", "owner"),
        actor_of("b", "handle:85251234567@s.whatsapp.net")
    );
    assert_eq!(
        actor_of("a", "handle:85263334444@s.whatsapp.net"),
        actor_of("b", "handle:85263334444@s.whatsapp.net")
    );
    // the member phone A knows by LID only is Lee, whom phone B knows by number
    assert_eq!(
        actor_of("a", "handle:187654321098765@lid"),
        actor_of("b", "handle:85263334444@s.whatsapp.net")
    );
}

/// A truncated store, one without the tables a layout needs, and a wa.db without wa_contacts:
/// each noted with its reason; the rest of the source is read.
#[test]
fn whatsapp_android_damaged_stores_are_noted() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    phone(&a, "msgstore.sql", true, None);
    let db = a.join(APP).join("databases/msgstore.db");
    let bytes = std::fs::read(&db).unwrap();
    std::fs::write(&db, &bytes[..bytes.len() / 3]).unwrap();
    let wa = a.join(APP).join("databases/wa.db");
    std::fs::remove_file(&wa).unwrap();
    sqlite_fixture(&wa, "whatsapp-android/wa.sql", "DROP TABLE wa_contacts;");
    // a second store in a backup folder: no known table
    let other = a.join("data/media/0/WhatsApp/Databases/msgstore.db");
    sqlite_fixture(&other, "whatsapp-android/wa.sql", "SELECT 1;");
    let run = triage(&[("a", &a, "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let noted: Vec<String> = run
        .unparsed("a")
        .into_iter()
        .map(|u| format!("{}: {}", u.artefact, u.reason))
        .collect();
    assert!(
        noted
            .iter()
            .any(|n| n.starts_with("/data/data/com.whatsapp/databases/msgstore.db: ")),
        "{noted:#?}"
    );
    assert!(
        noted.iter().any(
            |n| n.starts_with("/data/data/com.whatsapp/databases/wa.db: ")
                && n.contains("wa_contacts")
        ),
        "{noted:#?}"
    );
    assert!(
        noted.iter().any(
            |n| n.starts_with("/data/media/0/WhatsApp/Databases/msgstore.db: ")
                && n.contains(
                    "neither the message, chat and jid tables nor the older messages table"
                )
        ),
        "{noted:#?}"
    );
}
