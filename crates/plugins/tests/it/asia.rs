//! WeChat, LINE and Signal on iOS and Android, on fixtures built by
//! `tests/fixtures/asia/generate.sh` (sqlite3 with the apps' table layouts, plistlib, sqlcipher):
//! two devices per artefact, and truncated, encrypted and foreign-schema copies.

use std::path::{Path, PathBuf};

use masf_graph::Phenomenon;

use crate::ios_support::{Outcome, assert_all_accepted, repo, triage};

/// A fixture folder of `tests/fixtures/asia/out`.
fn fixture(rel: &str) -> PathBuf {
    repo().join("tests/fixtures/asia/out").join(rel)
}

/// Copies the folder `from` into `to` (created).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn sqlite3_rows(db: &Path, sql: &str) -> Vec<Vec<String>> {
    let out = std::process::Command::new("sqlite3")
        .args(["-readonly", "-separator", "\u{1f}"])
        .arg(db)
        .arg(sql)
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
        .map(|l| l.split('\u{1f}').map(str::to_string).collect())
        .collect()
}

/// Runs `sql` (given on standard input) on the database at `db` (created when absent) with the
/// sqlite3 CLI.
fn sqlite3_exec(db: &Path, sql: &str) {
    use std::io::Write;
    let mut child = std::process::Command::new("sqlite3")
        .arg(db)
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(sql.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn titled<'a>(o: &'a Outcome, start: &str) -> Vec<&'a Phenomenon> {
    o.findings()
        .into_iter()
        .filter(|p| p.title.starts_with(start))
        .collect()
}

fn holds(o: &Outcome, context: &str, id_type: &str, value: &str) -> bool {
    o.identities()
        .iter()
        .any(|(c, t, v)| c == context && t == id_type && v.eq_ignore_ascii_case(value))
}

const APP: &str =
    "private/var/mobile/Containers/Data/Application/0C7A1B2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D";
const GROUP: &str =
    "private/var/mobile/Containers/Shared/AppGroup/6D5C4B3A-2F1E-4D0C-9B8A-7F6E5D4C3B2A";

/// An iOS tree holding the WeChat fixture of `dev` in the app's container.
fn wechat_tree(root: &Path, dev: &str) -> PathBuf {
    let app = root.join(APP);
    copy_dir(&fixture(&format!("wechat-ios-{dev}")), &app);
    app.join("Documents")
}

