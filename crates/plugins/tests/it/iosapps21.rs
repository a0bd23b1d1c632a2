//! privacyaccountingd's streams (`ios::privacyaccounting`), CoreDuet's contacts autocomplete
//! feedback (`ios::cnafeedback`), the myAudi trip cache (`ios::auditrip`) and Lidl Plus' URL
//! cache (`ios::lidlplus`) on three iPhones, written by
//! `tests/fixtures/iosapps21/iosapps21.py` (Google's protobuf runtime for the access records,
//! plistlib for the feedback records — plain on iPhone A, NSKeyedArchiver archives on B —, SEGB
//! framed after CCL Solutions' layout as the Biome fixture frames it; Python's sqlite3 for the
//! CFNetwork `Cache.db` tables; JSON for the cached responses; the field numbers, keys, members and
//! endpoints iLEAPP's privacyAccounting, cnaAutocompleteFeedback, audiTripdata and lidl_plus
//! read). The generator's record is the oracle: every access record with its app, identifier
//! type, service, kind and access id (a deleted record whose payload was zeroed by its time; one
//! still holding its payload said deleted); every feedback record with its app, type, texts,
//! suggestions and recipients, both times, each recipient a person by its handle (or its
//! address-book person id) and never the owner; every Audi trip with iLEAPP's members, its
//! timestamp and, where `Cache.db` lists its file, the VIN its request address names, and one
//! vehicle per VIN; every Lidl ticket, receipt and receipt article with its store, amounts and
//! purchase time, from files (A) or from the database (B), and the loyalty card (the owner's)
//! cut from the payment QR — which appears in no output. Tree C: cut, foreign and broken copies
//! of each (noted) beside good records (read), and other apps' files of the same names (neither
//! read nor noted).

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed value is the oracle's (a number compared as one, a text as written).
fn same(printed: &str, v: &serde_json::Value) -> bool {
    let want = match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    printed == want
        || matches!((printed.parse::<f64>(), want.parse::<f64>()), (Ok(a), Ok(b)) if a == b)
}

/// Whether `p` holds a fact that is the oracle's value `v`.
fn has(p: &masf_graph::Phenomenon, v: &serde_json::Value) -> bool {
    p.verified_facts.iter().any(|f| same(&f.value, v))
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// Asserts that the time `what` of `p` is the oracle's `v`.
fn time_is(p: &masf_graph::Phenomenon, what: &str, v: &serde_json::Value) {
    let t = time_of(p, what).unwrap_or_else(|| panic!("{what}: {p:#?}"));
    assert!(same(t, v), "{what}: {t} vs {v}");
}

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

/// The rows of the oracle's list `key` of `tree`.
fn rows<'a>(o: &'a serde_json::Value, tree: &str, key: &str) -> &'a Vec<serde_json::Value> {
    o[tree][key].as_array().unwrap()
}

/// The phenomenon of `all` titled `title` whose time `what` is `t`.
fn titled_at<'a>(
    all: &'a [masf_graph::Phenomenon],
    title: &str,
    what: &str,
    t: &serde_json::Value,
) -> &'a masf_graph::Phenomenon {
    all.iter()
        .find(|p| p.title == title && time_of(p, what).is_some_and(|v| same(v, t)))
        .unwrap_or_else(|| {
            panic!(
                "{title} at {t}: {:#?}",
                all.iter().map(|p| &p.title).collect::<Vec<_>>()
            )
        })
}

/// The privacy accounting record's title.
fn access_title(r: &serde_json::Value) -> String {
    if r["zeroed"].as_bool() == Some(true) {
        return format!(
            "Privacy accounting {} record deleted (payload gone)",
            s(&r["stream"])
        );
    }
    format!(
        "Privacy accounting {} access by {}{}{}{}",
        s(&r["stream"]),
        s(&r["client"]),
        r["service"]
            .as_str()
            .map(|x| format!(" to {x}"))
            .unwrap_or_default(),
        r["kind"]
            .as_str()
            .map(|k| format!(" (kind {k})"))
            .unwrap_or_default(),
        if r["deleted"].as_bool().unwrap() {
            " (a deleted record)"
        } else {
            ""
        },
    )
}

