//! Todoist's `database.db` (`android::todoist`) on two Android phones, written by
//! `tests/fixtures/todoist/todoist.py` (Python's sqlite3, the tables and columns ALEAPP's
//! Todoist reads, with the collaborators, the comments' task and poster). The generator's record
//! is the oracle: every project, task (text, description, project, labels, who added it and who
//! it is assigned to, due date, added in Unix ms) and comment (text, task, attachment, posted in
//! Unix ms); every collaborator a `todoist:<id>` person with their e-mail address and name.
//! Phone B: an older schema read; a truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn todoist_projects_tasks_comments_and_collaborators_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/todoist/todoist.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Warsaw", Some("PL")),
        ("b", &b, "America/Los_Angeles", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let times = |p: &masf_graph::Phenomenon| -> Vec<(String, String)> {
        p.times
            .iter()
            .map(|m| {
                (
                    m.description.clone(),
                    p.verified_facts[m.fact].value.clone(),
                )
            })
            .collect()
    };
    let s = |v: &serde_json::Value| v.as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        for pr in o["projects"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Todoist project {}", pr["name"].as_str().unwrap()),
            );
            assert_eq!(p.category, "notes");
            assert!(has_fact(p, pr["_id"].as_str().unwrap()), "{p:#?}");
        }
        let projects = o["projects"].as_array().unwrap();
        for it in o["items"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Todoist task: {}", it["content"].as_str().unwrap()),
            );
            for k in [
                "_id",
                "description",
                "added_by_uid",
                "due_string",
                "priority",
            ] {
                if let Some(v) = s(&it[k]).filter(|v| !v.is_empty()) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let project = projects
                .iter()
                .find(|pr| pr["_id"] == it["project_id"])
                .unwrap();
            assert!(has_fact(p, project["name"].as_str().unwrap()), "{p:#?}");
            let t = times(p);
            assert!(
                t.contains(&(
                    "Todoist task added".into(),
                    it["date_added"].as_str().unwrap().into()
                )),
                "{t:?}"
            );
            let due = it["due_date"].as_str().unwrap();
            if due.len() > 10 {
                assert!(
                    t.contains(&("Todoist task due".into(), due.into())),
                    "{t:?}"
                );
            } else {
                // a date without a time of day is a fact, not a time
                assert!(has_fact(p, due), "{p:#?}");
                assert!(!t.iter().any(|(d, _)| d == "Todoist task due"), "{t:?}");
            }
            for l in o["labels"].as_array().unwrap() {
                if l["item_id"] == it["_id"] {
                    let label = l["label_name"].as_str().unwrap();
                    assert!(
                        p.verified_facts
                            .iter()
                            .any(|f| f.value.split(", ").any(|x| x == label)),
                        "{label}: {p:#?}"
                    );
                }
            }
        }
        for n in o["notes"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Todoist comment: {}", n["content"].as_str().unwrap()),
            );
            assert!(
                times(p).contains(&(
                    "Todoist comment posted".into(),
                    n["posted"].as_str().unwrap().into()
                )),
                "{p:#?}"
            );
            for f in o["files"].as_array().unwrap() {
                if f["note_id"] == n["_id"] {
                    for k in ["file_name", "file_url", "file_type", "file_size"] {
                        assert!(has_fact(p, f[k].as_str().unwrap()), "{k}: {p:#?}");
                    }
                }
            }
        }
        let entities = run.entities(source);
        for c in o["collaborators"].as_array().unwrap() {
            let name = c["full_name"].as_str().unwrap();
            let p = titled(&all, &format!("Todoist collaborator {name}"));
            assert_eq!(p.category, "contacts");
            let id = c["_id"].as_str().unwrap();
            let email = c["email"].as_str().unwrap();
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("todoist:{id} "))
                        && e.contains(&format!("email={email}"))
                        && e.contains(&format!("account_id=todoist:{id}"))),
                "{entities:#?}"
            );
        }
    }
    // names of the collaborators on the tasks and comments of phone A
    let all = run.all_phenomena("a");
    let van = titled(&all, "Todoist task: Book the van for Saturday");
    assert!(
        has_fact(van, "Piotr Wisniewski") && has_fact(van, "Marta Zielinska"),
        "{van:#?}"
    );
    let scan = titled(&all, "Todoist comment: Scan attached");
    assert!(
        has_fact(scan, "Send the inventory list to Marta"),
        "{scan:#?}"
    );
    // no owner: the store does not say who is signed in
    assert!(!run.owner("a").contains("email="), "{}", run.owner("a"));
    run.assert_noted(
        "b",
        &[
            ("user/10/com.todoist/databases/database.db", "malformed"),
            (
                "user/11/com.todoist/databases/database.db",
                "none of projects",
            ),
        ],
    );
}