#[test]
fn ios_wechat_messages_contacts_owner_and_claims_on_two_devices() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = wechat_tree(&tmp.path().join("a"), "a");
    let o = triage(&tmp.path().join("a"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let account = std::fs::read_dir(&docs)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mm = account.join("DB/MM.sqlite");
    // every row of every Chat_ table, as the sqlite3 CLI reads it
    let tables = sqlite3_rows(
        &mm,
        "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'Chat\\_%' ESCAPE '\\'",
    );
    assert_eq!(tables.len(), 4);
    let messages = titled(&o, "WeChat ");
    let messages: Vec<&&Phenomenon> = messages
        .iter()
        .filter(|p| p.category == "messages")
        .collect();
    let mut want = 0;
    let mut missing = Vec::new();
    for t in &tables {
        for r in sqlite3_rows(
            &mm,
            &format!(
                "SELECT MesLocalID, CreateTime, MesSvrID, replace(Message, char(10), '\\n') FROM {}",
                t[0]
            ),
        ) {
            want += 1;
            let Some(p) = messages
                .iter()
                .find(|p| p.title.contains(&format!(" message {} ", r[0])) && has(p, &t[0]))
            else {
                missing.push(format!("{} {}", t[0], r[0]));
                continue;
            };
            for v in &r[1..] {
                if !has(p, v) {
                    missing.push(format!("{} {}: {v}", t[0], r[0]));
                }
            }
        }
    }
    assert_eq!(want, 8);
    assert_eq!(messages.len(), want);
    assert!(missing.is_empty(), "{missing:#?}");
    // the group message names its sender; the unknown table is said so
    assert!(
        messages
            .iter()
            .any(|p| p.title.contains("from wxid_mei8chan2k in OTC 交易群"))
    );
    assert!(
        messages
            .iter()
            .any(|p| p.title.contains("from an unknown peer"))
    );
    let contacts = o.category("contacts");
    assert_eq!(
        contacts.len(),
        4,
        "{:#?}",
        contacts.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    let mei = contacts
        .iter()
        .find(|p| p.title == "WeChat contact wxid_mei8chan2k")
        .unwrap();
    for v in ["Mei Chan", "meichan88", "Mei USDT OTC"] {
        assert!(has(mei, v), "{v}");
    }
    // identities: the owner, the contacts, the group; wallets claimed by direction
    for (c, t, v) in [
        ("owner", "wechat", "wechat:wxid_leungyl88"),
        ("owner", "wechat", "wechat:leung_yl"),
        ("owner", "phone", "+85261234567"),
        ("owner", "display_name", "leung yl"),
        ("wechat:wxid_mei8chan2k", "wechat", "wechat:wxid_mei8chan2k"),
        ("wechat:wxid_mei8chan2k", "wechat", "wechat:meichan88"),
        ("wechat:wxid_mei8chan2k", "nickname", "mei usdt otc"),
        ("wechat:ho_kl_2023", "wechat", "wechat:ho_kl_2023"),
        (
            "wechat:24187063512@chatroom",
            "wechat",
            "wechat:24187063512@chatroom",
        ),
        ("owner", "wallet", "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"),
        (
            "wechat:wxid_mei8chan2k",
            "wallet",
            "0x1850ce0e73407a9997c467babc60fe887c567625",
        ),
    ] {
        assert!(holds(&o, c, t, v), "{c} {t} {v}: {:#?}", o.identities());
    }
    // an official account is no person
    assert!(!o.identities().iter().any(|(c, _, _)| c.contains("gh_")));
    let owner = titled(&o, "WeChat account wxid_leungyl88");
    assert_eq!(owner.len(), 1);
    assert!(
        owner[0]
            .interpretation
            .contains("named by the md5 of the user name")
    );

    // device b: an older Chat_ layout, a Friend table without names; Mei writes the wallet
    let docs = wechat_tree(&tmp.path().join("b"), "b");
    let o = triage(&tmp.path().join("b"), "Asia/Shanghai");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    assert!(docs.exists());
    let messages: Vec<_> = o.category("messages");
    assert_eq!(messages.len(), 2);
    assert!(holds(&o, "owner", "wechat", "wechat:wxid_fungcc2019"));
    assert!(holds(&o, "owner", "phone", "+8613812345678"));
    assert!(holds(
        &o,
        "wechat:wxid_mei8chan2k",
        "wallet",
        "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"
    ));
}

/// Newer WeChat versions spread the conversations over `DB/message_1.sqlite` …
/// `message_<n>.sqlite`: device a's chats moved there with the sqlite3 CLI (MM.sqlite renamed
/// message_1.sqlite, two Chat_ tables moved into message_2.sqlite) read as from MM.sqlite.
#[test]
fn ios_wechat_chats_spread_over_message_n_databases_read_as_from_mm_sqlite() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = wechat_tree(&tmp.path().join("a"), "a");
    let whole = triage(&tmp.path().join("a"), "Asia/Hong_Kong");
    let docs2 = wechat_tree(&tmp.path().join("split"), "a");
    let account = std::fs::read_dir(&docs2)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let db = account.join("DB");
    std::fs::rename(db.join("MM.sqlite"), db.join("message_1.sqlite")).unwrap();
    let tables = sqlite3_rows(
        &db.join("message_1.sqlite"),
        "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'Chat\\_%' ESCAPE '\\' ORDER BY name",
    );
    assert_eq!(tables.len(), 4);
    let mut moves = format!(
        "ATTACH '{}' AS two;\n",
        db.join("message_2.sqlite").display()
    );
    for t in &tables[..2] {
        let t = &t[0];
        moves.push_str(&format!(
            "CREATE TABLE two.{t} AS SELECT * FROM main.{t}; DROP TABLE main.{t};\n"
        ));
    }
    sqlite3_exec(&db.join("message_1.sqlite"), &moves);
    let split = triage(&tmp.path().join("split"), "Asia/Hong_Kong");
    assert_all_accepted(&split);
    assert!(split.unparsed.is_empty(), "{:#?}", split.unparsed);
    assert!(docs.exists());
    let titles = |o: &Outcome| {
        let mut t: Vec<String> = o
            .category("messages")
            .iter()
            .map(|p| p.title.clone())
            .collect();
        t.sort();
        t
    };
    assert_eq!(titles(&split).len(), 8);
    assert_eq!(titles(&split), titles(&whole));
    assert_eq!(split.identities(), whole.identities());
    // each message cites the database it is in
    let in_two = split
        .category("messages")
        .into_iter()
        .filter(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.ends_with("/DB/message_2.sqlite"))
        })
        .count();
    assert!(in_two >= 2, "{in_two}");
}

