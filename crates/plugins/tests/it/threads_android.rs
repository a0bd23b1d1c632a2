//! Threads on Android (`android::threads`): Noor's phone and Sam's. No public copy of the app's
//! data is in the corpus, so the preferences are written by Python as Android's
//! `SharedPreferences` writes them (`<map>` of `<string>`, the account map a JSON text in
//! `org.json`'s form — `/` escaped — inside the XML), and the stores by Python's `sqlite3` with
//! the tables and columns ALEAPP's three `threads` artefacts read, the feed items' `data` as the
//! app's JSON. Noor's phone has everything (two accounts, the feed store's later `source`
//! column); Sam's is of the earlier feed schema, one post of it Noor's. ALEAPP's logic,
//! re-run in Python on the same files, is the oracle (its booleans as SQLite's JSON functions
//! give them, 1/0; the account and picture columns aside, said below). Noor's account resolves
//! as the author Sam's phone holds, by `instagram:<id>`; a truncated store and a foreign one are
//! noted.

use std::path::Path;

use crate::android_support::{assert_rows_in, has_fact, oracle_rows, triage};

const NOOR: &str = "5512345678";
const SAM: &str = "7788990011";

/// argv: Noor's app folder, Sam's, Noor's id, Sam's.
const WRITE: &str = r#"
import json, os, sqlite3, sys
from xml.sax.saxutils import escape
noor, sam, NOOR, SAM = sys.argv[1:5]
def prefs(path, values):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    body = "".join(f'    <string name="{k}">{escape(v, {chr(34): "&quot;"})}</string>\n' for k, v in values.items())
    open(path, "w").write("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n" + body + "</map>\n")
def orgjson(v):
    return json.dumps(v, separators=(",", ":")).replace("/", "\\/")
PIC = "https://scontent.cdninstagram.com/v/t51/noor.jpg?stp=dst-jpg&_nc_ht=x"
def feed(path, with_source, items):
    db = sqlite3.connect(path)
    src = ", source TEXT" if with_source else ""
    db.execute(f"CREATE TABLE barcelona_user_feed_items (id TEXT PRIMARY KEY, data BLOB, media_age INTEGER, stored_age INTEGER, item_type TEXT{src})")
    for tid, posts, stored in items:
        data = json.dumps({"thread_items": [{"post": p} for p in posts]}).encode()
        if with_source:
            db.execute("INSERT INTO barcelona_user_feed_items VALUES (?, ?, 0, ?, 'thread', 'background_prefetch')", (tid, data, stored))
        else:
            db.execute("INSERT INTO barcelona_user_feed_items VALUES (?, ?, 0, ?, 'thread')", (tid, data, stored))
    db.commit()
def post(uid, user, full, text, taken, code, liked=False):
    return {"pk": code + "1", "code": code, "taken_at": taken, "like_count": 12, "has_liked": liked, "media_type": 19,
            "caption": {"text": text}, "user": {"id": uid, "pk": uid, "username": user, "full_name": full,
            "is_verified": False, "is_private": False, "friendship_status": {"following": True, "followed_by": False}}}
# Noor's phone
prefs(os.path.join(noor, "shared_prefs", "com.instagram.barcelona_preferences.xml"), {"current_user_id": NOOR, "last_seen_user_id": "6600112233"})
prefs(os.path.join(noor, "shared_prefs", "autobackupprefs.xml"), {"cloud_account_user_map": orgjson({"cloud_accounts_list": [
    {"user_id": NOOR, "username": "noor.k", "profile_pic_url": PIC}, {"user_id": "6600112233", "username": "noor.studio", "profile_pic_url": ""}]})})
