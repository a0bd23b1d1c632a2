//! Wire on iOS (`ios::wire`) and Android (`android::wire`): Mia's and Noah's iPhones and Lena's
//! and Omar's Android phones, each of a different layout. The stores are written by Python (the
//! tables by `sqlite3` with the tables and columns iLEAPP's `wireAccount`/`wireMessages` and
//! ALEAPP's Wire modules read; the iPhone's `GenericMessage` protobufs by Google's protobuf
//! runtime from Wire's `messages.proto` field layout); no public copy is in the corpus. Every
//! row and field of iLEAPP's and ALEAPP's queries (run by the sqlite3 CLI, times as stored) is
//! found, the rows iLEAPP leaves out and the text as sent too; Mia's (iPhone) and Lena's
//! (Android) accounts resolve across platforms by the Wire user id. Beside them truncated and
//! foreign-schema copies (noted), the current Android app's encrypted store (noted) and its
//! Proteus session files (read).

use std::path::Path;

use crate::android_support::{check, damaged_copies, rows_in, triage};

const MIA: &str = "3f2a7c1e-8b4d-4e6f-9a1b-2c3d4e5f6071";
const NOAH: &str = "9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e";
const LENA: &str = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f";
const OMAR: &str = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";

/// argv[1]: Mia's store, argv[2]: Noah's store.
const IOS: &str = r#"
import sqlite3, sys, uuid
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
MIA, NOAH, LENA = sys.argv[3:6]
b = lambda u: uuid.UUID(u).bytes
F = descriptor_pb2.FieldDescriptorProto
fd = descriptor_pb2.FileDescriptorProto(name="messages.proto", package="w", syntax="proto2")
def message(name, fields):
    m = fd.message_type.add(name=name)
    for number, fname, kind, type_name in fields:
        f = m.field.add(name=fname, number=number, type=kind, label=F.LABEL_OPTIONAL)
        if type_name:
            f.type_name = ".w." + type_name
S, M, U64, I64, FL = F.TYPE_STRING, F.TYPE_MESSAGE, F.TYPE_UINT64, F.TYPE_INT64, F.TYPE_FLOAT
message("Text", [(1, "content", S, None)])
message("Original", [(1, "mime_type", S, None), (2, "size", U64, None), (3, "name", S, None)])
message("Asset", [(1, "original", M, "Original")])
message("Location", [(1, "longitude", FL, None), (2, "latitude", FL, None), (3, "name", S, None)])
message("Ephemeral", [(1, "expire_after_millis", I64, None), (2, "text", M, "Text")])
message("GenericMessage", [(1, "message_id", S, None), (2, "text", M, "Text"), (11, "asset", M, "Asset"),
    (13, "location", M, "Location"), (18, "ephemeral", M, "Ephemeral")])
pool = descriptor_pool.DescriptorPool()
pool.Add(fd)
G = message_factory.GetMessageClass(pool.FindMessageTypeByName("w.GenericMessage"))
def text(mid, t):
    g = G(message_id=mid); g.text.content = t; return g.SerializeToString()
def asset(mid):
    g = G(message_id=mid); g.asset.original.mime_type = "image/jpeg"; g.asset.original.size = 48213; g.asset.original.name = "IMG_0042.jpg"
    return g.SerializeToString()
def location(mid):
    g = G(message_id=mid); g.location.longitude = 8.5402; g.location.latitude = 47.3782; g.location.name = "Hauptbahnhof Zürich"
    return g.SerializeToString()
def ephemeral(mid, t):
    g = G(message_id=mid); g.ephemeral.expire_after_millis = 10000; g.ephemeral.text.content = t; return g.SerializeToString()

