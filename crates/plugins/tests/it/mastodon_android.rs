//! Mastodon on Android (`android::mastodon`): Ines's phone (mastodon.social) and Karl's
//! (chaos.social), who write each other direct messages. No public copy of the app's data is in
//! the corpus, so each cache `databases/<instance>_<account id>.db` is written by Python's
//! `sqlite3` with the tables the app's `CacheController` creates (its JSON as the API returns
//! it), and `files/accounts.json` / `files/instance-*.json` by Python's `json` in the shape the
//! app writes (its session's members named by obfuscated letters). Ines's phone is of the
//! current schema (recent searches, both notification tables, the session letters ALEAPP
//! reads), Karl's of the first (no `recent_searches`) with other session letters, as another
//! release names them. ALEAPP's queries (by the sqlite3 CLI, HTML tags stripped) and its
//! `accounts.json` / instance logic (re-run in Python) are the oracles; each phone's user
//! resolves as the other's correspondent by `mastodon:user@domain`; the access tokens never
//! reach a fact; a truncated cache and a foreign one are noted.

use std::path::Path;

use crate::android_support::{assert_rows_in, has_fact, oracle_rows, rows_in, triage};

/// argv: Ines's app folder, Karl's.
const WRITE: &str = r#"
import json, os, sqlite3, sys
ines, karl = sys.argv[1:3]
def cache(path, first):
    db = sqlite3.connect(path)
    t = "" if first else ", `time` INTEGER NOT NULL"
    db.executescript(f"""
CREATE TABLE `home_timeline` (`id` VARCHAR(25) NOT NULL PRIMARY KEY, `json` TEXT NOT NULL, `flags` INTEGER NOT NULL DEFAULT 0{t});
CREATE TABLE `notifications_all` (`id` VARCHAR(25) NOT NULL PRIMARY KEY, `json` TEXT NOT NULL, `flags` INTEGER NOT NULL DEFAULT 0, `type` INTEGER NOT NULL{t});
CREATE TABLE `notifications_mentions` (`id` VARCHAR(25) NOT NULL PRIMARY KEY, `json` TEXT NOT NULL, `flags` INTEGER NOT NULL DEFAULT 0, `type` INTEGER NOT NULL{t});
""")
    if not first:
        db.execute("CREATE TABLE `recent_searches` (`id` VARCHAR(50) NOT NULL PRIMARY KEY, `json` TEXT NOT NULL, `time` INTEGER NOT NULL)")
    return db
INES = {"id": "1101", "username": "ines", "acct": "ines", "display_name": "Ines Vidal", "url": "https://mastodon.social/@ines",
        "created_at": "2022-11-03T00:00:00.000Z", "followers_count": 88, "following_count": 120, "statuses_count": 431,
        "note": "<p>Ceramics &amp; bikes</p>", "avatar": "https://files.mastodon.social/a/ines.png", "bot": False,
        "discoverable": True, "locked": False}
KARL = {"id": "2202", "username": "karl", "acct": "karl", "display_name": "Karl M", "url": "https://chaos.social/@karl",
        "created_at": "2017-04-02T00:00:00.000Z", "followers_count": 950, "following_count": 301, "note": "<p>hacker</p>",
        "avatar": "https://chaos.social/a/karl.png", "bot": False, "locked": True}
def remote(a, host):
    return dict(a, acct=a["username"] + "@" + host, id="9" + a["id"])
def status(sid, account, content, created, visibility="public", **kw):
    s = {"id": sid, "created_at": created, "account": account, "content": content, "url": account["url"] + "/" + sid,
         "visibility": visibility, "replies_count": 0, "reblogs_count": 1, "favourites_count": 2,
         "application": {"name": "Mastodon for Android"}, "media_attachments": []}
    s.update(kw)
    return s
def put(db, table, sid, obj, first, typ=None):
    cols = ["id", "json"] + (["type"] if typ is not None else []) + ([] if first else ["time"])
    vals = [sid, json.dumps(obj, ensure_ascii=False)] + ([typ] if typ is not None else []) + ([] if first else [1732000000])
    db.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(vals))})", vals)
# Ines's phone: the current schema
os.makedirs(os.path.join(ines, "databases")); os.makedirs(os.path.join(ines, "files"))
db = cache(os.path.join(ines, "databases", "mastodon.social_1101.db"), False)
k = remote(KARL, "chaos.social")
put(db, "home_timeline", "113001", status("113001", k, "<p>New pots, new problems</p>", "2024-11-19T08:00:00.000Z",
    media_attachments=[{"id": "m1", "type": "image", "url": "https://files.mastodon.social/m/pots.jpg"}]), False)
