//! OneDrive's `QTMetadata.db` (`crate::onedrive`) on two Android phones and an iPhone, written
//! by `tests/fixtures/onedrive/onedrive.py` (Python's sqlite3, the tables and columns ALEAPP's
//! OneDrive_Metadata and iLEAPP's oneDrive read). The generator's record is the oracle: every
//! item with its folder path walked up its parents, its times; the account of each drive
//! observed as the owner's `onedrive:` id on each device (phones A and B share it); who shared
//! an item with the account and whom an item is shared with as correspondents; the Personal
//! Vault file deleted with its deletion time; the cached stream; phone B's older store
//! (`sha1Hash`, no sharing tables); another app group's store without `items` noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn onedrive_items_drives_and_sharing_on_two_phones_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/onedrive/onedrive.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Dublin", Some("IE")),
        ("b", &b, "Europe/Dublin", Some("IE")),
        ("c", &c, "Europe/Rome", Some("IT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        for item in o["items"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("OneDrive item {}", item["title"].as_str().unwrap()),
            );
            assert_eq!(p.category, "files");
            assert!(has_fact(p, item["name"].as_str().unwrap()), "{p:#?}");
            if let Some(times) = item["times"].as_array() {
                let got = time_values(p);
                for t in times {
                    assert!(got.contains(&t.as_str().unwrap().to_string()), "{got:?}");
                }
            }
        }
        // the drive's account is the owner's, qualified by the service
        let account = o["account"].as_str().unwrap();
        assert!(
            run.identifiers(source)
                .contains(&("account_id".into(), format!("onedrive:{account}"))),
            "{source}: {:?}",
            run.entities(source)
        );
        assert!(
            run.owner(source).contains(&format!("onedrive:{account}")),
            "{}",
            run.owner(source)
        );
    }
    // phone A: shared by and with, the vault file deleted, the cached stream, the drive
    let all = run.all_phenomena("a");
    let shared = titled(&all, "OneDrive item root/Invoices Q3.xlsx");
    assert!(has_fact(shared, "orla.byrne@example.ie"));
    let entities = run.entities("a");
    for who in ["orla.byrne@example.ie", "niamh.doyle@example.com"] {
        assert!(
            entities
                .iter()
                .any(|e| e.starts_with(&format!("handle:{who} "))),
            "{who}: {entities:#?}"
        );
    }
    let share = titled(
        &all,
        "OneDrive sharing of holiday.mp4 with niamh.doyle@example.com",
    );
    assert_eq!(share.category, "contacts");
    assert!(has_fact(share, "write"));
    let link = titled(
        &all,
        "OneDrive sharing of holiday.mp4 with Anyone with the link",
    );
    assert_eq!(time_values(link), vec!["1706000000000".to_string()]);
    let vault = titled(&all, "OneDrive item root/passport.pdf");
    assert!(vault.interpretation.contains("vault type 1"), "{vault:#?}");
    let cached = titled(&all, "OneDrive cached IMG_2041.jpg");
    assert!(has_fact(cached, "files/streams/A!103/primary"));
    let drive = titled(&all, "OneDrive drive /drives/4f2a9c81d07b3e65");
    assert_eq!(drive.category, "accounts");
    assert!(has_fact(drive, "https://graph.microsoft.com/v1.0/"));
    assert_eq!(time_values(drive), vec!["1703600000000".to_string()]);
    // phone B's older store: the SHA-1 read; one account across the two phones
    let all = run.all_phenomena("b");
    let doc = titled(&all, "OneDrive item root/Documents/contract.docx");
    assert!(has_fact(doc, o["b"]["sha1"].as_str().unwrap()));
    assert!(run.unparsed("b").is_empty(), "{:?}", run.unparsed("b"));
    // iPhone C: the business drive read, the other group's store noted
    let all = run.all_phenomena("c");
    titled(&all, "OneDrive drive /drives/b!Xy7_k2LmQ0uU1vW3");
    run.assert_noted(
        "c",
        &[(
            o["c"]["foreign"]
                .as_str()
                .unwrap()
                .trim_start_matches("private/var/mobile"),
            "items",
        )],
    );
}
