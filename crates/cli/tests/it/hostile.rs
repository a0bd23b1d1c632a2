//! Hostile sources in a multi-source case (issue 24, part 3): paths longer than the kernel takes
//! whole, trees thousands of levels deep, a truncated E01 and a source that cannot be read at
//! all each affect only their own source; every other source is registered, examined and
//! reported, and the failing one is named with its reason.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use masf_testkit::corpus;
use rustix::fs::{CWD, Mode, OFlags, mkdirat, openat};

use crate::support::{masf, masf_ok};

/// `depth` nested folders named `name` below `root`, made one level at a time relative to the
/// open parent (the whole path is far beyond PATH_MAX), with `text` in `file` at the bottom.
/// Returns the tree path of that file below `root`.
fn nested(root: &Path, name: &str, depth: usize, file: &str, text: &str) -> String {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let mut dir: OwnedFd = openat(CWD, root, flags, Mode::empty()).unwrap();
    let mut tree = String::new();
    for _ in 0..depth {
        mkdirat(&dir, name, Mode::from_raw_mode(0o755)).unwrap();
        dir = openat(&dir, name, flags, Mode::empty()).unwrap();
        tree.push('/');
        tree.push_str(name);
    }
    let f = openat(
        &dir,
        file,
        OFlags::WRONLY | OFlags::CREATE | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o644),
    )
    .unwrap();
    rustix::io::write(&f, text.as_bytes()).unwrap();
    format!("{tree}/{file}")
}

fn case(dir: &Path, sources: &[&Path]) -> PathBuf {
    let mut args = vec!["init", dir.to_str().unwrap()];
    args.extend(sources.iter().map(|p| p.to_str().unwrap()));
    masf_ok(&args);
    dir.join("case.yaml")
}

/// `masf run --json`, expecting exit code `code` (1 when some evidence could not be read: the
/// report is written all the same).
fn run_json(case: &Path, code: i32) -> serde_json::Value {
    let out = masf(&["run", case.to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("run --json")
}

/// The "not read" entries of the report `masf run` wrote for `case`.
fn not_read(case: &Path) -> Vec<serde_json::Value> {
    let report = case.with_file_name("masf-report").join("report.json");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    report["not_read"].as_array().unwrap().clone()
}

fn triaged<'a>(run: &'a serde_json::Value, source: &str) -> &'a serde_json::Value {
    run["triage"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["source_id"] == source)
        .unwrap_or_else(|| panic!("{source} not triaged"))
}

#[test]
fn paths_beyond_path_max_and_deep_trees_are_read_like_any_other() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("evidence");
    for f in ["long", "deep", "plain"] {
        std::fs::create_dir_all(ev.join(f)).unwrap();
    }
    // 20 folders of 242 characters: a path of ~4,900 bytes.
    let long = nested(
        &ev.join("long"),
        &"d".repeat(242),
        20,
        "note.txt",
        "call me at +852 9123 4567\n",
    );
    assert!(ev.join("long").join(&long[1..]).as_os_str().len() > 4096);
    // 5,000 levels.
    let deep = nested(&ev.join("deep"), "a", 5000, "bottom.txt", "deep\n");
    std::fs::write(ev.join("plain/readme.txt"), "hello\n").unwrap();
    let case = case(
        dir.path(),
        &[&ev.join("long"), &ev.join("deep"), &ev.join("plain")],
    );

    let run = run_json(&case, 0);
    assert_eq!(
        run["problems"],
        serde_json::json!([]),
        "{}",
        run["problems"]
    );
    for s in run["sources"].as_array().unwrap() {
        assert_eq!(s["newly_added"], true, "{}", s["source_id"]);
        assert_eq!(
            s["files"].as_array().unwrap().len(),
            1,
            "{}",
            s["source_id"]
        );
    }
    for src in ["src-long", "src-deep", "src-plain"] {
        assert!(triaged(&run, src)["error"].is_null(), "{src}");
    }
    // The file 4,900 bytes down was read: its phone number was observed.
    let report = std::fs::read_to_string(dir.path().join("masf-report/report.md")).unwrap();
    assert!(
        report.contains("+852 9123 4567"),
        "the long-path note was not read"
    );

    // inspect, ls, cat on the same folders.
    let listing = masf_ok(&["ls", &format!("{}:/", ev.join("long").display()), "-r"]);
    assert!(listing.contains("note.txt"), "{listing}");
    let spec = format!("{}:{long}", ev.join("long").display());
    assert_eq!(masf_ok(&["cat", &spec]), "call me at +852 9123 4567\n");
    let spec = format!("{}:{deep}", ev.join("deep").display());
    assert_eq!(masf_ok(&["cat", &spec]), "deep\n");
    let inspect = masf_ok(&["inspect", ev.join("deep").to_str().unwrap(), "--json"]);
    let inspect: serde_json::Value = serde_json::from_str(&inspect).unwrap();
    let files = inspect["files"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    assert!(files[0].as_str().unwrap().ends_with("/a/a/bottom.txt"));

    // A second run: nothing new, no problem (the intake check of long paths works too).
    let again = run_json(&case, 0);
    assert_eq!(again["events_added"], 0);
    assert_eq!(
        again["problems"],
        serde_json::json!([]),
        "{}",
        again["problems"]
    );
}

