//! Signal for iOS (`ios::signal`) read with the key of the extraction's keychain export: two
//! iPhones whose `grdb/signal.sqlite` real SQLCipher 4 wrote (`tests/fixtures/signal/signal_ios.py`,
//! the sqlcipher3-binary wheel: the first 32 bytes in the clear, a raw key and an outside salt,
//! the last rows only in the `-wal`) with Signal-iOS's GRDB tables (`signal-ios-f.sql`, a recent
//! release; `signal-ios-g.sql`, an older one without `pni`, profiles or the newer flags), and a
//! decrypted `keychain-backup.plist` holding the 48-byte `GRDBDatabaseCipherKeySpec`. The oracle
//! is SQLCipher's own decryption (`sqlcipher_export`) read by the sqlite3 CLI: every row and
//! field of iLEAPP's three Signal artefacts is found. Beside them an iPhone without its keychain
//! export (noted, the database named). Session for iOS (`ios::session`), a GRDB app kept the
//! same way under its own access group, is tested the same way on two iPhones
//! (`session-ios-h.sql`, `session-ios-i.sql`).

use std::path::Path;

use crate::android_support::{check, repo, triage};

const ALEX: &str = "a3c1f0e2-5b7d-4e9a-8c6f-1d2e3f4a5b6c";
const SAM: &str = "7e8f9a0b-1c2d-4e3f-8a5b-6c7d8e9f0a1b";
const KEY_F: &str = "5f4e3d2c1b0a99887766554433221100ffeeddccbbaa99887766554433221100";
const SALT_F: &str = "0123456789abcdeffedcba9876543210";
const KEY_G: &str = "11223344556677889900aabbccddeeff00112233445566778899aabbccddeeff";
const SALT_G: &str = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";
const DB: &str = "private/var/mobile/Containers/Shared/AppGroup/7C1D2E3F-4A5B-4C6D-8E9F-0A1B2C3D4E5F/grdb/signal.sqlite";

/// Writes an iPhone's Signal store and keychain export at `root` and SQLCipher's own plain
/// copy at `oracle`.
fn iphone(root: &Path, sql: &str, key: &str, salt: &str, oracle: &Path) {
    app_store(root, sql, key, salt, oracle, &[]);
}

