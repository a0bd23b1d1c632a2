//! Google Docs and Google Sheets (`ios::googledocs`) and Box (`ios::boxnet`) on two iPhones and a
//! tree of damaged and foreign copies, written by `tests/fixtures/iosapps11/iosapps11.py`
//! (Python's sqlite3 and plistlib, keyed archives by `tests/fixtures/keyedarchive.py`; the files,
//! tables, columns and keys iLEAPP's googleDocs, googleSheets and box read). The generator's
//! record is the oracle: every document and spreadsheet with its title, id, type, MIME type,
//! ownership, revision, access level, the signed-in account of `docosKeyData` and its six Unix-ms
//! times (8-byte little-endian doubles decoded in the query), merged with its
//! `cross_document_metadata` row (a row without a store, a store without a row or title each
//! alone; iPhone B's older tables without `record_id`, `last_sync_finish_timestamp`,
//! `is_fast_track`, `resource_key`, its isOwner a double); every account id the preferences name
//! (the signed-in one and each account folder the owner's, one named only by a key not); the Box
//! account (a binary plist in data on A, JSON in data on B) as the owner's `box:<id>` with its
//! login and phone; every item with its path walked up the parents (one whose folder is not
//! cached, one whose JSON is cut), owner, shared link, favourite, times and offline download;
//! an offline id the cache lacks; recents, comments and annotations with their authors (other
//! users as persons `box:<id>`), previews. Tree C: a cut preferences file, a cut document store,
//! a store and a documentMetadata.db of other layouts, a Box preferences file without
//! lastUserJSON, an Item.db without items and a cut annotations.db are noted while the good
//! store and Recents.db beside them are read; a Slides container and another app's Item.db are
//! left alone.

use crate::android_support::{generate, has_fact, titled, triage};

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// What each property time marks.
const DOC_TIMES: [(&str, &str); 6] = [
    ("created", "created"),
    ("server_modified", "last modified on the server"),
    ("synced", "last synced to the device"),
    ("snapshot", "last server snapshot taken"),
    ("cold_started", "last opened in the app (cold start)"),
    ("warm_started", "last resumed in the app (warm start)"),
];

