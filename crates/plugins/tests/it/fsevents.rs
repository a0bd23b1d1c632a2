//! FSEvents (`crate::fsevents`, the `read_fsevents` tool) on the two macOS volumes of the corpus
//! (plaso's `spotlight.10.13.dmg` and `spotlight.12.dmg`: UDIF → GPT → HFS+, logs of version 1
//! and 2 pages, read by the generic tree triage of the disk plugin), and on the same logs placed
//! where an iPhone keeps them (`/private/var/.fseventsd`, `/private/var/mobile/.fseventsd`: the
//! iOS plugin). The oracle is `tests/fixtures/fsevents/decode.py`, an independent decoder
//! (Python's gzip and struct) run on the log files copied out of the volumes: every record it
//! decodes is a phenomenon with its path, event id, flags and node id; every log file a
//! phenomenon dated by its modification time. A third iPhone holds a log that is no gzip, one
//! whose page has an unknown signature and a cut copy of a real log beside a good one: each is
//! noted, the good log read whole.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use masf_evidence::fs::EntryKind;
use masf_testkit::corpus;

use crate::android_support::{has_fact, repo, titled, triage};

/// Copies the `.fseventsd` folder of a corpus DMG's volume into `to`; returns its logs' names
/// (not `fseventsd-uuid`).
fn logs_of(dmg: &str, to: &Path) -> Vec<String> {
    let s = masf_evidence::scan::scan(&corpus::path(&format!("container/udif/{dmg}"))).unwrap();
    let fs = s.file_systems()[0].fs.clone();
    std::fs::create_dir_all(to).unwrap();
    let mut names = Vec::new();
    for e in fs.list_dir("/.fseventsd").unwrap() {
        if e.kind != EntryKind::File || e.name.starts_with('.') {
            continue;
        }
        let b = fs.open(&e.path).unwrap();
        let mut data = vec![0u8; b.len() as usize];
        b.read_exact_at(0, &mut data).unwrap();
        std::fs::write(to.join(&e.name), data).unwrap();
        if e.name.bytes().all(|b| b.is_ascii_hexdigit()) {
            names.push(e.name);
        }
    }
    names.sort();
    names
}

