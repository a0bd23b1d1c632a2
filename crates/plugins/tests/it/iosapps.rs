//! Messages drafts (`ios::smsdrafts`), the Weather app's locations (`ios::weather`), PayByPhone
//! (`ios::paybyphone`), Vipps (`ios::vipps`), TWINT (`ios::twint`) and Wickr (`ios::wickr`) on
//! two iPhones, written by `tests/fixtures/iosapps/iosapps.py` (Python's sqlite3 and plistlib,
//! keyed archives by `tests/fixtures/keyedarchive.py`; the files, tables, columns and keys
//! iLEAPP's draftmessage, weatherAppLocations, payByPhone, vipps, vippsContacts, twint and wickr
//! read). The generator's record is the oracle: every draft with its recipient folder, text and
//! modified time, and its recipient observed as a handle (not a group chat's folder); every
//! saved city and the local weather with coordinates and times (both plist layouts); the
//! PayByPhone account as the owner's, its vehicles' plates and every parking session with its
//! lot, times and amount (iPhone B's older store without lots or amounts); every Vipps contact
//! and CHAT payment with its counterpart observed by number and name, the other item noted;
//! every TWINT transaction (iPhone B's older table) with both numbers observed; every Wickr
//! conversation with its members found through entity-numbered join tables (numbered
//! differently on B), every message with its times and attached file, every user. iPhone B's
//! cut draft, its copy of Vipps.sqlite that is no database and its wickrLocal.sqlite without
//! ZWICKR_MESSAGE are noted while the rest is read.

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed number is the oracle's (a TIMESTAMP or DECIMAL column keeps a whole
/// number as an integer).
fn same(printed: &str, v: &serde_json::Value) -> bool {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .is_some_and(|x| printed.parse::<f64>().ok() == Some(x))
}

/// Whether `p` holds a fact whose value is the oracle's number `v`.
fn has_number(p: &masf_graph::Phenomenon, v: &serde_json::Value) -> bool {
    p.verified_facts.iter().any(|f| same(&f.value, v))
}

/// A string as a JSON output holds it (quotes and backslashes escaped).
fn in_json(s: &str) -> String {
    let j = serde_json::to_string(s).unwrap();
    j[1..j.len() - 1].to_string()
}

