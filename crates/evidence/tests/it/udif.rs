//! UDIF disk images (`.dmg`) from the public corpus (`container/udif/`), one per chunk codec
//! (ADC, zlib, bzip2, LZFSE, LZMA) plus two 64 MiB zlib images: the decoded disk equals, byte for
//! byte, the media whose size and SHA-256 `container/CONTAINER_ORACLES.md` records (rebuilt there
//! chunk by chunk with Python's codecs and liblzfse; qemu-img agrees for zlib), the block tables'
//! CRC-32s verify, and damaged copies (truncated, a bad trailer, a crafted block table, a
//! corrupt compressed chunk) give typed errors naming the layer.

use std::sync::Arc;

use masf_evidence::Error;
use masf_evidence::bytes::{ByteSource, Bytes, FileBytes, Memory};
use masf_evidence::udif::{ChunkKind, UdifImage};
use masf_testkit::corpus;
use sha2::{Digest, Sha256};

/// `(media bytes, media sha256)` of a DMG, from the corpus' container oracles.
fn oracle(dmg: &str) -> (u64, String) {
    let text = corpus::text("container/CONTAINER_ORACLES.md");
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("| udif/{dmg} |")))
        .unwrap_or_else(|| panic!("no oracle for {dmg}"));
    let f: Vec<&str> = line.split('|').map(str::trim).collect();
    (f[3].parse().unwrap(), f[5].to_string())
}

fn sha256(b: &dyn ByteSource, piece: usize) -> String {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; piece];
    let mut at = 0;
    while at < b.len() {
        let n = ((b.len() - at) as usize).min(piece);
        b.read_exact_at(at, &mut buf[..n]).unwrap();
        h.update(&buf[..n]);
        at += n as u64;
    }
    hex::encode(h.finalize())
}

fn open(dmg: &str) -> UdifImage {
    let path = corpus::path(&format!("container/udif/{dmg}"));
    UdifImage::open(Arc::new(FileBytes::open(&path).unwrap())).unwrap()
}

#[test]
fn every_codec_decodes_to_the_oracle_media() {
    let cases = [
        ("keramics-hfsplus_adc.dmg", ChunkKind::Adc),
        ("keramics-hfsplus_bzip2.dmg", ChunkKind::Bzip2),
        ("keramics-hfsplus_lzfse.dmg", ChunkKind::Lzfse),
        ("keramics-hfsplus_lzma.dmg", ChunkKind::Lzma),
        ("keramics-hfsplus_zlib.dmg", ChunkKind::Zlib),
        ("plaso-spotlight.10.13.dmg", ChunkKind::Zlib),
        ("plaso-spotlight.12.dmg", ChunkKind::Zlib),
    ];
    for (dmg, kind) in cases {
        let img = open(dmg);
        let (len, sum) = oracle(dmg);
        assert_eq!(img.len(), len, "{dmg}");
        assert!(img.kinds().contains(&kind), "{dmg}: {:?}", img.kinds());
        // Odd-sized reads cross chunk boundaries.
        assert_eq!(sha256(&img, 65_537), sum, "{dmg}");
        assert!(img.verify().unwrap().is_empty(), "{dmg}: CRC mismatch");
        assert!(img.tables().iter().any(|t| t.crc32.is_some()), "{dmg}");
    }
}

/// dmg2img's output for the images it converts whole (`tests/fixtures/hfs/make-oracles.sh`).
#[test]
fn decoded_disks_equal_dmg2img_output() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/hfs/dmg2img.sha256");
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let (sum, dmg) = line.split_once(' ').unwrap();
        assert_eq!(sha256(&open(dmg), 1 << 20), sum, "{dmg}");
        n += 1;
    }
    assert_eq!(n, 2);
}

fn copy(dmg: &str) -> Vec<u8> {
    corpus::bytes(&format!("container/udif/{dmg}"))
}

fn open_mem(data: Vec<u8>) -> masf_evidence::Result<UdifImage> {
    UdifImage::open(Arc::new(Memory::new(data, "dmg copy")) as Bytes)
}

fn read_all(img: &UdifImage) -> masf_evidence::Result<()> {
    let mut buf = vec![0u8; 1 << 20];
    let mut at = 0;
    while at < img.len() {
        let n = ((img.len() - at) as usize).min(buf.len());
        img.read_exact_at(at, &mut buf[..n])?;
        at += n as u64;
    }
    Ok(())
}

#[test]
fn damaged_copies_give_typed_errors() {
    let d = copy("keramics-hfsplus_zlib.dmg");
    // Truncated: the trailer is gone.
    assert!(open_mem(d[..d.len() - 100].to_vec()).is_err());
    assert!(matches!(
        open_mem(d[..100].to_vec()),
        Err(Error::Truncated { .. })
    ));
    // Trailer pointing its plist past the end.
    let mut bad = d.clone();
    let k = bad.len() - 512;
    bad[k + 216..k + 224].copy_from_slice(&(u64::MAX / 2).to_be_bytes());
    assert!(matches!(open_mem(bad), Err(Error::Truncated { .. })));
    // A plist that is not one.
    let mut bad = d.clone();
    let xml_at = u64::from_be_bytes(d[k + 216..k + 224].try_into().unwrap()) as usize;
    bad[xml_at..xml_at + 5].copy_from_slice(b"garbg");
    assert!(open_mem(bad).is_err());
    // A corrupt compressed chunk: a typed error when that chunk is read, naming the layer.
    let mut bad = d.clone();
    // Inside the zlib stream of the HFS+ partition's first chunk (file bytes 10251..16409).
    for b in &mut bad[12000..12400] {
        *b ^= 0x5a;
    }
    let img = open_mem(bad).unwrap();
    match read_all(&img) {
        Err(Error::Corrupt { layer, .. }) => assert_eq!(layer, "udif"),
        other => panic!("{other:?}"),
    }
    // The same damage in every codec's image: an error or different bytes, never a panic.
    for dmg in [
        "keramics-hfsplus_adc.dmg",
        "keramics-hfsplus_bzip2.dmg",
        "keramics-hfsplus_lzfse.dmg",
        "keramics-hfsplus_lzma.dmg",
    ] {
        let mut bad = copy(dmg);
        for b in &mut bad[1000..1200] {
            *b ^= 0x5a;
        }
        if let Ok(img) = open_mem(bad) {
            let _ = read_all(&img);
        }
    }
}

#[test]
fn crafted_block_tables_are_refused() {
    // A mish table rewritten in the plist needs base64 work; instead, shrink the disk in the
    // trailer so the tables' chunks lie beyond it.
    let mut d = copy("keramics-hfsplus_zlib.dmg");
    let k = d.len() - 512;
    d[k + 492..k + 500].copy_from_slice(&10u64.to_be_bytes());
    match open_mem(d) {
        Err(Error::Corrupt { detail, .. }) => {
            assert!(detail.contains("beyond the disk"), "{detail}")
        }
        other => panic!("{:?}", other.err()),
    }
}
