//! ROMEO (PlanetRomeo) on Android (`android::romeo`): Jan's phone and Tom's, who chat on ROMEO.
//! No public copy of the app's stores is in the corpus, so `planetromeo-room.db` and
//! `accounts.db` are written by Python's `sqlite3` with the tables and columns ALEAPP's three
//! `romeo_dating` artefacts read: Jan's with image attachments and a message whose partner has
//! no row (ALEAPP's inner join drops it), Tom's of an older schema (no attachments table, no
//! weight or height). ALEAPP's queries (by the sqlite3 CLI; its inner joins made left joins,
//! its words for flags aside) are the oracle; each phone's user resolves as the other's chat
//! partner by `romeo:<profile id>`; ROMEO's `accounts.db` is not taken for Android's own.

use std::path::Path;

use crate::android_support::{rows_in, triage};

/// argv: Jan's databases folder, Tom's.
const WRITE: &str = r#"
import json, os, sqlite3, sys
jan, tom = sys.argv[1:3]
JAN, TOM = "81234", "97531"
def room(path, older, me, other, other_name):
    db = sqlite3.connect(path)
    wh = "" if older else ", weight INTEGER, height INTEGER"
    db.executescript(f"""
CREATE TABLE MessageEntity (messageId TEXT PRIMARY KEY, chatPartnerId TEXT, date INTEGER, text TEXT, transmissionStatus TEXT, saved INTEGER, unread INTEGER);
CREATE TABLE ChatPartnerEntity (profileId TEXT PRIMARY KEY, name TEXT, headline TEXT, age INTEGER, locationName TEXT, country TEXT, isDeactivated INTEGER, isBLocked INTEGER, fetchDate INTEGER, deletionDate INTEGER{wh});
CREATE TABLE ContactEntity (userId TEXT PRIMARY KEY, contactNote TEXT, linkStatus TEXT);
""")
    if not older:
        db.execute("CREATE TABLE ImageAttachmentEntity (imageId TEXT PRIMARY KEY, parentMessageId TEXT)")
        db.execute(f"INSERT INTO ChatPartnerEntity VALUES (?, ?, 'Cyclist, Hamburg', 34, 'Hamburg', 'DE', 0, 0, 1717000000000, NULL, 78, 182)", (other, other_name))
        db.execute("INSERT INTO ImageAttachmentEntity VALUES ('img-1', 'm2')")
        db.execute("INSERT INTO ImageAttachmentEntity VALUES ('img-2', 'm2')")
    else:
        db.execute(f"INSERT INTO ChatPartnerEntity VALUES (?, ?, 'Berlin nights', 29, 'Berlin', 'DE', 0, 0, 1717000000000, NULL)", (other, other_name))
    db.execute("INSERT INTO ContactEntity VALUES (?, 'met at CSD', 'FRIEND')", (other,))
    db.execute("INSERT INTO MessageEntity VALUES ('m1', ?, 1717100000000, 'Send 0x52908400098527886E0F7030069857D2E4169EE7 the deposit', 'SENT', 0, 0)", (other,))
    db.execute("INSERT INTO MessageEntity VALUES ('m2', ?, 1717100060000, 'Photos from the ride', 'RECEIVED', 1, 1)", (other,))
    if not older:
        db.execute("INSERT INTO MessageEntity VALUES ('m3', '55555', 1717100120000, 'Hi there', 'RECEIVED', 0, 1)")
    db.commit()
def accounts(path, me, user, email):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE accounts (_id TEXT PRIMARY KEY, username TEXT, email TEXT, location TEXT, profile TEXT, session TEXT)")
    db.execute("INSERT INTO accounts VALUES (?, ?, ?, ?, ?, 'SESSIONSECRET')", (me, user, email,
        json.dumps({"name": "Hamburg", "lat": 53.5511, "long": 9.9937, "address": {"address": "Reeperbahn 1"}}),
        json.dumps({"headline": "Hi", "creation_date": "2019-04-01T10:00:00Z", "last_login": "2024-06-01T08:00:00Z", "personal": {"profile_text": "Bikes.", "age": 34, "birthdate": "1990-02-03"}})))
    db.commit()