#[test]
fn ios_wechat_truncated_foreign_and_empty_copies_are_noted_and_the_rest_read() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("t");
    let docs = wechat_tree(&root, "a");
    let account = std::fs::read_dir(&docs)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    // a second account folder holding a truncated MM.sqlite
    let broken = docs.join("00000000000000000000000000000001/DB");
    std::fs::create_dir_all(&broken).unwrap();
    let bytes = std::fs::read(account.join("DB/MM.sqlite")).unwrap();
    std::fs::write(broken.join("MM.sqlite"), &bytes[..3000]).unwrap();
    // a third with a Chat_ table that lacks Des, and a fourth with no Chat_ table at all
    let foreign = docs.join("00000000000000000000000000000002/DB");
    std::fs::create_dir_all(&foreign).unwrap();
    sqlite3_exec(
        &foreign.join("MM.sqlite"),
        "CREATE TABLE Chat_0123456789abcdef0123456789abcdef(MesLocalID integer PRIMARY KEY, CreateTime integer, Message text)",
    );
    let empty = docs.join("00000000000000000000000000000003/DB");
    std::fs::create_dir_all(&empty).unwrap();
    sqlite3_exec(&empty.join("MM.sqlite"), "CREATE TABLE Hello(a)");
    let o = triage(&root, "Asia/Hong_Kong");
    assert_all_accepted(&o);
    o.assert_noted(
        "00000000000000000000000000000001/DB/MM.sqlite",
        "cannot be read",
    );
    o.assert_noted("00000000000000000000000000000002/DB/MM.sqlite", "lacks Des");
    o.assert_noted(
        "00000000000000000000000000000003/DB/MM.sqlite",
        "no Chat_<md5> table",
    );
    // the good account is still read
    assert_eq!(o.category("messages").len(), 8);
}

