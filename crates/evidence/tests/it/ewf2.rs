//! EWF2 (Ex01): fixtures written by libewf's own `ewfacquire -f encase7-v2` (20260924, built by
//! `tests/fixtures/ewf/make-ewf2.sh`) are first read by libewf's `pyewf` (the oracle venv of
//! `scripts/setup.sh`), then by our reader, which must give the same media, digests and case
//! data; mutated copies give typed errors naming the chunk or section. The same oracle reads
//! every public E01 of the corpus as a differential check of our version 1 reader.

use std::path::{Path, PathBuf};
use std::process::Command;

use masf_evidence::Error;
use masf_evidence::bytes::ByteSource;
use masf_evidence::ewf::{EwfImage, HashCheck, MediaType, verify_media};
use masf_evidence::fs::EntryKind;
use masf_evidence::scan::{Form, scan};
use masf_testkit::corpus;

use super::ewf::{read_all, sha256_hex};
use super::support::{py_oracle, repo, run};

fn ex01(name: &str) -> PathBuf {
    repo().join("tests/fixtures/ewf/ex01").join(name)
}

/// What libewf reads from a segment set: media size and SHA-256, stored MD5/SHA-1, case data.
fn pyewf(first: &Path) -> serde_json::Value {
    let script = r#"
import hashlib, json, sys, pyewf
h = pyewf.handle()
h.open(pyewf.glob(sys.argv[1]))
size = h.get_media_size()
digest = hashlib.sha256()
left = size
while left > 0:
    piece = h.read(min(left, 1 << 20))
    if not piece:
        raise SystemExit("short read")
    digest.update(piece)
    left -= len(piece)
def value(get, key):
    try:
        return get(key)
    except Exception:
        return None
print(json.dumps({
    "media_size": size,
    "sha256": digest.hexdigest(),
    "md5": value(h.get_hash_value, "MD5"),
    "sha1": value(h.get_hash_value, "SHA1"),
    "case_number": value(h.get_header_value, "case_number"),
    "examiner": value(h.get_header_value, "examiner_name"),
    "chunk_size": h.get_chunk_size(),
}))
"#;
    let out = run(Command::new(py_oracle("libewf-python"))
        .arg("-c")
        .arg(script)
        .arg(first));
    serde_json::from_str(&out).unwrap()
}

fn small_raw() -> Vec<u8> {
    std::fs::read(repo().join("tests/fixtures/ewf/small.raw")).unwrap()
}

fn multi_raw() -> Vec<u8> {
    let mut out = Vec::new();
    let file = std::fs::File::open(repo().join("tests/fixtures/ewf/multi.raw.gz")).unwrap();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(file), &mut out).unwrap();
    out
}

