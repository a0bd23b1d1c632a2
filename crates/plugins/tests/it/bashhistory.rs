//! Bash history files (`android::bashhistory`) of two Android phones and a third tree, written
//! by `tests/fixtures/bashhistory/bashhistory.py` (as bash writes them, the files ALEAPP's
//! `BashHistory` reads). The generator's record is the oracle: one phenomenon per file with every
//! command in order as a fact (the first 500; the rest counted and noted; a password typed in
//! clear withheld from every phenomenon), bash's `#<seconds>`
//! lines read as the first and last time, Termux named from the path; phone B's CRLF file read
//! the same; in tree C a zero-filled tail noted with the commands before it read, and an empty
//! history recorded with no command.

use crate::android_support::{generate, has_fact, time_values, triage};

#[test]
fn bashhistory_commands_times_cap_and_damage() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/bashhistory/bashhistory.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "UTC", Some("GB")),
        ("b", &b, "UTC", Some("GB")),
        ("c", &c, "UTC", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for f in o["files"].as_array().unwrap() {
        let (tree, rel) = (f["tree"].as_str().unwrap(), f["rel"].as_str().unwrap());
        let all = run.all_phenomena(tree);
        let total = f["total"].as_u64().unwrap();
        let p = all
            .iter()
            .find(|p| {
                p.title.starts_with("Bash history ")
                    && p.title.ends_with(&format!("{rel}: {total} commands"))
            })
            .unwrap_or_else(|| {
                panic!(
                    "{tree} {rel}: {:#?}",
                    all.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            });
        assert_eq!(p.category, "device");
        assert!(
            p.verified_facts.iter().any(|x| x.value.ends_with(rel)),
            "{p:#?}"
        );
        let commands: Vec<&str> = f["commands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        // every command, in order, as a fact
        let texts: Vec<&str> = p
            .verified_facts
            .iter()
            .filter(|x| x.fact_type == masf_graph::FactType::Text)
            .map(|x| x.value.as_str())
            .collect();
        assert_eq!(texts, commands, "{tree} {rel}");
        for absent in f["absent"].as_array().into_iter().flatten() {
            assert!(!has_fact(p, absent.as_str().unwrap()), "{absent}");
        }
        // a command carrying a password: counted, never copied into any phenomenon
        let withheld = f["withheld"].as_array().map_or(0, Vec::len);
        if withheld > 0 {
            assert!(
                p.interpretation
                    .contains(&format!("{withheld} of them withheld, not copied"))
            );
        }
        if let Some(secret) = f["secret"].as_str() {
            for q in &all {
                assert!(!q.title.contains(secret) && !q.interpretation.contains(secret));
                assert!(
                    !q.verified_facts.iter().any(|x| x.value.contains(secret)),
                    "{q:#?}"
                );
            }
        }
        let times: Vec<String> = f["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        let mut expected: Vec<String> = match times.as_slice() {
            [] => vec![],
            [one] => vec![one.clone()],
            [first, .., last] => vec![first.clone(), last.clone()],
        };
        expected.sort();
        assert_eq!(time_values(p), expected, "{p:#?}");
        // bash's time lines are times, not commands
        assert!(!texts.iter().any(|t| t.starts_with("#17")));
        if times.len() > 1 {
            assert!(p.interpretation.contains(&format!(
                "{} carry the time bash wrote before them, from {} to {} (Unix seconds)",
                times.len(),
                times[0],
                times[times.len() - 1]
            )));
        } else if times.is_empty() {
            assert!(p.interpretation.contains("no command carries a time"));
        }
        if f["package"].as_str() == Some("com.termux") {
            assert!(
                p.interpretation.contains("Termux (com.termux)"),
                "{}",
                p.interpretation
            );
        }
        // past the cap (500 commands as facts), the rest counted
        if total > 500 {
            assert!(p.interpretation.contains(&format!(
                "the first 500 recorded in order, {} more counted",
                total - 500
            )));
        }
    }
    for n in o["noted"].as_array().unwrap() {
        run.assert_noted(
            n[0].as_str().unwrap(),
            &[(n[1].as_str().unwrap(), n[2].as_str().unwrap())],
        );
    }
    assert!(
        !run.unparsed("a")
            .iter()
            .any(|u| u.artefact.ends_with(".bash_history")),
        "{:#?}",
        run.unparsed("a")
    );
    let c_all = run.all_phenomena("c");
    let damaged = c_all
        .iter()
        .find(|p| {
            p.title.starts_with("Bash history ")
                && p.title
                    .ends_with("data/data/com.termux/files/home/.bash_history: 3 commands")
        })
        .unwrap();
    assert!(
        damaged
            .interpretation
            .contains("holding NUL bytes were not read")
    );
}
