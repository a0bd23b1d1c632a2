//! The case's full-text index (issue 21): the text of every file of a source, in any encoding,
//! indexed with tantivy so that an examiner or an agent finds a word, a phrase, a name written
//! without spaces or an identifier in any of its forms across every source at once.
//!
//! One index per source, in `<work>/index/<source id>/`: a source is indexed once (evidence is
//! immutable and verified by hash), a new source is indexed on its own, and a search of several
//! sources asks each index and merges the hits by score. An index directory is complete or
//! absent: it is built in `<dir>.partial` and renamed when its manifest is written.
//!
//! - [`decode`]: bytes → text units (encodings, binary strings, document bodies, plists).
//! - [`doc`]: the body text of Office, OpenDocument and PDF files.
//! - [`exif`]: the EXIF fields of JPEG and TIFF files (shared with the `doc_metadata` tool), a
//!   unit of `name: value` lines, each line marked with its field.
//! - [`analyzer`]: text → terms (NFKC + case folding, CJK bigrams, Chinese words by jieba), for
//!   documents and queries.
//! - [`ids`]: identifiers in text → normalised terms (`phone:+1…`, `email:…`, `wallet:…`).
//! - [`Writer`] builds an index, [`search`] queries one.
//!
//! The crate sits below the tool catalog: bytes in, text units out, and the index on disk. It
//! has no evidence access of its own and no store; `masf_tools::index_tools` feeds it and logs
//! what it does.
//!
//! # Details
//!
//! - [`decode`] decides what a file holds by content: a byte-order mark; valid UTF-8; UTF-16
//!   without a mark by its zero bytes, or for CJK by decoding cleanly to ideographs; a legacy code
//!   page guessed by `chardetng` and decoded by `encoding_rs` when it decodes cleanly; else the
//!   printable UTF-8 and UTF-16LE runs of a binary. It cuts text into overlapping 256 KiB units
//!   and keeps *marks* that map a text offset back to the file's byte offset in its encoding.
//! - `doc` is shared with the plugins' `doc_text` tool.
//! - [`analyzer`] is the one tokenizer of documents and queries: words of letters, digits and
//!   combining marks, folded NFKC + lower case; CJK runs as overlapping bigrams.
//! - [`ids`] indexes phones, e-mails and wallets found in text in the graph's normalised form
//!   (`phone:+1…`), so one number is found in every written form.
//! - [`Writer`] builds in `<dir>.partial` with one indexing thread (documents keep their order,
//!   so a rebuilt index ranks ties alike) and renames it into place with its `manifest.json`
//!   (every file with its SHA-256, what was taken, what was skipped and why). A cancelled build
//!   removes the partial directory; an index of another format or extractor version is refused
//!   with "rebuild it" (`crates/tools/tests/it/index.rs`). `Writer::add_derived` adds text
//!   another logged tool read from a file (an image's OCR), its manifest kind naming the
//!   invocation (`ocr:inv-…`).
//! - [`search`] runs words (tantivy's query syntax plus `word*`), an identifier, or a regular
//!   expression over identifiers, narrowed by file modification time, and locates each hit's
//!   match in the stored text: layer, path, SQLite row and column, byte offset, context.

pub mod analyzer;
pub mod decode;
pub mod doc;
pub mod exif;
pub mod ids;
mod search;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing,
    TextOptions, Value as _,
};
use tantivy::{Index, IndexWriter, TantivyDocument, doc};

pub use decode::{Mark, Unit};
pub use search::{Hit, Mode, Query, merge, search};

/// The on-disk format of an index directory; another value is rebuilt, never read.
pub const FORMAT: &str = "masf-index/1";
/// Version of the text extraction (decoders, analyzer, identifier rules): an index made by
/// another version is rebuilt.
pub const EXTRACTOR_VERSION: &str = "5";
/// The manifest's file name inside an index directory.
pub const MANIFEST: &str = "manifest.json";
/// The one-line file saying which format and extractor made an index (read by every search;
/// the manifest, which lists every file, is read only by `masf index`).
pub const VERSION_FILE: &str = "version";

/// The tantivy version this build writes and reads indexes with.
pub fn tantivy_version() -> String {
    tantivy::version_string().to_string()
}

