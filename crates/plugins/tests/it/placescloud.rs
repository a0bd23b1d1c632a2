//! Google Maps' labelled places (`android::maps`), Shazam (`android::shazam`), Dropbox
//! (`android::dropbox`), MEGA's chat (`android::mega`) and Files by Google's searches
//! (`android::apps`) of two Android phones written by
//! `tests/fixtures/placescloud/placescloud.py` (Python's sqlite3 and Google's protobuf runtime,
//! the tables, columns and message fields ALEAPP's googleMapsGmm, shazam, dropbox, mega and
//! FilesByGoogle read). The generator's record is the oracle: Home, Work and a labelled place
//! with address, link and coordinates; each recognition with title, artists and position; each
//! Dropbox file with its times and the account's e-mail and id observed as the owner's; MEGA's
//! contacts as persons, the message text and attachment name, an encrypted entry without text;
//! the searches. Older stores are read; those lacking their table are noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn shown(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[test]
fn places_music_cloud_and_chat_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/placescloud/placescloud.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");

    // Google Maps: Home and Work by their keys, a label of the user's own
    for pl in o["a"]["places"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "Google Maps labelled place {}: {}",
                pl["label"].as_str().unwrap(),
                pl["address"].as_str().unwrap()
            ),
        );
        assert_eq!(p.category, "locations");
        assert!(has_fact(p, pl["address"].as_str().unwrap()), "{p:#?}");
        assert!(has_fact(p, &pl["latitude"].to_string()));
        let degrees = format!("{}", pl["latitude"].as_f64().unwrap() / 1e6);
        assert!(has_fact(p, &degrees), "{degrees}: {p:#?}");
        if let Some(u) = pl["url"].as_str() {
            assert!(has_fact(p, u));
        }
        assert_eq!(time_values(p), vec![pl["timestamp"].to_string()]);
    }

    // Shazam: title, artists, position
    for s in o["a"]["shazam"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "Shazam recognised: {} by {}",
                s["title"].as_str().unwrap(),
                s["artists"].as_str().unwrap()
            ),
        );
        assert_eq!(p.category, "media");
        for k in ["lat", "lon", "location_city", "track_key", "request_id"] {
            if let Some(v) = shown(&s[k]) {
                assert!(has_fact(p, &v), "{k}: {p:#?}");
            }
        }
        assert_eq!(time_values(p), vec![s["timestamp"].to_string()]);
    }

    // Dropbox: files with their times, the thumbnail, the account as the owner's
    let dbx = &o["a"]["dropbox"];
    for f in dbx["files"].as_array().unwrap() {
        let kind = if f["is_dir"] == 1 { "folder" } else { "file" };
        let p = titled(
            &all,
            &format!("Dropbox {kind}: {}", f["path"].as_str().unwrap()),
        );
        for k in ["_display_name", "mime_type", "shared_folder_id", "revision"] {
            if let Some(v) = shown(&f[k]) {
                assert!(has_fact(p, &v), "{k}: {p:#?}");
            }
        }
        let mut want: Vec<String> = [
            "server_modified_millis",
            "modified_millis",
            "local_modified",
            "accessed_millis",
        ]
        .iter()
        .filter_map(|k| f[*k].as_i64().map(|v| v.to_string()))
        .collect();
        want.sort();
        assert_eq!(time_values(p), want, "{p:#?}");
    }
    titled(&all, "Dropbox thumbnail cached: /photos/passport_scan.jpg");
    let email = dbx["email"].as_str().unwrap();
    let acct = titled(&all, &format!("Dropbox account {email}"));
    assert!(has_fact(acct, dbx["account_id"].as_str().unwrap()) && has_fact(acct, "Dropbox Plus"));
    assert!(has_fact(acct, "/Camera Uploads"), "{acct:#?}");
    let mut want: Vec<String> = dbx["times"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.to_string())
        .collect();
    want.sort();
    assert_eq!(time_values(acct), want);
    let owner = run.owner("a").to_lowercase();
    assert!(owner.contains(&format!("email={email}")), "{owner}");
    assert!(
        owner.contains(&format!(
            "account_id={}",
            dbx["account_id"].as_str().unwrap().to_lowercase()
        )),
        "{owner}"
    );
    let entities = run.entities("a");

    // MEGA: contacts as persons, the message, the attachment, the encrypted entry
    let mega = &o["a"]["mega"];
    for c in mega["contacts"].as_array().unwrap() {
        let e = c["email"].as_str().unwrap();
        titled(&all, &format!("MEGA contact {e}"));
        let user = c["userid"].to_string();
        assert!(
            entities
                .iter()
                .any(|x| x.starts_with(&format!("mega:{user} ["))
                    && x.contains(&format!("email={e}"))),
            "{entities:#?}"
        );
    }
    let m = titled(&all, "MEGA message from chan.tai.man@example.org");
    let text = mega["text"].as_str().unwrap();
    let msg = all
        .iter()
        .find(|p| has_fact(p, text))
        .unwrap_or_else(|| panic!("{m:#?}"));
    assert!(has_fact(msg, "Shipment team") && has_fact(msg, "1002"));
    assert_eq!(time_values(msg), vec!["1717400100".to_string()]);
    let att = titled(&all, "MEGA attachment from kwan.lok.ho@example.com");
    assert!(
        has_fact(att, mega["attachment"].as_str().unwrap()),
        "{att:#?}"
    );
    titled(
        &all,
        "MEGA joined the group chat from chan.tai.man@example.org",
    );
    let encrypted = all
        .iter()
        .find(|p| p.title.starts_with("MEGA message") && has_fact(p, "1004"))
        .unwrap();
    assert!(encrypted.interpretation.contains("still encrypted"));
    assert!(
        !encrypted
            .verified_facts
            .iter()
            .any(|f| f.value.contains("ciphertext"))
    );
    titled(&all, "MEGA chat Shipment team");

    // Files by Google's searches
    for s in o["a"]["searches"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "Searched in Files by Google: {}",
                s["searched_term"].as_str().unwrap()
            ),
        );
        assert_eq!(time_values(p), vec![s["timestamp"].to_string()]);
    }

    // phone B: older Shazam and Dropbox stores read, two stores noted
    let all = run.all_phenomena("b");
    let s = &o["b"]["shazam"][0];
    let p = titled(
        &all,
        &format!(
            "Shazam recognised: track {}",
            s["track_key"].as_str().unwrap()
        ),
    );
    assert!(has_fact(p, "London") && has_fact(p, "-0.1276"), "{p:#?}");
    titled(&all, "Dropbox file: /notes.txt");
    run.assert_noted(
        "b",
        &[
            ("gmm_myplaces.db", "sync_item"),
            ("karere-b2xkZXI.db", "no history table"),
        ],
    );
}
