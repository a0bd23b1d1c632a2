//! EWF layer: public corpus images against their oracles, fixtures made by `ewfacquire`
//! (`tests/fixtures/ewf/make-fixtures.sh`) read back byte-exact, and mutated images giving
//! typed errors.

use std::io::Read;
use std::path::{Path, PathBuf};

use masf_evidence::Error;
use masf_evidence::bytes::ByteSource;
use masf_evidence::ewf::{CompressionLevel, EwfImage, HashCheck, MediaType, verify_media};
use masf_testkit::corpus;
use sha2::{Digest, Sha256};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// A public EWF image read in place from the corpus, every segment of its set checked against
/// the corpus manifest.
fn public(name: &str) -> PathBuf {
    let path = corpus::path(&format!("ewf/{name}"));
    let stem = name.trim_end_matches(".E01");
    for (other, _) in corpus::entries() {
        if other.starts_with(&format!("ewf/{stem}.E")) {
            corpus::path(&other);
        }
    }
    path
}

fn ours(name: &str) -> PathBuf {
    fixtures().join("ewf").join(name)
}

fn oracles() -> serde_json::Value {
    let text = corpus::text("ewf/EWF_ORACLES.json");
    serde_json::from_str(&text).unwrap()
}

fn gunzip(path: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// Reads the whole media in pieces of `piece` bytes; the bytes, or the first error.
pub(crate) fn read_all(image: &EwfImage, piece: usize) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; usize::try_from(image.len()).unwrap()];
    let mut pos = 0;
    while pos < out.len() {
        let end = (pos + piece).min(out.len());
        let n = image.read_at(pos as u64, &mut out[pos..end])?;
        assert_eq!(n, end - pos, "short read at {pos}");
        pos = end;
    }
    Ok(out)
}

pub(crate) fn sha256_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

/// A deterministic sequence of (offset, length) pairs over `len` bytes.
fn ranges(len: u64, count: usize) -> Vec<(u64, usize)> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = Vec::new();
    for i in 0..count {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let offset = (x >> 11) % len;
        let size = match i % 4 {
            0 => 1 + (x % 97) as usize,
            1 => 1 + (x % 40_000) as usize,
            2 => 1 + (x % 300_000) as usize,
            _ => 32768,
        };
        out.push((offset, size));
    }
    // Edges: the very start, the very end, across the end.
    out.extend([(0, 1), (len - 1, 1), (len - 10, 100), (0, 65536)]);
    out
}

/// Random reads of `image` must equal the same ranges of `media`.
fn check_random_reads(image: &EwfImage, media: &[u8]) {
    for (offset, size) in ranges(media.len() as u64, 200) {
        let mut buf = vec![0xa5u8; size];
        let n = image.read_at(offset, &mut buf).unwrap();
        let start = usize::try_from(offset).unwrap();
        let want = &media[start..(start + size).min(media.len())];
        assert_eq!(n, want.len(), "length at {offset}+{size}");
        assert!(buf[..n] == *want, "bytes at {offset}+{size}");
    }
}