prefs(os.path.join(noor, "shared_prefs", NOOR + "_USER_PREFERENCES.xml"), {"theme": "dark"})
os.makedirs(os.path.join(noor, "databases"))
db = sqlite3.connect(os.path.join(noor, "databases", f"time_in_app_{NOOR}.db"))
db.executescript("""
CREATE TABLE intervals (seq_num INTEGER PRIMARY KEY, start_walltime INTEGER, end_walltime INTEGER, start_event INTEGER, end_event INTEGER, start_uptime INTEGER, end_uptime INTEGER);
CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO intervals VALUES (1, 1732010000, 1732010425, 1, 2, 88000, 88425);
INSERT INTO intervals VALUES (2, 1732020000, 1732020060, 1, 3, 98000, 98060);
INSERT INTO metadata VALUES ('last_eviction_timestamp', '1731400000');
""")
db.commit()
feed(os.path.join(noor, "databases", f"barcelona_feed_items_room_db_{NOOR}"), True, [
    ("3301", [post(SAM, "sam.r", "Sam Reyes", "Gallery opening tonight", 1732000000, "C1abc"),
              post(SAM, "sam.r", "Sam Reyes", "Bring cash: bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l", 1732000100, "C1abd", liked=True)], 1732010100000),
    ("3302", [post("4455", "lina.m", "Lina M", "Ferry strike", 1731990000, "C2xyz")], 1732010200000)])
# Sam's phone: the earlier feed schema
os.makedirs(os.path.join(sam, "databases"))
prefs(os.path.join(sam, "shared_prefs", "com.instagram.barcelona_preferences.xml"), {"current_user_id": SAM})
feed(os.path.join(sam, "databases", f"barcelona_feed_items_room_db_{SAM}"), False, [
    ("4401", [post(NOOR, "noor.k", "Noor K", "Kiln firing at 6", 1731980000, "C9kln")], 1732000500000)])
"#;

/// ALEAPP's rows by its logic, from an app folder (argv 1), as JSON lines `[kind, key, values…]`.
const ORACLE: &str = r#"
import glob, json, os, re, sqlite3, sys
import xml.etree.ElementTree as ET
app = sys.argv[1]
def out(kind, key, values):
    print(json.dumps([kind, str(key)] + [str(v) for v in values if v not in (None, "")]))
def prefs(p):
    try:
        return {e.get("name"): (e.text or "") for e in ET.parse(p).getroot()}
    except (OSError, ET.ParseError):
        return {}
general = prefs(os.path.join(app, "shared_prefs", "com.instagram.barcelona_preferences.xml"))
backup = prefs(os.path.join(app, "shared_prefs", "autobackupprefs.xml"))
listed = {str(e["user_id"]): e for e in json.loads(backup.get("cloud_account_user_map") or "{}").get("cloud_accounts_list", [])}
per = {os.path.basename(p).split("_USER_PREFERENCES.xml")[0] for p in glob.glob(os.path.join(app, "shared_prefs", "*_USER_PREFERENCES.xml"))}
for a in sorted(set(listed) | per | {x for x in (general.get("current_user_id"), general.get("last_seen_user_id")) if x}):
    # the id and user name (the picture is checked in its stored form, below)
    out("account", a, [a, listed.get(a, {}).get("username", "")])
b = lambda v: {True: "1", False: "0"}.get(v, v) if isinstance(v, bool) else v
for p in glob.glob(os.path.join(app, "databases", "time_in_app_*.db")):
    db = sqlite3.connect(p)
    ev = dict(db.execute("SELECT key, value FROM metadata").fetchall()).get("last_eviction_timestamp", "")
    for s, e, se, ee, su, eu, n in db.execute("SELECT start_walltime, end_walltime, start_event, end_event, start_uptime, end_uptime, seq_num FROM intervals"):
        out("interval", n, [s, e, e - s, se, ee, su, eu, n, ev])
