//! Zalo on iOS (`ios::zalo`): Minh's iPhone and Lan's, who chat on Zalo; Minh is also in a
//! group. No public copy of the app's data is in the corpus, so the stores are written by
//! Python's `sqlite3` with the tables and columns iLEAPP's `zalo_messages` and `zalo_users`
//! read: Minh's with every table (`GlobalIdEntity` too), a text, a location, a voice note and a
//! link whose text is empty (their addresses in `BinNet`), calls and a group chat, an `_ext`
//! store beside them; Lan's of an older schema (no `GlobalIdEntity`, no `LocalPath`). iLEAPP's
//! logic, re-run in Python on the same stores, is the oracle: every row and field it reports is
//! found (its composed texts — `geo:lat,lon`, a sticker's words — are the stored values and the
//! latitude and longitude here). Each phone's user resolves as the other's chat partner by
//! `zalo:<user id>`; a truncated chat store and a foreign one are noted.

use std::path::Path;

use crate::android_support::{assert_rows_in, has_fact, oracle_rows, triage};

const MINH: &str = "100200300";
const LAN: &str = "400500600";

/// argv: Minh's Documents folder, Lan's.
const WRITE: &str = r#"
import os, sqlite3, sys
minh, lan, MINH, LAN = sys.argv[1:5]
def profile(docs, users, older):
    db = sqlite3.connect(os.path.join(docs, "profile.sqlite"))
    db.execute("CREATE TABLE ProfileEntity (userid TEXT PRIMARY KEY, displayname TEXT, avatar TEXT)")
    db.execute("CREATE TABLE BuddyEntity (zaloid TEXT PRIMARY KEY, mobile TEXT)")
    if not older:
        db.execute("CREATE TABLE GlobalIdEntity (rawid TEXT PRIMARY KEY, globalid TEXT)")
    for uid, name, mobile, gid in users:
        db.execute("INSERT INTO ProfileEntity VALUES (?, ?, NULL)", (uid, name))
        if mobile:
            db.execute("INSERT INTO BuddyEntity VALUES (?, ?)", (uid, mobile))
        if gid and not older:
            db.execute("INSERT INTO GlobalIdEntity VALUES (?, ?)", (uid, gid))
    db.commit()
def chat(path, rows, older):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    db = sqlite3.connect(path)
    lp = "" if older else ", LocalPath TEXT"
    db.execute(f"CREATE TABLE ChatContent (CliMsgId TEXT PRIMARY KEY, SenderId TEXT, MsgType INTEGER, TimeStamp INTEGER, MsgContent TEXT, BinNet BLOB{lp})")
    for r in rows:
        if older:
            r = r[:6]
        db.execute(f"INSERT INTO ChatContent VALUES ({', '.join('?' * len(r))})", r)
    db.commit()
# Minh's iPhone
profile(minh, [(MINH, "Minh Tran", None, "g-minh"), (LAN, "Lan Nguyen", "+84912345678", "g-lan"), ("700800900", "Hoa Le", "+84987654321", None)], False)
g = sqlite3.connect(os.path.join(minh, "chatgroup.sqlite"))
g.execute("CREATE TABLE GroupEntity (groupid TEXT PRIMARY KEY, name TEXT)")
g.execute("INSERT INTO GroupEntity VALUES ('5550001', 'Nhóm gốm Bát Tràng')")
g.commit()
chat(os.path.join(minh, "chat_dbs", MINH, LAN + ".db"), [
    ("m1", LAN, 0, 1717000000000, "Chuyển vào ví 0x52908400098527886E0F7030069857D2E4169EE7 nhé", None, None),
    ("m2", MINH, 0, 1717000060000, "Đã chuyển", None, None),
    ("m3", LAN, 18, 1717000120000, "", b'\x01\x02{"latitude":21.0285,"longitude":105.8542,"name":"Hoan Kiem"}\x00', None),
    ("m4", MINH, 6, 1717000180000, " ", b'\x0a\x10voice\x00https://voice-aws.zalo.me/a/b/voice1.amr\x00', None),
    ("m5", LAN, 12, 1717000240000, "", b'\x00recommened.link\x00https://example.vn/listing?id=7\x00', None),
    ("m6", MINH, 12, 1717000300000, "Cuộc gọi", b'\x00recommened.calltime\x00', None),
    ("m7", LAN, 2, 1717000360000, "", b'\x00photo', "/var/mobile/Containers/Data/Application/X/Documents/100200300/400500600/photo1.jpg"),
], False)
chat(os.path.join(minh, "chat_dbs", MINH, "group_5550001.db"), [
    ("g1", "700800900", 0, 1717001000, "Thứ bảy gặp nhau", None, None),
    ("g2", MINH, 15, 1717001060, "joined", None, None),
], False)
chat(os.path.join(minh, "chat_dbs", MINH, LAN + "_ext.db"), [("x1", LAN, 0, 1, "not a chat", None, None)], False)
# Lan's iPhone: an older schema
profile(lan, [(LAN, "Lan Nguyen", None, None), (MINH, "Minh Tran", "+84901112233", None)], True)
chat(os.path.join(lan, "chat_dbs", LAN, MINH + ".db"), [
    ("m1", LAN, 0, 1717000000000, "Chuyển vào ví 0x52908400098527886E0F7030069857D2E4169EE7 nhé", None, None),
    ("m2", MINH, 0, 1717000060000, "Đã chuyển", None, None),
], True)
"#;