/// Checks the privacy accounting records of `source` against the oracle's `rows`.
fn privacy(run: &crate::android_support::Run, source: &str, rows: &[serde_json::Value]) {
    let all = run.all_phenomena(source);
    let found: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Privacy accounting "))
        .collect();
    assert_eq!(found.len(), rows.len(), "{source}: {found:#?}");
    for r in rows {
        let p = titled_at(
            &all,
            &access_title(r),
            "Protected resource access recorded (privacy accounting)",
            &r["time"],
        );
        assert_eq!(p.category, "usage");
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        if r["zeroed"].as_bool() == Some(true) {
            assert!(p.interpretation.contains("no longer readable"), "{p:#?}");
            continue;
        }
        for k in ["client", "id_type", "access", "kind", "service"] {
            if let Some(v) = r[k].as_str() {
                assert!(has_fact(p, v), "{source} {k} {v}: {p:#?}");
            }
        }
        assert_eq!(
            p.interpretation.contains("(deleted"),
            r["deleted"].as_bool().unwrap(),
            "{}",
            p.interpretation
        );
    }
}

/// Checks the contacts autocomplete records of `source` against the oracle's `rows`.
fn feedback(run: &crate::android_support::Run, source: &str, rows: &[serde_json::Value]) {
    let all = run.all_phenomena(source);
    let found: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Contacts autocomplete in "))
        .collect();
    assert_eq!(found.len(), rows.len(), "{source}: {found:#?}");
    for r in rows {
        let word = r["word"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("feedback type {}", s(&r["type"])));
        let title = format!(
            "Contacts autocomplete in {}: {word}{}",
            s(&r["app"]),
            if r["deleted"].as_bool().unwrap() {
                " (a deleted record)"
            } else {
                ""
            }
        );
        let p = titled_at(
            &all,
            &title,
            "Contacts autocomplete feedback recorded",
            &r["time"],
        );
        assert_eq!(p.category, "contacts");
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        time_is(p, "Contacts autocomplete feedback reported", &r["report"]);
        assert!(
            has_fact(p, s(&r["app"])) && has_fact(p, s(&r["type"])),
            "{p:#?}"
        );
        for v in r["texts"].as_array().unwrap() {
            assert!(has_fact(p, s(v)), "{source} {v}: {p:#?}");
        }
        assert!(
            p.interpretation
                .contains(&format!("implicit {}", r["implicit"].as_bool().unwrap())),
            "{}",
            p.interpretation
        );
    }
    // every recipient a person of its own (by handle, or by person id), never the owner
    let entities = run.entities(source);
    let owner = run.owner(source);
    for r in rows {
        for who in r["recipients"].as_array().unwrap() {
            let name = s(&who["displayName"]).to_lowercase();
            let e = match who["handle"].as_str() {
                Some(h) => {
                    let bare = h.trim_start_matches('+').to_lowercase();
                    assert!(!owner.contains(&bare), "{h} in {owner}");
                    entities
                        .iter()
                        .find(|e| e.contains(&bare) && !e.starts_with("owner ["))
                        .unwrap_or_else(|| panic!("{h}: {entities:#?}"))
                }
                None => {
                    let guid = s(&who["identifier"]).split(':').next().unwrap();
                    entities
                        .iter()
                        .find(|e| e.starts_with(&format!("cna-contact:{guid}")))
                        .unwrap_or_else(|| panic!("{guid}: {entities:#?}"))
                }
            };
            assert!(e.to_lowercase().contains(&name), "{name}: {e}");
            let id = s(&who["identifier"]);
            if id.ends_with(":ABPerson") {
                let guid = id.split(':').next().unwrap();
                assert!(e.contains(&format!("contact_guid={guid}")), "{e}");
            }
        }
    }
    // a handle typed is a fact, never an identity
    assert!(
        !run.identifiers(source)
            .iter()
            .any(|(_, v)| v == "+35191" || v == "+3519"),
        "{:?}",
        run.identifiers(source)
    );
}