/// [`iphone`] of another GRDB app: `app` is its database's path under the app group and its
/// keychain access group.
fn app_store(root: &Path, sql: &str, key: &str, salt: &str, oracle: &Path, app: &[&str]) {
    let python = masf_testkit::corpus::py_oracle("python3", "sqlcipher3-binary");
    let out = std::process::Command::new(python)
        .arg(repo("tests/fixtures/signal/signal_ios.py"))
        .arg(root)
        .arg(repo(&format!("tests/fixtures/signal/{sql}")))
        .args([key, salt])
        .arg(oracle)
        .args(app)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn signal_on_two_iphones_read_with_the_keychain_exports_key() {
    let tmp = tempfile::tempdir().unwrap();
    let (f, g, nokey) = (
        tmp.path().join("f"),
        tmp.path().join("g"),
        tmp.path().join("nokey"),
    );
    let oracle = tmp.path().join("oracle");
    iphone(
        &f,
        "signal-ios-f.sql",
        KEY_F,
        SALT_F,
        &oracle.join("f.sqlite"),
    );
    iphone(
        &g,
        "signal-ios-g.sql",
        KEY_G,
        SALT_G,
        &oracle.join("g.sqlite"),
    );
    iphone(
        &nokey,
        "signal-ios-g.sql",
        KEY_G,
        SALT_G,
        &oracle.join("n.sqlite"),
    );
    std::fs::remove_file(nokey.join("keychain-backup.plist")).unwrap();

    let run = triage(&[
        ("f", &f, "Europe/London", Some("GB")),
        ("g", &g, "Europe/London", Some("GB")),
        ("nokey", &nokey, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, key, counts) in [("f", KEY_F, (3, 4, 2)), ("g", KEY_G, (2, 3, 2))] {
        let plain = oracle.join(format!("{source}.sqlite"));
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let pni = if source == "f" {
            "COALESCE(pni, '')"
        } else {
            "''"
        };
        assert_eq!(
            check(
                &all,
                "Signal contact ",
                &plain,
                &format!(
                    "SELECT uniqueId, recipientPhoneNumber, recipientUUID, {pni} FROM model_SignalRecipient"
                ),
                0
            ),
            counts.0,
            "{source}"
        );
        // every message (the log's too) with its times, conversation and text
        assert_eq!(
            check(
                &all,
                "Signal message ",
                &plain,
                "SELECT uniqueId, timestamp, receivedAtTimestamp, uniqueThreadId, COALESCE(body, ''), COALESCE(authorPhoneNumber, ''), COALESCE(authorUUID, '') FROM model_TSInteraction",
                0
            ),
            counts.1,
            "{source}"
        );
        assert_eq!(
            check(
                &all,
                "Signal conversation ",
                &plain,
                "SELECT uniqueId, COALESCE(contactPhoneNumber, ''), COALESCE(contactUUID, ''), COALESCE(messageDraft, '') FROM model_TSThread",
                0
            ),
            counts.2,
            "{source}"
        );
        crate::signal_android::key_never_in_queries(&run, source, key, "signal_ios");
    }
    let all = run.all_phenomena("f");
    let titled = |t: &str| {
        all.iter()
            .find(|p| p.title == t)
            .unwrap_or_else(|| panic!("{t}: {:#?}", run.phenomena("f")))
    };
    let first = titled("Signal message from Alex Morgan");
    assert!(first.verified_facts.iter().any(|f| f.value == "incoming"));
    let sent = titled("Signal message sent to Sam");
    assert!(sent.verified_facts.iter().any(|f| f.value == "on my way"));
    assert!(
        titled("Signal conversation with +447700900456")
            .verified_facts
            .iter()
            .any(|f| f.value == "1735700000000")
    );
    // attachments are kept in the clear: each with its message and the stored file's path
    assert_eq!(
        check(
            &all,
            "Signal attachment ",
            &oracle.join("f.sqlite"),
            "SELECT uniqueId, albumMessageId, contentType, sourceFilename, byteCount FROM model_TSAttachment",
            0
        ),
        1
    );
    let voice = titled("Signal attachment voice-note.m4a");
    let stored = format!(
        "/{}",
        Path::new(DB)
            .parent()
            .and_then(Path::parent)
            .unwrap()
            .join("Attachments/A-0001/voice-note.m4a")
            .display()
    );
    assert!(
        voice.verified_facts.iter().any(|f| f.value == stored),
        "{stored}: {voice:#?}"
    );
    assert!(
        titled("Signal message from Sam")
            .verified_facts
            .iter()
            .any(|f| f.value == "1" && f.fact_type == masf_graph::FactType::Count)
    );
    // who is who: Alex wrote the wallet to the iPhone's user; Sam is one person on both iPhones
    let ents = run.entities("f").join("\n");
    assert!(
        ents.contains(&format!("account_id=signal:{ALEX}")),
        "{ents}"
    );
    assert!(
        ents.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{ents}"
    );
    let with = crate::who::resolved(&run);
    assert!(
        with(&format!("f/signal:{SAM}")).contains(&format!("g/signal:{SAM}")),
        "{:#?}",
        with(&format!("f/signal:{SAM}"))
    );
    // the older release: a group conversation, authors by number only
    let g = run.all_phenomena("g");
    assert!(
        g.iter()
            .any(|p| p.title == "Signal conversation with a group")
    );
    assert!(
        g.iter()
            .any(|p| p.title == "Signal message from +447700900456")
    );

    // no keychain export: the database named and noted
    run.assert_noted(
        "nokey",
        &[(
            "grdb/signal.sqlite",
            "the extraction holds no keychain export",
        )],
    );
    assert!(
        run.all_phenomena("nokey")
            .iter()
            .any(|p| p.title == "Signal database (encrypted)"),
        "{:#?}",
        run.phenomena("nokey")
    );
    assert!(nokey.join(DB).exists());
}

const RILEY: &str = "05aa11bb22cc33dd44ee55ff66aa77bb88cc99dd00ee11ff22aa33bb44cc55dd66";
const QUINN: &str = "05c0ffee00112233445566778899aabbccddeeff00112233445566778899aabbcc";
const SESSION: [&str; 2] = ["database/Session.sqlite", "com.loki-project.loki-messenger"];

#[test]
fn session_on_two_iphones_read_with_the_keychain_exports_key() {
    let tmp = tempfile::tempdir().unwrap();
    let (h, i) = (tmp.path().join("h"), tmp.path().join("i"));
    let oracle = tmp.path().join("oracle");
    app_store(
        &h,
        "session-ios-h.sql",
        KEY_F,
        SALT_F,
        &oracle.join("h.sqlite"),
        &SESSION,
    );
    app_store(
        &i,
        "session-ios-i.sql",
        KEY_G,
        SALT_G,
        &oracle.join("i.sqlite"),
        &SESSION,
    );
    let run = triage(&[
        ("h", &h, "Europe/London", Some("GB")),
        ("i", &i, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, key, counts) in [("h", KEY_F, (2, 3)), ("i", KEY_G, (1, 2))] {
        let plain = oracle.join(format!("{source}.sqlite"));
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        // the store read at all: when not, say why (the notes and the report) before the rows
        assert!(
            all.iter().any(|p| p.title.starts_with("Session contact ")),
            "{source}: no Session contact; notes {:#?}; report {:#?}",
            run.unparsed(source),
            run.report(source)
        );
        // iLEAPP's contacts: Session ID, name, nickname, the flags, the client version
        let contacts = if source == "h" {
            "SELECT c.id, p.name, COALESCE(p.nickname, ''), c.lastKnownClientVersion FROM contact c LEFT JOIN profile p ON p.id = c.id"
        } else {
            "SELECT c.id, p.name FROM contact c LEFT JOIN profile p ON p.id = c.id"
        };
        assert_eq!(
            check(&all, "Session contact ", &plain, contacts, 0),
            counts.0,
            "{source}"
        );
        // iLEAPP's messages (the standard variants; the log's too): times, author, text, hash
        let hash = if source == "h" {
            "COALESCE(serverHash, '')"
        } else {
            "''"
        };
        assert_eq!(
            check(
                &all,
                "Session message ",
                &plain,
                &format!(
                    "SELECT timestampMs, receivedAtTimestampMs, authorId, threadId, COALESCE(body, ''), {hash} FROM interaction WHERE variant IN (0, 1)"
                ),
                0
            ),
            counts.1,
            "{source}"
        );
        crate::signal_android::key_never_in_queries(&run, source, key, "session_ios");
    }
    let all = run.all_phenomena("h");
    let call = all
        .iter()
        .find(|p| p.title.starts_with("Session call"))
        .expect("the call");
    assert_eq!(call.category, "calls");
    assert!(call.title.contains("(incoming)"), "{}", call.title);
    assert!(
        run.all_phenomena("i")
            .iter()
            .any(|p| p.title.starts_with("Session deleted message"))
    );
    // who is who: the author of the outgoing messages is the owner; one person on both iPhones
    assert!(
        run.owner("h")
            .contains(&format!("account_id=session:{QUINN}"))
    );
    assert!(
        run.owner("i")
            .contains(&format!("account_id=session:{RILEY}"))
    );
    let ents = run.entities("h").join("\n");
    assert!(
        ents.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{ents}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("h/owner", format!("i/session:{QUINN}")),
        ("i/owner", format!("h/session:{RILEY}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
}
