//! Airbnb (`ios::airbnb`), Google Photos (`ios::googlephotos`), Google Drive's DriveKit store
//! (`crate::googledrive`, shared with Android) and Potato Chat (`ios::potatochat`) on two
//! iPhones and an Android phone, written by `tests/fixtures/iosapps2/iosapps2.py` (Python's
//! sqlite3 and zlib, Protocol Buffers messages written by hand; the files, tables, columns and
//! protobuf fields iLEAPP's Airbnb, googlePhotos, googleDrive and potatoChat and ALEAPP's Cello
//! read). The generator's record is the oracle: every Airbnb message with its thread, sender,
//! text (every part of a multipart one), translation and times, each conversation with its
//! participants, the account's own user (the file name's id) as the owner's `airbnb:` id and
//! the others as `airbnb:` persons; every Google Photos library item with its file name,
//! camera, unpacked position (negative halves included), dimensions and the device asset of its
//! dedup key, the device items, albums, shared albums with their share link and recipients,
//! shared-album items with their album, recent searches (iPhone B's older store without them);
//! every Google Drive item with its folder walked up its parents and its times, the account
//! (newer and older account message) as the owner's on each device, the Android folder's
//! e-mail too; every Potato Chat user as a `potato:` person (phone, names, user name), the
//! sender of outgoing messages as the owner, every message with its text or document name
//! (iPhone B's `_v27` tables). Noted: iPhone A's unread channel messages; iPhone B's Airbnb
//! store without `messages`, `photos-*.db` without `ServerPhotos`, a `cello.db` that is no
//! database and a `tgdata.db` without messages.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

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

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

