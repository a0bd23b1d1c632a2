//! Claude on iOS (`ios::claude`) and Android (`android::claude`): Mia's iPhone and her Android
//! phone, signed in to one Claude account, their caches written by Python (`sqlite3`, `json`)
//! with the tables, columns and JSON iLEAPP's `iOSclaude` and ALEAPP's `claude` artefacts read (no
//! public copy is in the corpus). Every row and field of their queries (run by the sqlite3 CLI,
//! times and flags as stored) and of their account readings (Python) is found; the two phones
//! are one person by the account's e-mail. Beside them a start-up cache without an account
//! (passed over) and a truncated store (noted).

use crate::android_support::triage;

/// argv[1]: the iPhone's container, argv[2]: the Android app folder; prints `acct\t<value>` for
/// each account value the modules show.
const WRITE: &str = r#"
import json, os, sqlite3, sys
ios, droid = sys.argv[1], sys.argv[2]
def mk(p):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p
acct = {'full_name': 'Mia Keller', 'display_name': 'Mia', 'email_address': 'mia.keller@example.com', 'tagged_id': 'user_01HX7', 'created_at': '2024-05-01T08:00:00.000000Z', 'updated_at': '2024-06-01T09:30:00.000000Z'}
with open(mk(os.path.join(ios, 'Library/Caches/bootstrap/bootstrap.json')), 'w') as f:
    json.dump({'account': acct, 'statsig': {'x': 1}}, f)
with open(mk(os.path.join(ios, 'Library/Caches/bootstrap/flags.json')), 'w') as f:
    json.dump({'flags': ['a']}, f)
for k in ('full_name', 'display_name', 'email_address', 'tagged_id', 'created_at', 'updated_at'):
    print('acct\t' + acct[k])
db = sqlite3.connect(mk(os.path.join(ios, 'Library/Application Support/ClaudeCache/cache_user_01HX7.sqlite')))
db.executescript("""
CREATE TABLE conversations (id TEXT PRIMARY KEY, name TEXT, model TEXT, isTemporary INTEGER, isStarred INTEGER, createdAT TEXT, updatedAT TEXT);
CREATE TABLE messages (id TEXT PRIMARY KEY, conversationId TEXT, sender TEXT, content TEXT, files TEXT, createdAT TEXT);
CREATE TABLE projects (id TEXT PRIMARY KEY, name TEXT, description TEXT, creatorFullName TEXT, isStarred INTEGER, docsCount INTEGER, createdAt TEXT, updatedAt TEXT);
CREATE TABLE projectDocuments (id TEXT PRIMARY KEY, projectID TEXT, fileName TEXT);
""")
db.execute("INSERT INTO conversations VALUES ('cv-1', 'Wallet questions', 'claude-sonnet-4', 0, 1, '2024-06-02T10:00:00Z', '2024-06-02T10:05:00Z')")
db.execute("INSERT INTO conversations VALUES ('cv-2', NULL, 'claude-sonnet-4', 1, 0, '2024-06-03T11:00:00Z', '2024-06-03T11:00:30Z')")
db.execute("INSERT INTO messages VALUES ('ms-1', 'cv-1', 'human', ?, ?, '2024-06-02T10:00:01Z')", (json.dumps([{'type': 'text', 'text': 'Is 0x52908400098527886E0F7030069857D2E4169EE7 a valid address?'}]), json.dumps([{'fileName': 'screenshot.png'}])))
db.execute("INSERT INTO messages VALUES ('ms-2', 'cv-1', 'assistant', ?, '[]', '2024-06-02T10:00:05Z')", (json.dumps([{'type': 'text', 'text': 'It has the form of an Ethereum address.'}, {'type': 'tool_use', 'name': 'search'}, {'type': 'text', 'text': 'Check its checksum.'}]),))
db.execute("INSERT INTO projects VALUES ('pj-1', 'Taxes', 'Receipts for 2024', 'Mia Keller', 0, 2, '2024-05-10T08:00:00Z', '2024-05-11T08:00:00Z')")
db.execute("INSERT INTO projectDocuments VALUES ('d1', 'pj-1', 'receipts.pdf')")
db.execute("INSERT INTO projectDocuments VALUES ('d2', 'pj-1', 'bank.csv')")
db.commit()
with open(mk(os.path.join(droid, 'cache/app_start/acc_user_01HX7/org_9/cache.json')), 'w') as f:
    json.dump({'response': {'account': acct}}, f)
