//! Discord's message cache `kv-storage/@account.<id>/a` (`crate::discord`, shared by the
//! Android and iOS plugins): an Android phone's and an iPhone's store written by Python's
//! sqlite3 (table `messages0`, each record's `data` one header byte then the message's JSON, as
//! ALEAPP's and iLEAPP's modules read it; no public copy is in the corpus). Every field ALEAPP's
//! `get_discordChats` and iLEAPP's `discordChats` (its KV-storage part) report is found — their
//! readings run by Python as the oracle —; each phone's user is the account its folder names,
//! and the two phones' users resolve across platforms by Discord user id. The iPhone also holds
//! the API responses Discord cached (`fsCachedData`, JSON written here; iLEAPP's reading of them
//! by Python the oracle): its messages are found with the direction of the container's
//! kv-storage account. Beside them a record that is no JSON (counted), a store without
//! `messages0` and a truncated copy (noted), a cached file that is no JSON (counted), and
//! another app's `kv-storage` (passed over).

use std::path::Path;

use masf_graph::Phenomenon;

use crate::android_support::triage;

const DANA: &str = "1100000000000000001";
const RAVI: &str = "1100000000000000002";

/// Writes a kv-storage store at argv[1] holding the records of argv[2] (JSON: a list of
/// messages, or of strings written as they are).
const WRITE: &str = r#"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE messages0 (id TEXT PRIMARY KEY, channel_id TEXT, guild_id TEXT, timestamp INTEGER, author_id TEXT, type INTEGER, data BLOB)")
for i, m in enumerate(json.loads(sys.argv[2])):
    if isinstance(m, str):
        data = m.encode()
        db.execute("INSERT INTO messages0 VALUES (?, NULL, NULL, 0, NULL, 0, ?)", ('bad%d' % i, data))
        continue
    msg = m['message']
    data = b'\x01' + json.dumps(m, ensure_ascii=False).encode()
    db.execute("INSERT INTO messages0 VALUES (?, ?, ?, ?, ?, ?, ?)",
        (msg['id'], msg.get('channel_id'), msg.get('guild_id'), 0, msg['author']['id'], msg.get('type', 0), data))
db.commit()
"#;

/// ALEAPP's and iLEAPP's readings of a store (argv[1]), one tab-separated row per message:
/// the fields they report, values as the store holds them (their booleans 1/0 and lists as
/// JSON text, as SQLite's json_extract gives them; ALEAPP's mentions list is read here user by
/// user: id, user name and global name; iLEAPP's Sender is the global or user name, its
/// Direction and type words derived).
const ORACLE: &str = r#"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def s(v):
    if v is None: return ''
    if isinstance(v, bool): return '1' if v else '0'
    if isinstance(v, (list, dict)): return json.dumps(v, ensure_ascii=False, separators=(',', ':'))
    return str(v)
for (data,) in db.execute('SELECT data FROM messages0'):
    try:
        d = json.loads(data[1:])
    except Exception:
        continue
    m = d['message']
    a = m['author']
    row = [d['id'], s(m['timestamp']), s(m.get('edited_timestamp')), s((m.get('call') or {}).get('ended_timestamp')),
           s(a.get('username')), s(a.get('global_name') or a.get('globalName') or a.get('display_name')), s(a.get('bot')),
           s(a.get('avatar')), s(a.get('id')), s(d['channelId']), s(m.get('channel_id')), s(m.get('content')), s(m.get('id')),
           s(m.get('type')), s(m.get('pinned')), s(m.get('mention_roles'))]
    for at in m.get('attachments') or []:
        row += [s(at.get('filename')), s(at.get('url')), s(at.get('proxy_url'))]
    for u in m.get('mentions') or []:
        row += [s(u.get('id')), s(u.get('username')), s(u.get('global_name'))]
    for e in m.get('embeds') or []:
        au, fo = e.get('author') or {}, e.get('footer') or {}
        row += [s(e.get('url')), s(e.get('description')), s(au.get('name')), s(au.get('url')), s(au.get('icon_url')),
                s(fo.get('text')), s(fo.get('icon_url'))]
    print('\t'.join(row))
"#;

/// iLEAPP's reading of the cached API responses below argv[1] (each file's lines JSON, a list
/// of messages or one), one row per message with a timestamp: the fields it reports as
/// `read_json` prints them (booleans true/false; mention roles one by one).
const CACHE_ORACLE: &str = r#"
import json, os, sys
def s(v):
    if v is None: return ''
    if isinstance(v, bool): return 'true' if v else 'false'
    return str(v)
