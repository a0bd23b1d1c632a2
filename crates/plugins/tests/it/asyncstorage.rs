//! React Native AsyncStorage on iOS (`ios::asyncstorage`) on two iPhones: manifests written by
//! Python's `json` (as the app writes them: one object of key → string, `null` for a value kept
//! in the file named by the key's MD5), one in an app's `Documents/` (the app named by
//! `applicationState.db`), one in `Library/Application Support/`. Every key and value Python
//! reads, as iLEAPP's `rctAsyncStorageManifest` reports them, is found; a secret is redacted; a
//! long value is cut and said; the file of a value kept out of the manifest is named or said
//! absent; a wallet address in a value is observed without a claim; a truncated manifest and
//! one that is an array are noted; a `manifest.json` outside an AsyncStorage folder is passed
//! over.

use std::path::Path;

use crate::android_support::triage;

const A: &str =
    "/private/var/mobile/Containers/Data/Application/6A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9";
const B: &str =
    "/private/var/mobile/Containers/Data/Application/0F1E2D3C-4B5A-4968-8776-655443322110";

const WRITE: &str = r#"
import json, os, sqlite3, sys, plistlib, hashlib
from plistlib import UID
root, which, a, b = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
if which == 'one':
    d = root + a + '/Documents/RCTAsyncLocalStorage_V1'
    manifest = {
        'lastUser': 'live:kw.trader',
        'persist:settings': json.dumps({'theme': 'dark', 'payout': 'TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2', 'quote': 'say "hi"\n'}),
        'recovery': 'abandon ability able about above absent absorb abstract absurd abuse access accident',
        'bigState': None,
        'lostState': None,
        'history': 'x' * 2500,
        'emoji': 'caf\u00e9 \u2615',
    }
    put(d + '/manifest.json', json.dumps(manifest, ensure_ascii=False))
    put(d + '/' + hashlib.md5(b'bigState').hexdigest(), json.dumps({'big': list(range(100))}))
    def archive(d):
        objects = ['$null', {'$class': UID(2)}, {'$classname': 'NSDictionary', '$classes': ['NSDictionary', 'NSObject']}]
        keys, vals = [], []
        for k, v in d.items():
            keys.append(UID(len(objects))); objects.append(k)
            vals.append(UID(len(objects))); objects.append(v)
        objects[1]['NS.keys'] = keys
        objects[1]['NS.objects'] = vals
        return plistlib.dumps({'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(1)}, '$objects': objects}, fmt=plistlib.FMT_BINARY)
    fb = root + '/private/var/mobile/Library/FrontBoard'
    os.makedirs(fb, exist_ok=True)
    db = sqlite3.connect(fb + '/applicationState.db')
    db.executescript("""
CREATE TABLE application_identifier_tab (id INTEGER PRIMARY KEY AUTOINCREMENT, application_identifier TEXT UNIQUE NOT NULL);
CREATE TABLE key_tab (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE NOT NULL);
CREATE TABLE kvs (id INTEGER PRIMARY KEY AUTOINCREMENT, application_identifier INTEGER, key INTEGER, value BLOB);
INSERT INTO key_tab (key) VALUES ('compatibilityInfo');
INSERT INTO application_identifier_tab (application_identifier) VALUES ('com.skype.skype');
""")
    db.execute("INSERT INTO kvs (application_identifier, key, value) VALUES (1, 1, ?)",
               (archive({'bundleIdentifier': 'com.skype.skype', 'sandboxPath': a}),))
    db.commit()
    # damaged and foreign manifests
    put(root + '/private/var/mobile/Containers/Data/Application/11111111-2222-4333-8444-555555555555/Documents/RCTAsyncLocalStorage_V1/manifest.json', '{"a": "b", "c"')
    put(root + '/private/var/mobile/Containers/Data/Application/66666666-7777-4888-9999-AAAAAAAAAAAA/Documents/RCTAsyncLocalStorage_V1/manifest.json', '["a", "b"]')
    put(root + a + '/Library/Extensions/ext1/manifest.json', json.dumps({'name': 'not AsyncStorage', 'version': '1.0'}))
else:
    d = root + b + '/Library/Application Support/RCTAsyncLocalStorage_V1'
    put(d + '/manifest.json', json.dumps({'session': json.dumps({'user': 'live:kw.trader', 'since': 1700000000}), 'count': '3'}))
os.makedirs(root + '/private/var/mobile/Library/SMS', exist_ok=True)
"#;

fn write(which: &str, root: &Path) {
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE])
        .arg(root)
        .args([which, A, B])
        .status()
        .unwrap();
    assert!(st.success());
}