/// Checks the myAudi trips and vehicles of `source`.
fn audi(run: &crate::android_support::Run, source: &str, o: &serde_json::Value) {
    let all = run.all_phenomena(source);
    let trips = rows(o, source, "trips");
    let found: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("myAudi trip "))
        .collect();
    assert_eq!(found.len(), trips.len(), "{source}: {found:#?}");
    for r in trips {
        let title = format!(
            "myAudi trip {} ({}) at {}",
            s(&r["tripID"]),
            s(&r["tripType"]),
            s(&r["timestamp"])
        );
        let p = titled(&all, &title);
        assert_eq!(p.category, "locations");
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        for k in [
            "tripID",
            "tripType",
            "reportReason",
            "averageSpeed",
            "traveltime",
            "startMileage",
            "mileage",
            "overallMileage",
            "averageFuelConsumption",
            "averageElectricEngineConsumption",
            "zeroEmissionDistance",
        ] {
            if !r[k].is_null() {
                assert!(has(p, &r[k]), "{source} {k}: {p:#?}");
            }
        }
        time_is(p, "myAudi trip reported", &r["timestamp"]);
        assert!(
            p.verified_facts
                .iter()
                .any(|f| f.value.ends_with(s(&r["file"])))
        );
        match r["vin"].as_str() {
            Some(vin) => {
                assert!(has_fact(p, vin) && has_fact(p, s(&r["url"])), "{p:#?}");
                time_is(p, "myAudi trip response cached", &r["cached"]);
            }
            None => {
                assert!(time_of(p, "myAudi trip response cached").is_none());
                assert!(p.interpretation.contains("lists no request"), "{p:#?}");
            }
        }
    }
    let vehicles = o[source]["vehicles"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("myAudi vehicle "))
            .count(),
        vehicles.len()
    );
    for v in &vehicles {
        let p = titled(&all, &format!("myAudi vehicle {}", s(&v["vin"])));
        assert_eq!(p.category, "device");
        assert!(has_fact(p, s(&v["vin"])) && has_fact(p, s(&v["responses"])));
        time_is(
            p,
            "myAudi response about the vehicle first cached",
            &v["first"],
        );
        time_is(
            p,
            "myAudi response about the vehicle last cached",
            &v["last"],
        );
        // the VIN is a fact, never an identity
        assert!(
            !run.identifiers(source)
                .iter()
                .any(|(_, i)| i.contains(&s(&v["vin"]).to_lowercase()) || i.contains(s(&v["vin"]))),
            "{:?}",
            run.identifiers(source)
        );
    }
}