# Mia: data model 2.110 on (no phone column, no activation place), with the protobufs
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHANDLE VARCHAR, ZNAME VARCHAR, ZEMAILADDRESS VARCHAR, ZDOMAIN VARCHAR, ZREMOTEIDENTIFIER_DATA BLOB);
CREATE TABLE ZUSERCLIENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUSER INTEGER, ZREMOTEIDENTIFIER VARCHAR, ZLABEL VARCHAR, ZMODEL VARCHAR, ZDEVICECLASS VARCHAR, ZACTIVATIONDATE TIMESTAMP);
CREATE TABLE ZCONVERSATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUSERDEFINEDNAME VARCHAR, ZCONVERSATIONTYPE INTEGER, ZREMOTEIDENTIFIER_DATA BLOB);
CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSENDER INTEGER, ZSERVERTIMESTAMP TIMESTAMP, ZNORMALIZEDTEXT VARCHAR, ZCACHEDCATEGORY INTEGER, ZDURATION FLOAT, ZVISIBLEINCONVERSATION INTEGER, ZHIDDENINCONVERSATION INTEGER);
CREATE TABLE ZGENERICMESSAGEDATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATA BLOB, ZMESSAGE INTEGER, ZASSET INTEGER);
""")
db.execute("INSERT INTO ZUSER VALUES (1, 40, 3, 'mia_k', 'Mia Keller', 'mia.keller@example.com', 'wire.com', ?)", (b(MIA),))
db.execute("INSERT INTO ZUSER VALUES (2, 40, 2, 'noah_r', 'Noah Reyes', NULL, 'wire.com', ?)", (b(NOAH),))
db.execute("INSERT INTO ZUSER VALUES (3, 40, 1, 'lena.v', 'Lena Vogt', NULL, 'wire.com', ?)", (b(LENA),))
db.execute("INSERT INTO ZUSERCLIENT VALUES (1, 41, 1, 1, 'a1b2c3d4e5f60718', 'Mia''s iPhone', 'iPhone 14', 'phone', 722000000)")
db.execute("INSERT INTO ZUSERCLIENT VALUES (2, 41, 1, 2, 'f0e1d2c3b4a59687', NULL, NULL, 'phone', 721990000)")
db.execute("INSERT INTO ZCONVERSATION VALUES (1, 20, 1, NULL, 2, ?)", (b("0f0e0d0c-0b0a-4908-8706-050403020100"),))
db.execute("INSERT INTO ZCONVERSATION VALUES (2, 20, 1, 'Trip planning', 0, ?)", (b("1f1e1d1c-1b1a-4918-9716-151413121110"),))
rows = [
    (1, 2, 722001000, 'send it to 0x52908400098527886e0f7030069857d2e4169ee7', 2, None, 1, None),
    (2, 1, 722001060, 'ok, sending now', 2, None, 1, None),
    (3, 3, 722001200, None, 8, None, 2, None),
    (4, 1, 722001300, None, 256, None, 2, None),
    (5, 2, 722001400, None, 2048, 95, 1, None),
    (6, 2, 722001500, 'disappearing note', 2, None, 1, None),
    (7, 1, 722001600, None, 1, None, None, 1),
    (8, None, 722001700, None, 16, None, 2, None),
]
for r in rows:
    db.execute("INSERT INTO ZMESSAGE VALUES (?, 30, 1, ?, ?, ?, ?, ?, ?, ?)", r)
db.execute("INSERT INTO ZGENERICMESSAGEDATA VALUES (1, 31, 1, ?, 1, NULL)", (text("5b1c", "Send it to 0x52908400098527886E0F7030069857D2E4169EE7"),))
db.execute("INSERT INTO ZGENERICMESSAGEDATA VALUES (2, 31, 1, ?, 2, NULL)", (text("5b1d", "OK, sending now 👍"),))
db.execute("INSERT INTO ZGENERICMESSAGEDATA VALUES (3, 31, 1, ?, NULL, 3)", (asset("5b1e"),))
db.execute("INSERT INTO ZGENERICMESSAGEDATA VALUES (4, 31, 1, ?, 4, NULL)", (location("5b1f"),))
db.execute("INSERT INTO ZGENERICMESSAGEDATA VALUES (5, 31, 1, ?, 6, NULL)", (ephemeral("5b20", "Disappearing note"),))
db.commit()

# Noah: an older data model (a phone column, the activation place), no protobuf table
db = sqlite3.connect(sys.argv[2])
db.executescript("""
CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHANDLE VARCHAR, ZNAME VARCHAR, ZEMAILADDRESS VARCHAR, ZPHONENUMBER VARCHAR, ZREMOTEIDENTIFIER_DATA BLOB);
CREATE TABLE ZUSERCLIENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUSER INTEGER, ZREMOTEIDENTIFIER VARCHAR, ZLABEL VARCHAR, ZMODEL VARCHAR, ZACTIVATIONDATE TIMESTAMP, ZACTIVATIONLOCATIONLATITUDE FLOAT, ZACTIVATIONLOCATIONLONGITUDE FLOAT);
CREATE TABLE ZCONVERSATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCONVERSATIONTYPE INTEGER);
CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSENDER INTEGER, ZSERVERTIMESTAMP TIMESTAMP, ZNORMALIZEDTEXT VARCHAR, ZCACHEDCATEGORY INTEGER, ZDURATION FLOAT, ZVISIBLEINCONVERSATION INTEGER);
""")
db.execute("INSERT INTO ZUSER VALUES (1, 40, 2, 'noah_r', 'Noah Reyes', 'noah@example.org', '+41795550123', ?)", (b(NOAH),))
db.execute("INSERT INTO ZUSER VALUES (2, 40, 1, 'mia_k', 'Mia Keller', NULL, NULL, ?)", (b(MIA),))
db.execute("INSERT INTO ZUSERCLIENT VALUES (1, 41, 1, 1, '0a1b2c3d4e5f6a7b', 'iPhone', 'iPhone 11', 721980000, 47.3769, 8.5417)")
db.execute("INSERT INTO ZCONVERSATION VALUES (1, 20, 1, 2)")
db.execute("INSERT INTO ZMESSAGE VALUES (1, 30, 1, 1, 722001000, 'send it to 0x52908400098527886e0f7030069857d2e4169ee7', 2, NULL, 1)")
db.execute("INSERT INTO ZMESSAGE VALUES (2, 30, 1, 2, 722001060, 'ok, sending now', 2, NULL, 1)")
db.commit()
"#;

/// argv[1]: Lena's store (the full legacy layout), argv[2]: Omar's (older: `Assets`, no
/// conversations or likes).
const ANDROID: &str = r#"
import json, sqlite3, sys
LENA, MIA, OMAR = sys.argv[3:6]
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE Users (_id TEXT PRIMARY KEY, teamId TEXT, name TEXT, email TEXT, phone TEXT, picture TEXT, accent INTEGER, connection TEXT, conn_timestamp INTEGER, handle TEXT, domain TEXT);
CREATE TABLE Clients (_id TEXT PRIMARY KEY, data TEXT);
CREATE TABLE Conversations (_id TEXT PRIMARY KEY, remote_id TEXT, name TEXT, conv_type INTEGER);
CREATE TABLE Messages (_id TEXT PRIMARY KEY, conv_id TEXT, msg_type TEXT, user_id TEXT, content TEXT, time INTEGER, duration INTEGER, asset_id TEXT);
CREATE TABLE Likings (message_id TEXT, user_id TEXT, timestamp INTEGER, action INTEGER, PRIMARY KEY (message_id, user_id));
CREATE TABLE Assets2 (_id TEXT PRIMARY KEY, token TEXT, name TEXT, mime TEXT, size INTEGER);
CREATE TABLE MsgDeletion (message_id TEXT PRIMARY KEY, timestamp INTEGER);
""")
db.execute("INSERT INTO Users VALUES (?, NULL, 'Lena Vogt', 'lena.vogt@example.net', '+491705550188', '3-1-pic-lena', 2, 'self', 1700000000000, 'lena.v', 'wire.com')", (LENA,))
db.execute("INSERT INTO Users VALUES (?, NULL, 'Mia Keller', NULL, NULL, '3-1-pic-mia', 1, 'accepted', 1700100000000, 'mia_k', 'wire.com')", (MIA,))
db.execute("INSERT INTO Users VALUES ('7a7a7a7a-1111-4222-8333-944444444444', NULL, 'Pending Person', NULL, NULL, NULL, 3, 'pending_from_user', 1700200000000, 'pending.p', 'wire.com')")
db.execute("INSERT INTO Clients VALUES (?, ?)", (LENA, json.dumps({'user': LENA, 'clients': [
    {'id': 'c0ffee0123456789', 'label': 'Pixel 7', 'model': 'Google Pixel 7', 'devType': 'phone', 'verification': 'UNKNOWN', 'regTime': 1699990000000},
    {'id': 'beef000987654321', 'label': 'Work laptop', 'model': 'Desktop', 'devType': 'desktop', 'verification': 'VERIFIED', 'regTime': 1699000000000}]})))
