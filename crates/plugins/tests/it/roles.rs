//! Role holders (`android::roles`) of two Android phones and a third tree, written by
//! `tests/fixtures/roles/roles.py` (plain XML in the layout AOSP's `RolesPersistenceImpl` writes
//! and ALEAPP's `roles` reads); the files the oracle lists under `abx` are re-encoded here as
//! Android Binary XML by the android-abx crate's encoder. The generator's record is the oracle:
//! each user's role state (version, packages hash as stored, counts) and every role with all
//! its holders and `fallbackEnabled`; phone B's Android 10 file (legacy path, no hash, no
//! `fallbackEnabled`) read the same; in tree C a foreign root, an ABX copy cut inside a package
//! name and a plain copy cut short noted (the cut copy's first roles read), another app's
//! `roles.xml` not read at all.

use crate::android_support::{encode_abx, generate, has_fact, has_path, titled, triage};

/// Whether `p` holds a fact ending with `suffix` (the path facts are the tree's absolute paths).
#[test]
fn roles_holders_plain_and_abx_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/roles/roles.py",
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
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let abx: Vec<(String, String)> = o["abx"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f[0].as_str().unwrap().into(), f[1].as_str().unwrap().into()))
        .collect();
    for f in o["files"].as_array().unwrap() {
        let (tree, rel, user) = (
            f["tree"].as_str().unwrap(),
            f["rel"].as_str().unwrap(),
            f["user"].as_str().unwrap(),
        );
        let all = run.all_phenomena(tree);
        let roles = f["roles"].as_array().unwrap();
        let held = roles
            .iter()
            .filter(|r| !r["holders"].as_array().unwrap().is_empty())
            .count();
        let state = titled(
            &all,
            &format!(
                "Roles of Android user {user}: {} roles, {held} held",
                roles.len()
            ),
        );
        assert_eq!(state.category, "apps");
        assert!(has_path(state, rel), "{state:#?}");
        assert!(
            has_fact(state, f["version"].as_str().unwrap()),
            "{state:#?}"
        );
        match f["hash"].as_str() {
            Some(h) => assert!(has_fact(state, h), "{state:#?}"),
            None => assert!(
                state.interpretation.contains("packages hash not recorded"),
                "{}",
                state.interpretation
            ),
        }
        let encoded = abx.contains(&(tree.to_string(), rel.to_string()));
        assert_eq!(
            state.interpretation.contains("(abx (decoded))"),
            encoded,
            "{tree} {rel}: {}",
            state.interpretation
        );
        let of_user: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Role ")
                    && p.title.contains(&format!(" of Android user {user}: "))
            })
            .collect();
        assert_eq!(
            of_user.len(),
            roles.len(),
            "{tree} user {user}: {of_user:#?}"
        );
        for r in roles {
            let name = r["name"].as_str().unwrap();
            let holders: Vec<&str> = r["holders"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_str().unwrap())
                .collect();
            let shown = if holders.is_empty() {
                "no holder".to_string()
            } else {
                holders.join(", ")
            };
            let p = titled(
                &all,
                &format!("Role {name} of Android user {user}: {shown}"),
            );
            assert_eq!(p.category, "apps");
            assert!(has_path(p, rel), "{p:#?}");
            assert!(has_fact(p, name), "{p:#?}");
            for h in &holders {
                assert!(has_fact(p, h), "{h}: {p:#?}");
            }
            match r["fallbackEnabled"].as_str() {
                Some(fb) => {
                    assert!(has_fact(p, fb), "{p:#?}");
                    assert!(
                        p.interpretation.contains(&format!("fallbackEnabled {fb}")),
                        "{}",
                        p.interpretation
                    );
                }
                None => assert!(!p.interpretation.contains("fallbackEnabled")),
            }
            if holders.is_empty() {
                assert!(p.interpretation.contains("is held by no app"));
            } else if holders.len() > 1 {
                assert!(
                    p.interpretation
                        .contains(&format!("is held by {} apps", holders.len())),
                    "{}",
                    p.interpretation
                );
            }
        }
    }
    // the well-known roles are explained
    let a_all = run.all_phenomena("a");
    let sms = titled(
        &a_all,
        "Role android.app.role.SMS of Android user 0: org.thoughtcrime.securesms",
    );
    assert!(
        sms.interpretation.contains("the default SMS app"),
        "{}",
        sms.interpretation
    );
    // the copy cut short: its roles before the cut read, the rest absent
    for cut in o["cut"].as_array().unwrap() {
        let all = run.all_phenomena(cut["tree"].as_str().unwrap());
        let user = cut["user"].as_str().unwrap();
        let roles = cut["roles"].as_array().unwrap();
        let state = titled(
            &all,
            &format!(
                "Roles of Android user {user}: {} roles, {} held",
                roles.len(),
                roles.len()
            ),
        );
        assert!(has_fact(state, cut["hash"].as_str().unwrap()));
        for r in roles {
            let name = r["name"].as_str().unwrap();
            let holder = r["holders"][0].as_str().unwrap();
            titled(
                &all,
                &format!("Role {name} of Android user {user}: {holder}"),
            );
        }
        assert!(!all.iter().any(|p| {
            p.title
                .starts_with("Role android.app.role.HOME of Android user 12")
        }));
    }
    // notes: the damaged copies of C, nothing on A and B
    for n in o["noted"].as_array().unwrap() {
        run.assert_noted(
            n[0].as_str().unwrap(),
            &[(n[1].as_str().unwrap(), n[2].as_str().unwrap())],
        );
    }
    for tree in ["a", "b"] {
        let notes = run.unparsed(tree);
        assert!(
            !notes.iter().any(|u| u.artefact.ends_with("roles.xml")),
            "{tree}: {notes:#?}"
        );
    }
    // another app's roles.xml is no role holders file: neither read nor noted
    for i in o["ignored"].as_array().unwrap() {
        let (tree, rel) = (i[0].as_str().unwrap(), i[1].as_str().unwrap());
        assert!(
            !run.all_phenomena(tree)
                .iter()
                .any(|p| p.title.starts_with("Role") && has_path(p, rel))
        );
        assert!(!run.unparsed(tree).iter().any(|u| u.artefact.ends_with(rel)));
    }
}