for name in sorted(os.listdir(sys.argv[1])):
    try:
        lines = open(os.path.join(sys.argv[1], name), encoding='utf-8').read().splitlines()
        records = [json.loads(l) for l in lines]
    except (UnicodeDecodeError, ValueError):
        continue
    for r in records:
        for m in (r if isinstance(r, list) else [r]):
            if not isinstance(m, dict) or not m.get('timestamp'):
                continue
            a = m.get('author') or {}
            row = [s(m.get('id')), s(m['timestamp']), s(m.get('edited_timestamp')), s((m.get('call') or {}).get('ended_timestamp')),
                   s(a.get('username')), s(a.get('global_name') or a.get('globalName') or a.get('display_name')), s(a.get('bot')),
                   s(a.get('avatar')), s(a.get('id')), s(m.get('channel_id')), s(m.get('content')), s(m.get('type')), s(m.get('pinned'))]
            row += [s(x) for x in m.get('mention_roles') or []]
            for at in m.get('attachments') or []:
                row += [s(at.get('filename')), s(at.get('url')), s(at.get('proxy_url'))]
            for u in m.get('mentions') or []:
                row += [s(u.get('id')), s(u.get('username')), s(u.get('global_name'))]
            for e in m.get('embeds') or []:
                au, fo = e.get('author') or {}, e.get('footer') or {}
                row += [s(e.get('url')), s(e.get('description')), s(au.get('name')), s(au.get('url')), s(au.get('icon_url')),
                        s(fo.get('text')), s(fo.get('icon_url'))]
            print('\t'.join(row))
"#;

fn author(id: &str, username: &str, global: Option<&str>) -> serde_json::Value {
    let mut a = serde_json::json!({"id": id, "username": username, "avatar": format!("a_{}", &id[14..]), "discriminator": "0"});
    if let Some(g) = global {
        a["global_name"] = g.into();
    }
    a
}

fn message(
    id: &str,
    channel: &str,
    time: &str,
    from: serde_json::Value,
    content: &str,
    extra: serde_json::Value,
) -> serde_json::Value {
    let mut m = serde_json::json!({
        "id": id, "channel_id": channel, "timestamp": time, "edited_timestamp": null,
        "author": from, "content": content, "type": 0, "pinned": false, "mentions": [],
        "mention_roles": [], "attachments": [], "embeds": [], "tts": false,
    });
    for (k, v) in extra.as_object().unwrap() {
        m[k] = v.clone();
    }
    serde_json::json!({"id": id, "channelId": channel, "message": m})
}

