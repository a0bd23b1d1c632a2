//! The Facebook app's own stores (`android::facebookapp`) on two Android phones and a third
//! tree, written by `tests/fixtures/facebookapp/facebookapp.py` (Python's sqlite3: the contacts
//! store with its sync properties and upload snapshot, the news feed cache, the mention
//! suggestions, the foreground intervals and `prefs_db`, as ALEAPP's facebookApp reads them). The
//! generator's record is the oracle: every contact with its names, pictures, the phones of its
//! `data` JSON and its times, a `facebook:<id>` person each, the one whose id names the stores
//! the device's user; every sync property, the snapshot counted, every story, suggestion (users
//! as persons, a page not), interval and preference; phone B's older tables read with what they
//! hold and no owner; tree C's cut and foreign copies noted, its good `prefs_db` read, and
//! Messenger's `prefs_db` and Instagram's `time_in_app` neither read nor noted; no session
//! token, cookie or secret in any output of the run.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn facebook_app_contacts_feed_mentions_usage_and_preferences() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/facebookapp/facebookapp.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/Los_Angeles", Some("US")),
        ("b", &b, "Asia/Tokyo", Some("JP")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let want = &o[source];
        let all = run.all_phenomena(source);
        let entities = run.entities(source);
        let uid = s(want, "uid").unwrap();

        // contacts: every field, each phone, the times; a person each, the owner's row
        let contacts = want["contacts"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Facebook contact ")
                    || (p.title.starts_with("Facebook account ")
                        && p.title.ends_with("(the device's user)"))
            })
            .count();
        assert_eq!(found, contacts.len(), "{source}");
        for k in contacts {
            let name = s(k, "display_name").unwrap();
            let own = k["owner"].as_bool().unwrap();
            let p = titled(
                &all,
                &if own {
                    format!("Facebook account {name} (the device's user)")
                } else {
                    format!("Facebook contact {name}")
                },
            );
            assert_eq!(p.category, if own { "accounts" } else { "contacts" });
            for f in [
                "fbid",
                "contact_id",
                "first_name",
                "last_name",
                "small_picture_url",
                "big_picture_url",
                "huge_picture_url",
                "phonebook_section_key",
                "viewer_connection_status",
                "add_source",
                "contact_relationship_status",
                "nickname_for_viewer",
            ] {
                if let Some(v) = s(k, f) {
                    assert!(has_fact(p, v), "{source} {f}={v}: {p:#?}");
                }
            }
            let phones: Vec<&str> = k["phones"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap())
                .collect();
            for ph in &phones {
                assert!(has_fact(p, ph), "{source} {ph}: {p:#?}");
            }
            if !phones.is_empty() {
                assert!(has_fact(p, &phones.join(", ")), "{p:#?}");
                let shown: Vec<&str> = k["display_phones"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap())
                    .collect();
                assert!(has_fact(p, &shown.join(", ")), "{p:#?}");
            }
            let times: Vec<String> = k["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            assert_eq!(time_values(p), times, "{p:#?}");
            let fbid = s(k, "fbid").unwrap();
            let person = if own {
                run.owner(source)
            } else {
                entities
                    .iter()
                    .find(|e| e.starts_with(&format!("facebook:{fbid} ")))
                    .cloned()
                    .unwrap_or_else(|| panic!("{fbid}: {entities:#?}"))
            };
            assert!(
                person.contains(&format!("account_id=facebook:{fbid}")),
                "{person}"
            );
            for ph in &phones {
                assert!(
                    person.contains(ph.trim_start_matches('+')),
                    "{ph}: {person}"
                );
            }
        }
        if s(want, "owner_name").is_some() {
            assert!(
                run.owner(source)
                    .contains(&format!("account_id=facebook:{uid}")),
                "{}",
                run.owner(source)
            );
        } else {
            assert!(
                !run.owner(source).contains("facebook:"),
                "{}",
                run.owner(source)
            );
        }

        // the sync properties, a time for the *_time_ms keys
        for pr in want["properties"].as_array().unwrap() {
            let (key, value) = (pr[0].as_str().unwrap(), pr[1].as_str().unwrap());
            let p = titled(&all, &format!("Facebook contacts sync {key}"));
            assert!(has_fact(p, value), "{p:#?}");
            if key.ends_with("time_ms") {
                assert_eq!(time_values(p), vec![value.to_string()]);
            } else {
                assert!(p.times.is_empty(), "{p:#?}");
            }
        }
        // the upload snapshot, counted
        match want.get("snapshot").filter(|x| !x.is_null()) {
            Some(snap) => {
                let p = titled(
                    &all,
                    &format!(
                        "Facebook contacts upload snapshot ({} local contacts)",
                        s(snap, "local").unwrap()
                    ),
                );
                assert!(has_fact(p, s(snap, "rows").unwrap()), "{p:#?}");
            }
            None => assert!(
                !all.iter()
                    .any(|p| p.title.starts_with("Facebook contacts upload snapshot"))
            ),
        }

        // the cached feed stories
        for st in want["stories"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Facebook feed story {}", s(st, "key").unwrap()),
            );
            assert_eq!(p.category, "social");
            for f in ["feed_type", "sort_key", "cursor", "media"] {
                if let Some(v) = s(st, f) {
                    assert!(has_fact(p, v), "{f}={v}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(st, "fetched").unwrap().to_string()]);
        }

        // the mention suggestions: users are persons, a page is not
        for m in want["mentions"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Facebook mention suggestion {}", s(m, "name").unwrap()),
            );
            for f in ["fbid", "subtext", "type", "status", "picture"] {
                if let Some(v) = s(m, f) {
                    assert!(has_fact(p, v), "{f}={v}: {p:#?}");
                }
            }
            let fbid = s(m, "fbid").unwrap();
            let person = fbid == uid
                || entities
                    .iter()
                    .any(|e| e.starts_with(&format!("facebook:{fbid} ")));
            assert_eq!(
                person,
                s(m, "type") == Some("User"),
                "{fbid}: {entities:#?}"
            );
        }

        // the foreground intervals
        for i in want["intervals"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Facebook in use for {} s", s(i, "seconds").unwrap()),
            );
            assert_eq!(p.category, "app_usage");
            if let Some(seq) = s(i, "seq") {
                assert!(has_fact(p, seq), "{p:#?}");
            }
            let mut times = vec![
                s(i, "start").unwrap().to_string(),
                s(i, "end").unwrap().to_string(),
            ];
            times.sort();
            assert_eq!(time_values(p), times);
        }

        // the preferences; a secret's value withheld
        for pr in want["prefs"].as_array().unwrap() {
            let (key, value) = (pr[0].as_str().unwrap(), pr[1].as_str().unwrap());
            let p = titled(&all, &format!("Facebook preference {key}"));
            assert!(has_fact(p, value), "{p:#?}");
        }
        for key in want["withheld"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Facebook preference {}", key.as_str().unwrap()),
            );
            assert!(has_fact(p, "withheld: the key names a secret"), "{p:#?}");
        }

        // never a token, cookie or session secret, in a phenomenon or in any output logged
        let secrets: Vec<&str> = want["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
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
        for p in &all {
            for x in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{x}: {p:#?}"
                );
            }
        }
    }

    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "Facebook app stores")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }

    // tree C: each cut or foreign copy noted, the good store beside them read, other apps'
    // files of the generic names neither read nor noted
    let want = &o["c"];
    let noted: Vec<(&str, &str)> = want["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    let all = run.all_phenomena("c");
    for pr in want["good_prefs"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!("Facebook preference {}", pr[0].as_str().unwrap()),
        );
        assert!(has_fact(p, pr[1].as_str().unwrap()), "{p:#?}");
    }
    for rel in want["not_read"].as_array().unwrap() {
        let rel = rel.as_str().unwrap();
        assert!(
            !run.unparsed("c").iter().any(|u| u.artefact.ends_with(rel)),
            "{rel}: {:#?}",
            run.unparsed("c")
        );
        assert!(
            !run.outputs("c")
                .iter()
                .any(|(tool, args, _)| tool.starts_with("sqlite") && args.contains(rel)),
            "{rel} read"
        );
    }
    for v in want["foreign_values"].as_array().unwrap() {
        let v = v.as_str().unwrap();
        assert!(
            !run.outputs("c").iter().any(|(_, _, text)| text.contains(v)),
            "{v}"
        );
    }
}
