//! Android image forms: sparse images (`simg`). The public images of the corpus
//! (`android/sparse/`, oracles in SPARSE_ORACLES.md) decode to the oracle bytes and a wrong
//! CRC32 chunk is refused; the fixture made by AOSP's `img2simg` from an ext4 volume
//! (`tests/fixtures/simg/generate.sh`) expands to what AOSP's `simg2img` gives, and the ext4 inside
//! lists through the scanner with every file equal to its source; damaged copies made here give
//! typed errors.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_evidence::Error;
use masf_evidence::bytes::{ByteSource, Bytes, FileBytes, Memory};
use masf_evidence::fs::EntryKind;
use masf_evidence::probe::{Format, probe};
use masf_evidence::scan;
use masf_evidence::simg::SparseImage;
use masf_testkit::corpus;
use sha2::{Digest, Sha256};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/simg")
        .join(name)
}

fn memory(data: Vec<u8>) -> Bytes {
    Arc::new(Memory::new(data, "damaged copy"))
}

/// SHA-256 of the whole stream, read in pieces of `piece` bytes.
fn stream_sha256(src: &dyn ByteSource, piece: usize) -> String {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; piece];
    let mut pos = 0u64;
    while pos < src.len() {
        let n = src.read_at(pos, &mut buf).unwrap();
        assert!(n > 0, "no progress at {pos}");
        h.update(&buf[..n]);
        pos += n as u64;
    }
    hex::encode(h.finalize())
}

const DECODED_SHA256: &str = "c38a0a456019f08f0c21e72f737c8d156a4972bbb8f33c758f228e88c828df78";

#[test]
fn public_sparse_images_decode_to_the_oracle_bytes() {
    let decoded = corpus::bytes("android/sparse/androidsparse-decoded.img");
    assert_eq!(hex::encode(Sha256::digest(&decoded)), DECODED_SHA256);
    for (name, crcs) in [
        ("androidsparse-hello.simg", 0),
        ("androidsparse-crc.simg", 1),
    ] {
        let file: Bytes =
            Arc::new(FileBytes::open(&corpus::path(&format!("android/sparse/{name}"))).unwrap());
        let p = probe(file.as_ref());
        assert_eq!(
            (p.format, p.readable),
            (Format::AndroidSparse, true),
            "{name}"
        );
        assert!(p.reason.contains("5 blocks of 4096 bytes"), "{}", p.reason);
        let s = SparseImage::open(file).unwrap();
        assert_eq!(s.len(), 20480, "{name}");
        assert_eq!(s.crc_checked(), crcs, "{name}");
        // RAW, FILL, DONT_CARE (two blocks), RAW.
        assert_eq!(s.chunk_count(), 4, "{name}");
        for piece in [1, 7, 4096, 5000, 1 << 20] {
            assert_eq!(
                stream_sha256(&s, piece),
                DECODED_SHA256,
                "{name} by {piece}"
            );
        }
        // A read across the fill / don't-care / raw boundaries at odd offsets.
        let mut buf = vec![0u8; 9000];
        s.read_exact_at(7001, &mut buf).unwrap();
        assert_eq!(buf, decoded[7001..16001], "{name}");
        assert_eq!(s.read_at(20480, &mut buf).unwrap(), 0);
        assert_eq!(s.read_at(20000, &mut buf).unwrap(), 480);
    }
}

