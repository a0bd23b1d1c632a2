//! `masf inspect`, `ls`, `cat`, `verify-media` from the outside.

use crate::support::{masf, masf_ok, repo};

fn demo(name: &str) -> String {
    repo()
        .join("tests/fixtures/demo/evidence")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn inspect_json_names_type_reasons_layers_and_partitions() {
    let out: serde_json::Value =
        serde_json::from_str(&masf_ok(&["inspect", &demo("blk0_sda.bin"), "--json"])).unwrap();
    // the device type is the Android plugin's call; the evidence layer names the form
    assert_eq!(out["evidence_type"], "android_disk");
    assert_eq!(out["form"], "disk_image");
    assert!(
        out["reasons"][0]
            .as_str()
            .unwrap()
            .starts_with("partition table with Android partition names: misc, efs"),
        "{out:#}"
    );
    let names: Vec<_> = out["layers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["partition"]["name"].as_str())
        .collect();
    assert_eq!(names, ["misc", "efs", "persist", "system", "userdata"]);
    let userdata_fs = out["layers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == "ext4" && l["depth"] == 2 && l["files"].as_u64() == Some(7));
    assert!(userdata_fs.is_some(), "{out:#}");

    let usb: serde_json::Value =
        serde_json::from_str(&masf_ok(&["inspect", &demo("usb.E01"), "--json"])).unwrap();
    assert_eq!(usb["evidence_type"], "disk_image");
    assert_eq!(usb["form"], "disk_image");
    assert_eq!(usb["files"].as_array().unwrap().len(), 2);
    assert_eq!(usb["ewf"]["stored_md5"], "e27432322548bbde45eb518f3b0f3337");
}

#[test]
fn ls_json_carries_raw_times_ids_and_the_deleted_flag() {
    let out = masf_ok(&["ls", "-r", "--json", &format!("{}:/", demo("usb.E01"))]);
    let entries: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let notes = entries.iter().find(|e| e["path"] == "/notes.txt").unwrap();
    assert_eq!(notes["times"][0]["raw"]["encoding"], "fat_local");
    assert!(notes["id"].is_u64());
    assert!(entries.iter().any(|e| e["deleted"] == true));
}

#[test]
fn cat_writes_exact_bytes_and_a_wrong_path_fails_with_1() {
    let out = masf(&["cat", &format!("{}:/notes.txt", demo("usb.E01"))]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("yl.leung@example.com"));
    let out = masf(&["cat", &format!("{}:/no/such/file", demo("usb.E01"))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file"));
}

#[test]
fn verify_media_passes_on_a_good_image_and_fails_naming_the_bad_chunk() {
    let ok = masf(&["verify-media", &demo("usb.E01")]);
    assert_eq!(ok.status.code(), Some(0));
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(text.contains("verified"), "{text}");
    // Only what the image stores is computed unless SHA-256 is asked for.
    assert!(!text.contains("sha256"), "{text}");
    let with = masf(&["verify-media", &demo("usb.E01"), "--sha256", "--json"]);
    assert_eq!(with.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&with.stdout).unwrap();
    assert_eq!(v["sha256"].as_str().map(str::len), Some(64), "{v}");
    assert_eq!(v["md5_check"], "verified");
    let bad = masf_testkit::corpus::path("ewf/e01rs-bad_chunk.E01");
    let out = masf(&["verify-media", bad.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["md5_check"], "mismatch");
    assert_eq!(v["bad_chunks"][0]["chunk"], 0);
}

/// Runs a tool of the machine, failing the test with its stderr when it fails.
fn tool(cmd: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(cmd).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{cmd} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `masf ls --recursive --body` on an ext4 file system made by mkfs.ext4 -d, with owners set
/// and a file deleted by debugfs: every line The Sleuth Kit's `fls -r -m /` writes for the same
/// entries is written the same (inode, mode string, uid, gid, size, the four times, the
/// `(deleted)` mark); TSK's virtual `$OrphanFiles` folder has no counterpart in a listing.
#[test]
fn ls_body_matches_fls_m_on_ext4() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    std::fs::create_dir_all(tree.join("docs/deep")).unwrap();
    std::fs::write(tree.join("docs/invoice.txt"), "USDT 12,500\n").unwrap();
    std::fs::write(tree.join("docs/deep/notes.md"), "# notes\n".repeat(300)).unwrap();
    std::fs::write(tree.join("gone.txt"), "to be deleted\n").unwrap();
    std::fs::write(tree.join("run.sh"), "#!/bin/sh\n").unwrap();
    std::os::unix::fs::symlink("docs/invoice.txt", tree.join("link")).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(tree.join("run.sh"), std::fs::Permissions::from_mode(0o4755)).unwrap();
    let img = tmp.path().join("body.ext4");
    let img_s = img.to_str().unwrap();
    tool(
        "mkfs.ext4",
        &[
            "-q",
            "-F",
            "-I",
            "256",
            "-b",
            "1024",
            "-d",
            tree.to_str().unwrap(),
            img_s,
            "4096",
        ],
    );
    for cmd in [
        "sif /docs/invoice.txt uid 1234",
        "sif /docs/invoice.txt gid 5678",
        // debugfs's `uid` sets the high half (l_i_uid_high) too
        "sif /docs uid 70000",
        "rm /gone.txt",
    ] {
        tool("debugfs", &["-w", "-R", cmd, img_s]);
    }
    let fls = tool("fls", &["-r", "-m", "/", "-f", "ext4", img_s]);
    let ours = masf_ok(&["ls", &format!("{img_s}:/"), "--recursive", "--body"]);
    let by_name = |text: &str| -> std::collections::BTreeMap<String, String> {
        text.lines()
            .map(|l| {
                (
                    l.split('|').nth(1).unwrap_or_default().to_string(),
                    l.to_string(),
                )
            })
            .collect()
    };
    let (theirs, mine) = (by_name(&fls), by_name(&ours));
    let mut compared = 0;
    for (name, line) in &theirs {
        if name.starts_with("/$OrphanFiles") {
            continue;
        }
        assert_eq!(
            mine.get(name),
            Some(line),
            "{name}\nfls:\n{fls}\nmasf:\n{ours}"
        );
        compared += 1;
    }
    assert!(compared >= 8, "{fls}");
    for want in [
        "/docs/invoice.txt|",
        "/link -> docs/invoice.txt|",
        "|1234|5678|",
        "/gone.txt (deleted)|",
        "|r/rrwsr-xr-x|",
        "|l/lrwxrwxrwx|",
        "|d/drwxr-xr-x|",
    ] {
        assert!(ours.contains(want), "{want}: {ours}");
    }
    // the high half of a 32-bit uid is read
    assert!(mine["/docs"].contains("|70000|0|"), "{}", mine["/docs"]);
    // every line has the body file's eleven columns
    assert!(ours.lines().all(|l| l.split('|').count() == 11), "{ours}");
}

/// The body file carries the owners the archives and file systems store: a tar made with
/// `tar --owner/--group --numeric-owner`, a zip made by Info-ZIP `zip` (its `ux` field) and an
/// F2FS volume filled by `sload.f2fs -P` (owners preserved) from a tree whose files have
/// distinct owners (set with chown when the test runs as root; otherwise the user's own).
#[test]
fn ls_body_carries_owners_of_tar_zip_and_f2fs() {
    use std::os::unix::fs::MetadataExt as _;
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    std::fs::write(tree.join("a.txt"), "alpha\n").unwrap();
    std::fs::write(tree.join("sub/b.txt"), "beta\n").unwrap();
    for (path, uid, gid) in [
        ("a.txt", 1234, 5678),
        ("sub", 1000, 1001),
        ("sub/b.txt", 10123, 10124),
    ] {
        // without root the files keep the user's ids, which the readers must report all the same
        let _ = std::os::unix::fs::chown(tree.join(path), Some(uid), Some(gid));
    }
    let owner = |p: &str| {
        let m = std::fs::metadata(tree.join(p)).unwrap();
        (m.uid(), m.gid())
    };
    let body_owners = |spec: String| -> std::collections::BTreeMap<String, (u32, u32)> {
        masf_ok(&["ls", &spec, "--recursive", "--body"])
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split('|').collect();
                (
                    f[1].to_string(),
                    (f[4].parse().unwrap(), f[5].parse().unwrap()),
                )
            })
            .collect()
    };
    let tree_s = tree.to_str().unwrap();

    // tar: the owner given on the command line, for every member
    let tar = tmp.path().join("t.tar");
    tool(
        "tar",
        &[
            "--owner=4321",
            "--group=8765",
            "--numeric-owner",
            "-cf",
            tar.to_str().unwrap(),
            "-C",
            tree_s,
            ".",
        ],
    );
    let got = body_owners(format!("{}:/", tar.display()));
    for p in ["/a.txt", "/sub", "/sub/b.txt"] {
        assert_eq!(got.get(p), Some(&(4321, 8765)), "tar {p}: {got:?}");
    }

    // zip: each member's own owner from the `ux` extra field
    let zip = tmp.path().join("t.zip");
    // (run in the tree, so that members are named relative to it)
    let zip_s = zip.to_str().unwrap();
    tool(
        "sh",
        &["-c", "cd \"$1\" && zip -q -r \"$2\" .", "sh", tree_s, zip_s],
    );
    let got = body_owners(format!("{}:/", zip.display()));
    for p in ["a.txt", "sub", "sub/b.txt"] {
        assert_eq!(
            got.get(&format!("/{p}")),
            Some(&owner(p)),
            "zip {p}: {got:?}"
        );
    }

    // F2FS: i_uid / i_gid as sload.f2fs -P wrote them
    let img = tmp.path().join("t.f2fs");
    std::fs::File::create(&img)
        .unwrap()
        .set_len(64 << 20)
        .unwrap();
    let img_s = img.to_str().unwrap();
    tool("mkfs.f2fs", &["-q", "-f", img_s]);
    tool("sload.f2fs", &["-f", tree_s, "-P", "-T", "0", img_s]);
    let got = body_owners(format!("{img_s}:/"));
    for p in ["a.txt", "sub", "sub/b.txt"] {
        assert_eq!(
            got.get(&format!("/{p}")),
            Some(&owner(p)),
            "f2fs {p}: {got:?}"
        );
    }
}

/// `masf ls --recursive --body` on the corpus' APFS volume (dfVFS test data, made by macOS)
/// writes exactly the lines The Sleuth Kit's `fls -P apfs -B <volume> -r -m /` writes: inode,
/// mode string, owner (99/99, macOS's "unknown" user of an external volume), size, times.
#[test]
fn ls_body_matches_fls_m_on_apfs() {
    let img = masf_testkit::corpus::path("fs/apfs/dfvfs-apfs.raw");
    let img_s = img.to_str().unwrap();
    let apsb = tool("pstat", &[img_s])
        .lines()
        .find_map(|l| l.split("APSB Block Number: ").nth(1))
        .map(|n| n.trim().to_string())
        .expect("pstat names the volume's superblock");
    let fls = tool("fls", &["-P", "apfs", "-B", &apsb, "-r", "-m", "/", img_s]);
    let ours = masf_ok(&["ls", &format!("{img_s}:/"), "--recursive", "--body"]);
    let sorted = |t: &str| {
        t.lines()
            .map(str::to_string)
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(sorted(&ours), sorted(&fls), "fls:\n{fls}\nmasf:\n{ours}");
    assert_eq!(sorted(&fls).len(), 10);
}
