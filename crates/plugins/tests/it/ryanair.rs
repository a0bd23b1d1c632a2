//! Ryanair's local store (`android::ryanair`) on two Android phones, written by
//! `tests/fixtures/ryanair/ryanair.py` (Python's sqlite3 and json, the tables, columns and JSON
//! members ALEAPP's ryanair reads). The generator's record is the oracle: the profile with its
//! e-mail, phone and name observed as the owner's and a birth date before 1970; every flight of
//! the bookings with number, airports, departure and arrival; every passenger with the record
//! locator and check-in; an older profile table read; a booking whose JSON is cut passed over.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn ryanair_profile_flights_and_passengers_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/ryanair/ryanair.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Dublin", Some("IE")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let prof = &o["profile"];
        let email = prof["email"].as_str().unwrap();
        let p = titled(&all, &format!("Ryanair account {email}"));
        for k in [
            "first_name",
            "last_name",
            "phone_number",
            "nationality_code",
        ] {
            assert!(has_fact(p, prof[k].as_str().unwrap()), "{k}: {p:#?}");
        }
        let born = p
            .times
            .iter()
            .find(|t| t.description == "Date of birth (Ryanair profile)")
            .unwrap();
        assert_eq!(
            p.verified_facts[born.fact].value,
            prof["birth_date"].as_str().unwrap()
        );
        let owner = run.owner(source);
        assert!(owner.contains(&format!("email={email}")), "{owner}");
        let digits = format!(
            "{}{}",
            prof["country_calling_code"].as_str().unwrap(),
            prof["phone_number"].as_str().unwrap()
        );
        assert!(owner.contains(&digits), "{digits}: {owner}");
        let bk = &o["booking"];
        let locator = bk["recordLocator"].as_str().unwrap();
        for f in bk["flights"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Ryanair flight {} {}-{}",
                    f["flightNumber"].as_str().unwrap(),
                    f["origin"].as_str().unwrap(),
                    f["destination"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, locator));
            assert!(has_fact(p, f["times"]["depart"].as_str().unwrap()));
            let times: Vec<(&str, &str)> = p
                .times
                .iter()
                .map(|t| {
                    (
                        t.description.as_str(),
                        p.verified_facts[t.fact].value.as_str(),
                    )
                })
                .collect();
            assert!(times.contains(&("Flight departs", f["depart"].as_str().unwrap())));
            assert!(times.contains(&("Flight arrives", f["arrive"].as_str().unwrap())));
        }
        for pax in bk["passengers"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Ryanair passenger {} {} ({locator})",
                    pax["firstName"].as_str().unwrap(),
                    pax["lastName"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "contacts");
        }
    }
    // the checked-in companion on phone A
    let all = run.all_phenomena("a");
    let aoife = titled(&all, "Ryanair passenger Aoife Kelly (K7QX2P)");
    assert!(has_fact(aoife, "journey 0: CheckedIn"), "{aoife:#?}");
    // the cut booking yields no flight
    assert!(
        !run.all_phenomena("b")
            .iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value == "CUT"))
    );
}
