//! Discrete app-ops history (`android::discreteops`) of two Android phones and a third tree,
//! written by `tests/fixtures/discreteops/discreteops.py` (plain XML in the layout AOSP's
//! `DiscreteRegistry` writes and ALEAPP's `discreteNative` reads); the files the oracle lists
//! under `abx` are re-encoded here as Android Binary XML by the android-abx crate's encoder, as
//! Android 12+ writes them. The generator's record is the oracle: every access with its package,
//! uid, operation (AOSP's name in the title), attribution tag, time, duration, uid state and
//! flags as stored; phone B's first-release files (no `af`/`ci`, an operation past the known
//! names) read the same; in tree C an ABX copy cut inside a package name, a foreign root and a
//! plain copy cut short noted (its first access read), a file of 1050 accesses summarised per
//! package, uid, operation and UTC day, and a file named like one outside the discrete folder
//! not read at all.

use crate::android_support::{
    encode_abx, generate, has_fact, has_path, time_values, titled, triage,
};

/// Whether `p` holds a fact ending with `suffix` (the path facts are the tree's absolute paths).
#[test]
fn discreteops_accesses_abx_plain_and_summarised() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/discreteops/discreteops.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    // Android 12+'s encoding, by the android-abx crate's encoder; an ABX copy cut a few
    // bytes into a package name does not decode
    encode_abx(tmp.path(), &o);
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "UTC", Some("CH")),
        ("b", &b, "UTC", Some("CH")),
        ("c", &c, "UTC", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let abx: Vec<String> = o["abx"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{}/{}", f[0].as_str().unwrap(), f[1].as_str().unwrap()))
        .collect();
    let accesses = o["accesses"].as_array().unwrap();
    for tree in ["a", "b", "c"] {
        let all = run.all_phenomena(tree);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Discrete app op ") && p.title.ends_with(" UTC"))
            .collect();
        let expected: Vec<_> = accesses.iter().filter(|x| x["tree"] == tree).collect();
        assert_eq!(found.len(), expected.len(), "{tree}: {found:#?}");
        for x in expected {
            let s = |k: &str| x[k].as_str();
            let title = format!(
                "Discrete app op {} by {} at {}",
                s("name").unwrap(),
                s("pkg").unwrap(),
                s("when").unwrap()
            );
            let p = titled(&all, &title);
            assert_eq!(p.category, "apps");
            assert!(has_path(p, s("rel").unwrap()), "{p:#?}");
            for k in ["pkg", "uid", "op", "tag", "nd", "us", "f", "af", "ci"] {
                if let Some(v) = s(k) {
                    assert!(has_fact(p, v), "{k}={v}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s("nt").unwrap().to_string()], "{p:#?}");
            assert_eq!(
                p.interpretation.contains("without a duration"),
                s("nd").is_none(),
                "{}",
                p.interpretation
            );
            let encoded = abx.contains(&format!("{tree}/{}", s("rel").unwrap()));
            assert_eq!(
                p.interpretation.contains("(abx (decoded),"),
                encoded,
                "{}",
                p.interpretation
            );
        }
    }
    // labels of the stored codes
    let a_all = run.all_phenomena("a");
    let mic = titled(
        &a_all,
        "Discrete app op RECORD_AUDIO by com.whatsapp at 2024-11-30 20:56:40 UTC",
    );
    for said in [
        "uid state 200 (top (on screen))",
        "op flags 1 (by the app itself)",
        "attribution flags 1 (accessor)",
        "attribution chain 4",
        "attribution tag voice_note",
    ] {
        assert!(
            mic.interpretation.contains(said),
            "{said}: {}",
            mic.interpretation
        );
    }
    let gms = a_all
        .iter()
        .find(|p| {
            p.title
                .starts_with("Discrete app op FINE_LOCATION by com.google.android.gms")
        })
        .unwrap();
    assert!(
        gms.interpretation
            .contains("by a trusted app on its behalf")
    );
    let other_user = a_all
        .iter()
        .find(|p| {
            p.title
                .starts_with("Discrete app op COARSE_LOCATION by com.example.tracker")
        })
        .unwrap();
    assert!(other_user.interpretation.contains("Android user 10"));
    let b_all = run.all_phenomena("b");
    let unnamed = b_all
        .iter()
        .find(|p| {
            p.title
                .starts_with("Discrete app op op 136 by com.snapchat.android")
        })
        .unwrap();
    assert!(
        unnamed
            .interpretation
            .contains("operation 136 (an operation this release does not name)")
    );
    // the summarised file: one phenomenon per package, uid, operation and day, none per access
    for (tree, rel, n) in o["summarised"].as_array().unwrap().iter().map(|f| {
        (
            f[0].as_str().unwrap(),
            f[1].as_str().unwrap(),
            f[2].as_u64().unwrap(),
        )
    }) {
        let all = run.all_phenomena(tree);
        let groups: Vec<_> = o["summaries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["tree"] == tree && g["rel"] == rel)
            .collect();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.ends_with(" accesses") && has_path(p, rel))
            .collect();
        assert_eq!(found.len(), groups.len(), "{found:#?}");
        assert_eq!(
            groups
                .iter()
                .map(|g| g["count"].as_u64().unwrap())
                .sum::<u64>(),
            n
        );
        assert!(
            !all.iter()
                .any(|p| p.title.ends_with(" UTC") && has_path(p, rel)),
            "no access of the summarised file one by one"
        );
        for g in groups {
            let s = |k: &str| g[k].as_str().unwrap();
            let p = titled(
                &all,
                &format!(
                    "Discrete app op {} by {} on {} (UTC): {} accesses",
                    s("name"),
                    s("pkg"),
                    s("day"),
                    g["count"]
                ),
            );
            for v in [s("pkg"), s("uid"), s("op")] {
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
            for v in g["states"]
                .as_array()
                .unwrap()
                .iter()
                .chain(g["tags"].as_array().unwrap())
            {
                assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
            }
            let mut times = vec![s("first").to_string(), s("last").to_string()];
            times.sort();
            assert_eq!(time_values(p), times);
            for said in [
                format!("{} times that day", g["count"]),
                format!("first at {} and last at {}", s("first"), s("last")),
                format!(
                    "{} of them with a duration, together {} ms",
                    g["timed"],
                    s("duration")
                ),
            ] {
                assert!(
                    p.interpretation.contains(&said),
                    "{said}: {}",
                    p.interpretation
                );
            }
        }
    }
    for n in o["noted"].as_array().unwrap() {
        run.assert_noted(
            n[0].as_str().unwrap(),
            &[(n[1].as_str().unwrap(), n[2].as_str().unwrap())],
        );
    }
    for tree in ["a", "b"] {
        let notes = run.unparsed(tree);
        assert!(
            !notes.iter().any(|u| u.artefact.contains("appops/discrete")),
            "{tree}: {notes:#?}"
        );
    }
    for i in o["ignored"].as_array().unwrap() {
        let (tree, rel, pkg) = (
            i[0].as_str().unwrap(),
            i[1].as_str().unwrap(),
            i[2].as_str().unwrap(),
        );
        assert!(
            !run.all_phenomena(tree)
                .iter()
                .any(|p| p.title.starts_with("Discrete app op ") && p.title.contains(pkg))
        );
        assert!(!run.unparsed(tree).iter().any(|u| u.artefact.ends_with(rel)));
    }
}
