//! Gmail's active account (`android::gmail`): two phones' `Gmail.xml` written by Python as
//! Android's `SharedPreferences` writes them (no public copy is in the corpus), ALEAPP's
//! `GmailActive` logic re-run in Python as the oracle. The account is found and observed on the
//! phone's user; another app's `Gmail.xml` is passed over; a file that is no XML (a bare `&`,
//! which ALEAPP repairs) is noted and the rest of the phone is still read.

use std::path::Path;

use crate::android_support::{has_fact, triage};

/// argv: a phone's data folder, the active account, and whether to add the other files.
const WRITE: &str = r#"
import os, sys
from xml.sax.saxutils import escape
root, account, extra = sys.argv[1:4]
def prefs(base, app, strings, raw=""):
    d = os.path.join(base, app, "shared_prefs")
    os.makedirs(d, exist_ok=True)
    body = "".join(f'    <string name="{k}">{escape(v)}</string>\n' for k, v in strings.items())
    open(os.path.join(d, "Gmail.xml"), "w").write("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n" + body + raw + "</map>\n")
prefs(os.path.join(root, "data"), "com.google.android.gm", {"active-account": account, "last-viewed-label": "^i", "sync-status-version": "2"})
if extra == "1":
    prefs(os.path.join(root, "data"), "com.example.mailer", {"active-account": "someone.else@example.org"})
    prefs(os.path.join(root, "user", "10"), "com.google.android.gm", {}, raw='    <string name="active-account">R&D team@example.org</string>\n')
"#;

/// ALEAPP's `GmailActive` rows of every Gmail.xml under argv 1 of the Gmail app, as `path\tvalue`.
const ORACLE: &str = r#"
import glob, os, sys
import xml.etree.ElementTree as ET
for f in sorted(glob.glob(os.path.join(sys.argv[1], "**", "com.google.android.gm", "shared_prefs", "Gmail.xml"), recursive=True)):
    try:
        root = ET.parse(f).getroot()
    except ET.ParseError:
        continue
    for child in root:
        if child.attrib.get("name") == "active-account":
            print(child.text)
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn gmail_active_account_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for (r, account, extra) in [
        (&a, "min.jun.seo@gmail.com", "0"),
        (&b, "ana.ruiz@contoso-legal.example", "1"),
    ] {
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
        let st = std::process::Command::new("python3")
            .args(["-c", WRITE, s(&r.join("data")), account, extra])
            .status()
            .unwrap();
        assert!(st.success());
    }
    let run = triage(&[
        ("a", &a, "Asia/Seoul", Some("KR")),
        ("b", &b, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (who, root) in [("a", &a), ("b", &b)] {
        let out = std::process::Command::new("python3")
            .args(["-c", ORACLE, s(&root.join("data"))])
            .output()
            .unwrap();
        assert!(out.status.success());
        let rows: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(rows.len(), 1, "{who}: {rows:?}");
        let all = run.all_phenomena(who);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Gmail active account "))
            .collect();
        assert_eq!(found.len(), 1, "{who}: {found:#?}");
        assert!(has_fact(found[0], &rows[0]), "{found:#?}");
        assert_eq!(found[0].category, "accounts");
        let owner = run.owner(who).to_lowercase();
        assert!(owner.contains(&rows[0]), "{owner}");
    }
    // another app's Gmail.xml is no Gmail account (the text scan may still list its address)
    assert!(
        !run.all_phenomena("b").iter().any(
            |p| p.title.starts_with("Gmail active account") && p.title.contains("someone.else")
        ),
    );
    run.assert_noted(
        "b",
        &[(
            "user/10/com.google.android.gm/shared_prefs/Gmail.xml",
            "the XML is malformed at byte 112",
        )],
    );
}