db = sqlite3.connect(mk(os.path.join(droid, 'databases/acc_user_01HX7_claude_cache.db')))
db.executescript("""
CREATE TABLE cachedConversations (uuid TEXT PRIMARY KEY, conversation_json TEXT);
CREATE TABLE cachedMessages (uuid TEXT PRIMARY KEY, conversation_uuid TEXT, message_json TEXT);
CREATE TABLE cachedProjects (uuid TEXT PRIMARY KEY, project_json TEXT);
""")
db.execute("INSERT INTO cachedConversations VALUES ('cv-9', ?)", (json.dumps({'created_at': '2024-06-04T07:00:00Z', 'updated_at': '2024-06-04T07:01:00Z', 'name': 'Trip', 'model': 'claude-haiku', 'is_temporary': False, 'is_starred': True}),))
db.execute("INSERT INTO cachedMessages VALUES ('mx-1', 'cv-9', ?)", (json.dumps({'uuid': 'mx-1', 'created_at': '2024-06-04T07:00:01Z', 'sender': 'human', 'content': [{'type': 'text', 'text': 'Trains to Bern?'}], 'files': [{'file_name': 'ticket.jpg'}]}),))
db.execute("INSERT INTO cachedMessages VALUES ('mx-2', 'cv-9', ?)", (json.dumps({'uuid': 'mx-2', 'created_at': '2024-06-04T07:00:04Z', 'sender': 'assistant', 'content': [{'type': 'text', 'text': 'Every half hour.'}]}),))
db.execute("INSERT INTO cachedProjects VALUES ('pj-9', ?)", (json.dumps({'created_at': '2024-05-20T08:00:00Z', 'updated_at': '2024-05-21T08:00:00Z', 'name': 'Move', 'description': 'Flat hunting', 'creator': {'full_name': 'Mia Keller'}, 'is_starred': False, 'docs_count': 1, 'files_count': 3}),))
db.commit()
"#;

