//! Slack on Android (`android::slack`): Alice's `account_manager` and workspace store
//! (`tests/fixtures/slack/`, built by the sqlite3 CLI with the columns and JSON members ALEAPP's
//! slack module reads) and Bo's of an older layout (fewer user columns, no threads, no files).
//! Every row and field of ALEAPP's queries (run here by the CLI, their JSON cells read as
//! ALEAPP reads them) is found; the session tokens are nowhere; each phone's owner is the other's
//! cached member by user id and e-mail. Beside them a truncated copy and a store of another
//! layout (noted) and another app's `account_manager` (passed over).

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::android_support::{sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn of<'a>(all: &'a [Phenomenon], prefix: &str) -> Vec<&'a Phenomenon> {
    all.iter().filter(|p| p.title.starts_with(prefix)).collect()
}

/// Every row of `sql` on `db` is one of `found`, holding each value.
fn every_field(db: &std::path::Path, sql: &str, found: &[&Phenomenon], key: usize, what: &str) {
    assert_eq!(
        crate::android_support::rows_in(found, db, sql, key, ""),
        found.len(),
        "{what}"
    );
}

/// ALEAPP's reading of a message's JSON: text, file names, reaction count, edited.
fn read_json(cell: &str) -> Vec<String> {
    let Ok(Value::Object(m)) = serde_json::from_str::<Value>(cell) else {
        return vec![];
    };
    let mut out = Vec::new();
    if let Some(Value::String(t)) = m.get("text") {
        out.push(t.clone());
    }
    let names: Vec<&str> = m
        .get("files")
        .and_then(Value::as_array)
        .map(|fs| fs.iter().filter_map(|f| f["name"].as_str()).collect())
        .unwrap_or_default();
    if !names.is_empty() {
        out.push(names.join(", "));
    }
    out.push(
        m.get("reactions")
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
            .to_string(),
    );
    out.push(if m.contains_key("edited") { "1" } else { "0" }.to_string());
    out
}