fn write(db: &Path, records: &serde_json::Value) {
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .arg(db)
        .arg(records.to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every row `oracle` prints for `at` is one of the phenomena `of` picks, holding each of its
/// values; returns the number of rows.
fn parity(all: &[Phenomenon], of: &dyn Fn(&Phenomenon) -> bool, oracle: &str, at: &Path) -> usize {
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(oracle)
        .arg(at)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let found: Vec<&Phenomenon> = all.iter().filter(|p| of(p)).collect();
    for line in text.lines() {
        let row: Vec<&str> = line.split('\t').collect();
        // a value of a JSON output is found as it prints it (escaped inside a JSON string)
        let has = |p: &Phenomenon, v: &str| {
            let json = serde_json::to_string(v).unwrap();
            p.verified_facts
                .iter()
                .any(|f| f.value == v || f.value == json[1..json.len() - 1])
        };
        let p = found
            .iter()
            .find(|p| has(p, row[0]) && has(p, row[1]))
            .unwrap_or_else(|| panic!("{row:?} in none of {found:#?}"));
        for v in row.iter().filter(|v| !v.is_empty()) {
            assert!(has(p, v), "{v} in {p:#?}");
        }
    }
    assert_eq!(found.len(), text.lines().count());
    found.len()
}

#[test]
fn discord_on_an_android_phone_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let dana_a = author(DANA, "dana_w", Some("Dana W"));
    let ravi_a = author(RAVI, "ravi.m", Some("Ravi M"));
    let dm = "1200000000000000001";
    let phone = tmp.path().join("dana-android");
    let kv = |acct: &str| format!("data/data/com.discord/files/kv-storage/@account.{acct}/a");
    let adb = phone.join(kv(DANA));
    let mut bot = author("1100000000000000099", "paybot", None);
    bot["bot"] = true.into();
    write(
        &adb,
        &serde_json::json!([
            message(
                "1300000000000000001",
                dm,
                "2023-09-18T16:20:00.123000+00:00",
                dana_a.clone(),
                "send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 tonight",
                serde_json::json!({})
            ),
            message(
                "1300000000000000002",
                dm,
                "2023-09-18T16:21:30.000000+00:00",
                ravi_a.clone(),
                "invoice attached, <@1100000000000000001>",
                serde_json::json!({
                    "type": 19, "edited_timestamp": "2023-09-18T16:22:00.000000+00:00",
                    "mentions": [dana_a.clone()],
                    "attachments": [{"id": "1400000000000000001", "filename": "invoice-4471.pdf", "size": 48213,
                        "url": "https://cdn.discordapp.com/attachments/1200000000000000001/1400000000000000001/invoice-4471.pdf",
                        "proxy_url": "https://media.discordapp.net/attachments/1200000000000000001/1400000000000000001/invoice-4471.pdf",
                        "content_type": "application/pdf"}]})
            ),
            message(
                "1300000000000000003",
                dm,
                "2023-09-18T18:00:00.000000+00:00",
                ravi_a.clone(),
                "",
                serde_json::json!({"type": 3, "call": {"participants": [RAVI, DANA], "ended_timestamp": "2023-09-18T18:12:41.500000+00:00"}})
            ),
            message(
                "1300000000000000004",
                "1200000000000000777",
                "2023-09-19T09:00:00.000000+00:00",
                bot,
                "",
                serde_json::json!({"guild_id": "1500000000000000001", "pinned": true, "mention_roles": ["1600000000000000001"],
                    "embeds": [{"type": "rich", "url": "https://pay.example.com/r/4471", "description": "Payment received: 12,400.00 GBP",
                        "author": {"name": "PayBot", "url": "https://pay.example.com", "icon_url": "https://pay.example.com/icon.png"},
                        "footer": {"text": "ref 4471", "icon_url": "https://pay.example.com/footer.png"}}]})
            ),
            "not json at all",
        ]),
    );
    // a store without messages0, a truncated copy, another app's kv-storage
    crate::ios_nearby::sqlite3(
        &phone.join("data/user/10/com.discord/files/kv-storage/@account.1/a"),
        "CREATE TABLE other (k TEXT);",
    );
    let bytes = std::fs::read(&adb).unwrap();
    let cut = phone.join("data/user/11/com.discord/files/kv-storage/@account.2/a");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let other = phone.join("data/data/com.example.chat/files/kv-storage/@account.3/a");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&adb, &other).unwrap();
    std::fs::create_dir_all(phone.join("data/system/users/0")).unwrap();

    let iphone = tmp.path().join("ravi-iphone");
    let idb = iphone.join(format!(
        "private/var/mobile/Containers/Data/Application/7D6C5B4A-3928-4F1E-9D8C-7B6A59483726/Library/Caches/kv-storage/@account.{RAVI}/a"
    ));
    let mut older = author(DANA, "dana_w", None);
    older["globalName"] = "Dana W".into();
    write(
        &idb,
        &serde_json::json!([
            message(
                "1300000000000000005",
                dm,
                "2023-09-18T16:25:00.000000+00:00",
                ravi_a.clone(),
                "done, check the bank",
                serde_json::json!({})
            ),
            message(
                "1300000000000000006",
                dm,
                "2023-09-18T16:26:00.000000+00:00",
                older,
                "thanks",
                serde_json::json!({})
            ),
        ]),
    );
    // the API responses it cached: a channel's messages, one message alone, a channel object
    // (no message), a cached image, and a file that mentions channel_id but is no JSON
    let cache = idb
        .ancestors()
        .nth(3)
        .unwrap()
        .join("com.hammerandchisel.discord/fsCachedData");
    std::fs::create_dir_all(&cache).unwrap();
    let mut roles = message(
        "1300000000000000008",
        dm,
        "2023-09-18T16:40:00.000000+00:00",
        author(DANA, "dana_w", Some("Dana W")),
        "the bank says \"pending\" — 0x52908400098527886E0F7030069857D2E4169EE7",
        serde_json::json!({
            "mention_roles": ["1600000000000000001", "1600000000000000002"], "mentions": [ravi_a.clone()],
            "attachments": [{"id": "1400000000000000009", "filename": "receipt.png", "size": 90211,
                "url": "https://cdn.discordapp.com/attachments/1200000000000000001/1400000000000000009/receipt.png",
                "proxy_url": "https://media.discordapp.net/attachments/1200000000000000001/1400000000000000009/receipt.png"}],
            "embeds": [{"url": "https://bank.example.com/t/88", "description": "Transfer pending",
                "footer": {"text": "Bank Example"}}]}),
    );
    let roles = roles["message"].take();
    let list = serde_json::json!([
        message(
            "1300000000000000007",
            dm,
            "2023-09-18T16:30:00.000000+00:00",
            ravi_a.clone(),
            "sent it",
            serde_json::json!({})
        )["message"]
            .clone(),
        roles,
    ]);
    std::fs::write(
        cache.join("2B9C1E4D-5A6F-4B7C-8D9E-0F1A2B3C4D5E"),
        list.to_string(),
    )
    .unwrap();
    let alone = message(
        "1300000000000000010",
        "1200000000000000777",
        "2023-09-19T10:00:00.000000+00:00",
        author(DANA, "dana_w", Some("Dana W")),
        "see pinned",
        serde_json::json!({"pinned": true, "type": 19}),
    )["message"]
        .clone();
    std::fs::write(
        cache.join("3C0D2F5E-6B7A-4C8D-9EAF-1A2B3C4D5E6F"),
        alone.to_string(),
    )
    .unwrap();
    std::fs::write(
        cache.join("4D1E3A6F-7C8B-4D9E-AFB0-2B3C4D5E6F70"),
        serde_json::json!({"id": "1200000000000000001", "type": 1, "last_message_id": "1300000000000000010", "channel_id": null}).to_string(),
    )
    .unwrap();
    std::fs::write(
        cache.join("5E2F4B70-8D9C-4EAF-B0C1-3C4D5E6F7081"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    )
    .unwrap();
    std::fs::write(
        cache.join("6F305C81-9EAD-4FB0-C1D2-4D5E6F708192"),
        b"\xff\xfe\"channel_id\": 1 broken",
    )
    .unwrap();
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("dana-android", &phone, "Europe/London", Some("GB")),
        ("ravi-iphone", &iphone, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let a = run.all_phenomena("dana-android");
    let i = run.all_phenomena("ravi-iphone");
    for p in a.iter().chain(&i) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let stored = |p: &Phenomenon| {
        p.title.starts_with("Discord ") && p.interpretation.contains("(Discord's kv-storage)")
    };
    let cached = |p: &Phenomenon| {
        p.title.starts_with("Discord ") && p.interpretation.contains("cached API response")
    };
    assert_eq!(parity(&a, &stored, ORACLE, &adb), 4);
    assert_eq!(parity(&i, &stored, ORACLE, &idb), 2);
    assert_eq!(parity(&i, &cached, CACHE_ORACLE, &cache), 3);
    // direction by the folder's account; the types as both modules word them
    for title in [
        "Discord message sent in channel 1200000000000000001",
        "Discord reply from Ravi M in channel 1200000000000000001",
        "Discord call from Ravi M in channel 1200000000000000001",
        "Discord message from paybot in channel 1200000000000000777",
    ] {
        assert!(a.iter().any(|p| p.title == title), "{title}");
    }
    assert!(
        i.iter()
            .any(|p| p.title == "Discord message sent in channel 1200000000000000001")
    );
    // a cached response's direction by the container's kv-storage account
    assert!(
        i.iter().any(|p| cached(p)
            && p.title == "Discord message sent in channel 1200000000000000001"
            && p.interpretation.contains("the account 1100000000000000002")),
        "{i:#?}"
    );
    // the wallet Dana wrote in a cached response is her claim on Ravi's phone too
    assert!(
        run.entities("ravi-iphone")
            .iter()
            .any(|e| e.starts_with(&format!("discord:{DANA} "))
                && e.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")),
        "{:#?}",
        run.entities("ravi-iphone")
    );
    run.assert_noted(
        "ravi-iphone",
        &[(
            "com.hammerandchisel.discord/fsCachedData",
            "1 cached files of Discord that mention a channel_id are no single JSON document",
        )],
    );
    assert!(
        run.owner("dana-android")
            .contains(&format!("account_id=discord:{DANA}")),
        "{}",
        run.owner("dana-android")
    );
    assert!(
        run.owner("ravi-iphone")
            .contains("account_id=discord-username:ravi.m")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("dana-android/owner", format!("ravi-iphone/discord:{DANA}")),
        ("ravi-iphone/owner", format!("dana-android/discord:{RAVI}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    // the wallet Dana wrote is her claim
    assert!(
        run.entities("dana-android")
            .iter()
            .any(|e| e.starts_with("owner ")
                && e.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")),
        "{:#?}",
        run.entities("dana-android")
    );
    assert!(
        !a.iter().any(|p| p.title.starts_with("Discord ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.chat"))),
        "another app's kv-storage was read"
    );
    run.assert_noted(
        "dana-android",
        &[
            (
                &kv(DANA)[10..],
                "1 records of Discord's kv-storage hold no JSON after their header byte",
            ),
            (
                "user/10/com.discord/files/kv-storage/@account.1/a",
                "no messages0 table",
            ),
            (
                "user/11/com.discord/files/kv-storage/@account.2/a",
                "malformed",
            ),
        ],
    );
}
