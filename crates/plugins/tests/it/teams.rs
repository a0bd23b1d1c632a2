//! Microsoft Teams on Android (`android::teams`): one phone's `SkypeTeams.db`
//! (`tests/fixtures/teams/`, built by the sqlite3 CLI with the tables and columns ALEAPP's teams
//! module queries and the MRIs Teams keeps beside them) and another's of an older layout (no
//! sender MRI, no user MRI, no activity feed or files). Every row and field of ALEAPP's five
//! queries (run here by the CLI) is found; the users resolve across the phones by MRI and
//! e-mail. Beside them a truncated copy, a store of another layout (noted) and another app's
//! `SkypeTeams.db` (passed over).
//!
//! On iOS (`ios::teams`): an iPhone's store written by Python's sqlite3 and plistlib with the
//! tables and columns iLEAPP's teams module queries (call logs and location cards as archived
//! dictionaries of JSON text) and another iPhone's of an older layout, beside an Android phone;
//! every field of iLEAPP's five artefacts is found (its queries run by the sqlite3 CLI, its
//! property reading by Python) and the users resolve across the three phones by MRI.

use masf_graph::Phenomenon;

use crate::android_support::{check, sqlite_fixture, triage};

/// ALEAPP's get_teams (a delete time of 0 prints empty there: no time).
const MESSAGES: &str = "SELECT arrivalTime, userDisplayName, content, displayName, NULLIF(deleteTime, 0), Message.conversationId, messageId FROM Message left join Conversation on Message.conversationId = Conversation.conversationId ORDER BY Message.conversationId, arrivalTime";
/// ALEAPP's get_teams_users.
const USERS: &str = "SELECT lastSyncTime, givenName, surname, displayName, email, secondaryEmail, alternativeEmail, telephoneNumber, homeNumber, accountEnabled, type, userType, isSkypeTeamsUser, isPrivateChatEnabled from User";
/// ALEAPP's get_teams_calllog, its inner join on User made a left join: ALEAPP drops a call
/// whose target Teams has not cached as a user (the missed call below), read here too. A time
/// of 0 prints empty there.
const CALLS: &str = "SELECT NULLIF(json_extract(attributeValue, '$.connectTimeMillis'), 0), NULLIF(json_extract(attributeValue, '$.endTimeMillis'), 0), json_extract(attributeValue, '$.callState'), json_extract(attributeValue, '$.callType'), json_extract(attributeValue, '$.originatorDisplayName'), json_extract(attributeValue, '$.callDirection'), User.givenName, json_extract(attributeValue, '$.sessionType'), json_extract(attributeValue, '$.originator') from MessagePropertyAttribute left join User on json_extract(attributeValue, '$.target') = User.mri where propertyId = 'CallLog'";
/// ALEAPP's get_teams_activity.
const ACTIVITY: &str = "SELECT activityTimestamp, sourceUserImDisplayName, messagePreview, activityType, activitySubtype, isRead FROM ActivityFeed";
/// ALEAPP's get_teams_fileinfo (its 'T' → ' ' is display only).
const FILES: &str =
    "SELECT lastModifiedTime, fileName, type, objectUrl, isFolder, lastModifiedBy FROM FileInfo";

