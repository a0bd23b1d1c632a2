//! The full-text index on real bytes: the string-search cases of tests/fixtures/search (a FAT12
//! volume made with mkfs.fat + mtools, text encoded by iconv, an SQLite -wal made by sqlite3)
//! and the Office/PDF documents of tests/fixtures/docmoney. Each word must be found, with the
//! byte offset where the file holds it in its own encoding.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use masf_index::Hit;
use masf_tools::doc_metadata::DocMetadata;
use masf_tools::index_tools::{IndexRef, SearchIndex, build_index};
use masf_tools::{SourceCtx, Tool, ToolError};
use serde_json::{Value, json};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Built {
    _dir: tempfile::TempDir,
    ctx: Arc<SourceCtx>,
    manifest: masf_index::Manifest,
}

/// The search volume, unpacked, opened and indexed once (region US for national numbers).
fn fat() -> &'static Built {
    static CELL: OnceLock<Built> = OnceLock::new();
    CELL.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut gz = flate2::read::GzDecoder::new(
            std::fs::File::open(repo().join("tests/fixtures/search/search.img.gz")).unwrap(),
        );
        let mut img = Vec::new();
        gz.read_to_end(&mut img).unwrap();
        let path = dir.path().join("search.img");
        std::fs::write(&path, img).unwrap();
        let index = IndexRef {
            dir: dir.path().join("index/src-fat"),
            region: Some("US".into()),
        };
        let ctx = SourceCtx::open("src-fat", &path).unwrap();
        let manifest =
            build_index(&ctx, &index, &[], &AtomicBool::new(false), &mut |_| {}).unwrap();
        Built {
            ctx: Arc::new(ctx.with_index(index)),
            manifest,
            _dir: dir,
        }
    })
}

fn search(ctx: &SourceCtx, args: Value) -> Vec<Hit> {
    let out = SearchIndex
        .run(ctx, &args)
        .unwrap_or_else(|e| panic!("search_index {args}: {e}"));
    serde_json::from_value(out.structured.unwrap()).unwrap()
}

fn words(q: &str) -> Vec<Hit> {
    search(&fat().ctx, json!({"query": q}))
}

/// The bytes of a file of the volume, read through the file system.
fn content(path: &str) -> Vec<u8> {
    let fs = fat().ctx.scan.file_system(None).unwrap();
    let b = fs.open(path).unwrap();
    let mut out = Vec::new();
    masf_evidence::bytes::Reader::new(b)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn position(hay: &[u8], needle: &[u8]) -> u64 {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the file")) as u64
}

fn utf16(s: &str, le: bool) -> Vec<u8> {
    s.encode_utf16()
        .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
        .collect()
}

fn hit_in<'a>(hits: &'a [Hit], path: &str) -> &'a Hit {
    hits.iter()
        .find(|h| h.path == path)
        .unwrap_or_else(|| panic!("no hit in {path}: {hits:#?}"))
}

#[test]
fn each_encoding_is_found_at_its_byte_offset() {
    let gbk = |s: &str| encoding_rs::GBK.encode(s).0.into_owned();
    let big5 = |s: &str| encoding_rs::BIG5.encode(s).0.into_owned();
    let sjis = |s: &str| encoding_rs::SHIFT_JIS.encode(s).0.into_owned();
    let cases: Vec<(&str, &str, Vec<u8>, &str)> = vec![
        ("kestrelmoon", "/utf8.txt", b"kestrelmoon".to_vec(), "utf-8"),
        (
            "larkspurtide",
            "/u16le.txt",
            utf16("larkspurtide", true),
            "utf-16le",
        ),
        (
            "marigoldfen",
            "/u16be.txt",
            utf16("marigoldfen", false),
            "utf-16be",
        ),
        ("张伟", "/gbk.txt", gbk("张伟"), "gbk"),
        ("陳大文", "/big5.txt", big5("陳大文"), "big5"),
        ("山田太郎", "/sjis.txt", sjis("山田太郎"), "shift_jis"),
        // Across the first cluster boundary of a fragmented file.
        (
            "quillharbor",
            "/split.txt",
            b"quillharbor".to_vec(),
            "utf-8",
        ),
    ];
    for (query, path, bytes, encoding) in cases {
        let hits = words(query);
        let h = hit_in(&hits, path);
        assert_eq!(h.encoding, encoding, "{query}");
        assert_eq!(
            h.offset,
            Some(position(&content(path), &bytes)),
            "{query} in {path}"
        );
        assert_eq!(h.matched, query, "{query}");
    }
    assert_eq!(words("quillharbor")[0].offset, Some(506));
}