db.execute("INSERT INTO Clients VALUES (?, ?)", (MIA, json.dumps({'user': MIA, 'clients': [{'id': 'a1b2c3d4e5f60718', 'verification': 'VERIFIED'}]})))
db.execute("INSERT INTO Conversations VALUES ('conv-trip', 'conv-trip', 'Trip planning', 0)")
msgs = [
    ('m1', 'conv-trip', 'Text', MIA, json.dumps([{'type': 'Text', 'content': 'Meet at the station at 9'}]), 1701340800000, None, None),
    ('m2', 'conv-trip', 'Text', LENA, json.dumps([{'type': 'Text', 'content': 'Send 0.2 ETH to 0x52908400098527886E0F7030069857D2E4169EE7'}, {'type': 'Url', 'content': 'https://example.org/x'}]), 1701340860000, None, None),
    ('m3', 'conv-trip', 'Asset', MIA, json.dumps([]), 1701340900000, None, 'asset-1'),
    ('m4', 'conv-trip', 'SuccessfulCall', MIA, None, 1701341000000, 95000, None),
]
for m in msgs:
    db.execute("INSERT INTO Messages VALUES (?, ?, ?, ?, ?, ?, ?, ?)", m)
db.execute("INSERT INTO Likings VALUES ('m1', ?, 1701340830000, 1)", (LENA,))
db.execute("INSERT INTO Likings VALUES ('m2', ?, 1701340870000, 1)", (MIA,))
db.execute("INSERT INTO Assets2 VALUES ('asset-1', 'tok', 'station.jpg', 'image/jpeg', 1234)")
db.execute("INSERT INTO MsgDeletion VALUES ('m0', 1701340700000)")
db.commit()

