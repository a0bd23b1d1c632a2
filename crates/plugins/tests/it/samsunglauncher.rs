//! One UI Home's stores (`android::samsunglauncher`) on two Android phones and a third tree,
//! written by `tests/fixtures/samsunglauncher/samsunglauncher.py` (Python's sqlite3, the tables
//! ALEAPP's samsungLauncher reads with the columns of the launcher's own schema). The generator's
//! record is the oracle: every layout item with its type, title, component and package computed
//! in the query, hidden flag, container, folder title or item group (type, rank, parent type) and
//! a folder's item count; every cached icon with its label, component, package and time; phone
//! B's older `item` without `item_group` read; a truncated `OneUI.db` and an `Icon.db` of another
//! layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// A JSON value as the query prints it (`None` for null).
fn text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[test]
fn samsunglauncher_layout_and_icon_cache_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/samsunglauncher/samsunglauncher.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let items = o[source]["items"].as_array().unwrap();
        for it in items {
            let shown = text(&it["title"])
                .or_else(|| text(&it["component"]))
                .unwrap();
            let hidden = if it["hidden"].as_i64().unwrap() != 0 {
                ", hidden"
            } else {
                ""
            };
            let title = format!(
                "One UI Home {} {shown} (item {}{hidden})",
                it["type"].as_str().unwrap(),
                it["id"]
            );
            let p = titled(&all, &title);
            assert_eq!(p.category, "apps");
            for k in [
                "id",
                "type",
                "title",
                "component",
                "package",
                "reference_package_name",
                "hidden",
                "container",
                "folder_title",
                "group_type",
                "group_rank",
                "parent_group_type",
                "folder_items",
                "profile_id",
                "position_x",
                "position_y",
            ] {
                if let Some(v) = text(&it[k]) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            let state = if hidden.is_empty() { "shown" } else { "hidden" };
            assert!(has_fact(p, state), "{p:#?}");
            assert!(time_values(p).is_empty(), "{p:#?}");
        }
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("One UI Home ") && p.title.contains(" (item "))
            .count();
        assert_eq!(found, items.len(), "one phenomenon per item");
        for ic in o[source]["icons"].as_array().unwrap() {
            let component = ic["component_name"].as_str().unwrap();
            let p = titled(
                &all,
                &format!(
                    "One UI Home icon cache {} ({component})",
                    ic["label"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "apps");
            let package = component.split('/').next().unwrap();
            assert!(has_fact(p, package), "{p:#?}");
            if let Some(v) = text(&ic["version"]) {
                assert!(has_fact(p, &v), "{p:#?}");
            }
            assert_eq!(time_values(p), vec![ic["last_updated"].to_string()]);
        }
    }
    // phone A: the folder's apps and the hidden app; the group pages
    let all = run.all_phenomena("a");
    let wallet = titled(&all, "One UI Home app Trust Wallet (item 21)");
    assert!(has_fact(wallet, "Finance") && has_fact(wallet, "folder"));
    let folder = titled(&all, "One UI Home folder Finance (item 20)");
    assert!(has_fact(folder, "2"), "{folder:#?}");
    let hidden = titled(&all, "One UI Home app Calculator+ (item 30, hidden)");
    assert!(has_fact(hidden, "applist") && has_fact(hidden, "hidden"));
    let work = titled(&all, "One UI Home app Signal (item 50)");
    assert!(has_fact(work, "150") && has_fact(work, "org.thoughtcrime.securesms"));
    // phone B: the older layout, no item groups
    let all_b = run.all_phenomena("b");
    let tor = titled(&all_b, "One UI Home app Tor Browser (item 3, hidden)");
    assert!(has_fact(tor, "Tools") && has_fact(tor, "org.torproject.torbrowser"));
    assert!(
        !all_b
            .iter()
            .any(|p| has_fact(p, "item group") && has_fact(p, "page"))
    );
    // phone C: nothing read, both stores noted
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("One UI Home"))
    );
    run.assert_noted(
        "c",
        &[
            (
                "com.sec.android.app.launcher/databases/OneUI.db",
                "malformed",
            ),
            ("com.sec.android.app.launcher/databases/Icon.db", "icon"),
        ],
    );
}
