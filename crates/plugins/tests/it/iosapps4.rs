//! United Airlines (`ios::united`), Dubox (`ios::dubox`), locked Apple Notes (`ios::notes`),
//! Kik's attachment metadata (`ios::kikattachments`) and the DriveIQ SDK's segments
//! (`ios::driveiq`) on two iPhones, written by `tests/fixtures/iosapps4/iosapps4.py` (Python's
//! sqlite3, plistlib, gzip and json; the files, tables, columns and keys iLEAPP's
//! united_airlines, dubox, notesPasswordProtected, kikBplistmeta and teamsSegment read). The
//! generator's record is the oracle: the MileagePlus account as the owner's, its saved
//! travellers, every trip (active and past, iPhone B's locator only in its JSON), passenger
//! (the companions by MileagePlus number, the member's own number never a second person),
//! flight, boarding pass (the birth date cut out of its additional data), flight search and
//! status look-up; every Dubox friend (whole numbers and addresses observed, masked ones only
//! facts), message with its direction, conversation with its draft, cloud file and photo with
//! its position; how each locked note is locked (the classic and the revised scheme; iPhone B's
//! store keeps no keys); every Kik attachment's metadata; every DriveIQ location, motion, time
//! zone, power and state line with the values as written. Noted while the rest is read: iPhone
//! B's United copy of another schema, its `imageDB.sqlite` beside Dubox's chat store without
//! Dubox's table, iPhone A's attachment that is no property list, its DriveIQ lines of another
//! kind or no JSON, iPhone B's DriveIQ folder without segments; another app's `netdisk.sqlite`
//! is left alone.

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed number is the oracle's (a TIMESTAMP column keeps a whole number as an
/// integer).
fn same(printed: &str, v: &serde_json::Value) -> bool {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .is_some_and(|x| printed.parse::<f64>().ok() == Some(x))
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// Asserts that the time marked `what` of `p` is the oracle's number `v`.
fn time_is(p: &masf_graph::Phenomenon, what: &str, v: &serde_json::Value) {
    let t = time_of(p, what).unwrap_or_else(|| panic!("{what}: {p:#?}"));
    assert!(same(t, v), "{what}: {t} != {v}");
}

/// Asserts that `p` holds each present string of `keys` of `o` as a fact.
fn has_all(p: &masf_graph::Phenomenon, o: &serde_json::Value, keys: &[&str]) {
    for k in keys {
        if let Some(v) = o[*k].as_str().filter(|v| !v.is_empty()) {
            assert!(has_fact(p, v), "{k}={v}: {p:#?}");
        }
    }
}

/// A string as a JSON output holds it (quotes and backslashes escaped).
fn in_json(s: &str) -> String {
    let j = serde_json::to_string(s).unwrap();
    j[1..j.len() - 1].to_string()
}

#[test]
fn united_dubox_locked_notes_kik_attachments_and_driveiq_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps4/iosapps4.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "America/Chicago", Some("US")),
        ("b", &b, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let ids = run.identifiers(source);
        let has_id = |ty: &str, v: &str| ids.iter().any(|(t, n)| t == ty && n == v);
        for p in all.iter().filter(|p| {
            ["United ", "Dubox ", "Note ", "Kik attachment ", "DriveIQ "]
                .iter()
                .any(|w| p.title.starts_with(w))
        }) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }

        // United: the account is the owner's
        let u = &o["united"];
        let acc = &u["account"];
        let number = acc["ZMILEAGEPLUSNUMBER"].as_str().unwrap();
        let name = acc["full_name"].as_str().unwrap();
        let p = titled(
            &all,
            &format!("United MileagePlus account {number} ({name})"),
        );
        assert_eq!(p.category, "accounts");
        has_all(
            p,
            acc,
            &[
                "ZELITESTATUSDESCRIPTION",
                "ZSTARELITEDESCRIPTION",
                "ZCLUBEXPIRATIONDATESTR",
                "ZBIRTHDATE",
                "ZCUSTOMERID",
                "ZBILLINGCOUNTRY",
                "ktn",
            ],
        );
        assert!(has_fact(p, &acc["ZMILEAGEBALANCE"].to_string()), "{p:#?}");
        time_is(p, "United last login", &acc["ZLASTLOGINDATETIME"]);
        let owner = run.owner(source);
        assert!(
            owner.contains(&format!("account_id=united:{number}")),
            "{owner}"
        );
        assert!(
            owner.contains(&format!("display_name={}", name.to_lowercase())),
            "{owner}"
        );
        // the member's own number is never a second person
        assert!(
            !run.entities(source)
                .iter()
                .any(|e| e.starts_with(&format!("united:{number} "))),
            "{:#?}",
            run.entities(source)
        );
        let saved: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("United saved traveler "))
            .collect();
        let oracle_saved = u["saved"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        assert_eq!(saved.len(), oracle_saved.len());
        for s in oracle_saved {
            let p = titled(
                &all,
                &format!(
                    "United saved traveler {} {}",
                    s["firstName"].as_str().unwrap(),
                    s["lastName"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "contacts");
            has_all(p, s, &["birthDate", "travelerKey", "paxTypeID"]);
            assert!(has_fact(p, &s["age"].to_string()));
            assert_eq!(
                p.interpretation.contains("profile's owner"),
                s["isProfileOwner"] == true
            );
        }
        for r in u["trips"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "United trip {}: {} to {}",
                    r["ZRECORDLOCATOR"].as_str().unwrap(),
                    r["ZORIGIN"].as_str().unwrap(),
                    r["ZDESTINATION"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "locations");
            has_all(
                p,
                r,
                &[
                    "ZORIGINCITY",
                    "ZDESTINATIONCITY",
                    "ZFLIGHTDATESTR",
                    "ZTRIPDATE",
                    "ZMILEAGEPLUSACCOUNT",
                ],
            );
            time_is(
                p,
                "United trip flight date (sort date)",
                &r["ZSORTFLIGHTDATE"],
            );
            time_is(p, "United trip last refreshed", &r["ZLASTREFRESHED"]);
            assert!(
                p.interpretation
                    .contains(&format!("({})", r["status"].as_str().unwrap())),
                "{}",
                p.interpretation
            );
        }
        for x in u["passengers"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "United passenger {} (trip {})",
                    x["name"].as_str().unwrap(),
                    x["locator"].as_str().unwrap()
                ),
            );
            has_all(p, x, &["mp", "ktn", "redress", "birth"]);
            let mp = x["mp"].as_str().unwrap();
            if x["owner"] == true {
                assert_eq!(mp, number);
            } else {
                assert!(has_id("account_id", &format!("united:{mp}")), "{ids:?}");
                assert!(
                    has_id("display_name", &x["name"].as_str().unwrap().to_lowercase()),
                    "{ids:?}"
                );
            }
        }
        for f in u["flights"].as_array().into_iter().flatten() {
            let p = titled(
                &all,
                &format!(
                    "United flight {} {} to {} ({})",
                    f["ZFLIGHTNUMBER"].as_str().unwrap(),
                    f["ZORIGIN"].as_str().unwrap(),
                    f["ZDESTINATION"].as_str().unwrap(),
                    f["locator"].as_str().unwrap()
                ),
            );
            has_all(
                p,
                f,
                &[
                    "ZSCHEDULEDDEPARTUREDATETIMESTR",
                    "ZDISPLAYDEPARTUREDATETIME",
                    "ZDISPLAYARRIVALDATETIME",
                    "ZPASSENGERSEATS",
                    "locator",
                ],
            );
            time_is(p, "United flight date (sort date)", &f["ZSORTDATE"]);
        }
        for m in u["passes"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "United boarding pass {} {} to {}: {}",
                    m["ZFLIGHTINFO"].as_str().unwrap(),
                    m["ZORIGIN"].as_str().unwrap(),
                    m["ZDESTINATION"].as_str().unwrap(),
                    m["ZCUSTOMERNAME"].as_str().unwrap()
                ),
            );
            has_all(
                p,
                m,
                &[
                    "ZPNR",
                    "ZMILEAGEPLUSNUMBER",
                    "dob",
                    "ZGATE",
                    "ZSEATNO",
                    "ZBOARDTIME",
                    "ZDEPARTURECITY",
                    "ZCOS",
                ],
            );
            time_is(
                p,
                "United boarding pass flight date (sort date)",
                &m["ZSORTFLIGHTDATE"],
            );
            let mp = m["ZMILEAGEPLUSNUMBER"].as_str().unwrap();
            if mp != number {
                assert!(has_id("account_id", &format!("united:{mp}")), "{ids:?}");
            }
        }
        for s in u["searches"].as_array().into_iter().flatten() {
            let p = titled(
                &all,
                &format!(
                    "United flight search {} to {}",
                    s["ZAIRPORTORIGCODE"].as_str().unwrap(),
                    s["ZAIRPORTDESTCODE"].as_str().unwrap()
                ),
            );
            has_all(p, s, &["ZTAG", "ZTRAVELERSINFO", "ZCABININFO"]);
            time_is(p, "United flight search made", &s["ZDATEINSERT"]);
            time_is(p, "United flight search departure date", &s["ZDATEDEPART"]);
            time_is(p, "United flight search return date", &s["ZDATERETURN"]);
        }
        for s in u["lookups"].as_array().into_iter().flatten() {
            let p = titled(
                &all,
                &format!(
                    "United flight status {}{} {} to {}",
                    s["ZCARRIERCODE"].as_str().unwrap(),
                    s["ZFLIGHTNUMBER"].as_str().unwrap(),
                    s["ZORIGIN"].as_str().unwrap(),
                    s["ZDESTINATION"].as_str().unwrap()
                ),
            );
            has_all(p, s, &["ZORIGINNAME", "ZDESTINATIONNAME", "ZTYPE"]);
            time_is(
                p,
                "United flight status scheduled departure",
                &s["ZSCHEDULEDDEPARTURE"],
            );
            time_is(p, "United flight status last updated", &s["ZLASTUPDATED"]);
        }

        // Dubox: friends, messages, conversations, the cloud listing, photos
        let d = &o["dubox"];
        for f in d["friends"].as_array().unwrap() {
            let uname = f["uname"].as_str().unwrap();
            let p = titled(&all, &format!("Dubox contact {uname}"));
            assert_eq!(p.category, "contacts");
            has_all(
                p,
                f,
                &[
                    "nickname",
                    "displayname",
                    "remark",
                    "securemobil",
                    "secureemail",
                    "intro",
                ],
            );
            let uk = f["uk"].to_string();
            assert!(has_fact(p, &uk));
            assert!(has_id("account_id", &format!("dubox:{uk}")), "{ids:?}");
            assert!(has_id("nickname", uname), "{ids:?}");
            if let Some(r) = f["remark"].as_str() {
                assert!(has_id("display_name", &r.to_lowercase()), "{ids:?}");
            }
            for k in ["securemobil", "secureemail"] {
                let Some(v) = f[k].as_str() else { continue };
                let ty = if k == "securemobil" { "phone" } else { "email" };
                // a masked value is a fact only
                assert_eq!(has_id(ty, v), !v.contains('*'), "{k}={v}: {ids:?}");
                assert!(!ids.iter().any(|(_, n)| n.contains('*')), "{ids:?}");
            }
        }
        let friend = |uk: &serde_json::Value| {
            d["friends"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["uk"] == *uk)
                .and_then(|f| f["uname"].as_str())
                .unwrap()
        };
        let messages: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Dubox message "))
            .collect();
        assert_eq!(messages.len(), d["messages"].as_array().unwrap().len());
        for m in d["messages"].as_array().unwrap() {
            let sent = m["is_receive"] == 0;
            let what = match m["content"].as_str() {
                Some(c) => c.to_string(),
                None => format!(
                    "(file {})",
                    m["path"].as_str().unwrap().rsplit('/').next().unwrap()
                ),
            };
            let p = titled(
                &all,
                &format!(
                    "Dubox message {} {}: {what}",
                    if sent { "to" } else { "from" },
                    friend(&m["msguk"])
                ),
            );
            assert_eq!(p.category, "messages");
            has_all(p, m, &["path", "md5", "link", "username"]);
            time_is(
                p,
                if sent {
                    "Message sent"
                } else {
                    "Message received"
                },
                &m["time"],
            );
            assert!(has_id("account_id", &format!("dubox:{}", m["msguk"])));
        }
        for c in d["conversations"].as_array().unwrap() {
            let name = c["sessionName"]
                .as_str()
                .or(c["username"].as_str())
                .unwrap();
            let p = titled(&all, &format!("Dubox conversation with {name}"));
            has_all(p, c, &["content", "draft_content"]);
            time_is(p, "Dubox conversation last message", &c["mtime"]);
            time_is(p, "Dubox conversation created", &c["time"]);
            assert_eq!(
                p.interpretation.contains("did not send"),
                c["draft_content"].is_string()
            );
        }
        if d["conversations"].as_array().unwrap().is_empty() {
            assert!(
                !all.iter()
                    .any(|p| p.title.starts_with("Dubox conversation ")),
                "{source}: no mbox_conversations, no conversation"
            );
        }
        for f in d["files"].as_array().unwrap() {
            let kind = if f["isdir"] == 1 { "folder" } else { "file" };
            let p = titled(
                &all,
                &format!(
                    "Dubox cloud {kind} {}",
                    f["server_full_path"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "files");
            has_all(p, f, &["file_name", "file_md5"]);
            assert!(has_fact(p, &f["fid"].to_string()));
            time_is(p, "Dubox cloud file modified", &f["mtime"]);
        }
        for ph in d["photos"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Dubox photo {}", ph["file_name"].as_str().unwrap()),
            );
            assert_eq!(p.category, "media");
            has_all(
                p,
                ph,
                &["server_full_path", "full_addr", "city", "resolution"],
            );
            time_is(p, "Dubox photo taken", &ph["date_taken"]);
            let located = ph["latitude"].as_f64() != Some(0.0);
            for k in ["latitude", "longitude"] {
                assert_eq!(
                    p.verified_facts.iter().any(|f| same(&f.value, &ph[k])),
                    located,
                    "{k}: {p:#?}"
                );
            }
            assert_eq!(p.interpretation.contains("no position recorded"), !located);
        }
        if let Some(foreign) = d["foreign"].as_str() {
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.ends_with(foreign)),
                "{:#?}",
                run.unparsed(source)
            );
        }

        // Notes: how each locked note is locked
        for n in o["notes"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Note {}: {}",
                    n["pk"],
                    n["title"].as_str().unwrap_or("(untitled)")
                ),
            );
            let locked = n["locked"] == true;
            assert_eq!(p.interpretation.contains("password protected"), locked);
            match n["wrapped"].as_i64() {
                Some(24) => {
                    assert!(has_fact(p, "24") && has_fact(p, "20000"), "{p:#?}");
                    assert!(p.interpretation.contains("Ciofeca Forensics"));
                }
                Some(16) => {
                    assert!(has_fact(p, "16") && has_fact(p, "0"), "{p:#?}");
                    assert!(p.interpretation.contains("revised scheme"));
                }
                _ if locked => {
                    assert!(p.interpretation.contains("no wrapped key"), "{p:#?}")
                }
                _ => assert!(p.interpretation.contains("full text is decoded")),
            }
            if let Some(h) = n["hint"].as_str() {
                assert!(has_fact(p, h));
            }
        }

        // Kik: each attachment's metadata
        for at in o["kik"]["attachments"].as_array().unwrap() {
            let id = at["id"].as_str().unwrap();
            let strings = at["string"].as_array().map(Vec::as_slice).unwrap_or(&[]);
            let file = strings
                .iter()
                .find(|s| s["name"] == "file-name")
                .and_then(|s| s["value"].as_str());
            let p = titled(&all, &format!("Kik attachment {}", file.unwrap_or(id)));
            assert_eq!(p.category, "messages");
            assert!(has_fact(p, id));
            if let Some(app) = at["app-id"].as_str() {
                assert!(has_fact(p, app));
            }
            for pair in strings
                .iter()
                .chain(at["hashes"].as_array().into_iter().flatten())
            {
                let v = pair["value"].as_str().unwrap();
                assert!(has_fact(p, &in_json(v)), "{v}: {p:#?}");
            }
            assert_eq!(
                p.interpretation.contains("thumbnail"),
                at.get("image").is_some()
            );
        }
        for n in o["kik"]["noted"].as_array().unwrap() {
            run.assert_noted(source, &[("/attachments", n.as_str().unwrap())]);
        }
    }

    // DriveIQ on iPhone A: every line of a kind read, values as written
    let all = run.all_phenomena("a");
    let dq = &o["a"]["driveiq"];
    for l in dq["locations"].as_array().unwrap() {
        let s = |k: &str| l[k].as_str().unwrap();
        let p = titled(
            &all,
            &format!("DriveIQ location {}, {}", s("latitude"), s("longitude")),
        );
        assert_eq!(p.category, "locations");
        for k in [
            "latitude",
            "longitude",
            "speed",
            "altitude",
            "horizontalAccuracy",
        ] {
            assert!(has_fact(p, s(k)), "{k}: {p:#?}");
        }
        assert_eq!(time_of(p, "DriveIQ location fix"), Some(s("fix")));
        assert_eq!(time_of(p, "DriveIQ segment logged"), Some(s("logged")));
    }
    for m in dq["motion"].as_array().unwrap() {
        titled(&all, &format!("DriveIQ motion: {}", m.as_str().unwrap()));
    }
    let tz = &dq["timezone"];
    let p = titled(
        &all,
        &format!("DriveIQ time zone {}", tz["title"].as_str().unwrap()),
    );
    assert!(has_fact(p, tz["offset"].as_str().unwrap()) && has_fact(p, "launch"));
    titled(&all, dq["power"]["title"].as_str().unwrap());
    titled(&all, dq["state"]["title"].as_str().unwrap());
    run.assert_noted(
        "a",
        &[
            (dq["noted"].as_str().unwrap(), "tripSummary"),
            (
                dq["noted"].as_str().unwrap(),
                "no [time, kind, payload] array",
            ),
        ],
    );

    // iPhone B: the United copy of another schema, the imageDB.sqlite beside Dubox's chat store,
    // the DriveIQ folder without segments
    let b = &o["b"];
    run.assert_noted(
        "b",
        &[
            (
                b["united"]["noted"].as_str().unwrap(),
                "none of United's tables",
            ),
            (
                b["dubox"]["noted"].as_str().unwrap(),
                "no image_filelist table",
            ),
            (
                b["driveiq"]["noted"].as_str().unwrap(),
                "no segments/current",
            ),
        ],
    );
    // and nothing of the stores read is noted
    for read in [
        "00000000B601/Library/Application Support/UnitediPhoneCoreData.sqlite",
        "00000000B701/Documents/mbox_main.sqlite",
        "NoteStore.sqlite",
    ] {
        assert!(
            !run.unparsed("b").iter().any(|u| u.artefact.ends_with(read)),
            "{read}: {:#?}",
            run.unparsed("b")
        );
    }
}