db = sqlite3.connect(sys.argv[2])
db.executescript("""
CREATE TABLE Users (_id TEXT PRIMARY KEY, name TEXT, email TEXT, phone TEXT, connection TEXT, conn_timestamp INTEGER, handle TEXT);
CREATE TABLE Messages (_id TEXT PRIMARY KEY, conv_id TEXT, msg_type TEXT, user_id TEXT, content TEXT, time INTEGER, asset_id TEXT);
CREATE TABLE Assets (_id TEXT PRIMARY KEY, name TEXT);
""")
db.execute("INSERT INTO Users VALUES (?, 'Omar Haddad', 'omar@example.com', NULL, 'self', 1690000000000, 'omar.h')", (OMAR,))
db.execute("INSERT INTO Users VALUES (?, 'Lena Vogt', NULL, NULL, 'accepted', 1690100000000, 'lena.v')", (LENA,))
db.execute("INSERT INTO Messages VALUES ('o1', 'c1', 'Text', ?, ?, 1690200000000, NULL)", (OMAR, json.dumps([{'type': 'Text', 'content': 'hello Lena'}])))
db.execute("INSERT INTO Messages VALUES ('o2', 'c1', 'Asset', ?, '[]', 1690200060000, 'a1')", (LENA,))
db.execute("INSERT INTO Assets VALUES ('a1', 'map.png')")
db.commit()
"#;

/// iLEAPP's `wireMessages` query (the time as stored).
const IOS_MESSAGES: &str = "SELECT ZMESSAGE.ZSERVERTIMESTAMP, ZUSER.ZHANDLE, ZUSER.ZNAME, ZMESSAGE.ZNORMALIZEDTEXT, CASE ZMESSAGE.ZCACHEDCATEGORY WHEN 0 THEN 'None (uncategorized)' WHEN 2 THEN 'Text Message' WHEN 8 THEN 'Image Message' WHEN 256 THEN 'Location Message' WHEN 2048 THEN 'System Message' ELSE ZMESSAGE.ZCACHEDCATEGORY END, ZMESSAGE.ZDURATION FROM ZMESSAGE LEFT JOIN ZUSER ON ZUSER.Z_PK = ZMESSAGE.ZSENDER WHERE ZMESSAGE.ZCACHEDCATEGORY != 1";

