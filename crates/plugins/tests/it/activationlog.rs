//! The activation daemon's log (`ios::activationlog`): two iPhones' `mobileactivationd.log`
//! (and a rotation) in the layout iLEAPP's `mobileActivationLogs` reads — C's ctime time, pid,
//! level (lower case, as its pattern requires), thread, `MA:` and the message. No public copy is in the corpus, so the lines are
//! written here; iLEAPP's matching (its date, upgrade and startup patterns), re-run in Python on
//! the same files, is the oracle: every event it reports is found with its time as written, and
//! nothing else; a line whose weekday is not its date's is kept for the timeline to refuse.

use crate::android_support::{has_fact, triage};

const ORACLE: &str = r#"
import glob, json, os, re, sys
date = re.compile(r'^([A-Za-z]+\s+([a-zA-Z]+\s+[0-9]+)\s+([0-9]+:[0-9]+:[0-9]+)\s+([0-9]{4}))(\s+[\[\d\]]+\s+[<a-z>]+\s+[(\w)]+\s+[A-Z]{2}:\s+)(.*)$')
up = re.compile(r'(Upgrade\s+from\s+\w+\s+to\s+\w+\s+detected\.$)')
for f in sorted(glob.glob(os.path.join(sys.argv[1], "**", "mobileactivationd.log*"), recursive=True)):
    for line in open(f, encoding="utf8", errors="ignore"):
        m = date.match(line.rstrip("\n"))
        if not m:
            continue
        values = m.group(6)
        if "perform_data_migration" in values and up.search(values):
            print(json.dumps([m.group(1), up.search(values).group(1)]))
        if "Mobile Activation Startup" in values:
            print(json.dumps([m.group(1), "startup"]))
"#;

#[test]
fn activation_log_upgrades_and_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let banner = "MA: main: ____________________ Mobile Activation Startup _____________________";
    let dir = |r: &std::path::Path| {
        let d = r.join("private/var/mobile/Library/Logs/mobileactivationd");
        std::fs::create_dir_all(&d).unwrap();
        d
    };
    std::fs::write(
        dir(&a).join("mobileactivationd.log"),
        format!(
            "Mon Oct 16 09:12:33 2023 [87] <notice> (0x16b7f3000) {banner}\n\
             Mon Oct 16 09:12:34 2023 [87] <notice> (0x16b7f3000) MA: perform_data_migration: Upgrade from 20G75 to 21A329 detected.\n\
             Mon Oct 16 09:12:35 2023 [87] <notice> (0x16b7f3000) MA: perform_data_migration: Migration complete.\n\
             Tue Mar 19 18:25:50 2024 [91] <notice> (0x16d2a7000) {banner}\n"
        ),
    )
    .unwrap();
    let bd = dir(&b);
    std::fs::write(
        bd.join("mobileactivationd.log.1"),
        format!(
            "Sat Jan  6 07:00:01 2024 [64] <notice> (0x170a13000) {banner}\n\
             Sat Jan  6 07:00:02 2024 [64] <notice> (0x170a13000) MA: perform_data_migration: Upgrade from 21B101 to 21C62 detected.\n\
             Fri Jan  6 07:00:03 2024 [64] <notice> (0x170a13000) {banner}\n\
             garbage that is no line\n"
        ),
    )
    .unwrap();
    let run = triage(&[
        ("a", &a, "Europe/Paris", Some("FR")),
        ("b", &b, "Asia/Tokyo", Some("JP")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (who, root, n) in [("a", &a, 3), ("b", &b, 3)] {
        let out = std::process::Command::new("python3")
            .args(["-c", ORACLE, root.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success());
        let rows: Vec<Vec<String>> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), n, "{who}: {rows:?}");
        let all = run.all_phenomena(who);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.ends_with("(activation log)"))
            .collect();
        for r in &rows {
            let p = found
                .iter()
                .find(|p| {
                    has_fact(p, &r[0])
                        && (r[1] == "startup" && p.title.starts_with("mobileactivationd started")
                            || p.verified_facts.iter().any(|f| f.value.contains(&r[1])))
                })
                .unwrap_or_else(|| panic!("{who}: {r:?} in {found:#?}"));
            assert_eq!(p.times.len(), 1);
        }
        // the line whose weekday is not its date's (Fri Jan 6 2024 was a Saturday) is kept, as
        // iLEAPP keeps it: the timeline's ctime reading refuses its time and says why
        assert_eq!(found.len(), n, "{who}: {found:#?}");
    }
    let up = run
        .all_phenomena("a")
        .into_iter()
        .find(|p| p.title == "OS upgrade from 20G75 to 21A329 (activation log)")
        .unwrap();
    assert!(
        up.interpretation
            .contains("from build 20G75 to build 21A329")
    );
}
