//! GroupMe's store (`ios::groupmedb`) at parity with iLEAPP's `groupMeMessages`,
//! `groupMeChats`, `groupMeGroupMembers` and `groupMeContacts`. The corpus holds iLEAPP's
//! recorded results for Josh Hickman's iOS 17 iPhone (146 messages, 15 chats, 5 members, 14
//! contacts) and that phone's real `com.groupme.iphone-app.plist`, not its `GroupMe.sqlite`: the
//! store is written by Python's sqlite3 from those rows, read in place from the corpus — each
//! value back in its stored form (Core Data seconds, 1/0 flags, messages linked to their chats,
//! attachments as rows, a deletion status as the archived `GMMessageDeletionStatus`) — beside the
//! real plist, and triaged: every row and field iLEAPP reports is found, the direction given by
//! the plist's `userId`. A second iPhone, signed in as a member of Josh's group, holds an older
//! store (no deletion status, no address-book table) written by the sqlite3 CLI: its user
//! resolves to that member. A truncated store is noted.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::android_support::triage;

const CONTAINER: &str =
    "private/var/mobile/Containers/Data/Application/F87AD240-7074-48F0-B414-08EFDDD24AEA";
const E: i64 = 978_307_200;

const WRITE: &str = r#"
import json, os, sqlite3, sys, plistlib
from plistlib import UID
out, msgs, chats, members, contacts = sys.argv[1:6]
E = 978307200
os.makedirs(os.path.dirname(out), exist_ok=True)
db = sqlite3.connect(out)
db.executescript("""
CREATE TABLE ZGMCHAT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMUTED INTEGER, ZHIDDEN INTEGER, ZUNREADCOUNT INTEGER,
  ZCREATEDAT TIMESTAMP, ZUPDATEDAT TIMESTAMP, ZLASTMESSAGEDATE TIMESTAMP, ZLASTVIEWED TIMESTAMP, ZAVATARURL VARCHAR, ZCHATID VARCHAR,
  ZCHATTYPE VARCHAR, ZCREATORID VARCHAR, ZGROUPDESCRIPTION VARCHAR, ZGROUPTYPE VARCHAR, ZNAME VARCHAR, ZSHAREURL VARCHAR, ZUSERID VARCHAR);
CREATE TABLE ZGMMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHIDDEN INTEGER, ZSYSTEM INTEGER, ZGROUP INTEGER, ZUSER INTEGER,
  ZCREATEDAT TIMESTAMP, ZDIRECTMESSAGEID VARCHAR, ZLINEID VARCHAR, ZMESSAGE VARCHAR, ZNAME VARCHAR, ZREPLYMESSAGEID VARCHAR,
  ZSOURCEGUID VARCHAR, ZUSERID VARCHAR, ZFAVORITEDBY BLOB, ZMESSAGEDELETIONSTATUS BLOB);
CREATE TABLE ZGMATTACHMENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMESSAGE INTEGER, ZLAT VARCHAR, ZLNG VARCHAR,
  ZTYPE VARCHAR, ZURL VARCHAR, ZFILENAME VARCHAR, ZVENUENAME VARCHAR);
CREATE TABLE ZGMMEMBER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISAUTOKICKED INTEGER, ZGROUP INTEGER, ZAVATARURL VARCHAR,
  ZGLOBALUSERID VARCHAR, ZMEMBERID VARCHAR, ZNAME VARCHAR, ZREALNAME VARCHAR, ZSTATE VARCHAR);
CREATE TABLE ZGMRELATIONSHIP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBLOCKED INTEGER, ZHIDDEN INTEGER, ZISAPPUSER INTEGER,
  ZCREATEDAT TIMESTAMP, ZUPDATEDAT TIMESTAMP, ZAVATARURL VARCHAR, ZNAME VARCHAR, ZPHONENUMBER VARCHAR, ZRELATIONSHIPID VARCHAR, ZUSERID VARCHAR);
CREATE TABLE ZGMABCONTACT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRELATIONSHIP INTEGER, ZCONTACTSID VARCHAR, ZFULLNAME VARCHAR);
""")
t = lambda v: None if v in ('', None) else v - E
yes = lambda v: 1 if v == 'Yes' else 0
def archive(d):
    objects = ['$null', {'$class': UID(2)}, {'$classname': 'GMMessageDeletionStatus', '$classes': ['GMMessageDeletionStatus', 'NSObject']}]
    for k, v in d.items():
        objects[1][k] = v
    return plistlib.dumps({'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(1)}, '$objects': objects}, fmt=plistlib.FMT_BINARY)
chat_pk = {}
for i, r in enumerate(json.load(open(chats))['data']):
    (created, last, viewed, name, cid, ctype, gtype, desc, other, creator, count, unread, muted, hidden, share, avatar) = r
    chat_pk[cid] = i + 1
    db.execute("INSERT INTO ZGMCHAT VALUES (?, 3, 1, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (i + 1, yes(muted), yes(hidden), unread, t(created), t(last), t(viewed), avatar, cid,
         'group' if ctype == 'Group' else 'chat', creator, desc, gtype, name, share, other))
att = 0
for i, r in enumerate(json.load(open(msgs))['data']):
    (ts, from_me, sender, conv, text, cid, ctype, sid, atypes, aurls, venue, lat, lng, system, hidden, recorded,
     sysdel, actor, fav, reply, mid, guid) = r
    group = ctype == 'Group'
    status = None
    if recorded == 'Yes':
        d = {}
        if sysdel != '':
            d['isSystemDeleted'] = sysdel == 'Yes'
        if actor != '':
            d['deletionActor'] = actor
        status = archive(d)
    pk = chat_pk.get(cid)
    db.execute("INSERT INTO ZGMMESSAGE VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (i + 1, 16 if group else 15, yes(hidden), yes(system), pk if group else None, None if group else pk, t(ts),
         None if group else mid, mid if group else None, text, sender, reply, guid, sid, 1 if fav == 'Yes' else None, status))
    types = atypes.split(', ') if atypes else []
    urls = aurls.split(', ') if aurls else []
    part = lambda v: str(v).split(', ') if v not in ('', None) else []
    lats, lngs, venues = part(lat), part(lng), part(venue)
    if types.count('location') == 1 and venue not in ('', None):
        venues = [venue]
    k = 0
    for j, ty in enumerate(types):
        att += 1
        loc = ty == 'location'
        at = lambda xs: xs[k] if loc and k < len(xs) else None
        db.execute("INSERT INTO ZGMATTACHMENT VALUES (?, 4, 1, ?, ?, ?, ?, ?, NULL, ?)",
            (att, i + 1, at(lats), at(lngs), ty, urls[j] if j < len(urls) else None, at(venues)))
        k += 1 if loc else 0