/// iLEAPP's rows by its logic (values as stored), from a Documents folder (argv 1), as JSON
/// lines `[kind, key, values…]`.
const ORACLE: &str = r#"
import glob, json, os, re, sqlite3, sys
docs = sys.argv[1]
def out(kind, key, values):
    print(json.dumps([kind, str(key)] + [str(v) for v in values if v not in (None, "", " ")]))
p = sqlite3.connect(os.path.join(docs, "profile.sqlite"))
rawid = any(r[1] == "rawid" for r in p.execute("PRAGMA table_info(GlobalIdEntity)"))
q = "SELECT pe.userid, pe.displayname, be.mobile" + (", ge.globalid" if rawid else "") + " FROM ProfileEntity pe LEFT JOIN BuddyEntity be ON pe.userid = be.zaloid" + (" LEFT JOIN GlobalIdEntity ge ON pe.userid = ge.rawid" if rawid else "")
users = {}
for r in p.execute(q):
    users[r[0]] = r[1]
    out("user", r[0], list(r))
groups = {}
if os.path.exists(os.path.join(docs, "chatgroup.sqlite")):
    groups = dict(sqlite3.connect(os.path.join(docs, "chatgroup.sqlite")).execute("SELECT groupid, name FROM GroupEntity"))
def last_url(blob):
    m = re.findall(rb'https?://[^\x00\s"]+', blob or b"")
    return m[-1].decode() if m else None
for f in glob.glob(os.path.join(docs, "chat_dbs", "*", "*.db")):
    if "_ext" in f:
        continue
    own = os.path.basename(os.path.dirname(f))
    stem = os.path.basename(f)[:-3]
    group = stem.startswith("group_")
    chat = groups.get(stem[6:]) if group else users.get(stem, f"Unknown ({stem})")
    try:
        rows = sqlite3.connect(f).execute("SELECT SenderId, CliMsgId, MsgType, TimeStamp, MsgContent, BinNet FROM ChatContent").fetchall()
    except sqlite3.DatabaseError:
        continue  # the damaged copies beside the chats
    for sender, mid, typ, ts, msg, blob in rows:
        kind = {0: "Message", 6: "Voice Note", 10: "Sticker", 26: "Poll", 22: "File", 18: "Location"}.get(typ, "Unknown")
        if typ in (15, 20, 24, 36): kind = "System Message"
        if typ in (1, 2, 3, 4, 19, 23): kind = "Media"
        if typ == 12:
            b = blob or b""
            kind = next((w for m, w in ((b"recommened.calltime", "Call"), (b"recommened.misscall", "Missed Call"), (b"recommened.groupcall", "Groupcall"), (b"recommened.link", "Link"), (b"recommened.user", "User")) if m in b), "Unknown (12)")
        lat = lon = None
        if typ == 18:
            t = (blob or b"").decode("utf-8", "ignore")
            la, lo = re.search(r'"latitude":(-?\d+(?:\.\d+)?)', t), re.search(r'"longitude":(-?\d+(?:\.\d+)?)', t)
            if la and lo: lat, lon = float(la.group(1)), float(lo.group(1))
        text = msg
        if (typ == 6 or kind == "Link" or typ in (1, 2, 3, 4, 19, 23)) and msg in (None, "", " "):
            text = last_url(blob)
        out("message", mid, [ts, users.get(sender, sender), chat, text, sender, typ, kind, lat, lon])
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn check(all: &[masf_graph::Phenomenon], docs: &Path, kind: &str, prefix: &str) -> usize {
    let rows = oracle_rows("python3", ORACLE, &[s(docs)], kind);
    assert_rows_in(all, &rows, prefix, 1, &has_fact)
}

