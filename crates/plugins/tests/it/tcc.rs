//! App permissions (`ios::tcc`): four iPhones' `TCC.db`, written by the sqlite3 CLI from
//! `tests/fixtures/tcc/tcc.py` (no public copy is in the corpus): the iOS 14 layout
//! (`auth_value`, `auth_reason`, indirect objects, `last_modified`, `last_reminded`), the
//! iOS 12/13 one (`allowed`, `prompt_count`, `last_modified`) and the older one without
//! `last_modified` (iLEAPP's module fails on it: it reads a fifth column of four; its rows on
//! the other two are ours). The generator's record is the oracle: every row is
//! found with its app, service, decision in iLEAPP's words (a value outside them said as stored),
//! reason and times; a foreign schema is noted naming the missing column and a truncated copy is
//! noted, while the rest of the source is read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn app_permissions_in_both_layouts_and_broken_copies() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/tcc/tcc.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c", "d"]
        .iter()
        .map(|s| tmp.path().join(s))
        .collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/Zurich", Some("CH")),
        ("b", &dirs[1], "Europe/Zurich", Some("CH")),
        ("c", &dirs[2], "Europe/Zurich", Some("CH")),
        ("d", &dirs[3], "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c", "d"] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Permission "))
            .collect();
        let rows = o[source].as_array().unwrap();
        assert_eq!(found.len(), rows.len(), "{source}: {found:#?}");
        for r in rows {
            let s = |k: &str| r[k].as_str().unwrap();
            let short = s("service").strip_prefix("kTCCService").unwrap();
            let title = format!("Permission {short} for {}: {}", s("client"), s("decision"));
            let p = found
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{source}: {title} in {found:#?}"));
            assert_eq!(p.category, "apps");
            for k in ["service", "client"] {
                assert!(has_fact(p, s(k)), "{k}: {p:#?}");
            }
            if let Some(m) = r.get("modified") {
                assert!(has_fact(p, &m.to_string()), "{p:#?}");
                let reminded = r["reminded"].as_i64().unwrap();
                assert_eq!(p.times.len(), if reminded > 0 { 2 } else { 1 }, "{p:#?}");
                assert!(
                    p.interpretation
                        .contains(&format!("reason {}", s("reason"))),
                    "{}",
                    p.interpretation
                );
            } else {
                assert!(
                    p.interpretation
                        .contains(&format!("asked {} time(s)", s("prompts"))),
                    "{}",
                    p.interpretation
                );
                let modified = r.get("modified_only").map(|m| m.to_string());
                assert_eq!(p.times.len(), usize::from(modified.is_some()), "{p:#?}");
                if let Some(m) = modified {
                    assert!(has_fact(p, &m), "{p:#?}");
                }
            }
            if let Some(i) = r.get("indirect").and_then(|v| v.as_str()) {
                assert!(has_fact(p, i), "{p:#?}");
            }
        }
    }
    let a = run.all_phenomena("a");
    let camera = a
        .iter()
        .find(|p| p.title.starts_with("Permission Camera"))
        .unwrap();
    assert!(
        camera.interpretation.contains("reason 3 (set by the user)"),
        "{}",
        camera.interpretation
    );
    run.assert_noted("c", &[("/Library/TCC/TCC.db", "lacks client")]);
    let notes = run.unparsed("c");
    assert!(
        notes
            .iter()
            .any(|u| u.artefact.ends_with("/Backup/TCC/TCC.db")),
        "{notes:#?}"
    );
}