/// Heap of the index writer (split between its threads).
const WRITER_HEAP: usize = 192 << 20;

/// Why the index could not be built or read.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("index {dir}: {detail}")]
    Io { dir: PathBuf, detail: String },
    #[error("index {dir}: {0}", dir = .1.display())]
    Tantivy(#[source] tantivy::TantivyError, PathBuf),
    #[error("no index in {0}: build it first (masf index)")]
    Missing(PathBuf),
    #[error("index {dir} was made by {found}, this build reads {FORMAT} with extractor {EXTRACTOR_VERSION}: rebuild it (masf index --rebuild)", dir = .dir.display())]
    Stale { dir: PathBuf, found: String },
    #[error("query: {0}")]
    Query(String),
    #[error("cancelled")]
    Cancelled,
}

/// What was indexed: the output of the logged `index_text` invocation, so that a rebuilt index
/// can be checked against it file by file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub extractor_version: String,
    pub tantivy: String,
    pub source_id: String,
    pub files: Vec<FileEntry>,
    /// Files not indexed, with why (too large, unreadable).
    pub skipped: Vec<Skipped>,
}

/// One indexed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    pub layer: String,
    pub path: String,
    pub size: u64,
    pub sha256: String,
    pub deleted: bool,
    /// Units by kind, e.g. `text`, `strings`, `sqlite_row` (the kind of the first unit; a file
    /// gives units of one kind).
    pub kind: String,
    pub units: usize,
}

/// One file left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub layer: String,
    pub path: String,
    pub reason: String,
}

impl Manifest {
    /// The manifest as the invocation's text: one tab-separated line a file.
    pub fn render(&self) -> String {
        let mut out = format!(
            "# {} extractor {} tantivy {} source {}\nlayer\tpath\tsize\tsha256\tdeleted\tkind\tunits\n",
            self.format, self.extractor_version, self.tantivy, self.source_id
        );
        for f in &self.files {
            out.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                f.layer,
                masf_evidence::fs::visible(&f.path),
                f.size,
                f.sha256,
                f.deleted,
                f.kind,
                f.units
            ));
        }
        for s in &self.skipped {
            out.push_str(&format!(
                "# skipped\t{}\t{}\t{}\n",
                s.layer,
                masf_evidence::fs::visible(&s.path),
                s.reason
            ));
        }
        out
    }

    /// Reads the manifest of a complete index directory.
    pub fn read(dir: &Path) -> Result<Manifest, IndexError> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => IndexError::Missing(dir.to_path_buf()),
            _ => io(dir, e),
        })?;
        let m: Manifest = serde_json::from_str(&text).map_err(|e| IndexError::Io {
            dir: dir.to_path_buf(),
            detail: format!("{MANIFEST}: {e}"),
        })?;
        if m.format != FORMAT || m.extractor_version != EXTRACTOR_VERSION {
            return Err(IndexError::Stale {
                dir: dir.to_path_buf(),
                found: format!("{} with extractor {}", m.format, m.extractor_version),
            });
        }
        Ok(m)
    }
}

fn io(dir: &Path, e: impl std::fmt::Display) -> IndexError {
    IndexError::Io {
        dir: dir.to_path_buf(),
        detail: e.to_string(),
    }
}

/// The fields of an index.
#[derive(Clone, Copy)]
pub(crate) struct Fields {
    pub layer: Field,
    pub path: Field,
    pub locator: Field,
    pub kind: Field,
    pub encoding: Field,
    pub text: Field,
    /// Chinese words (jieba) of the text's Han runs; not stored (the text is).
    pub words: Field,
    pub ids: Field,
    pub marks: Field,
    pub deleted: Field,
    pub mtime: Field,
}

pub(crate) fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text_options = TextOptions::default()
        .set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(analyzer::NAME)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        )
        .set_stored();
    let fields = Fields {
        layer: b.add_text_field("layer", STRING | STORED),
        path: b.add_text_field("path", STRING | STORED),
        locator: b.add_text_field("locator", STORED),
        kind: b.add_text_field("kind", STRING | STORED),
        encoding: b.add_text_field("encoding", STORED),
        text: b.add_text_field("text", text_options),
        words: b.add_text_field(
            "words",
            TextOptions::default().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer(analyzer::WORDS)
                    .set_index_option(IndexRecordOption::WithFreqsAndPositions),
            ),
        ),
        ids: b.add_text_field("ids", STRING),
        marks: b.add_text_field("marks", STORED),
        deleted: b.add_u64_field("deleted", INDEXED | STORED),
        mtime: b.add_i64_field("mtime", INDEXED | FAST | STORED),
    };
    (b.build(), fields)
}

