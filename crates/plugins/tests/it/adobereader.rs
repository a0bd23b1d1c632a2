//! Adobe Acrobat Reader's stores (`android::adobereader`) on two Android phones and a third
//! tree, written by `tests/fixtures/adobereader/adobereader.py` (Python's sqlite3, the files,
//! tables and columns ALEAPP's adobeReader module reads). The generator's record is the oracle:
//! the signed-in account with its token expiry, its e-mail and Adobe ID (`adobe:<Adobe ID>`) the
//! owner's; every recent file with its open count and last open time; every document of the list
//! with its share (participants counted) and four times as stored; thumbnails by key with the
//! image's length, never the image; the comment notification with its payload's author (a person
//! `adobe:<user id>`), document and annotation; the services database's shared, cloud, reviewed,
//! tracked and parcel rows; the AI Assistant conversation with its documents and events; tool
//! uses; file info and a cloud transfer named by its file; an open document; a share in progress;
//! phone B's older layout (fewer columns, no shared table, a cut JSON payload) read; no token in
//! any phenomenon; a cut copy, a foreign `database` and a documents table without `filePath`
//! noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| s(x).to_string())
        .collect()
}

#[test]
fn adobereader_account_documents_and_cloud_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/adobereader/adobereader.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Asia/Kolkata", Some("IN")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let secrets = strings(&o["secrets"]);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        // the signed-in account, the owner's
        let acct = &o["account"];
        let p = titled(&all, s(&acct["title"]));
        assert_eq!(p.category, "accounts");
        for v in strings(&acct["values"]) {
            assert!(has_fact(p, &v), "{v}: {p:#?}");
        }
        assert_eq!(time_values(p), strings(&acct["times"]));
        let owner = run.owner(source);
        for id in strings(&acct["owner"]) {
            assert!(owner.contains(&id), "{id}: {owner}");
        }
        // every row of every store, with its values and times as stored
        for r in o["rows"].as_array().unwrap() {
            let p = titled(&all, s(&r["title"]));
            assert_eq!(p.category, s(&r["category"]), "{p:#?}");
            for v in strings(&r["values"]) {
                assert!(has_fact(p, &v), "{v}: {p:#?}");
            }
            let mut times = strings(&r["times"]);
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        // the notification's author is a person
        let entities = run.entities(source);
        for person in o["persons"].as_array().unwrap() {
            let start = format!("{} [Person]", s(&person["context"]));
            let e = entities
                .iter()
                .find(|e| e.starts_with(&start))
                .unwrap_or_else(|| panic!("{start}: {entities:#?}"));
            assert!(
                e.contains(&format!(
                    "display_name={}",
                    s(&person["name"]).to_lowercase()
                )),
                "{e}"
            );
            assert!(!owner.contains(s(&person["context"])), "{owner}");
        }
        // no token in any phenomenon, no thumbnail image read
        for p in &all {
            for secret in &secrets {
                assert!(
                    !p.interpretation.contains(secret.as_str())
                        && !p
                            .verified_facts
                            .iter()
                            .any(|f| f.value.contains(secret.as_str())),
                    "{secret}: {p:#?}"
                );
            }
        }
        // in no output of a reading tool either: read_xml redacts the tokens of
        // FoundationMigrated.xml (the raw-content tools — read_text, hexdump, strings — print a
        // file's bytes as stored, and the generic tree triage reads a folder's text files so)
        for (tool, args, text) in run.outputs(source) {
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            for secret in &secrets {
                assert!(!text.contains(secret.as_str()), "{secret} in {tool} {args}");
            }
            if tool == "sqlite_query" {
                assert!(!text.contains("iVBORw0KGgo"), "a thumbnail image in {args}");
            }
        }
        assert!(
            run.outputs(source)
                .iter()
                .any(|(tool, _, text)| tool == "read_xml"
                    && text.contains("[redacted by MASForensics: AccessToken of")),
            "the access token's place in FoundationMigrated.xml"
        );
    }
    // phone B's cut payload names no author and makes no person
    assert!(
        !run.entities("b").iter().any(|e| e.starts_with("adobe:")),
        "{:#?}",
        run.entities("b")
    );
    // a cut copy, a store of another layout and a documents table without filePath are noted
    let noted: Vec<(String, String)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (s(&n[0]).to_string(), s(&n[1]).to_string()))
        .collect();
    let pairs: Vec<(&str, &str)> = noted
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    run.assert_noted("c", &pairs);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Adobe Reader ")),
        "{:#?}",
        run.all_phenomena("c")
    );
}