#[test]
fn a_wrong_crc32_chunk_is_refused_naming_the_chunk_and_both_values() {
    let path = corpus::path("android/sparse/androidsparse-invalid_crc.simg");
    let err = SparseImage::open(Arc::new(FileBytes::open(&path).unwrap()))
        .err()
        .unwrap();
    // The CRC32 chunk is the last 16 bytes of the 8288-byte file; its value the last 4.
    match &err {
        Error::Corrupt {
            layer,
            offset,
            detail,
        } => {
            assert_eq!((layer.as_str(), *offset), ("android_sparse", 8284), "{err}");
            assert!(detail.contains("CRC32"), "{err}");
            assert!(detail.contains("0xffb880a5"), "{err}");
        }
        other => panic!("{other}"),
    }
    // The scanner records it on the sparse layer and reads nothing inside.
    let s = scan::scan(&path).unwrap();
    assert!(s.file_systems().is_empty());
    let problem = s.root.problem.as_deref().unwrap_or_default();
    assert!(problem.contains("CRC32 chunk"), "{problem}");
    assert!(s.unreadable_summary().contains("android_sparse"));
    // The source is still named for what it is, with why nothing inside was read.
    assert_eq!(s.form, scan::Form::File);
    assert!(
        s.reasons[0].starts_with(
            "single file: Android sparse image, not readable: android_sparse: corrupt at offset 8284: CRC32 chunk"
        ),
        "{:?}",
        s.reasons
    );
}

#[test]
fn the_ext4_volume_img2simg_wrote_lists_through_the_sparse_layer() {
    let path = fixture("ext4.simg");
    let file: Bytes = Arc::new(FileBytes::open(&path).unwrap());
    let image = SparseImage::open(file).unwrap();
    assert_eq!(image.header().block_size, 4096);
    assert_eq!(image.len(), 4 << 20);
    let oracle = std::fs::read_to_string(fixture("ext4.img.sha256")).unwrap();
    assert_eq!(
        stream_sha256(&image, 65536),
        oracle.split_whitespace().next().unwrap(),
        "the expansion simg2img gives"
    );

    let s = scan::scan(&path).unwrap();
    assert_eq!(s.form, scan::Form::DiskImage);
    assert_eq!(s.reasons, ["Android sparse image holding ext4"]);
    let layer = &s.root.children[0].layer;
    assert_eq!(layer.kind, "android_sparse");
    assert_eq!(layer.params["block_size"], "4096");
    assert_eq!(layer.params["blocks"], "1024");
    let all = s.file_systems();
    assert_eq!(all.len(), 1, "{}", s.unreadable_summary());
    let fs = all[0].fs.clone();
    assert_eq!(fs.format(), "ext4");
    let names: Vec<String> = fs
        .list_dir("/")
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, ["docs", "hello.txt", "lost+found", "pattern.bin"]);
    for rel in ["hello.txt", "pattern.bin", "docs/numbers.txt"] {
        let want = std::fs::read(fixture("source").join(rel)).unwrap();
        let e = fs.stat(&format!("/{rel}")).unwrap();
        assert_eq!(e.kind, EntryKind::File, "{rel}");
        let f = fs.open(&format!("/{rel}")).unwrap();
        let mut got = vec![0u8; f.len() as usize];
        f.read_exact_at(0, &mut got).unwrap();
        assert_eq!(got, want, "{rel}");
    }
}

/// The chunk headers of a sparse image: (offset, type, output blocks, stored bytes).
fn chunks(data: &[u8]) -> Vec<(usize, u16, u32, u32)> {
    let le16 = |at: usize| u16::from_le_bytes([data[at], data[at + 1]]);
    let le32 = |at: usize| u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
    let mut at = usize::from(le16(8));
    (0..le32(20))
        .map(|_| {
            let c = (at, le16(at), le32(at + 4), le32(at + 8));
            at += c.3 as usize;
            c
        })
        .collect()
}

fn open_err(data: Vec<u8>) -> Error {
    match SparseImage::open(memory(data)) {
        Ok(_) => panic!("opened"),
        Err(e) => e,
    }
}

