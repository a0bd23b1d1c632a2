//! SBB Mobile's store on Android (`android::sbb`) on two phones, written by
//! `tests/fixtures/sbb/sbb.py` (Python's sqlite3, the tables and columns ALEAPP's sbbmobile reads).
//! The generator's record is the oracle: every connection searched with its places, types and
//! time; every searched place; the travel card with its contract; every ticket with its traveller
//! (a fact, never an identity), route, payment and validity; phone B's older generation read; a
//! truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn sbb_mobile_searches_places_cards_and_tickets_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/sbb/sbb.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let searches = o["searches"].as_array().unwrap();
        assert_eq!(count("SBB Mobile search from "), searches.len());
        for se in searches {
            let p = titled(
                &all,
                &format!(
                    "SBB Mobile search from {} to {}",
                    s(se, "departure").unwrap(),
                    s(se, "target").unwrap()
                ),
            );
            assert_eq!(p.category, "locations");
            for k in ["departureType", "targetType", "latitude", "longitude"] {
                if let Some(v) = s(se, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(se, "timestamp").unwrap()]);
        }
        let places = o["places"].as_array().unwrap();
        assert_eq!(count("SBB Mobile place "), places.len());
        for pl in places {
            let p = titled(
                &all,
                &format!("SBB Mobile place {}", s(pl, "title").unwrap()),
            );
            for k in ["favorite", "type", "latitude", "longitude"] {
                assert!(has_fact(p, &s(pl, k).unwrap()), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(pl, "timestamp").unwrap()]);
        }
        let cards = o["cards"].as_array().unwrap();
        assert_eq!(count("SBB Mobile travel card "), cards.len());
        for c in cards {
            let p = titled(
                &all,
                &format!("SBB Mobile travel card {}", s(c, "name").unwrap()),
            );
            assert_eq!(p.category, "accounts");
            for k in ["contract_id", "contract_state", "valid_from", "valid_to"] {
                assert!(has_fact(p, &s(c, k).unwrap()), "{k}: {p:#?}");
            }
            assert!(time_values(p).is_empty(), "a date alone is no time: {p:#?}");
        }
        let tickets = o["tickets"].as_array().unwrap();
        assert_eq!(count("SBB Mobile ticket "), tickets.len());
        for tk in tickets {
            let p = titled(
                &all,
                &format!(
                    "SBB Mobile ticket {} to {}",
                    s(tk, "displayInfo_titleLine_firstSegment").unwrap(),
                    s(tk, "displayInfo_titleLine_lastSegment").unwrap()
                ),
            );
            assert_eq!(p.category, "transactions");
            for k in [
                "traveler",
                "displayInfo_ticketType",
                "paymentMethodType",
                "refundState",
            ] {
                if let Some(v) = s(tk, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let mut times = vec![s(tk, "validFrom").unwrap(), s(tk, "validUntil").unwrap()];
            times.sort();
            assert_eq!(time_values(p), times);
            // the traveller is a fact, not an identity
            let traveler = s(tk, "traveler").unwrap();
            assert!(
                !run.entities(source).iter().any(|e| e.contains(&traveler)),
                "{traveler}: {:#?}",
                run.entities(source)
            );
        }
    }
    // phone A: the refunded ticket as stored
    let all = run.all_phenomena("a");
    let refunded = titled(&all, "SBB Mobile ticket Lausanne to Zermatt");
    assert!(
        has_fact(refunded, "COMPLETE") && has_fact(refunded, "CREDIT_CARD"),
        "{refunded:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/ch.sbb.mobile.android.b2c/databases/SbbMobile.db",
                "malformed",
            ),
            (
                "user/11/ch.sbb.mobile.android.b2c/databases/SbbMobile.db",
                "none of the tables",
            ),
        ],
    );
}
