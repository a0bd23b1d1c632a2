//! Kijiji on Android (`android::kijiji`) and iOS (`ios::kijiji`): Dana sells a bike on her
//! Android phone to Ravi, who writes from his iPhone; Lena's Android phone keeps a store without
//! login preferences. The stores are written by Python (`sqlite3`, `json`, `xml.etree`) with the
//! tables, columns and JSON members ALEAPP's and iLEAPP's Kijiji modules read (no public copy is
//! in the corpus). Every field of their readings (run by Python as the oracle; their "Local
//! User" label is theirs, not stored) is found; Dana's eBay user id resolves with the
//! counterparty Ravi's iPhone keeps. A cache file of that name that is not Kijiji's is noted.

use crate::android_support::triage;

/// argv[1]: the message store, argv[2]: the login preferences (or "-"), argv[3]: the
/// counterparty; prints ALEAPP's readings, one tab-separated row each.
const ANDROID: &str = r#"
import json, sqlite3, sys
store, prefs, party = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
db = sqlite3.connect(store)
db.execute('CREATE TABLE conversations (identifier TEXT PRIMARY KEY, ad TEXT, counterParty TEXT, messages TEXT, sortByDate INTEGER, unreadCount INTEGER)')
msgs = [{'identifier': 'm1', 'sender': 'ME', 'sortByDate': 1701340800000, 'state': 'SENT', 'text': 'Road bike is yours, pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7'},
        {'identifier': 'm2', 'sender': party['identifier'], 'sortByDate': 1701340860000, 'state': 'READ', 'text': 'sent'}]
db.execute('INSERT INTO conversations VALUES (?, ?, ?, ?, ?, 0)', ('c-77', json.dumps({'identifier': '1500001', 'displayTitle': 'Road bike, 56 cm'}), json.dumps(party), json.dumps(msgs), 1701340860000))
db.commit()
if prefs != '-':
    import xml.etree.ElementTree as ET
    root = ET.Element('map')
    for k, v in [('UserEmailAddress', 'dana@example.org'), ('LoggedInAsUser', 'true'), ('UserDisplayName', 'Dana W'), ('userEbayIddana@example.org', '1000123')]:
        ET.SubElement(root, 'string', name=k).text = v
    ET.ElementTree(root).write(prefs, encoding='utf-8', xml_declaration=True)
    r = ET.parse(prefs).getroot()
    get = lambda n: r.find("./string/[@name='%s']" % n).text
    print('\t'.join(['acct', get('UserEmailAddress'), get('userEbayIddana@example.org'), get('UserDisplayName'), get('LoggedInAsUser')]))
for ident, ad, cp, messages in db.execute('SELECT identifier, ad, counterParty, messages FROM conversations ORDER BY sortByDate ASC'):
    cp, ad = json.loads(cp), json.loads(ad)
    for m in json.loads(messages):
        print('\t'.join(str(v) for v in ['msg', m['sortByDate'], ident, ad['identifier'], ad['displayTitle'], m['identifier'], cp['identifier'], cp['name'], m['state'], m['text']]))
"#;

/// argv[1]: the cache; prints iLEAPP's reading.
const IOS: &str = r#"
import json, sys
data = {'data': [{'conversationId': 'c-77', 'counterParty': {'identifier': '1000123', 'name': 'Dana W'}, 'ad': {'identifier': '1500001', 'displayTitle': 'Road bike, 56 cm'},
        'messages': [{'messageId': 'm1', 'sender': 1, 'sentDate': 723040000, 'messageStatus': 'READ', 'text': 'Road bike is yours, pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7'},
                     {'messageId': 'm2', 'sender': 0, 'sentDate': 723040060, 'messageStatus': 'SENT', 'text': 'sent'}]}]}
with open(sys.argv[1], 'w') as f:
    json.dump(data, f)
for c in json.load(open(sys.argv[1]))['data']:
    for m in c['messages']:
        print('\t'.join(str(v) for v in ['msg', m['sentDate'], c['conversationId'], c['ad']['identifier'], c['ad']['displayTitle'], m['messageId'], c['counterParty']['identifier'], c['counterParty']['name'], m['messageStatus'], m['text']]))
"#;