#[test]
fn a_truncated_e01_and_an_unreadable_source_leave_the_others_examined() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("evidence");
    std::fs::create_dir_all(ev.join("plain")).unwrap();
    std::fs::write(ev.join("plain/readme.txt"), "call +852 9123 4567\n").unwrap();
    // The first 6,000 bytes of a real E01 (its sectors section runs past the end).
    let e01 = corpus::bytes("ewf/dfvfs-ext2.E01");
    std::fs::write(ev.join("cut.E01"), &e01[..6000]).unwrap();
    // A FIFO where a file was expected: it exists, and holds no evidence to hash (opening it
    // for reading must not wait for a writer).
    rustix::fs::mknodat(
        CWD,
        ev.join("pipe"),
        rustix::fs::FileType::Fifo,
        Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let case = case(
        dir.path(),
        &[&ev.join("cut.E01"), &ev.join("pipe"), &ev.join("plain")],
    );

    let run = run_json(&case, 1);
    let problems = run["problems"].to_string();
    assert!(
        problems.contains("src-cut-e01: the EWF media could not be read"),
        "{problems}"
    );
    assert!(problems.contains("src-pipe: not registered"), "{problems}");
    let plain = triaged(&run, "src-plain");
    assert!(plain["error"].is_null(), "{plain}");
    assert!(plain["tally"]["phenomena"].as_u64().unwrap() > 0, "{plain}");

    // The log says why src-loop is missing; status and the report show it.
    let status = masf_ok(&["status", case.to_str().unwrap(), "--json"]);
    let status: serde_json::Value = serde_json::from_str(&status).unwrap();
    let lp = status["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "src-pipe")
        .unwrap();
    assert_eq!(lp["registered"], false);
    assert!(
        lp["intake_error"]
            .as_str()
            .unwrap()
            .contains("not a regular file"),
        "{lp}"
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("masf-report/report.json")).unwrap(),
    )
    .unwrap();
    let not_read = report["not_read"].to_string();
    assert!(not_read.contains("src-pipe"), "{not_read}");
    assert!(not_read.contains("src-cut-e01"), "{not_read}");
    assert!(report["sources"].to_string().contains("src-plain"));
}

/// Runs a real tool, asserting success.
fn tool(cmd: &str, args: &[&str]) {
    let out = std::process::Command::new(cmd)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
    assert!(
        out.status.success(),
        "{cmd} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A FAT image (mkfs.vfat + mcopy) with a 600 KiB file of incompressible bytes, acquired by
/// ewfacquire without compression, then one byte of that file's data flipped inside the E01:
/// the chunk holding it fails its Adler-32.
#[test]
fn cat_across_a_bad_chunk_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = crate::support::bytes(600 * 1024, 41);
    std::fs::write(d.join("big.bin"), &data).unwrap();
    let img = d.join("fat.img");
    tool("truncate", &["-s", "4M", img.to_str().unwrap()]);
    tool("mkfs.vfat", &["-n", "MASF", img.to_str().unwrap()]);
    tool(
        "mcopy",
        &[
            "-i",
            img.to_str().unwrap(),
            d.join("big.bin").to_str().unwrap(),
            "::/big.bin",
        ],
    );
    let target = d.join("stick");
    tool(
        "ewfacquire",
        &[
            "-q",
            "-u",
            "-c",
            "none",
            "-t",
            target.to_str().unwrap(),
            img.to_str().unwrap(),
        ],
    );
    let e01 = d.join("stick.E01");
    let spec = format!("{}:/big.bin", e01.display());
    // Intact: the exact bytes.
    let good = masf(&["cat", &spec]);
    assert!(good.status.success());
    assert!(good.stdout == data, "cat of the intact image differs");
    // One byte flipped 400 KiB into the file's data (uncompressed chunks hold it verbatim):
    // past the first 256 KiB piece a streaming copy would already have written.
    let mut raw = std::fs::read(&e01).unwrap();
    let at = raw
        .windows(64)
        .position(|w| w == &data[400 * 1024..400 * 1024 + 64])
        .expect("the file's bytes in the E01");
    raw[at] ^= 0xFF;
    std::fs::write(&e01, &raw).unwrap();
    let bad = masf(&["cat", &spec]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        bad.stdout.is_empty(),
        "{} bytes written before failing",
        bad.stdout.len()
    );
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("Adler-32"), "{err}");
}