fn register(index: &Index) {
    index
        .tokenizers()
        .register(analyzer::NAME, analyzer::Analyzer);
    index
        .tokenizers()
        .register(analyzer::WORDS, analyzer::Words);
}

fn version_line() -> String {
    format!("{FORMAT} {EXTRACTOR_VERSION}")
}

/// Checks that `dir` holds a complete index of this format and extractor.
pub fn check_version(dir: &Path) -> Result<(), IndexError> {
    let text = std::fs::read_to_string(dir.join(VERSION_FILE)).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => IndexError::Missing(dir.to_path_buf()),
        _ => io(dir, e),
    })?;
    let found = text.trim();
    if found != version_line() {
        return Err(IndexError::Stale {
            dir: dir.to_path_buf(),
            found: found.replacen(' ', " with extractor ", 1),
        });
    }
    Ok(())
}

/// Opens a complete index directory for searching.
pub(crate) fn open(dir: &Path) -> Result<(Index, Fields), IndexError> {
    check_version(dir)?;
    let index = Index::open_in_dir(dir).map_err(|e| IndexError::Tantivy(e, dir.to_path_buf()))?;
    register(&index);
    let (_, fields) = schema();
    Ok((index, fields))
}

/// One file handed to the [`Writer`].
pub struct FileMeta<'a> {
    pub layer: &'a str,
    pub path: &'a str,
    pub size: u64,
    pub sha256: String,
    pub deleted: bool,
    /// Modification time, Unix seconds, where the file system has one.
    pub mtime: Option<i64>,
}

/// Builds one source's index in `<dir>.partial`; [`Writer::finish`] renames it to `dir`.
pub struct Writer {
    dir: PathBuf,
    partial: PathBuf,
    writer: IndexWriter,
    fields: Fields,
    region: Option<masf_graph::identifiers::Region>,
    manifest: Manifest,
}

impl Writer {
    /// Starts a new index for `source_id` at `dir` (an older one there is replaced on
    /// [`Writer::finish`]); national phone numbers are read with `region`.
    pub fn create(
        dir: &Path,
        source_id: &str,
        region: Option<masf_graph::identifiers::Region>,
    ) -> Result<Writer, IndexError> {
        let partial = partial_of(dir);
        if partial.exists() {
            std::fs::remove_dir_all(&partial).map_err(|e| io(&partial, e))?;
        }
        std::fs::create_dir_all(&partial).map_err(|e| io(&partial, e))?;
        let (schema, fields) = schema();
        let index = Index::create_in_dir(&partial, schema)
            .map_err(|e| IndexError::Tantivy(e, partial.clone()))?;
        register(&index);
        // One indexing thread: documents keep the order they were added in, so a rebuilt index
        // ranks ties the same way and a logged search re-runs to the same output.
        let writer = index
            .writer_with_num_threads(1, WRITER_HEAP)
            .map_err(|e| IndexError::Tantivy(e, partial.clone()))?;
        Ok(Writer {
            dir: dir.to_path_buf(),
            partial,
            writer,
            fields,
            region,
            manifest: Manifest {
                format: FORMAT.to_string(),
                extractor_version: EXTRACTOR_VERSION.to_string(),
                tantivy: tantivy::version_string().to_string(),
                source_id: source_id.to_string(),
                files: Vec::new(),
                skipped: Vec::new(),
            },
        })
    }