#[test]
fn airbnb_google_photos_drive_and_potato_chat_on_two_iphones_and_an_android_phone() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps2/iosapps2.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Rome", Some("IT")),
        ("b", &b, "Europe/Oslo", Some("NO")),
        ("c", &c, "Europe/Rome", Some("IT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        for p in all.iter().filter(|p| {
            ["Airbnb", "Google Photos", "Google Drive", "Potato Chat"]
                .iter()
                .any(|w| p.title.starts_with(w))
        }) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
    }

    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let ids = run.identifiers(source);
        let has_id = |ty: &str, v: &str| ids.iter().any(|(t, n)| t == ty && n == v);
        let owner = run.owner(source);

        // Airbnb: the file name's user is the owner; every message, user and thread
        let ab = &o["airbnb"];
        let own = ab["own"].as_i64().unwrap();
        assert!(
            owner.contains(&format!("account_id=airbnb:{own}")),
            "{owner}"
        );
        assert!(
            owner.contains(&format!(
                "display_name={}",
                s(&ab["own_name"]).to_lowercase()
            )),
            "{owner}"
        );
        for (id, name) in ab["users"].as_object().unwrap() {
            let p = titled(&all, &format!("Airbnb user {} ({id})", s(name)));
            assert_eq!(p.category, "contacts");
            assert!(has_fact(p, id) && has_fact(p, s(name)), "{p:#?}");
            assert!(has_id("account_id", &format!("airbnb:{id}")), "{ids:?}");
            assert!(has_id("display_name", &s(name).to_lowercase()), "{ids:?}");
        }
        let messages: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Airbnb message "))
            .collect();
        assert_eq!(messages.len(), ab["messages"].as_array().unwrap().len());
        for m in ab["messages"].as_array().unwrap() {
            let sent = m["sent"].as_bool().unwrap();
            let what = if sent {
                "Message sent"
            } else {
                "Message received"
            };
            let created = m["created"].to_string();
            let p = messages
                .iter()
                .find(|p| time_of(p, what) == Some(created.as_str()))
                .unwrap_or_else(|| panic!("{m}: {messages:#?}"));
            assert_eq!(p.category, "messages");
            let thread = m["thread"].to_string();
            if sent {
                assert!(
                    p.title
                        .starts_with(&format!("Airbnb message sent in thread {thread}: ")),
                    "{}",
                    p.title
                );
            } else {
                assert!(
                    p.title.starts_with(&format!(
                        "Airbnb message from {} in thread {thread}: ",
                        s(&m["name"])
                    )),
                    "{}",
                    p.title
                );
            }
            assert!(has_fact(p, &thread) && has_fact(p, &m["user"].to_string()));
            assert!(has_fact(p, s(&m["user_type"])), "{p:#?}");
            for k in ["body", "translated", "type"] {
                if let Some(v) = m[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            if let Some(c) = m["content"].as_str() {
                assert!(has_fact(p, c), "{p:#?}");
            }
            assert_eq!(
                time_of(p, "Airbnb message updated"),
                Some(m["updated"].to_string().as_str())
            );
            match m["fetched"].as_i64() {
                Some(f) => assert_eq!(
                    time_of(p, "Airbnb message fetched by the app"),
                    Some(f.to_string().as_str())
                ),
                None => assert!(time_of(p, "Airbnb message fetched by the app").is_none()),
            }
        }
        for t in ab["threads"].as_array().unwrap() {
            let prefix = format!("Airbnb conversation {}: ", t["thread"]);
            let p = all
                .iter()
                .find(|p| p.title.starts_with(&prefix))
                .unwrap_or_else(|| panic!("{prefix}"));
            for who in t["participants"].as_array().unwrap() {
                assert!(p.title.contains(s(who)), "{}", p.title);
            }
            assert!(has_fact(p, &t["count"].to_string()), "{p:#?}");
            assert_eq!(
                time_of(p, "First Airbnb message of the thread"),
                Some(t["first"].to_string().as_str())
            );
            assert_eq!(
                time_of(p, "Last Airbnb message of the thread"),
                Some(t["last"].to_string().as_str())
            );
        }

        // Google Photos: library items with position, camera and device asset
        let gp = &o["photos"];
        for i in gp["items"].as_array().unwrap() {
            let label = i["name"].as_str().unwrap_or_else(|| s(&i["mediaKey"]));
            let p = titled(&all, &format!("Google Photos item {label}"));
            assert_eq!(p.category, "media");
            assert!(has_fact(p, s(&i["mediaKey"])), "{p:#?}");
            for k in ["width", "height", "size"] {
                assert!(has_fact(p, &i[k].to_string()), "{k}: {p:#?}");
            }
            match (i["lat"].as_f64(), i["lon"].as_f64()) {
                (Some(_), Some(_)) => {
                    assert!(
                        has_number(p, &i["lat"]) && has_number(p, &i["lon"]),
                        "{p:#?}"
                    )
                }
                _ => assert!(
                    !p.interpretation.contains("latitude "),
                    "{}",
                    p.interpretation
                ),
            }
            if let Some(cam) = i["camera"].as_array() {
                assert!(has_fact(p, s(&cam[0])) && has_fact(p, s(&cam[1])), "{p:#?}");
            }
            if let Some(v) = i["video_ms"].as_i64() {
                assert!(has_fact(p, &v.to_string()));
            }
            if let Some(tz) = i["tz_minutes"].as_i64() {
                assert!(has_fact(p, &tz.to_string()), "{p:#?}");
            }
            if let Some(asset) = i["asset"].as_object() {
                assert!(has_fact(p, s(&asset["assetID"])), "{p:#?}");
                let device = titled(
                    &all,
                    &format!("Google Photos device item {}", s(&asset["assetID"])),
                );
                assert!(has_fact(device, s(&asset["caption"])), "{device:#?}");
                assert!(
                    p.interpretation
                        .contains(&format!("viewed {} times", asset["viewCount"])),
                    "{}",
                    p.interpretation
                );
            }
            assert_eq!(
                time_of(p, "Google Photos item taken"),
                Some(i["timestampMs"].to_string().as_str())
            );
            match i["client"].as_i64() {
                Some(t) => assert_eq!(
                    time_of(p, "Google Photos item created on the client"),
                    Some(t.to_string().as_str())
                ),
                None => assert!(time_of(p, "Google Photos item created on the client").is_none()),
            }
        }
        for al in gp["albums"].as_array().unwrap() {
            let p = titled(&all, &format!("Google Photos album {}", s(&al["title"])));
            for k in ["key", "owner", "cover"] {
                assert!(has_fact(p, s(&al[k])), "{k}: {p:#?}");
            }
            assert!(has_fact(p, &al["count"].to_string()));
            let times = time_values(p);
            for k in ["earliest", "latest", "modified"] {
                assert!(times.contains(&al[k].to_string()), "{k}: {times:?}");
            }
        }
        for sa in gp["shared"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Google Photos shared album {}", s(&sa["title"])),
            );
            for k in ["key", "link", "owner"] {
                assert!(has_fact(p, s(&sa[k])), "{k}: {p:#?}");
            }
            assert!(has_fact(p, &sa["recipients"].to_string()));
            assert_eq!(
                time_of(p, "Google Photos shared album last activity"),
                Some(sa["lastActivity"].to_string().as_str())
            );
            assert_eq!(
                time_of(p, "Google Photos shared album last viewed"),
                Some(sa["lastView"].to_string().as_str())
            );
        }
        for si in gp["shared_items"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Google Photos shared album item {} in {}",
                    s(&si["name"]),
                    s(&si["album"])
                ),
            );
            assert!(has_fact(p, s(&si["actor"])) && has_fact(p, s(&si["album"])));
            assert!(has_number(p, &si["lat"]) && has_number(p, &si["lon"]));
            assert_eq!(
                time_of(p, "Google Photos shared item added to the album"),
                Some(si["added"].to_string().as_str())
            );
        }
        let searches: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Photos recent search "))
            .collect();
        assert_eq!(searches.len(), gp["searches"].as_array().unwrap().len());
        for se in gp["searches"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Google Photos recent search {}", s(&se["label"])),
            );
            assert!(has_number(p, &se["score"]));
        }

        // Potato Chat: users as potato: persons, the sender of outgoing messages the owner
        let pc = &o["potato"];
        let own = pc["own"].as_i64().unwrap();
        assert!(
            owner.contains(&format!("account_id=potato:{own}")),
            "{owner}"
        );
        for u in pc["users"].as_array().unwrap() {
            let uid = u["uid"].as_i64().unwrap();
            let p = titled(&all, &format!("Potato Chat user {} ({uid})", s(&u["name"])));
            assert_eq!(p.category, "contacts");
            assert!(has_id("account_id", &format!("potato:{uid}")), "{ids:?}");
            assert!(
                has_id("display_name", &s(&u["name"]).to_lowercase()),
                "{ids:?}"
            );
            if let Some(ph) = u["phone"].as_str() {
                let e164 = format!("+{ph}");
                assert!(has_fact(p, &e164) && has_id("phone", &e164), "{ids:?}");
            }
            if let Some(n) = u["username"].as_str() {
                assert!(has_fact(p, n) && has_id("nickname", n), "{ids:?}");
            }
            if let Some(l) = u["local"].as_str() {
                assert!(has_fact(p, l), "{p:#?}");
            }
            match u["last_seen"].as_i64() {
                Some(t) => assert_eq!(
                    time_of(p, "Potato Chat user last seen"),
                    Some(t.to_string().as_str())
                ),
                None => assert!(p.times.is_empty()),
            }
            assert_eq!(
                p.interpretation.contains("the device user's own"),
                uid == own,
                "{}",
                p.interpretation
            );
            if uid == own {
                assert!(
                    owner.contains(&format!("display_name={}", s(&u["name"]).to_lowercase())),
                    "{owner}"
                );
            }
        }
        let chat: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Potato Chat message "))
            .collect();
        assert_eq!(chat.len(), pc["messages"].as_array().unwrap().len());
        for m in pc["messages"].as_array().unwrap() {
            let sent = m["outgoing"].as_bool().unwrap();
            let what = if sent {
                "Message sent"
            } else {
                "Message received"
            };
            let date = m["date"].to_string();
            let p = chat
                .iter()
                .find(|p| time_of(p, what) == Some(date.as_str()))
                .unwrap_or_else(|| panic!("{m}: {chat:#?}"));
            assert_eq!(p.category, "messages");
            assert!(has_fact(p, &m["mid"].to_string()) && has_fact(p, &m["cid"].to_string()));
            if let Some(t) = m["text"].as_str() {
                assert!(has_fact(p, t), "{p:#?}");
            }
            if let Some(f) = m["file"].as_str() {
                assert!(has_fact(p, f), "{p:#?}");
                assert!(p.title.ends_with(&format!(": file {f}")), "{}", p.title);
                assert!(has_fact(p, &m["media_bytes"].to_string()));
            }
            if sent {
                assert!(
                    p.title.starts_with("Potato Chat message to "),
                    "{}",
                    p.title
                );
            } else {
                assert!(
                    p.title.starts_with(&format!(
                        "Potato Chat message from {}: ",
                        s(&m["from_name"])
                    )),
                    "{}",
                    p.title
                );
            }
            if m["chat_name"].is_null() {
                assert!(p.interpretation.contains("a secret chat or a group"));
            }
        }
    }

    // Google Drive: the account and every item on both iPhones and the Android phone
    for source in ["a", "b", "c"] {
        let d = &o[source]["drive"];
        let all = run.all_phenomena(source);
        let owner = run.owner(source);
        let email = s(&d["email"]);
        let p = titled(&all, &format!("Google Drive account {email}"));
        assert_eq!(p.category, "accounts");
        assert!(
            has_fact(p, s(&d["id"])) && has_fact(p, s(&d["name"])),
            "{p:#?}"
        );
        assert!(has_fact(p, s(&d["root_title"])), "{p:#?}");
        assert!(has_fact(p, s(&d["folder_account"])), "{p:#?}");
        if let Some(img) = d["image"].as_str() {
            assert!(has_fact(p, img));
        }
        for want in [
            format!("account_id={}", s(&d["id"])),
            format!("email={email}"),
            format!("display_name={}", s(&d["name"]).to_lowercase()),
        ] {
            assert!(owner.contains(&want), "{source}: {want}: {owner}");
        }
        let items: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Drive item "))
            .collect();
        assert_eq!(items.len(), d["items"].as_array().unwrap().len());
        for i in d["items"].as_array().unwrap() {
            let title = match i["folder"].as_str() {
                Some(f) => format!("Google Drive item {f}/{}", s(&i["title"])),
                None => format!("Google Drive item {}", s(&i["title"])),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "files");
            assert!(has_fact(p, s(&i["id"])) && has_fact(p, s(&i["mime_type"])));
            if let Some(f) = i["folder"].as_str() {
                assert!(has_fact(p, f));
            }
            let mut want: Vec<String> = i["times"]
                .as_object()
                .unwrap()
                .values()
                .map(|v| v.to_string())
                .collect();
            if let Some(m) = i["offline"]["offlineLastModifiedDate"].as_str() {
                want.push(m.to_string());
            }
            want.sort();
            assert_eq!(time_values(p), want, "{p:#?}");
            if let Some(st) = i["offline"]["offlineStatus"].as_str() {
                assert!(p.interpretation.contains(&format!("offline status {st}")));
            }
            if i["is_owner"] == 0 {
                assert!(
                    p.interpretation.contains("owned by the account 0"),
                    "{}",
                    p.interpretation
                );
            }
        }
    }
    // the Android folder names the account by its e-mail (also the message's)
    assert!(
        run.identifiers("c")
            .contains(&("email".into(), "lucia.ferri@example.com".into()))
    );

    // noted: A's channel messages; B's foreign or damaged copies; nothing of what was read
    run.assert_noted(
        "a",
        &[("Documents/tgdata.db", "group and channel messages")],
    );
    let b = &o["b"];
    run.assert_noted(
        "b",
        &[
            (s(&b["airbnb_noted"]), "no messages table"),
            (s(&b["photos_noted"]), "no ServerPhotos table"),
            (s(&b["potato_noted"]), "no messages_v<n> table"),
        ],
    );
    let drive = s(&b["drive_noted"]);
    assert!(
        run.unparsed("b").iter().any(|u| u.artefact.ends_with(drive)
            && (u.reason.contains("not a database") || u.reason.contains("malformed"))),
        "{:#?}",
        run.unparsed("b")
    );
    for read in [
        "user_30117781_messaging_core.sqlite3",
        "photos-9f8e7d6c.db",
        "gdx-cello/cello.db",
        "00000000B901/Documents/tgdata.db",
    ] {
        assert!(
            !run.unparsed("b").iter().any(|u| u.artefact.ends_with(read)),
            "{read}: {:#?}",
            run.unparsed("b")
        );
    }
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.ends_with("cello.db")),
        "{:#?}",
        run.unparsed("c")
    );

    // coverage: each catalogue entry is examined where its store is
    use masf_agents::Plugin;
    let invs = run.session.invocation_summaries().unwrap();
    for (source, catalogue, names) in [
        (
            "a",
            masf_plugins::ios::Ios.expected_artefacts(),
            &[
                "Airbnb messaging_core.sqlite3",
                "Google Photos photos-*.db",
                "Google Drive cello.db",
                "Potato Chat tgdata.db",
            ][..],
        ),
        (
            "c",
            masf_plugins::android::AndroidPlugin.expected_artefacts(),
            &["Google Drive cello.db"][..],
        ),
    ] {
        let cov = masf_graph::views::source_coverage(source, &catalogue, &invs);
        for name in names {
            let item = cov.items.iter().find(|i| i.name == *name).unwrap();
            assert!(item.examined, "{source}: {item:?}");
        }
    }
}
