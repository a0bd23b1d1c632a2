//! LinkedIn on Android (`android::linkedin`) and iOS (`ios::linkedin`): Dana's Android phone and
//! Ravi's iPhone, who message each other, beside Lena's Android phone and Tom's iPhone of older
//! layouts. Their stores are written by Python (the preferences XML by `xml.etree`, the iPhone's
//! plist by `plistlib`, the stores by `sqlite3`) with the tables, columns and JSON paths ALEAPP's
//! and iLEAPP's LinkedIn modules read (no public copy is in the corpus). Every row and field of
//! ALEAPP's message query and iLEAPP's (run by the sqlite3 CLI) and of their account readings
//! (Python) is found; each phone's member resolves across platforms by the public identifier of
//! the profile URL.

use crate::android_support::{check, triage};

const P: &str = r#"
def member(first, last, headline, public, distance):
    return {'participantType': {'member': {'firstName': {'text': first}, 'lastName': {'text': last}, 'headline': {'text': headline},
            'profileUrl': 'https://www.linkedin.com/in/' + public, 'distance': distance}}}
DANA = ('Dana', 'Whitfield', 'Accountant at Example Ltd', 'dana-whitfield-1a2b3c')
RAVI = ('Ravi', 'Menon', 'Freight broker', 'ravi-menon-77')
"#;

/// argv[1]: the preferences, argv[2]: the messenger store, argv[3]: "full" or "old"; prints
/// ALEAPP's account reading.
const ANDROID: &str = r#"
import json, sqlite3, sys
import xml.etree.ElementTree as ET
prefs, store, kind = sys.argv[1], sys.argv[2], sys.argv[3]
me, other = (DANA, RAVI) if kind == 'full' else (('Lena', 'Vogt', 'Analyst', 'lena-vogt'), RAVI)
root = ET.Element('map')
ET.SubElement(root, 'string', name='memberEmail').text = me[0].lower() + '@example.org'
ET.SubElement(root, 'long', name='lastLoggedInTimestamp', value='1701000000')
ET.SubElement(root, 'string', name='meModel').text = json.dumps({'plainId': 912345, 'miniProfile': {'firstName': me[0], 'lastName': me[1], 'occupation': me[2], 'publicIdentifier': me[3]}})
ET.ElementTree(root).write(prefs, encoding='utf-8', xml_declaration=True)
db = sqlite3.connect(store)
db.executescript("""
CREATE TABLE ParticipantsData (entityUrn TEXT PRIMARY KEY, entityData TEXT);
CREATE TABLE MessagesData (entityUrn TEXT PRIMARY KEY, conversationUrn TEXT, senderUrn TEXT, deliveredAt INTEGER, status INTEGER, entityData TEXT);
""" + ("""
CREATE TABLE ConversationsData (entityUrn TEXT PRIMARY KEY, entityData TEXT);
CREATE TABLE ConversationParticipantCrossRef (conversationUrn TEXT, participantUrn TEXT);
""" if kind == 'full' else ''))
pme, pother = 'urn:li:msg_messagingParticipant:me', 'urn:li:msg_messagingParticipant:other'
conv = 'urn:li:msg_conversation:(urn:li:fsd_profile:me,2-abc)'
db.execute('INSERT INTO ParticipantsData VALUES (?, ?)', (pme, json.dumps(member(*me, 'SELF'))))
db.execute('INSERT INTO ParticipantsData VALUES (?, ?)', (pother, json.dumps(member(*other, 'DISTANCE_1'))))
db.execute('INSERT INTO MessagesData VALUES (?, ?, ?, ?, ?, ?)', ('m1', conv, pme, 1701340800000, 5, json.dumps({'body': {'text': 'Invoice 4471: pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7'}, 'subject': 'Invoice'})))
db.execute('INSERT INTO MessagesData VALUES (?, ?, ?, ?, ?, ?)', ('m2', conv, pother, 1701340860000, 5, json.dumps({'body': {'text': 'sent'}})))
if kind == 'full':
    db.execute('INSERT INTO ConversationsData VALUES (?, ?)', (conv, json.dumps({'groupChat': False})))
    for p in (pme, pother):
        db.execute('INSERT INTO ConversationParticipantCrossRef VALUES (?, ?)', (conv, p))
db.commit()
m = json.loads(ET.parse(prefs).getroot().find("string[@name='meModel']").text)['miniProfile']
print('\t'.join(['acct', me[0].lower() + '@example.org', '912345', m['lastName'], m['firstName'], m['occupation'], m['publicIdentifier'], '1701000000']))
"#;

/// argv[1]: the plist, argv[2]: the store, argv[3]: "full" or "old"; prints iLEAPP's account
/// reading.
const IOS: &str = r#"
import json, plistlib, sqlite3, sys
plist, store, kind = sys.argv[1], sys.argv[2], sys.argv[3]
me, other = (RAVI, DANA) if kind == 'full' else (('Tom', 'Berg', 'Driver', 'tom-berg'), RAVI)
prof = {'firstName': me[0], 'lastName': me[1], 'headline': me[2], 'publicIdentifier': me[3], 'geoLocation': {'geo': {'defaultLocalizedName': 'Chicago, Illinois'}}}
with open(plist, 'wb') as f:
    plistlib.dump({'voy.authenticatedMemberId': '77001', 'voy.authenticatedDashProfileModel': prof, 'other': 1}, f, fmt=plistlib.FMT_BINARY)
