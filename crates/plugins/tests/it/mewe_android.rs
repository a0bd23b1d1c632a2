//! MeWe on Android (`android::mewe`): the phone of the iLEAPP test case's second account
//! (ThisIs DFIRTwo, who chats with the iPhone's This Is DFIR: the iPhone is that public case,
//! `testdata.meWe.meWeMessages.josh_ios17_ffs.zip`) with the newer store `app_v3.db` and its
//! `SGSession.xml`, and Kai's phone with the older `app_database` (no direction or sender id
//! columns). The Android stores are written by Python (`sqlite3`, `xml.etree`) with the tables and
//! columns ALEAPP's nine `mewe` artefacts read (no public Android copy is in the corpus). Every
//! row and field of ALEAPP's queries (run by the sqlite3 CLI; its times and flags as stored,
//! where it prints them converted or as Yes/blank) is found; the two accounts resolve across
//! platforms by their MeWe user ids. Beside them the empty `mewe_old` (passed over) and a
//! truncated store (noted).

use crate::android_support::{check, rows_in, triage};

const ME: &str = "5f665fc8ebc61b76650fc7e5";
const DFIR: &str = "5e2f8b72ae8d404b182c0d14";

/// argv[1]: the first phone's root, argv[2]: Kai's.
const WRITE: &str = r#"
import os, sqlite3, sys
import xml.etree.ElementTree as ET
one, kai = sys.argv[1], sys.argv[2]
ME, DFIR = sys.argv[3], sys.argv[4]
def mk(p):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p
db = sqlite3.connect(mk(os.path.join(one, 'data/data/com.mewe/databases/app_v3.db')))
db.executescript("""
CREATE TABLE CHAT_THREAD (id TEXT PRIMARY KEY, name TEXT, groupId TEXT, chatType TEXT);
CREATE TABLE CHAT_MESSAGE (id TEXT PRIMARY KEY, threadId TEXT, createdAt INTEGER, currentUserMessage INTEGER, ownerName TEXT, ownerId TEXT, textPlain TEXT, attachmentType TEXT, attachmentName TEXT, deleted INTEGER);
CREATE TABLE CHAT_THREAD_PARTICIPANT (id TEXT PRIMARY KEY, chatThreadId TEXT, name TEXT, handle TEXT, status TEXT, isOwner INTEGER, isAdmin INTEGER, fingerprint TEXT);
CREATE TABLE POST (id TEXT PRIMARY KEY, createdAt INTEGER, editedAt INTEGER, ownerName TEXT, ownerHandle TEXT, groupName TEXT, groupId TEXT, textPlain TEXT, currentUserPost INTEGER, commentsCount INTEGER, mediasCount INTEGER, sharesCount INTEGER, hasLink INTEGER, linkUrl TEXT, linkTitle TEXT, albumName TEXT, pollQuestion TEXT, pollVotes INTEGER, pollClosed INTEGER, pollEndDate INTEGER, eventName TEXT, eventLocation TEXT, isAllfeed INTEGER, isDiscoveryFeed INTEGER, isFavoriteFeed INTEGER, inProfile INTEGER, isRefpost INTEGER);
CREATE TABLE COMMENT (id TEXT PRIMARY KEY, postId TEXT, createdAt INTEGER, editedAt INTEGER, ownerName TEXT, ownerHandle TEXT, textPlain TEXT, currentUserPost INTEGER, repliesCount INTEGER, hasPhoto INTEGER, photoName TEXT, hasAudio INTEGER, audioDuration INTEGER, hasLink INTEGER, linkUrl TEXT, documentName TEXT);
CREATE TABLE POST_MEDIA (itemId TEXT PRIMARY KEY, postId TEXT, type TEXT, mime TEXT, name TEXT, imageUrl TEXT, imageWidth INTEGER, imageHeight INTEGER, videoUrlTemplate TEXT, availableVideoResolutions TEXT);
CREATE TABLE POLL_OPTION (id INTEGER PRIMARY KEY, postId TEXT, text TEXT, votes INTEGER, position INTEGER, imageUrl TEXT);
CREATE TABLE EMOJI_POST (postId TEXT, key TEXT, count INTEGER, userReacted INTEGER);
CREATE TABLE EMOJI_CHAT_MESSAGE (chatMessageId TEXT, key TEXT, count INTEGER, userReacted INTEGER);
CREATE TABLE GROUP_ (_id TEXT PRIMARY KEY, lastOpenTime INTEGER, name TEXT, descriptionPlain TEXT, groupAccessType TEXT, roleEnum TEXT, isPublic INTEGER, isConfirmed INTEGER, publicUrlId TEXT, ownerId TEXT);
CREATE TABLE PAGE (id TEXT PRIMARY KEY, name TEXT, description TEXT, categoryName TEXT, followers INTEGER, isVerified INTEGER, isFollower INTEGER, isOwner INTEGER, isAdmin INTEGER, urlId TEXT);
CREATE TABLE COMMUNITY (id TEXT PRIMARY KEY, lastVisit INTEGER, name TEXT, type TEXT, isConfirmed INTEGER, isVerified INTEGER);
""")
db.execute("INSERT INTO CHAT_THREAD VALUES ('th1', 'This Is DFIR', 'contacts', 'PRIVATE')")
db.execute("INSERT INTO CHAT_MESSAGE VALUES ('c1', 'th1', 1701340800, 0, 'This Is DFIR', ?, 'You here? send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', NULL, NULL, 0)", (DFIR,))
db.execute("INSERT INTO CHAT_MESSAGE VALUES ('c2', 'th1', 1701340860, 1, 'ThisIs DFIRTwo', ?, 'https://www.openstreetmap.org/?mlat=35.66119068051331&mlon=-78.87970943783533&zoom=17&meweLocationType=current', NULL, NULL, 0)", (ME,))
db.execute("INSERT INTO CHAT_MESSAGE VALUES ('c3', 'th1', 1701340900, 1, 'ThisIs DFIRTwo', ?, NULL, 'PHOTO', 'IMG_0042.jpg', 1)", (ME,))
db.execute("INSERT INTO CHAT_MESSAGE VALUES ('c4', 'th1', 1701341000, 0, 'This Is DFIR', ?, 'sticker', 'UNSUPPORTED', NULL, 0)", (DFIR,))
db.execute("INSERT INTO CHAT_THREAD_PARTICIPANT VALUES ('p1', 'th1', 'This Is DFIR', 'thisisdfir', 'ACTIVE', 0, 0, 'fp-77aa')")
db.execute("INSERT INTO POST VALUES ('po1', 1701000000, 1701000600, 'This Is DFIR', 'thisisdfir', 'DFIR Group', 'g1', 'Meeting at the usual place', 0, 2, 1, 0, 1, 'https://example.org/map', 'Map', 'Trip', 'Which day?', 3, 0, 1701600000, 'Meetup', 'Raleigh', 1, 0, 1, 0, 0)")
db.execute("INSERT INTO COMMENT VALUES ('co1', 'po1', 1701000700, NULL, 'ThisIs DFIRTwo', 'thisisdfirtwo', 'Tuesday works', 1, 0, 1, 'photo.jpg', 1, 12, 0, NULL, 'plan.pdf')")
db.execute("INSERT INTO POST_MEDIA VALUES ('it1', 'po1', 'PHOTO', 'image/jpeg', 'map.jpg', '/api/v2/photo/abc/{imageSize}/img', 1024, 768, NULL, NULL)")
db.execute("INSERT INTO POLL_OPTION VALUES (1, 'po1', 'Tuesday', 2, 0, NULL)")
db.execute("INSERT INTO POLL_OPTION VALUES (2, 'po1', 'Friday', 1, 1, NULL)")
db.execute("INSERT INTO EMOJI_POST VALUES ('po1', ':thumbsup:', 4, 1)")
db.execute("INSERT INTO EMOJI_CHAT_MESSAGE VALUES ('c1', ':eyes:', 1, 1)")
db.execute("INSERT INTO GROUP_ VALUES ('g1', 1701500000000, 'DFIR Group', 'Talk about cases', 'private', 'admin', 0, 1, 'dfir-group', ?)", (DFIR,))
db.execute("INSERT INTO PAGE VALUES ('pg1', 'MeWe Official', 'News', 'Company', 120000, 1, 1, 0, 0, 'mewe')")
db.execute("INSERT INTO COMMUNITY VALUES ('cm1', 1701400000000, 'Carolina Hikers', 'public', 1, 0)")
db.commit()
sqlite3.connect(mk(os.path.join(one, 'data/data/com.mewe/databases/mewe_old'))).execute('CREATE TABLE android_metadata (locale TEXT)')
root = ET.Element('map')
ET.SubElement(root, 'string', name='user_info' + ME).text = '{"name":"ThisIs DFIRTwo","handle":"thisisdfirtwo"}'
ET.SubElement(root, 'string', name='com.mewe.cache.version').text = '7'
ET.SubElement(root, 'boolean', name='logged_in', value='true')
ET.ElementTree(root).write(mk(os.path.join(one, 'data/data/com.mewe/shared_prefs/SGSession.xml')), encoding='utf-8', xml_declaration=True)
db = sqlite3.connect(mk(os.path.join(kai, 'data/data/com.mewe/databases/app_database')))
db.executescript("""
CREATE TABLE CHAT_THREAD (id TEXT PRIMARY KEY, name TEXT);
CREATE TABLE CHAT_MESSAGE (id TEXT PRIMARY KEY, threadId TEXT, createdAt INTEGER, ownerName TEXT, textPlain TEXT);
INSERT INTO CHAT_THREAD VALUES ('t9', 'Hiking');
INSERT INTO CHAT_MESSAGE VALUES ('k1', 't9', 1690000000, 'Kai', 'Trailhead at 7');
INSERT INTO CHAT_MESSAGE VALUES ('k2', NULL, 1690000100, 'Ana', 'no thread row');
""")
db.commit()
"#;

