//! Replays every input ever kept from fuzzing (`crates/evidence/fuzz/regressions/<target>/`)
//! through the same driver the fuzz targets use: none may panic again.

use std::path::Path;
use std::sync::Arc;

use masf_evidence::Result;
use masf_evidence::bytes::Bytes;
use masf_evidence::fs::FileSystem;

type Opener = fn(Bytes) -> Result<Arc<dyn FileSystem>>;

fn targets() -> Vec<(&'static str, Opener)> {
    vec![
        ("fat", masf_evidence::fat::open as Opener),
        ("ntfs", masf_evidence::ntfs::open as Opener),
        ("ext4", masf_evidence::ext4::open as Opener),
    ]
}

#[test]
fn every_kept_fuzz_input_is_handled_without_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut replayed = 0;
    for (target, open) in targets() {
        let dir = root.join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).unwrap();
            masf_evidence::fuzzing::exercise_fs(&data, open);
            replayed += 1;
        }
    }
    if let Ok(entries) = std::fs::read_dir(root.join("volume")) {
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            masf_evidence::fuzzing::exercise_volume(&std::fs::read(&f).unwrap());
            replayed += 1;
        }
    }
    let ewf = root.join("ewf");
    if let Ok(entries) = std::fs::read_dir(&ewf) {
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).unwrap();
            masf_evidence::fuzzing::exercise_image_file(&data, "replay.E01", |p| {
                masf_evidence::ewf::EwfImage::open(p).map(|i| Arc::new(i) as Bytes)
            });
            replayed += 1;
        }
    }
    eprintln!("replayed {replayed} kept fuzz input(s)");
}