#[test]
fn ex01_images_read_as_libewf_reads_them() {
    for (name, raw, segments) in [
        ("small-none.Ex01", small_raw(), 1),
        ("small-fast.Ex01", small_raw(), 1),
        ("multi.Ex01", multi_raw(), 2),
    ] {
        let path = ex01(name);
        let oracle = pyewf(&path);
        // The oracle first: libewf reads the fixture back to the media it was made from.
        assert_eq!(oracle["media_size"], raw.len() as u64, "{name}");
        assert_eq!(oracle["sha256"], sha256_hex(&raw), "{name}: pyewf");

        let image = EwfImage::open(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let m = image.metadata();
        assert_eq!(m.media_size, raw.len() as u64, "{name}");
        assert_eq!(u64::from(m.chunk_size), oracle["chunk_size"], "{name}");
        assert_eq!(m.segment_files.len(), segments, "{name}");
        assert_eq!(m.readable_chunks, m.chunk_count, "{name}");
        assert!(m.warnings.is_empty(), "{name}: {:?}", m.warnings);
        for piece in [512, 4096, 32768, 100_000, 1 << 20] {
            let got = read_all(&image, piece).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(got == raw, "{name}: media differs, pieces of {piece}");
        }
        // An unaligned read across chunk boundaries.
        let mut buf = vec![0u8; 70_000];
        image.read_at(30_001, &mut buf).unwrap();
        assert!(buf == raw[30_001..100_001], "{name}: unaligned read");

        assert_eq!(m.stored_md5.as_deref(), oracle["md5"].as_str(), "{name}");
        assert_eq!(m.stored_sha1.as_deref(), oracle["sha1"].as_str(), "{name}");
        assert_eq!(
            m.header.case_number.as_deref(),
            oracle["case_number"].as_str(),
            "{name}"
        );
        assert_eq!(m.header.case_number.as_deref(), Some("MASF-EWF-2"));
        assert_eq!(m.header.examiner.as_deref(), Some("J. Examiner"));
        assert_eq!(m.header.evidence_number.as_deref(), Some("EV-8"));
        assert_eq!(
            m.header.description.as_deref(),
            Some("fixture of the masf EWF2 reader")
        );
        assert_eq!(m.header.acquisition_software.as_deref(), Some("20260924"));
        // 2024-03-01 12:00:00 UTC (faketime), as POSIX seconds.
        assert_eq!(m.header.acquisition_date.as_deref(), Some("1709294400"));
        assert_eq!(m.media_type, MediaType::Fixed);
        assert_eq!(
            m.set_identifier.as_deref(),
            Some("6d617366657766320000000000000001")
        );

        let v = verify_media(&image, 2, &mut |_| {});
        assert!(v.is_verified(), "{name}: {v:?}");
        assert_eq!(v.sha256, sha256_hex(&raw), "{name}");
        assert_eq!(v.md5_check, HashCheck::Verified, "{name}");
        assert_eq!(v.sha1_check, HashCheck::Verified, "{name}");
    }
    // The pseudo-random chunk stays uncompressed with its Adler-32; the zero chunk is a
    // pattern fill, counted as compressed as libewf counts it.
    let fast = EwfImage::open(&ex01("small-fast.Ex01")).unwrap();
    assert_eq!(fast.metadata().compression.compressed_chunks, 3);
    assert_eq!(fast.metadata().compression.uncompressed_chunks, 1);
    let none = EwfImage::open(&ex01("small-none.Ex01")).unwrap();
    assert_eq!(none.metadata().compression.compressed_chunks, 1);
    // Opened from its second segment, the set is read from its first.
    let second = EwfImage::open(&ex01("multi.Ex02")).unwrap();
    assert_eq!(second.metadata().segment_files.len(), 2);
}

#[test]
fn an_ex01_is_scanned_like_any_disk_image() {
    let s = scan(&ex01("multi.Ex01")).unwrap();
    assert_eq!(s.form, Form::DiskImage, "{:?}", s.reasons);
    let fs = s.file_system(None).expect("the ext4 inside");
    let licences = fs.list_dir("/licenses").unwrap();
    assert!(
        licences
            .iter()
            .any(|e| e.name == "GPL-3" && e.kind == EntryKind::File),
        "{licences:?}"
    );
    let random = fs.stat("/random.bin").unwrap();
    assert_eq!(random.size, 300_000);
}

#[test]
fn mutated_ex01_images_give_typed_errors() {
    enum Expect {
        OpenFails(fn(&Error) -> bool),
        BadChunks(&'static [u64]),
    }
    use Expect::*;
    let raw = small_raw();
    let corrupt = |e: &Error| matches!(e, Error::Corrupt { layer, .. } if layer == "ewf");
    let cases: [(&str, Expect); 12] = [
        ("truncated.Ex01", OpenFails(corrupt)),
        ("flip-compressed-chunk.Ex01", BadChunks(&[0])),
        ("flip-stored-chunk.Ex01", BadChunks(&[1])),
        ("flip-descriptor.Ex01", OpenFails(corrupt)),
        ("loop-descriptor.Ex01", OpenFails(corrupt)),
        ("flip-table.Ex01", OpenFails(corrupt)),
        ("absurd-table-count.Ex01", OpenFails(corrupt)),
        ("entry-out-of-range.Ex01", BadChunks(&[1])),
        ("unknown-chunk-flags.Ex01", BadChunks(&[0])),
        ("zlib-bomb-chunk.Ex01", BadChunks(&[0])),
        (
            "encrypted.Ex01",
            OpenFails(
                |e| matches!(e, Error::Unsupported { detail, .. } if detail.contains("encrypted")),
            ),
        ),
        (
            "bzip2.Ex01",
            OpenFails(
                |e| matches!(e, Error::Unsupported { detail, .. } if detail.contains("bzip2")),
            ),
        ),
    ];
    for (name, expect) in cases {
        let path = ex01(&format!("mutated/{name}"));
        let before = std::fs::read(&path).unwrap();
        let opened = EwfImage::open(&path);
        match expect {
            OpenFails(kind) => {
                let err = opened.err().unwrap_or_else(|| panic!("{name}: opened"));
                assert!(kind(&err), "{name}: {err:?}");
                assert!(err.to_string().contains("Ex01"), "{name}: {err}");
            }
            BadChunks(bad) => {
                let image = opened.unwrap_or_else(|e| panic!("{name}: {e}"));
                for chunk in 0..image.chunk_count() {
                    let at = chunk * image.chunk_size();
                    let len = (image.len() - at).min(image.chunk_size()) as usize;
                    let mut buf = vec![0u8; len];
                    let got = image.read_at(at, &mut buf);
                    if bad.contains(&chunk) {
                        let err = got.err().unwrap_or_else(|| panic!("{name}: chunk {chunk}"));
                        assert!(
                            matches!(&err, Error::Corrupt { detail, .. } if detail.contains(&format!("chunk {chunk} "))),
                            "{name}: {err:?}"
                        );
                    } else {
                        got.unwrap_or_else(|e| panic!("{name}: chunk {chunk}: {e}"));
                        assert!(buf == raw[at as usize..at as usize + len], "{name}");
                    }
                }
                let v = verify_media(&image, 2, &mut |_| {});
                assert!(!v.is_verified(), "{name}");
            }
        }
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "{name}: evidence untouched"
        );
    }
}

#[test]
fn an_ex01_set_missing_its_second_segment_serves_the_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(ex01("multi.Ex01"), dir.path().join("multi.Ex01")).unwrap();
    let raw = multi_raw();
    let image = EwfImage::open(&dir.path().join("multi.Ex01")).unwrap();
    let m = image.metadata();
    assert_eq!(m.readable_chunks, 86, "the chunks of multi.Ex01");
    assert_eq!(
        m.missing_segment.as_deref(),
        Some(dir.path().join("multi.Ex02").as_path())
    );
    let cs = image.chunk_size() as usize;
    let mut head = vec![0u8; 86 * cs];
    image.read_at(0, &mut head).unwrap();
    assert!(head == raw[..86 * cs]);
    let mut past = vec![0u8; 512];
    let err = image.read_at(86 * cs as u64, &mut past).unwrap_err();
    assert!(
        matches!(&err, Error::MissingSegment { missing, .. } if missing == "Ex02"),
        "{err:?}"
    );

    // A truncated second segment: its sections cannot be walked, the first segment's are read.
    std::fs::write(
        dir.path().join("multi.Ex02"),
        &std::fs::read(ex01("multi.Ex02")).unwrap()[..60_000],
    )
    .unwrap();
    let image = EwfImage::open(&dir.path().join("multi.Ex01")).unwrap();
    assert_eq!(image.metadata().readable_chunks, 86);
    let err = image.read_at(86 * cs as u64, &mut past).unwrap_err();
    assert!(
        matches!(&err, Error::Corrupt { detail, .. } if detail.contains("multi.Ex02") && detail.contains("truncated")),
        "{err:?}"
    );
}