/// A string as a `sqlite_query` JSON cell holds it (`plist:`: JSON-escaped, then its
/// backslashes doubled by the cell's escaping).
fn in_json_cell(s: &str) -> String {
    in_json(s).replace('\\', "\\\\")
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

#[test]
fn drafts_weather_parking_and_payments_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps/iosapps.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Oslo", Some("NO")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let ids = run.identifiers(source);
        let has_id = |ty: &str, v: &str| ids.iter().any(|(t, n)| t == ty && n == v);
        for p in all.iter().filter(|p| {
            [
                "Unsent Messages",
                "Weather app",
                "PayByPhone",
                "Vipps",
                "TWINT",
                "Wickr",
            ]
            .iter()
            .any(|w| p.title.starts_with(w))
        }) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }

        // drafts: the text, the recipient folder, the file's modified time
        for dr in o["drafts"].as_array().unwrap() {
            let (folder, text) = (dr["folder"].as_str().unwrap(), dr["text"].as_str().unwrap());
            let p = titled(&all, &format!("Unsent Messages draft to {folder}: {text}"));
            assert_eq!(p.category, "messages");
            assert!(has_fact(p, folder) && has_fact(p, &in_json(text)), "{p:#?}");
            assert_eq!(
                time_of(p, "Messages draft last edited"),
                dr["modified"].as_str()
            );
            assert!(p.interpretation.contains("never sent"));
            if folder.starts_with('+') {
                assert!(has_id("phone", folder), "{ids:?}");
            } else if folder.contains('@') {
                assert!(has_id("email", folder), "{ids:?}");
            } else {
                assert!(
                    !ids.iter().any(|(_, n)| n.contains(&folder[4..])),
                    "{ids:?}"
                );
            }
        }

        // Weather: saved cities and the local weather, both layouts
        let w = &o["weather"];
        for c in w["cities"].as_array().unwrap() {
            let name = c["Name"].as_str().unwrap();
            let p = titled(&all, &format!("Weather app saved city {name}"));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, c["Country"].as_str().unwrap()));
            assert!(
                has_number(p, &c["Lat"]) && has_number(p, &c["Lon"]),
                "{p:#?}"
            );
            if let Some(z) = c["TimeZone"].as_str() {
                assert!(has_fact(p, z));
            }
            if let Some(t) = c["CityTimeZoneUpdateDateKey"].as_i64() {
                assert_eq!(
                    time_of(p, "Weather app city time zone updated"),
                    Some(t.to_string().as_str())
                );
            }
            if let Some(t) = c["UpateTime"].as_str() {
                assert_eq!(time_of(p, "Weather app saved city updated"), Some(t));
            }
            if let Some(t) = w["LastUpdated"].as_str() {
                assert_eq!(time_of(p, "Weather app last updated its cities"), Some(t));
            }
        }
        if let Some(l) = w.get("local").filter(|l| l.is_object()) {
            let p = titled(
                &all,
                &format!(
                    "Weather app local weather at {}",
                    l["Name"].as_str().unwrap()
                ),
            );
            assert!(has_number(p, &l["Lat"]) && has_number(p, &l["Lon"]));
            assert!(same(
                time_of(p, "Weather app last updated the device's location").unwrap(),
                &w["LastLocationUpdateTime"]
            ));
        }

        // PayByPhone: the account is the owner's; plates are facts only
        let pbp = &o["paybyphone"];
        let acc = &pbp["account"];
        let email = acc["ZEMAIL"].as_str().unwrap();
        let p = titled(&all, &format!("PayByPhone account {email}"));
        assert_eq!(p.category, "accounts");
        assert!(has_fact(p, acc["ZMEMBERID"].as_str().unwrap()));
        let owner = run.owner(source);
        assert!(owner.contains(&format!("email={email}")), "{owner}");
        assert!(
            owner.contains(&format!(
                "account_id=paybyphone:{}",
                acc["ZMEMBERID"].as_str().unwrap()
            )),
            "{owner}"
        );
        let user = acc["ZUSERNAME"].as_str().unwrap();
        if user.starts_with('+') {
            assert!(owner.contains(&format!("phone={user}")), "{owner}");
        }
        for v in pbp["vehicles"].as_array().unwrap() {
            let plate = v["ZLICENSEPLATE"].as_str().unwrap();
            let p = titled(&all, &format!("PayByPhone vehicle {plate}"));
            for k in [
                "ZCOUNTRY",
                "ZVEHICLEDESCRIPTION",
                "ZVEHICLETYPESTRING",
                "ZVEHICLEID",
            ] {
                assert!(has_fact(p, v[k].as_str().unwrap()), "{k}: {p:#?}");
            }
            assert!(!ids.iter().any(|(_, n)| n.contains(plate)), "{ids:?}");
        }
        let sessions: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("PayByPhone parking at "))
            .collect();
        assert_eq!(sessions.len(), pbp["sessions"].as_array().unwrap().len());
        for s in pbp["sessions"].as_array().unwrap() {
            let vehicle = pbp["vehicles"]
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["Z_PK"] == s["ZVEHICLE"])
                .unwrap();
            let plate = vehicle["ZLICENSEPLATE"].as_str().unwrap();
            let lot = pbp["locations"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["ZLOCATIONNUMBER"] == s["ZLOCATIONNUMBER"]);
            let place = match lot {
                Some(l) => l["ZNAME"].as_str().unwrap().to_string(),
                None => format!("location {}", s["ZLOCATIONNUMBER"].as_str().unwrap()),
            };
            let p = titled(&all, &format!("PayByPhone parking at {place} ({plate})"));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, plate) && has_fact(p, email), "{p:#?}");
            assert!(same(
                time_of(p, "Parking session started").unwrap(),
                &s["ZSTARTTIME"]
            ));
            assert!(same(
                time_of(p, "Parking session expires").unwrap(),
                &s["ZEXPIRETIME"]
            ));
            for k in ["ZCOORDINATELATITUDE", "ZCOORDINATELONGITUDE"] {
                assert!(has_number(p, &s[k]), "{k}: {p:#?}");
            }
            match s.get("ZAMOUNT") {
                Some(amount) => assert!(has_number(p, amount), "{p:#?}"),
                None => assert!(
                    !p.verified_facts
                        .iter()
                        .any(|f| f.fact_type == masf_graph::FactType::Amount),
                    "{p:#?}"
                ),
            }
            if let Some(l) = lot {
                for k in ["ZVENDORNAME", "ZCURRENCY", "ZLOTMESSAGE"] {
                    if let Some(v) = l[k].as_str() {
                        assert!(has_fact(p, v), "{k}: {p:#?}");
                    }
                }
            }
        }

        // Vipps: contacts and CHAT payments, counterparts by number and name
        let vp = &o["vipps"];
        for c in vp["contacts"].as_array().unwrap() {
            let name = c["name"].as_str().unwrap();
            let p = titled(&all, &format!("Vipps contact {name}"));
            assert_eq!(p.category, "contacts");
            assert!(has_fact(p, c["id"].as_str().unwrap()));
            for phone in c["phones"].as_array().unwrap() {
                let phone = phone.as_str().unwrap();
                assert!(has_fact(p, phone), "{p:#?}");
                assert!(has_id("phone", phone), "{ids:?}");
            }
            if let Some(n) = c["image_bytes"].as_i64() {
                assert!(has_fact(p, &n.to_string()));
            }
            assert!(has_id("display_name", &name.to_lowercase()), "{ids:?}");
        }
        let payments: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Vipps payment "))
            .collect();
        let chats = vp["chats"].as_array().unwrap();
        assert_eq!(payments.len(), chats.len(), "{payments:#?}");
        for ch in chats {
            let message = ch["message"].as_str().unwrap();
            let p = payments
                .iter()
                .find(|p| has_fact(p, &in_json_cell(message)))
                .unwrap_or_else(|| panic!("{message}: {payments:#?}"));
            assert_eq!(p.category, "transactions");
            let to = if ch["direction"] == "OUTGOING" {
                "to"
            } else {
                "from"
            };
            assert!(
                p.title.starts_with(&format!(
                    "Vipps payment {to} {}",
                    ch["name"].as_str().unwrap()
                )),
                "{}",
                p.title
            );
            assert!(has_fact(p, ch["phone"].as_str().unwrap()));
            assert!(has_number(p, &ch["amount"]), "{p:#?}");
            for k in ["transactionID", "statusText", "direction", "type"] {
                assert!(has_fact(p, ch[k].as_str().unwrap()), "{k}: {p:#?}");
            }
            assert_eq!(
                time_of(p, "Vipps payment message"),
                Some(ch["messageTimeStamp"].to_string().as_str())
            );
            assert!(has_id("phone", ch["phone"].as_str().unwrap()), "{ids:?}");
        }

        // TWINT: every transaction, both numbers of a transfer observed
        let tx = o["twint"].as_array().unwrap();
        let twint: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("TWINT "))
            .collect();
        assert_eq!(twint.len(), tx.len(), "{twint:#?}");
        for r in tx {
            let p = twint
                .iter()
                .find(|p| {
                    time_of(p, "TWINT transaction created")
                        .is_some_and(|v| same(v, &r["ZCREATIONDATE"]))
                })
                .unwrap_or_else(|| panic!("{r}: {twint:#?}"));
            assert_eq!(p.category, "transactions");
            for k in [
                "ZMERCHANTNAME",
                "ZMERCHANTBRANCHNAME",
                "ZP2PSENDERMOBILENR",
                "ZP2PINITIATEMESSAGE",
                "ZP2PRECIPIENTMOBILENR",
                "ZP2PRECIPIENTNAME",
                "ZP2PREPLYMESSAGE",
                "ZCURRENCY",
                "ZORDERLINK",
                "ZORDERSTATEVALUE",
                "ZORDERTYPEVALUE",
                "ZTRANSACTIONSIDEVALUE",
            ] {
                if let Some(v) = r.get(k).and_then(|v| v.as_str()) {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            for k in ["ZPAIDAMOUNT", "ZAUTHORIZEDAMOUNT", "ZDISCOUNT"] {
                if let Some(v) = r.get(k).filter(|v| !v.is_null()) {
                    assert!(has_number(p, v), "{k}: {p:#?}");
                }
            }
            for k in [
                "ZMODIFIEDTIMESTAMP",
                "ZSECONDPHASETIMESTAMP",
                "ZSTATUSPENDINGUNTILDATE",
            ] {
                let what = match k {
                    "ZMODIFIEDTIMESTAMP" => "TWINT transaction modified",
                    "ZSECONDPHASETIMESTAMP" => "TWINT transaction second phase",
                    _ => "TWINT transaction pending until",
                };
                match r.get(k).filter(|v| !v.is_null()) {
                    Some(v) => assert!(same(time_of(p, what).unwrap(), v), "{k}"),
                    None => assert!(time_of(p, what).is_none(), "{k}"),
                }
            }
            for k in ["ZP2PSENDERMOBILENR", "ZP2PRECIPIENTMOBILENR"] {
                if let Some(n) = r[k].as_str() {
                    assert!(has_id("phone", n), "{k}: {ids:?}");
                }
            }
            if let Some(name) = r["ZP2PRECIPIENTNAME"].as_str() {
                assert!(has_id("display_name", &name.to_lowercase()), "{ids:?}");
                assert!(p.title.ends_with(&format!(" to {name}")), "{}", p.title);
            }
            if let Some(m) = r["ZMERCHANTNAME"].as_str() {
                assert!(p.title.ends_with(&format!(" to {m}")), "{}", p.title);
            }
        }

        // Wickr: metadata only, members through the entity-numbered join tables
        let wk = &o["wickr"];
        let users = wk["users"].as_array().unwrap();
        let hash = |pk: &serde_json::Value| {
            users
                .iter()
                .find(|u| u["Z_PK"] == *pk)
                .and_then(|u| u["ZUSERIDHASH"].as_str())
                .unwrap()
        };
        for c in wk["convos"].as_array().unwrap() {
            let group = c["ZVGROUPID"].as_str().unwrap();
            let p = titled(&all, &format!("Wickr conversation {group}"));
            assert_eq!(p.category, "messages");
            let kind = if c["room"] == true {
                "Secex_Secure_Room"
            } else {
                "Secex_Convo"
            };
            assert!(has_fact(p, kind), "{p:#?}");
            let members: Vec<&str> = wk["members"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m[0] == c["Z_PK"])
                .map(|m| hash(&m[1]))
                .collect();
            assert!(has_fact(p, &members.join(", ")), "{members:?}: {p:#?}");
            let masters: Vec<&str> = wk["masters"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m[0] == c["Z_PK"])
                .map(|m| hash(&m[1]))
                .collect();
            if !masters.is_empty() {
                assert!(has_fact(p, &masters.join(", ")), "{p:#?}");
            }
            assert!(same(
                time_of(p, "Wickr conversation last message").unwrap(),
                &c["ZLASTTIMESTAMP"]
            ));
            assert!(p.interpretation.contains("encrypted"));
        }
        let convo = |pk: &serde_json::Value| {
            wk["convos"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["Z_PK"] == *pk)
                .and_then(|c| c["ZVGROUPID"].as_str())
                .unwrap()
        };
        for m in wk["messages"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Wickr message in {} from {}",
                    convo(&m["ZCONVO"]),
                    hash(&m["ZUSERSENDER"])
                ),
            );
            assert!(has_fact(p, m["ZMSGID"].as_str().unwrap()));
            assert!(has_fact(p, &m["body_bytes"].to_string()), "{p:#?}");
            for (k, what) in [
                ("ZTIMESTAMP", "Wickr message sent"),
                ("ZREADTIMESTAMP", "Wickr message read"),
                ("ZDELIVERYTIMESTAMP", "Wickr message delivered"),
                ("ZCLEANUPTIME", "Wickr message due for clean-up"),
            ] {
                match m.get(k).filter(|v| !v.is_null()) {
                    Some(v) => assert!(same(time_of(p, what).unwrap(), v), "{k}"),
                    None => assert!(time_of(p, what).is_none(), "{k}"),
                }
            }
            for link in wk["file_links"].as_array().unwrap() {
                if link[1] == m["Z_PK"] {
                    let f = wk["files"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|f| f["Z_PK"] == link[0])
                        .unwrap();
                    assert!(has_fact(p, f["ZGUID"].as_str().unwrap()), "{p:#?}");
                    assert!(p.interpretation.contains("file transfer"));
                }
            }
        }
        for u in users {
            let h = u["ZUSERIDHASH"].as_str().unwrap();
            let p = titled(&all, &format!("Wickr user {h}"));
            assert_eq!(p.category, "contacts");
            match u["ZLASTACTIVITYTIME"].as_i64() {
                Some(t) => assert_eq!(
                    time_of(p, "Wickr user last active"),
                    Some(t.to_string().as_str())
                ),
                None => assert!(p.times.is_empty()),
            }
            // hashes are facts, never identifiers
            assert!(!ids.iter().any(|(_, n)| n.contains(h)), "{ids:?}");
        }
    }
    // iPhone A: the feed item that is no payment is noted, as iLEAPP passes it over
    run.assert_noted("a", &[("Documents/Vipps.sqlite", "not CHAT items")]);
    // iPhone B: the cut draft, the copy that is no database, the other wickrLocal.sqlite
    let b = &o["b"];
    run.assert_noted(
        "b",
        &[
            (b["drafts_noted"][0].as_str().unwrap(), "parse_plist"),
            (
                b["wickr_noted"].as_str().unwrap(),
                "no ZWICKR_MESSAGE table",
            ),
        ],
    );
    let vipps_note = b["vipps"]["noted"].as_str().unwrap();
    assert!(
        run.unparsed("b")
            .iter()
            .any(|u| u.artefact.ends_with(vipps_note)
                && (u.reason.contains("not a database") || u.reason.contains("malformed"))),
        "{:#?}",
        run.unparsed("b")
    );
    // and nothing of the B stores that were read is noted
    for read in [
        "00000000B301/Documents/Vipps.sqlite",
        "Twint.sqlite",
        "PayByPhone.sqlite",
    ] {
        assert!(
            !run.unparsed("b").iter().any(|u| u.artefact.ends_with(read)),
            "{read}: {:#?}",
            run.unparsed("b")
        );
    }
}
