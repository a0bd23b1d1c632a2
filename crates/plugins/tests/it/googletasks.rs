//! Google Tasks (`android::googletasks`) on two Android phones, written by
//! `tests/fixtures/googletasks/googletasks.py` (Python's sqlite3 and Google's protobuf runtime,
//! the table, columns and message fields ALEAPP's googleTasks reads). The generator's record is
//! the oracle: every task with its title, details, time zone, due date as stored and its
//! created, modified and completed times (Unix seconds, from the decoded message); every list
//! with its name and how many tasks it holds; the folder's e-mail address observed as the
//! owner's Google account. Phone B: an older `Tasks` without `TaskLists` (lists counted from the
//! tasks), a folder named by a number (a fact, no identity), a task whose message does not
//! decode (its ids kept), a truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn google_tasks_lists_and_tasks_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/googletasks/googletasks.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let account = o["account"].as_str().unwrap();
        for t in o["tasks"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Google Tasks task: {}", t["title"].as_str().unwrap()),
            );
            assert_eq!(p.category, "notes");
            assert!(has_fact(p, account), "{p:#?}");
            for k in [
                "TaskId",
                "TaskListId",
                "TaskRecurrenceId",
                "details",
                "zone",
                "DueDate",
            ] {
                if let Some(v) = t[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            let times: Vec<(&str, &str)> = p
                .times
                .iter()
                .map(|m| {
                    (
                        m.description.as_str(),
                        p.verified_facts[m.fact].value.as_str(),
                    )
                })
                .collect();
            for (k, what) in [
                ("created", "Google Tasks task created"),
                ("modified", "Google Tasks task last modified"),
                ("completed", "Google Tasks task completed"),
            ] {
                match t[k].as_str() {
                    Some(v) => assert!(times.contains(&(what, v)), "{k}: {times:?}"),
                    None => assert!(!times.iter().any(|(d, _)| *d == what), "{k}: {times:?}"),
                }
            }
        }
        for (id, n) in o["counts"].as_object().unwrap() {
            let p = titled(&all, &format!("Google Tasks list {id}"));
            assert!(has_fact(p, &n.to_string()), "{p:#?}");
        }
        for l in o["lists"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Google Tasks list {}", l["TaskListId"].as_str().unwrap()),
            );
            assert!(has_fact(p, l["name"].as_str().unwrap()), "{p:#?}");
        }
    }
    // the folder's e-mail address is the owner's Google account; a number is no identity
    let owner = run.owner("a");
    assert!(
        owner.contains("google_account=tomas.kral.tasks@gmail.com"),
        "{owner}"
    );
    assert!(!run.owner("b").contains("104729573310"));
    // the task whose message does not decode keeps its ids, and no time
    let all = run.all_phenomena("b");
    let raw = titled(&all, "Google Tasks task YjAz");
    assert!(has_fact(raw, "bGlzdEI"), "{raw:#?}");
    assert!(time_values(raw).is_empty(), "{raw:#?}");
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.google.android.apps.tasks/files/tasks-104729573310/data.db",
                "malformed",
            ),
            (
                "user/11/com.google.android.apps.tasks/files/tasks-104729573310/data.db",
                "Tasks",
            ),
        ],
    );
}