#[test]
fn public_images_give_the_oracle_media_hashes() {
    let oracles = oracles();
    let sets = [
        ("dfvfs-ext2.E01", "dfvfs-ext2.E01"),
        ("keramics-ext2.E01", "keramics-ext2.E01"),
        ("plaso-image.E01", "plaso-image.E01"),
        ("e01rs-image.E01", "e01rs-image.E01"),
        ("e01rs-mimage.E01", "e01rs-mimage.E01+E02"),
        ("plaso-image-split.E01", "plaso-image-split.E01+E02"),
    ];
    for (file, key) in sets {
        let o = &oracles[key];
        let image = EwfImage::open(&public(file)).unwrap();
        assert_eq!(image.len(), o["media_size"].as_u64().unwrap(), "{file}");
        let mut seen = 0;
        let v = verify_media(&image, 2, &mut |n| seen = n);
        assert_eq!(seen, image.len(), "{file}: progress");
        assert_eq!(v.md5, o["md5"].as_str().unwrap(), "{file}");
        assert_eq!(v.sha1, o["sha1"].as_str().unwrap(), "{file}");
        assert_eq!(v.sha256, o["sha256"].as_str().unwrap(), "{file}");
        assert_eq!(v.stored_md5.as_deref(), o["stored_md5"].as_str(), "{file}");
        assert_eq!(
            v.stored_sha1.as_deref(),
            o["stored_sha1"].as_str(),
            "{file}"
        );
        assert_eq!(v.md5_check, HashCheck::Verified, "{file}");
        let sha1_check = if o["stored_sha1"].is_string() {
            HashCheck::Verified
        } else {
            HashCheck::Absent
        };
        assert_eq!(v.sha1_check, sha1_check, "{file}");
        assert!(v.bad_chunks.is_empty() && v.is_verified(), "{file}");
        // The byte stream itself (read in odd pieces) has the same digest.
        let media = read_all(&image, 12_345).unwrap();
        assert_eq!(sha256_hex(&media), v.sha256, "{file}");
        if let Some(count) = o["chunk_count"].as_u64() {
            assert_eq!(image.chunk_count(), count, "{file}");
            assert_eq!(
                image.metadata().sector_count,
                o["sector_count"].as_u64().unwrap()
            );
        }
    }
}

#[test]
fn the_bad_chunk_image_fails_verification_naming_chunk_0_and_the_rest_stays_readable() {
    let o = &oracles()["e01rs-bad_chunk.E01"];
    let image = EwfImage::open(&public("e01rs-bad_chunk.E01")).unwrap();
    let v = verify_media(&image, 2, &mut |_| {});
    assert_eq!(v.md5_check, HashCheck::Mismatch);
    assert_eq!(v.sha1_check, HashCheck::Mismatch);
    assert!(!v.is_verified());
    assert_eq!(v.bad_chunk_count, 1);
    let bad = &v.bad_chunks[0];
    assert_eq!((bad.chunk, bad.media_offset, bad.length), (0, 0, 32768));
    assert!(bad.hashed_as_zeros);
    assert!(
        bad.detail
            .contains("chunk 0 (segment file e01rs-bad_chunk.E01"),
        "{}",
        bad.detail
    );
    // Hashed as zeros: the digests are those of the media with chunk 0 zeroed.
    let zeroed = &o["if_bad_chunk_zero_filled"];
    assert_eq!(v.md5, zeroed["md5"].as_str().unwrap());
    assert_eq!(v.sha1, zeroed["sha1"].as_str().unwrap());
    assert_eq!(v.sha256, zeroed["sha256"].as_str().unwrap());

    // Reading chunk 0 is a typed error, never the altered bytes.
    let mut buf = vec![0u8; 512];
    match image.read_at(100, &mut buf) {
        Err(Error::Corrupt {
            layer,
            offset,
            detail,
        }) => {
            assert_eq!(layer, "ewf");
            assert_eq!(offset, 0);
            assert!(detail.starts_with("chunk 0 (segment file e01rs-bad_chunk.E01, file offset "));
            assert!(detail.contains("Adler-32"), "{detail}");
        }
        other => panic!("expected a corrupt chunk, got {other:?}"),
    }
    // Chunks 1 to 40 equal those of the intact image.
    let good = read_all(&EwfImage::open(&public("e01rs-image.E01")).unwrap(), 65536).unwrap();
    let mut rest = vec![0u8; good.len() - 32768];
    assert_eq!(image.read_at(32768, &mut rest).unwrap(), rest.len());
    assert!(rest == good[32768..]);
}

