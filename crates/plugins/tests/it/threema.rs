//! Threema on iOS (`ios::threema`): two iPhones' `ThreemaData.sqlite` written by Python's
//! sqlite3 with the Core Data tables and columns iLEAPP's Threema module queries (no public
//! copy is in the corpus). Every row and field of iLEAPP's `threema_chats` and `threema_users`
//! queries (run by the sqlite3 CLI; its attachment bytes and thumbnails left out — the
//! reader records the external file's name or the embedded size instead — and its 'local user'
//! placeholder left out: the store does not name the device's user) is found; the system
//! messages iLEAPP drops are read too; the contacts resolve across the two phones by Threema ID.
//! Beside them a truncated copy and a store of another layout (noted).

use masf_graph::Phenomenon;

use crate::android_support::triage;

pub(crate) const STORE: &str = r#"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE ZCONTACT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZVERIFICATIONLEVEL INTEGER, ZFEATUREMASK INTEGER,
  ZIDENTITY VARCHAR, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZPUBLICNICKNAME VARCHAR, ZCNCONTACTID VARCHAR, ZPUBLICKEY BLOB);
CREATE TABLE ZCONVERSATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCONTACT INTEGER, ZUNREADMESSAGECOUNT INTEGER,
  ZLASTUPDATE TIMESTAMP, ZGROUPNAME VARCHAR, ZGROUPID BLOB, ZGROUPMYIDENTITY VARCHAR);
CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISOWN INTEGER, ZREAD INTEGER, ZDELIVERED INTEGER,
  ZCONVERSATION INTEGER, ZSENDER INTEGER, ZAUDIO INTEGER, ZVIDEO INTEGER, ZIMAGE INTEGER, ZTHUMBNAIL INTEGER,
  ZDATE TIMESTAMP, ZDELIVERYDATE TIMESTAMP, ZREADDATE TIMESTAMP, ZTEXT VARCHAR, ZCAPTION VARCHAR, ZFILENAME VARCHAR, ZMIMETYPE VARCHAR,
  ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZACCURACY FLOAT, ZTYPE INTEGER, ZID BLOB);
