//! Foursquare Swarm (`ios::foursquare`), Apple Podcasts (`ios::podcasts`), Siri Remembers
//! (`ios::siriremembers`) and parsecd's engaged completions (`ios::parsecd`) on three iPhones,
//! written by `tests/fixtures/iosapps7/iosapps7.py` (Python's sqlite3; the files, tables and
//! columns iLEAPP's foursquareSwarm, applePodcasts, SiriRemembers and parsecdCache read). The
//! generator's record is the oracle: the Swarm account as the owner's (`foursquare:<id>`, phone,
//! e-mail, name) with its birthday and linked Facebook id, every other user as
//! `foursquare:<id>` (a brand as an account), every check-in — the user's own and a friend's —
//! with its venue, address, coordinates, kind, the friends tagged (found through Core Data's
//! `Z_<n>WITHFRIENDS` table, whose number differs on iPhone B) and time; every show with its
//! episode counts and times, every episode played, started, marked or downloaded (the feed's
//! catalogue not listed); every Siri Remembers intent with its domain, app, direction, donor,
//! duration, parties (names and bare handles, several joined), media item (cut as iLEAPP cuts
//! it), other parameters and time, the other party's handles observed; every engaged completion
//! with what was typed, the completion (an app's bundle id told apart), score and time.
//! iPhone B's older stores (missing columns and tables) are read; iPhone C's foreign
//! foursquare.sqlite and siriremembers.sqlite3 and cut MTLibrary.sqlite and EngagedCompletions
//! Cache.db are noted and give nothing.

use std::collections::BTreeSet;

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed number is the oracle's.
fn same(printed: &str, v: &serde_json::Value) -> bool {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .is_some_and(|x| printed.parse::<f64>().ok() == Some(x))
}

/// Whether `p` holds a fact whose value is the oracle's number `v`.
fn has_number(p: &masf_graph::Phenomenon, v: &serde_json::Value) -> bool {
    p.verified_facts.iter().any(|f| same(&f.value, v))
}

