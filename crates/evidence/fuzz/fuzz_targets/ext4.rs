//! Fuzz target: open an ext2/3/4 image, walk its whole tree, stat every entry and read every
//! file. Any panic, hang or runaway allocation is a bug; errors are expected.
//! Seed corpus: the images of tests/fixtures/ext4/mutated/ (decompressed), e.g. base.img.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use masf_evidence::bytes::{Bytes, Memory};
use masf_evidence::fs::EntryKind;

fuzz_target!(|data: &[u8]| {
    let bytes: Bytes = Arc::new(Memory::new(data.to_vec(), "fuzz"));
    let Ok(fs) = masf_evidence::ext4::open(bytes) else {
        return;
    };
    let _ = fs.diagnostics();
    let mut pending = vec!["/".to_string()];
    // Bounded so that a valid but large tree cannot make one input slow.
    let mut budget = 4096usize;
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs.list_dir(&dir) else {
            continue;
        };
        for e in entries {
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => return,
            };
            let _ = fs.stat(&e.path);
            match e.kind {
                EntryKind::Dir => pending.push(e.path),
                EntryKind::File => {
                    if let Ok(f) = fs.open(&e.path) {
                        let mut buf = vec![0u8; 64 * 1024];
                        let mut at = 0u64;
                        while at < f.len().min(1 << 20) {
                            match f.read_at(at, &mut buf) {
                                Ok(0) | Err(_) => break,
                                Ok(n) => at += n as u64,
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
});