/// Checks one app's documents and accounts of one source against the oracle `g`.
fn google(run: &crate::android_support::Run, source: &str, g: &serde_json::Value) {
    let all = run.all_phenomena(source);
    let owner = run.owner(source);
    let (app, noun) = (s(&g["app"]), s(&g["noun"]));
    assert!(
        owner.contains(&format!("account_id={}", s(&g["account_folder"]))),
        "{owner}"
    );
    for d in g["documents"].as_array().unwrap() {
        let id = s(&d["id"]);
        let shown = d["title"].as_str().unwrap_or(id);
        let p = titled(&all, &format!("{app} {noun} {shown}"));
        assert_eq!(p.category, "files");
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        assert!(has_fact(p, s(&g["account_folder"])), "{p:#?}");
        let stored = p
            .verified_facts
            .iter()
            .any(|f| f.value.ends_with(&format!("/documents/{id}/{id}.db")));
        assert_eq!(stored, d["store"] == true, "{p:#?}");
        assert_eq!(
            p.interpretation.contains("never synced"),
            stored && d["title"].is_null(),
            "{}",
            p.interpretation
        );
        if d["store"] == true && d.get("mime").is_some() {
            for k in ["id", "doc_type", "mime", "rev", "acl", "jobset"] {
                assert!(has_fact(p, s(&d[k])), "{k}: {p:#?}");
            }
            match d["owned"].as_str() {
                Some(o) => assert!(has_fact(p, o), "{o}: {p:#?}"),
                None => assert!(!has_fact(p, "owned") && !has_fact(p, "not owned")),
            }
            assert_eq!(
                p.interpretation.contains("the account does not own it"),
                d["owned"] == "not owned",
                "{}",
                p.interpretation
            );
            let times = d["times"].as_object().unwrap();
            for (k, what) in DOC_TIMES {
                let marked = time_of(p, &format!("{app} {noun} {what}"));
                assert_eq!(marked, times.get(k).map(s), "{k}: {p:#?}");
            }
            match d["account"].as_object() {
                Some(a) => {
                    for k in ["name", "photo", "id", "email"] {
                        assert!(has_fact(p, s(&a[k])), "{k}: {p:#?}");
                    }
                    assert!(
                        owner.contains(&format!("email={}", s(&a["email"]))),
                        "{owner}"
                    );
                    assert!(
                        owner.contains(&format!("account_id={}", s(&a["id"]))),
                        "{owner}"
                    );
                }
                None => assert!(!p.verified_facts.iter().any(|f| f.value.contains('@'))),
            }
        }
        let ms = format!("{app} {noun} last updated on the server (milliseconds column)");
        let secs = format!("{app} {noun} last updated on the server (seconds column)");
        let finished = format!("{app} {noun} last sync finished");
        match d["meta"].as_object() {
            Some(m) => {
                assert!(
                    p.verified_facts
                        .iter()
                        .any(|f| f.value.ends_with("/shared/documentMetadata.db")),
                    "{p:#?}"
                );
                assert!(has_fact(p, id));
                assert!(has_fact(p, s(&m["doc_type"])));
                assert!(has_fact(p, s(&m["sync_failures"])), "{p:#?}");
                assert_eq!(time_of(p, &ms), Some(s(&m["server_updated_ms"])));
                assert_eq!(time_of(p, &secs), Some(s(&m["server_updated_s"])));
                // 0 and an absent column are no time
                assert_eq!(time_of(p, &finished), m["sync_finished"].as_str());
                if let Some(k) = m["resource_key"].as_str().filter(|k| !k.is_empty()) {
                    assert!(has_fact(p, k));
                }
                assert!(p.interpretation.contains("its row of documentMetadata.db"));
            }
            None => {
                assert!(time_of(p, &ms).is_none() && time_of(p, &finished).is_none());
                assert!(p.interpretation.contains("no row of documentMetadata.db"));
            }
        }
    }
    for a in g["accounts"].as_array().into_iter().flatten() {
        let id = s(&a["id"]);
        let p = titled(&all, &format!("{app} account {id}"));
        assert_eq!(p.category, "accounts");
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        assert!(has_fact(p, id));
        for k in a["keys"].as_array().unwrap() {
            assert!(has_fact(p, s(k)), "{k}: {p:#?}");
        }
        let signed = a["signed_in"] == true;
        assert_eq!(
            p.interpretation
                .contains("the account signed in to the app"),
            signed,
            "{}",
            p.interpretation
        );
        if signed {
            assert!(owner.contains(&format!("account_id={id}")), "{owner}");
        }
    }
}

/// Whether `source` has an entity of context `q` holding `ids` (`type=value`).
fn person(run: &crate::android_support::Run, source: &str, q: &str, ids: &[String]) -> bool {
    run.entities(source)
        .iter()
        .any(|e| e.starts_with(&format!("{q} [")) && ids.iter().all(|i| e.contains(i.as_str())))
}

