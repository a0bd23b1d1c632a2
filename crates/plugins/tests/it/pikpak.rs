//! PikPak's stores (`android::pikpak`) on two Android phones, written by
//! `tests/fixtures/pikpak/pikpak.py` (Python's sqlite3, the tables and columns ALEAPP's
//! pikpakCloudlist, pikpakDownloads and pikpakPlay read). The generator's record is the oracle:
//! every cloud file or folder with its name, kind, size, hash, user id and times (date text on
//! phone A, Unix seconds on phone B); every download with its source (a magnet or a web link),
//! local file, bytes and times; every video played with its positions and time (greenDAO's
//! upper-case columns on phone A, lower-case on phone B); the drive's one user id observed as the
//! owner's on phone A, none on phone B whose list names two; a truncated downloads store and a
//! `greendao.db` of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn pikpak_cloud_files_downloads_and_plays_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/pikpak/pikpak.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Singapore", Some("SG")),
        ("b", &b, "Asia/Manila", Some("PH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        // the cloud drive: one per file or folder, with its times as stored
        let files = o["files"].as_array().unwrap();
        assert_eq!(count("PikPak cloud "), files.len());
        for f in files {
            let kind = if s(f, "kind").unwrap().contains("folder") {
                "folder"
            } else {
                "file"
            };
            let p = titled(
                &all,
                &format!("PikPak cloud {kind} {}", s(f, "name").unwrap()),
            );
            assert_eq!(p.category, "files");
            for k in ["kind", "id", "size", "hash", "user_id", "url"] {
                if let Some(v) = s(f, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let mut times: Vec<String> = [
                "create_time",
                "modify_time",
                "delete_time",
                "local_update_time",
            ]
            .iter()
            .filter_map(|k| s(f, k))
            .collect();
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        // the downloads: the source of each (a magnet or a web link) and where it was written
        let downloads = o["downloads"].as_array().unwrap();
        assert_eq!(count("PikPak download "), downloads.len());
        for d in downloads {
            let uri = s(d, "uri").unwrap();
            let p = titled(
                &all,
                &format!(
                    "PikPak download {}",
                    s(d, "title").unwrap_or_else(|| uri.clone())
                ),
            );
            assert!(has_fact(p, &uri), "{p:#?}");
            for k in ["_data", "total_bytes", "current_bytes", "status"] {
                if let Some(v) = s(d, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let mut times = vec![s(d, "create_time").unwrap(), s(d, "lastmod").unwrap()];
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        // the videos played, whatever the case of greenDAO's columns
        let plays = o["plays"].as_array().unwrap();
        assert_eq!(count("PikPak played "), plays.len());
        for v in plays {
            let p = titled(&all, &format!("PikPak played {}", s(v, "name").unwrap()));
            assert_eq!(p.category, "media");
            for k in ["duration", "played_time", "max_played_time"] {
                assert!(has_fact(p, &s(v, k).unwrap()), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(v, "last_play_timestamp").unwrap()]);
        }
        // the drive's account: the owner's when the list names one user id only
        let owner = run.owner(source);
        match s(o, "owner") {
            Some(user) => assert!(
                owner.contains(&format!("account_id=pikpak:{user}")),
                "{owner}"
            ),
            None => assert!(!owner.contains("pikpak:"), "{owner}"),
        }
    }
    // phone A: the torrent fetched by its magnet link, written to the phone
    let all = run.all_phenomena("a");
    let magnet = titled(&all, "PikPak download Harbour.Lights.2023.1080p");
    assert!(
        has_fact(
            magnet,
            "/storage/emulated/0/Download/PikPak/Harbour.Lights.2023.1080p.mkv"
        ),
        "{magnet:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.pikcloud.pikpak/databases/pikpak_downloads.db",
                "malformed",
            ),
            (
                "user/11/com.pikcloud.pikpak/databases/greendao.db",
                "VIDEO_PLAY_RECORD",
            ),
        ],
    );
}