#[test]
fn teams_messages_users_calls_activity_and_files_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let rel = "com.microsoft.teams/databases/SkypeTeams.db";
    let db = a.join("data/data").join(rel);
    sqlite_fixture(&db, "teams/SkypeTeams.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &a,
        rel,
        "CREATE TABLE Message (messageId TEXT, content TEXT); INSERT INTO Message VALUES ('1', 'x');",
    );
    let other = a.join("data/data/com.example.skypeclone/databases/SkypeTeams.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&db, &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();

    // an older layout: no sender or user MRI, no activity feed, no file references
    let b = tmp.path().join("b");
    let bdb = b.join("data/data").join(rel);
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE Message (messageId TEXT, conversationId TEXT, arrivalTime INTEGER, userDisplayName TEXT, content TEXT); \
         CREATE TABLE User (givenName TEXT, surname TEXT, displayName TEXT, email TEXT, telephoneNumber TEXT); \
         INSERT INTO User VALUES ('Dana', 'Whitfield', 'Dana Whitfield', 'dana.whitfield@contoso-freight.example', '+44 20 7946 0321'); \
         INSERT INTO Message VALUES ('1701500000000', '19:abc@thread.v2', 1701500000000, 'Dana Whitfield', 'see you at the depot');",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(check(&all, "Teams message from", &db, MESSAGES, 6), 4);
    assert_eq!(check(&all, "Teams user ", &db, USERS, 4), 3);
    assert_eq!(check(&all, "Teams call from", &db, CALLS, 8), 2);
    assert_eq!(check(&all, "Teams activity", &db, ACTIVITY, 0), 2);
    assert_eq!(check(&all, "Teams file ", &db, FILES, 3), 2);
    // the sender's MRI is read beside ALEAPP's fields; a deleted message says so
    let deleted = all
        .iter()
        .find(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value == "delete this chat after reading")
        })
        .expect("the deleted message");
    assert!(deleted.interpretation.contains("deleted (deleteTime set)"));
    assert!(
        deleted
            .verified_facts
            .iter()
            .any(|f| f.value == "8:orgid:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34")
    );
    // the naive file time is a local time, the zoned one ISO 8601
    let times: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Teams file "))
        .flat_map(|p| p.times.iter().map(|t| t.encoding))
        .collect();
    assert!(
        times.contains(&masf_graph::TimeEncoding::Iso8601),
        "{times:?}"
    );
    assert!(
        times.contains(&masf_graph::TimeEncoding::LocalText),
        "{times:?}"
    );

    let entities = run.entities("a");
    let dana = "teams:8:orgid:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34 [Person] Dana Whitfield:";
    assert!(
        entities.iter().any(|e| e.starts_with(dana)
            && e.contains("account_id=teams:8:orgid:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34")
            && e.contains("email=dana.whitfield@contoso-freight.example")
            && e.contains("email=dana.w@example.org")
            && e.contains("phone=+447700900812")),
        "{entities:#?}"
    );
    // the caller ALEAPP drops (no cached user) is a person by the call's MRI
    assert!(
        entities.iter().any(|e| e.starts_with(
            "teams:8:orgid:7a3e5c90-4d21-4f8b-b6e3-0c1d9f2a8e47 [Person] Unknown Caller:"
        )),
        "{entities:#?}"
    );
    let with = crate::who::resolved(&run);
    assert!(
        with("a/teams:8:orgid:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34")
            .iter()
            .any(|m| m == "b/teams:dana.whitfield@contoso-freight.example"),
        "{:#?}",
        with("a/teams:8:orgid:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34")
    );
    let ball = run.all_phenomena("b");
    assert_eq!(
        check(
            &ball,
            "Teams message from",
            &bdb,
            "SELECT arrivalTime, userDisplayName, content, conversationId, messageId FROM Message",
            4
        ),
        1
    );
    assert!(
        !all.iter().any(|p| p.title.starts_with("Teams ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.skypeclone"))),
        "another app's store was read"
    );
    run.assert_noted(
        "a",
        &[
            (
                "user/10/com.microsoft.teams/databases/SkypeTeams.db",
                "malformed",
            ),
            (
                "user/11/com.microsoft.teams/databases/SkypeTeams.db",
                "table Message lacks arrivalTime, conversationId",
            ),
        ],
    );
}

/// Writes Teams' iOS store at argv[1] with Python's sqlite3 and plistlib: the tables and
/// columns iLEAPP's teams module queries, the message properties as archived dictionaries
/// holding the call log and card JSON text (written as Apple's JSON writer writes it, `/`
/// escaped, non-ASCII kept).
const IOS_STORE: &str = r#"
import json, plistlib, sqlite3, sys
from plistlib import UID
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE ZSMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTS_ISSENTBYME INTEGER, ZARRIVALTIME TIMESTAMP, ZCOMPOSETIME TIMESTAMP,
  ZCONTENT VARCHAR, ZFROM VARCHAR, ZIMDISPLAYNAME VARCHAR, ZTHREADID VARCHAR, ZTHREADTYPE VARCHAR, ZTSID VARCHAR,
  ZTS_MESSAGEBASETYPE VARCHAR, ZTS_MESSAGECONTENTTYPE VARCHAR);
