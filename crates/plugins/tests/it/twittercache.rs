//! X's model cache (`ios::twittercache`) at parity with iLEAPP's `twitterTweets`,
//! `twitterCachedUsers` and `twitterNotifications`. The corpus holds iLEAPP's recorded results
//! for Josh Hickman's iOS 17 iPhone (520 posts, 306 users, 119 notifications), not its
//! `modelCache.sqlite3`: the store is written by Python's sqlite3, gzip and json from those
//! rows, read in place from the corpus — each object back in its stored form (`ItemKeys`
//! `<id>|<model>|Twitter`, `Items.archivedObjectData` gzip-compressed JSON under
//! `cacheableModel`, Core Data seconds, milliseconds for notifications) — and triaged: every
//! row and field iLEAPP reports is found. A key whose object was evicted and an object that is
//! not JSON are counted and noted; a truncated store is noted; a `modelCache.sqlite3` outside a
//! `TFSModelCache` folder is passed over.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::android_support::triage;

const DB: &str = "private/var/mobile/Containers/Shared/AppGroup/3C2B1A09-8F7E-4D6C-B5A4-93827160F5E4/TFSModelCache.1068228364824178689/1068228364824178689/database/modelCache.sqlite3";
const E: i64 = 978_307_200;

const WRITE: &str = r#"
import gzip, json, os, sqlite3, sys
out, tweets, users, notes = sys.argv[1:5]
E = 978307200
os.makedirs(os.path.dirname(out), exist_ok=True)
db = sqlite3.connect(out)
db.executescript("""
CREATE TABLE Items (id INTEGER PRIMARY KEY, archivedObjectData BLOB, updatedAt REAL);
CREATE TABLE ItemKeys (itemKey TEXT PRIMARY KEY, itemId INTEGER);
""")
n = 0
def put(key, model):
    global n
    n += 1
    db.execute("INSERT INTO Items VALUES (?, ?, NULL)", (n, gzip.compress(json.dumps({'cacheableModel': model}).encode())))
    db.execute("INSERT INTO ItemKeys VALUES (?, ?)", (key, n))
for r in json.load(open(tweets))['data']:
    (posted, updated, text, author, lang, replies, rts, quotes, bms, views, sensitive, quoted, conv, pid) = r
    m = {'date': posted - E, 'updatedTimestamp': updated - E, 'originalText': text, 'fromUserID': author, 'language': lang,
         'replyCount': replies, 'retweetCount': rts, 'quoteCount': quotes, 'bookmarkCount': bms, 'conversationID': conv}
    if views not in ('', None):
        m['viewCountInfo'] = {'count': views}
    if sensitive == 'Yes':
        m['isPossiblySensitive'] = True
    if quoted:
        m['quotedStatusPermalinkEntity'] = {'expandedURL': quoted}
    put(pid + '|TwitterStatus|Twitter', m)
for r in json.load(open(users))['data']:
    (updated, name, uid, bio, followers, following, favs, blue, protected, image) = r
    m = {'updatedTimestamp': updated - E, 'username': name, 'bio': {'projectedValue': bio, 'defaultValue': ''},
         'followersCount': followers, 'followingCount': following, 'favoritesCount': {'projectedValue': favs, 'defaultValue': 0}}
    if blue == 'Yes':
        m['isBlueVerified'] = True
    if protected == 'Yes':
        m['protectedUser'] = True
    if image:
        m['profileImageMediaEntity'] = {'mediaURL': image}
    put(uid + '|TwitterMasterUser|Twitter', m)
for r in json.load(open(notes))['data']:
    (ts, text, icon, frm, nid) = r
    m = {'timestampMilliseconds': ts * 1000, 'richText': {'text': text}, 'icon': {'iconID': icon}, 'notificationID': nid,
         'fromUsers': [{'username': u} for u in frm.split(', ')] if frm else []}
    put(nid + '|URTNotification|Twitter', m)
# an evicted key and an object that is no JSON
db.execute("INSERT INTO ItemKeys VALUES ('999|TwitterStatus|Twitter', 99999)")
db.execute("INSERT INTO Items VALUES (99998, X'1f8b0800000000000003', NULL)")
db.execute("INSERT INTO ItemKeys VALUES ('998|TwitterStatus|Twitter', 99998)")
db.commit()
"#;