#[test]
fn nfc_and_nfd_forms_find_each_other() {
    for query in ["café", "cafe\u{301}", "CAFÉ"] {
        let hits = words(query);
        let mut paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
        paths.sort();
        assert_eq!(paths, ["/nfc.txt", "/nfd.txt"], "{query}");
    }
    // The NFD file's hit points at its decomposed bytes.
    let nfd = words("zoë");
    let h = hit_in(&nfd, "/nfd.txt");
    assert_eq!(
        h.offset,
        Some(position(&content("/nfd.txt"), "Zoe\u{308}".as_bytes()))
    );
}

#[test]
fn a_deleted_file_the_volume_still_lists_is_searched() {
    let hits = words("phoenixvault");
    assert_eq!(hits.len(), 1, "{hits:#?}");
    assert!(hits[0].deleted, "{hits:#?}");
    assert_eq!(hits[0].offset, Some(24));
}

#[test]
fn a_row_only_in_the_wal_is_found_as_a_row_and_as_bytes() {
    let hits = words("sparrowledger");
    let row = hits
        .iter()
        .find(|h| h.path == "/msgs.db")
        .unwrap_or_else(|| panic!("{hits:#?}"));
    assert_eq!(row.locator, "table message rowid 2");
    assert_eq!(row.label.as_deref(), Some("body"));
    assert_eq!(row.kind, "sqlite_row");
    // The raw -wal frame holds the same record: its words are found there with their byte
    // offset (the last word runs on into the frame's next bytes, as `strings` shows it).
    let raw = words("\"ledger name\"");
    let raw = hit_in(&raw, "/msgs.db-wal");
    assert_eq!(raw.kind, "strings");
    assert_eq!(
        raw.offset,
        Some(position(&content("/msgs.db-wal"), b"ledger name"))
    );
    // The checkpointed database file itself does not hold the word.
    assert!(
        !content("/msgs.db")
            .windows(13)
            .any(|w| w == b"sparrowledger")
    );
}

#[test]
fn one_phone_number_is_found_in_four_written_forms() {
    for query in ["+1-919-888-7386", "(919) 888 7386", "tel:+19198887386"] {
        let hits = search(&fat().ctx, json!({"query": query, "mode": "identifier"}));
        let mut paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
        paths.sort();
        paths.dedup();
        assert_eq!(
            paths,
            [
                "/msgs.db",
                "/phones/dotted.txt",
                "/phones/international.txt",
                "/phones/national.txt"
            ],
            "{query}: {hits:#?}"
        );
        let intl = hit_in(&hits, "/phones/international.txt");
        assert_eq!(intl.matched, "+1 919 888 7386");
        assert_eq!(
            intl.offset,
            Some(position(
                &content("/phones/international.txt"),
                &utf16("+1 919", true)
            ))
        );
        assert_eq!(hit_in(&hits, "/msgs.db").label.as_deref(), Some("jid"));
    }
    // A regular expression over the normalised form.
    let re = search(
        &fat().ctx,
        json!({"query": r"phone:\+1919.*", "mode": "regex"}),
    );
    assert!(
        re.iter().any(|h| h.path == "/phones/national.txt"),
        "{re:#?}"
    );
}

#[test]
fn prefixes_phrases_and_boolean_queries() {
    assert!(hit_in(&words("kestrel*"), "/utf8.txt").matched == "kestrelmoon");
    let phrase = words("\"courier codename\"");
    assert_eq!(phrase.len(), 1);
    assert_eq!(phrase[0].matched, "courier codename");
    assert!(words("\"codename courier\"").is_empty());
    assert_eq!(words("kestrelmoon OR larkspurtide").len(), 2);
    assert!(words("kestrelmoon larkspurtide").is_empty());
}