put(db, "home_timeline", "113002", status("113002", INES, "<p>Kiln day</p>", "2024-11-19T09:00:00.000Z"), False)
put(db, "home_timeline", "113003", status("113003", k, "<p><span class=\"h-card\">@ines</span> send it to 0x52908400098527886E0F7030069857D2E4169EE7</p>",
    "2024-11-19T10:00:00.000Z", visibility="direct", in_reply_to_id="113002"), False)
put(db, "home_timeline", "113004", status("113004", INES, "", "2024-11-19T11:00:00.000Z",
    reblog=status("113001", k, "<p>New pots, new problems</p>", "2024-11-19T08:00:00.000Z")), False)
put(db, "notifications_all", "n1", {"id": "n1", "type": "favourite", "created_at": "2024-11-19T09:05:00.000Z", "account": k,
    "status": status("113002", INES, "<p>Kiln day</p>", "2024-11-19T09:00:00.000Z")}, False, 4)
put(db, "notifications_all", "n2", {"id": "n2", "type": "follow", "created_at": "2024-11-18T12:00:00.000Z",
    "account": remote({"id": "3303", "username": "lou", "display_name": "Lou", "url": "https://fosstodon.org/@lou"}, "fosstodon.org")}, False, 0)
put(db, "notifications_mentions", "n3", {"id": "n3", "type": "mention", "created_at": "2024-11-19T10:00:00.000Z", "account": k,
    "status": status("113003", k, "<p>send it</p>", "2024-11-19T10:00:00.000Z", visibility="direct")}, False, 2)
db.execute("INSERT INTO recent_searches VALUES ('tag_ceramics', ?, 1731990000)", (json.dumps({"hashtag": {"name": "ceramics", "url": "https://mastodon.social/tags/ceramics"}}),))
db.execute("INSERT INTO recent_searches VALUES ('acc_92202', ?, 1731990100)", (json.dumps({"account": k}),))
db.execute("INSERT INTO recent_searches VALUES ('sta_113001', ?, 1731990200)", (json.dumps({"status": status("113001", k, "<p>New pots, new problems</p>", "2024-11-19T08:00:00.000Z")}),))
db.commit()
json.dump({"accounts": [{"a": {"access_token": "TOKENSECRET-INES", "token_type": "Bearer", "scope": "read write follow push"},
    "b": INES, "c": "mastodon.social", "d": 1, "j": {"alerts": {"favourite": True, "follow": True, "mention": True, "poll": False, "reblog": True}}}]},
    open(os.path.join(ines, "files", "accounts.json"), "w"))
json.dump({"instance": {"uri": "mastodon.social", "title": "Mastodon", "description": "The original server", "version": "4.3.1",
    "stats": {"user_count": 2900000, "status_count": 140000000}, "invites_enabled": True, "registrations": True,
    "email": "staff@mastodon.social", "contact_account": {"url": "https://mastodon.social/@Gargron"},
    "thumbnail": "https://files.mastodon.social/site/thumb.png"}, "last_updated": 1731999000000},
    open(os.path.join(ines, "files", "instance-mastodon.social.json"), "w"))
# Karl's phone: the first schema, other session letters
os.makedirs(os.path.join(karl, "databases")); os.makedirs(os.path.join(karl, "files"))
db = cache(os.path.join(karl, "databases", "chaos.social_2202.db"), True)
i = remote(INES, "mastodon.social")
put(db, "home_timeline", "9001", status("9001", KARL, "<p>@ines send it to 0x52908400098527886E0F7030069857D2E4169EE7</p>", "2024-11-19T10:00:00.000Z", visibility="direct"), True)
put(db, "home_timeline", "9002", status("9002", i, "<p>@karl sent!</p>", "2024-11-19T10:30:00.000Z", visibility="direct"), True)
put(db, "notifications_all", "k1", {"id": "k1", "type": "mention", "created_at": "2024-11-19T10:30:00.000Z", "account": i,
    "status": status("9002", i, "<p>@karl sent!</p>", "2024-11-19T10:30:00.000Z", visibility="direct")}, True, 2)
