//! Microsoft Outlook on Android (`android::outlook`): Ada's phone (a work account whose OneAuth
//! entry keeps the claims of a cached token, beside a personal one) and Ben's (a personal
//! account without claims, no settings file). No public copy of the app's preferences is in
//! the corpus, so they are written by Python as Android's `SharedPreferences` writes them (each
//! OneAuth entry a JSON text — its claims a JSON text inside it — XML-escaped in a `<string>`).
//! ALEAPP's logic for its three preference artefacts, re-run in Python, is the oracle; a value
//! with `&` is cited in the escaped form the file keeps; the opaque `aio` claim is not copied;
//! a malformed preferences file is noted.

use std::path::Path;

use crate::android_support::{assert_rows_in, has_fact, oracle_rows, triage};

/// argv: Ada's shared_prefs folder, Ben's.
const WRITE: &str = r#"
import json, os, sys
from xml.sax.saxutils import escape
ada, ben = sys.argv[1:3]
def prefs(path, strings, others=()):
    body = "".join(f'    <string name="{k}">{escape(v, {chr(34): "&quot;"})}</string>\n' for k, v in strings.items())
    body += "".join(f'    <{t} name="{k}" value="{v}" />\n' for t, k, v in others)
    open(path, "w").write("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n" + body + "</map>\n")
work = {"id": "00000000-0000-0000-a1b2-c3d4e5f60718.72f988bf-86f1-41af-91ab-2d7cd011db47", "provider_id": "aad", "account_type": "AAD",
        "email": "ada.lovelace@contoso.com", "login_name": "ada.lovelace@contoso.com", "display_name": "Ada Lovelace", "first_name": "Ada",
        "last_name": "Lovelace", "phone_number": "+44 20 7946 0958", "realm": "72f988bf-86f1-41af-91ab-2d7cd011db47",
        "realm_name": "Contoso & Partners", "authority": "https://login.microsoftonline.com/common", "sovereignty": "Global",
        "telemetry_region": "EU", "association_status": "{}", "home_account_id": "a1b2c3d4.72f988bf",
        "additional_properties": json.dumps({"aio": "OPAQUE-AIO-SECRET", "iat": 1731990000, "nbf": 1731990000, "exp": 1731994700,
            "iss": "https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/", "oid": "a1b2c3d4-0000-4000-8000-000000000001",
            "tid": "72f988bf-86f1-41af-91ab-2d7cd011db47", "sub": "sUbJeCt123", "preferred_username": "ada.lovelace@contoso.com",
            "aud": "00000003-0000-0ff1-ce00-000000000000", "ver": "1.0", "tr_flow_status": "ok"})}
personal = {"id": "0003bffd1a2b3c4d", "provider_id": "msa", "account_type": "MSA", "email": "ada1815@outlook.com",
            "display_name": "Ada L", "birthday": "1815-12-10", "age_group": "3", "location": "GB"}
prefs(os.path.join(ada, "com.microsoft.oneauth.accounts.xml"), {"acct_work": json.dumps(work), "acct_personal": json.dumps(personal), "broken": "{not json"})
prefs(os.path.join(ada, "versions.xml"), {"initialVersionName": "4.2340.2", "previousVersionName": "4.2420.1", "lastRunVersionName": "4.2430.0"},
      [("int", "initialVersionCode", "3214"), ("int", "previousVersionCode", "3301"), ("int", "lastRunVersionCode", "3310")])
prefs(os.path.join(ada, "acompli_prefs.xml"), {"pref_install_id": "6f1e2d3c-4b5a-4968-8776-655443322110"})
prefs(os.path.join(ada, "com.microsoft.office.outlook_preferences.xml"), {"theme": "dark"},
      [("long", "officeConfigLastFetchedTime", "1731990300000"), ("long", "wearUpsellLastCheck", "1731990400"), ("boolean", "focusedInbox", "true")])
consumer = {"id": "0003bffd9f8e7d6c", "provider_id": "msa", "account_type": "MSA", "email": "ben.ortiz@hotmail.com", "display_name": "Ben Ortiz"}
prefs(os.path.join(ben, "com.microsoft.oneauth.accounts.xml"), {"acct": json.dumps(consumer)})
prefs(os.path.join(ben, "versions.xml"), {"lastRunVersionName": "4.2501.0"}, [("int", "lastRunVersionCode", "3400")])
"#;

/// ALEAPP's rows by its logic (values as stored), from a shared_prefs folder (argv 1), as JSON
/// lines `[kind, key, values…]`.
const ORACLE: &str = r#"
import json, os, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
def out(kind, key, values):
    print(json.dumps([kind, str(key)] + [str(v) for v in values if v not in (None, "")]))