#[test]
fn a_set_missing_its_second_segment_serves_the_first_and_names_the_missing_one() {
    // The corpus holds the whole set; its oracle describes the first segment alone.
    let o = &oracles()["plaso-image-split.E01+E02"];
    let media_size = o["media_size"].as_u64().unwrap();
    let o = &o["e01_alone"];
    let alone = tempfile::tempdir().unwrap();
    let e01 = alone.path().join("plaso-image-split.E01");
    std::fs::copy(public("plaso-image-split.E01"), &e01).unwrap();
    let image = EwfImage::open(&e01).unwrap();
    assert_eq!(image.len(), media_size);
    let meta = image.metadata();
    assert_eq!(meta.readable_chunks, 31);
    assert_eq!(meta.chunk_count, 45);
    let missing = meta.missing_segment.as_ref().unwrap();
    assert!(
        missing.ends_with("plaso-image-split.E02"),
        "{}",
        missing.display()
    );
    assert_eq!(meta.header.examiner.as_deref(), Some("John"));

    let mut readable = vec![0u8; 1984 * 512];
    assert_eq!(image.read_at(0, &mut readable).unwrap(), readable.len());
    assert_eq!(
        sha256_hex(&readable),
        o["sha256_of_first_1984_sectors"].as_str().unwrap()
    );
    let mut beyond = vec![0u8; 4096];
    match image.read_at(1984 * 512 - 512, &mut beyond) {
        Err(Error::MissingSegment {
            path,
            missing,
            found,
        }) => {
            assert!(path.ends_with("plaso-image-split.E02"));
            assert_eq!((missing.as_str(), found), ("E02", 0));
        }
        other => panic!("expected a missing segment, got {other:?}"),
    }

    let v = verify_media(&image, 2, &mut |_| {});
    assert_eq!(v.bytes_hashed, 1984 * 512);
    assert_eq!(
        v.sha256,
        o["sha256_of_first_1984_sectors"].as_str().unwrap()
    );
    assert_eq!(
        (v.md5_check, v.sha1_check),
        (HashCheck::Absent, HashCheck::Absent)
    );
    assert!(!v.is_verified());
    assert_eq!(v.bad_chunk_count, 14);
    let tail = &v.bad_chunks[0];
    assert_eq!((tail.chunk, tail.media_offset), (31, 1984 * 512));
    assert_eq!(tail.length, image.len() - 1984 * 512);
    assert!(!tail.hashed_as_zeros);
    assert!(tail.detail.contains("E02"), "{}", tail.detail);
}