/// Checks one source's Box phenomena and identities against the oracle `b`.
fn boxnet(run: &crate::android_support::Run, source: &str, b: &serde_json::Value) {
    let all = run.all_phenomena(source);
    let owner = run.owner(source);
    for p in all.iter().filter(|p| p.title.starts_with("Box ")) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // the account: the owner's
    let a = &b["account"];
    let p = titled(&all, &format!("Box account {}", s(&a["login"])));
    assert_eq!(p.category, "accounts");
    for k in ["id", "q", "login", "name"] {
        assert!(has_fact(p, s(&a[k])), "{k}: {p:#?}");
    }
    assert_eq!(time_of(p, "Box account created"), Some(s(&a["created"])));
    assert!(
        owner.contains(&format!("account_id={}", s(&a["q"]))),
        "{owner}"
    );
    assert!(
        owner.contains(&format!("email={}", s(&a["login"]))),
        "{owner}"
    );
    if let Some(phone) = a["phone"].as_str() {
        assert!(has_fact(p, phone));
        assert!(
            owner.contains(&format!("phone={}", phone.replace(' ', ""))),
            "{owner}"
        );
    }
    for k in ["job_title", "enterprise"] {
        if let Some(v) = a[k].as_str() {
            assert!(has_fact(p, v), "{k}: {p:#?}");
        }
    }
    // the account's own id is left to the owner
    assert!(
        !person(run, source, s(&a["q"]), &[]),
        "{:#?}",
        run.entities(source)
    );

    // items
    let items = b["items"].as_array().unwrap();
    let listed: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Box file ") || p.title.starts_with("Box folder "))
        .collect();
    assert_eq!(listed.len(), items.len(), "{listed:#?}");
    for it in items {
        let p = titled(&all, &format!("Box {} {}", s(&it["kind"]), s(&it["path"])));
        assert_eq!(p.category, "files");
        for k in ["id", "name", "path", "kind"] {
            assert!(has_fact(p, s(&it[k])), "{k}: {p:#?}");
        }
        for k in [
            "size",
            "sha1",
            "extension",
            "link",
            "link_access",
            "owner_q",
            "owner_login",
            "missing_parent",
        ] {
            match it[k].as_str() {
                Some(v) => assert!(has_fact(p, v), "{k}: {p:#?}"),
                None => assert!(it[k].is_null()),
            }
        }
        assert_eq!(
            p.interpretation.contains("the next parent was not cached"),
            !it["missing_parent"].is_null()
        );
        assert_eq!(has_fact(p, "favourite"), it["favourite"] == true);
        for (what, v) in it["iso_times"].as_object().unwrap() {
            assert_eq!(time_of(p, what), Some(s(v)), "{what}: {p:#?}");
        }
        assert_eq!(
            time_of(p, "Box app last fetched the item"),
            it["fetched"].as_str()
        );
        assert_eq!(
            time_of(p, "Box file downloaded for offline use"),
            it["offline"].as_str()
        );
        match it["owned_by_account"].as_bool() {
            Some(true) => assert!(p.interpretation.contains("The account owns it.")),
            Some(false) => assert!(p.interpretation.contains("Another user owns it")),
            None => assert!(!p.interpretation.contains("owns it")),
        }
        // every other user named: a person with the qualified id and the login
        for u in it["users"].as_array().unwrap() {
            let q = s(&u["q"]);
            assert!(
                person(
                    run,
                    source,
                    q,
                    &[
                        format!("account_id={q}"),
                        format!("email={}", s(&u["login"]))
                    ]
                ),
                "{q}: {:#?}",
                run.entities(source)
            );
            assert!(!owner.contains(q), "{owner}");
        }
    }
    for o in b["offline_alone"].as_array().unwrap() {
        let p = titled(&all, &format!("Box offline item {}", s(&o["id"])));
        assert_eq!(
            time_of(p, "Box file downloaded for offline use"),
            Some(s(&o["date"]))
        );
    }
    // recents, with the item's path where the cache holds it
    let recents = b["recents"].as_array().unwrap();
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("Box recent "))
            .count(),
        recents.len()
    );
    for r in recents {
        let shown = r["path"].as_str().unwrap_or(s(&r["item_id"]));
        let p = titled(
            &all,
            &format!("Box recent {} of {shown}", s(&r["interaction"])),
        );
        assert!(has_fact(p, s(&r["item_id"])));
        assert_eq!(time_of(p, "Box item used (recents)"), Some(s(&r["time"])));
    }
    // comments and annotations, their other authors as persons
    let comments = b["comments"].as_array().unwrap();
    assert_eq!(
        all.iter()
            .filter(
                |p| p.title.starts_with("Box comment ") || p.title.starts_with("Box annotation ")
            )
            .count(),
        comments.len()
    );
    for c in comments {
        let kind = s(&c["kind"]);
        let p = titled(
            &all,
            &format!("Box {kind} on {} by {}", s(&c["file"]), s(&c["author"])),
        );
        assert_eq!(p.category, "messages");
        for k in ["id", "message", "author_q", "file"] {
            assert!(has_fact(p, s(&c[k])), "{k}: {p:#?}");
        }
        if let Some(t) = c["tagged"].as_str() {
            assert!(has_fact(p, t));
        }
        assert_eq!(time_of(p, "Box comment made"), Some(s(&c["created"])));
        let edited = if kind == "comment" {
            "Box comment last edited"
        } else {
            "Box annotation last edited"
        };
        assert_eq!(time_of(p, edited), Some(s(&c["edited"])), "{p:#?}");
        assert_eq!(
            person(run, source, s(&c["author_q"]), &[]),
            c["person"] == true,
            "{:#?}",
            run.entities(source)
        );
    }
    for v in b["previews"].as_array().unwrap() {
        let p = titled(&all, &format!("Box preview of {}", s(&v["name"])));
        assert_eq!(p.category, "media");
        for k in ["file_id", "user", "representations", "path"] {
            assert!(has_fact(p, s(&v[k])), "{k}: {p:#?}");
        }
        assert_eq!(
            time_of(p, "Box preview last accessed"),
            Some(s(&v["accessed"]))
        );
    }
}

