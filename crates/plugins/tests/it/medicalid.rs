//! Medical ID (`ios::medicalid`): two iPhones' `MedicalIDData.archive`, keyed archives written by
//! `tests/fixtures/medicalid/medicalid.py` (tests/fixtures/keyedarchive.py over plistlib; no
//! public copy is in the corpus). The generator's record is the oracle: every value the user
//! entered is found (measurements with their units), each emergency contact with name, number
//! and relationship, observed as a person by number with the name; the Medical ID's name is the
//! owner's; phone B has no emergency contact.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn medical_id_with_its_emergency_contacts_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/medicalid/medicalid.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let o = &o[source];
        let id = all
            .iter()
            .find(|p| p.title == "Medical ID")
            .unwrap_or_else(|| panic!("{source}: no Medical ID"));
        for (k, v) in o["values"].as_object().unwrap() {
            let v = v.as_str().unwrap();
            assert!(has_fact(id, v), "{source} {k} {v}: {id:#?}");
        }
        let name = o["values"]["HKMedicalIDDataNameKey"].as_str().unwrap();
        assert!(
            run.owner(source)
                .contains(&format!("display_name={}", name.to_lowercase())),
            "{}",
            run.owner(source)
        );
        let contacts = o["contacts"].as_array().unwrap();
        assert!(
            id.interpretation
                .contains(&format!("{} emergency contact(s)", contacts.len()))
        );
        let ids = run.identifiers(source);
        for c in contacts {
            let cname = c["name"].as_str().unwrap();
            let p = all
                .iter()
                .find(|p| p.title == format!("Medical ID emergency contact: {cname}"))
                .unwrap_or_else(|| panic!("{cname}"));
            for k in ["phoneNumber", "relationship"] {
                assert!(has_fact(p, c[k].as_str().unwrap()), "{k}: {p:#?}");
            }
            assert!(
                ids.contains(&("display_name".into(), cname.to_lowercase())),
                "{cname} in {ids:?}"
            );
        }
        assert_eq!(
            ids.iter().filter(|(t, _)| t == "phone").count(),
            contacts.len(),
            "{ids:?}"
        );
    }
    let a_all = run.all_phenomena("a");
    let id = a_all.iter().find(|p| p.title == "Medical ID").unwrap();
    assert!(
        id.interpretation.contains("Height 168.0 cm")
            && id.interpretation.contains("Weight 61.5 kg"),
        "{}",
        id.interpretation
    );
    assert!(
        id.interpretation.contains("NS.year 1990"),
        "{}",
        id.interpretation
    );
    assert_eq!(id.times.len(), 1);
}
