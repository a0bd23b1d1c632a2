//! DeepSeek on Android (`android::deepseek`): two phones, their stores written by Python's
//! `sqlite3` with the tables and columns ALEAPP's DeepSeek artefacts read (no public copy is in
//! the corpus), the second of an older layout (no mobile number, no token; messages without an
//! insertion time). Every row and field of ALEAPP's readings (its queries by the sqlite3 CLI, its
//! joining of the `REQUEST`/`RESPONSE` fragments by Python) is found; the login token is said,
//! never copied; the account's e-mail and number are the owner's and a prompt's wallet address
//! the user's claim. Beside them a truncated store (noted).

use crate::android_support::{check, triage};

/// argv[1]: the first phone's databases folder, argv[2]: the second's; prints
/// `<table>\t<inserted>\t<content>` for each message as ALEAPP reads it (its content's line breaks
/// as the tool's output escapes them).
const WRITE: &str = r#"
import json, os, sqlite3, sys
one, two = sys.argv[1], sys.argv[2]
for d in (one, two):
    os.makedirs(d, exist_ok=True)
db = sqlite3.connect(os.path.join(one, 'deepseek_chat.db'))
db.execute("CREATE TABLE app_user_info (id TEXT PRIMARY KEY, token TEXT, email TEXT, mobile_number TEXT)")
db.execute("INSERT INTO app_user_info VALUES ('u-8841', 'SECRET-TOKEN-abc', 'li.wei@example.cn', '+8613800138000')")
db.commit()
db = sqlite3.connect(os.path.join(one, 'deepseek_chat_u-8841.db'))
db.executescript("""
CREATE TABLE chat_session_list (id TEXT PRIMARY KEY, title TEXT, updated_at REAL);
CREATE TABLE chat_session_messages_s1 (id INTEGER PRIMARY KEY, role TEXT, inserted_at REAL, fragments TEXT);
CREATE TABLE chat_session_messages_s2 (id INTEGER PRIMARY KEY, role TEXT, inserted_at REAL, fragments TEXT);
""")
db.execute("INSERT INTO chat_session_list VALUES ('s1', 'Exchange rates', 1701340900.5)")
db.execute("INSERT INTO chat_session_list VALUES ('s2', 'Travel', 1701350000.0)")
rows = {
    'chat_session_messages_s1': [
        ('USER', 1701340800.25, [{'type': 'REQUEST', 'content': 'Send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 at what rate?'}]),
        ('ASSISTANT', 1701340805.5, [{'type': 'THINK', 'content': 'reasoning hidden'}, {'type': 'RESPONSE', 'content': 'About 1,850 USD per ETH.'}, {'type': 'RESPONSE', 'content': 'Rates move.'}]),
    ],
    'chat_session_messages_s2': [('USER', 1701350000.0, [{'type': 'REQUEST', 'content': 'Flights to Shenzhen'}])],
}
for table, msgs in rows.items():
    for role, at, frags in msgs:
        db.execute(f"INSERT INTO {table} (role, inserted_at, fragments) VALUES (?, ?, ?)", (role, at, json.dumps(frags)))
        content = "\n\n".join(f.get('content', '') for f in frags if f.get('type') in ('REQUEST', 'RESPONSE'))
        print(table + '\t' + repr(at) + '\t' + content.replace('\\', '\\\\').replace('\n', '\\n'))
db.commit()
db = sqlite3.connect(os.path.join(two, 'deepseek_chat.db'))
db.execute("CREATE TABLE app_user_info (id TEXT PRIMARY KEY, email TEXT)")
db.execute("INSERT INTO app_user_info VALUES ('u-77', 'old.user@example.org')")
db.commit()
db = sqlite3.connect(os.path.join(two, 'deepseek_chat_u-77.db'))
db.executescript("""
CREATE TABLE chat_session_list (id TEXT PRIMARY KEY, title TEXT);
CREATE TABLE chat_session_messages_x9 (id INTEGER PRIMARY KEY, role TEXT, fragments TEXT);
""")
db.execute("INSERT INTO chat_session_list VALUES ('x9', 'Recipes')")
db.execute("INSERT INTO chat_session_messages_x9 (role, fragments) VALUES ('USER', ?)", (json.dumps([{'type': 'REQUEST', 'content': 'Dumplings?'}]),))
db.commit()
"#;

#[test]
fn deepseek_accounts_chats_and_messages_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("li"), tmp.path().join("old"));
    let dbs = |root: &std::path::Path| root.join("data/data/com.deepseek.chat/databases");
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([dbs(&one).as_os_str(), dbs(&two).as_os_str()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let messages: Vec<Vec<String>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    assert_eq!(messages.len(), 3);
    for root in [&one, &two] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let chats = dbs(&one).join("deepseek_chat_u-8841.db");
    let bytes = std::fs::read(&chats).unwrap();
    let cut = two.join("data/user/10/com.deepseek.chat/databases");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(
        cut.join("deepseek_chat_u-8841.db"),
        &bytes[..bytes.len() / 3],
    )
    .unwrap();
    let run = triage(&[
        ("li", &one, "Asia/Shanghai", Some("CN")),
        ("old", &two, "Asia/Shanghai", Some("CN")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("li");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(
        check(
            &all,
            "DeepSeek account",
            &dbs(&one).join("deepseek_chat.db"),
            "SELECT id, email, mobile_number FROM app_user_info",
            0
        ),
        1
    );
    assert!(
        !all.iter().any(|p| p
            .verified_facts
            .iter()
            .any(|f| f.value.contains("SECRET-TOKEN"))),
        "the token was copied"
    );
    assert_eq!(
        check(
            &all,
            "DeepSeek chat",
            &chats,
            "SELECT id, title, updated_at FROM chat_session_list",
            0
        ),
        2
    );
    // ALEAPP's messages: each in its chat with its time and text
    let msgs: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.contains(" prompt in ") || p.title.contains(" message in "))
        .collect();
    assert_eq!(msgs.len(), 3);
    for m in &messages {
        let (table, at, content) = (&m[0], &m[1], &m[2]);
        let p = msgs
            .iter()
            .find(|p| {
                p.interpretation.starts_with(table.as_str())
                    && p.verified_facts.iter().any(|f| f.value == *at)
            })
            .unwrap_or_else(|| panic!("{table} {at}"));
        assert!(
            p.verified_facts.iter().any(|f| f.value == *content),
            "{content} in {p:#?}"
        );
    }
    assert!(
        msgs.iter()
            .any(|p| p.title == "DeepSeek prompt in Exchange rates")
    );
    assert!(
        msgs.iter()
            .any(|p| p.title == "DeepSeek ASSISTANT message in Exchange rates")
    );
    let owner = run.owner("li");
    assert!(owner.contains("email=li.wei@example.cn"), "{owner}");
    assert!(owner.contains("phone=+8613800138000"), "{owner}");
    assert!(
        owner.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{owner}"
    );
    // the older layout
    let oall = run.all_phenomena("old");
    assert!(oall.iter().any(|p| p.title == "DeepSeek prompt in Recipes"));
    assert!(run.owner("old").contains("email=old.user@example.org"));
    run.assert_noted(
        "old",
        &[(
            "user/10/com.deepseek.chat/databases/deepseek_chat_u-8841.db",
            "malformed",
        )],
    );
}