#[test]
fn ios_line_messages_users_and_claims_on_two_devices_and_a_foreign_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |dev: &str, src: &str| {
        let to = tmp
            .path()
            .join(dev)
            .join(GROUP)
            .join("Library/Application Support/PrivateStore/P_u3f0/Messages");
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(fixture(src), to.join("Line.sqlite")).unwrap();
        to.join("Line.sqlite")
    };
    let db = at("a", "line-ios-a/Line.sqlite");
    let o = triage(&tmp.path().join("a"), "Asia/Tokyo");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let messages = o.category("messages");
    let want = sqlite3_rows(
        &db,
        "SELECT Z_PK, ZTIMESTAMP, ifnull(ZID,''), ifnull(ZTEXT,'') FROM ZMESSAGE",
    );
    assert_eq!(messages.len(), want.len());
    let mut missing = Vec::new();
    for r in &want {
        let Some(p) = messages
            .iter()
            .find(|p| p.title.starts_with(&format!("LINE message {} ", r[0])))
        else {
            missing.push(r[0].clone());
            continue;
        };
        for v in r[1..].iter().filter(|v| !v.is_empty()) {
            if !has(p, v) {
                missing.push(format!("{}: {v}", r[0]));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    let users = o.category("contacts");
    assert_eq!(users.len(), 2);
    let mei = "line:u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e";
    assert!(holds(&o, mei, "account_id", mei), "{:#?}", o.identities());
    assert!(holds(&o, mei, "nickname", "mei (otc)"));
    assert!(holds(
        &o,
        "owner",
        "wallet",
        "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"
    ));
    assert!(holds(
        &o,
        mei,
        "wallet",
        "0x1850ce0e73407a9997c467babc60fe887c567625"
    ));

    // device b: an older ZUSER (no custom or address-book name); Mei writes the wallet
    at("b", "line-ios-b/Line.sqlite");
    let o = triage(&tmp.path().join("b"), "Asia/Tokyo");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    assert_eq!(o.category("messages").len(), 2);
    assert!(holds(
        &o,
        mei,
        "wallet",
        "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"
    ));

    // a copy whose ZMESSAGE lacks ZSENDER: noted with the missing column
    let c = at("c", "line-ios-b/Line.sqlite");
    sqlite3_exec(&c, "ALTER TABLE ZMESSAGE DROP COLUMN ZSENDER");
    let o = triage(&tmp.path().join("c"), "Asia/Tokyo");
    assert_all_accepted(&o);
    o.assert_noted("Line.sqlite", "lacks ZSENDER");
}

#[test]
fn ios_signal_encrypted_database_is_said_so_and_a_truncated_one_is_not_called_encrypted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("a").join(GROUP).join("grdb");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        fixture("signal-ios/grdb/signal.sqlite"),
        dir.join("signal.sqlite"),
    )
    .unwrap();
    let o = triage(&tmp.path().join("a"), "UTC");
    assert_all_accepted(&o);
    let reason = o.noted("grdb/signal.sqlite");
    assert!(reason.contains("encrypted (SQLCipher)"), "{reason}");
    assert!(!reason.contains("not a database"), "{reason}");
    assert_eq!(titled(&o, "Signal database (encrypted)").len(), 1);

    let dir = tmp.path().join("b").join(GROUP).join("grdb");
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = std::fs::read(fixture("signal-ios/grdb/signal.sqlite")).unwrap();
    std::fs::write(dir.join("signal.sqlite"), &bytes[..1000]).unwrap();
    let o = triage(&tmp.path().join("b"), "UTC");
    assert_all_accepted(&o);
    o.assert_noted("grdb/signal.sqlite", "not a SQLite database");
}

/// An Android tree (`data/user/0/…`) holding the LINE, WeChat and Signal fixtures of `dev`.
fn android_tree(root: &Path, dev: &str) {
    let user = root.join("data/user/0");
    let line = user.join("jp.naver.line.android/databases");
    std::fs::create_dir_all(&line).unwrap();
    std::fs::copy(
        fixture(&format!("line-android-{dev}/naver_line")),
        line.join("naver_line"),
    )
    .unwrap();
    copy_dir(
        &fixture(&format!("wechat-android-{dev}")),
        &user.join("com.tencent.mm"),
    );
    copy_dir(
        &fixture(&format!("signal-android-{dev}")),
        &user.join("org.thoughtcrime.securesms"),
    );
}