db.commit()
json.dump({"accounts": [{"x": {"access_token": "TOKENSECRET-KARL", "token_type": "Bearer"}, "y": KARL, "z": "chaos.social",
    "w": {"alerts": {"mention": True}}}]}, open(os.path.join(karl, "files", "accounts.json"), "w"))
"#;

/// ALEAPP's `accounts.json` and instance rows (its logic, values as stored) of an app folder
/// (argv 1) as JSON lines `[kind, key, values…]`.
const ORACLE: &str = r#"
import glob, json, os, sys
app = sys.argv[1]
def out(kind, key, values):
    print(json.dumps([kind, str(key)] + [str(v) for v in values if v not in (None, "")]))
data = json.load(open(os.path.join(app, "files", "accounts.json")))
for x in data.get("accounts", []):
    b, alerts = x.get("b", {}), x.get("j", {}).get("alerts", {})
    out("account", b.get("acct"), [b.get("created_at"), b.get("acct"), b.get("username"), b.get("display_name"), b.get("url"), b.get("id"),
        b.get("followers_count"), b.get("following_count"), b.get("note"), b.get("avatar"), x.get("c")]
        + [str(alerts[k]).lower() for k in ("favourite", "follow", "mention", "poll", "reblog") if k in alerts]
        + [str(b[k]).lower() for k in ("bot", "discoverable", "locked", "suspended") if k in b])
for f in glob.glob(os.path.join(app, "files", "instance*.json")):
    d = json.load(open(f)); i = d.get("instance", {}); s = i.get("stats", {})
    out("instance", i.get("uri"), [d.get("last_updated"), i.get("uri"), i.get("title"), i.get("description"), i.get("version"),
        s.get("user_count"), s.get("status_count"), str(i.get("invites_enabled")).lower(), str(i.get("registrations")).lower(),
        i.get("email"), i.get("contact_account", {}).get("url"), i.get("thumbnail")])
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn oracle(all: &[masf_graph::Phenomenon], app: &Path, kind: &str, prefix: &str) -> usize {
    let rows = oracle_rows("python3", ORACLE, &[s(app)], kind);
    assert_rows_in(all, &rows, prefix, 1, &has_fact)
}

/// ALEAPP's status text: the content with its tags removed (the fixtures' HTML is `<p>` and
/// `<span>` only).
const TEXT: &str = "replace(replace(replace(replace(X, '<p>', ''), '</p>', ''), '<span class=\"h-card\">', ''), '</span>', '')";

fn text(col: &str) -> String {
    TEXT.replace('X', col)
}

