//! Telegram for Android (`android::telegram`) on the `cache4.db` fixtures of
//! `tests/fixtures/android-telegram` (built by its `generate.sh`: the sqlite3 CLI with the
//! client's tables, the corpus's real stored secret-chat messages and secret-chat record, users
//! and messages serialised following the TL schema, one message only in the WAL): device a the
//! current client, device b the 2016 one; truncated and foreign-schema copies.

use std::path::{Path, PathBuf};

use masf_graph::resolution;

use crate::android_support::{Run, repo, triage};

const FILES: &str = "data/data/org.telegram.messenger/files";

/// Device `dev`'s tree under `root`: a copy of the committed fixture (a), or (b, which holds the
/// corpus's real blobs) built now by the generator's `tl_cache4.py` and the sqlite3 CLI from the
/// corpus in place.
fn device(root: &Path, dev: &str) -> PathBuf {
    let to = root.join(FILES);
    std::fs::create_dir_all(&to).unwrap();
    let db = to.join("cache4.db");
    if dev == "b" {
        let script = repo("tests/fixtures/android-telegram/tl_cache4.py");
        let sql = std::process::Command::new("python3")
            .arg(script)
            .arg("b")
            .arg(masf_testkit::corpus::root())
            .output()
            .unwrap();
        assert!(
            sql.status.success(),
            "{}",
            String::from_utf8_lossy(&sql.stderr)
        );
        sqlite3(&db, &String::from_utf8(sql.stdout).unwrap());
        return db;
    }
    let app = repo("tests/fixtures/android-telegram/out")
        .join(dev)
        .join("data/data/org.telegram.messenger");
    for dir in std::fs::read_dir(&app).unwrap() {
        let dir = dir.unwrap().path();
        let into = root
            .join("data/data/org.telegram.messenger")
            .join(dir.file_name().unwrap());
        std::fs::create_dir_all(&into).unwrap();
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), into.join(e.file_name())).unwrap();
        }
    }
    db
}

fn sqlite3(db: &Path, sql: &str) {
    let out = std::process::Command::new("sqlite3")
        .arg(db)
        .arg(sql)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn titled(run: &Run, source: &str, start: &str) -> Vec<masf_graph::Phenomenon> {
    run.all_phenomena(source)
        .into_iter()
        .filter(|p| p.title.starts_with(start))
        .collect()
}

fn values(p: &masf_graph::Phenomenon) -> Vec<&str> {
    p.verified_facts.iter().map(|f| f.value.as_str()).collect()
}

fn entity<'a>(ents: &'a [String], context: &str) -> &'a str {
    ents.iter()
        .find(|e| e.starts_with(&format!("{context} ")))
        .unwrap_or_else(|| panic!("{context}: {ents:#?}"))
}