#[test]
fn mewe_on_two_android_phones_beside_the_public_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, kai) = (tmp.path().join("dfirtwo"), tmp.path().join("kai"));
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([one.as_os_str(), kai.as_os_str()])
        .args([ME, DFIR])
        .status()
        .unwrap();
    assert!(st.success());
    for root in [&one, &kai] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let db = one.join("data/data/com.mewe/databases/app_v3.db");
    let kdb = kai.join("data/data/com.mewe/databases/app_database");
    let bytes = std::fs::read(&db).unwrap();
    let cut = kai.join("data/user/10/com.mewe/databases/app_v3.db");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let iphone = crate::ios::ileapp("testdata.meWe.meWeMessages.josh_ios17_ffs.zip");
    let run = triage(&[
        ("dfirtwo", &one, "America/New_York", Some("US")),
        ("kai", &kai, "America/New_York", Some("US")),
        ("josh-iphone", &iphone, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("dfirtwo");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // ALEAPP's chat query (inner join on the thread; its UNSUPPORTED type left blank)
    let msgs: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("MeWe message"))
        .collect();
    assert_eq!(
        rows_in(
            &msgs,
            &db,
            "SELECT CHAT_MESSAGE.createdAt, CHAT_MESSAGE.ownerName, CHAT_THREAD.name, CHAT_MESSAGE.textPlain, CHAT_MESSAGE.threadId, CHAT_THREAD.groupId, CHAT_THREAD.chatType, CHAT_MESSAGE.ownerId, CASE CHAT_MESSAGE.attachmentType WHEN 'UNSUPPORTED' THEN '' ELSE CHAT_MESSAGE.attachmentType END, CHAT_MESSAGE.attachmentName, CHAT_MESSAGE.deleted FROM CHAT_MESSAGE JOIN CHAT_THREAD ON CHAT_MESSAGE.threadId = CHAT_THREAD.id",
            0,
            ""
        ),
        4
    );
    assert_eq!(msgs.len(), 4);
    for (prefix, sql, key, rows) in [
        (
            "MeWe chat participant",
            "SELECT p.name, p.handle, p.status, p.isOwner, p.isAdmin, p.fingerprint, t.name, t.chatType, p.chatThreadId, p.id FROM CHAT_THREAD_PARTICIPANT p LEFT JOIN CHAT_THREAD t ON t.id = p.chatThreadId",
            9,
            1,
        ),
        (
            "MeWe post by",
            "SELECT createdAt, editedAt, ownerName, ownerHandle, groupName, groupId, textPlain, currentUserPost, commentsCount, mediasCount, sharesCount, linkUrl, linkTitle, albumName, pollQuestion, pollVotes, eventName, eventLocation, isAllfeed, isDiscoveryFeed, isFavoriteFeed, inProfile, isRefpost, id FROM POST",
            23,
            1,
        ),
        (
            "MeWe comment by",
            "SELECT c.createdAt, c.editedAt, c.ownerName, c.ownerHandle, c.textPlain, c.currentUserPost, c.repliesCount, c.hasPhoto, c.photoName, c.hasAudio, c.audioDuration, c.linkUrl, c.documentName, c.postId, p.textPlain, p.ownerName, c.id FROM COMMENT c LEFT JOIN POST p ON p.id = c.postId",
            16,
            1,
        ),
        (
            "MeWe post media",
            "SELECT m.postId, m.type, m.mime, m.name, m.imageUrl, m.imageWidth, m.imageHeight, m.videoUrlTemplate, m.availableVideoResolutions, p.createdAt, p.ownerName, p.groupName, m.itemId FROM POST_MEDIA m LEFT JOIN POST p ON p.id = m.postId",
            12,
            1,
        ),
        (
            "MeWe poll option",
            "SELECT o.text, p.createdAt, p.ownerName, p.groupName, p.pollQuestion, p.pollClosed, p.pollEndDate, p.pollVotes, o.votes, o.position, o.imageUrl, p.id FROM POLL_OPTION o LEFT JOIN POST p ON p.id = o.postId",
            0,
            2,
        ),
        (
            "MeWe reaction",
            "SELECT e.key, e.count, e.userReacted, e.postId, p.ownerName, p.textPlain, p.createdAt FROM EMOJI_POST e LEFT JOIN POST p ON p.id = e.postId UNION ALL SELECT e.key, e.count, e.userReacted, e.chatMessageId, m.ownerName, m.textPlain, m.createdAt FROM EMOJI_CHAT_MESSAGE e LEFT JOIN CHAT_MESSAGE m ON m.id = e.chatMessageId",
            0,
            2,
        ),
        (
            "MeWe group",
            "SELECT lastOpenTime, name, descriptionPlain, groupAccessType, roleEnum, isPublic, isConfirmed, publicUrlId, ownerId, _id FROM GROUP_",
            9,
            1,
        ),
        (
            "MeWe page",
            "SELECT name, description, categoryName, followers, isVerified, isFollower, isOwner, isAdmin, urlId, id FROM PAGE",
            9,
            1,
        ),
        (
            "MeWe community",
            "SELECT lastVisit, name, type, isConfirmed, isVerified, id FROM COMMUNITY",
            5,
            1,
        ),
    ] {
        assert_eq!(check(&all, prefix, &db, sql, key), rows, "{prefix}");
    }
    // the session: every preference without a dot, the user id of its user_info key
    let session = all
        .iter()
        .find(|p| p.title == format!("MeWe session of user {ME}"))
        .expect("session");
    assert!(
        session
            .verified_facts
            .iter()
            .any(|f| f.value == "logged_in")
    );
    assert!(
        !session
            .verified_facts
            .iter()
            .any(|f| f.value == "com.mewe.cache.version")
    );
    // Kai's older store: no direction, no sender id; the message without a thread read too
    let kall = run.all_phenomena("kai");
    assert_eq!(
        check(
            &kall,
            "MeWe message",
            &kdb,
            "SELECT createdAt, ownerName, textPlain FROM CHAT_MESSAGE",
            0
        ),
        2
    );
    assert!(
        kall.iter()
            .any(|p| p.title == "MeWe message from Kai in Hiking")
    );
    run.assert_noted(
        "kai",
        &[("user/10/com.mewe/databases/app_v3.db", "malformed")],
    );
    assert!(
        !run.unparsed("dfirtwo")
            .iter()
            .any(|u| u.artefact.ends_with("mewe_old"))
    );
    // who is who, across platforms, by the MeWe user ids
    assert!(
        run.owner("dfirtwo")
            .contains(&format!("account_id=mewe:{ME}"))
    );
    // the wallet This Is DFIR wrote is a claim of his, not of the phone's user
    let wallet = "wallet=0x52908400098527886e0f7030069857d2e4169ee7";
    assert!(!run.owner("dfirtwo").contains(wallet));
    assert!(
        run.entities("dfirtwo")
            .iter()
            .any(|e| e.starts_with(&format!("mewe:{DFIR} ")) && e.contains(wallet)),
        "{:#?}",
        run.entities("dfirtwo")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("josh-iphone/owner", format!("dfirtwo/mewe:{DFIR}")),
        ("dfirtwo/owner", format!("josh-iphone/mewe:{ME}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
}
