//! The demo case end to end, against its ground truth (tests/fixtures/demo/ground_truth.json):
//! the actors are exactly the planted people (every planted cross-device link found, the
//! look-alike decoy not merged), each device's owner is supported, the WAL-only iMessages are
//! on the timeline at their instants, and `masf verify` re-derives everything.

use serde_json::Value;

use crate::support::{masf_ok, repo};

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// The decoy's card is `LEUNG Y L` (shown First Last as `Y L LEUNG`): its name tokens.
fn is_decoy(label: &Value) -> bool {
    let mut tokens: Vec<String> = label
        .as_str()
        .unwrap_or("")
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    tokens.sort();
    tokens == ["l", "leung", "y"]
}

#[test]
fn the_demo_case_resolves_to_the_planted_people() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let out = dir.path().join("out");
    let case = repo().join("case.yaml");
    let (case, work_s, out_s) = (
        case.to_str().unwrap(),
        work.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    masf_ok(&["run", case, "--work", work_s, "--out", out_s]);
    let truth: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tests/fixtures/demo/ground_truth.json")).unwrap(),
    )
    .unwrap();
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();

    // Person actors (entities joined across sources) and their identifiers.
    let actors: Value =
        serde_json::from_str(&masf_ok(&["actors", case, "--work", work_s, "--json"])).unwrap();
    let person_actors: Vec<&Value> = actors
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["entities"].as_array().unwrap().len() > 1)
        .filter(|a| {
            a["identifiers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|i| i["id_type"] == "phone" || i["id_type"] == "email")
        })
        .collect();
    let ids_of = |a: &Value| -> Vec<String> {
        a["identifiers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["normalized"].as_str().unwrap().to_string())
            .collect()
    };
    let expected_sources = [
        (
            "leung",
            vec!["src-android", "src-iphone", "src-screens", "src-usb"],
        ),
        // CHAN's TRON wallet (his own outgoing SMS) brings in the payment instructions on
        // the USB stick and the TronLink screenshot that hold it.
        (
            "chan",
            vec!["src-android", "src-iphone", "src-screens", "src-usb"],
        ),
        // FUNG's BTC wallet (his outgoing iMessage, the SMS CHAN received from his number)
        // brings in the wallet screenshot.
        ("fung", vec!["src-android", "src-iphone", "src-screens"]),
    ];
    // Each planted wallet is attributed to its holder (issue 16, part 4) and no one else.
    let wallet_of = [
        ("leung", truth["wallets"]["leung_eth"].as_str().unwrap()),
        ("chan", truth["wallets"]["chan_tron"].as_str().unwrap()),
        ("fung", truth["wallets"]["fung_btc"].as_str().unwrap()),
    ];
    assert_eq!(
        person_actors.len(),
        3,
        "exactly the three planted people: {person_actors:#?}"
    );
    for (person, sources) in expected_sources {
        let p = &truth["persons"][person];
        let phone = p["phone_e164"].as_str().unwrap();
        let email = p["email"].as_str().unwrap();
        let actor = person_actors
            .iter()
            .find(|a| ids_of(a).iter().any(|i| i == phone))
            .unwrap_or_else(|| panic!("no actor holds {person}'s phone {phone}"));
        let ids = ids_of(actor);
        assert!(ids.iter().any(|i| i == email), "{person}: {ids:?}");
        // The wallet entities themselves (not only the claim a person entity holds) joined.
        let members = strings(&actor["entities"]);
        for (holder, wallet) in wallet_of {
            let context = format!("wallet:{}", wallet.to_lowercase());
            let entities: Vec<String> = report["entities"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["context"].as_str().unwrap().to_lowercase() == context)
                .map(|e| e["id"].as_str().unwrap().to_string())
                .collect();
            assert!(
                !entities.is_empty(),
                "no wallet entity for {holder}'s {wallet}"
            );
            for e in &entities {
                assert_eq!(
                    members.contains(e),
                    holder == person,
                    "{person}'s actor and {holder}'s wallet entity {e}: {members:?}"
                );
            }
        }
        assert_eq!(strings(&actor["sources"]), sources, "{person}'s sources");
        // No actor mixes two planted people, and the decoy stays out.
        for other in ["leung", "chan", "fung"].iter().filter(|o| **o != person) {
            let theirs = truth["persons"][other]["phone_e164"].as_str().unwrap();
            assert!(
                !ids.iter().any(|i| i == theirs),
                "{person} merged with {other}"
            );
        }
        let decoy = truth["decoy"]["phone_e164"].as_str().unwrap();
        assert!(
            !ids.iter().any(|i| i == decoy),
            "{person} merged with the decoy"
        );
    }
    // The payment instructions on the USB stick name CHAN's phone and LEUNG's e-mail: the
    // mention bridges two people, so it joins neither actor and the report lists it under both.
    let mention = report["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["context"] == "document:/Documents/Payment_Instructions.docx")
        .expect("the payment instructions' person mention");
    let mention_id = mention["id"].as_str().unwrap();
    for person in ["chan", "leung"] {
        let phone = truth["persons"][person]["phone_e164"].as_str().unwrap();
        let row = report["actors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| {
                a["identifiers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|i| i["normalized"] == phone)
            })
            .unwrap_or_else(|| panic!("no report actor holds {person}'s phone"));
        assert!(
            strings(&row["mentioned_in"]).contains(&mention_id.to_string()),
            "{person}'s report actor does not list the bridging mention: {row:#}"
        );
        assert!(!strings(&row["entity_ids"]).contains(&mention_id.to_string()));
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("also mentioned in"));
    // Hypotheses read in words: each entity id a statement names is followed by its label and
    // sources (the JSON keeps the bare statement).
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let coref = report["hypotheses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["kind"] == "coreference")
        .expect("a coreference hypothesis");
    let statement = coref["statement"].as_str().unwrap();
    let first = statement.split_whitespace().next().unwrap();
    let entity = report["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == first)
        .unwrap();
    let worded = format!(
        "{first} ({}, {})",
        entity["label"].as_str().unwrap(),
        strings(&entity["source_ids"]).join(", ")
    );
    assert!(md.contains(&worded), "{worded} not in report.md");

    // The decoy pair was proposed (similar names) and stayed a candidate.
    let links: Value =
        serde_json::from_str(&masf_ok(&["links", case, "--work", work_s, "--json"])).unwrap();
    let decoy_pairs: Vec<&Value> = links
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| is_decoy(&l["a"]["label"]) || is_decoy(&l["b"]["label"]))
        .filter(|l| {
            ["a", "b"]
                .iter()
                .all(|s| !l[s]["context"].as_str().unwrap().starts_with("document:"))
        })
        .collect();
    assert!(!decoy_pairs.is_empty(), "the look-alike is proposed");
    for l in decoy_pairs {
        assert!(
            l["state"] == "candidate" || l["state"] == "dormant",
            "decoy link {l:#}"
        );
    }

    // Every device's declared owner is supported.
    for (person, source) in [
        ("leung", "src-usb"),
        ("chan", "src-android"),
        ("fung", "src-iphone"),
    ] {
        let h = report["hypotheses"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| {
                h["kind"] == "ownership"
                    && h["statement"]
                        .as_str()
                        .unwrap()
                        .contains(&format!("({person})"))
                    && h["statement"]
                        .as_str()
                        .unwrap()
                        .ends_with(&format!("({source})"))
            })
            .unwrap_or_else(|| panic!("no ownership hypothesis for {person} / {source}"));
        assert_eq!(h["status"], "supported", "{h:#}");
    }

    // The WAL-only iMessages are on the timeline at their instants.
    for m in truth["wal_only"].as_array().unwrap() {
        if m["table"] != "message" {
            continue;
        }
        let raw = m["date_apple_ns"].to_string();
        let entry = report["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["raw"] == raw.as_str() && t["source_id"] == "src-iphone")
            .unwrap_or_else(|| panic!("WAL-only message {} not on the timeline", m["ROWID"]));
        assert_eq!(entry["encoding"], "apple_nanos");
        let hkt = m["date_hkt"].as_str().unwrap().replace(' ', "T");
        assert!(
            entry["case_time"].as_str().unwrap().starts_with(&hkt),
            "{entry:#} vs {hkt}"
        );
    }

    // LEUNG's timeline (filtered by his actor) holds the WAL-only messages he exchanged, and
    // nothing from CHAN's own phone that does not mention him.
    let leung_phone = truth["persons"]["leung"]["phone_e164"].as_str().unwrap();
    let leung_actor = person_actors
        .iter()
        .find(|a| ids_of(a).iter().any(|i| i == leung_phone))
        .unwrap();
    let leung_timeline: Value = serde_json::from_str(&masf_ok(&[
        "timeline",
        case,
        "--work",
        work_s,
        "--json",
        "--actor",
        leung_actor["id"].as_str().unwrap(),
    ]))
    .unwrap();
    let entries = leung_timeline["entries"].as_array().unwrap();
    assert!(!entries.is_empty());
    for m in truth["wal_only"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["table"] == "message")
    {
        let raw = m["date_apple_ns"].to_string();
        assert!(
            entries.iter().any(|e| e["raw_value"] == raw.as_str()),
            "LEUNG's timeline lacks WAL-only message {}",
            m["ROWID"]
        );
    }
    let all: Value =
        serde_json::from_str(&masf_ok(&["timeline", case, "--work", work_s, "--json"])).unwrap();
    assert!(entries.len() < all["entries"].as_array().unwrap().len());

    // Everything re-derives.
    let verify: Value =
        serde_json::from_str(&masf_ok(&["verify", case, "--work", work_s, "--json"])).unwrap();
    assert_eq!(verify["failures"].as_array().unwrap().len(), 0);
    assert_eq!(verify["fact_failures"].as_array().unwrap().len(), 0);
    assert!(verify["facts"].as_u64().unwrap() > 300);
}