#[test]
fn metadata_reports_geometry_header_values_and_stored_digests() {
    let image = EwfImage::open(&public("plaso-image.E01")).unwrap();
    let m = image.metadata();
    assert_eq!(
        (
            m.media_size,
            m.bytes_per_sector,
            m.sector_count,
            m.chunk_size,
            m.chunk_count
        ),
        (102400, 512, 200, 32768, 4)
    );
    assert_eq!(m.media_type, MediaType::Removable);
    assert_eq!(m.compression.level, CompressionLevel::Best);
    assert_eq!(m.compression.compressed_chunks, 4);
    assert_eq!(m.header.source.as_deref(), Some("header2"));
    assert_eq!(m.header.case_number.as_deref(), Some("PyVFS"));
    assert_eq!(m.header.evidence_number.as_deref(), Some("image.dd"));
    assert_eq!(
        m.header.description.as_deref(),
        Some("Test image for PyVFS")
    );
    assert_eq!(m.header.examiner.as_deref(), Some("John Doe"));
    assert_eq!(
        m.header.notes.as_deref(),
        Some("Notes on test image for PyVFS")
    );
    assert_eq!(m.header.acquisition_software.as_deref(), Some("20131210"));
    assert_eq!(m.header.acquisition_os.as_deref(), Some("Linux"));
    assert_eq!(m.header.acquisition_date.as_deref(), Some("1386674918"));
    assert_eq!(
        m.stored_md5.as_deref(),
        Some("d73c51f10c7ee6a681b7b619ccc6f1c4")
    );
    assert_eq!(m.stored_sha1, None);
    assert_eq!(m.segment_files.len(), 1);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);

    // FTK Imager: header (not header2) sections, two segments, digest section.
    let image = EwfImage::open(&public("e01rs-mimage.E01")).unwrap();
    let m = image.metadata();
    assert_eq!(m.segment_files.len(), 2);
    assert_eq!(m.header.source.as_deref(), Some("header"));
    assert_eq!(m.header.description.as_deref(), Some("untitled"));
    assert_eq!(m.header.case_number, None, "blank values are None");
    assert_eq!(m.header.acquisition_software.as_deref(), Some("ADI4.7.1.2"));
    assert_eq!(m.header.acquisition_os.as_deref(), Some("Win 201x"));
    assert_eq!(
        m.header.acquisition_date.as_deref(),
        Some("2023 6 20 10 45 24")
    );
    assert_eq!(m.header.compression.as_deref(), Some("f"));
    assert_eq!(
        m.stored_sha1.as_deref(),
        Some("f8677bd8a38a12476ae655a9f9f5336c287603f7")
    );

    // Our own fixture: the case data given to ewfacquire.
    let image = EwfImage::open(&ours("multi.E01")).unwrap();
    let m = image.metadata();
    assert_eq!(m.header.case_number.as_deref(), Some("MASF-EWF-1"));
    assert_eq!(m.header.evidence_number.as_deref(), Some("EV-7"));
    assert_eq!(
        m.header.description.as_deref(),
        Some("fixture of the masf EWF layer")
    );
    assert_eq!(m.header.examiner.as_deref(), Some("J. Examiner"));
    assert_eq!(m.header.notes.as_deref(), Some("made by make-fixtures.sh"));
    assert_eq!(m.header.acquisition_software.as_deref(), Some("20140813"));
    assert_eq!(m.header.acquisition_os.as_deref(), Some("Linux"));
    // 2024-03-01 12:00:00 UTC, as header2 stores it (POSIX seconds).
    assert_eq!(m.header.acquisition_date.as_deref(), Some("1709294400"));
    assert_eq!(m.media_type, MediaType::Fixed);
    let json = serde_json::to_string(m).unwrap();
    assert!(json.contains("\"case_number\":\"MASF-EWF-1\""), "{json}");
}

#[test]
fn a_multi_segment_best_compression_image_reads_back_byte_exact() {
    let raw = gunzip(&ours("multi.raw.gz"));
    let image = EwfImage::open(&ours("multi.E01")).unwrap();
    let m = image.metadata();
    assert_eq!(m.segment_files.len(), 2, "{:?}", m.segment_files);
    assert_eq!(m.compression.level, CompressionLevel::Best);
    assert!(m.compression.compressed_chunks > 0 && m.compression.uncompressed_chunks > 0);
    assert_eq!(image.len(), raw.len() as u64);
    let media = read_all(&image, 1 << 20).unwrap();
    assert!(media == raw, "media differs from the raw image");
    check_random_reads(&image, &raw);
    let v = verify_media(&image, 3, &mut |_| {});
    assert!(v.is_verified());
    assert_eq!(v.sha256, sha256_hex(&raw));
    // The set opens from any of its segments.
    let from_second = EwfImage::open(&ours("multi.E02")).unwrap();
    assert_eq!(from_second.metadata().segment_files, m.segment_files);
    // A tiny cache still serves random reads.
    let small_cache = EwfImage::open_with_cache(&ours("multi.E01"), 1).unwrap();
    check_random_reads(&small_cache, &raw);
}

#[test]
fn verification_is_the_same_with_any_number_of_workers() {
    // Workers share decoding and hashing through a scheduler; the digests, the bad chunks (in
    // media order) and the progress must not depend on how many there are.
    for name in ["multi.E01", "bad_chunk"] {
        let path = if name == "bad_chunk" {
            public("e01rs-bad_chunk.E01")
        } else {
            ours(name)
        };
        let image = EwfImage::open(&path).unwrap();
        let mut progress = Vec::new();
        let one = verify_media(&image, 1, &mut |n| progress.push(n));
        assert!(
            progress.windows(2).all(|w| w[0] < w[1]),
            "{name}: {progress:?}"
        );
        assert_eq!(progress.last(), Some(&one.bytes_hashed), "{name}");
        for workers in [0, 2, 3, 5, 16] {
            let mut last = 0;
            let v = verify_media(&image, workers, &mut |n| {
                assert!(n > last, "{name}: progress went from {last} to {n}");
                last = n;
            });
            assert_eq!(v, one, "{name} with {workers} workers");
            assert_eq!(last, one.bytes_hashed, "{name} with {workers} workers");
        }
    }
}