room(os.path.join(jan, "planetromeo-room.db"), False, JAN, TOM, "tom_b")
accounts(os.path.join(jan, "accounts.db"), JAN, "jan_h", "jan.h@web.de")
room(os.path.join(tom, "planetromeo-room.db"), True, TOM, JAN, "jan_h")
accounts(os.path.join(tom, "accounts.db"), TOM, "tom_b", "tom.b@gmx.de")
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn romeo_on_two_android_phones_of_two_schemas() {
    let tmp = tempfile::tempdir().unwrap();
    let (jan, tom) = (tmp.path().join("jan"), tmp.path().join("tom"));
    let dbs = |root: &Path| root.join("data/data/com.planetromeo.android.app/databases");
    for r in [&jan, &tom] {
        std::fs::create_dir_all(dbs(r)).unwrap();
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&dbs(&jan)), s(&dbs(&tom))])
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[
        ("jan", &jan, "Europe/Berlin", Some("DE")),
        ("tom", &tom, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (who, root, messages) in [("jan", &jan, 3), ("tom", &tom, 2)] {
        let all = run.all_phenomena(who);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let room = dbs(root).join("planetromeo-room.db");
        let of = |prefix: &str| -> Vec<&masf_graph::Phenomenon> {
            all.iter().filter(|p| p.title.starts_with(prefix)).collect()
        };
        assert_eq!(
            rows_in(
                &of("ROMEO message"),
                &room,
                "SELECT me.messageId, me.date, me.chatPartnerId, cpe.name, me.text, me.transmissionStatus, me.saved, me.unread FROM MessageEntity me LEFT JOIN ChatPartnerEntity cpe ON cpe.profileId = me.chatPartnerId",
                0,
                ""
            ),
            messages,
            "{who}"
        );
        assert_eq!(of("ROMEO message").len(), messages);
        let weight = if who == "jan" {
            "cpe.weight, cpe.height,"
        } else {
            ""
        };
        assert_eq!(
            rows_in(
                &of("ROMEO contact"),
                &room,
                &format!(
                    "SELECT ce.userId, cpe.fetchDate, cpe.name, cpe.headline, ce.contactNote, ce.linkStatus, cpe.age, {weight} cpe.locationName, cpe.country, cpe.isDeactivated, cpe.isBLocked FROM ContactEntity ce INNER JOIN ChatPartnerEntity cpe ON ce.userID = cpe.profileId"
                ),
                0,
                ""
            ),
            1,
            "{who}"
        );
        assert_eq!(
            rows_in(
                &of("ROMEO account"),
                &dbs(root).join("accounts.db"),
                "SELECT _id, username, email, json_extract(location, '$.address.address'), json_extract(location, '$.name'), json_extract(location, '$.lat'), json_extract(location, '$.long'), json_extract(profile, '$.headline'), json_extract(profile, '$.personal.profile_text'), json_extract(profile, '$.creation_date'), json_extract(profile, '$.last_login'), json_extract(profile, '$.personal.age'), json_extract(profile, '$.personal.birthdate') FROM accounts",
                0,
                ""
            ),
            1,
            "{who}"
        );
        // the session never copied; ROMEO's accounts.db not read as Android's
        assert!(!all.iter().any(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("SESSIONSECRET"))
        }));
        assert!(
            !run.unparsed(who)
                .iter()
                .any(|u| u.artefact.ends_with("accounts.db")),
            "{:#?}",
            run.unparsed(who)
        );
    }
    // the images attached, counted
    let jall = run.all_phenomena("jan");
    let photos = jall
        .iter()
        .find(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value == "Photos from the ride")
        })
        .unwrap();
    assert!(
        photos.interpretation.contains("images attached 2"),
        "{photos:#?}"
    );
    assert!(
        run.identifiers("jan")
            .iter()
            .any(|(t, v)| t == "account_id" && v == "romeo:55555")
    );
    let owner = run.owner("jan").to_lowercase();
    for id in ["account_id=romeo:81234", "email=jan.h@web.de"] {
        assert!(owner.contains(id), "{id} in {owner}");
    }
    // who is who: each phone's user is the other's chat partner
    let with = crate::who::resolved(&run);
    assert!(
        with("jan/owner").contains(&"tom/romeo:81234".to_string()),
        "{:#?}",
        with("jan/owner")
    );
    assert!(
        with("tom/owner").contains(&"jan/romeo:97531".to_string()),
        "{:#?}",
        with("tom/owner")
    );
}