/// The manifest as Python reads it: (key, value as the JSON text escapes it, or None).
fn oracle(manifest: &Path) -> Vec<(String, Option<String>)> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, sys\nfor k, v in json.load(open(sys.argv[1], encoding='utf-8')).items():\n    print(json.dumps([json.dumps(k)[1:-1], None if v is None else json.dumps(v, ensure_ascii=False)[1:-1]]))",
        ])
        .arg(manifest)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<(String, Option<String>)>(l).unwrap())
        .collect()
}

#[test]
fn async_storage_manifests_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    write("one", &one);
    write("two", &two);
    let run = triage(&[
        ("one", &one, "Asia/Hong_Kong", Some("HK")),
        ("two", &two, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.report("one").plugin.as_deref(), Some("ios"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, manifest, app) in [
        (
            "one",
            one.join(format!(
                "{}/Documents/RCTAsyncLocalStorage_V1/manifest.json",
                &A[1..]
            )),
            Some("com.skype.skype"),
        ),
        (
            "two",
            two.join(format!(
                "{}/Library/Application Support/RCTAsyncLocalStorage_V1/manifest.json",
                &B[1..]
            )),
            None,
        ),
    ] {
        let all = run.all_phenomena(source);
        let keys: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("AsyncStorage of "))
            .collect();
        let rows = oracle(&manifest);
        assert_eq!(keys.len(), rows.len(), "{source}: {keys:#?}");
        for (key, value) in &rows {
            let p = keys
                .iter()
                .find(|p| p.title.ends_with(&format!(": {key}")))
                .unwrap_or_else(|| panic!("{source}: {key}"));
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            let facts: Vec<&str> = p.verified_facts.iter().map(|f| f.value.as_str()).collect();
            if let Some(app) = app {
                assert!(facts.contains(&app), "{facts:?}");
                assert!(p.title.contains(app), "{}", p.title);
            }
            match value.as_deref() {
                Some(v) if key == "recovery" => {
                    // read_json redacts a recovery phrase: it never reaches a fact
                    assert!(!facts.iter().any(|f| f.contains("abandon")), "{facts:?}");
                    assert!(!v.is_empty());
                }
                Some(v) if v.len() > 2000 => {
                    assert!(facts.contains(&&v[..2000]), "{key}");
                    assert!(
                        p.interpretation
                            .contains("2500 characters long; the first 2000"),
                        "{}",
                        p.interpretation
                    );
                }
                Some(v) => assert!(facts.contains(&v), "{key}: {v:?} in {facts:?}"),
                None if key == "bigState" => {
                    assert!(
                        facts
                            .iter()
                            .any(|f| f.ends_with(&format!("/{}", md5_hex("bigState")))),
                        "{facts:?}"
                    );
                    assert!(
                        p.interpretation
                            .contains("bytes; the MD5 of the key names it")
                    );
                }
                None => assert!(
                    p.interpretation.contains("which the folder does not hold"),
                    "{}",
                    p.interpretation
                ),
            }
        }
    }
    // the address in a value: a wallet, no one's claim
    let ents = run.entities("one");
    assert!(
        ents.iter()
            .any(|e| e.starts_with("wallet:TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2 [Wallet]")),
        "{ents:#?}"
    );
    assert!(
        !ents
            .iter()
            .any(|e| e.starts_with("owner ") && e.contains("TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{ents:#?}"
    );
    // the extension's manifest.json is no AsyncStorage
    assert!(
        !run.all_phenomena("one")
            .iter()
            .any(|p| p.title.contains(": version") || p.title.ends_with(": name")),
    );
    run.assert_noted(
        "one",
        &[
            (
                "11111111-2222-4333-8444-555555555555/Documents/RCTAsyncLocalStorage_V1/manifest.json",
                "not JSON: EOF while parsing an object at line 1 column 14 (byte offset 14)",
            ),
            (
                "66666666-7777-4888-9999-AAAAAAAAAAAA/Documents/RCTAsyncLocalStorage_V1/manifest.json",
                "because it is an array, not an object of keys",
            ),
        ],
    );
}

fn md5_hex(s: &str) -> String {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import hashlib, sys; print(hashlib.md5(sys.argv[1].encode()).hexdigest())",
            s,
        ])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}