/// The oracle's records of the logs in `dir`: (file, version, path, event id, flags, node id).
fn oracle(dir: &Path) -> Vec<Vec<String>> {
    let out = std::process::Command::new("python3")
        .arg(repo("tests/fixtures/fsevents/decode.py"))
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// An iPhone tree holding `logs` (from `from`) in `folder` (relative to the tree's root).
fn iphone(root: &Path, folder: &str, from: &Path, logs: &[String]) -> PathBuf {
    std::fs::create_dir_all(root.join("private/var/mobile/Library/Preferences")).unwrap();
    std::fs::create_dir_all(root.join("private/var/mobile/Media")).unwrap();
    let dir = root.join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    for l in logs {
        std::fs::copy(from.join(l), dir.join(l)).unwrap();
    }
    dir
}

/// A source's expectation: its id, its FSEvents folder, the oracle's records, its logs.
type Want = (String, String, Vec<Vec<String>>, Vec<String>);

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn fsevents_of_two_macos_volumes_and_two_iphones_match_an_independent_decoder() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        ("plaso-spotlight.10.13.dmg", "/private/var/.fseventsd"),
        ("plaso-spotlight.12.dmg", "/private/var/mobile/.fseventsd"),
    ];
    let mut sources: Vec<(String, PathBuf)> = Vec::new();
    let mut want: Vec<Want> = Vec::new();
    for (i, (dmg, ios_folder)) in cases.iter().enumerate() {
        let copied = tmp.path().join(format!("logs{i}"));
        let logs = logs_of(dmg, &copied);
        assert!(!logs.is_empty(), "{dmg}");
        let rows = oracle(&copied);
        assert!(!rows.is_empty(), "{dmg}");
        sources.push((
            format!("mac{i}"),
            corpus::path(&format!("container/udif/{dmg}")),
        ));
        want.push((
            format!("mac{i}"),
            "/.fseventsd".into(),
            rows.clone(),
            logs.clone(),
        ));
        let ios = tmp.path().join(format!("iphone{i}"));
        iphone(&ios, ios_folder.trim_start_matches('/'), &copied, &logs);
        sources.push((format!("ios{i}"), ios));
        want.push((format!("ios{i}"), ios_folder.to_string(), rows, logs));
    }
    // a third iPhone: a good log beside a log that is no gzip, a page of an unknown signature
    // and a cut copy of a real log
    let bad = tmp.path().join("iphone-bad");
    let good = &want[1].3[0];
    let dir = iphone(
        &bad,
        "private/var/.fseventsd",
        &tmp.path().join("logs0"),
        std::slice::from_ref(good),
    );
    std::fs::write(dir.join("00000000000000aa"), b"not a gzip stream").unwrap();
    std::fs::write(
        dir.join("00000000000000bb"),
        gzip(b"XSLD\0\0\0\0\x20\0\0\0some bytes that are no page.."),
    )
    .unwrap();
    let whole = std::fs::read(tmp.path().join("logs0").join(good)).unwrap();
    std::fs::write(dir.join("00000000000000cc"), &whole[..whole.len() / 2]).unwrap();
    sources.push(("bad".into(), bad));

    let refs: Vec<(&str, &Path, &str, Option<&str>)> = sources
        .iter()
        .map(|(id, p)| (id.as_str(), p.as_path(), "UTC", None))
        .collect();
    let run = triage(&refs);
    assert_eq!(run.rejections(), Vec::<String>::new());

    for (source, folder, rows, logs) in &want {
        let all = run.all_phenomena(source);
        let records: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("FSEvents ") && !p.title.starts_with("FSEvents log "))
            .collect();
        assert_eq!(records.len(), rows.len(), "{source}: {records:#?}");
        for r in rows {
            let (path, id, flags, node) = (&r[2], &r[3], &r[4], &r[5]);
            let p = records
                .iter()
                .find(|p| has_fact(p, id) && has_fact(p, flags))
                .unwrap_or_else(|| panic!("{source}: record {r:?} in {records:#?}"));
            assert_eq!(p.category, "files");
            if !path.is_empty() {
                assert!(has_fact(p, path), "{source} {r:?}: {p:#?}");
                assert!(
                    p.title.starts_with(&format!("FSEvents {path}: ")),
                    "{}",
                    p.title
                );
            }
            if !node.is_empty() {
                assert!(has_fact(p, node), "{source} {r:?}: {p:#?}");
            }
            assert!(has_fact(p, &format!("{}SLD", r[1])), "{p:#?}");
            assert!(
                p.times.is_empty(),
                "a record has no time of its own: {p:#?}"
            );
        }
        // "LICENSE" created with its content (flags 0x00800111): the words say so
        let licence = titled(
            &all,
            "FSEvents LICENSE: created; content modified; permissions changed; file",
        );
        assert!(has_fact(licence, "0x00800111"));
        for log in logs {
            let p = titled(&all, &format!("FSEvents log {log} of {folder}"));
            assert_eq!(p.times.len(), 1, "{p:#?}");
            assert!(p.times[0].description.starts_with("FSEvents log written"));
        }
        assert!(
            run.unparsed(source)
                .iter()
                .all(|u| !u.artefact.contains(".fseventsd")),
            "{source}: {:#?}",
            run.unparsed(source)
        );
    }
    // the broken logs noted, the good one read whole
    run.assert_noted(
        "bad",
        &[
            (".fseventsd", "00000000000000aa: not gzip-compressed"),
            (".fseventsd", "no 1SLD, 2SLD or 3SLD"),
            (".fseventsd", "00000000000000cc: gzip"),
        ],
    );
    let good_rows = oracle(&tmp.path().join("logs0"))
        .into_iter()
        .filter(|r| &r[0] == good)
        .count();
    let bad_all = run.all_phenomena("bad");
    let read = bad_all
        .iter()
        .filter(|p| p.title.starts_with("FSEvents ") && !p.title.starts_with("FSEvents log "))
        .filter(|p| has_fact(p, good))
        .count();
    assert_eq!(read, good_rows);
}