#[test]
fn zalo_on_two_iphones_of_two_schemas() {
    let tmp = tempfile::tempdir().unwrap();
    let (minh, lan) = (tmp.path().join("minh"), tmp.path().join("lan"));
    let docs = |root: &Path, app: &str| {
        root.join(format!(
            "private/var/mobile/Containers/Data/Application/{app}/Documents"
        ))
    };
    let (md, ld) = (
        docs(&minh, "3C1B9E2A-5D4F-4A6B-8C7D-1E2F3A4B5C6D"),
        docs(&lan, "9A8B7C6D-5E4F-4321-8765-0FEDCBA98765"),
    );
    for (r, d) in [(&minh, &md), (&lan, &ld)] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::create_dir_all(r.join("private/var/mobile/Library")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&md), s(&ld), MINH, LAN])
        .status()
        .unwrap();
    assert!(st.success());
    // a truncated chat store and another app's store among Lan's chats
    let bytes = std::fs::read(ld.join(format!("chat_dbs/{LAN}/{MINH}.db"))).unwrap();
    std::fs::write(
        ld.join(format!("chat_dbs/{LAN}/123.db")),
        &bytes[..bytes.len() / 3],
    )
    .unwrap();
    crate::ios_nearby::sqlite3(
        &ld.join(format!("chat_dbs/{LAN}/456.db")),
        "CREATE TABLE kv (k TEXT); INSERT INTO kv VALUES ('x');",
    );
    let run = triage(&[
        ("minh", &minh, "Asia/Ho_Chi_Minh", Some("VN")),
        ("lan", &lan, "Asia/Ho_Chi_Minh", Some("VN")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("minh");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(check(&all, &md, "user", "Zalo user"), 3);
    assert_eq!(check(&all, &md, "message", "Zalo message"), 9);
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("Zalo message"))
            .count(),
        9,
        "the _ext store is no chat"
    );
    assert!(
        all.iter()
            .any(|p| p.title == "Zalo group Nhóm gốm Bát Tràng")
    );
    assert!(
        all.iter()
            .any(|p| p.title == "Zalo message from Hoa Le in group Nhóm gốm Bát Tràng")
    );
    let photo = all
        .iter()
        .find(|p| p.verified_facts.iter().any(|f| f.value == "m7"))
        .unwrap();
    assert!(photo.verified_facts.iter().any(|f| f.value
        == "/var/mobile/Containers/Data/Application/X/Documents/100200300/400500600/photo1.jpg"));
    let owner = run.owner("minh").to_lowercase();
    assert!(
        owner.contains(&format!("account_id=zalo:{MINH}")),
        "{owner}"
    );
    assert!(
        run.identifiers("minh")
            .iter()
            .any(|(t, v)| t == "wallet" && v == "0x52908400098527886e0f7030069857d2e4169ee7")
    );
    // Lan's older schema
    let lall = run.all_phenomena("lan");
    assert_eq!(check(&lall, &ld, "user", "Zalo user"), 2);
    assert_eq!(check(&lall, &ld, "message", "Zalo message"), 2);
    run.assert_noted(
        "lan",
        &[
            (&format!("chat_dbs/{LAN}/123.db"), "malformed"),
            (&format!("chat_dbs/{LAN}/456.db"), "none of the tables"),
        ],
    );
    // who is who: each phone's user is the other's chat partner
    let with = crate::who::resolved(&run);
    assert!(
        with("minh/owner").contains(&format!("lan/zalo:{MINH}")),
        "{:#?}",
        with("minh/owner")
    );
    assert!(
        with("lan/owner").contains(&format!("minh/zalo:{LAN}")),
        "{:#?}",
        with("lan/owner")
    );
}