for p in glob.glob(os.path.join(app, "databases", "barcelona_feed_items_room_db_*")):
    db = sqlite3.connect(p)
    cols = {r[1] for r in db.execute("PRAGMA table_info(barcelona_user_feed_items)")}
    sel = ["id", "data", "media_age", "stored_age", "item_type"] + (["source"] if "source" in cols else [])
    for row in db.execute(f"SELECT {', '.join(sel)} FROM barcelona_user_feed_items"):
        v = dict(zip(sel, row))
        for item in json.loads(v["data"]).get("thread_items", []):
            post = item.get("post", {}); user = post.get("user", {})
            out("post", post.get("code"), [post.get("taken_at"), v.get("stored_age"), user.get("username"), user.get("full_name"),
                post.get("caption", {}).get("text"), post.get("like_count"), b(post.get("has_liked")), post.get("code"), post.get("media_type"),
                b(user.get("is_verified")), b(user.get("is_private")), json.dumps(user.get("friendship_status"), separators=(",", ":")),
                user.get("id"), v.get("item_type"), v.get("source"), v["id"]])
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn check(all: &[masf_graph::Phenomenon], app: &Path, kind: &str, prefix: &str) -> usize {
    let rows = oracle_rows("python3", ORACLE, &[s(app)], kind);
    assert_rows_in(all, &rows, prefix, 1, &has_fact)
}

#[test]
fn threads_on_two_android_phones_of_two_schemas() {
    let tmp = tempfile::tempdir().unwrap();
    let (noor, sam) = (tmp.path().join("noor"), tmp.path().join("sam"));
    let app = |root: &Path| root.join("data/data/com.instagram.barcelona");
    for r in [&noor, &sam] {
        std::fs::create_dir_all(app(r)).unwrap();
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&app(&noor)), s(&app(&sam)), NOOR, SAM])
        .status()
        .unwrap();
    assert!(st.success());
    // a truncated copy of Sam's feed store and another app's store under a usage store's name
    let other = sam.join("data/user/10/com.instagram.barcelona/databases");
    std::fs::create_dir_all(&other).unwrap();
    let name = format!("barcelona_feed_items_room_db_{SAM}");
    let bytes = std::fs::read(app(&sam).join("databases").join(&name)).unwrap();
    std::fs::write(other.join(&name), &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &other.join("time_in_app_1.db"),
        "CREATE TABLE kv (k TEXT); INSERT INTO kv VALUES ('x');",
    );
    let run = triage(&[
        ("noor", &noor, "Asia/Dubai", Some("AE")),
        ("sam", &sam, "Asia/Dubai", Some("AE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("noor");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(check(&all, &app(&noor), "account", "Threads account"), 2);
    assert_eq!(check(&all, &app(&noor), "interval", "Threads in use"), 2);
    assert_eq!(check(&all, &app(&noor), "post", "Threads post"), 3);
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("Threads post"))
            .count(),
        3
    );
    // the picture as the file keeps it (XML-escaped, org.json's escaped slashes)
    let current = all
        .iter()
        .find(|p| p.title == "Threads account noor.k")
        .unwrap();
    assert!(
        current.verified_facts.iter().any(|f| f.value
            == r"https:\/\/scontent.cdninstagram.com\/v\/t51\/noor.jpg?stp=dst-jpg&amp;_nc_ht=x"),
        "{current:#?}"
    );
    assert!(current.interpretation.contains("the current account"));
    assert!(current.interpretation.contains("with its preference file"));
    let owner = run.owner("noor").to_lowercase();
    for id in [
        format!("account_id=instagram:{NOOR}"),
        "account_id=instagram:6600112233".to_string(),
        "nickname=noor.k".to_string(),
    ] {
        assert!(owner.contains(&id), "{id} in {owner}");
    }
    // Sam's earlier schema, and who is who across the phones
    let sall = run.all_phenomena("sam");
    assert_eq!(check(&sall, &app(&sam), "post", "Threads post"), 1);
    run.assert_noted(
        "sam",
        &[
            (
                &format!("user/10/com.instagram.barcelona/databases/{name}"),
                "malformed",
            ),
            (
                "user/10/com.instagram.barcelona/databases/time_in_app_1.db",
                "none of the tables",
            ),
        ],
    );
    let with = crate::who::resolved(&run);
    assert!(
        with("noor/owner").contains(&format!("sam/instagram:{NOOR}")),
        "{:#?}",
        with("noor/owner")
    );
    assert!(
        with("sam/owner").contains(&format!("noor/instagram:{SAM}")),
        "{:#?}",
        with("sam/owner")
    );
}