#[test]
fn a_time_range_narrows_to_the_files_modified_in_it() {
    assert!(!words("kestrelmoon").is_empty());
    let before = search(
        &fat().ctx,
        json!({"query": "kestrelmoon", "to": "2024-01-01T00:00:00Z"}),
    );
    assert!(before.is_empty(), "{before:#?}");
    // FAT times are local and zoneless: a file without an instant is never in a range.
    let within = search(
        &fat().ctx,
        json!({"query": "kestrelmoon", "from": "2020-01-01T00:00:00Z"}),
    );
    assert!(within.is_empty(), "{within:#?}");
}

#[test]
fn the_manifest_lists_every_file_with_its_hash_and_a_rebuild_gives_the_same() {
    let m = &fat().manifest;
    let entry = m.files.iter().find(|f| f.path == "/utf8.txt").unwrap();
    let digest = sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(content(
        "/utf8.txt",
    )));
    assert_eq!(entry.sha256, hex::encode(digest));
    assert!(
        m.files
            .iter()
            .any(|f| f.path.ends_with("eleted.txt") && f.deleted)
    );
    assert!(
        m.files
            .iter()
            .any(|f| f.path == "/msgs.db" && f.kind == "sqlite_row")
    );
    let dir = tempfile::tempdir().unwrap();
    let again = build_index(
        &fat().ctx,
        &IndexRef {
            dir: dir.path().join("again"),
            region: Some("US".into()),
        },
        &[],
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(&again, m);
    assert!(m.render().lines().count() > m.files.len());
}

#[test]
fn office_and_pdf_bodies_are_searched() {
    let dir = tempfile::tempdir().unwrap();
    let index = IndexRef {
        dir: dir.path().join("docs"),
        region: Some("HK".into()),
    };
    let ctx =
        SourceCtx::open("src-docs", &repo().join("tests/fixtures/docmoney/evidence")).unwrap();
    build_index(&ctx, &index, &[], &AtomicBool::new(false), &mut |_| {}).unwrap();
    let ctx = ctx.with_index(index);
    let hits = search(&ctx, json!({"query": "\"HKD 97,500.00\""}));
    let docx = hit_in(&hits, "/Contracts/Settlement.docx");
    assert_eq!(docx.kind, "document");
    let pdf = hit_in(&hits, "/Contracts/Remittance.pdf");
    assert_eq!(pdf.kind, "document");
    assert!(pdf.matched.contains("97,500.00"), "{pdf:#?}");
}

/// A photo's EXIF (written by exiftool on the FAT16 stick of `tests/fixtures/disk`) is
/// searched as `doc_metadata` shows it: the camera's serial and make, each hit naming its field.
#[test]
fn a_photos_exif_is_searched_by_field() {
    let dir = tempfile::tempdir().unwrap();
    let index = IndexRef {
        dir: dir.path().join("stick"),
        region: Some("HK".into()),
    };
    let ctx = SourceCtx::open("src-stick", &repo().join("tests/fixtures/disk/stick.img")).unwrap();
    build_index(&ctx, &index, &[], &AtomicBool::new(false), &mut |_| {}).unwrap();
    let ctx = ctx.with_index(index);
    let serial = search(&ctx, json!({"query": "052031009999"}));
    // found twice: as the EXIF field, and among the file's bytes at its offset
    let exif = |hits: &[Hit]| {
        hits.iter()
            .find(|h| h.path == "/DCIM/photo.jpg" && h.kind == "exif")
            .cloned()
            .unwrap_or_else(|| panic!("no EXIF hit: {hits:#?}"))
    };
    let hit = exif(&serial);
    assert_eq!(hit.locator, "EXIF", "{hit:#?}");
    assert!(
        serial
            .iter()
            .any(|h| h.path == "/DCIM/photo.jpg" && h.kind == "strings" && h.offset.is_some()),
        "{serial:#?}"
    );
    assert_eq!(
        hit.label.as_deref(),
        Some("exif:BodySerialNumber"),
        "{hit:#?}"
    );
    assert_eq!(hit.offset, None, "a field, not a run of the file's bytes");
    // the same line as the tool prints it
    let shown = DocMetadata
        .run(&ctx, &json!({"path": "/DCIM/photo.jpg"}))
        .unwrap()
        .text;
    assert!(
        shown.contains(&format!("\n{}{}\n", hit.before, hit.matched)),
        "{shown}\n{hit:#?}"
    );
    let make = search(&ctx, json!({"query": "\"canon eos 200d\""}));
    assert_eq!(exif(&make).label.as_deref(), Some("exif:Model"));
}

