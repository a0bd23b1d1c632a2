//! The setup wizard's record (`android::setupwizard`) of two Android phones: shared preferences
//! in the form Android writes them (`<map>` of `<long name value>`, `<boolean>`, `<string>`), as
//! ALEAPP's get_setupWizardinfo reads them; phone A's with `suw_finished_time_ms`, phone B's
//! without it (a record, no time), and a second user's copy that is not XML (noted).

use masf_graph::TimeEncoding;

use crate::android_support::{has_fact, triage};

const A: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<map>
    <long name="suw_finished_time_ms" value="1717390000123" />
    <boolean name="suw_deferred_setup_done" value="true" />
    <string name="suw_restore_source">google_backup</string>
</map>
"#;

const B: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<map>
    <int name="suw_launch_count" value="2" />
</map>
"#;

#[test]
fn setup_wizard_finished_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let rel = "data/data/com.google.android.settings.intelligence/shared_prefs";
    for (root, xml) in [(&a, A), (&b, B)] {
        let d = root.join(rel);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("setup_wizard_info.xml"), xml).unwrap();
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let d10 = b.join("data/user/10/com.google.android.settings.intelligence/shared_prefs");
    std::fs::create_dir_all(&d10).unwrap();
    std::fs::write(d10.join("setup_wizard_info.xml"), b"\x00\x01 not xml").unwrap();
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    let p = all
        .iter()
        .find(|p| p.title == "Setup wizard finished")
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(p.category, "device");
    assert_eq!(p.times.len(), 1);
    assert_eq!(p.times[0].encoding, TimeEncoding::UnixMillis);
    assert_eq!(p.verified_facts[p.times[0].fact].value, "1717390000123");
    assert!(has_fact(p, "google_backup") && has_fact(p, "true"));
    let all = run.all_phenomena("b");
    let p = all
        .iter()
        .find(|p| p.title == "Setup wizard record")
        .unwrap();
    assert!(p.times.is_empty());
    assert!(p.interpretation.contains("suw_launch_count = 2"));
    run.assert_noted(
        "b",
        &[(
            "user/10/com.google.android.settings.intelligence/shared_prefs/setup_wizard_info.xml",
            "",
        )],
    );
}
