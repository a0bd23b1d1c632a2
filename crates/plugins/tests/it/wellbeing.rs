//! Digital Wellbeing's account (`android::wellbeing`): two phones' `AccountData.pb` written by
//! Google's protobuf runtime from `tests/fixtures/wellbeing/account_data.py` (the layout is not
//! published, as ALEAPP's raw dump says: the e-mail at top level on one phone, nested on the
//! other). The generator's record is the oracle: the e-mail and every other text are found, the
//! e-mail is the phone user's Google account; a file cut short is noted and the rest read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn wellbeing_account_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/wellbeing/account_data.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Stockholm", Some("SE")),
        ("b", &b, "Asia/Shanghai", Some("CN")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let email = o[source]["email"].as_str().unwrap();
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Digital Wellbeing account"))
            .collect();
        assert_eq!(found.len(), 1, "{source}: {found:#?}");
        let p = found[0];
        assert_eq!(p.title, format!("Digital Wellbeing account {email}"));
        assert!(has_fact(p, email));
        for t in o[source]["texts"].as_array().unwrap() {
            assert!(has_fact(p, t.as_str().unwrap()), "{t}: {p:#?}");
        }
        let owner = run.owner(source).to_lowercase();
        assert!(owner.contains(email), "{owner}");
    }
    run.assert_noted(
        "b",
        &[(
            "user/10/com.google.android.apps.wellbeing/files/AccountData.pb",
            "not a Protocol Buffers message",
        )],
    );
}