#[test]
fn failures_are_precise() {
    // No index built for this source.
    let ctx =
        SourceCtx::open("src-docs", &repo().join("tests/fixtures/docmoney/evidence")).unwrap();
    let err = SearchIndex.run(&ctx, &json!({"query": "x"})).unwrap_err();
    assert!(err.to_string().contains("masf index"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx.with_index(IndexRef {
        dir: dir.path().join("none"),
        region: None,
    });
    let err = SearchIndex.run(&ctx, &json!({"query": "x"})).unwrap_err();
    assert!(err.to_string().contains("no index in"), "{err}");
    // Bad queries are the caller's to fix.
    for (args, says) in [
        (json!({"query": "  "}), "empty"),
        (json!({"query": "(", "mode": "regex"}), "("),
        (
            json!({"query": "hello", "mode": "identifier"}),
            "no phone number",
        ),
        (json!({"query": "x", "to": "yesterday"}), "RFC 3339"),
    ] {
        match SearchIndex.run(&fat().ctx, &args) {
            Err(ToolError::InvalidArgs(m)) => assert!(m.contains(says), "{args}: {m}"),
            other => panic!("{args}: {other:?}"),
        }
    }
}

#[test]
fn a_cancelled_build_leaves_no_index_and_a_stale_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let target = IndexRef {
        dir: dir.path().join("idx"),
        region: None,
    };
    let cancelled = build_index(
        &fat().ctx,
        &target,
        &[],
        &AtomicBool::new(true),
        &mut |_| {},
    );
    assert!(cancelled.unwrap_err().to_string().contains("cancelled"));
    assert!(!target.dir.exists());
    assert!(!dir.path().join("idx.partial").exists());
    // An index of another extractor version is refused with what to do.
    build_index(
        &fat().ctx,
        &target,
        &[],
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    let version = target.dir.join(masf_index::VERSION_FILE);
    let text = std::fs::read_to_string(&version).unwrap();
    assert_eq!(
        text,
        format!("{} {}\n", masf_index::FORMAT, masf_index::EXTRACTOR_VERSION)
    );
    std::fs::write(&version, "masf-index/1 0\n").unwrap();
    let ctx = SourceCtx::open("src-fat", &fat().ctx.scan.path)
        .unwrap()
        .with_index(target);
    let err = SearchIndex.run(&ctx, &json!({"query": "x"})).unwrap_err();
    assert!(err.to_string().contains("--rebuild"), "{err}");
}

/// Chinese is indexed twice: as bigrams (every substring of two characters is found) and as
/// the words jieba cuts, so a file holding the name as a word ranks above one where the two
/// characters only meet across words (`主张` + `伟大`), and a one-character word inside a
/// run (`向`) is found and located.
#[test]
fn chinese_words_rank_the_whole_word_first() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("folder");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.txt"), "他一向主张伟大的事业。\n").unwrap();
    std::fs::write(root.join("b.txt"), "张伟向李娜转账五万元。\n").unwrap();
    let index = IndexRef {
        dir: dir.path().join("index/src-folder"),
        region: None,
    };
    let ctx = SourceCtx::open("src-folder", &root).unwrap();
    build_index(&ctx, &index, &[], &AtomicBool::new(false), &mut |_| {}).unwrap();
    let ctx = ctx.with_index(index);
    let hits = search(&ctx, json!({"query": "张伟"}));
    let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(paths, ["/b.txt", "/a.txt"], "{hits:#?}");
    assert!(hits.iter().all(|h| h.matched == "张伟"), "{hits:#?}");
    assert!(hits[0].score > hits[1].score);
    let hits = search(&ctx, json!({"query": "转账"}));
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].offset, Some("张伟向李娜".len() as u64));
    let hits = search(&ctx, json!({"query": "李娜"}));
    assert_eq!((hits.len(), hits[0].matched.as_str()), (1, "李娜"));
    let one = search(&ctx, json!({"query": "向"}));
    let got: Vec<(&str, &str)> = one
        .iter()
        .map(|h| (h.path.as_str(), h.matched.as_str()))
        .collect();
    assert!(got.contains(&("/b.txt", "向")), "{one:#?}");
}