#[test]
fn telegram_two_devices_users_owner_secret_chats_messages_and_a_username_joined_by_a_claim() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    device(&a, "a");
    device(&b, "b");
    let run = triage(&[
        ("src-a", &a, "Asia/Hong_Kong", Some("HK")),
        ("src-b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(
        run.unparsed("src-a").is_empty(),
        "{:#?}",
        run.unparsed("src-a")
    );

    // device a (current client): every message, the one only in the WAL included
    let messages = titled(&run, "src-a", "Telegram message ");
    let mut titles: Vec<&str> = messages.iter().map(|p| p.title.as_str()).collect();
    titles.sort();
    assert_eq!(
        titles,
        [
            "Telegram message 201 received from telegram:62132081",
            "Telegram message 202 sent to telegram:62132081",
            "Telegram message 203 sent to telegram-chat:4001234567",
            "Telegram message 204 received from telegram:777000111 in telegram-chat:4001234567",
            "Telegram message 205 received from telegram:62132081",
        ]
    );
    let text = |mid: &str| {
        let p = messages
            .iter()
            .find(|p| p.title.starts_with(&format!("Telegram message {mid} ")))
            .unwrap();
        values(p).join(" | ")
    };
    assert!(text("202").contains("my USDT address is TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"));
    assert!(text("205").contains("still in the WAL"));
    assert!(text("202").contains("1764100060"));

    let listed = run.phenomena("src-a");
    for t in [
        "accounts | Telegram account telegram:5000000123 (this device's)",
        "contacts | Telegram user telegram:62132081",
        "contacts | Telegram user telegram:777000111",
        "contacts | Telegram contact Mei Chan",
        "messages | Telegram group or channel otc desk hk",
        "messages | Telegram secret chat 1234567 with telegram:62132081",
        "messages | Telegram dialog with telegram:62132081",
        "messages | Telegram dialog with telegram-chat:4001234567",
        "messages | Telegram dialog with telegram:62132081 (secret chat 1234567)",
    ] {
        assert!(listed.iter().any(|x| x == t), "{t}: {listed:#?}");
    }
    let ents = run.entities("src-a");
    let owner = entity(&ents, "owner");
    for v in [
        "account_id=telegram:5000000123",
        "telegram_username=telegram-user:@pat_wong_hk",
        "phone=+85261234567",
        "display_name=pat wong",
        "wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
    ] {
        assert!(owner.contains(v), "{v}: {owner}");
    }
    let mei = entity(&ents, "telegram:62132081");
    for v in [
        "account_id=telegram:62132081",
        "telegram_username=telegram-user:@meichan_hk",
        "phone=+85291234567",
    ] {
        assert!(mei.contains(v), "{v}: {mei}");
    }
    // a group member's words are claims of the sender its stored object names, of no one else
    assert!(
        !ents
            .iter()
            .any(|e| e.contains("telegram-user:@kalok_ho") && !e.starts_with("telegram:777000111 ")),
        "{ents:#?}"
    );
    // the secret chat's keys never reach a tool's output (the fixture's stand-in key bytes)
    for (tool, args, out) in run.outputs("src-a") {
        for probe in ["404142434445464748494a4b", "404142434445464748494A4B"] {
            assert!(!out.contains(probe), "{tool} {args}");
        }
    }

    // device b (2016 client): owner from the self flag of a user#2e13f4c3, a user from the name
    // column only, the real secret chat under the old dialog id
    assert!(
        run.unparsed("src-b").is_empty(),
        "{:#?}",
        run.unparsed("src-b")
    );
    let ents_b = run.entities("src-b");
    let owner_b = entity(&ents_b, "owner");
    for v in [
        "account_id=telegram:262250033",
        "telegram_username=telegram-user:@samlee_2016",
        "phone=+85290001111",
    ] {
        assert!(owner_b.contains(v), "{v}: {owner_b}");
    }
    assert!(
        entity(&ents_b, "telegram:62132081")
            .contains("telegram_username=telegram-user:@meichan_hk")
    );
    let listed_b = run.phenomena("src-b");
    for t in [
        "messages | Telegram secret chat -1000205451 with telegram:62132081",
        "messages | Telegram dialog with telegram:62132081 (secret chat -1000205451)",
    ] {
        assert!(listed_b.iter().any(|x| x == t), "{t}: {listed_b:#?}");
    }
    assert_eq!(titled(&run, "src-b", "Telegram message ").len(), 3);
    assert_eq!(
        titled(
            &run,
            "src-b",
            "Telegram message -210008 sent to telegram:62132081"
        )
        .len(),
        1
    );
    // the account 888000222 writes "my telegram is @pat_wong_hk": a claim of that user name
    let other = entity(&ents_b, "telegram:888000222");
    assert!(
        other.contains("telegram_username=telegram-user:@pat_wong_hk"),
        "{other}"
    );

    // the catalogue's detector finds the read
    use masf_agents::Plugin;
    let e = masf_plugins::android::AndroidPlugin
        .expected_artefacts()
        .into_iter()
        .find(|e| e.name == "Telegram cache4.db")
        .unwrap();
    assert!(
        run.outputs("src-a")
            .iter()
            .any(|(_, args, _)| { e.detector.iter().any(|d| args.contains(d.as_str())) })
    );

    // identity: the user name claimed on device b joins the owner of device a; Mei's two
    // entities are one actor by her user id; the two owners stay apart
    for round in 0.. {
        let calls = resolution::plan(&run.session.state().unwrap());
        if calls.is_empty() {
            break;
        }
        assert!(round < resolution::MAX_PASSES, "{calls:#?}");
        for call in &calls {
            let verdict = run
                .session
                .submit(masf_store::ActorKind::Agent, resolution::RESOLVER, call)
                .unwrap();
            assert!(verdict.is_accepted(), "{call:?}: {verdict:?}");
        }
    }
    let state = run.session.state().unwrap();
    let id_of = |source: &str, context: &str| {
        state
            .entities()
            .values()
            .find(|e| e.source_id == source && e.context == context)
            .unwrap_or_else(|| panic!("{source}/{context}"))
            .id
            .clone()
    };
    let actors = resolution::actors(&state);
    let actor = |id: &str| {
        actors
            .iter()
            .find(|a| a.entities.iter().any(|e| e == id))
            .map(|a| a.id.clone())
    };
    let owner_a = id_of("src-a", "owner");
    assert_eq!(
        actor(&owner_a),
        actor(&id_of("src-b", "telegram:888000222"))
    );
    assert_eq!(
        actor(&id_of("src-a", "telegram:62132081")),
        actor(&id_of("src-b", "telegram:62132081"))
    );
    assert_ne!(actor(&owner_a), actor(&id_of("src-b", "owner")));
}

#[test]
fn telegram_truncated_and_foreign_schema_copies_are_noted_and_the_rest_read() {
    let tmp = tempfile::tempdir().unwrap();
    // messages_v2 without its data column: noted, the users still read
    let foreign = tmp.path().join("f");
    let db = device(&foreign, "a");
    sqlite3(&db, "ALTER TABLE messages_v2 DROP COLUMN data");
    // a copy cut short, and a cache4.db of another app (no users table)
    let cut = tmp.path().join("t");
    let db = device(&cut, "b");
    let bytes = std::fs::read(&db).unwrap();
    std::fs::write(&db, &bytes[..1500]).unwrap();
    let other = tmp.path().join("o");
    let odb = other.join("data/data/com.example.other/files/cache4.db");
    std::fs::create_dir_all(odb.parent().unwrap()).unwrap();
    sqlite3(
        &odb,
        "CREATE TABLE cache(k TEXT, v BLOB); INSERT INTO cache VALUES ('a', X'00');",
    );
    // the rest of that source is read
    device(&other, "b");
    let run = triage(&[
        ("src-f", &foreign, "Asia/Hong_Kong", Some("HK")),
        ("src-t", &cut, "Asia/Hong_Kong", Some("HK")),
        ("src-o", &other, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let noted = |source: &str, word: &str| {
        let notes = run.unparsed(source);
        assert!(
            notes
                .iter()
                .any(|u| u.artefact.ends_with("cache4.db") && u.reason.contains(word)),
            "{source} {word}: {notes:#?}"
        );
    };
    noted("src-f", "messages_v2 table because it lacks data");
    assert!(
        run.phenomena("src-f")
            .iter()
            .any(|t| t == "accounts | Telegram account telegram:5000000123 (this device's)")
    );
    assert!(titled(&run, "src-f", "Telegram message ").is_empty());
    noted("src-t", "");
    assert!(titled(&run, "src-t", "Telegram").is_empty());
    noted("src-o", "no table users");
    assert_eq!(titled(&run, "src-o", "Telegram message ").len(), 3);
}

/// Device c: every stored object serialised by Telethon at TL layers 106, 125, 133, 167 and 214
/// (`telethon-blobs.json`), one conversation holding messages of all five. In a group the
/// sender is the one the object names, so the address a member gives is claimed by that member
/// and joins their person; a channel post has no sender and claims nothing; the owner's
/// outgoing messages name the owner's account.
#[test]
fn telegram_group_senders_of_five_layers_claim_what_they_say() {
    let tmp = tempfile::tempdir().unwrap();
    let c = tmp.path().join("c");
    device(&c, "c");
    let run = triage(&[("src-c", &c, "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(
        run.unparsed("src-c").is_empty(),
        "{:#?}",
        run.unparsed("src-c")
    );
    let messages = titled(&run, "src-c", "Telegram message ");
    assert_eq!(messages.len(), 25);
    for layer in [106, 125, 133, 167, 214] {
        for (i, title) in [
            "received from telegram:777000111 in telegram-chat:4242",
            "sent to telegram-chat:4242",
            "received from telegram:300400500 in telegram-chat:1777000222",
            "received from telegram-chat:1777000222",
            "received from telegram:62132081",
        ]
        .iter()
        .enumerate()
        {
            let want = format!("Telegram message {} {title}", 10 * (i + 1) + layer);
            assert!(
                messages.iter().any(|p| p.title == want),
                "{want}: {:#?}",
                messages.iter().map(|p| &p.title).collect::<Vec<_>>()
            );
        }
    }
    let ents = run.entities("src-c");
    let kalok = entity(&ents, "telegram:777000111");
    for v in [
        "account_id=telegram:777000111",
        "telegram_username=telegram-user:@kalok_ho",
        "phone=+85298765432",
        "wallet=0xde709f2102306220921060314715629080e2fb77",
    ] {
        assert!(kalok.contains(v), "{v}: {kalok}");
    }
    // the address Ka Lok gives in the group is claimed by Ka Lok, by no one else
    let claimed: Vec<&String> = ents
        .iter()
        .filter(|e| e.contains("0xde709f2102306220921060314715629080e2fb77"))
        .collect();
    assert!(
        claimed
            .iter()
            .all(|e| e.starts_with("telegram:777000111 ") || !e.contains("account_id=")),
        "{claimed:#?}"
    );
    let owner = entity(&ents, "owner");
    assert!(owner.contains("account_id=telegram:1500000999"), "{owner}");
    assert!(!owner.contains("0xde709f"), "{owner}");
    // the supergroup member is known only by the id the messages name
    assert!(
        !ents
            .iter()
            .any(|e| e.starts_with("telegram-chat:") && e.contains("account_id=")),
        "{ents:#?}"
    );
}

/// `shared_prefs/userconfing.xml` (device c: the preferences file as Android writes it, the
/// account's own user serialised by Telethon at layer 214, base64): the signed-in account with
/// its id, user name and phone, also when the cache is gone; a signed-out copy (no `user`) is
/// noted unparsed with why.
#[test]
fn telegram_userconfing_gives_the_signed_in_account_without_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, bare, out) = (
        tmp.path().join("c"),
        tmp.path().join("bare"),
        tmp.path().join("out"),
    );
    device(&c, "c");
    let db = device(&bare, "c");
    std::fs::remove_file(db).unwrap();
    let prefs = "data/data/org.telegram.messenger/shared_prefs/userconfing.xml";
    device(&out, "c");
    let xml = std::fs::read_to_string(out.join(prefs)).unwrap();
    let signed_out: String = xml
        .lines()
        .filter(|l| !l.contains("name=\"user\""))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(out.join(prefs), signed_out).unwrap();
    let run = triage(&[
        ("src-c", &c, "Asia/Hong_Kong", Some("HK")),
        ("src-bare", &bare, "Asia/Hong_Kong", Some("HK")),
        ("src-out", &out, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for src in ["src-c", "src-bare"] {
        assert!(
            run.unparsed(src).is_empty(),
            "{src}: {:#?}",
            run.unparsed(src)
        );
        assert!(
            run.phenomena(src)
                .iter()
                .any(|p| p == "accounts | Telegram account telegram:1500000999 (signed in)"),
            "{src}: {:#?}",
            run.phenomena(src)
        );
        let owner = entity(&run.entities(src), "owner").to_string();
        for v in [
            "account_id=telegram:1500000999",
            "telegram_username=telegram-user:@lin_ho_otc",
            "phone=+85260001234",
        ] {
            assert!(owner.contains(v), "{src} {v}: {owner}");
        }
    }
    // the base64 text is in the logged output, its decoding beside it; the stand-in access
    // hash never
    let (_, _, text) = run
        .outputs("src-bare")
        .into_iter()
        .find(|(t, _, _)| t == "read_xml")
        .unwrap();
    assert!(text.starts_with("# format: xml\n"), "{text}");
    assert!(text.contains("# decoded user: tl:{"), "{text}");
    assert!(!text.contains("81985529216486895"), "{text}");
    let unparsed = run.unparsed("src-out");
    assert!(
        unparsed
            .iter()
            .any(|u| u.artefact.contains("userconfing.xml")
                && u.reason.contains("holds no Telegram user object")),
        "{unparsed:#?}"
    );
}
