//! Safari's favicons (`ios::favicons`), Google Translate (`ios::translate`), Splitwise
//! (`ios::splitwise`) and Messages' retention setting (`ios::messageretention`) on two iPhones,
//! written by `tests/fixtures/iosfavtrans/iosfavtrans.py` (Python's sqlite3 and plistlib, the
//! tables, columns and keys iLEAPP's safariFavicons, googleTranslate, splitwise and
//! messageRetention read). The generator's record is the oracle: every page with its icon and
//! time (Cocoa on iPhone A, Unix on B) and the icon no page names; every translation with its
//! languages and time (seconds and milliseconds), the starred phrase and the spoken one; every
//! Splitwise person as a `splitwise:` person with e-mail and phone, the expense with its cost,
//! each member's share, the balance, the group with its members; both retention keys. Another
//! app's `database.sqlite` is passed over without a note.

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed number is the oracle's.
fn same(printed: &str, v: &serde_json::Value) -> bool {
    printed.parse::<f64>().ok() == v.as_f64()
}

#[test]
fn favicons_translations_splitwise_and_retention_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosfavtrans/iosfavtrans.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        // favicons: each page with its icon and the time as stored
        let favs: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Safari favicon of "))
            .collect();
        let expected = o["favicons"].as_array().unwrap();
        assert_eq!(favs.len(), expected.len(), "{source}: {favs:#?}");
        for f in expected {
            let shown = f["page"].as_str().or(f["icon"].as_str()).unwrap();
            let p = titled(&all, &format!("Safari favicon of {shown}"));
            assert_eq!(p.category, "web");
            assert!(has_fact(p, f["icon"].as_str().unwrap()), "{p:#?}");
            assert_eq!(p.times.len(), 1, "{p:#?}");
            assert!(same(
                &p.verified_facts[p.times[0].fact].value,
                &f["timestamp"]
            ));
        }
        // translations
        for h in o["translate"]["history"].as_array().unwrap() {
            let text = h["sourcetext"].as_str().unwrap();
            let p = titled(&all, &format!("Translated with Google Translate: {text}"));
            for k in [
                "targettext",
                "sourcelanguage",
                "targetlanguage",
                "romanization",
            ] {
                if let Some(v) = h[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert_eq!(
                p.verified_facts[p.times[0].fact].value,
                h["timestamp"].to_string()
            );
            assert_eq!(p.interpretation.contains("starred"), h["star"] == 1);
        }
        for s in o["translate"]["starred"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Starred translation with Google Translate: {}",
                    s["sourcetext"].as_str().unwrap()
                ),
            );
            assert!(p.times.is_empty());
        }
        for s in o["translate"]["tts"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Spoken by Google Translate: {}",
                    s["text"].as_str().unwrap()
                ),
            );
            assert!(has_fact(p, &s["bytes"].to_string()), "{p:#?}");
        }
        // Splitwise persons as persons of their own
        let entities = run.entities(source);
        for person in o["splitwise"]["persons"].as_array().unwrap() {
            let email = person["email"].as_str().unwrap();
            let name = format!(
                "{} {}",
                person["firstName"].as_str().unwrap(),
                person["lastName"].as_str().unwrap()
            );
            let p = titled(&all, &format!("Splitwise person {name}"));
            assert!(has_fact(p, email));
            let id = person["personId"].to_string();
            let e = entities
                .iter()
                .find(|e| e.starts_with(&format!("splitwise:{id} [")))
                .unwrap_or_else(|| panic!("{entities:#?}"));
            assert!(e.contains(&format!("email={email}")), "{e}");
            if let Some(phone) = person["phone"].as_str() {
                assert!(e.contains(&phone[1..]), "{e}");
            }
        }
        // retention
        for (k, v) in o["retention"].as_object().unwrap() {
            let said = match v.as_i64().unwrap() {
                0 => "forever",
                30 => "30 days",
                _ => "1 year",
            };
            let p = titled(&all, &format!("Messages kept {said}"));
            assert!(has_fact(p, k) && has_fact(p, &v.to_string()));
        }
    }
    // iPhone A's expense, shares, balance and group
    let all = run.all_phenomena("a");
    let sw = &o["a"]["splitwise"];
    let e = &sw["expenses"][0];
    let p = titled(&all, "Splitwise expense: Warehouse rent June 18000.0 HKD");
    assert_eq!(p.category, "transactions");
    for k in ["cost", "category", "guid"] {
        assert!(has_fact(p, e[k].as_str().unwrap()), "{k}: {p:#?}");
    }
    assert!(has_fact(p, "Kowloon Bay unit") && has_fact(p, "Tai Man Chan"));
    assert!(has_fact(p, "chan.tai.man@example.org"));
    for m in sw["members"].as_array().unwrap() {
        let who = if m["sWPersonId"] == 1 {
            "Kwan Lok Ho"
        } else {
            "Tai Man Chan"
        };
        let p = titled(
            &all,
            &format!("Splitwise share of Warehouse rent June: {who}"),
        );
        assert!(has_fact(p, m["owedShare"].as_str().unwrap()));
        assert!(has_fact(p, m["paidShare"].as_str().unwrap()));
    }
    let bal = titled(&all, "Splitwise balance with Tai Man Chan");
    assert!(has_fact(bal, "-9000.0"), "{bal:#?}");
    let g = titled(&all, "Splitwise group Kowloon Bay unit");
    assert!(
        g.verified_facts.iter().any(
            |f| f.value.contains("Kwan Lok Ho (kwan.lok.ho@example.com)")
                && f.value.contains("Tai Man Chan")
        ),
        "{g:#?}"
    );
    // iPhone B: the older store's expense; another app's database.sqlite is not noted
    let all = run.all_phenomena("b");
    titled(&all, "Splitwise expense: Dinner 42.5 EUR");
    assert!(
        !run.unparsed("b")
            .iter()
            .any(|u| u.artefact.contains("B004")),
        "{:#?}",
        run.unparsed("b")
    );
}