db = sqlite3.connect(store)
db.execute('CREATE TABLE messages (id INTEGER PRIMARY KEY, deliveredAt INTEGER, deliveryStatus TEXT, serializedMessage TEXT, conversationUrn TEXT)')
conv = 'urn:li:msg_conversation:(urn:li:fsd_profile:x,2-abc)'
if kind == 'full':
    db.execute('CREATE TABLE conversations (conversationUrn TEXT PRIMARY KEY, serializedConversation TEXT)')
    db.execute('INSERT INTO conversations VALUES (?, ?)', (conv, json.dumps({'conversationParticipants': [member(*me, 'SELF'), member(*other, 'DISTANCE_1')]})))
db.execute('INSERT INTO messages VALUES (1, ?, ?, ?, ?)', (1701340800000, 'DELIVERED', json.dumps({'sender': member(*other, 'DISTANCE_1'), 'body': {'text': 'Invoice 4471: pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7'}}), conv))
db.execute('INSERT INTO messages VALUES (2, ?, ?, ?, ?)', (1701340860000, 'DELIVERED', json.dumps({'sender': member(*me, 'SELF'), 'body': {'text': 'sent'}}), conv))
db.commit()
print('\t'.join(['acct', '77001', prof['lastName'], prof['firstName'], prof['headline'], prof['geoLocation']['geo']['defaultLocalizedName'], prof['publicIdentifier']]))
"#;

fn python(script: &str, args: &[&std::path::Path], kind: &str) -> Vec<String> {
    for a in args {
        std::fs::create_dir_all(a.parent().unwrap()).unwrap();
    }
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(format!("{P}{script}"))
        .args(args)
        .arg(kind)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim_end()
        .split('\t')
        .map(str::to_string)
        .collect()
}

/// ALEAPP's linkedin_messages (its status word and sent flag as the stored values).
const ANDROID_MESSAGES: &str = "SELECT md.deliveredAt, md.status, TRIM(COALESCE(json_extract(pd.entityData, '$.participantType.member.firstName.text'), '') || ' ' || COALESCE(json_extract(pd.entityData, '$.participantType.member.lastName.text'), '')), json_extract(pd.entityData, '$.participantType.member.headline.text'), json_extract(pd.entityData, '$.participantType.member.profileUrl'), json_extract(pd.entityData, '$.participantType.member.distance'), json_extract(md.entityData, '$.subject'), json_extract(md.entityData, '$.body.text'), md.conversationUrn, \
(SELECT json_extract(p2.entityData, '$.participantType.member.firstName.text') || ' ' || json_extract(p2.entityData, '$.participantType.member.lastName.text') FROM ConversationParticipantCrossRef cp2 JOIN ParticipantsData p2 ON p2.entityUrn = cp2.participantUrn WHERE cp2.conversationUrn = md.conversationUrn AND json_extract(p2.entityData, '$.participantType.member.distance') != 'SELF' LIMIT 1) \
FROM MessagesData md JOIN ConversationsData cd ON cd.entityUrn = md.conversationUrn LEFT JOIN ParticipantsData pd on pd.entityUrn = md.senderUrn";

/// iLEAPP's linkedin_messages.
const IOS_MESSAGES: &str = "SELECT deliveredAt, deliveryStatus, json_extract(serializedMessage, '$.sender.participantType.member.firstName.text'), json_extract(serializedMessage, '$.sender.participantType.member.lastName.text'), json_extract(serializedMessage, '$.sender.participantType.member.headline.text'), json_extract(serializedMessage, '$.sender.participantType.member.profileUrl'), json_extract(serializedMessage, '$.sender.participantType.member.distance'), json_extract(serializedMessage, '$.body.text'), conversationUrn FROM messages";