/// Checks the Lidl Plus tickets, receipts and loyalty card of `source`.
fn lidl(run: &crate::android_support::Run, source: &str, o: &serde_json::Value) {
    let all = run.all_phenomena(source);
    let tickets = rows(o, source, "tickets");
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("Lidl Plus ticket "))
            .count(),
        tickets.len(),
        "{source}"
    );
    for r in tickets {
        let p = titled(
            &all,
            &format!(
                "Lidl Plus ticket {} (store {})",
                s(&r["id"]),
                s(&r["store"])
            ),
        );
        assert_eq!(p.category, "transactions");
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        for k in [
            "id", "store", "total", "currency", "articles", "coupons", "returns", "url",
        ] {
            if !r[k].is_null() {
                assert!(has(p, &r[k]), "{source} {k}: {p:#?}");
            }
        }
        time_is(p, "Lidl Plus purchase", &r["date"]);
        time_is(p, "Lidl Plus response cached", &r["cached"]);
    }
    let receipts = o[source]["receipts"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("Lidl Plus receipt ")
                && !p.title.starts_with("Lidl Plus receipt item "))
            .count(),
        receipts.len()
    );
    for r in &receipts {
        let store = &r["store"];
        let p = titled(
            &all,
            &format!("Lidl Plus receipt {} at {}", s(&r["id"]), s(&store["name"])),
        );
        assert_eq!(p.category, "transactions");
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        for v in [&r["id"], &r["barcode"], &r["total"], &r["url"]] {
            assert!(has(p, v), "{v}: {p:#?}");
        }
        for k in ["id", "name", "address", "postalCode", "locality"] {
            assert!(has_fact(p, s(&store[k])), "{k}: {p:#?}");
        }
        assert!(
            p.interpretation
                .contains(&format!("{} coupon(s) used", s(&r["coupons"]))),
            "{}",
            p.interpretation
        );
        time_is(p, "Lidl Plus purchase", &r["date"]);
        time_is(p, "Lidl Plus response cached", &r["cached"]);
        let items = r["items"].as_array().unwrap();
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Lidl Plus receipt item ")
                    && p.title.ends_with(&format!("(ticket {})", s(&r["id"]))))
                .count(),
            items.len()
        );
        for it in items {
            let p = titled(
                &all,
                &format!(
                    "Lidl Plus receipt item {} (ticket {})",
                    s(&it["description"]),
                    s(&r["id"])
                ),
            );
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            assert!(has_fact(p, s(&it["description"])), "{p:#?}");
            for v in it["facts"].as_array().unwrap() {
                assert!(has_fact(p, s(v)), "{v}: {p:#?}");
            }
            time_is(p, "Lidl Plus purchase", &r["date"]);
        }
    }
    let cards: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Lidl Plus loyalty card "))
        .collect();
    match o[source]["card"].as_object() {
        Some(c) => {
            let number = c["number"].as_str().unwrap();
            let p = titled(&all, &format!("Lidl Plus loyalty card {number}"));
            assert_eq!(p.category, "accounts");
            assert!(has_fact(p, number));
            time_is(p, "Lidl Plus payment QR cached", &c["cached"]);
            let owner = run.owner(source);
            assert!(owner.contains(&format!("lidlplus:{number}")), "{owner}");
        }
        None => assert!(cards.is_empty(), "{cards:#?}"),
    }
}

#[test]
fn iosapps21_privacy_accounting_contacts_autocomplete_audi_and_lidl() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/iosapps21/iosapps21.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Europe/Oslo", Some("NO")),
        ("c", &c, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    for source in ["a", "b", "c"] {
        privacy(&run, source, rows(&o, source, "privacy"));
        feedback(&run, source, rows(&o, source, "cna"));
        audi(&run, source, &o);
        lidl(&run, source, &o);

        // never the payment QR, in a phenomenon or in any output logged
        let secrets: Vec<&str> = o["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            for x in &secrets {
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
        }
        for p in run.all_phenomena(source) {
            for x in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{x}: {p:#?}"
                );
            }
        }
    }

    // nothing of these stores noted on the intact phones
    for source in ["a", "b"] {
        let notes = run.unparsed(source);
        assert!(
            !notes
                .iter()
                .any(|u| u.artefact.contains("PrivacyAccounting")
                    || u.artefact.contains("Feedback/CNA")
                    || u.artefact.contains("de.audi.myaudimobileassistant")
                    || u.artefact.contains("com.lidl.eci.lidl.plus")),
            "{source}: {notes:#?}"
        );
    }

    // tree C: each cut, foreign or broken copy noted; other apps' files of the same names
    // neither read nor noted
    let mut noted: Vec<(&str, &str)> = Vec::new();
    for key in ["privacy_noted", "cna_noted", "audi_noted", "lidl_noted"] {
        for n in o["c"][key].as_array().unwrap() {
            noted.push((s(&n[0]), s(&n[1])));
        }
    }
    run.assert_noted("c", &noted);
    let notes = run.unparsed("c");
    assert!(
        !notes.iter().any(|u| u.artefact.contains("com.example.cars")
            || u.artefact.contains("/Library/Backup/")
            || (u.artefact.contains("com.example.shop") && u.reason.contains("Lidl"))),
        "{notes:#?}"
    );
}