#[test]
fn android_line_wechat_and_signal_on_two_devices() {
    use crate::android_support::triage;
    let tmp = tempfile::tempdir().unwrap();
    android_tree(&tmp.path().join("a"), "a");
    android_tree(&tmp.path().join("b"), "b");
    let run = triage(&[
        ("src-a", &tmp.path().join("a"), "Asia/Hong_Kong", Some("HK")),
        ("src-b", &tmp.path().join("b"), "Asia/Shanghai", Some("CN")),
    ]);
    assert!(run.rejections().is_empty(), "{:#?}", run.rejections());
    assert_eq!(run.report("src-a").plugin.as_deref(), Some("android"));
    let db = fixture("line-android-a/naver_line");
    let phen = run.all_phenomena("src-a");
    let want = sqlite3_rows(
        &db,
        "SELECT id, created_time, ifnull(content,''), ifnull(from_mid,'') FROM chat_history",
    );
    assert_eq!(want.len(), 4);
    let mut missing = Vec::new();
    for r in &want {
        let Some(p) = phen
            .iter()
            .find(|p| p.title.starts_with(&format!("LINE message {} ", r[0])))
        else {
            missing.push(r[0].clone());
            continue;
        };
        for v in r[1..].iter().filter(|v| !v.is_empty()) {
            if !has(p, v) {
                missing.push(format!("{}: {v}", r[0]));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    let titles = run.phenomena("src-a");
    for t in [
        "contacts | LINE contact Mei (OTC)",
        "contacts | LINE contact Kenji",
        "accounts | WeChat account wxid_leungyl88",
        "messages | WeChat EnMicroMsg.db (encrypted)",
        "messages | Signal signal.db (encrypted)",
        "accounts | Signal account +85298765432",
    ] {
        assert!(titles.iter().any(|x| x == t), "{t}: {titles:#?}");
    }
    let ents = run.entities("src-a").join("\n");
    for s in [
        "line:u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e [Person]",
        "account_id=line:u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e",
        "wallet=0x1850ce0e73407a9997c467babc60fe887c567625",
        "wechat=wechat:wxid_leungyl88",
        "wechat=wechat:leung_yl",
        "phone=+85261234567",
        "phone=+85298765432",
        "wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
    ] {
        assert!(ents.contains(s), "{s}:\n{ents}");
    }
    let notes = run.unparsed("src-a");
    let note = |suffix: &str| {
        notes
            .iter()
            .find(|u| u.artefact.ends_with(suffix))
            .map(|u| u.reason.clone())
            .unwrap_or_else(|| panic!("{suffix}: {notes:#?}"))
    };
    let wechat = note("EnMicroMsg.db");
    assert!(
        wechat.contains("encrypted (SQLCipher), key derived from IMEI+uin"),
        "{wechat}"
    );
    assert!(
        wechat.contains("uin 1234567890, the account wxid_leungyl88"),
        "{wechat}"
    );
    assert!(note("signal.db").contains("encrypted (SQLCipher)"));
    assert_eq!(notes.len(), 2, "{notes:#?}");
    // the catalogue's detectors find the reads of the three apps
    use masf_agents::Plugin;
    let args: Vec<String> = run
        .outputs("src-a")
        .into_iter()
        .map(|(_, a, _)| a)
        .collect();
    for entry in ["LINE naver_line", "WeChat", "Signal"] {
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == entry)
            .unwrap_or_else(|| panic!("{entry} in the catalogue"));
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{entry}: {:?}",
            e.detector
        );
    }

    // device b: an older LINE layout (name only), WeChat's login is an e-mail, no Signal prefs
    let titles = run.phenomena("src-b");
    assert!(
        titles.iter().any(|x| x == "contacts | LINE contact 陳美"),
        "{titles:#?}"
    );
    assert_eq!(
        titles
            .iter()
            .filter(|x| x.starts_with("messages | LINE message"))
            .count(),
        2
    );
    let ents = run.entities("src-b").join("\n");
    for s in [
        "wechat=wechat:wxid_fungcc2019",
        "email=fung.cc@example.hk",
        "wallet=0x1850ce0e73407a9997c467babc60fe887c567625",
    ] {
        assert!(ents.contains(s), "{s}:\n{ents}");
    }
    assert!(
        run.unparsed("src-b")
            .iter()
            .any(|u| u.artefact.ends_with("EnMicroMsg.db") && u.reason.contains("uin -987654321")),
        "{:#?}",
        run.unparsed("src-b")
    );
}

#[test]
fn android_truncated_foreign_and_malformed_copies_are_noted_and_the_rest_read() {
    use crate::android_support::triage;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("t");
    android_tree(&root, "a");
    let user = root.join("data/user/0");
    // LINE: chat_history without from_mid
    sqlite3_exec(
        &user.join("jp.naver.line.android/databases/naver_line"),
        "ALTER TABLE chat_history DROP COLUMN from_mid",
    );
    // WeChat: a truncated EnMicroMsg.db (no whole pages), malformed preferences
    let mm = std::fs::read_dir(user.join("com.tencent.mm/MicroMsg"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let bytes = std::fs::read(mm.join("EnMicroMsg.db")).unwrap();
    std::fs::write(mm.join("EnMicroMsg.db"), &bytes[..1500]).unwrap();
    std::fs::write(
        user.join("com.tencent.mm/shared_prefs/auth_info_key_prefs.xml"),
        "<map><int name=\"_auth_uin\" value=\"1\"></mapp>",
    )
    .unwrap();
    let run = triage(&[("src-t", &root, "Asia/Hong_Kong", Some("HK"))]);
    assert!(run.rejections().is_empty(), "{:#?}", run.rejections());
    let notes = run.unparsed("src-t");
    let noted = |suffix: &str, word: &str| {
        assert!(
            notes
                .iter()
                .any(|u| u.artefact.ends_with(suffix) && u.reason.contains(word)),
            "{suffix} {word}: {notes:#?}"
        )
    };
    noted("naver_line", "chat_history lacks from_mid");
    noted("EnMicroMsg.db", "not a SQLite database");
    noted("auth_info_key_prefs.xml", "malformed");
    // the rest is still read
    let titles = run.phenomena("src-t");
    assert!(
        titles
            .iter()
            .any(|x| x == "accounts | WeChat account wxid_leungyl88"),
        "{titles:#?}"
    );
    assert!(
        titles
            .iter()
            .any(|x| x == "messages | Signal signal.db (encrypted)")
    );
}

/// A copy of EnMicroMsg.db decrypted with its key (here: built by the sqlite3 CLI from the same
/// SQL the encrypted fixture holds, with a received message and a group message added) is read.
#[test]
fn android_wechat_decrypted_enmicromsg_is_read() {
    use crate::android_support::triage;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("d");
    android_tree(&root, "a");
    let folder = std::fs::read_dir(root.join("data/user/0/com.tencent.mm/MicroMsg"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let db = folder.join("EnMicroMsg.db");
    std::fs::remove_file(&db).unwrap();
    let sql =
        std::fs::read_to_string(repo().join("tests/fixtures/asia/wechat-android-a.sql")).unwrap();
    sqlite3_exec(&db, &sql);
    sqlite3_exec(
        &db,
        "INSERT INTO rcontact(username, nickname, type) VALUES ('24187063512@chatroom', 'OTC 交易群', 2);
INSERT INTO message(msgId, msgSvrId, type, status, isSend, createTime, talker, content) VALUES
 (2, 6952210341789012346, 1, 4, 0, 1735712460000, 'wxid_mei8chan2k', 'ok, mine is 0x1850cE0E73407A9997C467BABc60fe887C567625'),
 (3, 7001000000000000010, 1, 4, 0, 1735900000000, '24187063512@chatroom', 'wxid_mei8chan2k:
pay to TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2 only');",
    );
    let run = triage(&[("src-d", &root, "Asia/Hong_Kong", Some("HK"))]);
    assert!(run.rejections().is_empty(), "{:#?}", run.rejections());
    let want = sqlite3_rows(
        &db,
        "SELECT msgId, createTime, msgSvrId, talker FROM message",
    );
    let phen = run.all_phenomena("src-d");
    let mut missing = Vec::new();
    for r in &want {
        let Some(p) = phen
            .iter()
            .find(|p| p.title.starts_with(&format!("WeChat message {} ", r[0])))
        else {
            missing.push(r[0].clone());
            continue;
        };
        for v in &r[1..] {
            if !has(p, v) {
                missing.push(format!("{}: {v}", r[0]));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    let titles = run.phenomena("src-d");
    assert!(
        titles.iter().any(
            |t| t == "messages | WeChat message 3 from wxid_mei8chan2k in 24187063512@chatroom"
        ),
        "{titles:#?}"
    );
    assert!(
        titles
            .iter()
            .any(|t| t == "contacts | WeChat contact wxid_mei8chan2k")
    );
    let ents = run.entities("src-d").join("\n");
    for s in [
        "wechat=wechat:meichan88",
        "nickname=mei usdt otc",
        "wallet=0x1850ce0e73407a9997c467babc60fe887c567625",
        "wechat=wechat:24187063512@chatroom",
    ] {
        assert!(ents.contains(s), "{s}:\n{ents}");
    }
    // Mei's wallet in the group is Mei's claim; the owner's own wallet is the owner's
    assert!(
        ents.lines()
            .any(|l| l.starts_with("wechat:wxid_mei8chan2k ")
                && l.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{ents}"
    );
    assert!(
        ents.lines()
            .any(|l| l.starts_with("owner ")
                && l.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{ents}"
    );
    assert!(
        !run.unparsed("src-d")
            .iter()
            .any(|u| u.artefact.ends_with("EnMicroMsg.db")),
        "{:#?}",
        run.unparsed("src-d")
    );
}

/// An EnMicroMsg.db encrypted with the key WeChat derives where Android lets it read no IMEI
/// (md5 of `1234567890ABCDEF` + uin, first 7 hex digits; SQLCipher 1 settings, written by the
/// sqlcipher CLI, its last message only in the `-wal`) is opened with that key by the tool and
/// read, two devices (uins 1234567890 and -987654321). The oracle is the CLI's own reading.
#[test]
fn android_wechat_encrypted_with_the_key_of_the_imei_wechat_read_or_the_default_is_read() {
    use crate::android_support::triage;
    let tmp = tempfile::tempdir().unwrap();
    let md5 = |s: &str| -> String {
        let out = std::process::Command::new("md5sum")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write as _;
                c.stdin.take().unwrap().write_all(s.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        String::from_utf8(out.stdout).unwrap()[..32].to_string()
    };
    let mut sources = Vec::new();
    // phone a: Android 10+, no IMEI for WeChat (its default); phone b: the IMEI WeChat read,
    // kept in its CompatibleInfo.cfg (a HashMap the JDK's ObjectOutputStream wrote:
    // tests/fixtures/java/)
    for (dev, uin, imei) in [
        ("a", "1234567890", "1234567890ABCDEF"),
        ("b", "-987654321", "352099001761481"),
    ] {
        let root = tmp.path().join(dev);
        android_tree(&root, dev);
        let mm = root.join("data/user/0/com.tencent.mm/MicroMsg");
        if dev == "b" {
            std::fs::copy(
                repo().join("tests/fixtures/java/compatible-info.cfg"),
                mm.join("CompatibleInfo.cfg"),
            )
            .unwrap();
        }
        let folder = mm.join(md5(&format!("mm{uin}")));
        let db = folder.join("EnMicroMsg.db");
        std::fs::remove_file(&db).unwrap();
        let key = &md5(&format!("{imei}{uin}"))[..7];
        let pragmas = format!(
            "PRAGMA key = '{key}';\nPRAGMA cipher_use_hmac = OFF;\nPRAGMA kdf_iter = 4000;\nPRAGMA cipher_page_size = 1024;\n"
        );
        let sql =
            std::fs::read_to_string(fixture(&format!("../wechat-android-{dev}.sql"))).unwrap();
        let script = format!(
            "{pragmas}PRAGMA journal_mode = WAL;\nPRAGMA wal_autocheckpoint = 0;\n{sql}\nPRAGMA wal_checkpoint(TRUNCATE);\n\
INSERT INTO message(msgId, msgSvrId, type, status, isSend, createTime, talker, content) VALUES (90, 6952210341789099999, 1, 4, 0, 1735999999000, 'wxid_mei8chan2k', 'only in the log');\n\
.shell cp work.db EnMicroMsg.db && cp work.db-wal EnMicroMsg.db-wal\n"
        );
        let mut child = std::process::Command::new("sqlcipher")
            .arg("work.db")
            .current_dir(&folder)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("sqlcipher (scripts/setup.sh installs it)");
        {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(script.as_bytes())
                .unwrap();
        }
        assert!(child.wait().unwrap().success());
        for f in ["work.db", "work.db-wal", "work.db-shm"] {
            let _ = std::fs::remove_file(folder.join(f));
        }
        sources.push((dev, root, db, pragmas));
    }
    let run = triage(
        &sources
            .iter()
            .map(|(dev, root, _, _)| (*dev, root.as_path(), "Asia/Hong_Kong", Some("HK")))
            .collect::<Vec<_>>(),
    );
    assert!(run.rejections().is_empty(), "{:#?}", run.rejections());
    for (dev, _, db, pragmas) in &sources {
        // the oracle: the sqlcipher CLI reading a copy of the file and its log with the key
        let copy = db.with_file_name("oracle.db");
        std::fs::copy(db, &copy).unwrap();
        std::fs::copy(
            format!("{}-wal", db.display()),
            format!("{}-wal", copy.display()),
        )
        .unwrap();
        let out = std::process::Command::new("sqlcipher")
            .args(["-separator", "\t"])
            .arg(&copy)
            .arg(format!(
                "{} SELECT msgId, createTime, msgSvrId, talker FROM message;",
                pragmas.replace('\n', " ")
            ))
            .output()
            .unwrap();
        let want: Vec<Vec<String>> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter(|l| l.contains('\t'))
            .map(|l| l.split('\t').map(str::to_string).collect())
            .collect();
        assert!(want.iter().any(|r| r[0] == "90"), "{want:#?}");
        let phen = run.all_phenomena(dev);
        for r in &want {
            let p = phen
                .iter()
                .find(|p| p.title.starts_with(&format!("WeChat message {} ", r[0])))
                .unwrap_or_else(|| panic!("{dev}: message {}: {:#?}", r[0], run.phenomena(dev)));
            for v in &r[1..] {
                assert!(has(p, v), "{dev}: {v} in {p:#?}");
            }
        }
        assert!(
            !run.unparsed(dev)
                .iter()
                .any(|u| u.artefact.ends_with("EnMicroMsg.db")),
            "{:#?}",
            run.unparsed(dev)
        );
        let key = pragmas.split('\'').nth(1).unwrap();
        let queries: Vec<_> = run
            .outputs(dev)
            .into_iter()
            .filter(|(tool, args, _)| tool == "sqlite_query" && args.contains("wechat_android"))
            .collect();
        assert!(!queries.is_empty());
        for (_, args, text) in queries {
            assert!(
                text.contains("# sqlcipher: decrypted with the key derived as WeChat derives it")
            );
            assert!(!text.contains(&format!("'{key}'")) && !args.contains(&format!("\"{key}\"")));
        }
    }
    // the IMEI WeChat read is the device's, and the one that opened phone b's database
    assert!(
        run.entities("b")
            .iter()
            .any(|e| e.starts_with("device [Device]") && e.contains("imei=352099001761481")),
        "{:#?}",
        run.entities("b")
    );
    assert!(
        run.all_phenomena("b")
            .iter()
            .any(|p| p.title == "WeChat device id 352099001761481"
                && p.interpretation.contains("at key 258"))
    );
    assert!(
        !run.identifiers("a").iter().any(|(t, _)| t == "imei"),
        "the default IMEI is no device's"
    );
}
