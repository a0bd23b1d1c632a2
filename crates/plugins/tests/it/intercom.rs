//! The Intercom SDK's user preferences (`android::intercom`) in any app: Kim's phone with Grok
//! (both files, the cached attributes with Grok's `xUsername`) and Lee's with a shop app (the
//! user file only) and another app whose cached attributes are no JSON. No public copy is in
//! the corpus, so the preferences are written by Python as Android's `SharedPreferences` writes
//! them (the attributes a JSON text, XML-escaped, in a `<string>`). ALEAPP's `grok_useraccount`
//! logic, re-run in Python for every app, is the oracle.

use std::path::Path;

use crate::android_support::triage;

/// argv: a phone's data folder, which phone (kim, lee).
const WRITE: &str = r#"
import json, os, sys
from xml.sax.saxutils import escape
root, who = sys.argv[1:3]
def prefs(app, name, strings):
    d = os.path.join(root, app, "shared_prefs")
    os.makedirs(d, exist_ok=True)
    body = "".join(f'    <string name="{k}">{escape(v, {chr(34): "&quot;"})}</string>\n' for k, v in strings.items())
    open(os.path.join(d, name), "w").write("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n" + body + "</map>\n")
if who == "kim":
    prefs("ai.x.grok", "INTERCOM_SDK_USER_PREFS.xml", {"intercomsdk-session-INTERCOM_SDK_USER_ID": "1899001122334455", "intercomsdk-session-INTERCOM_SDK_EMAIL_ID": "kim.seo@proton.me"})
    prefs("ai.x.grok", "INTERCOM_DEDUPER_PREFS.xml", {"CachedAttributes": json.dumps({"email": "kim.seo@proton.me", "name": "Kim Seo",
        "custom_attributes": {"xUsername": "kimseo_art", "name": "Kim Seo", "subscription": "SuperGrok", "language_override": "ko"}})})
else:
    prefs("com.example.shop", "INTERCOM_SDK_USER_PREFS.xml", {"intercomsdk-session-INTERCOM_SDK_USER_ID": "u-5521", "intercomsdk-session-INTERCOM_SDK_EMAIL_ID": "lee.park@gmail.com"})
    prefs("com.example.notes", "INTERCOM_DEDUPER_PREFS.xml", {"CachedAttributes": "{not json"})
"#;

/// ALEAPP's rows (key, value) of every app's preferences, from a data folder (argv 1), as JSON
/// lines `[app, key, value]`.
const ORACLE: &str = r#"
import glob, json, os, sys
import xml.etree.ElementTree as ET
keys = {"intercomsdk-session-INTERCOM_SDK_USER_ID", "intercomsdk-session-INTERCOM_SDK_EMAIL_ID"}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*", "shared_prefs", "INTERCOM_*.xml"))):
    app = f.split(os.sep)[-3]
    root = ET.parse(f).getroot()
    cached = next(((e.text or "").strip() for e in root.iter() if e.get("name") == "CachedAttributes"), None)
    if cached:
        try:
            d = json.loads(cached)
        except ValueError:
            continue
        c = d.get("custom_attributes", {})
        for k in ("name", "email", "xUsername"):
            v = c.get(k, d.get(k, ""))
            if v:
                print(json.dumps([app, k, v]))
    for e in root.iter():
        if e.get("name") in keys:
            print(json.dumps([app, e.get("name"), (e.text or "").strip()]))
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn intercom_users_of_any_app_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (kim, lee) = (tmp.path().join("kim"), tmp.path().join("lee"));
    for (r, who) in [(&kim, "kim"), (&lee, "lee")] {
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
        let st = std::process::Command::new("python3")
            .args(["-c", WRITE, s(&r.join("data/data")), who])
            .status()
            .unwrap();
        assert!(st.success());
    }
    let run = triage(&[
        ("kim", &kim, "Asia/Seoul", Some("KR")),
        ("lee", &lee, "Asia/Seoul", Some("KR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (who, root, n) in [("kim", &kim, 5), ("lee", &lee, 2)] {
        let all = run.all_phenomena(who);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let out = std::process::Command::new("python3")
            .args(["-c", ORACLE, s(&root.join("data/data"))])
            .output()
            .unwrap();
        assert!(out.status.success());
        let rows: Vec<Vec<String>> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), n, "{who}: {rows:?}");
        for r in &rows {
            let p = all
                .iter()
                .find(|p| p.title == format!("Intercom user of {}", r[0]))
                .unwrap_or_else(|| panic!("{r:?} in {all:#?}"));
            assert!(
                p.verified_facts.iter().any(|f| f.value == r[2]),
                "{r:?} in {p:#?}"
            );
        }
    }
    let grok = run
        .all_phenomena("kim")
        .into_iter()
        .find(|p| p.title == "Intercom user of ai.x.grok")
        .unwrap();
    assert!(grok.verified_facts.iter().any(|f| f.value == "SuperGrok"));
    let owner = run.owner("kim").to_lowercase();
    for id in ["email=kim.seo@proton.me", "nickname=kimseo_art"] {
        assert!(owner.contains(id), "{id} in {owner}");
    }
    assert!(
        run.owner("lee")
            .to_lowercase()
            .contains("email=lee.park@gmail.com")
    );
    run.assert_noted(
        "lee",
        &[(
            "com.example.notes/shared_prefs/INTERCOM_DEDUPER_PREFS.xml",
            "not JSON",
        )],
    );
}
