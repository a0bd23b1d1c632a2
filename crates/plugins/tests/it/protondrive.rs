//! Proton Drive's `db-drive` (`android::protondrive`) on two Android phones, written by
//! `tests/fixtures/protondrive/protondrive.py` (Python's sqlite3, the tables and columns ALEAPP's
//! ProtonDrive reads and the others the app's Room entities declare). The generator's record is
//! the oracle: the account (user id, e-mail, name, space, created) observed as the owner's with
//! `proton:<user id>`, its addresses; every link with its ids, type, state, MIME type, size, signer
//! and times (the photo's capture time from `LinkFilePropertiesEntity`), its name said to be a PGP
//! message; every share and membership, the user who invited the account a person
//! `handle:<address>`; phone B's older layout (`createdAtUTC`, fewer columns) read; a truncated
//! copy and a store of another layout noted; and no name, key or passphrase in any output.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn proton_drive_account_links_and_shares_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/protondrive/protondrive.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "Europe/Stockholm", Some("SE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        // the account, the device's user's
        let u = &o["user"];
        let email = s(u, "email").unwrap();
        let p = titled(&all, &format!("Proton Drive account {email}"));
        assert_eq!(p.category, "accounts");
        for k in ["user_id", "name", "usedSpace", "maxSpace", "username"] {
            assert!(has_fact(p, &s(u, k).unwrap()), "{k}: {p:#?}");
        }
        assert_eq!(time_values(p), vec![s(u, "created").unwrap()], "{p:#?}");
        let owner = run.owner(source);
        assert!(
            owner.contains(&format!("account_id=proton:{}", s(u, "user_id").unwrap()))
                && owner.contains(&format!("email={email}"))
                && owner.contains(&format!(
                    "display_name={}",
                    s(u, "displayName").unwrap().to_lowercase()
                )),
            "{owner}"
        );
        let addresses = o["addresses"].as_array().unwrap();
        assert_eq!(count("Proton Drive address "), addresses.len());
        for ad in addresses {
            let address = s(ad, "email").unwrap();
            titled(&all, &format!("Proton Drive address {address}"));
            assert!(owner.contains(&format!("email={address}")), "{owner}");
        }
        // the links: named by id (the names are encrypted), with their times
        let links = o["links"].as_array().unwrap();
        let kinds = [
            "Proton Drive folder ",
            "Proton Drive file ",
            "Proton Drive album ",
        ];
        assert_eq!(kinds.iter().map(|k| count(k)).sum::<usize>(), links.len());
        for ln in links {
            let kind = match s(ln, "type").as_deref() {
                Some("1") => "folder",
                Some("2") => "file",
                _ => "album",
            };
            let id = s(ln, "id").unwrap();
            let p = titled(&all, &format!("Proton Drive {kind} {id}"));
            assert_eq!(p.category, "files");
            for k in ["state", "mime_type", "size", "signature_address"] {
                assert!(has_fact(p, &s(ln, k).unwrap()), "{k}: {p:#?}");
            }
            assert!(has_fact(p, "a PGP message"), "{p:#?}");
            let times: Vec<String> = ln["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        let shares = o["shares"].as_array().unwrap();
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Proton Drive share ")
                    && !p.title.contains(" shared by "))
                .count(),
            shares.len()
        );
        for sh in shares {
            let p = titled(
                &all,
                &format!("Proton Drive share {}", s(sh, "id").unwrap()),
            );
            for k in ["volume_id", "link_id", "creator_email"] {
                if let Some(v) = s(sh, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(sh, "creation_time").unwrap()]);
        }
        for m in o["memberships"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Proton Drive share {} shared by {}",
                    s(m, "share_id").unwrap(),
                    s(m, "inviter_email").unwrap()
                ),
            );
            assert!(has_fact(p, &s(m, "permissions").unwrap()), "{p:#?}");
            assert_eq!(time_values(p), vec![s(m, "create_time").unwrap()]);
        }
        // never a name, key or passphrase, in any output the run logged
        let markers: Vec<&str> = o["markers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        for (tool, args, text) in run.outputs(source) {
            for m in &markers {
                assert!(!text.contains(m), "{m} in {tool} {args}");
            }
        }
    }
    // phone A: who shared a folder with the account is a person; the account itself is not
    let entities = run.entities("a");
    assert!(
        entities
            .iter()
            .any(|e| e.starts_with("handle:tomas.kral@proton.example [Person]")),
        "{entities:#?}"
    );
    assert!(
        !entities
            .iter()
            .any(|e| e.starts_with("handle:jana.dvorak@proton.example")),
        "{entities:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/me.proton.android.drive/databases/db-drive",
                "malformed",
            ),
            (
                "user/11/me.proton.android.drive/databases/db-drive",
                "none of the tables",
            ),
        ],
    );
}