#[test]
fn concurrent_reads_see_the_same_bytes() {
    let raw = gunzip(&ours("multi.raw.gz"));
    let image = EwfImage::open_with_cache(&ours("multi.E01"), 4 * 32768).unwrap();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| check_random_reads(&image, &raw));
        }
    });
}

#[test]
fn every_writer_layout_reads_back_byte_exact() {
    let raw = std::fs::read(ours("small.raw")).unwrap();
    let names = [
        "small-none.E01",
        "small-fast.E01",
        "small-best.E01",
        "formats/small-ewf.e01",
        "formats/small-smart.s01",
        "formats/small-ftk.E01",
        "formats/small-encase2.E01",
        "formats/small-encase5.E01",
        "formats/small-linen6.E01",
    ];
    for name in names {
        let image = EwfImage::open(&ours(name)).unwrap();
        assert_eq!(read_all(&image, 7000).unwrap(), raw, "{name}");
        check_random_reads(&image, &raw);
        let v = verify_media(&image, 1, &mut |_| {});
        assert!(v.is_verified(), "{name}: {v:?}");
        assert!(
            image.metadata().warnings.is_empty(),
            "{name}: {:?}",
            image.metadata().warnings
        );
    }
    let none = EwfImage::open(&ours("small-none.E01")).unwrap();
    assert_eq!(none.metadata().compression.level, CompressionLevel::None);
    assert_eq!(none.metadata().compression.compressed_chunks, 0);
}