#[test]
fn crafted_sparse_headers_and_chunks_give_typed_errors_naming_the_offset() {
    let good = std::fs::read(fixture("ext4.simg")).unwrap();
    let list = chunks(&good);
    let raw = list.iter().find(|c| c.1 == 0xCAC1).copied().unwrap();
    let fill = list.iter().find(|c| c.1 == 0xCAC2).copied().unwrap();

    // An absurd chunk count: refused before anything is allocated for it.
    let mut d = good.clone();
    d[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(
        matches!(open_err(d), Error::TooLarge { offset: 20, .. }),
        "chunk count"
    );
    // A chunk count larger than the chunks stored: the list runs off the end of the file.
    let mut d = good.clone();
    d[20..24].copy_from_slice(&(list.len() as u32 + 1).to_le_bytes());
    let err = open_err(d);
    assert!(
        matches!(err, Error::Truncated { offset, .. } if offset == good.len() as u64),
        "{err}"
    );
    // Fewer blocks declared than the chunks hold, and more.
    for blocks in [1023u32, 1025] {
        let mut d = good.clone();
        d[16..20].copy_from_slice(&blocks.to_le_bytes());
        assert!(
            matches!(open_err(d), Error::Corrupt { .. }),
            "{blocks} blocks"
        );
    }
    // Block size zero, not a multiple of 4; an unknown major version.
    for (at, value) in [(12usize, 0u32), (12, 4094)] {
        let mut d = good.clone();
        d[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let err = open_err(d);
        assert!(
            matches!(err, Error::Unsupported { ref detail, .. } if detail.contains("block size")),
            "{err}"
        );
    }
    let mut d = good.clone();
    d[4] = 2;
    assert!(matches!(open_err(d), Error::Unsupported { .. }));
    // An unknown chunk type, named at its header.
    let mut d = good.clone();
    d[fill.0..fill.0 + 2].copy_from_slice(&0xCAC9u16.to_le_bytes());
    let err = open_err(d);
    assert!(
        matches!(err, Error::Corrupt { offset, ref detail, .. } if offset == fill.0 as u64 && detail.contains("0xcac9")),
        "{err}"
    );
    // A raw chunk claiming more blocks than it stores: its size field disagrees.
    let mut d = good.clone();
    d[raw.0 + 4..raw.0 + 8].copy_from_slice(&(raw.2 + 1).to_le_bytes());
    let err = open_err(d);
    assert!(
        matches!(err, Error::Corrupt { offset, .. } if offset == raw.0 as u64 + 8),
        "{err}"
    );
    // A fill chunk claiming four billion blocks: past the declared size.
    let mut d = good.clone();
    d[fill.0 + 4..fill.0 + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = open_err(d);
    assert!(
        matches!(err, Error::Corrupt { ref detail, .. } if detail.contains("past the 1024 blocks")),
        "{err}"
    );
    // Not a sparse image at all.
    let mut d = good.clone();
    d[0] ^= 1;
    assert!(matches!(open_err(d), Error::Corrupt { offset: 0, .. }));
}

#[test]
fn truncated_and_bit_flipped_sparse_images_never_panic() {
    let good = std::fs::read(fixture("ext4.simg")).unwrap();
    // Cut anywhere: inside the header, a chunk header, a raw chunk's data.
    for cut in [0, 10, 27, 28, 35, 40, 4000, good.len() / 2, good.len() - 1] {
        let err = open_err(good[..cut].to_vec());
        assert!(
            matches!(err, Error::Truncated { .. }),
            "cut at {cut}: {err}"
        );
    }
    // Every bit of the header and of each chunk header flipped in turn: an error, or an image
    // whose every byte reads (a flipped fill value is undetectable without a CRC32 chunk).
    let mut positions: Vec<usize> = (0..28).collect();
    for (at, ..) in chunks(&good) {
        positions.extend(at..at + 16);
    }
    let mut opened = 0;
    for at in positions {
        for bit in 0..8 {
            let mut d = good.clone();
            d[at] ^= 1 << bit;
            if let Ok(s) = SparseImage::open(memory(d)) {
                opened += 1;
                // One read every three blocks reaches every chunk (each spans whole blocks).
                let mut buf = vec![0u8; 5000];
                for pos in (0..s.len()).step_by(3 * 4096) {
                    s.read_at(pos, &mut buf).unwrap();
                }
            }
        }
    }
    assert!(
        opened > 0,
        "flips in reserved fields and fill values still open"
    );
}
