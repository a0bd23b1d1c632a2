//! Tinder on Android (`android::tinder`) and iOS (`ios::tinder`): Dana's Android phone and Ravi's
//! iPhone, matched with each other (`tests/fixtures/tinder/`: the sqlite3 CLI, `protoc
//! --encode` for the Android protobuf columns, Python's plistlib for the iPhone's preferences).
//! Every row and field of ALEAPP's message, match and inbox queries and iLEAPP's message,
//! match, recommendation and account queries (run by the sqlite3 CLI; ALEAPP's
//! `raw_message_data` reading as `json_extract`, its protobuf values as generate.sh encoded
//! them, and its tinderAccount's DataStore fields as generate.sh encoded them) is found; each
//! phone's user is found (Android: the one sender of messages sent to matches, and the
//! DataStore files' e-mail, phone and name; iOS: the current user and the preferences' e-mail
//! and phone) and the two phones'
//! users resolve across platforms by Tinder user id. Beside them a truncated copy and a store
//! of another layout (noted), and another app's `tinder-3.db` (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{check, copy_fixture, triage};

const DANA: &str = "5f1e2d3c4b5a69788796a5b4";
const RAVI: &str = "60a1b2c3d4e5f60718293a4b";

/// ALEAPP's tinderMessages (its direction and sender name derived; its raw_message_data
/// reading as json_extract).
const A_MESSAGES: &str = "SELECT message.sent_date, match.person_id, match_person.name, message.from_id, message.to_id, message.text, message.type, message.delivery_status, message.is_liked, message.is_seen, message.id, message.match_id, json_extract(message.raw_message_data, '$.type'), json_extract(message.raw_message_data, '$.gif_description') FROM message LEFT JOIN `match` ON message.match_id = `match`.id LEFT JOIN match_person ON `match`.person_id = match_person.id ORDER BY message.sent_date";
/// ALEAPP's tinderMatches without its protobuf columns (checked by value below).
const A_MATCHES: &str = "SELECT `match`.creation_date, `match`.last_activity_date, match_person.name, match_person.bio, match_person.birth_date, match_person.membership_status, `match`.is_blocked, `match`.is_muted, `match`.type, `match`.attribution, `match`.person_id, `match`.id FROM `match` LEFT JOIN match_person ON `match`.person_id = match_person.id ORDER BY `match`.creation_date";
const A_INBOX: &str = "SELECT sent_date, body, type, seen, campaign_id, experiment_name, variant_name, message_id, segment_id FROM inbox_message ORDER BY sent_date";
const I_MESSAGES: &str = "SELECT MESSAGE.ZCREATED, MESSAGE.ZCLIENTCREATED, MESSAGE.ZFROMUSERID, SENDER.ZFIRSTNAME AS SENDER_NAME, MESSAGE.ZTEXT, MESSAGE.ZTYPE, MESSAGE.ZSUBTYPE, MESSAGE.ZLIKED, MESSAGE.ZVIEWED, MESSAGE.ZISHIDDEN, MESSAGE.ZMEDIAURL, MESSAGE.ZPHOTOURL, MESSAGE.ZLOCALIMAGEURL, MESSAGE.ZLINKURL, MESSAGE.ZMESSAGEID, MATCH.ZMATCHID, OTHER.ZFIRSTNAME AS MATCH_NAME FROM ZMESSAGE MESSAGE LEFT JOIN ZUSER SENDER ON MESSAGE.ZFROMUSERID = SENDER.ZUSERID LEFT JOIN ZMATCH MATCH ON MESSAGE.ZMATCH = MATCH.Z_PK LEFT JOIN ZUSER OTHER ON MATCH.ZUSER = OTHER.Z_PK ORDER BY MESSAGE.ZCREATED";
const I_MATCHES: &str = "SELECT MATCH.ZCREATED, MATCH.ZLASTACTIVITY, MATCH.ZEXPIRATIONDATE, MATCH.ZTOUCHED, USER.ZFIRSTNAME, USER.ZUSERID, USER.ZBIO, USER.ZCITYNAME, USER.ZBIRTHDATE, USER.ZGENDER, USER.ZDISTANCEMILES, MATCH.ZSERVERMESSAGECOUNT, MATCH.ZISSUPERLIKEMATCH, MATCH.ZISFASTMATCH, MATCH.ZISBOOSTMATCH, MATCH.ZISTOPPICKSMATCH, MATCH.ZISEXPIRED, MATCH.ZMATCHSEEN, MATCH.ZVIEWED, MATCH.ZFOLLOWING, MATCH.ZSUBSCRIPTIONTIER, MATCH.ZMESSAGEDRAFT, MATCH.ZMATCHID FROM ZMATCH MATCH LEFT JOIN ZUSER USER ON MATCH.ZUSER = USER.Z_PK ORDER BY MATCH.ZCREATED";
const I_RECS: &str = "SELECT USER.ZBIRTHDATE, USER.ZFIRSTNAME, USER.ZUSERID, USER.ZBIO, USER.ZCITYNAME, USER.ZUSERLOCATIONNAME, USER.ZDISTANCEMILES, USER.ZGENDER, USER.ZCUSTOMGENDER, USER.ZVERIFIED, USER.ZLIKED, USER.ZSUPERLIKED, USER.ZINSTAGRAMNAME, USER.ZPUBLICUSERNAME, SCHOOL.ZNAME AS SCHOOL_NAME, REC.ZRECTYPE, REC.ZRECSOURCE, REC.ZSUBSOURCE, REC.ZISNEW, REC.ZDIDREWIND, REC.ZSWIPENOTE, REC.ZEXPIRATIONDATE, REC.ZRECOMMENDATIONID FROM ZRECOMMENDATION REC LEFT JOIN ZUSER USER ON REC.ZUSER = USER.Z_PK LEFT JOIN ZSCHOOL SCHOOL ON USER.ZSCHOOL = SCHOOL.Z_PK ORDER BY REC.Z_PK";
const I_ACCOUNT: &str = "SELECT ZUSERID, ZFIRSTNAME, ZBIRTHDATE, ZGENDER, ZBIO, ZCITYNAME, ZPUBLICUSERNAME, ZINSTAGRAMNAME, ZSNUMBER FROM ZUSER WHERE ZISCURRENTUSER = 1";