#[test]
fn listings_show_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("ev");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("red\u{1b}[31malert\u{7}.txt"), "x").unwrap();
    std::fs::write(folder.join("invoice\u{202e}fdp.exe"), "x").unwrap();
    let listing = masf_ok(&["ls", &format!("{}:/", folder.display())]);
    assert!(!listing.contains('\u{1b}') && !listing.contains('\u{202e}'));
    assert!(
        listing.contains("red\\u{1b}[31malert\\u{7}.txt"),
        "{listing}"
    );
    assert!(listing.contains("invoice\\u{202e}fdp.exe"), "{listing}");
    // JSON keeps the stored name exactly (escaped as JSON).
    let json = masf_ok(&["ls", &format!("{}:/", folder.display()), "--json"]);
    assert!(json.contains("red\\u001b[31malert\\u0007.txt"), "{json}");
}

#[test]
fn a_folder_read_by_something_else_since_verifies_with_its_metadata_change_said() {
    // Reading the evidence (a viewer, a backup, an antivirus scan) moves its files' accessed
    // and changed times; the listings recorded them, so a re-run differs there and only there.
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("stick");
    std::fs::create_dir_all(evidence.join("docs")).unwrap();
    std::fs::write(evidence.join("docs/notes.txt"), "meet at the harbour\n").unwrap();
    std::fs::write(
        evidence.join("docs/plan.txt"),
        "wallet 0x1850cE0E73407A9997C467BABc60fe887C567625\n",
    )
    .unwrap();
    let case = case(&dir.path().join("case"), &[&evidence]);
    run_json(&case, 0);
    let c = case.to_str().unwrap();
    assert!(masf(&["verify", c]).status.success());

    let later = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_900_000_000);
    std::fs::File::options()
        .write(true)
        .open(evidence.join("docs/notes.txt"))
        .unwrap()
        .set_times(std::fs::FileTimes::new().set_accessed(later))
        .unwrap();
    let out = masf(&["verify", c]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("evidence metadata changed: accessed time of ") && !said.contains("MISMATCH"),
        "{said}"
    );

    // Content that changed is still a mismatch.
    std::fs::write(evidence.join("docs/notes.txt"), "meet at the station\n").unwrap();
    let out = masf(&["verify", c]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("MISMATCH"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_text_file_read_only_in_part_says_what_was_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("stick");
    std::fs::create_dir_all(&evidence).unwrap();
    let mut text = "an ordinary line of a long log file\n".repeat(40_000);
    text.push_str("wallet 0x1850cE0E73407A9997C467BABc60fe887C567625\n");
    let size = text.len();
    assert!(size > 1 << 20);
    std::fs::write(evidence.join("long.txt"), &text).unwrap();
    let case = case(&dir.path().join("case"), &[&evidence]);
    run_json(&case, 0);
    let not_read = not_read(&case);
    assert!(
        not_read
            .iter()
            .any(|n| n["what"].as_str().unwrap().ends_with("long.txt")
                && n["reason"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("bytes 1048576–{size} of its {size} were not read"))),
        "{not_read:#?}"
    );
}

#[test]
fn an_artefact_that_is_a_symbolic_link_is_said_not_read() {
    // An extraction copied with its links kept: the message database is a link to elsewhere.
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("phone");
    let sms = evidence.join("mobile/Library/SMS");
    std::fs::create_dir_all(&sms).unwrap();
    std::os::unix::fs::symlink("/private/var/elsewhere/sms.db", sms.join("sms.db")).unwrap();
    std::fs::write(evidence.join("mobile/Library/SMS/notes.txt"), "hello\n").unwrap();
    let case = case(&dir.path().join("case"), &[&evidence]);
    run_json(&case, 0);
    let not_read = not_read(&case);
    assert!(
        not_read
            .iter()
            .any(|n| n["what"] == "/mobile/Library/SMS/sms.db"
                && n["reason"]
                    .as_str()
                    .unwrap()
                    .contains("a symbolic link to /private/var/elsewhere/sms.db")),
        "{not_read:#?}"
    );
}

#[test]
fn archive_member_names_are_kept_verbatim_beside_their_safe_path() {
    let zip = crate::support::repo().join("tests/fixtures/archive/edge-names.zip");
    let spec = format!("{}:/", zip.display());
    let text = masf_ok(&["ls", &spec]);
    let line = |path: &str| {
        text.lines()
            .find(|l| l.contains(path))
            .unwrap_or_else(|| panic!("{path} not listed:\n{text}"))
            .to_string()
    };
    assert!(
        line("/escape.txt").ends_with("/escape.txt  (stored as ../../escape.txt)"),
        "{text}"
    );
    assert!(line("/~2").ends_with("(stored as ..)"), "{text}");
    assert!(!line("/times.txt").contains("stored as"), "{text}");
    // One JSON object a line.
    let escape: serde_json::Value = masf_ok(&["ls", "--json", &spec])
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["path"] == "/escape.txt")
        .unwrap();
    assert_eq!(escape["stored_name"], "../../escape.txt");
}