/// What reading a mutated image must give.
enum Expect {
    /// Opening fails with this error kind.
    OpenFails(fn(&Error) -> bool),
    /// Opens; these chunks fail (detail naming them), the others equal `small.raw`.
    BadChunks(&'static [u64]),
    /// Opens with a warning containing this text, and reads back byte-exact.
    Recovered(&'static str),
}

#[test]
fn mutated_images_give_typed_errors() {
    use Expect::*;
    let raw = std::fs::read(ours("small.raw")).unwrap();
    let corrupt = |e: &Error| matches!(e, Error::Corrupt { layer, .. } if layer == "ewf");
    let cases: [(&str, Expect); 19] = [
        (
            "truncated.E01",
            OpenFails(|e| matches!(e, Error::Truncated { .. })),
        ),
        ("flip-compressed-chunk.E01", BadChunks(&[0])),
        ("flip-uncompressed-chunk.E01", BadChunks(&[1])),
        ("flip-none-chunk.E01", BadChunks(&[0])),
        ("flip-descriptor.E01", OpenFails(corrupt)),
        ("loop-descriptor.E01", OpenFails(corrupt)),
        ("flip-table.E01", Recovered("table2 mirror")),
        ("flip-both-tables.E01", BadChunks(&[1])),
        ("absurd-table-count.E01", OpenFails(corrupt)),
        (
            "absurd-table-count-one-copy.E01",
            Recovered("table2 mirror"),
        ),
        ("absurd-chunk-count.E01", OpenFails(corrupt)),
        ("absurd-sector-count.E01", OpenFails(corrupt)),
        (
            "absurd-chunk-size.E01",
            OpenFails(|e| matches!(e, Error::TooLarge { .. })),
        ),
        ("flip-volume.E01", Recovered("data section")),
        ("flip-volume-and-data.E01", OpenFails(corrupt)),
        ("entry-out-of-range.E01", BadChunks(&[2])),
        ("zlib-bomb-chunk.E01", BadChunks(&[0])),
        ("not-ewf.E01", OpenFails(corrupt)),
        ("ewf2.Ex01", OpenFails(corrupt)),
    ];
    for (name, expect) in cases {
        let path = ours(&format!("mutated/{name}"));
        let opened = EwfImage::open(&path);
        match expect {
            OpenFails(kind) => {
                let err = opened.err().unwrap_or_else(|| panic!("{name}: opened"));
                assert!(kind(&err), "{name}: {err:?}");
            }
            Recovered(warning) => {
                let image = opened.unwrap_or_else(|e| panic!("{name}: {e}"));
                let warnings = &image.metadata().warnings;
                assert!(
                    warnings.iter().any(|w| w.contains(warning)),
                    "{name}: {warnings:?}"
                );
                assert_eq!(read_all(&image, 10_000).unwrap(), raw, "{name}");
                let v = verify_media(&image, 2, &mut |_| {});
                assert!(v.is_verified(), "{name}");
                assert_eq!(
                    &v.warnings, warnings,
                    "{name}: the verification carries the warnings"
                );
            }
            BadChunks(bad) => {
                let image = opened.unwrap_or_else(|e| panic!("{name}: {e}"));
                for chunk in 0..image.chunk_count() {
                    let start = chunk * 32768;
                    let len = (image.len() - start).min(32768) as usize;
                    let mut buf = vec![0u8; len];
                    let got = image.read_at(start, &mut buf);
                    if bad.contains(&chunk) {
                        match got {
                            Err(Error::Corrupt {
                                layer,
                                offset,
                                detail,
                            }) => {
                                assert_eq!((layer.as_str(), offset), ("ewf", start), "{name}");
                                assert!(
                                    detail.starts_with(&format!(
                                        "chunk {chunk} (segment file {name}, file offset "
                                    )),
                                    "{name}: {detail}"
                                );
                            }
                            other => panic!("{name}: chunk {chunk}: {other:?}"),
                        }
                        // A partial read of the chunk (through the cache) fails too.
                        assert!(image.read_at(start + 1, &mut buf[..10]).is_err(), "{name}");
                    } else {
                        got.unwrap_or_else(|e| panic!("{name}: chunk {chunk}: {e}"));
                        assert!(
                            buf == raw[start as usize..start as usize + len],
                            "{name}: chunk {chunk}"
                        );
                    }
                }
                let v = verify_media(&image, 2, &mut |_| {});
                let listed: Vec<u64> = v.bad_chunks.iter().map(|b| b.chunk).collect();
                assert_eq!(listed, bad, "{name}");
                assert_eq!(v.md5_check, HashCheck::Mismatch, "{name}");
                assert_eq!(v.sha1_check, HashCheck::Mismatch, "{name}");
                assert_eq!(v.bytes_hashed, image.len(), "{name}");
            }
        }
    }
}

/// Copies the multi-segment set into a temporary folder, altered by `mutate`.
fn mutated_set(mutate: impl Fn(&Path)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for seg in ["multi.E01", "multi.E02"] {
        std::fs::copy(ours(seg), dir.path().join(seg)).unwrap();
    }
    mutate(dir.path());
    dir
}

#[test]
fn damage_to_a_later_segment_leaves_the_earlier_ones_readable() {
    let raw = gunzip(&ours("multi.raw.gz"));
    let e02 = std::fs::read(ours("multi.E02")).unwrap();
    type Check = fn(&Error) -> bool;
    type Mutation = Box<dyn Fn(&Path)>;
    let cases: [(&str, Mutation, Check); 3] = [
        (
            "missing E02",
            Box::new(|d: &Path| std::fs::remove_file(d.join("multi.E02")).unwrap()),
            |e| matches!(e, Error::MissingSegment { missing, found: 0, .. } if missing == "E02"),
        ),
        (
            "truncated E02",
            Box::new(move |d: &Path| {
                std::fs::write(d.join("multi.E02"), &e02[..e02.len() / 2]).unwrap()
            }),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("multi.E02") && detail.contains("past the end")),
        ),
        (
            "flipped descriptor in E02",
            Box::new(|d: &Path| {
                let p = d.join("multi.E02");
                let mut b = std::fs::read(&p).unwrap();
                b[1141 + 20] ^= 0x01; // the sectors section descriptor of multi.E02
                std::fs::write(&p, b).unwrap();
            }),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("descriptor fails its Adler-32")),
        ),
    ];
    for (what, mutate, check) in cases {
        let dir = mutated_set(mutate);
        let image =
            EwfImage::open(&dir.path().join("multi.E01")).unwrap_or_else(|e| panic!("{what}: {e}"));
        let mapped = image.readable_chunks();
        assert_eq!(mapped, 86, "{what}: the chunks of multi.E01");
        assert!(!image.metadata().warnings.is_empty(), "{what}");
        let prefix = usize::try_from(mapped * 32768).unwrap();
        let mut buf = vec![0u8; prefix];
        assert_eq!(image.read_at(0, &mut buf).unwrap(), prefix, "{what}");
        assert!(buf == raw[..prefix], "{what}");
        let err = image.read_at(prefix as u64, &mut [0u8; 16]).unwrap_err();
        assert!(check(&err), "{what}: {err:?}");
        let v = verify_media(&image, 2, &mut |_| {});
        assert_eq!(v.bytes_hashed, prefix as u64, "{what}");
        assert_eq!(v.sha256, sha256_hex(&raw[..prefix]), "{what}");
        assert_eq!(v.bad_chunk_count, 128 - 86, "{what}");
        assert!(!v.is_verified(), "{what}");
    }
}