/// The version 1 reader against libewf on every public E01 of the corpus that libewf reads
/// whole (the bad-chunk image and the split set shipped without its `.E02` are the version 1
/// tests' own cases).
#[test]
fn public_e01_images_read_as_libewf_reads_them() {
    let mut compared = 0;
    for (name, _) in corpus::entries() {
        let Some(file) = name.strip_prefix("ewf/") else {
            continue;
        };
        if !file.ends_with(".E01") || file.contains("bad_chunk") || file.contains("split") {
            continue;
        }
        let path = corpus::path(&name);
        let oracle = pyewf(&path);
        let image = EwfImage::open(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let media = read_all(&image, 1 << 20).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(oracle["media_size"], media.len() as u64, "{file}");
        assert_eq!(oracle["sha256"], sha256_hex(&media), "{file}");
        assert_eq!(
            image.metadata().stored_md5.as_deref(),
            oracle["md5"].as_str(),
            "{file}"
        );
        compared += 1;
    }
    assert!(compared >= 5, "{compared} public E01 images compared");
}

/// Offsets of every section descriptor of a version 2 segment file, walked from its end.
fn descriptors(data: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = data.len() - 64;
    loop {
        out.push(at);
        let prev = u64::from_le_bytes(data[at + 8..at + 16].try_into().unwrap()) as usize;
        if prev == 0 {
            return out;
        }
        at = prev;
    }
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

#[test]
fn seeded_random_corruptions_never_panic() {
    let data = std::fs::read(ex01("small-fast.Ex01")).unwrap();
    let descs = descriptors(&data);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.Ex01");
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    let (mut opened, mut refused) = (0, 0);
    for round in 0..400 {
        let mut d = data.clone();
        // Half the changes land in the structure (file header, device information and case
        // data, tables, digests and descriptors), half anywhere.
        for _ in 0..1 + next() % 4 {
            let at = if next() % 2 == 0 {
                if next() % 2 == 0 {
                    next() % 464
                } else {
                    d.len() - 1 - next() % 600
                }
            } else {
                next() % d.len()
            };
            d[at] = next() as u8;
        }
        if round % 3 == 0 {
            d.truncate(next() % d.len());
        } else if round % 2 == 0 {
            // Reseal the descriptors so the change gets past their checksums.
            for &at in &descs {
                let sum = adler32(&d[at..at + 60]);
                d[at + 60..at + 64].copy_from_slice(&sum.to_le_bytes());
            }
        }
        std::fs::write(&path, &d).unwrap();
        match EwfImage::open(&path) {
            Ok(image) => {
                opened += 1;
                let _ = read_all(&image, 32768);
                let _ = verify_media(&image, 2, &mut |_| {});
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(
        opened > 0 && refused > 0,
        "{opened} opened, {refused} refused"
    );
}
