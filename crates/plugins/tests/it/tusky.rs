//! Tusky (`android::tusky`), a Mastodon client for Android: Pia's phone (a current schema,
//! signed in to fosstodon.org) and Jon's (an early schema, `timelineUserId` for the account
//! column, no notifications, signed in to mastodon.social), who write each other direct
//! messages. No public copy of a `tuskyDB` is in the corpus, so both are written by Python's
//! `sqlite3` with the tables and columns of the app's Room schemas (read from its published
//! schema history, the columns the reader and ALEAPP use). ALEAPP's two queries (by the sqlite3
//! CLI; its words for flags and visibility aside — the stored values are the facts) are the
//! oracle; the access tokens, client secrets and push keys never reach a fact; each phone's user
//! resolves as the other's correspondent by `mastodon:user@domain`.

use std::path::Path;

use crate::android_support::{rows_in, triage};

/// argv: Pia's databases folder, Jon's.
const WRITE: &str = r#"
import json, os, sqlite3, sys
pia, jon = sys.argv[1:3]
def store(path, early):
    db = sqlite3.connect(path)
    u = "timelineUserId" if early else "tuskyAccountId"
    late_s = "" if early else ", `editedAt` INTEGER, `language` TEXT"
    late_a = "" if early else ", `note` TEXT NOT NULL DEFAULT ''"
    db.executescript(f"""
CREATE TABLE `AccountEntity` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `domain` TEXT NOT NULL, `accessToken` TEXT NOT NULL, `clientId` TEXT, `clientSecret` TEXT, `isActive` INTEGER NOT NULL, `accountId` TEXT NOT NULL, `username` TEXT NOT NULL, `displayName` TEXT NOT NULL, `profilePictureUrl` TEXT NOT NULL, `notificationsEnabled` INTEGER NOT NULL, `notificationsMentioned` INTEGER NOT NULL, `notificationsFilter` TEXT NOT NULL, `defaultPostPrivacy` INTEGER NOT NULL, `tabPreferences` TEXT NOT NULL, `pushPrivKey` TEXT NOT NULL);
CREATE TABLE `TimelineAccountEntity` (`serverId` TEXT NOT NULL, `{u}` INTEGER NOT NULL, `localUsername` TEXT NOT NULL, `username` TEXT NOT NULL, `displayName` TEXT NOT NULL, `url` TEXT NOT NULL, `avatar` TEXT NOT NULL, `emojis` TEXT NOT NULL, `bot` INTEGER NOT NULL{late_a}, PRIMARY KEY(`serverId`, `{u}`));
CREATE TABLE `TimelineStatusEntity` (`serverId` TEXT NOT NULL, `url` TEXT, `{u}` INTEGER NOT NULL, `authorServerId` TEXT, `inReplyToId` TEXT, `inReplyToAccountId` TEXT, `content` TEXT, `createdAt` INTEGER NOT NULL, `reblogsCount` INTEGER NOT NULL, `favouritesCount` INTEGER NOT NULL, `repliesCount` INTEGER NOT NULL, `reblogged` INTEGER NOT NULL, `bookmarked` INTEGER NOT NULL, `favourited` INTEGER NOT NULL, `sensitive` INTEGER NOT NULL, `spoilerText` TEXT NOT NULL, `visibility` INTEGER NOT NULL, `attachments` TEXT, `application` TEXT{late_s}, PRIMARY KEY(`serverId`, `{u}`));
CREATE TABLE `ConversationEntity` (`accountId` INTEGER NOT NULL, `id` TEXT NOT NULL, `order` INTEGER NOT NULL, `accounts` TEXT NOT NULL, `unread` INTEGER NOT NULL, `s_id` TEXT NOT NULL, `s_url` TEXT, `s_account` TEXT NOT NULL, `s_content` TEXT NOT NULL, `s_createdAt` INTEGER NOT NULL, PRIMARY KEY(`id`, `accountId`));
""")
    if not early:
        db.execute(f"CREATE TABLE `NotificationEntity` (`{u}` INTEGER NOT NULL, `type` TEXT, `id` TEXT NOT NULL, `accountId` TEXT, `statusId` TEXT, `loading` INTEGER NOT NULL, PRIMARY KEY(`id`, `{u}`))")
    return db
