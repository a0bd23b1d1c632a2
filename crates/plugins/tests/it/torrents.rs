//! BitTorrent files (`torrentfile`, shared by both platforms) of an Android phone and an iPhone,
//! written by libtorrent itself through `tests/fixtures/torrents/torrents.py`: a two-file
//! torrent and the resume data a client keeps for it, a single-file torrent. The generator's
//! record is the oracle — libtorrent's own info hash, name, files and sizes, trackers, comment,
//! creator, creation date, and the resume data's save path, times and totals; a `.resume`
//! that is no bencode and a torrent cut in half are noted, the rest read.

use masf_graph::TimeEncoding;

use crate::android_support::{generate, has_fact, triage};

#[test]
fn torrent_files_and_resume_data_on_an_android_phone_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "libtorrent",
        "tests/fixtures/torrents/torrents.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Paris", Some("FR")),
        ("b", &b, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Torrent file: ")
                    || p.title.starts_with("Torrent resume data: ")
            })
            .collect();
        let expected = o[source].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{source}: {found:#?}");
        for t in expected {
            let resume = t.get("resume").is_some();
            let name = t["name"].as_str().unwrap();
            let title = format!(
                "{}: {name}",
                if resume {
                    "Torrent resume data"
                } else {
                    "Torrent file"
                }
            );
            let p = found
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{title}: {found:#?}"));
            assert_eq!(p.category, "files");
            assert!(has_fact(p, t["path"].as_str().unwrap()), "{p:#?}");
            assert!(has_fact(p, t["info_hash"].as_str().unwrap()), "{p:#?}");
            for f in t["files"].as_array().unwrap() {
                let last = f[0].as_str().unwrap().rsplit('/').next().unwrap();
                assert!(has_fact(p, last), "{last}: {p:#?}");
                assert!(has_fact(p, &f[1].to_string()));
            }
            for tr in t["trackers"].as_array().unwrap() {
                assert!(has_fact(p, tr.as_str().unwrap()), "{tr}: {p:#?}");
            }
            for k in ["comment", "creator"] {
                if let Some(v) = t[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            let times: Vec<(&str, &str)> = p
                .times
                .iter()
                .map(|m| {
                    (
                        m.description.as_str(),
                        p.verified_facts[m.fact].value.as_str(),
                    )
                })
                .collect();
            assert!(
                p.times
                    .iter()
                    .all(|m| m.encoding == TimeEncoding::UnixSeconds)
            );
            if let Some(c) = t["created"].as_i64() {
                assert!(
                    times.contains(&("Torrent created", c.to_string().as_str())),
                    "{times:?}"
                );
            }
            if resume {
                assert!(has_fact(p, t["save_path"].as_str().unwrap()));
                for k in ["downloaded", "uploaded"] {
                    assert!(has_fact(p, &t[k].to_string()), "{k}");
                }
                for (what, k) in [
                    ("Torrent added to the client", "added"),
                    ("Torrent download completed", "completed"),
                ] {
                    assert!(
                        times.contains(&(what, t[k].to_string().as_str())),
                        "{times:?}"
                    );
                }
            }
        }
    }
    run.assert_noted("a", &[("notes.resume", "not bencode")]);
    run.assert_noted("b", &[("cut.torrent", "not bencode at byte")]);
}