/// Whether `p` holds a fact listing exactly `values` (joined by `; `, in any order).
fn has_list(p: &masf_graph::Phenomenon, values: &[&str]) -> bool {
    let want: BTreeSet<&str> = values.iter().copied().collect();
    p.verified_facts
        .iter()
        .any(|f| f.value.split("; ").collect::<BTreeSet<_>>() == want)
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// Whether each oracle time (`column → value`) is marked on `p` as `names` describes its column,
/// and `p` has no other time.
fn times_are(
    p: &masf_graph::Phenomenon,
    times: &serde_json::Value,
    names: &[(&str, &str)],
) -> bool {
    let times = times.as_object().unwrap();
    p.times.len() == times.len()
        && times.iter().all(|(k, v)| {
            let what = names.iter().find(|(c, _)| c == k).unwrap().1;
            time_of(p, what).is_some_and(|t| same(t, v))
        })
}

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

fn strs(v: &serde_json::Value) -> Vec<&str> {
    v.as_array().unwrap().iter().map(s).collect()
}

#[test]
fn foursquare_podcasts_siri_remembers_and_engaged_completions_iosapps7() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps7/iosapps7.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Oslo", Some("NO")),
        ("c", &c, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let prefixes = [
        "Foursquare Swarm ",
        "Apple Podcasts ",
        "Siri Remembers ",
        "Spotlight ",
    ];
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let ids = run.identifiers(source);
        let owner = run.owner(source);
        let entities = run.entities(source);
        let ours: Vec<_> = all
            .iter()
            .filter(|p| prefixes.iter().any(|w| p.title.starts_with(w)))
            .collect();
        for p in &ours {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }

        // Foursquare Swarm: the account (the owner's), the other users, the check-ins
        let fs = &o["foursquare"];
        let acc = &fs["account"];
        let p = titled(
            &all,
            &format!("Foursquare Swarm account {}", s(&acc["name"])),
        );
        assert_eq!(p.category, "accounts");
        for k in [
            "id",
            "phone",
            "email",
            "home_city",
            "relationship",
            "birthday",
        ] {
            if let Some(v) = acc[k].as_str() {
                assert!(has_fact(p, v), "{k}: {p:#?}");
            }
        }
        if let Some(fb) = fs["facebook"].as_str() {
            assert!(has_fact(p, fb), "{p:#?}");
        }
        assert!(
            times_are(
                p,
                &acc["times"],
                &[
                    ("ZSWARMCREATEDAT", "Foursquare Swarm account created"),
                    ("ZJOINEDAT", "Foursquare account joined"),
                ]
            ),
            "{p:#?}"
        );
        assert!(
            owner.contains(&format!("account_id=foursquare:{}", s(&acc["id"]))),
            "{owner}"
        );
        assert!(
            owner.contains(&format!("email={}", s(&acc["email"]))),
            "{owner}"
        );
        assert!(
            owner.contains(&format!("phone={}", s(&acc["phone"]))),
            "{owner}"
        );
        let users = fs["users"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("Foursquare Swarm user "))
                .count(),
            users.len()
        );
        for u in users {
            let p = titled(&all, &format!("Foursquare Swarm user {}", s(&u["name"])));
            assert_eq!(p.category, "contacts");
            for k in ["id", "phone", "email", "home_city", "relationship"] {
                if let Some(v) = u[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert!(
                times_are(
                    p,
                    &u["times"],
                    &[
                        ("ZSWARMCREATEDAT", "Foursquare Swarm account created"),
                        ("ZJOINEDAT", "Foursquare account joined"),
                        ("ZLASTMENTIONED", "Foursquare Swarm user last mentioned"),
                    ]
                ),
                "{p:#?}"
            );
            // each other user is its own entity, never the owner
            let context = format!("foursquare:{} [", s(&u["id"]));
            let e = entities
                .iter()
                .find(|e| e.starts_with(&context))
                .unwrap_or_else(|| panic!("{context}: {entities:#?}"));
            assert!(
                e.contains(&format!("account_id=foursquare:{}", s(&u["id"]))),
                "{e}"
            );
            for k in ["phone", "email"] {
                if let Some(v) = u[k].as_str() {
                    assert!(e.contains(&format!("{k}={v}")), "{e}");
                    assert!(!owner.contains(v), "{owner}");
                }
            }
            let brand = u["name"] == "Coop";
            assert_eq!(e.contains("[Account]"), brand, "{e}");
        }
        let checkins = fs["checkins"].as_array().unwrap();
        let found: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("Foursquare Swarm check-in at "))
            .collect();
        assert_eq!(found.len(), checkins.len(), "{found:#?}");
        for ci in checkins {
            let p = found
                .iter()
                .find(|p| has_fact(p, s(&ci["id"])))
                .unwrap_or_else(|| panic!("{ci}: {found:#?}"));
            assert_eq!(p.category, "locations");
            assert_eq!(
                p.title,
                format!(
                    "Foursquare Swarm check-in at {} by {}",
                    s(&ci["place"]),
                    s(&ci["by"])
                )
            );
            assert!(
                time_of(p, "Foursquare Swarm check-in").is_some_and(|t| same(t, &ci["created"]))
            );
            for v in strs(&ci["values"]) {
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
            for n in ci["numbers"].as_array().unwrap() {
                assert!(has_number(p, n), "{n}: {p:#?}");
            }
            let with = strs(&ci["with"]);
            if !with.is_empty() {
                assert!(has_list(p, &with), "{with:?}: {p:#?}");
            }
            assert_eq!(
                p.interpretation.contains("a check-in of the device's user"),
                ci["own"] == true,
                "{}",
                p.interpretation
            );
        }

        // Apple Podcasts: the shows, the episodes played or downloaded, the catalogue counted
        let pod = &o["podcasts"];
        for show in pod["shows"].as_array().unwrap() {
            let p = titled(&all, &format!("Apple Podcasts show {}", s(&show["title"])));
            assert_eq!(p.category, "media");
            for k in ["author", "feed"] {
                assert!(has_fact(p, s(&show[k])), "{k}: {p:#?}");
            }
            assert!(has_number(p, &show["subscribed"]), "{p:#?}");
            let status = if show["subscribed"] == 1 {
                "subscribed"
            } else {
                "not subscribed"
            };
            assert!(has_fact(p, status), "{p:#?}");
            assert!(
                p.interpretation
                    .contains(&format!("episodes in the library {}", show["episodes"]))
                    && p.interpretation.contains(&format!(
                        "of them played, started, marked or downloaded {}",
                        show["listed"]
                    )),
                "{}",
                p.interpretation
            );
            assert!(
                times_are(
                    p,
                    &show["times"],
                    &[
                        ("ZADDEDDATE", "Podcast show added to the library"),
                        ("ZLASTDATEPLAYED", "Podcast show last played"),
                        ("ZUPDATEDDATE", "Podcast show updated"),
                        ("ZDOWNLOADEDDATE", "Podcast show last downloaded"),
                    ]
                ),
                "{p:#?}"
            );
        }
        let episodes = pod["episodes"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("Apple Podcasts episode "))
                .count(),
            episodes.len()
        );
        for e in episodes {
            let p = titled(
                &all,
                &format!(
                    "Apple Podcasts episode {} ({})",
                    s(&e["title"]),
                    s(&e["show"])
                ),
            );
            assert_eq!(p.category, "media");
            for v in strs(&e["values"]) {
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
            for n in e["numbers"].as_array().unwrap() {
                assert!(has_number(p, n), "{n}: {p:#?}");
            }
            assert!(
                times_are(
                    p,
                    &e["times"],
                    &[
                        ("ZLASTDATEPLAYED", "Podcast episode last played"),
                        (
                            "ZPLAYSTATELASTMODIFIEDDATE",
                            "Podcast episode play state changed"
                        ),
                        ("ZDOWNLOADDATE", "Podcast episode downloaded"),
                        ("ZIMPORTDATE", "Podcast episode added to the library"),
                        ("ZMETADATATIMESTAMP", "Podcast episode metadata updated"),
                        ("ZPUBDATE", "Podcast episode published"),
                    ]
                ),
                "{p:#?}"
            );
        }
        for t in strs(&pod["catalogue"]) {
            assert!(!all.iter().any(|p| p.title.contains(t)), "{t} was listed");
        }

        // Siri Remembers: every intent, the other party's handles observed
        let intents = o["siri"].as_array().unwrap();
        let found: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("Siri Remembers "))
            .collect();
        assert_eq!(found.len(), intents.len(), "{found:#?}");
        for i in intents {
            let p = found
                .iter()
                .find(|p| has_fact(p, s(&i["uuid"])))
                .unwrap_or_else(|| panic!("{i}: {found:#?}"));
            let (domain, app, dir) = (s(&i["domain"]), s(&i["app"]), s(&i["direction"]));
            let params = i["params"].as_object().unwrap();
            let first = |names: &[&str]| {
                names
                    .iter()
                    .find_map(|n| params.get(*n))
                    .map(|v| strs(v).join("; "))
                    .unwrap()
            };
            let (category, title, when) = match (domain, dir) {
                ("Messages", "outgoing") => (
                    "messages",
                    format!(
                        "Siri Remembers outgoing message to {} ({app})",
                        first(&["speakableGroupName", "recipients"])
                    ),
                    "Message sent",
                ),
                ("Messages", "incoming") => (
                    "messages",
                    format!(
                        "Siri Remembers incoming message from {} ({app})",
                        first(&["sender", "senderHandle"])
                    ),
                    "Message received",
                ),
                ("Calls", d) => (
                    "calls",
                    format!(
                        "Siri Remembers {} {} ({app})",
                        if d == "outgoing" {
                            "outgoing call to"
                        } else {
                            "incoming call from"
                        },
                        first(&["contacts"])
                    ),
                    "Call started",
                ),
                ("Media", _) => (
                    "media",
                    format!("Siri Remembers media played: {} ({app})", s(&i["media"])),
                    "Siri Remembers media played",
                ),
                (other, _) => (
                    "apps",
                    format!("Siri Remembers {other} {} intent ({app})", s(&i["verb"])),
                    "Siri Remembers interaction",
                ),
            };
            assert_eq!(p.category, category, "{p:#?}");
            assert_eq!(p.title, title);
            assert!(
                time_of(p, when).is_some_and(|t| same(t, &i["start"])),
                "{p:#?}"
            );
            assert!(has_fact(p, dir) && has_fact(p, app) && has_fact(p, domain));
            let donor = if i["by_siri"] == 1 { "Siri" } else { "the app" };
            assert!(has_fact(p, donor), "{p:#?}");
            if !i["duration"].is_null() {
                assert!(has_number(p, &i["duration"]), "{p:#?}");
            }
            for (name, values) in params {
                let values = strs(values);
                if name == "workflowName" {
                    let other = format!("{name}: {}", values.join("; "));
                    assert!(has_fact(p, &other), "{other}: {p:#?}");
                } else {
                    assert!(has_list(p, &values), "{name}: {p:#?}");
                }
            }
            if let Some(m) = i["media"].as_str() {
                assert!(has_fact(p, m), "{p:#?}");
            }
            for h in strs(&i["other"]) {
                let ty = if h.contains('@') { "email" } else { "phone" };
                assert!(
                    ids.iter().any(|(t, n)| t == ty && n == &h.to_lowercase()),
                    "{h}: {ids:?}"
                );
            }
        }

        // parsecd: what was typed and the completion chosen
        let rows = o["parsecd"].as_array().unwrap();
        let found: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("Spotlight "))
            .collect();
        assert_eq!(found.len(), rows.len(), "{found:#?}");
        for r in rows {
            let (input, completion) = (s(&r["input"]), s(&r["completion"]));
            let kind = if completion.starts_with("com.") {
                "app result"
            } else {
                "completion"
            };
            let p = titled(
                &all,
                &format!("Spotlight {kind} chosen: {completion} (typed {input})"),
            );
            assert_eq!(p.category, "web");
            assert!(has_fact(p, input) && has_fact(p, completion), "{p:#?}");
            if !r["score"].is_null() {
                assert!(has_number(p, &r["score"]), "{p:#?}");
            }
            assert!(
                time_of(p, "Spotlight completion chosen").is_some_and(|t| same(t, &r["time"])),
                "{p:#?}"
            );
            assert_eq!(
                p.interpretation.contains("not proof the app was opened"),
                kind == "app result"
            );
        }

        // nothing of these stores noted on A and B
        for read in [
            "foursquare.sqlite",
            "MTLibrary.sqlite",
            "siriremembers.sqlite3",
            "EngagedCompletions/Cache.db",
        ] {
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.ends_with(read)),
                "{read}: {:#?}",
                run.unparsed(source)
            );
        }
    }

    // iPhone C: the foreign stores and the cut ones noted, nothing read from them
    let noted = &o["c"]["noted"];
    run.assert_noted(
        "c",
        &[
            (
                s(&noted["foursquare"]),
                "none of the tables ZFSUSER, ZFSCHECKIN",
            ),
            (s(&noted["siri"]), "no intents table"),
        ],
    );
    for k in ["podcasts", "parsecd"] {
        let suffix = s(&noted[k]);
        assert!(
            run.unparsed("c")
                .iter()
                .any(|u| u.artefact.ends_with(suffix)
                    && (u.reason.contains("malformed") || u.reason.contains("not a database"))),
            "{k}: {:#?}",
            run.unparsed("c")
        );
    }
    let c_all = run.all_phenomena("c");
    assert!(
        !c_all
            .iter()
            .any(|p| prefixes.iter().any(|w| p.title.starts_with(w))),
        "{c_all:#?}"
    );
    for v in strs(&o["c"]["foreign"]) {
        assert!(
            !c_all
                .iter()
                .any(|p| p.verified_facts.iter().any(|f| f.value.contains(v))),
            "{v} was read"
        );
    }
}
