//! Bumble on Android (`android::bumble`) and iOS (`ios::bumble`): Dana's Android phone and
//! Ravi's iPhone, who talk to each other, their stores written by Python (Android's
//! `ChatComDatabase` with the columns ALEAPP's bumble module queries; the iPhone's YapDatabase
//! stores with archived message objects as iLEAPP reads them — no public copy is in the
//! corpus). Every row and field of ALEAPP's message and match queries (the sqlite3 CLI) and of
//! iLEAPP's bumbleMessages and bumbleAccount readings (Python's plistlib) is found, and ALEAPP's
//! get_bumble from the Android settings file (`tests/fixtures/bumble/`, `protoc --encode`); each
//! phone's user is found and the two resolve across platforms by Bumble user id. Beside them a
//! truncated copy, a store of another layout (noted), another app's `Chat.sqlite` and a
//! `yap-database.sqlite` of an app that is not Bumble (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{check, triage};

const DANA: &str = "1470385221";
const RAVI: &str = "1470385999";

const ANDROID: &str = r#"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE message (id TEXT PRIMARY KEY, conversation_id TEXT, sender_id TEXT, recipient_id TEXT, created_timestamp INTEGER, modified_timestamp INTEGER, payload_type TEXT, payload TEXT, is_incoming INTEGER, is_masked INTEGER);
CREATE TABLE conversation_info (user_id TEXT PRIMARY KEY, user_name TEXT, age INTEGER, gender INTEGER, game_mode INTEGER, user_image_url TEXT, encrypted_user_id TEXT, last_message_id TEXT);
""")
db.execute("INSERT INTO conversation_info VALUES ('1470385999', 'Ravi', 34, 1, 0, 'https://pd2eu.bumbcdn.example/p/ravi.jpg', 'zAhMACjE0NzAzODU5OTk', 'msg-2')")
db.execute("INSERT INTO conversation_info VALUES ('1470386555', 'Lena', 29, 2, 1, NULL, 'zAhMACjE0NzAzODY1NTU', NULL)")
rows = [
    ('msg-1', '1470385999', '1470385221', '1470385999', 1701340800000, 1701340800000, 'TEXT', json.dumps({'text': 'send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 first'}), 0),
    ('msg-2', '1470385999', '1470385999', '1470385221', 1701340860000, 1701340900000, 'TEXT', json.dumps({'text': 'ok, done'}), 1),
    ('msg-3', '1470385999', '1470385999', '1470385221', 1701340920000, 1701340920000, 'GIF', json.dumps({'url': 'https://media.giphy.example/media/abc/giphy.gif'}), 1),
]
for r in rows:
    db.execute('INSERT INTO message VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)', r)
db.commit()
"#;

/// The iPhone's two YapDatabase stores (argv[1]: Chat.sqlite, argv[2]: yap-database.sqlite),
/// then iLEAPP's readings of them: one line per message, then the account's values.
const IOS: &str = r#"
import plistlib, sqlite3, sys
from plistlib import UID
def archive(cls, fields):
    objects = ['$null', {'$class': UID(2)}, {'$classname': cls, '$classes': [cls, 'NSObject']}]
    for k, v in fields.items():
        if isinstance(v, str):
            objects.append(v)
            objects[1][k] = UID(len(objects) - 1)
        else:
            objects[1][k] = v
    return plistlib.dumps({'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(1)}, '$objects': objects}, fmt=plistlib.FMT_BINARY)
def string(s):
    return plistlib.dumps({'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(1)}, '$objects': ['$null', s]}, fmt=plistlib.FMT_BINARY)
def unarchive(b):
    p = plistlib.loads(b)
    o = p['$objects']
    root = o[p['$top']['root'].data]
    if not isinstance(root, dict):
        return {'root': root}
    return {k: (o[v.data] if isinstance(v, UID) else v) for k, v in root.items() if k != '$class'}
chat = sqlite3.connect(sys.argv[1])
chat.executescript("""
CREATE TABLE database2 (rowid INTEGER PRIMARY KEY, collection CHAR NOT NULL, key CHAR NOT NULL, data BLOB, metadata BLOB);
CREATE TABLE secondaryIndex_isReadIndex (rowid INTEGER PRIMARY KEY, isIncoming INTEGER, isRead INTEGER);
""")
msgs = [
    (1, 'msg-1', {'self.dateCreated': 1701340800.0, 'self.dateModified': 1701340800.0, 'self.fromPersonUid': '1470385221', 'self.toPersonUid': '1470385999',
                  'self.messageText': 'send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 first'}, 1, 1),
    (2, 'msg-2', {'self.dateCreated': 1701340860.0, 'self.dateModified': 1701340900.5, 'self.fromPersonUid': '1470385999', 'self.toPersonUid': '1470385221',
                  'self.messageText': 'ok, done'}, 0, 1),
]
for rowid, key, fields, incoming, read in msgs:
    chat.execute('INSERT INTO database2 VALUES (?, ?, ?, ?, NULL)', (rowid, 'messages', key, archive('BMBMessage', fields)))
    chat.execute('INSERT INTO secondaryIndex_isReadIndex VALUES (?, ?, ?)', (rowid, incoming, read))
chat.execute("INSERT INTO database2 VALUES (3, 'conversations', 'c1', ?, NULL)", (archive('BMBConversation', {'self.title': 'Dana'}),))
chat.commit()
yap = sqlite3.connect(sys.argv[2])
yap.execute('CREATE TABLE database2 (rowid INTEGER PRIMARY KEY, collection CHAR NOT NULL, key CHAR NOT NULL, data BLOB, metadata BLOB)')
yap.execute("INSERT INTO database2 VALUES (1, 'settings', 'userId', ?, NULL)", (string('1470385999'),))
yap.execute("INSERT INTO database2 VALUES (2, 'settings', 'userName', ?, NULL)", (string('Ravi'),))
yap.execute("INSERT INTO database2 VALUES (3, 'settings', 'appVersion', ?, NULL)", (string('5.330.1'),))
yap.execute("INSERT INTO database2 VALUES (4, 'settings', 'lastLocation', ?, NULL)", (archive('CLLocation', {'kCLLocationCodingKeyRawCoordinateLatitude': 51.5072, 'kCLLocationCodingKeyRawCoordinateLongitude': -0.1276, 'kCLLocationCodingKeyTimestamp': 723040000.0}),))
yap.commit()
for data, incoming, read in chat.execute('SELECT database2.data, secondaryIndex_isReadIndex.isIncoming, secondaryIndex_isReadIndex.isRead FROM database2 JOIN secondaryIndex_isReadIndex ON database2.rowid = secondaryIndex_isReadIndex.rowid'):
    m = unarchive(data)
    if 'self.dateCreated' not in m:
        continue
    print('\t'.join(['msg', str(m['self.dateCreated']), str(m.get('self.dateModified', '')), m.get('self.fromPersonUid', ''), m.get('self.toPersonUid', ''), m.get('self.messageText', ''), str(read)]))
acct = ['acct']
for data, key in yap.execute("SELECT data, key FROM database2 WHERE key IN ('lastLocation', 'appVersion', 'userName', 'userId')"):
    v = unarchive(data)
    if key == 'lastLocation':
        acct += [str(v['kCLLocationCodingKeyTimestamp']), str(v['kCLLocationCodingKeyRawCoordinateLatitude']), str(v['kCLLocationCodingKeyRawCoordinateLongitude'])]
    else:
        acct.append(str(v['root']))
print('\t'.join(acct))
"#;

fn python(script: &str, args: &[&std::path::Path]) -> String {
    for a in args {
        std::fs::create_dir_all(a.parent().unwrap()).unwrap();
    }
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn bumble_on_an_android_phone_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let phone = tmp.path().join("dana-android");
    let rel = "com.bumble.app/databases/ChatComDatabase";
    let adb = phone.join("data/data").join(rel);
    python(ANDROID, &[&adb]);
    crate::android_support::damaged_copies(
        &phone,
        rel,
        "CREATE TABLE message (id TEXT, body TEXT); INSERT INTO message VALUES ('1', 'x');",
    );
    // the settings file (tests/fixtures/bumble, protoc-encoded), and a truncated copy
    let settings = phone.join("data/data/com.bumble.app/files/c2V0dGluZ3M=");
    crate::android_support::copy_fixture(&settings, "bumble/c2V0dGluZ3M=");
    let bytes = std::fs::read(&settings).unwrap();
    let cut = phone.join("data/user/10/com.bumble.app/files/c2V0dGluZ3M=");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 9]).unwrap();
    std::fs::create_dir_all(phone.join("data/system/users/0")).unwrap();

    let iphone = tmp.path().join("ravi-iphone");
    let app = iphone.join(
        "private/var/mobile/Containers/Data/Application/9F8E7D6C-5B4A-4392-8A1B-0C9D8E7F6A5B",
    );
    let chat = app.join("Library/Caches/Chat.sqlite");
    let yap = app.join("Documents/yap-database.sqlite");
    let oracle = python(IOS, &[&chat, &yap]);
    // another app's Chat.sqlite, and a YapDatabase of an app that is not Bumble
    let other = iphone.join(
        "private/var/mobile/Containers/Data/Application/0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9",
    );
    crate::ios_nearby::sqlite3(
        &other.join("Library/Caches/Chat.sqlite"),
        "CREATE TABLE database2 (rowid INTEGER PRIMARY KEY, collection CHAR, key CHAR, data BLOB, metadata BLOB);",
    );
    std::fs::create_dir_all(other.join("Documents")).unwrap();
    std::fs::copy(&yap, other.join("Documents/yap-database.sqlite")).unwrap();
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
    // ALEAPP's queries (its direction and name columns derived)
    assert_eq!(
        check(
            &a,
            "Bumble message",
            &adb,
            "SELECT message.created_timestamp, message.modified_timestamp, message.sender_id, message.recipient_id, json_extract(message.payload, '$.text'), json_extract(message.payload, '$.url'), message.payload_type, message.conversation_id, message.id, conversation_info.user_name FROM message LEFT JOIN conversation_info ON conversation_info.user_id = message.conversation_id",
            8
        ),
        3
    );
    assert_eq!(
        check(
            &a,
            "Bumble match",
            &adb,
            "SELECT user_name, age, gender, game_mode, user_image_url, user_id, encrypted_user_id FROM conversation_info ORDER BY user_id",
            5
        ),
        2
    );
    // iLEAPP's readings
    let has = |p: &Phenomenon, v: &str| p.verified_facts.iter().any(|f| f.value == v);
    let msgs: Vec<&Phenomenon> = i
        .iter()
        .filter(|p| p.title.starts_with("Bumble message"))
        .collect();
    assert_eq!(msgs.len(), 2);
    for line in oracle.lines() {
        let row: Vec<&str> = line.split('\t').collect();
        let of: Vec<&Phenomenon> = if row[0] == "msg" {
            msgs.iter().copied().filter(|p| has(p, row[5])).collect()
        } else {
            i.iter()
                .filter(|p| {
                    p.title == "Bumble account" || p.title.starts_with("Bumble last location")
                })
                .collect()
        };
        assert!(!of.is_empty(), "{row:?}");
        for v in row[1..].iter().filter(|v| !v.is_empty()) {
            assert!(of.iter().any(|p| has(p, v)), "{v} in {of:#?}");
        }
    }
    assert!(
        i.iter()
            .any(|p| p.title == "Bumble message sent to 1470385221")
    );
    assert!(a.iter().any(|p| p.title == "Bumble message sent to Ravi"));
    assert!(
        run.owner("dana-android")
            .contains(&format!("account_id=bumble:{DANA}"))
    );
    // ALEAPP's get_bumble from the settings file (the values generate.sh encoded)
    let account = a
        .iter()
        .find(|p| p.title == "Bumble account (settings)")
        .expect("the settings account");
    for v in [
        DANA,
        "Dana",
        "dana.whitfield@example.org",
        "+447700900123",
        "33",
        "1990-01-01",
        "United Kingdom",
        "London, United Kingdom",
        "Accountant",
        "University of Example",
        "Numbers person",
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
    let owner = run.owner("ravi-iphone");
    assert!(
        owner.contains(&format!("account_id=bumble:{RAVI}")) && owner.contains("display_name=ravi"),
        "{owner}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("dana-android/owner", format!("ravi-iphone/bumble:{DANA}")),
        ("ravi-iphone/owner", format!("dana-android/bumble:{RAVI}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    // only Bumble's container was read
    assert_eq!(i.iter().filter(|p| p.title == "Bumble account").count(), 1);
    run.assert_noted(
        "dana-android",
        &[
            (
                "user/10/com.bumble.app/databases/ChatComDatabase",
                "malformed",
            ),
            (
                "user/11/com.bumble.app/databases/ChatComDatabase",
                "table message lacks created_timestamp, sender_id",
            ),
        ],
    );
}
