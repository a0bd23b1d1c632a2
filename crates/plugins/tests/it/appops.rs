//! App ops (`android::appops`): `/data/system/appops.xml` of three phones — Android 13's layout
//! (`<op>` with `<st>` state entries: access and rejection times, duration, proxy package,
//! attribution tag) encoded as ABX by the `android_abx` crate, the same as plain XML, and
//! Android 9's legacy layout (times by process state on the `<op>`) — and a file whose root is
//! another element. The XML is the oracle (AOSP's `AppOpsService` attribute names, the layouts
//! ALEAPP's `get_appops` and `get_appops_legacy` read): every timed use is found with its package,
//! uid, operation name and times; an op without a time gives nothing; the foreign file is noted.

use crate::android_support::{has_fact, triage};

const MODERN: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<app-ops v="1">
<pkg n="com.whatsapp">
<uid n="10123" p="true">
<op n="26">
<st n="4294967296" t="1733000123456" d="61000" />
</op>
<op n="27">
<st n="4294967296" t="1733000200000" r="1733000100000" pp="com.google.android.gms" pu="10087" id="voice_note" />
</op>
<op n="63" m="1" />
</uid>
</pkg>
<pkg n="com.example.tracker">
<uid n="10250" p="false">
<op n="1">
<st n="4294967296" r="1733005000000" />
</op>
</uid>
</pkg>
</app-ops>
"#;

const LEGACY: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<app-ops v="1">
<pkg n="org.telegram.messenger">
<uid n="10145" p="false">
<op n="0" tp="1560000000000" tb="1560000500000" d="0" />
<op n="29" tf="1560001000000" />
<op n="24" m="0" />
</uid>
</pkg>
</app-ops>
"#;

#[test]
fn app_ops_modern_abx_plain_and_legacy() {
    let tmp = tempfile::tempdir().unwrap();
    let roots: Vec<_> = ["a13", "plain", "a9", "foreign"]
        .iter()
        .map(|n| tmp.path().join(n))
        .collect();
    for (root, bytes) in [
        (&roots[0], android_abx::xml_to_abx(MODERN).unwrap()),
        (&roots[1], MODERN.as_bytes().to_vec()),
        (&roots[2], LEGACY.as_bytes().to_vec()),
        (&roots[3], b"<?xml version='1.0'?>\n<map />\n".to_vec()),
    ] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
        std::fs::write(root.join("data/system/appops.xml"), bytes).unwrap();
    }
    let run = triage(&[
        ("a13", &roots[0], "UTC", Some("CH")),
        ("plain", &roots[1], "UTC", Some("CH")),
        ("a9", &roots[2], "UTC", Some("CH")),
        ("foreign", &roots[3], "UTC", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for src in ["a13", "plain"] {
        let all = run.all_phenomena(src);
        let ops: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("App op "))
            .collect();
        assert_eq!(ops.len(), 3, "{src}: {ops:#?}");
        let camera = ops
            .iter()
            .find(|p| p.title == "App op CAMERA of com.whatsapp")
            .unwrap();
        for v in ["com.whatsapp", "10123", "26", "1733000123456", "61000"] {
            assert!(has_fact(camera, v), "{v}: {camera:#?}");
        }
        assert_eq!(camera.times.len(), 1);
        let mic = ops
            .iter()
            .find(|p| p.title == "App op RECORD_AUDIO of com.whatsapp")
            .unwrap();
        for v in [
            "1733000200000",
            "1733000100000",
            "com.google.android.gms",
            "10087",
            "voice_note",
        ] {
            assert!(has_fact(mic, v), "{v}: {mic:#?}");
        }
        assert_eq!(mic.times.len(), 2);
        let refused = ops
            .iter()
            .find(|p| p.title == "App op FINE_LOCATION of com.example.tracker")
            .unwrap();
        assert!(
            refused.interpretation.contains("was refused"),
            "{}",
            refused.interpretation
        );
        assert!(!ops.iter().any(|p| p.title.contains("RUN_IN_BACKGROUND")));
    }
    let a9 = run.all_phenomena("a9");
    let ops: Vec<_> = a9
        .iter()
        .filter(|p| p.title.starts_with("App op "))
        .collect();
    assert_eq!(ops.len(), 2, "{ops:#?}");
    let loc = ops
        .iter()
        .find(|p| p.title == "App op COARSE_LOCATION of org.telegram.messenger")
        .unwrap();
    assert_eq!(loc.times.len(), 2, "{loc:#?}");
    assert!(
        loc.interpretation.contains("used 1560000000000 (top)")
            && loc
                .interpretation
                .contains("used 1560000500000 (background)"),
        "{}",
        loc.interpretation
    );
    assert!(
        ops.iter()
            .any(|p| p.title == "App op READ_CLIPBOARD of org.telegram.messenger")
    );
    run.assert_noted("foreign", &[("appops.xml", "not <app-ops>")]);
}