CREATE TABLE ZTHREAD (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTSID VARCHAR, ZTHREADTOPIC VARCHAR, ZLASTMESSAGETIME TIMESTAMP);
CREATE TABLE ZDEVICECONTACTHASH (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDISPLAYNAME VARCHAR, ZEMAIL VARCHAR, ZPHONENUMBER VARCHAR, ZHASH VARCHAR);
CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTS_LASTSYNCEDAT TIMESTAMP, ZDISPLAYNAME VARCHAR, ZTELEPHONENUMBER VARCHAR,
  ZMRI VARCHAR, ZEMAIL VARCHAR, ZUSERPRINCIPALNAME VARCHAR, ZGIVENNAME VARCHAR, ZSURNAME VARCHAR);
CREATE TABLE ZMESSAGEPROPERTIES (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTSID VARCHAR, ZPROPERTIES BLOB);
""")
DANA = '8:orgid:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34'
RAVI = '8:orgid:0b5d8e21-7c4a-4f93-a1e6-58c3d9f2b7a0'
MEETING = '19:meeting_NjE4ZTVk@thread.v2'
CHAT = '19:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34_0b5d8e21-7c4a-4f93-a1e6-58c3d9f2b7a0@unq.gbl.spaces'
def apple_json(v):
    return json.dumps(v, ensure_ascii=False, separators=(',', ':')).replace('/', '\\/')
def archive(d):
    keys = list(d)
    objects = ['$null', {'NS.keys': [UID(2 + i) for i in range(len(keys))],
                         'NS.objects': [UID(2 + len(keys) + i) for i in range(len(keys))],
                         '$class': UID(2 + 2 * len(keys))}]
    objects += keys + [d[k] for k in keys]
    objects.append({'$classname': 'NSMutableDictionary', '$classes': ['NSMutableDictionary', 'NSDictionary', 'NSObject']})
    return plistlib.dumps({'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(1)}, '$objects': objects}, fmt=plistlib.FMT_BINARY)
msgs = [
    (1, 1, 723035600.125, 723035599.5, '<div><p>Invoice 4471 is approved, pay to IBAN GB33BUKB20201555555555 today</p></div>', DANA, 'Dana Whitfield', MEETING, 'meeting', '1701342800125', 'RichText', 'Html'),
    (2, 0, 723035660.456, 723035660.0, '<div>Done. Sent 12,400.00 GBP</div>', RAVI, 'Ravi Menon', MEETING, 'meeting', '1701342860456', 'RichText', 'Html'),
    (3, 0, 723043600.0, 723043599.0, '<partlist type="started" alt=""><part identity="0b5d8e21"><name>Ravi Menon</name></part></partlist>', RAVI, 'Ravi Menon', CHAT, 'chat', 'call-1701350800', 'Event', 'Call'),
    (4, 0, 723047200.0, 723047199.0, '<div>Ravi Menon is sharing a location</div>', RAVI, 'Ravi Menon', CHAT, 'chat', 'loc-1701354400', 'RichText', 'Card'),
    (5, 0, 723047300.0, None, 'Bjørn joined the chat', None, None, CHAT, 'chat', 'sys-1701354500', 'ThreadActivity', 'AddMember'),
    (6, 1, 723050000.0, 723049999.0, '<partlist type="ended" alt=""></partlist>', DANA, 'Dana Whitfield', CHAT, 'chat', 'call-1701357200', 'Event', 'Call'),
]
for m in msgs:
    db.execute('INSERT INTO ZSMESSAGE VALUES (?, 7, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', m)
db.execute("INSERT INTO ZTHREAD VALUES (1, 9, 1, ?, 'Q3 vendor payments', 723035660.456)", (MEETING,))
db.execute("INSERT INTO ZDEVICECONTACTHASH VALUES (1, 3, 1, 'Ravi Menon', 'ravi.menon@contoso-freight.example', '(020) 7946-0999', 'h1')")
db.execute("INSERT INTO ZDEVICECONTACTHASH VALUES (2, 3, 1, 'Mum', NULL, '+44 7700.900.111', 'h2')")
db.execute("INSERT INTO ZUSER VALUES (1, 11, 1, 723000000, 'Ravi Menon', '+44 20 7946 0999', ?, 'ravi.menon@contoso-freight.example', 'ravi.menon@contoso-freight.example', 'Ravi', 'Menon')", (RAVI,))
db.execute("INSERT INTO ZUSER VALUES (2, 11, 1, 723000100, 'Dana Whitfield', NULL, ?, 'dana.whitfield@contoso-freight.example', NULL, 'Dana', 'Whitfield')", (DANA,))
call = {'callId': '5b0e6c1a-2f7d-4c1e-9a44-7d3f1e2b8c90', 'startTime': '2023-11-30T13:26:40.0000000Z',
        'connectTime': '2023-11-30T13:26:45.1230000Z', 'endTime': '2023-11-30T13:32:45.0000000Z',
        'callDirection': 'incoming', 'callType': 'twoParty', 'callState': 'accepted',
        'originator': RAVI, 'target': DANA,
        'originatorParticipant': {'id': RAVI, 'type': 'default', 'displayName': 'Ravi Menon'},
        'targetParticipant': {'id': DANA, 'type': 'default', 'displayName': 'Dana Whitfield'}}
card_id = apple_json({'latitude': 51.5072, 'longitude': -0.1276, 'expiresAt': 1701358000000, 'deviceId': 'A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF'})
cards = [{'contentType': 'application/vnd.microsoft.card.adaptive', 'content': {'type': 'AdaptiveCard', 'body': [
    {'type': 'Image', 'url': 'https://maps.example.com/static?center=51.5072,-0.1276', 'id': card_id,
     'selectAction': {'type': 'Action.OpenUrl', 'title': 'View location', 'url': 'https://www.bing.com/maps?cp=51.5072~-0.1276'}},
    {'type': 'TextBlock', 'text': 'Ravi Menon is sharing live location'}]}}]
db.execute('INSERT INTO ZMESSAGEPROPERTIES VALUES (1, 5, 1, ?, ?)', ('call-1701350800', archive({'call-log': apple_json(call)})))
db.execute('INSERT INTO ZMESSAGEPROPERTIES VALUES (2, 5, 1, ?, ?)', ('loc-1701354400', archive({'cards': apple_json(cards)})))
db.execute('INSERT INTO ZMESSAGEPROPERTIES VALUES (3, 5, 1, ?, ?)', ('1701342800125', archive({'emotions': '[]'})))
# an outgoing call to a guest Teams has not cached as a user
PRIYA = '8:guest:priya.shah_77'
guest = {'callId': '9c2d4e6f-1a3b-4c5d-8e7f-0a1b2c3d4e5f', 'startTime': '2023-11-30T15:13:20.0000000Z', 'endTime': '2023-11-30T15:13:50.0000000Z',
         'callDirection': 'outgoing', 'callType': 'twoParty', 'callState': 'missed', 'originator': DANA, 'target': PRIYA,
         'originatorParticipant': {'id': DANA, 'displayName': 'Dana Whitfield'}, 'targetParticipant': {'id': PRIYA, 'displayName': 'Priya Shah'}}
db.execute('INSERT INTO ZMESSAGEPROPERTIES VALUES (4, 5, 1, ?, ?)', ('call-1701357200', archive({'call-log': apple_json(guest)})))
db.commit()
"#;

/// iLEAPP's teamsCalls and teamsLocations over the archived properties (its nska_deserialize
/// read here from the archive's objects), one tab-separated row per call or card: the fields
/// it reports, its times as stored (it converts them for display).
const IOS_ORACLE: &str = r#"
import json, plistlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def unarchive(b):
    p = plistlib.loads(b)
    o = p['$objects']
    root = o[p['$top']['root'].data]
    return {o[k.data]: o[v.data] for k, v in zip(root['NS.keys'], root['NS.objects'])}
out = []
for compose, sender, name, content, props in db.execute('SELECT ZCOMPOSETIME, ZFROM, ZIMDISPLAYNAME, ZCONTENT, ZPROPERTIES FROM ZSMESSAGE JOIN ZMESSAGEPROPERTIES ON ZSMESSAGE.ZTSID = ZMESSAGEPROPERTIES.ZTSID WHERE ZPROPERTIES IS NOT NULL ORDER BY ZCOMPOSETIME'):
    d = unarchive(props)
    if 'call-log' in d:
        c = json.loads(d['call-log'])
        out.append(['call', c.get('startTime', ''), c.get('connectTime', ''), c.get('endTime', ''), c.get('callDirection', ''), c.get('callType', ''),
                    c.get('callState', ''), c.get('originator', ''), c.get('target', ''),
                    c.get('originatorParticipant', {}).get('displayName', ''), c.get('targetParticipant', {}).get('displayName', '')])
    if 'cards' in d:
        cards = json.loads(d['cards'])
        card = cards[0]['content']['body'][0]
        i = json.loads(card['id'])
        out.append(['card', str(compose), sender or '', name or '', content or '', card.get('selectAction', {}).get('url', ''),
                    card.get('selectAction', {}).get('title', ''), cards[0]['content']['body'][1].get('text', ''), card.get('url', ''),
                    str(i['latitude']), str(i['longitude']), str(i['expiresAt']), i['deviceId']])
for r in out:
    print('\t'.join(r))
"#;

#[test]
fn teams_on_two_iphones_beside_an_android_phone() {
    let tmp = tempfile::tempdir().unwrap();
    let group = "private/var/mobile/Containers/Shared/AppGroup/5C2B7E10-3A4D-4F6E-8B9C-0D1E2F3A4B5C/SkypeSpacesDogfood";
    let dana = tmp.path().join("dana-iphone");
    let store = dana.join(group).join("8_orgid_4f1c2a9e/Skype.sqlite");
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    crate::ios_support::python(IOS_STORE, &store);
    // a store of another layout and a truncated copy beside it, and another app's Skype.sqlite
    crate::ios_nearby::sqlite3(
        &dana.join(group).join("8_orgid_old/SkypeAccount.sqlite"),
        "CREATE TABLE ZSOMETHING (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR);",
    );
    let bytes = std::fs::read(&store).unwrap();
    let cut = dana.join(group).join("8_orgid_cut/Skype.sqlite");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let elsewhere = dana.join("private/var/mobile/Containers/Data/Application/0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D/Library/Skype.sqlite");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    std::fs::copy(&store, &elsewhere).unwrap();
    std::fs::create_dir_all(dana.join("private/var/mobile/Library")).unwrap();

    // an older store: no MRIs on users, no properties, no thread table
    let ravi = tmp.path().join("ravi-iphone");
    let old = ravi.join(group).join("8_orgid_0b5d8e21/Skype.sqlite");
    crate::ios_nearby::sqlite3(
        &old,
        "CREATE TABLE ZSMESSAGE (Z_PK INTEGER PRIMARY KEY, ZARRIVALTIME TIMESTAMP, ZCONTENT VARCHAR, ZFROM VARCHAR, ZIMDISPLAYNAME VARCHAR, ZTHREADID VARCHAR, ZTS_ISSENTBYME INTEGER); \
         CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, ZTS_LASTSYNCEDAT TIMESTAMP, ZDISPLAYNAME VARCHAR, ZTELEPHONENUMBER VARCHAR); \
         INSERT INTO ZSMESSAGE VALUES (1, 723035660.456, '<div>Done. Sent 12,400.00 GBP</div>', '8:orgid:0b5d8e21-7c4a-4f93-a1e6-58c3d9f2b7a0', 'Ravi Menon', '19:meeting_NjE4ZTVk@thread.v2', 1); \
         INSERT INTO ZUSER VALUES (1, 723000100, 'Dana Whitfield', '+447700900812');",
    );
    std::fs::create_dir_all(ravi.join("private/var/mobile/Library")).unwrap();

    let android = tmp.path().join("dana-android");
    let adb = android.join("data/data/com.microsoft.teams/databases/SkypeTeams.db");
    sqlite_fixture(&adb, "teams/SkypeTeams.sql", "SELECT 1;");
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("dana-iphone", &dana, "Europe/London", Some("GB")),
        ("ravi-iphone", &ravi, "Europe/London", Some("GB")),
        ("dana-android", &android, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("dana-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // iLEAPP's teamsMessages (its thread name is the topic, or the type and id joined: both
    // read; its display message is the content with an emoji image cut: the content read)
    assert_eq!(
        check(
            &all,
            "Teams message",
            &store,
            "SELECT ZARRIVALTIME, ZTS_ISSENTBYME, ZIMDISPLAYNAME, ZCONTENT, ZFROM, ZTHREADID, ZTHREADTYPE, t.ZTHREADTOPIC, t.ZTSID, ZTS_MESSAGEBASETYPE, ZTS_MESSAGECONTENTTYPE, m.ZTSID FROM ZSMESSAGE m LEFT JOIN ZTHREAD t ON m.ZTHREADID = t.ZTSID",
            11
        ),
        6
    );
    // iLEAPP's teamsContacts, its number cleaning done by the query
    assert_eq!(
        check(
            &all,
            "Teams device contact",
            &store,
            "SELECT ZDISPLAYNAME, ZEMAIL, replace(replace(replace(replace(replace(ZPHONENUMBER, '(', ''), ')', ''), '-', ''), ' ', ''), '.', '') FROM ZDEVICECONTACTHASH",
            0
        ),
        2
    );
    assert_eq!(
        check(
            &all,
            "Teams user",
            &store,
            "SELECT ZTS_LASTSYNCEDAT, ZDISPLAYNAME, ZTELEPHONENUMBER FROM ZUSER",
            1
        ),
        2
    );
    // iLEAPP's teamsCalls and teamsLocations
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(IOS_ORACLE)
        .arg(&store)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Vec<String>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    for row in &rows {
        let (prefix, key) = if row[0] == "call" {
            ("Teams call from", 1)
        } else {
            ("Teams location", 12)
        };
        // the app's JSON writes '/' as '\/': the tool decodes the JSON texts, so a URL is found
        // as the app meant it
        let found: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with(prefix))
            .filter(|p| p.verified_facts.iter().any(|f| f.value == row[key]))
            .collect();
        assert_eq!(found.len(), 1, "{prefix} {row:?}");
        let p = found[0];
        let has = |v: &str| p.verified_facts.iter().any(|f| f.value == v);
        for v in row[1..].iter().filter(|v| !v.is_empty()) {
            assert!(has(v), "{v} in {p:#?}");
        }
    }
    // the guest is a person by the MRI the tool qualified in the decoded call log
    let ids = run.identifiers("dana-iphone");
    assert!(
        ids.iter().any(|(_, v)| v == "teams:8:guest:priya.shah_77"),
        "{ids:#?}"
    );
    // the device's user sent the first message: Dana's MRI is the iPhone's owner, and she is the
    // Android phone's cached user and sender
    let owner = run.owner("dana-iphone");
    assert!(
        owner.contains("account_id=teams:8:orgid:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34"),
        "{owner}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        (
            "dana-iphone/owner",
            "dana-android/teams:8:orgid:4f1c2a9e-6b3d-4e8a-9c51-2d7f0b6a1e34",
        ),
        (
            "ravi-iphone/owner",
            "dana-iphone/teams:8:orgid:0b5d8e21-7c4a-4f93-a1e6-58c3d9f2b7a0",
        ),
        (
            "dana-iphone/teams:8:orgid:0b5d8e21-7c4a-4f93-a1e6-58c3d9f2b7a0",
            "dana-android/teams:8:orgid:0b5d8e21-7c4a-4f93-a1e6-58c3d9f2b7a0",
        ),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    assert!(
        !all.iter().any(|p| p.title.starts_with("Teams ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"))),
        "another app's Skype.sqlite was read"
    );
    run.assert_noted(
        "dana-iphone",
        &[
            (
                "8_orgid_old/SkypeAccount.sqlite",
                "none of the tables ZSMESSAGE, ZDEVICECONTACTHASH, ZUSER",
            ),
            ("8_orgid_cut/Skype.sqlite", "malformed"),
        ],
    );
}