#[test]
fn tinder_on_an_android_phone_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let phone = tmp.path().join("dana-android");
    let rel = "com.tinder/databases/tinder-3.db";
    let adb = phone.join("data/data").join(rel);
    copy_fixture(&adb, "tinder/tinder-3.db");
    crate::android_support::damaged_copies(
        &phone,
        rel,
        "CREATE TABLE message (id TEXT, text TEXT); INSERT INTO message VALUES ('1', 'x');",
    );
    for f in ["account", "accountinfo", "id", "user"] {
        copy_fixture(
            &phone.join(format!("data/data/com.tinder/files/datastore/{f}")),
            &format!("tinder/datastore/{f}"),
        );
    }
    let other = phone.join("data/data/com.example.dating/databases/tinder-3.db");
    copy_fixture(&other, "tinder/tinder-3.db");
    std::fs::create_dir_all(phone.join("data/system/users/0")).unwrap();

    let iphone = tmp.path().join("ravi-iphone");
    let app = iphone.join(
        "private/var/mobile/Containers/Data/Application/8E7D6C5B-4A39-4281-9F0E-1D2C3B4A5968",
    );
    let idb = app.join("Library/Application Support/Tinder/Tinder2.sqlite");
    copy_fixture(&idb, "tinder/Tinder2.sqlite");
    copy_fixture(
        &app.join("Library/Preferences/com.cardify.tinder.plist"),
        "tinder/com.cardify.tinder.plist",
    );
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("dana-android", &phone, "Europe/London", Some("GB")),
        ("ravi-iphone", &iphone, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let a = run.all_phenomena("dana-android");
    let i = run.all_phenomena("ravi-iphone");
    for p in a.iter().chain(&i) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(check(&a, "Tinder message", &adb, A_MESSAGES, 10), 3);
    assert_eq!(check(&a, "Tinder match with", &adb, A_MATCHES, 11), 2);
    assert_eq!(check(&a, "Tinder inbox message", &adb, A_INBOX, 7), 1);
    assert_eq!(check(&i, "Tinder message", &idb, I_MESSAGES, 14), 2);
    assert_eq!(check(&i, "Tinder match with", &idb, I_MATCHES, 22), 1);
    assert_eq!(check(&i, "Tinder recommended profile", &idb, I_RECS, 22), 1);
    assert_eq!(
        check(&i, &format!("Tinder account {RAVI}"), &idb, I_ACCOUNT, 0),
        1
    );
    let has = |p: &Phenomenon, v: &str| p.verified_facts.iter().any(|f| f.value == v);
    // the protobuf columns as generate.sh encoded them (gender, photo URLs)
    let ravi = a
        .iter()
        .find(|p| p.title == "Tinder match with Ravi")
        .expect("the match with Ravi");
    for v in [
        "0",
        "https://images-ssl.gotinder.example/60a1b2c3d4e5f60718293a4b/original_1.jpeg",
        "https://images-ssl.gotinder.example/60a1b2c3d4e5f60718293a4b/original_2.jpeg",
    ] {
        assert!(has(ravi, v), "{v} in {ravi:#?}");
    }
    // ALEAPP's tinderAccount from the DataStore files (the values generate.sh encoded)
    let account = a
        .iter()
        .find(|p| p.title == "Tinder account (DataStore files)")
        .expect("the DataStore account");
    for v in [
        "dana.whitfield@example.org",
        "+447700900123",
        DANA,
        "Dana",
        "567993600000",
        "Numbers person",
        "gen_1",
        "Woman",
        "str",
        "Straight",
        "Accountant",
        "Contoso Freight",
        "University of Example",
        "London",
        "England",
        "https://images-ssl.gotinder.example/5f1e2d3c4b5a69788796a5b4/original_1.jpeg",
        "1650000000000",
        "1701345600000",
    ] {
        assert!(has(account, v), "{v} in {account:#?}");
    }
    let downer = run.owner("dana-android");
    for v in [
        "email=dana.whitfield@example.org",
        "phone=+447700900123",
        "display_name=dana",
    ] {
        assert!(downer.contains(v), "{v} in {downer}");
    }
    // the preferences (iLEAPP's account columns from the plist)
    let prefs = i
        .iter()
        .find(|p| p.title == "Tinder account preferences")
        .expect("the preferences");
    for v in ["ravi.menon.personal@example.com", "+447700900812"] {
        assert!(has(prefs, v), "{v} in {prefs:#?}");
    }
    assert_eq!(
        a.iter()
            .filter(|p| p.title == "Tinder message sent to Ravi")
            .count(),
        1
    );
    assert!(i.iter().any(|p| p.title == "Tinder message sent to Dana"));
    let owner = run.owner("ravi-iphone");
    for v in [
        format!("account_id=tinder:{RAVI}"),
        "email=ravi.menon.personal@example.com".into(),
        "phone=+447700900812".into(),
    ] {
        assert!(owner.contains(&v), "{v} in {owner}");
    }
    assert!(
        run.owner("dana-android")
            .contains(&format!("account_id=tinder:{DANA}"))
            && run
                .owner("dana-android")
                .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{}",
        run.owner("dana-android")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("dana-android/owner", format!("ravi-iphone/tinder:{DANA}")),
        ("ravi-iphone/owner", format!("dana-android/tinder:{RAVI}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    assert!(
        !a.iter().any(|p| p.title.starts_with("Tinder ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.dating"))),
        "another app's store was read"
    );
    run.assert_noted(
        "dana-android",
        &[
            ("user/10/com.tinder/databases/tinder-3.db", "malformed"),
            (
                "user/11/com.tinder/databases/tinder-3.db",
                "table message lacks sent_date, from_id",
            ),
        ],
    );
}