def entries(name):
    try:
        return [(e.get("name"), e.get("value") if e.get("value") is not None else (e.text or "")) for e in ET.parse(os.path.join(d, name)).getroot()]
    except (OSError, ET.ParseError):
        return []
for name, value in entries("com.microsoft.oneauth.accounts.xml"):
    try:
        e = json.loads(value)
    except ValueError:
        continue
    c = json.loads(e.get("additional_properties") or "{}")
    out("account", e.get("email") or e.get("display_name"), [c.get("iat"), c.get("nbf"), c.get("exp")] + [e.get(k) for k in (
        "email", "login_name")] + [c.get("preferred_username")] + [e.get(k) for k in ("display_name", "first_name", "last_name", "phone_number",
        "birthday", "age_group", "location", "account_type", "home_account_id", "id", "provider_id")] + [c.get(k) for k in ("oid", "tid", "sub")]
        + [e.get(k) for k in ("realm", "authority")] + [c.get(k) for k in ("iss", "aud", "graph_url")]
        + [e.get(k) for k in ("sovereignty", "telemetry_region", "association_status", "onprem_sid", "password_change_url")]
        + [c.get(k) for k in ("ver", "tr_flow_status")])
install = dict(entries("acompli_prefs.xml")).get("pref_install_id")
v = dict(entries("versions.xml"))
if v:
    out("install", v.get("lastRunVersionName"), [install] + [v.get(k) for k in ("initialVersionName", "initialVersionCode",
        "previousVersionName", "previousVersionCode", "lastRunVersionName", "lastRunVersionCode")])
for k, val in entries("com.microsoft.office.outlook_preferences.xml"):
    out("setting", val, [val])
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn check(all: &[masf_graph::Phenomenon], prefs: &Path, kind: &str, prefix: &str) -> usize {
    let rows = oracle_rows("python3", ORACLE, &[s(prefs)], kind);
    assert_rows_in(all, &rows, prefix, 1, &has_fact)
}

#[test]
fn outlook_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (ada, ben) = (tmp.path().join("ada"), tmp.path().join("ben"));
    let prefs = |root: &Path| root.join("data/data/com.microsoft.office.outlook/shared_prefs");
    for r in [&ada, &ben] {
        std::fs::create_dir_all(prefs(r)).unwrap();
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&prefs(&ada)), s(&prefs(&ben))])
        .status()
        .unwrap();
    assert!(st.success());
    // a malformed preferences file in a second profile
    let other = ben.join("data/user/10/com.microsoft.office.outlook/shared_prefs");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(
        other.join("com.microsoft.oneauth.accounts.xml"),
        "<?xml version='1.0'?>\n<map>\n    <string name=\"a\">{</map>",
    )
    .unwrap();
    let run = triage(&[
        ("ada", &ada, "Europe/London", Some("GB")),
        ("ben", &ben, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("ada");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let pa = prefs(&ada);
    assert_eq!(check(&all, &pa, "account", "Outlook account"), 2);
    assert_eq!(check(&all, &pa, "install", "Outlook installation"), 1);
    assert_eq!(check(&all, &pa, "setting", "Outlook settings"), 4);
    let work = all
        .iter()
        .find(|p| p.title == "Outlook account ada.lovelace@contoso.com")
        .unwrap();
    // a value with & cited as the file keeps it; the opaque aio claim not copied
    assert!(
        work.verified_facts
            .iter()
            .any(|f| f.value == "Contoso &amp; Partners")
    );
    assert!(!all.iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value.contains("OPAQUE-AIO"))
    }));
    assert_eq!(
        work.times
            .iter()
            .map(|t| t.description.as_str())
            .collect::<Vec<_>>(),
        [
            "OneAuth token issued",
            "OneAuth token valid from",
            "OneAuth token expires"
        ]
    );
    run.assert_noted("ada", &[("com.microsoft.oneauth.accounts.xml", "broken")]);
    let owner = run.owner("ada").to_lowercase();
    for id in [
        "email=ada.lovelace@contoso.com",
        "email=ada1815@outlook.com",
        "phone=+442079460958",
    ] {
        assert!(owner.contains(id), "{id} in {owner}");
    }
    let ball = run.all_phenomena("ben");
    assert_eq!(check(&ball, &prefs(&ben), "account", "Outlook account"), 1);
    assert_eq!(
        check(&ball, &prefs(&ben), "install", "Outlook installation"),
        1
    );
    assert!(!ball.iter().any(|p| p.title == "Outlook settings"));
    assert!(
        run.owner("ben")
            .to_lowercase()
            .contains("email=ben.ortiz@hotmail.com")
    );
    run.assert_noted(
        "ben",
        &[(
            "user/10/com.microsoft.office.outlook/shared_prefs/com.microsoft.oneauth.accounts.xml",
            "malformed",
        )],
    );
}