/// A value of iLEAPP's output as our facts hold it (`true` for its Yes; strings escaped as the
/// `json:` cell holds them); `None` for what it leaves blank.
fn as_fact(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if s == "Yes" => Some("true".into()),
        Value::String(s) if !s.is_empty() => Some(masf_plugins::outputs::in_json_cell(s)),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[test]
fn x_model_cache_at_parity_with_ileapp() {
    let tmp = tempfile::tempdir().unwrap();
    let case = "josh_ios17_ffs";
    let root = tmp.path().join("josh");
    let what = |w: &str| crate::ios::expected(&format!("twitterX.{w}.{case}"));
    let mut args = Vec::new();
    for w in [
        "twitterTweets",
        "twitterCachedUsers",
        "twitterNotifications",
    ] {
        let f = tmp.path().join(format!("{w}.json"));
        std::fs::write(&f, what(w).to_string()).unwrap();
        args.push(f);
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE])
        .arg(root.join(DB))
        .args(&args)
        .status()
        .unwrap();
    assert!(st.success());
    let bytes = std::fs::read(root.join(DB)).unwrap();
    let cut = root.join("private/var/mobile/Containers/Shared/AppGroup/3C2B1A09-8F7E-4D6C-B5A4-93827160F5E4/TFSModelCache.1/2/database/modelCache.sqlite3");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let elsewhere = root.join("private/var/mobile/Containers/Data/Application/0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9/Library/database/modelCache.sqlite3");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    std::fs::copy(root.join(DB), &elsewhere).unwrap();
    std::fs::create_dir_all(root.join("private/var/mobile/Library/SMS")).unwrap();

    let run = triage(&[("josh", root.as_path(), "America/New_York", Some("US"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("josh");
    // (model, id) → facts, times
    let mut by_id: HashMap<(String, String), (BTreeSet<String>, BTreeSet<String>)> = HashMap::new();
    for p in all.iter().filter(|p| p.title.starts_with("X ")) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        assert!(
            !p.verified_facts
                .iter()
                .any(|f| f.value.contains("/Containers/Data/")),
            "the store outside TFSModelCache was read: {}",
            p.title
        );
        let words: Vec<&str> = p.interpretation.split(' ').collect();
        let model = words[4].trim_matches(|c| c == '(' || c == ')').to_string();
        by_id.insert(
            (model, words[3].to_string()),
            crate::ios_support::facts_and_times(p),
        );
    }
    let (mut fields, mut found) = (0usize, 0usize);
    for (w, model, id_col, times) in [
        ("twitterTweets", "TwitterStatus", 13, &[0usize, 1][..]),
        ("twitterCachedUsers", "TwitterMasterUser", 2, &[0][..]),
        ("twitterNotifications", "URTNotification", 4, &[0][..]),
    ] {
        let exp = what(w);
        for row in exp["data"].as_array().unwrap() {
            let row = row.as_array().unwrap();
            let id = row[id_col].as_str().unwrap().to_string();
            let (facts, marks) = by_id
                .get(&(model.to_string(), id.clone()))
                .unwrap_or_else(|| panic!("{model} {id}"));
            for (i, v) in row.iter().enumerate() {
                let ok = if times.contains(&i) {
                    let t = v.as_i64().unwrap();
                    let stored = if model == "URTNotification" {
                        (t * 1000).to_string()
                    } else {
                        (t - E).to_string()
                    };
                    marks.contains(&stored)
                } else {
                    let Some(f) = as_fact(v) else { continue };
                    facts.contains(&f)
                };
                fields += 1;
                if ok {
                    found += 1;
                } else {
                    panic!("{model} {id}: column {i} = {v} not in {facts:?} / {marks:?}");
                }
            }
        }
    }
    eprintln!("X model cache: {found} of {fields} fields");
    assert_eq!(found, fields);
    run.assert_noted(
        "josh",
        &[
            (
                "TFSModelCache.1/2/database/modelCache.sqlite3",
                "malformed",
            ),
            (
                "1068228364824178689/database/modelCache.sqlite3",
                "cached posts (TwitterStatus): 1 key(s) without a stored object (evicted), 1 object(s) not gzip-compressed JSON",
            ),
        ],
    );
}