    /// Adds one file's units.
    pub fn add(&mut self, file: &FileMeta<'_>, units: &[Unit]) -> Result<(), IndexError> {
        let f = self.fields;
        for u in units {
            let mut d = doc!(
                f.layer => file.layer,
                f.path => file.path,
                f.locator => u.locator.as_str(),
                f.kind => u.kind,
                f.encoding => u.encoding.as_str(),
                f.text => u.text.as_str(),
                f.marks => serde_json::to_string(&u.marks).unwrap_or_default(),
                f.deleted => u64::from(file.deleted),
                f.mtime => file.mtime.unwrap_or(i64::MIN),
            );
            // Segmenting is for Han text only: other units skip the field (and its copy).
            if analyzer::has_han(&u.text) {
                d.add_text(f.words, u.text.as_str());
            }
            let mut seen = std::collections::BTreeSet::new();
            for id in ids::find(&u.text, self.region.as_ref()) {
                if seen.insert(id.term.clone()) {
                    d.add_text(f.ids, &id.term);
                }
            }
            self.writer
                .add_document(d)
                .map_err(|e| IndexError::Tantivy(e, self.partial.clone()))?;
        }
        self.manifest.files.push(FileEntry {
            layer: file.layer.to_string(),
            path: file.path.to_string(),
            size: file.size,
            sha256: file.sha256.clone(),
            deleted: file.deleted,
            kind: units.first().map_or("empty", |u| u.kind).to_string(),
            units: units.len(),
        });
        Ok(())
    }

    /// Adds text another logged tool read from a file (an image's OCR): one unit whose
    /// manifest kind names the reading and its invocation (`ocr:inv-000123`), so the manifest
    /// says which logged output each indexed text is and a later build sees what is new.
    pub fn add_derived(
        &mut self,
        file: &FileMeta<'_>,
        unit: &Unit,
        invocation_id: &str,
    ) -> Result<(), IndexError> {
        self.add(file, std::slice::from_ref(unit))?;
        if let Some(last) = self.manifest.files.last_mut() {
            last.kind = format!("{}:{invocation_id}", unit.kind);
        }
        Ok(())
    }

    /// Records a file left out.
    pub fn skip(&mut self, layer: &str, path: &str, reason: &str) {
        self.manifest.skipped.push(Skipped {
            layer: layer.to_string(),
            path: path.to_string(),
            reason: reason.to_string(),
        });
    }

    /// Commits the index, writes its manifest and puts it in place.
    pub fn finish(mut self) -> Result<Manifest, IndexError> {
        self.writer
            .commit()
            .map_err(|e| IndexError::Tantivy(e, self.partial.clone()))?;
        self.writer
            .wait_merging_threads()
            .map_err(|e| IndexError::Tantivy(e, self.partial.clone()))?;
        let json = serde_json::to_string_pretty(&self.manifest).map_err(|e| io(&self.dir, e))?;
        std::fs::write(self.partial.join(MANIFEST), json).map_err(|e| io(&self.partial, e))?;
        std::fs::write(self.partial.join(VERSION_FILE), version_line() + "\n")
            .map_err(|e| io(&self.partial, e))?;
        if self.dir.exists() {
            std::fs::remove_dir_all(&self.dir).map_err(|e| io(&self.dir, e))?;
        }
        std::fs::rename(&self.partial, &self.dir).map_err(|e| io(&self.dir, e))?;
        Ok(self.manifest)
    }

    /// Drops the partial index (a cancelled build leaves nothing behind).
    pub fn abandon(self) {
        let partial = self.partial.clone();
        drop(self.writer);
        let _ = std::fs::remove_dir_all(partial);
    }
}

fn partial_of(dir: &Path) -> PathBuf {
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    dir.with_file_name(name)
}

/// The stored fields of one hit's document.
pub(crate) struct Stored {
    pub layer: String,
    pub path: String,
    pub locator: String,
    pub kind: String,
    pub encoding: String,
    pub text: String,
    pub marks: Vec<Mark>,
    pub deleted: bool,
    pub mtime: Option<i64>,
}

pub(crate) fn stored(d: &TantivyDocument, f: &Fields) -> Stored {
    let s = |field| {
        d.get_first(field)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    };
    Stored {
        layer: s(f.layer),
        path: s(f.path),
        locator: s(f.locator),
        kind: s(f.kind),
        encoding: s(f.encoding),
        text: s(f.text),
        marks: serde_json::from_str(&s(f.marks)).unwrap_or_default(),
        deleted: d.get_first(f.deleted).and_then(|v| v.as_u64()) == Some(1),
        mtime: d
            .get_first(f.mtime)
            .and_then(|v| v.as_i64())
            .filter(|&t| t != i64::MIN),
    }
}
