//! The scanner on the demo case: each source is named by its form (by content),
//! every layer stacks, and every file of the planted ground truth reads back exactly as The
//! Sleuth Kit (`icat`) and Info-ZIP (`unzip -p`) read it.

use std::path::{Path, PathBuf};
use std::process::Command;

use masf_evidence::fs::EntryKind;
use masf_evidence::scan::{FolderFormats, Form, Spec, scan};

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/demo/evidence")
}

fn read_all(spec: &str) -> Vec<u8> {
    let spec = Spec::parse(spec);
    let s = scan(&spec.evidence).unwrap();
    let fs = s.file_system(spec.partition.as_deref()).unwrap();
    let bytes = fs.open(&spec.path).unwrap();
    let mut out = vec![0u8; bytes.len() as usize];
    bytes.read_exact_at(0, &mut out).unwrap();
    out
}

fn run(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("oracle tool runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `fls -r -p` of an image: path → inode.
fn fls(args: &[&str]) -> Vec<(String, String)> {
    let text = String::from_utf8(run(Command::new("fls").args(["-r", "-p"]).args(args))).unwrap();
    text.lines()
        .filter_map(|l| {
            let (meta, path) = l.split_once('\t')?;
            let inode = meta.split_whitespace().last()?.trim_end_matches(':');
            Some((format!("/{path}"), inode.split('-').next()?.to_string()))
        })
        .collect()
}

/// The scanner names each demo source's form by content; which device a source comes from is
/// the plugins' call (`crates/plugins/tests/it/typing.rs`).
#[test]
fn demo_sources_are_named_by_form() {
    let check = |name: &str, want: Form, reason: &str| {
        let s = scan(&demo().join(name)).unwrap();
        assert_eq!(s.form, want, "{name}: {:?}", s.reasons);
        assert!(
            s.reasons.iter().any(|r| r.contains(reason)),
            "{name}: {:?}",
            s.reasons
        );
        s
    };
    check("usb.E01", Form::DiskImage, "fat32");
    let android = check("blk0_sda.bin", Form::DiskImage, "ext4");
    // the partitions the Android plugin recognises the disk by are exposed, named
    let names: Vec<String> = android
        .root
        .children
        .iter()
        .filter_map(|c| c.partition.as_ref().map(|p| p.name.clone()))
        .collect();
    assert!(names.iter().any(|n| n == "userdata"), "{names:?}");
    check("iphone_ffs.zip", Form::Archive, "zip archive");
    let screens = check("screenshots", Form::Folder, "a plain folder");
    assert_eq!(
        screens.folder_formats,
        Some(FolderFormats {
            sampled: 5,
            images: 5,
            image_kinds: vec!["PNG"],
        })
    );
    assert_eq!(android.folder_formats, None);
}

#[test]
fn usb_files_read_back_as_icat_reads_them_through_ewf() {
    let usb = demo().join("usb.E01");
    let usb = usb.to_str().unwrap();
    let listing = fls(&["-i", "ewf", usb]);
    let mut checked = 0;
    for (path, inode) in &listing {
        if path.contains("$") || path.ends_with('/') {
            continue;
        }
        let s = scan(Path::new(usb)).unwrap();
        let fs = s.file_system(None).unwrap();
        let Ok(entry) = fs.stat(path) else { continue };
        if entry.kind != EntryKind::File || entry.deleted {
            continue;
        }
        let want = run(Command::new("icat").args(["-i", "ewf", usb, inode]));
        assert_eq!(read_all(&format!("{usb}:{path}")), want, "{path}");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} files compared");
    // The deleted draft is listed as deleted.
    let s = scan(Path::new(usb)).unwrap();
    let docs = s.file_system(None).unwrap().list_dir("/Documents").unwrap();
    assert!(
        docs.iter()
            .any(|e| e.deleted && e.name.contains("ransfer_log_draft")),
        "{docs:?}"
    );
}

#[test]
fn android_partitions_read_back_as_icat_reads_them() {
    let disk = demo().join("blk0_sda.bin");
    let disk = disk.to_str().unwrap();
    let s = scan(Path::new(disk)).unwrap();
    let mut checked = 0;
    for f in s.file_systems() {
        let part = f.partition.expect("every android fs lies in a partition");
        let sector = (part.offset / 512).to_string();
        for (path, inode) in fls(&["-o", &sector, disk]) {
            if path.contains("$OrphanFiles") || path.contains("lost+found") {
                continue;
            }
            let Ok(entry) = f.fs.stat(&path) else {
                panic!("{}: {path} listed by fls but not found", part.name)
            };
            if entry.kind != EntryKind::File {
                continue;
            }
            let want = run(Command::new("icat").args(["-o", &sector, disk, &inode]));
            assert_eq!(
                read_all(&format!("{disk}#{}:{path}", part.name)),
                want,
                "{}:{path}",
                part.name
            );
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} files compared");
}

#[test]
fn iphone_zip_members_read_back_as_unzip_reads_them() {
    let zip = demo().join("iphone_ffs.zip");
    let zip = zip.to_str().unwrap();
    let names = String::from_utf8(run(Command::new("zipinfo").args(["-1", zip]))).unwrap();
    let mut checked = 0;
    for name in names.lines().filter(|n| !n.ends_with('/')) {
        let want = run(Command::new("unzip").args(["-p", zip, name]));
        assert_eq!(read_all(&format!("{zip}:/{name}")), want, "{name}");
        checked += 1;
    }
    assert!(checked >= 10);
}

#[test]
fn specs_name_partitions_by_index_or_name_and_need_one_when_several() {
    let disk = demo().join("blk0_sda.bin");
    let d = disk.to_str().unwrap();
    let by_name = read_all(&format!("{d}#system:/system/build.prop"));
    let by_index = read_all(&format!("{d}#4:/system/build.prop"));
    assert_eq!(by_name, by_index);
    assert!(String::from_utf8_lossy(&by_name).contains("ro.product.model"));
    let s = scan(&disk).unwrap();
    let err = s.file_system(None).err().unwrap().to_string();
    assert!(err.contains("#5 or #userdata (ext4)"), "{err}");
    let err = s.file_system(Some("nosuch")).err().unwrap().to_string();
    assert!(err.contains("#nosuch"), "{err}");
    let spec = Spec::parse(&format!("{d}#userdata:/data/../data/./x"));
    assert_eq!(spec.partition.as_deref(), Some("userdata"));
    assert_eq!(spec.path, "/data/x");
    let bare = Spec::parse(d);
    assert_eq!((bare.partition, bare.path.as_str()), (None, "/"));
}
