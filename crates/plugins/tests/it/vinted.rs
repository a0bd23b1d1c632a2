//! Vinted's store (`android::vinted`) on two Android phones, written by
//! `tests/fixtures/vinted/vinted.py` (Python's sqlite3 and json, the tables, columns and JSON
//! members ALEAPP's vinted reads). The generator's record is the oracle: every cached listing
//! with its title, price, seller and times; every favourite (titled from the cached listing or
//! by its id); the feedback with its author, rating, text and reply; each seller, author and
//! replier a `vinted:` person (the seller on both phones); the older store without favourites;
//! a cut listing document read as NULLs while the rest is read.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn vinted_listings_favourites_and_feedback_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/vinted/vinted.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Paris", Some("FR")),
        ("b", &b, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        for it in o[source]["items"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Vinted listing {}", it["title"].as_str().unwrap()),
            );
            assert_eq!(p.category, "transactions");
            for v in [
                it["price"]["amount"].as_str().unwrap(),
                it["user"]["login"].as_str().unwrap(),
                it["url"].as_str().unwrap(),
                it["brand_dto"]["title"].as_str().unwrap(),
            ] {
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
            assert!(time_values(p).contains(&it["created_at_ts"].as_str().unwrap().to_string()));
        }
        // the seller marie_l (9001) is a person on both phones
        assert!(
            run.entities(source)
                .iter()
                .any(|e| e.starts_with("vinted:9001 [Person] marie_l")),
            "{:#?}",
            run.entities(source)
        );
    }
    let all = run.all_phenomena("a");
    titled(&all, "Vinted favourite Leather jacket");
    let tracked = titled(&all, "Vinted favourite 4999");
    assert!(has_fact(tracked, "0"));
    let fb = &o["a"]["feedback"];
    let p = titled(&all, "Vinted feedback by tomvelo");
    assert_eq!(p.category, "contacts");
    for v in ["Fast shipping, thanks!", "Thank you!", "anna_k", "7001"] {
        assert!(has_fact(p, v), "{v}: {p:#?}");
    }
    assert!(time_values(p).contains(&fb["created_at_ts"].as_str().unwrap().to_string()));
    assert!(time_values(p).contains(&"1712730000000".to_string()));
    let entities = run.entities("a");
    for who in [
        "vinted:9002 [Person] tomvelo",
        "vinted:7001 [Person] anna_k",
    ] {
        assert!(
            entities.iter().any(|e| e.starts_with(who)),
            "{who}: {entities:#?}"
        );
    }
    // phone B: no favourites table, the cut listing read as its id
    let all = run.all_phenomena("b");
    assert!(!all.iter().any(|p| p.title.starts_with("Vinted favourite")));
    titled(&all, "Vinted listing 5202");
}