#[test]
fn slack_account_members_conversations_messages_and_files() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let dir = a.join("data/data/com.Slack/databases");
    let org = dir.join("org_T0BRAVO");
    sqlite_fixture(&org, "slack/org.sql", "SELECT 1;");
    sqlite_fixture(
        &dir.join("account_manager"),
        "slack/account_manager.sql",
        "SELECT 1;",
    );
    crate::android_support::damaged_copies(
        &a,
        "com.Slack/databases/org_T0BRAVO",
        "CREATE TABLE messages (ts TEXT); CREATE TABLE conversation (x TEXT); CREATE TABLE users (x TEXT);",
    );
    let other = a.join("data/data/com.example.chat/databases/account_manager");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(dir.join("account_manager"), &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();

    let b = tmp.path().join("b");
    let bdir = b.join("data/data/com.Slack/databases");
    crate::ios_nearby::sqlite3(
        &bdir.join("org_T0BRAVO"),
        "CREATE TABLE users (id TEXT, name TEXT, profile_real_name TEXT, profile_email TEXT); \
         CREATE TABLE conversation (conversation_id TEXT, name_or_user TEXT, type TEXT); \
         CREATE TABLE messages (ts TEXT, channel_id TEXT, user_id TEXT, message_json TEXT); \
         INSERT INTO users VALUES ('U01ALPHA', 'alice.ng', 'Alice Ng', 'alice@example.com'); \
         INSERT INTO conversation VALUES ('D200', 'U01ALPHA', 'DM'); \
         INSERT INTO messages VALUES ('1700003000.000100', 'D200', 'U01ALPHA', '{\"text\":\"call me\"}');",
    );
    crate::ios_nearby::sqlite3(
        &bdir.join("account_manager"),
        "CREATE TABLE accounts (user_id TEXT, email TEXT, team_id TEXT, token_encrypted TEXT); \
         INSERT INTO accounts VALUES ('U02BETA', 'bo@example.com', 'T0BRAVO', 'SECRET-TOKEN3-DO-NOT-PRINT');",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }

    // ALEAPP's slack_users, slack_conversations and slack_account (team_json's name apart)
    every_field(
        &org,
        "SELECT name, profile_real_name, profile_email, profile_phone, profile_title, tz, tz_label, is_admin, is_owner, is_primary_owner, is_bot, is_restricted, deleted, is_suspended, id, team_id, updated FROM users",
        &of(&all, "Slack user "),
        14,
        "users",
    );
    every_field(
        &org,
        "SELECT lastRead, name_or_user, type, is_member, is_open, is_starred, latest, name_normalized_no_delimiter, conversation_id, updated FROM conversation",
        &of(&all, "Slack conversation "),
        8,
        "conversations",
    );
    every_field(
        &dir.join("account_manager"),
        "SELECT last_accessed, email, user_id, team_id, team_domain, enterprise_id, environment_variant, secondary_auth_enabled, is_logged_out, created_ts, json_extract(team_json, '$.name') FROM accounts",
        &of(&all, "Slack account "),
        2,
        "account",
    );
    // the DM is named by its other user
    assert!(of(&all, "Slack conversation Bo Li").len() == 1);

    // ALEAPP's slack_messages: the columns as stored, the JSON as it reads it
    let messages = of(&all, "Slack message ");
    let rows = sqlite3(
        &org,
        "SELECT ts, channel_id, user_id, subtype, thread_ts, message_json FROM messages",
    );
    assert_eq!(messages.len(), rows.len());
    for row in &rows {
        let p = messages
            .iter()
            .find(|p| has(p, &row[0]))
            .unwrap_or_else(|| panic!("{row:?}"));
        let mut want: Vec<String> = row[..5].to_vec();
        want.extend(read_json(&row[5]));
        for v in want.iter().filter(|v| !v.is_empty()) {
            assert!(has(p, v), "{v} in {p:#?}");
        }
    }
    let replies = of(&all, "Slack thread reply ");
    let rows = sqlite3(
        &org,
        "SELECT ts, channel_id, event_sub_type, thread_ts, json_extract(message_blob, '$.user'), message_blob FROM message_threads",
    );
    assert_eq!(replies.len(), rows.len());
    for row in &rows {
        let p = replies.iter().find(|p| has(p, &row[0])).expect("reply");
        let mut want: Vec<String> = row[..5].to_vec();
        want.extend(read_json(&row[5]));
        for v in want.iter().filter(|v| !v.is_empty()) {
            assert!(has(p, v), "{v} in {p:#?}");
        }
        assert_eq!(p.title, "Slack thread reply from Bo Li in finance-ops");
    }
    let file = of(&all, "Slack file ");
    assert_eq!(file.len(), 1);
    for v in [
        "transfer.pdf",
        "Transfer confirmation",
        "application/pdf",
        "pdf",
        "48213",
        "1700002000",
        "U02BETA",
        "Bo Li",
        "https://files.slack.example/F9/transfer.pdf",
    ] {
        assert!(has(file[0], v), "{v}: {:#?}", file[0]);
    }
    // the message that is no JSON keeps its columns
    let broken = messages
        .iter()
        .find(|p| has(p, "1700003000.000100"))
        .expect("the message whose JSON does not parse");
    assert_eq!(broken.title, "Slack message from Alice Ng in Bo Li");
    // times: last_accessed in milliseconds, created_ts in seconds (by their size)
    let account = of(&all, "Slack account ")[0];
    let enc: Vec<&str> = account.times.iter().map(|m| m.encoding.as_str()).collect();
    assert_eq!(enc, ["unix_millis", "unix_seconds"]);

    // no session token is in anything recorded
    for source in ["a", "b"] {
        for p in run.all_phenomena(source) {
            let text = format!("{p:?}");
            assert!(!text.contains("SECRET-TOKEN"), "{}", p.title);
        }
    }
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("a/owner", "b/slack:U01ALPHA"),
        ("b/owner", "a/slack:U02BETA"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    assert!(
        !all.iter().any(|p| p.title.starts_with("Slack ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.chat"))),
        "another app's account_manager was read"
    );
    run.assert_noted(
        "a",
        &[
            ("user/10/com.Slack/databases/org_T0BRAVO", "malformed"),
            (
                "user/11/com.Slack/databases/org_T0BRAVO",
                "table users lacks id",
            ),
        ],
    );
}
