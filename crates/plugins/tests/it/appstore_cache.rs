//! The App Store's URL cache (`ios::safari` on `Library/Caches/com.apple.AppStore/Cache.db`) at
//! parity with iLEAPP's `appStoreCachedRequests` and `appStoreSearches` on Josh Hickman's iOS 17
//! iPhone (977 cached requests, 27 searches), whose recorded results the corpus holds, not the
//! database: a `Cache.db` with CFNetwork's tables is written by Python's sqlite3 from the cached
//! requests (URL, time as CFNetwork's `YYYY-MM-DD HH:MM:SS`, entry id), read in place from the
//! corpus, and triaged: every request's host, path, URL, time and entry id is found, and every
//! search's term, storefront, platform, language, URL and entry id.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::android_support::triage;

const DB: &str = "private/var/mobile/Containers/Data/Application/5D4C3B2A-1F0E-4D9C-8B7A-6F5E4D3C2B1A/Library/Caches/com.apple.AppStore/Cache.db";

const WRITE: &str = r#"
import json, os, sqlite3, sys, time
out, rows = sys.argv[1:3]
os.makedirs(os.path.dirname(out), exist_ok=True)
db = sqlite3.connect(out)
db.executescript("""
CREATE TABLE cfurl_cache_response (entry_ID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, version INTEGER, hash_value INTEGER,
  storage_policy INTEGER, request_key TEXT UNIQUE, time_stamp NOT NULL DEFAULT CURRENT_TIMESTAMP, partition TEXT);
CREATE TABLE cfurl_cache_blob_data (entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB, proto_props BLOB, user_info BLOB);
CREATE TABLE cfurl_cache_receiver_data (entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, receiver_data BLOB);
""")
for (ts, host, path, url, entry) in json.load(open(rows))['data']:
    db.execute("INSERT INTO cfurl_cache_response (entry_ID, version, hash_value, storage_policy, request_key, time_stamp, partition) VALUES (?, 0, 0, 0, ?, ?, NULL)",
        (entry, url, time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(ts))))
db.commit()
"#;

#[test]
fn app_store_cache_at_parity_with_ileapp() {
    let tmp = tempfile::tempdir().unwrap();
    let case = "josh_ios17_ffs";
    let root = tmp.path().join("josh");
    let requests = crate::ios::expected(&format!("appStoreSearches.appStoreCachedRequests.{case}"));
    let searches = crate::ios::expected(&format!("appStoreSearches.appStoreSearches.{case}"));
    let rows = tmp.path().join("requests.json");
    std::fs::write(&rows, requests.to_string()).unwrap();
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE])
        .arg(root.join(DB))
        .arg(&rows)
        .status()
        .unwrap();
    assert!(st.success());
    std::fs::create_dir_all(root.join("private/var/mobile/Library/SMS")).unwrap();
    let run = triage(&[("josh", root.as_path(), "America/New_York", Some("US"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("josh");
    // (kind, entry id) → facts, times
    let mut by_entry: HashMap<(bool, String), (BTreeSet<String>, BTreeSet<String>)> =
        HashMap::new();
    for p in &all {
        let search = p.title.starts_with("App Store search: ");
        if !search && !p.title.starts_with("Cached ") {
            continue;
        }
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        let entry = p.interpretation.split(' ').nth(1).unwrap().to_string();
        by_entry.insert((search, entry), crate::ios_support::facts_and_times(p));
    }
    let (mut fields, mut found) = (0usize, 0usize);
    for (exp, search, skip) in [
        (&requests, false, &[][..]),
        (&searches, true, &[2usize][..]),
    ] {
        let rows = exp["data"].as_array().unwrap();
        assert!(!rows.is_empty());
        for row in rows {
            let row = row.as_array().unwrap();
            let entry = row.last().unwrap().to_string();
            let (facts, times) = by_entry
                .get(&(search, entry.clone()))
                .unwrap_or_else(|| panic!("{search} {entry}"));
            for (i, v) in row.iter().enumerate() {
                // iLEAPP's request kind is its own label, not a stored value
                if skip.contains(&i) {
                    continue;
                }
                let ok = match (i, v) {
                    (0, Value::Number(n)) => times.contains(&n.to_string()),
                    (_, Value::String(s)) if s.is_empty() => continue,
                    (_, Value::String(s)) => facts.contains(s),
                    (_, Value::Number(n)) => facts.contains(&n.to_string()),
                    _ => continue,
                };
                fields += 1;
                if ok {
                    found += 1;
                } else {
                    panic!("{search} {entry}: column {i} = {v} not in {facts:?} / {times:?}");
                }
            }
        }
    }
    eprintln!("App Store cache: {found} of {fields} fields");
    assert_eq!(found, fields);
}