def account(db, domain, aid, user, name, token):
    db.execute("INSERT INTO AccountEntity (domain, accessToken, clientId, clientSecret, isActive, accountId, username, displayName, profilePictureUrl, notificationsEnabled, notificationsMentioned, notificationsFilter, defaultPostPrivacy, tabPreferences, pushPrivKey) VALUES (?, ?, 'client-1', ?, 1, ?, ?, ?, ?, 1, 1, '[]', 1, 'HOME;NOTIFICATIONS', ?)",
               (domain, token, "CLIENTSECRET-" + user, aid, user, name, f"https://{domain}/avatars/{user}.png", "PUSHKEY-" + user))
def tl_account(db, early, sid, acct, local, name, url):
    cols = "serverId, " + ("timelineUserId" if early else "tuskyAccountId") + ", localUsername, username, displayName, url, avatar, emojis, bot"
    db.execute(f"INSERT INTO TimelineAccountEntity ({cols}) VALUES (?, 1, ?, ?, ?, ?, '', '[]', 0)", (sid, local, acct, name, url))
def status(db, early, sid, author, content, created, vis, **kw):
    u = "timelineUserId" if early else "tuskyAccountId"
    row = {"serverId": sid, "url": f"https://example.social/@x/{sid}", u: 1, "authorServerId": author, "content": content, "createdAt": created,
           "reblogsCount": 0, "favouritesCount": 2, "repliesCount": 1, "reblogged": 0, "bookmarked": 1, "favourited": 0, "sensitive": 0,
           "spoilerText": "", "visibility": vis, "attachments": "[]", "application": json.dumps({"name": "Tusky", "website": "https://tusky.app"})}
    row.update(kw)
    db.execute(f"INSERT INTO TimelineStatusEntity ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
# Pia's phone: a current schema
db = store(os.path.join(pia, "tuskyDB"), False)
account(db, "fosstodon.org", "1090", "pia", "Pia Ek", "TOKEN-PIA")
tl_account(db, False, "1090", "pia", "pia", "Pia Ek", "https://fosstodon.org/@pia")
tl_account(db, False, "5521", "jon@mastodon.social", "jon", "Jon Sá", "https://mastodon.social/@jon")
status(db, False, "s1", "5521", "<p>@pia the 0x52908400098527886E0F7030069857D2E4169EE7 one</p>", 1732000000000, 4, inReplyToId="s0")
status(db, False, "s2", "1090", "<p>@jon got it</p>", 1732000100000, 4, language="sv")
status(db, False, "s3", "5521", "<p>Market day</p>", 1731990000000, 1, attachments=json.dumps([{"id": "m1", "url": "https://files.mastodon.social/m/market.jpg", "type": "image"}]), editedAt=1731990500000)
db.execute("INSERT INTO ConversationEntity VALUES (1, 'c1', 0, ?, 0, 's2', 'https://fosstodon.org/@pia/s2', ?, '<p>@jon got it</p>', 1732000100000)",
           (json.dumps([{"id": "5521", "username": "jon@mastodon.social", "displayName": "Jon Sá"}]), json.dumps({"id": "1090", "username": "pia", "displayName": "Pia Ek", "url": "https://fosstodon.org/@pia"})))
db.execute("INSERT INTO NotificationEntity VALUES (1, 'mention', 'n1', '5521', 's1', 0)")
db.commit()
# Jon's phone: an early schema
db = store(os.path.join(jon, "tuskyDB"), True)
account(db, "mastodon.social", "5521", "jon", "Jon Sá", "TOKEN-JON")
tl_account(db, True, "5521", "jon", "jon", "Jon Sá", "https://mastodon.social/@jon")
tl_account(db, True, "7781", "pia@fosstodon.org", "pia", "Pia Ek", "https://fosstodon.org/@pia")
status(db, True, "t1", "5521", "<p>@pia the 0x52908400098527886E0F7030069857D2E4169EE7 one</p>", 1732000000000, 4)
status(db, True, "t2", "7781", "<p>@jon got it</p>", 1732000100000, 4)
db.commit()
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// ALEAPP's timeline query, its words for flags and visibility replaced by the stored values
/// and its HTML stripping by removing the fixtures' tags.
const TIMELINE: &str = "SELECT s.createdAt, a.username, a.displayName, s.url, replace(replace(s.content, '<p>', ''), '</p>', ''), (SELECT group_concat(json_extract(m.value, '$.url'), ' ') FROM json_each(s.attachments) m), s.reblogsCount, s.favouritesCount, s.repliesCount, s.reblogged, s.bookmarked, s.favourited, s.sensitive, json_extract(s.application, '$.name') FROM TimelineStatusEntity s LEFT JOIN TimelineAccountEntity a ON a.serverId = s.authorServerId WHERE s.createdAt > 0";

/// ALEAPP's account query but the token, client id and secret (never copied here).
const ACCOUNTS: &str = "SELECT accountId, displayName, username, domain, profilePictureUrl, notificationsEnabled, notificationsMentioned, tabPreferences FROM AccountEntity";

#[test]
fn tusky_on_two_android_phones_of_two_schemas() {
    let tmp = tempfile::tempdir().unwrap();
    let (pia, jon) = (tmp.path().join("pia"), tmp.path().join("jon"));
    let dbs = |root: &Path| root.join("data/data/com.keylesspalace.tusky/databases");
    for r in [&pia, &jon] {
        std::fs::create_dir_all(dbs(r)).unwrap();
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&dbs(&pia)), s(&dbs(&jon))])
        .status()
        .unwrap();
    assert!(st.success());
    // a truncated copy of Jon's store and another app's store under Tusky's name
    let cut = jon.join("data/user/10/com.keylesspalace.tusky/databases");
    std::fs::create_dir_all(&cut).unwrap();
    let bytes = std::fs::read(dbs(&jon).join("tuskyDB")).unwrap();
    std::fs::write(cut.join("tuskyDB"), &bytes[..bytes.len() / 3]).unwrap();
    let foreign = jon.join("data/user/11/com.keylesspalace.tusky/databases");
    std::fs::create_dir_all(&foreign).unwrap();
    crate::ios_nearby::sqlite3(
        &foreign.join("tuskyDB"),
        "CREATE TABLE kv (k TEXT); INSERT INTO kv VALUES ('x');",
    );
    let run = triage(&[
        ("pia", &pia, "Europe/Stockholm", Some("SE")),
        ("jon", &jon, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (who, root, statuses) in [("pia", &pia, 3), ("jon", &jon, 2)] {
        let all = run.all_phenomena(who);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let db = dbs(root).join("tuskyDB");
        let found: Vec<&masf_graph::Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with("Tusky status") || p.title.starts_with("Tusky direct"))
            .collect();
        assert_eq!(rows_in(&found, &db, TIMELINE, 3, ""), statuses, "{who}");
        assert_eq!(found.len(), statuses, "{who}");
        let accounts: Vec<&masf_graph::Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with("Tusky account"))
            .collect();
        assert_eq!(rows_in(&accounts, &db, ACCOUNTS, 0, ""), 1, "{who}");
        // the tokens, client secrets and push keys never reach a fact
        assert!(!all.iter().any(|p| p.verified_facts.iter().any(|f| {
            f.value.contains("TOKEN-") || f.value.contains("SECRET") || f.value.contains("PUSHKEY")
        })));
    }
    let all = run.all_phenomena("pia");
    assert!(all.iter().any(|p| p.title == "Tusky direct message sent"));
    let dm = all
        .iter()
        .find(|p| p.title == "Tusky direct message from @jon@mastodon.social")
        .unwrap();
    assert_eq!(dm.category, "messages");
    assert!(
        dm.verified_facts
            .iter()
            .any(|f| f.value == "mastodon:jon@mastodon.social")
    );
    assert!(
        all.iter()
            .any(|p| p.title == "Tusky conversation's last message sent to jon@mastodon.social")
    );
    assert!(all.iter().any(|p| {
        p.title == "Tusky notification mention from @jon@mastodon.social"
            && p.verified_facts
                .iter()
                .any(|f| f.value.starts_with("@pia the"))
    }));
    let owner = run.owner("pia").to_lowercase();
    assert!(
        owner.contains("account_id=mastodon:pia@fosstodon.org"),
        "{owner}"
    );
    assert!(
        run.identifiers("pia")
            .iter()
            .any(|(t, v)| t == "wallet" && v == "0x52908400098527886e0f7030069857d2e4169ee7")
    );
    run.assert_noted(
        "jon",
        &[
            (
                "user/10/com.keylesspalace.tusky/databases/tuskyDB",
                "malformed",
            ),
            (
                "user/11/com.keylesspalace.tusky/databases/tuskyDB",
                "none of the tables",
            ),
        ],
    );
    // who is who: each phone's user is the other's correspondent
    let with = crate::who::resolved(&run);
    assert!(
        with("pia/owner").contains(&"jon/mastodon:pia@fosstodon.org".to_string()),
        "{:#?}",
        with("pia/owner")
    );
    assert!(
        with("jon/owner").contains(&"pia/mastodon:jon@mastodon.social".to_string()),
        "{:#?}",
        with("jon/owner")
    );
}