/// ALEAPP's `get_wire_messages` query over `assets` (`Assets2` or `Assets`; times as stored).
fn android_messages(assets: &str, likes: bool) -> String {
    let (like_cols, like_join) = if likes {
        (
            "CASE Likings.\"action\" WHEN 1 THEN 'Liked' END, Likings.\"timestamp\", Users1.name",
            "LEFT JOIN Likings ON Messages._id = Likings.message_id LEFT JOIN Users Users1 ON Likings.user_id = Users1._id",
        )
    } else {
        ("NULL, NULL, NULL", "")
    };
    format!(
        "SELECT Messages.time, Messages._id, Users.name, Messages.msg_type, json_extract(Messages.content, '$[0].content'), {like_cols}, {}, {assets}.name FROM Messages LEFT JOIN Users ON Users._id = Messages.user_id {like_join} LEFT JOIN {assets} ON Messages.asset_id = {assets}._id ORDER BY Messages.time",
        if likes { "Messages.duration" } else { "NULL" },
    )
}

fn python(script: &str, args: &[&str]) {
    let bin = masf_testkit::corpus::py_oracle("python3", "protobuf");
    let out = std::process::Command::new(bin)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn wire_on_two_iphones_and_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let group = "private/var/mobile/Containers/Shared/AppGroup/8E1D2C3B-4A59-4687-9F0E-1D2C3B4A5968/AccountData";
    let (mia, noah, lena, omar) = (
        tmp.path().join("mia-iphone"),
        tmp.path().join("noah-iphone"),
        tmp.path().join("lena"),
        tmp.path().join("omar"),
    );
    let store = |root: &Path, id: &str| {
        let p = root
            .join(group)
            .join(id.to_uppercase())
            .join("store/store.wiredatabase");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        p
    };
    let (mdb, ndb) = (store(&mia, MIA), store(&noah, NOAH));
    let rel = |id: &str| format!("com.wire/databases/{id}");
    let (ldb, odb) = (
        lena.join("data/data").join(rel(LENA)),
        omar.join("data/data").join(rel(OMAR)),
    );
    for p in [&ldb, &odb] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    }
    python(IOS, &[s(&mdb), s(&ndb), MIA, NOAH, LENA]);
    python(ANDROID, &[s(&ldb), s(&odb), LENA, MIA, OMAR]);
    // the iPhones: a truncated store and another app's file of that name
    let bytes = std::fs::read(&mdb).unwrap();
    std::fs::write(
        store(&mia, "00000000-0000-4000-8000-000000000001"),
        &bytes[..bytes.len() / 3],
    )
    .unwrap();
    crate::ios_nearby::sqlite3(
        &store(&mia, "00000000-0000-4000-8000-000000000002"),
        "CREATE TABLE ZOTHER (Z_PK INTEGER PRIMARY KEY, ZVALUE VARCHAR); INSERT INTO ZOTHER VALUES (1, 'x');",
    );
    for root in [&mia, &noah] {
        std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
    }
    for root in [&lena, &omar] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    // Lena: legacy session files; Omar: the current app's encrypted store and its sessions
    let otr = lena.join(format!("data/data/com.wire/files/otr/{LENA}/sessions"));
    std::fs::create_dir_all(&otr).unwrap();
    std::fs::write(otr.join(format!("{MIA}_a1b2c3d4e5f60718")), b"\x01session").unwrap();
    let sessions = omar.join(format!(
        "data/data/com.wire/app_accounts/wire.com/{OMAR}/proteus/sessions"
    ));
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::write(
        sessions.join(format!("{LENA}@wire.com_c0ffee0123456789")),
        b"\x01session",
    )
    .unwrap();
    std::fs::write(
        omar.join(format!(
            "data/data/com.wire/databases/user-db-{OMAR}-wirecom"
        )),
        (0..8192u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    damaged_copies(
        &lena,
        &rel(LENA),
        "CREATE TABLE Other (_id TEXT PRIMARY KEY); INSERT INTO Other VALUES ('x');",
    );

    let run = triage(&[
        ("mia-iphone", &mia, "Europe/Zurich", Some("CH")),
        ("noah-iphone", &noah, "Europe/Zurich", Some("CH")),
        ("lena", &lena, "Europe/Berlin", Some("DE")),
        ("omar", &omar, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // Mia's iPhone: every row and field of iLEAPP's queries; category 1 read too
    let all = run.all_phenomena("mia-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let msgs: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Wire message"))
        .collect();
    assert_eq!(msgs.len(), 8);
    assert_eq!(rows_in(&msgs, &mdb, IOS_MESSAGES, 0, ""), 7);
    let has = |title: &str, v: &str| {
        all.iter()
            .any(|p| p.title == title && p.verified_facts.iter().any(|f| f.value == v))
    };
    // the text as sent, beside the normalised copy iLEAPP reports
    assert!(has(
        "Wire message sent in conversation 1",
        "OK, sending now 👍"
    ));
    assert!(has(
        "Wire message from Noah Reyes in conversation 1",
        "Disappearing note"
    ));
    assert!(has(
        "Wire message from Lena Vogt in Trip planning",
        "IMG_0042.jpg"
    ));
    assert!(has(
        "Wire message sent in Trip planning",
        "Hauptbahnhof Zürich"
    ));
    assert!(has(
        "Wire message from a sender not stored in Trip planning",
        "16"
    ));
    // iLEAPP's account rows: a user with a client (the client's phenomenon), one without
    let accounts: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Wire "))
        .collect();
    assert_eq!(
        rows_in(
            &accounts,
            &mdb,
            "SELECT DISTINCT ZUSERCLIENT.ZACTIVATIONDATE, ZUSER.ZHANDLE, ZUSER.ZNAME, ZUSER.ZEMAILADDRESS FROM ZUSER JOIN ZUSERCLIENT ON ZUSER.Z_PK = ZUSERCLIENT.ZUSER",
            0,
            ""
        ),
        2
    );
    assert_eq!(
        check(
            &all,
            "Wire user Lena",
            &mdb,
            "SELECT ZUSER.ZHANDLE, ZUSER.ZNAME, ZUSER.ZEMAILADDRESS FROM ZUSER LEFT JOIN ZUSERCLIENT ON ZUSER.Z_PK = ZUSERCLIENT.ZUSER WHERE ZUSERCLIENT.Z_PK IS NULL",
            0
        ),
        1
    );
    assert!(all.iter().any(|p| p.title == "Wire account Mia Keller"));
    // Noah's iPhone: the older layout (phone, activation place), iLEAPP's reading of it
    let nall = run.all_phenomena("noah-iphone");
    assert_eq!(check(&nall, "Wire message", &ndb, IOS_MESSAGES, 0), 2);
    assert_eq!(
        check(
            &nall,
            "Wire client",
            &ndb,
            "SELECT ZUSERCLIENT.ZACTIVATIONDATE, ZUSER.ZHANDLE, ZUSER.ZNAME, ZUSER.ZPHONENUMBER, ZUSER.ZEMAILADDRESS, ZUSERCLIENT.ZACTIVATIONLOCATIONLATITUDE, ZUSERCLIENT.ZACTIVATIONLOCATIONLONGITUDE FROM ZUSER JOIN ZUSERCLIENT ON ZUSER.Z_PK = ZUSERCLIENT.ZUSER",
            0
        ),
        1
    );

    // Lena's Android phone: ALEAPP's profile, contacts and messages
    let lall = run.all_phenomena("lena");
    for p in &lall {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let lmsgs: Vec<&masf_graph::Phenomenon> = lall
        .iter()
        .filter(|p| p.title.starts_with("Wire message") && !p.title.ends_with("deleted"))
        .collect();
    assert_eq!(lmsgs.len(), 4);
    assert_eq!(
        rows_in(&lmsgs, &ldb, &android_messages("Assets2", true), 1, ""),
        4
    );
    assert_eq!(
        check(
            &lall,
            "Wire message m0",
            &ldb,
            "SELECT message_id, timestamp FROM MsgDeletion",
            0
        ),
        1
    );
    assert_eq!(
        check(
            &lall,
            "Wire user",
            &ldb,
            "SELECT _id, name, handle, connection, conn_timestamp, picture FROM Users WHERE connection != 'self'",
            0
        ),
        2
    );
    assert_eq!(
        check(
            &lall,
            "Wire account",
            &ldb,
            "SELECT Users._id, Users.name, Users.email, Users.phone, Users.picture FROM Users WHERE connection = 'self'",
            0
        ),
        1
    );
    // ALEAPP's first client of the self user, and every other client
    let clients: Vec<&masf_graph::Phenomenon> = lall
        .iter()
        .filter(|p| p.title.starts_with("Wire client"))
        .collect();
    assert_eq!(clients.len(), 3);
    assert_eq!(
        rows_in(
            &clients,
            &ldb,
            "SELECT json_extract(data, '$.clients[0].id'), json_extract(data, '$.clients[0].verification'), json_extract(data, '$.clients[0].label'), json_extract(data, '$.clients[0].model'), json_extract(data, '$.clients[0].regTime'), Users._id, Users.name FROM Users JOIN Clients ON Users._id = Clients._id WHERE connection = 'self'",
            0,
            ""
        ),
        1
    );
    assert!(
        lall.iter()
            .any(|p| p.title == "Wire client Desktop of Lena Vogt")
    );
    // a legacy session file: the other party by the file's name
    let session = lall
        .iter()
        .find(|p| p.title == format!("Wire encryption session with user {MIA}"))
        .expect("session");
    assert!(
        session
            .verified_facts
            .iter()
            .any(|f| f.value == "a1b2c3d4e5f60718")
    );
    // Omar's phone: the older legacy layout (Assets), the encrypted store, the sessions
    let oall = run.all_phenomena("omar");
    assert_eq!(
        check(
            &oall,
            "Wire message",
            &odb,
            &android_messages("Assets", false),
            1
        ),
        2
    );
    let osession = oall
        .iter()
        .find(|p| p.title == format!("Wire encryption session with user {LENA}"))
        .expect("session");
    for v in ["wire.com", "c0ffee0123456789", OMAR] {
        assert!(
            osession.verified_facts.iter().any(|f| f.value == v),
            "{v}: {osession:#?}"
        );
    }
    run.assert_noted(
        "omar",
        &[(&format!("user-db-{OMAR}-wirecom"), "encrypted (SQLCipher)")],
    );
    run.assert_noted(
        "lena",
        &[
            (&format!("user/10/com.wire/databases/{LENA}"), "malformed"),
            (
                &format!("user/11/com.wire/databases/{LENA}"),
                "neither a Users nor a Messages table",
            ),
        ],
    );
    run.assert_noted(
        "mia-iphone",
        &[
            (
                "00000000-0000-4000-8000-000000000001/store/store.wiredatabase",
                "malformed",
            ),
            (
                "00000000-0000-4000-8000-000000000002/store/store.wiredatabase",
                "neither a ZUSER nor a ZMESSAGE table",
            ),
        ],
    );

    // who is who: each account by its Wire user id, across devices and platforms
    assert!(
        run.owner("mia-iphone")
            .contains(&format!("account_id=wire:{MIA}"))
    );
    assert!(
        run.owner("mia-iphone")
            .contains("email=mia.keller@example.com")
    );
    assert!(run.owner("noah-iphone").contains("phone=+41795550123"));
    assert!(
        run.owner("lena")
            .contains(&format!("account_id=wire:{LENA}"))
    );
    assert!(run.owner("lena").contains("account_id=wire:@lena.v"));
    // Lena wrote the wallet on her phone; Noah wrote it to Mia
    assert!(
        run.owner("lena")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("mia-iphone/owner", format!("noah-iphone/wire:{MIA}")),
        ("mia-iphone/owner", format!("lena/wire:{MIA}")),
        ("noah-iphone/owner", format!("mia-iphone/wire:{NOAH}")),
        ("lena/owner", format!("mia-iphone/wire:{LENA}")),
        ("lena/owner", format!("omar/wire:{LENA}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
}