#[test]
fn claude_on_an_iphone_and_an_android_phone_of_one_account() {
    let tmp = tempfile::tempdir().unwrap();
    let (mia, droid) = (
        tmp.path().join("mia-iphone"),
        tmp.path().join("mia-android"),
    );
    let container = mia.join(
        "private/var/mobile/Containers/Data/Application/4D5E6F70-8192-4A3B-8C4D-5E6F70819203",
    );
    let app = droid.join("data/data/com.anthropic.claude");
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([container.as_os_str(), app.as_os_str()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let account: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("acct\t").map(str::to_string))
        .collect();
    assert_eq!(account.len(), 6);
    std::fs::create_dir_all(mia.join("private/var/mobile/Library")).unwrap();
    std::fs::create_dir_all(droid.join("data/system/users/0")).unwrap();
    let idb = container.join("Library/Application Support/ClaudeCache/cache_user_01HX7.sqlite");
    let adb = app.join("databases/acc_user_01HX7_claude_cache.db");
    let bytes = std::fs::read(&adb).unwrap();
    let cut = droid.join("data/user/10/com.anthropic.claude/databases");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(
        cut.join("acc_user_01HX7_claude_cache.db"),
        &bytes[..bytes.len() / 3],
    )
    .unwrap();
    let run = triage(&[
        ("mia-iphone", &mia, "Europe/Zurich", Some("CH")),
        ("mia-android", &droid, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let iall = run.all_phenomena("mia-iphone");

    let aall = run.all_phenomena("mia-android");
    for p in iall.iter().chain(aall.iter()) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    for (all, prefix, db, sql, key, rows) in [
        (
            &iall,
            "Claude conversation",
            &idb,
            "SELECT createdAT, updatedAT, id, name, model, isTemporary, isStarred FROM conversations",
            2,
            2,
        ),
        (
            &iall,
            "Claude",
            &idb,
            "SELECT messages.createdAT, (SELECT group_concat(json_extract(je.value, '$.text'), ' ') FROM json_each(messages.content) je WHERE json_extract(je.value, '$.type') = 'text'), json_extract(messages.files, '$[0].fileName'), sender, conversations.name, conversations.id FROM messages LEFT JOIN conversations ON conversations.id = messages.conversationId",
            0,
            2,
        ),
        (
            &iall,
            "Claude project",
            &idb,
            "SELECT projects.createdAt, projects.updatedAt, projects.name, projects.description, projects.creatorFullName, projects.isStarred, projects.docsCount FROM projects",
            2,
            1,
        ),
        (
            &aall,
            "Claude conversation",
            &adb,
            "SELECT json_extract(conversation_json, '$.created_at'), json_extract(conversation_json, '$.updated_at'), uuid, json_extract(conversation_json, '$.name'), json_extract(conversation_json, '$.model'), json_extract(conversation_json, '$.is_temporary'), json_extract(conversation_json, '$.is_starred') FROM cachedConversations",
            2,
            1,
        ),
        (
            &aall,
            "Claude",
            &adb,
            "SELECT json_extract(cachedMessages.message_json, '$.created_at'), (SELECT group_concat(json_extract(je.value, '$.text'), ' ') FROM json_each(cachedMessages.message_json, '$.content') je WHERE json_extract(je.value, '$.type') = 'text'), json_extract(cachedMessages.message_json, '$.files[0].file_name'), json_extract(cachedMessages.message_json, '$.sender'), json_extract(cachedConversations.conversation_json, '$.name'), cachedConversations.uuid FROM cachedMessages LEFT JOIN cachedConversations ON cachedConversations.uuid = cachedMessages.conversation_uuid",
            0,
            2,
        ),
        (
            &aall,
            "Claude project",
            &adb,
            "SELECT json_extract(project_json, '$.created_at'), json_extract(project_json, '$.updated_at'), json_extract(project_json, '$.name'), json_extract(project_json, '$.description'), json_extract(project_json, '$.creator.full_name'), json_extract(project_json, '$.is_starred'), json_extract(project_json, '$.docs_count'), json_extract(project_json, '$.files_count') FROM cachedProjects",
            2,
            1,
        ),
    ] {
        // the messages oracle: the prompts and answers only
        let found: Vec<&masf_graph::Phenomenon> = all
            .iter()
            .filter(|p| {
                let message = p.title.contains(" prompt in ") || p.title.contains(" message in ");
                p.title.starts_with(prefix) && (prefix != "Claude" || message)
            })
            .collect();
        assert_eq!(
            crate::android_support::rows_in(&found, db, sql, key, ""),
            rows,
            "{prefix}"
        );
        assert_eq!(found.len(), rows, "{prefix}");
    }
    // iLEAPP's project documents
    assert!(iall.iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value == "receipts.pdf, bank.csv")
    }));
    // the account on both phones, every value of the modules' readings
    for all in [&iall, &aall] {
        let acct = all
            .iter()
            .find(|p| p.title == "Claude account mia.keller@example.com")
            .expect("account");
        for v in &account {
            assert!(acct.verified_facts.iter().any(|f| f.value == *v), "{v}");
        }
    }
    assert!(
        run.owner("mia-iphone")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    run.assert_noted(
        "mia-android",
        &[(
            "user/10/com.anthropic.claude/databases/acc_user_01HX7_claude_cache.db",
            "malformed",
        )],
    );
    // one person on both phones, by the account's e-mail
    let with = crate::who::resolved(&run);
    assert!(
        with("mia-iphone/owner").contains(&"mia-android/owner".to_string()),
        "{:#?}",
        with("mia-iphone/owner")
    );
}