fn python(script: &str, args: &[&str]) -> Vec<Vec<String>> {
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
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn kijiji_on_android_phones_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let (dana, lena) = (tmp.path().join("dana"), tmp.path().join("lena"));
    let app = |root: &std::path::Path| root.join("data/data/com.ebay.kijiji.ca");
    for root in [&dana, &lena] {
        std::fs::create_dir_all(app(root).join("databases")).unwrap();
        std::fs::create_dir_all(app(root).join("shared_prefs")).unwrap();
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let dstore = app(&dana).join("databases/messageBoxDatabase");
    let dana_rows = python(
        ANDROID,
        &[
            dstore.to_str().unwrap(),
            app(&dana)
                .join("shared_prefs/LoginData.xml")
                .to_str()
                .unwrap(),
            r#"{"identifier": "1000456", "name": "Ravi"}"#,
        ],
    );
    let lstore = app(&lena).join("databases/messageBoxDatabase");
    let lena_rows = python(
        ANDROID,
        &[
            lstore.to_str().unwrap(),
            "-",
            r#"{"identifier": "1000789", "name": "Tom"}"#,
        ],
    );
    crate::android_support::damaged_copies(
        &dana,
        "com.ebay.kijiji.ca/databases/messageBoxDatabase",
        "CREATE TABLE conversations (identifier TEXT, body TEXT); INSERT INTO conversations VALUES ('1', 'x');",
    );
    let ravi = tmp.path().join("ravi-iphone");
    let container = ravi.join(
        "private/var/mobile/Containers/Data/Application/9C8B7A6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D",
    );
    let cache = container.join("Library/Caches/conversation_cache");
    std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
    let ravi_rows = python(IOS, &[cache.to_str().unwrap()]);
    let other = ravi.join("private/var/mobile/Containers/Data/Application/12345678-9ABC-4DEF-8123-456789ABCDEF/Library/Caches/conversation_cache");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::write(&other, br#"{"items": []}"#).unwrap();
    std::fs::create_dir_all(ravi.join("private/var/mobile/Library")).unwrap();
    let run = triage(&[
        ("dana", &dana, "America/Toronto", Some("CA")),
        ("lena", &lena, "America/Toronto", Some("CA")),
        ("ravi-iphone", &ravi, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, rows) in [
        ("dana", &dana_rows),
        ("lena", &lena_rows),
        ("ravi-iphone", &ravi_rows),
    ] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let msgs: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Kijiji message"))
            .collect();
        assert_eq!(msgs.len(), 2, "{source}");
        for row in rows {
            let found = if row[0] == "acct" {
                all.iter()
                    .filter(|p| p.title.starts_with("Kijiji account"))
                    .collect::<Vec<_>>()
            } else {
                msgs.clone()
            };
            // an account by its e-mail, a message by its id
            let key = if row[0] == "acct" { &row[1] } else { &row[5] };
            let p = found
                .iter()
                .find(|p| p.verified_facts.iter().any(|f| &f.value == key))
                .unwrap_or_else(|| panic!("{source}: {row:?} in none of {found:#?}"));
            for v in &row[1..] {
                assert!(
                    p.verified_facts.iter().any(|f| &f.value == v),
                    "{source}: {v} of {row:?} not in {p:#?}"
                );
            }
        }
    }
    assert!(
        run.all_phenomena("dana")
            .iter()
            .any(|p| p.title == "Kijiji message to Ravi about Road bike, 56 cm")
    );
    let owner = run.owner("dana");
    for id in [
        "account_id=kijiji:1000123",
        "email=dana@example.org",
        "wallet=0x52908400098527886e0f7030069857d2e4169ee7",
    ] {
        assert!(owner.contains(id), "{owner}");
    }
    let with = crate::who::resolved(&run);
    assert!(
        with("dana/owner")
            .iter()
            .any(|m| m == "ravi-iphone/kijiji:1000123"),
        "{:#?}",
        with("dana/owner")
    );
    let noted = run.unparsed("ravi-iphone");
    assert!(
        noted.iter().any(|u| u.artefact.contains("12345678-9ABC")
            && u.reason.contains("no data list of conversations")),
        "{noted:#?}"
    );
    run.assert_noted(
        "dana",
        &[
            (
                "user/10/com.ebay.kijiji.ca/databases/messageBoxDatabase",
                "malformed",
            ),
            (
                "user/11/com.ebay.kijiji.ca/databases/messageBoxDatabase",
                "table conversations lacks ad, counterParty, messages",
            ),
        ],
    );
}