#[test]
fn verification_is_the_same_with_any_thread_count_and_evidence_is_untouched() {
    let sums = std::fs::read_to_string(ours("SHA256SUMS")).unwrap();
    let before: Vec<String> = ["multi.E01", "multi.E02"]
        .iter()
        .map(|f| sha256_hex(&std::fs::read(ours(f)).unwrap()))
        .collect();
    let image = EwfImage::open(&ours("multi.E01")).unwrap();
    let one = verify_media(&image, 1, &mut |_| {});
    let many = verify_media(&image, 5, &mut |_| {});
    let default = verify_media(&image, 0, &mut |_| {});
    assert_eq!(one, many);
    assert_eq!(one, default);
    drop(image);
    for (f, h) in ["multi.E01", "multi.E02"].iter().zip(&before) {
        assert_eq!(&sha256_hex(&std::fs::read(ours(f)).unwrap()), h);
        assert!(
            sums.contains(&format!("{h}  {f}")),
            "{f} differs from SHA256SUMS"
        );
    }
}

/// Verification computes what the image stores (as ewfverify does) unless asked for more.
#[test]
fn verification_computes_the_stored_digests_and_sha256_on_request() {
    use masf_evidence::ewf::{DigestSet, verify_media_with};
    // plaso-image.E01 stores an MD5 only; small-fast.E01 MD5 and SHA-1.
    let md5_only = EwfImage::open(&public("plaso-image.E01")).unwrap();
    let all = verify_media(&md5_only, 2, &mut |_| {});
    let set = DigestSet::stored(&md5_only, false);
    assert_eq!(
        set,
        DigestSet {
            sha1: false,
            sha256: false
        }
    );
    let v = verify_media_with(&md5_only, 2, set, &mut |_| {});
    assert!(v.is_verified());
    assert_eq!(v.md5, all.md5);
    assert_eq!((v.sha1.as_str(), v.sha256.as_str()), ("", ""));
    assert_eq!(v.sha1_check, HashCheck::Absent);

    let both = EwfImage::open(&ours("small-fast.E01")).unwrap();
    let set = DigestSet::stored(&both, true);
    let v = verify_media_with(&both, 1, set, &mut |_| {});
    let all = verify_media(&both, 1, &mut |_| {});
    assert!(v.is_verified());
    assert_eq!(v.sha1_check, HashCheck::Verified);
    assert_eq!(
        (&v.md5, &v.sha1, &v.sha256),
        (&all.md5, &all.sha1, &all.sha256)
    );
}
