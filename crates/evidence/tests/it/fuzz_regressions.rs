//! Replays every input kept for fuzzing (`crates/evidence/fuzz/regressions/<target>/`: the
//! seed corpus `seed-*` that `fuzz/seeds.sh` makes with real tools, and every crash the fuzzer
//! ever found) through the same driver the fuzz targets use
//! (`masf_evidence::fuzzing::run_target`): none may panic again. Every target must have a
//! folder with at least one input, and each seed must still open as the valid input it is.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_evidence::bytes::{Bytes, Memory};
use masf_evidence::fuzzing::{TARGETS, run_target};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The kept inputs of a target (hidden files such as `.keep` aside), sorted.
fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir().join("regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && !p
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with('.'))
        })
        .collect();
    files.sort();
    files
}

/// Whether a seed opens as the valid input of its target.
fn opens(target: &str, data: &[u8]) -> bool {
    let bytes = || -> Bytes { Arc::new(Memory::new(data.to_vec(), "seed")) };
    match target {
        "fat" => masf_evidence::fat::open(bytes()).is_ok(),
        "ext4" => masf_evidence::ext4::open(bytes()).is_ok(),
        "f2fs" => masf_evidence::f2fs::open(masf_evidence::fuzzing::sparse_blocks(data)).is_ok(),
        "apfs" => masf_evidence::apfs::open_container(masf_evidence::fuzzing::sparse_blocks(data))
            .is_ok_and(|c| c.volumes().iter().all(|v| v.is_ok())),
        "ntfs" => masf_evidence::ntfs::open(bytes()).is_ok(),
        "tar" => masf_evidence::archive::open_tar(bytes()).is_ok(),
        "zip" => masf_evidence::archive::open_zip(bytes()).is_ok(),
        "gzip" => masf_evidence::archive::gunzip(bytes(), 1 << 20).is_ok(),
        "leveldb" => {
            masf_evidence::leveldb::read_log(data, "seed").is_ok()
                || masf_evidence::leveldb::read_table(data, "seed").is_ok()
        }
        "segb" => masf_evidence::segb::read(data, "seed").is_ok_and(|r| !r.records.is_empty()),
        "lznt1" => {
            let mut out = vec![0u8; 65536];
            masf_evidence::lznt1::decompress(data, &mut out).is_ok()
        }
        "volume" => masf_evidence::volume::sniff(bytes().as_ref()).is_some(),
        "qcow2" => masf_evidence::qcow2::Qcow2Image::open(bytes()).is_ok(),
        "vhd" => masf_evidence::vhd::VhdImage::open(bytes()).is_ok(),
        "vhdx" => masf_evidence::vhdx::VhdxImage::open(masf_evidence::fuzzing::sparse_blocks(data))
            .is_ok(),
        "simg" => masf_evidence::simg::SparseImage::open(bytes()).is_ok(),
        "sparseimage" => masf_evidence::sparseimage::SparseImage::open(bytes())
            .is_ok_and(|s| masf_evidence::fat::open(Arc::new(s)).is_ok()),
        "vmdk" => masf_evidence::vmdk::VmdkImage::open(bytes()).is_ok(),
        "hfsplus" => {
            masf_evidence::hfsplus::open(masf_evidence::fuzzing::sparse_blocks(data)).is_ok()
        }
        "udif" => masf_evidence::udif::UdifImage::open(bytes()).is_ok(),
        "ewf" => {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("seed.E01");
            std::fs::write(&path, data).unwrap();
            masf_evidence::ewf::EwfImage::open(&path).is_ok()
        }
        "keybag" => masf_evidence::itunes::keybag::parse(data).is_ok(),
        "lp" => masf_evidence::lp::open(&masf_evidence::fuzzing::sparse_blocks(data))
            .is_ok_and(|s| s.partitions.iter().any(|p| p.bytes.is_some())),
        other => panic!("no seed check for {other}"),
    }
}

#[test]
fn the_targets_are_the_fuzz_folders_binaries() {
    let mut declared: Vec<String> = std::fs::read_dir(fuzz_dir().join("fuzz_targets"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".rs")
                .map(str::to_owned)
        })
        .collect();
    declared.sort();
    assert_eq!(declared, TARGETS, "fuzz_targets/*.rs and fuzzing::TARGETS");
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    for t in TARGETS {
        assert!(
            manifest.contains(&format!("path = \"fuzz_targets/{t}.rs\"")),
            "{t} is no [[bin]] of fuzz/Cargo.toml"
        );
    }
}

#[test]
fn every_kept_fuzz_input_is_handled_without_panic_and_seeds_still_open() {
    let mut replayed = 0;
    for target in TARGETS {
        let files = inputs(target);
        assert!(
            !files.is_empty(),
            "fuzz/regressions/{target}/ holds no input: run crates/evidence/fuzz/seeds.sh"
        );
        assert!(
            files.iter().any(|f| f
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("seed-"))),
            "{target}: no seed-* input"
        );
        for f in files {
            let mut data = std::fs::read(&f).unwrap();
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            // A seed made from a public image names it in the shared corpus (never committed).
            if name.ends_with(".corpus") {
                let rel = String::from_utf8(data).unwrap();
                let image = masf_testkit::corpus::bytes(rel.trim());
                data = masf_evidence::fuzzing::pack_sparse_blocks(&image);
            }
            assert!(run_target(target, &data), "{target} is a target");
            if name.starts_with("seed-") {
                assert!(opens(target, &data), "{} no longer opens", f.display());
            }
            replayed += 1;
        }
    }
    assert!(!run_target("no-such-target", b""));
    eprintln!("replayed {replayed} kept fuzz input(s)");
}