#[test]
fn tools_that_crash_their_worker_process_are_failed_calls_and_the_run_ends_with_a_report() {
    // `masf run` calls every tool in a `masf tool-worker` process. With an address-space
    // limit no worker can live under, every call crashes its worker ("memory allocation of …
    // failed", SIGABRT): each is a failed call naming how its worker ended, the run itself
    // ends with its report, and the log stays consistent.
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("stick");
    std::fs::create_dir_all(evidence.join("docs")).unwrap();
    std::fs::write(
        evidence.join("docs/plan.txt"),
        "wallet 0x1850cE0E73407A9997C467BABc60fe887C567625\n",
    )
    .unwrap();
    let case = case(&dir.path().join("case"), &[&evidence]);
    std::fs::write(
        case.with_file_name("config.yaml"),
        "tools:\n  max_memory_mb: 1\n",
    )
    .unwrap();
    let out = masf(&["run", case.to_str().unwrap(), "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{:?}\n{stderr}",
        out.status
    );
    // The workers' dying words are in the log, not on the examiner's terminal.
    assert!(!stderr.contains("memory allocation of"), "{stderr}");
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).expect("run --json");
    let tally = &triaged(&run, "src-stick")["tally"];
    assert!(tally["tool_failures"].as_u64().unwrap() > 0, "{tally}");
    assert!(
        case.with_file_name("masf-report")
            .join("report.json")
            .is_file()
    );

    let store = masf_store::Store::open_read_only(&case.with_file_name(".masf")).unwrap();
    let calls = store.all_invocations().unwrap();
    let crashed: Vec<_> = calls
        .iter()
        .filter(|c| c.status == masf_store::InvocationStatus::Failed)
        .collect();
    assert!(!crashed.is_empty(), "{calls:?}");
    for call in &crashed {
        let reason = call.reason.as_deref().unwrap_or_default();
        assert!(
            reason.contains(&format!(
                "the tool {} crashed: its worker process",
                call.tool
            )) && reason.contains("(its memory limit is 1 MiB)"),
            "{reason}"
        );
    }
    drop(store);
    let c = case.to_str().unwrap();
    masf_ok(&["status", c]);

    // The same evidence under the default limit: the same tools answer.
    let again = self::case(&dir.path().join("again"), &[&evidence]);
    let run = run_json(&again, 0);
    let tally = &triaged(&run, "src-stick")["tally"];
    assert_eq!(tally["tool_failures"].as_u64(), Some(0), "{tally}");
    assert!(tally["phenomena"].as_u64().unwrap() > 0, "{tally}");
}