#[test]
fn mastodon_on_two_android_phones_of_two_schemas() {
    let tmp = tempfile::tempdir().unwrap();
    let (ines, karl) = (tmp.path().join("ines"), tmp.path().join("karl"));
    let app = |root: &Path| root.join("data/data/org.joinmastodon.android");
    for r in [&ines, &karl] {
        std::fs::create_dir_all(app(r)).unwrap();
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&app(&ines)), s(&app(&karl))])
        .status()
        .unwrap();
    assert!(st.success());
    // a truncated copy of Karl's cache and another app's store under a cache's name
    let other = karl.join("data/user/10/org.joinmastodon.android/databases");
    std::fs::create_dir_all(&other).unwrap();
    let bytes = std::fs::read(app(&karl).join("databases/chaos.social_2202.db")).unwrap();
    std::fs::write(
        other.join("chaos.social_2202.db"),
        &bytes[..bytes.len() / 3],
    )
    .unwrap();
    crate::ios_nearby::sqlite3(
        &other.join("other_1.db"),
        "CREATE TABLE kv (k TEXT); INSERT INTO kv VALUES ('x');",
    );
    let run = triage(&[
        ("ines", &ines, "Europe/Madrid", Some("ES")),
        ("karl", &karl, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("ines");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let db = app(&ines).join("databases/mastodon.social_1101.db");
    let found = |prefix: &str| -> Vec<&masf_graph::Phenomenon> {
        all.iter().filter(|p| p.title.starts_with(prefix)).collect()
    };
    // ALEAPP's hashtag and account searches
    assert_eq!(
        rows_in(
            &found("Mastodon search"),
            &db,
            "SELECT time, json_extract(json, '$.hashtag.name'), json_extract(json, '$.hashtag.url') FROM recent_searches WHERE id LIKE 'tag%'",
            1,
            ""
        ),
        1
    );
    assert_eq!(
        rows_in(
            &found("Mastodon search"),
            &db,
            "SELECT time, json_extract(json, '$.account.username'), json_extract(json, '$.account.display_name'), json_extract(json, '$.account.url'), json_extract(json, '$.account.id') FROM recent_searches WHERE id LIKE 'acc%'",
            4,
            ""
        ),
        1
    );
    assert_eq!(found("Mastodon search").len(), 3);
    // ALEAPP's notifications (its type words aside: the app's own type and code are the facts)
    assert_eq!(
        rows_in(
            &found("Mastodon notification"),
            &db,
            &format!(
                "SELECT json_extract(json, '$.created_at'), json_extract(json, '$.account.acct'), json_extract(json, '$.status.url'), {}, json_extract(json, '$.status.visibility'), json_extract(json, '$.status.created_at'), id FROM notifications_all",
                text("json_extract(json, '$.status.content')")
            ),
            6,
            ""
        ),
        2
    );
    assert_eq!(found("Mastodon notification").len(), 3);
    // ALEAPP's timeline, every status (the direct one a message)
    let statuses: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| {
            p.title.starts_with("Mastodon status") || p.title.starts_with("Mastodon direct")
        })
        .collect();
    assert_eq!(
        rows_in(
            &statuses,
            &db,
            &format!(
                "SELECT id, json_extract(json, '$.created_at'), json_extract(json, '$.account.acct'), json_extract(json, '$.application.name'), {}, (SELECT group_concat(json_extract(m.value, '$.url'), ' ') FROM json_each(json, '$.media_attachments') m), json_extract(json, '$.url'), json_extract(json, '$.reblog.account.acct'), {}, json_extract(json, '$.reblog.url'), json_extract(json, '$.replies_count'), json_extract(json, '$.reblogs_count'), json_extract(json, '$.favourites_count'), json_extract(json, '$.visibility') FROM home_timeline",
                text("json_extract(json, '$.content')"),
                text("json_extract(json, '$.reblog.content')")
            ),
            0,
            ""
        ),
        4
    );
    let dm = all
        .iter()
        .find(|p| p.title == "Mastodon direct message from @karl@chaos.social")
        .unwrap();
    assert_eq!(dm.category, "messages");
    assert!(
        dm.verified_facts
            .iter()
            .any(|f| f.value == "mastodon:karl@chaos.social")
    );
    // ALEAPP's account and instance rows
    assert_eq!(
        oracle(&all, &app(&ines), "account", "Mastodon account @ines"),
        1
    );
    assert_eq!(
        oracle(&all, &app(&ines), "instance", "Mastodon instance"),
        1
    );
    // the access tokens never reach a fact, on either phone
    for who in ["ines", "karl"] {
        assert!(!run.all_phenomena(who).iter().any(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("TOKENSECRET"))
        }));
    }
    let owner = run.owner("ines").to_lowercase();
    assert!(
        owner.contains("account_id=mastodon:ines@mastodon.social"),
        "{owner}"
    );
    assert!(
        run.identifiers("ines")
            .iter()
            .any(|(t, v)| t == "wallet" && v == "0x52908400098527886e0f7030069857d2e4169ee7")
    );
    // Karl's first schema and other session letters: his account read all the same
    let kall = run.all_phenomena("karl");
    let karl_account = kall
        .iter()
        .find(|p| p.title == "Mastodon account @karl signed in")
        .unwrap();
    for v in ["chaos.social", "Karl M", "2202"] {
        assert!(
            karl_account.verified_facts.iter().any(|f| f.value == v),
            "{v} in {karl_account:#?}"
        );
    }
    assert!(
        kall.iter()
            .any(|p| p.title == "Mastodon direct message sent")
    );
    assert!(
        kall.iter()
            .any(|p| p.title == "Mastodon direct message from @ines@mastodon.social")
    );
    run.assert_noted(
        "karl",
        &[
            (
                "user/10/org.joinmastodon.android/databases/chaos.social_2202.db",
                "malformed",
            ),
            (
                "user/10/org.joinmastodon.android/databases/other_1.db",
                "none of the tables",
            ),
        ],
    );
    // who is who: each phone's user is the other's correspondent
    let with = crate::who::resolved(&run);
    assert!(
        with("ines/owner").contains(&"karl/mastodon:ines@mastodon.social".to_string()),
        "{:#?}",
        with("ines/owner")
    );
    assert!(
        with("karl/owner").contains(&"ines/mastodon:karl@chaos.social".to_string()),
        "{:#?}",
        with("karl/owner")
    );
}