for i, r in enumerate(json.load(open(members))['data']):
    (gname, gid, nick, real, uid, mid, state, kicked, avatar) = r
    db.execute("INSERT INTO ZGMMEMBER VALUES (?, 5, 1, ?, ?, ?, ?, ?, ?, ?, ?)",
        (i + 1, yes(kicked), chat_pk.get(gid), avatar, uid, mid, nick, real, state))
for i, r in enumerate(json.load(open(contacts))['data']):
    (created, updated, name, abname, phone, uid, rid, blocked, hidden, app, abid, avatar) = r
    db.execute("INSERT INTO ZGMRELATIONSHIP VALUES (?, 6, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (i + 1, yes(blocked), yes(hidden), yes(app), t(created), t(updated), avatar, name, phone, rid, uid))
    if abname is not None or abid is not None:
        db.execute("INSERT INTO ZGMABCONTACT (ZRELATIONSHIP, ZCONTACTSID, ZFULLNAME) VALUES (?, ?, ?)", (i + 1, abid, abname))
db.commit()
"#;

/// A phenomenon as the test compares it: its fact values, its time values, its interpretation.
type Seen = (BTreeSet<String>, BTreeSet<String>, String);

/// A value of iLEAPP's output as our facts hold it (1 for its Yes); `None` for what it leaves
/// blank or derives.
fn as_fact(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if s == "Yes" => Some("1".into()),
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[test]
fn groupme_at_parity_with_ileapp_and_a_second_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let case = "josh_ios17_ffs";
    let josh = tmp.path().join("josh");
    let what = |w: &str| crate::ios::expected(&format!("groupMe.{w}.{case}"));
    let mut args = Vec::new();
    for w in [
        "groupMeMessages",
        "groupMeChats",
        "groupMeGroupMembers",
        "groupMeContacts",
    ] {
        let f = tmp.path().join(format!("{w}.json"));
        std::fs::write(&f, what(w).to_string()).unwrap();
        args.push(f);
    }
    let db = josh
        .join(CONTAINER)
        .join("Library/Application Support/GroupMe.sqlite");
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE])
        .arg(&db)
        .args(&args)
        .status()
        .unwrap();
    assert!(st.success());
    // the phone's real preferences plist, from iLEAPP's groupMeAccount case
    let st = std::process::Command::new("unzip")
        .args(["-q", "-o"])
        .arg(crate::ios::ileapp(&format!(
            "testdata.groupMe.groupMeAccount.{case}.zip"
        )))
        .arg("-d")
        .arg(tmp.path().join("plist"))
        .status()
        .unwrap();
    assert!(st.success());
    let prefs = josh.join(CONTAINER).join("Library/Preferences");
    std::fs::create_dir_all(&prefs).unwrap();
    std::fs::copy(
        tmp.path()
            .join("plist/filesystem1")
            .join(CONTAINER)
            .join("Library/Preferences/com.groupme.iphone-app.plist"),
        prefs.join("com.groupme.iphone-app.plist"),
    )
    .unwrap();
    // a truncated store in another container
    let bytes = std::fs::read(&db).unwrap();
    let cut = josh.join("private/var/mobile/Containers/Data/Application/11111111-2222-4333-8444-555555555555/Documents/GroupMe.sqlite");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    std::fs::create_dir_all(josh.join("private/var/mobile/Library/SMS")).unwrap();

    // DFIR Two's iPhone: an older store, its own plist
    let two = tmp.path().join("two");
    let c2 = two.join(
        "private/var/mobile/Containers/Data/Application/A1B2C3D4-E5F6-4071-8293-A4B5C6D7E8F9",
    );
    crate::ios_nearby::sqlite3(
        &c2.join("Documents/GroupMe.sqlite"),
        "CREATE TABLE ZGMCHAT (Z_PK INTEGER PRIMARY KEY, ZCHATID VARCHAR, ZCHATTYPE VARCHAR, ZNAME VARCHAR, ZUSERID VARCHAR); \
         CREATE TABLE ZGMMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZGROUP INTEGER, ZUSER INTEGER, ZCREATEDAT TIMESTAMP, ZLINEID VARCHAR, ZMESSAGE VARCHAR, ZNAME VARCHAR, ZUSERID VARCHAR, ZSYSTEM INTEGER); \
         INSERT INTO ZGMCHAT VALUES (1, '75479014', 'group', 'Forensic Image Data Gen Group', NULL); \
         INSERT INTO ZGMMESSAGE VALUES (1, 16, 1, NULL, 659286982.1, '163759418212277644', 'You here?', 'DFIR Two', '91071469', 0);",
    );
    let st = std::process::Command::new("python3")
        .args([
            "-c",
            "import plistlib, sys, os\nos.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)\nplistlib.dump({'userId': '91071469', 'user': {'id': '91071469', 'name': 'DFIR Two'}}, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)",
        ])
        .arg(c2.join("Library/Preferences/com.groupme.iphone-app.plist"))
        .status()
        .unwrap();
    assert!(st.success());
    std::fs::create_dir_all(two.join("private/var/mobile/Library/SMS")).unwrap();

    let run = triage(&[
        ("josh", josh.as_path(), "America/New_York", Some("US")),
        ("two", two.as_path(), "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("josh");
    // (table, Z_PK) → facts, time values, interpretation
    let mut by_pk: HashMap<(String, String), Seen> = HashMap::new();
    for p in all.iter().filter(|p| p.title.starts_with("GroupMe ")) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        let mut words = p.interpretation.split(' ');
        if let (Some(table), Some("Z_PK"), Some(pk)) = (words.next(), words.next(), words.next()) {
            by_pk.insert((table.to_string(), pk.to_string()), {
                let (facts, times) = crate::ios_support::facts_and_times(p);
                (facts, times, p.interpretation.clone())
            });
        }
    }
    let (mut fields, mut found) = (0usize, 0usize);
    for (w, table) in [
        ("groupMeMessages", "ZGMMESSAGE"),
        ("groupMeChats", "ZGMCHAT"),
        ("groupMeGroupMembers", "ZGMMEMBER"),
        ("groupMeContacts", "ZGMRELATIONSHIP"),
    ] {
        let exp = what(w);
        let headers: Vec<String> = exp["headers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| match h {
                Value::Array(a) => a[0].as_str().unwrap().to_string(),
                v => v.as_str().unwrap().to_string(),
            })
            .collect();
        let rows = exp["data"].as_array().unwrap();
        assert!(!rows.is_empty());
        for (i, row) in rows.iter().enumerate() {
            let pk = (i + 1).to_string();
            let (facts, times, said) = by_pk
                .get(&(table.to_string(), pk.clone()))
                .unwrap_or_else(|| panic!("{table} {pk}"));
            for (h, v) in headers.iter().zip(row.as_array().unwrap()) {
                let ok = match h.as_str() {
                    "Timestamp" | "Created" | "Updated" | "Last Message" | "Last Viewed" => {
                        let Some(t) = v.as_i64() else { continue };
                        times.contains(&(t - E).to_string())
                    }
                    "From Me" => match v.as_i64() {
                        Some(1) => said.contains("sent by the device's user"),
                        Some(0) => said.contains(" received "),
                        _ => continue,
                    },
                    "Chat Type" => {
                        let group = v == "Group";
                        facts.contains("group") == group || table == "ZGMCHAT" && !group
                    }
                    "Deletion Status Recorded" if v == "Yes" => {
                        said.contains("a deletion status is recorded")
                    }
                    "System Deleted" if v == "Yes" || v == "No" => {
                        facts.contains(if v == "Yes" { "true" } else { "false" })
                    }
                    "Deletion Status Recorded" | "System Deleted" => continue,
                    _ => {
                        let Some(f) = as_fact(v) else { continue };
                        facts.contains(&f)
                    }
                };
                fields += 1;
                if ok {
                    found += 1;
                } else {
                    panic!("{table} {pk}: {h} = {v} not in {facts:?} / {times:?} / {said}");
                }
            }
        }
    }
    eprintln!("GroupMe: {found} of {fields} fields");
    assert_eq!(found, fields);
    // Josh's group member DFIR Two is the second iPhone's user
    let with = crate::who::resolved(&run);
    assert!(
        with("two/owner")
            .iter()
            .any(|m| m == "josh/groupme:91071469"),
        "{:#?}",
        with("two/owner")
    );
    run.assert_noted(
        "josh",
        &[(
            "11111111-2222-4333-8444-555555555555/Documents/GroupMe.sqlite",
            "malformed",
        )],
    );
}