#[test]
fn iosapps11_google_docs_sheets_and_box_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps11/iosapps11.py",
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
    for source in ["a", "b", "c"] {
        for p in run.all_phenomena(source).iter().filter(|p| {
            ["Google Docs ", "Google Sheets ", "Box "]
                .iter()
                .any(|w| p.title.starts_with(w))
        }) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
    }

    // Google: every document of each app and source, and nothing else
    let apps = [
        ("a", vec!["docs"], "Google Docs document "),
        ("a", vec!["sheets"], "Google Sheets spreadsheet "),
        ("b", vec!["docs", "docs2"], "Google Docs document "),
        ("c", vec!["docs"], "Google Docs document "),
    ];
    for (source, keys, prefix) in &apps {
        let want: usize = keys
            .iter()
            .map(|k| o[*source][*k]["documents"].as_array().unwrap().len())
            .sum();
        let got = run
            .all_phenomena(source)
            .iter()
            .filter(|p| p.title.starts_with(prefix))
            .count();
        assert_eq!(got, want, "{source} {prefix}");
        for k in keys {
            google(&run, source, &o[*source][*k]);
        }
    }
    // an account id named only by a preference key is a fact, no identity
    let owner_a = run.owner("a");
    assert!(!owner_a.contains("109876543210987654321"), "{owner_a}");
    assert!(
        !run.identifiers("a")
            .iter()
            .any(|(_, v)| v.contains("109876543210987654321"))
    );
    // iPhone B's second account folder (a store, no metadata) is the owner's
    assert!(run.owner("b").contains("account_id=117766554433221100998"));
    assert_eq!(
        run.all_phenomena("b")
            .iter()
            .filter(|p| p.title.starts_with("Google Sheets "))
            .count(),
        0
    );

    // Box
    for source in ["a", "b"] {
        boxnet(&run, source, &o[source]["box"]);
    }
    // no secret: the stores read keep no password, token or key (a shared link's
    // is_password_enabled is a flag, not selected)

    // tree C: the damaged and foreign copies noted, the rest read, other apps' stores left alone
    let c_all = run.all_phenomena("c");
    for n in o["c"]["noted"].as_array().unwrap() {
        run.assert_noted("c", &[(s(&n[0]), s(&n[1]))]);
    }
    for r in o["c"]["recents"].as_array().unwrap() {
        let p = titled(
            &c_all,
            &format!(
                "Box recent {} of {}",
                s(&r["interaction"]),
                s(&r["item_id"])
            ),
        );
        assert_eq!(time_of(p, "Box item used (recents)"), Some(s(&r["time"])));
    }
    assert!(!c_all.iter().any(|p| p.title.starts_with("Box account ")));
    assert!(
        !c_all
            .iter()
            .any(|p| p.title.starts_with("Box file ") || p.title.starts_with("Box comment ")),
        "{:#?}",
        c_all.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    for id in o["c"]["left_alone"].as_array().unwrap() {
        let id = s(id);
        assert!(
            !c_all
                .iter()
                .any(|p| p.verified_facts.iter().any(|f| f.value.contains(id))),
            "{id}"
        );
        assert!(
            !run.unparsed("c").iter().any(|u| u.artefact.contains(id)),
            "{id}: {:#?}",
            run.unparsed("c")
        );
    }
    // the good stores of A and B are not noted
    for source in ["a", "b"] {
        let ours: Vec<_> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| {
                u.artefact.contains("/localStore/")
                    || u.artefact.contains("BoxNet")
                    || u.artefact.contains("/Documents/db/")
                    || u.artefact.contains("boxpreview")
            })
            .collect();
        assert!(ours.is_empty(), "{source}: {ours:#?}");
    }
}
