//! Two iPhones' SIM card history (`ios::simhistory`), AirDrop settings (`ios::airdrop`) and
//! iCloud Shared Albums (`ios::sharedalbums`), written by `tests/fixtures/sharing/sharing.py`
//! (sqlite3, plistlib; no public copy is in the corpus). The generator's record is the oracle:
//! every SIM card with its ICCID, number and time (the ICCIDs observed on the device, the numbers
//! the owner's; a subscriber id that is no ICCID recorded, not observed), the AirDrop ID and
//! mode, every album with its owner and counters, every person with their e-mail and name
//! (observed as people), the e-mails kept; a SIM card both phones held is an identifier of both.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn sim_history_airdrop_and_shared_albums_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/sharing/sharing.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let find = |title: &str| {
            all.iter().find(|p| p.title == title).unwrap_or_else(|| {
                panic!(
                    "{source}: {title} in {:#?}",
                    all.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            })
        };
        let ids = run.identifiers(source);
        let o = &o[source];
        for sim in o["sims"].as_array().unwrap() {
            let iccid = s(&sim["iccid"]);
            let p = find(&format!("SIM card {iccid} (slot {})", sim["slot"]));
            assert!(has_fact(p, &iccid), "{p:#?}");
            assert_eq!(p.times.len(), 1, "{p:#?}");
            let observed = ids.contains(&("iccid".into(), iccid.clone()));
            assert_eq!(observed, iccid.starts_with("89"), "{iccid} in {ids:?}");
            if let Some(mdn) = sim["mdn"].as_str() {
                assert!(has_fact(p, mdn));
                assert!(
                    run.owner(source).contains(&format!("phone={mdn}")),
                    "{}",
                    run.owner(source)
                );
            } else {
                assert!(p.interpretation.contains("subscriber id (not an ICCID)"));
            }
        }
        let airdrop = &o["airdrop"];
        let p = find(&format!("AirDrop ID {}", s(&airdrop["AirDropID"])));
        assert!(has_fact(p, &s(&airdrop["DiscoverableMode"])), "{p:#?}");
        for al in o["albums"].as_array().unwrap() {
            let p = find(&format!("iCloud Shared Album {}", s(&al["title"])));
            for v in [
                s(&al["id"]),
                s(&al["owner_email"]),
                s(&al["hashed"]),
                al["file"].to_string(),
                al["dir"].to_string(),
            ] {
                assert!(has_fact(p, &v), "{v}: {p:#?}");
            }
            assert_eq!(p.times.len(), 1, "{p:#?}");
            assert!(p.interpretation.contains("Lena Meier"));
        }
        for (id, person) in o["persons"].as_object().unwrap() {
            let p = find(&format!(
                "iCloud Shared Albums person: {}",
                s(&person["fullName"])
            ));
            assert!(has_fact(p, id));
            let email = person["emails"][0]
                .as_str()
                .or(person["email"].as_str())
                .unwrap();
            assert!(has_fact(p, email));
            assert!(
                ids.contains(&("email".into(), email.into())),
                "{email} in {ids:?}"
            );
        }
        assert!(
            ids.contains(&("display_name".into(), "lena meier".into())),
            "{ids:?}"
        );
        let p = find("iCloud Shared Albums e-mails");
        for (k, v) in o["emails"].as_object().unwrap() {
            assert!(has_fact(p, k) && has_fact(p, v.as_str().unwrap()), "{p:#?}");
        }
    }
    // the card phone A held before phone B: an identifier of both devices
    let moved = "8941000098765432109".to_string();
    for source in ["a", "b"] {
        assert!(
            run.identifiers(source)
                .contains(&("iccid".into(), moved.clone()))
        );
    }
}