CREATE TABLE ZIMAGEDATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZWIDTH INTEGER, ZHEIGHT INTEGER, ZDATA BLOB);
CREATE TABLE ZAUDIODATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATA BLOB);
CREATE TABLE ZVIDEODATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATA BLOB);
CREATE TABLE ZFILEDATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMESSAGE INTEGER, ZDATA BLOB);
""")
ents = ['AudioMessage', 'BallotMessage', 'FileMessage', 'ImageMessage', 'LocationMessage', 'SystemMessage', 'TextMessage', 'VideoMessage']
for i, n in enumerate(ents):
    db.execute('INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, 0)', (10 + i, n))
ent = {n: 10 + i for i, n in enumerate(ents)}
phone = sys.argv[2]
if phone == 'a':
    db.execute("INSERT INTO ZCONTACT VALUES (1, 3, 1, 2, 0, 'ECHOECHO', 'Ravi', 'Menon', 'ravi', '5E0A7C1B-3D2F-4A8B-9C6D-1E2F3A4B5C6D:ABPerson', x'00')")
    db.execute("INSERT INTO ZCONTACT VALUES (2, 3, 1, 1, 0, '9KX4PQ2Z', NULL, NULL, 'lena.v', NULL, x'00')")
    db.execute("INSERT INTO ZCONTACT VALUES (3, 3, 1, 0, 0, 'W7TRN3BC', 'Sam', NULL, NULL, NULL, x'00')")
    db.execute("INSERT INTO ZCONVERSATION VALUES (1, 5, 1, 1, 0, 723000000, NULL, NULL, NULL)")
    db.execute("INSERT INTO ZCONVERSATION VALUES (2, 5, 1, NULL, 0, 723000000, 'Depot crew', x'0102030405060708', 'DANAXXXX')")
    rows = [
        (1, 'TextMessage', 1, 1, 1, None, 723035600.5, 723035601.0, 723035700.0, 'send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', None, None, None, None, None, None),
        (2, 'TextMessage', 0, 1, 1, None, 723035660.0, None, None, 'ok, tonight', None, None, None, None, None, None),
        (3, 'ImageMessage', 0, 1, 1, None, 723035700.0, None, None, None, 'the receipt', None, 'image/jpeg', None, None, None),
        (4, 'AudioMessage', 1, 1, 1, None, 723035760.0, None, None, None, None, None, None, None, None, None),
        (5, 'TextMessage', 0, 1, 2, 2, 723036000.0, None, None, 'who has the van keys?', None, None, None, None, None, None),
        (6, 'LocationMessage', 0, 0, 2, 3, 723036060.0, None, None, None, None, None, None, 51.5072, -0.1276, 12.5),
        (7, 'FileMessage', 1, 1, 2, None, 723036120.0, None, None, None, 'manifest', 'manifest-0912.pdf', 'application/pdf', None, None, None),
        (8, 'SystemMessage', 0, 1, 2, None, 723036180.0, None, None, None, None, None, None, None, None, None),
    ]
    for (pk, e, own, read, conv, sender, date, delivered, readdate, text, caption, fname, mime, lat, lon, acc) in rows:
        db.execute('INSERT INTO ZMESSAGE VALUES (?, ?, 1, ?, ?, 1, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)',
                   (pk, ent[e], own, read, conv, sender, 4 if pk == 4 else None, None, 3 if pk == 3 else None, date, delivered, readdate,
                    text, caption, fname, mime, lat, lon, acc, bytes([pk]) * 8))
    db.execute("INSERT INTO ZIMAGEDATA VALUES (3, 7, 1, 1024, 768, ?)", (b'\x02' + b'8C1D2E3F-4A5B-4C6D-8E7F-90A1B2C3D4E5' + b'\x00',))
    db.execute("INSERT INTO ZAUDIODATA VALUES (4, 8, 1, ?)", (b'\x01' + bytes(range(100)),))
    db.execute("INSERT INTO ZFILEDATA VALUES (1, 9, 1, 7, ?)", (b'\x02' + b'9D2E3F40-5B6C-4D7E-8F90-A1B2C3D4E5F6' + b'\x00',))
else:
    db.execute("INSERT INTO ZCONTACT VALUES (1, 3, 1, 2, 0, 'ECHOECHO', NULL, NULL, 'ravi', NULL, x'00')")
    db.execute("INSERT INTO ZCONVERSATION VALUES (1, 5, 1, 1, 0, 723000000, NULL, NULL, NULL)")
    db.execute("INSERT INTO ZMESSAGE VALUES (1, ?, 1, 0, 1, 1, 1, NULL, NULL, NULL, NULL, NULL, 723040000.0, NULL, NULL, 'see you at the depot', NULL, NULL, NULL, NULL, NULL, NULL, NULL, x'01')", (ent['TextMessage'],))
db.commit()
"#;

/// iLEAPP's threema_chats query, its attachment and thumbnail bytes left out and its 'local
/// user' placeholder NULL; system messages (which it drops after the query) filtered.
const CHATS: &str = "SELECT m.Z_PK AS MID, m.ZDATE as COCOA, conv.Z_PK as C_ID, m.ZISOWN as OUT, \
CASE WHEN conv.ZGROUPNAME IS NOT NULL THEN conv.ZGROUPNAME WHEN cont.ZFIRSTNAME IS NOT NULL AND cont.ZLASTNAME IS NULL THEN cont.ZFIRSTNAME WHEN cont.ZFIRSTNAME IS NOT NULL AND cont.ZLASTNAME IS NOT NULL THEN cont.ZFIRSTNAME || ' ' || cont.ZLASTNAME WHEN cont.ZFIRSTNAME IS NULL AND cont.ZLASTNAME IS NOT NULL THEN cont.ZLASTNAME ELSE cont.ZPUBLICNICKNAME END AS CHAT, \
CASE WHEN m.ZISOWN = 1 THEN NULL WHEN m.ZSENDER IS NOT NULL THEN CASE WHEN sd.ZFIRSTNAME IS NOT NULL AND sd.ZLASTNAME IS NULL THEN sd.ZFIRSTNAME WHEN sd.ZFIRSTNAME IS NOT NULL AND sd.ZLASTNAME IS NOT NULL THEN sd.ZFIRSTNAME || ' ' || sd.ZLASTNAME WHEN sd.ZFIRSTNAME IS NULL AND sd.ZLASTNAME IS NOT NULL THEN sd.ZLASTNAME ELSE sd.ZPUBLICNICKNAME END \
ELSE CASE WHEN conv.ZGROUPNAME IS NOT NULL THEN conv.ZGROUPNAME WHEN cont.ZFIRSTNAME IS NOT NULL AND cont.ZLASTNAME IS NULL THEN cont.ZFIRSTNAME WHEN cont.ZFIRSTNAME IS NOT NULL AND cont.ZLASTNAME IS NOT NULL THEN cont.ZFIRSTNAME || ' ' || cont.ZLASTNAME WHEN cont.ZFIRSTNAME IS NULL AND cont.ZLASTNAME IS NOT NULL THEN cont.ZLASTNAME ELSE cont.ZPUBLICNICKNAME END END AS SENDER, \
m.ZREAD as READ, p.Z_NAME as MTYPE, CASE WHEN m.ZTEXT IS NOT NULL THEN m.ZTEXT WHEN m.ZCAPTION IS NOT NULL THEN m.ZCAPTION ELSE NULL END AS MESSAGE, \
m.ZFILENAME AS FILENAME, m.ZMIMETYPE AS MIMETYPE, m.ZLATITUDE AS LATITUDE, m.ZLONGITUDE AS LONGITUDE, m.ZACCURACY AS ACCURACY \
FROM ZMESSAGE m JOIN Z_PRIMARYKEY p ON m.Z_ENT = p.Z_ENT LEFT JOIN ZAUDIODATA ad ON ad.Z_PK = m.ZAUDIO LEFT JOIN ZVIDEODATA vd ON vd.Z_PK = m.ZVIDEO \
LEFT JOIN ZIMAGEDATA id ON id.Z_PK = m.ZIMAGE LEFT JOIN ZFILEDATA fd ON fd.ZMESSAGE = m.Z_PK LEFT JOIN ZIMAGEDATA tn ON tn.Z_PK = m.ZTHUMBNAIL \
LEFT JOIN ZCONTACT sd ON sd.Z_PK = m.ZSENDER LEFT JOIN ZCONVERSATION conv ON m.ZCONVERSATION = conv.Z_PK LEFT JOIN ZCONTACT cont ON conv.ZCONTACT = cont.Z_PK \
WHERE p.Z_NAME != 'SystemMessage'";
const USERS: &str = "SELECT ZCNCONTACTID AS CID, ZIDENTITY AS IDENTITY, ZFIRSTNAME AS FIRSTNAME, ZLASTNAME AS LASTNAME, ZPUBLICNICKNAME AS NICKNAME FROM ZCONTACT";

fn of<'a>(all: &'a [Phenomenon], prefix: &str) -> Vec<&'a Phenomenon> {
    all.iter().filter(|p| p.title.starts_with(prefix)).collect()
}

/// The Threema message of ZMESSAGE row `pk` (its interpretation names the row).
fn message<'a>(all: &'a [Phenomenon], pk: &str) -> &'a Phenomenon {
    all.iter()
        .find(|p| {
            p.title.starts_with("Threema ")
                && p.interpretation.contains(&format!("ZMESSAGE Z_PK {pk} of"))
        })
        .unwrap_or_else(|| panic!("message {pk}"))
}

#[test]
fn threema_messages_and_contacts_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let group =
        "private/var/mobile/Containers/Shared/AppGroup/1F2E3D4C-5B6A-4978-8A9B-0C1D2E3F4A5B";
    let mut dbs = Vec::new();
    for phone in ["a", "b"] {
        let root = tmp.path().join(phone);
        let db = root.join(group).join("ThreemaData.sqlite");
        std::fs::create_dir_all(db.parent().unwrap()).unwrap();
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(STORE)
            .arg(&db)
            .arg(phone)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
        dbs.push(db);
    }
    let a = tmp.path().join("a");
    let bytes = std::fs::read(&dbs[0]).unwrap();
    let cut = a.join("private/var/mobile/Containers/Shared/AppGroup/2A3B4C5D-6E7F-4081-9283-A4B5C6D7E8F9/ThreemaData.sqlite");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &a.join("private/var/mobile/Containers/Shared/AppGroup/3B4C5D6E-7F80-4192-A3B4-C5D6E7F8091A/ThreemaData.sqlite"),
        "CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY);",
    );
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &tmp.path().join("b"), "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let rows = crate::browsers::sqlite3(&dbs[0], CHATS);
    assert_eq!(rows.len(), 7);
    let has = |p: &Phenomenon, v: &str| p.verified_facts.iter().any(|f| f.value == v);
    for row in &rows {
        let p = message(&all, &row[0]);
        for v in row[1..].iter().filter(|v| !v.is_empty()) {
            assert!(has(p, v), "{v} in {p:#?}");
        }
    }
    let users: Vec<&Phenomenon> = of(&all, "Threema contact ");
    assert_eq!(
        crate::android_support::rows_in(&users, &dbs[0], USERS, 1, ""),
        users.len()
    );
    // the system message iLEAPP drops; the attachments by their external file or embedded size
    assert!(
        message(&all, "8")
            .title
            .starts_with("Threema system message in Depot crew")
    );
    assert!(has(
        message(&all, "3"),
        "8C1D2E3F-4A5B-4C6D-8E7F-90A1B2C3D4E5"
    ));
    assert!(has(
        message(&all, "7"),
        "9D2E3F40-5B6C-4D7E-8F90-A1B2C3D4E5F6"
    ));
    assert!(has(message(&all, "4"), "100"));
    // a received one-to-one message's sender is the conversation's contact; a group message's
    // its member
    assert!(has(message(&all, "2"), "ECHOECHO"));
    assert!(has(message(&all, "5"), "9KX4PQ2Z"));
    assert_eq!(
        message(&all, "1").title,
        "Threema text message sent in Ravi Menon"
    );

    let entities = run.entities("a");
    assert!(
        entities
            .iter()
            .any(|e| e.starts_with("threema:ECHOECHO [Person] Ravi Menon:")
                && e.contains("account_id=threema:ECHOECHO")
                && e.contains("contact_guid=5E0A7C1B-3D2F-4A8B-9C6D-1E2F3A4B5C6D")
                && e.contains("nickname=ravi")),
        "{entities:#?}"
    );
    // the wallet the device's user wrote to Ravi: theirs, and Ravi its reader
    assert!(
        run.owner("a")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{}",
        run.owner("a")
    );
    let with = crate::who::resolved(&run);
    assert!(
        with("a/threema:ECHOECHO").contains(&"b/threema:ECHOECHO".to_string()),
        "{:#?}",
        with("a/threema:ECHOECHO")
    );
    let b = run.all_phenomena("b");
    assert_eq!(
        of(&b, "Threema text message from ravi in ravi").len(),
        1,
        "{:#?}",
        b.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    run.assert_noted(
        "a",
        &[
            (
                "2A3B4C5D-6E7F-4081-9283-A4B5C6D7E8F9/ThreemaData.sqlite",
                "malformed",
            ),
            (
                "3B4C5D6E-7F80-4192-A3B4-C5D6E7F8091A/ThreemaData.sqlite",
                "neither ZMESSAGE nor ZCONTACT",
            ),
        ],
    );
}