#[test]
fn linkedin_on_android_phones_and_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let adir = |root: &std::path::Path| root.join("data/data/com.linkedin.android");
    let (dana, lena) = (tmp.path().join("dana"), tmp.path().join("lena"));
    let dana_acct = python(
        ANDROID,
        &[
            &adir(&dana).join("shared_prefs/linkedInPrefsName.xml"),
            &adir(&dana).join("databases/messenger-sdk"),
        ],
        "full",
    );
    python(
        ANDROID,
        &[
            &adir(&lena).join("shared_prefs/linkedInPrefsName.xml"),
            &adir(&lena).join("databases/messenger-sdk"),
        ],
        "old",
    );
    crate::android_support::damaged_copies(
        &dana,
        "com.linkedin.android/databases/messenger-sdk",
        "CREATE TABLE MessagesData (entityUrn TEXT, body TEXT); INSERT INTO MessagesData VALUES ('1', 'x');",
    );
    for root in [&dana, &lena] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let app = "private/var/mobile/Containers/Data/Application/7A6B5C4D-3E2F-4A1B-9C8D-7E6F5A4B3C2D";
    let (ravi, tom) = (
        tmp.path().join("ravi-iphone"),
        tmp.path().join("tom-iphone"),
    );
    let ravi_acct = python(
        IOS,
        &[
            &ravi
                .join(app)
                .join("Library/Preferences/com.linkedin.LinkedIn.plist"),
            &ravi.join(app).join("Documents/msg_database.sqlite"),
        ],
        "full",
    );
    python(
        IOS,
        &[
            &tom.join(app)
                .join("Library/Preferences/com.linkedin.LinkedIn.plist"),
            &tom.join(app).join("Documents/msg_database.sqlite"),
        ],
        "old",
    );
    // another app's msg_database.sqlite (no LinkedIn preferences in its container): passed over
    let foreign = ravi.join("private/var/mobile/Containers/Data/Application/11111111-2222-4333-8444-555555555555/Documents/msg_database.sqlite");
    crate::ios_nearby::sqlite3(
        &foreign,
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO messages VALUES (1, 'x');",
    );
    for root in [&ravi, &tom] {
        std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
    }
    let run = triage(&[
        ("dana", &dana, "Europe/London", Some("GB")),
        ("lena", &lena, "Europe/Berlin", Some("DE")),
        ("ravi-iphone", &ravi, "America/Chicago", Some("US")),
        ("tom-iphone", &tom, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let has = |p: &masf_graph::Phenomenon, v: &str| p.verified_facts.iter().any(|f| f.value == v);
    for (source, acct) in [("dana", &dana_acct), ("ravi-iphone", &ravi_acct)] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let a = all
            .iter()
            .find(|p| p.title.starts_with("LinkedIn account"))
            .unwrap_or_else(|| panic!("{source}: no account"));
        for v in &acct[1..] {
            assert!(has(a, v), "{source}: {v} in {a:#?}");
        }
    }
    let dana_all = run.all_phenomena("dana");
    let adb = adir(&dana).join("databases/messenger-sdk");
    assert_eq!(
        check(&dana_all, "LinkedIn message", &adb, ANDROID_MESSAGES, 0),
        2
    );
    assert!(
        dana_all
            .iter()
            .any(|p| p.title == "LinkedIn message sent to Ravi Menon")
    );
    assert_eq!(
        check(
            &dana_all,
            "LinkedIn member",
            &adb,
            "SELECT entityUrn, json_extract(entityData, '$.participantType.member.firstName.text'), json_extract(entityData, '$.participantType.member.profileUrl') FROM ParticipantsData",
            0
        ),
        2
    );
    let ravi_all = run.all_phenomena("ravi-iphone");
    let idb = ravi.join(app).join("Documents/msg_database.sqlite");
    assert_eq!(
        check(&ravi_all, "LinkedIn message", &idb, IOS_MESSAGES, 0),
        2
    );
    assert!(
        ravi_all
            .iter()
            .any(|p| p.title == "LinkedIn message from Dana Whitfield")
    );
    // the older layouts: messages read without conversations
    let ldb = adir(&lena).join("databases/messenger-sdk");
    assert_eq!(
        check(
            &run.all_phenomena("lena"),
            "LinkedIn message",
            &ldb,
            "SELECT deliveredAt, json_extract(entityData, '$.body.text') FROM MessagesData",
            0
        ),
        2
    );
    let tdb = tom.join(app).join("Documents/msg_database.sqlite");
    assert_eq!(
        check(
            &run.all_phenomena("tom-iphone"),
            "LinkedIn message",
            &tdb,
            IOS_MESSAGES,
            0
        ),
        2
    );
    // who is who, across platforms, by the profile URL's public identifier
    assert!(
        run.owner("dana")
            .contains("account_id=linkedin:dana-whitfield-1a2b3c")
    );
    assert!(run.owner("dana").contains("email=dana@example.org"));
    assert!(
        run.owner("ravi-iphone")
            .contains("account_id=linkedin:ravi-menon-77")
    );
    // Dana wrote the wallet: her claim on her phone
    assert!(
        run.owner("dana")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("dana/owner", "ravi-iphone/linkedin:dana-whitfield-1a2b3c"),
        ("ravi-iphone/owner", "dana/linkedin:ravi-menon-77"),
        ("ravi-iphone/owner", "lena/linkedin:ravi-menon-77"),
        ("ravi-iphone/owner", "tom-iphone/linkedin:ravi-menon-77"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    run.assert_noted(
        "dana",
        &[
            (
                "user/10/com.linkedin.android/databases/messenger-sdk",
                "malformed",
            ),
            (
                "user/11/com.linkedin.android/databases/messenger-sdk",
                "table MessagesData lacks entityData, conversationUrn, deliveredAt",
            ),
        ],
    );
    assert!(
        !run.all_phenomena("ravi-iphone").iter().any(|p| p
            .verified_facts
            .iter()
            .any(|f| f.value.contains("11111111-2222"))),
        "another app's msg_database.sqlite was read"
    );
}
