//! Glide's image disk caches (`<app>/cache/image_manager_disk_cache/`, Glide's
//! `DiskCache.Factory.DEFAULT_DISK_CACHE_DIR`, in an app's internal or shared-storage cache
//! folder), ALEAPP's `imagemngCache` (`get_imagemngCache`): the images an app that loads pictures
//! with Glide (social, shopping, news, dating apps …) kept on disk after showing them, and the
//! DiskLruCache journal that says when each entry was written, read and removed. The folder is
//! found by its name (an app folder of [`super::APP_DIRS`]) and read only when it lies in a
//! folder named `cache`; it is listed with `find_files`, each cached file's head read with
//! `hexdump` (16 bytes: its image format) and the journal (`journal`, else `journal.bkp`) with
//! `read_text` (1 MiB at a time, up to [`MAX_CHUNKS`] MiB).
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | the folder and its `journal` | one `media` per folder ("Glide image cache of <package>") | the folder's path, the journal's path and size, its header lines (`libcore.io.DiskLruCache`, version, the app's cache version, values per entry); the files, entries, reads and removals counted in the interpretation; the journal's modified time |
//! | `<key>.<n>` (`<key>.<n>.tmp` while written) | one `media` per cached file ("Glide cached image <file name> (<package>)") | path, the key (Glide's SHA-256 of what it loaded: URL, size, transformation; not reversed), size, the image format's marker as the hexdump shows it (`ff d8 ff` JPEG, `PNG`, `GIF87a`/`GIF89a`, `WEBP`, `ftyp` HEIF/AVIF or a video, `BM`), the journal's lines for the key (`DIRTY`, `CLEAN <key> <length>`, `READ`, `REMOVE`, up to [`MAX_KEY_LINES`]); the file's modified time (when Glide wrote it) |
//! | a journal key without a file | one `media` ("Glide cache entry <key> without a file (<package>)") | the key, its journal lines (a `REMOVE`: Glide evicted it; else the file is gone) |
//!
//! The journal's order is the cache's history (oldest first; it holds no times): `DIRTY` then
//! `CLEAN` is an image written, `READ` an image shown again from the cache, `REMOVE` one
//! evicted. Glide rewrites the journal when it holds 2000 redundant lines, so older history is
//! gone. The images are not decoded here (their format is named from the head); what they show
//! is for the examiner to look at. The package is the folder's (`<package>/cache/…`).
//!
//! Drift and damage: a journal whose first line is not `libcore.io.DiskLruCache` (another
//! format) is noted and not used, the files still listed; a journal cut in a line (no line end
//! at the end of the file) is noted, the lines before read; a line that is no journal operation
//! is counted; a cached file whose size differs from its last `CLEAN` length is noted (cut or
//! rewritten). Files past [`super::MAX_ROWS`] a folder are counted and noted, heads past
//! [`HEAD_CAP`] not read (noted). Folders named `image_manager_disk_cache` elsewhere than in a
//! `cache` folder, and other apps' DiskLruCache journals (OkHttp's `http-cache`), are neither read
//! nor noted.
//!
//! What it proves: that the app showed (or prefetched) these images on the phone, the file's
//! modified time being when it was cached; not who looked at them. Identities: none.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::Located;
use super::fishingnet::listed_modified;
use super::mapstts::hexdump_bytes;
use crate::calls::call_or_note;
use crate::drafts::{Draft, record_draft};
use crate::identity::{args_on, artefact_name};
use crate::outputs::{ListedFile, listed_files};

/// Glide's cache folder, found by its name.
pub const DIR: &str = "image_manager_disk_cache";

/// The journal's first line.
const MAGIC: &str = "libcore.io.DiskLruCache";

/// Most entries listed in a folder.
const LIST_LIMIT: u64 = 20_000;

/// Most cached files of a folder whose head is read (one `hexdump` each: an app's image cache
/// holds thousands of files, and the format marker is worth a call for the first ones only;
/// the rest are recorded from the listing and the journal).
pub const HEAD_CAP: usize = 200;

/// Bytes of the journal read at a time.
const CHUNK: u64 = 1 << 20;

/// Most chunks of a journal read.
pub const MAX_CHUNKS: usize = 8;

/// Most journal lines of one key given as facts (the rest counted).
pub const MAX_KEY_LINES: usize = 40;

/// Whether `l` is a Glide cache folder (in an app's `cache` folder).
pub fn is_app_dir(l: &Located) -> bool {
    is_cache_dir(&l.path)
}

/// Whether `path` is a Glide cache folder.
fn is_cache_dir(path: &str) -> bool {
    path.trim_end_matches('/')
        .ends_with("/cache/image_manager_disk_cache")
}

/// Whether `path` is a file of a Glide cache folder (for `categorise`).
pub fn is_cache_file(path: &str) -> bool {
    path.rsplit_once('/')
        .is_some_and(|(dir, _)| is_cache_dir(dir))
}

/// The package whose cache folder `dir` is (`…/<package>/cache/image_manager_disk_cache`).
fn package(dir: &str) -> &str {
    dir.trim_end_matches('/')
        .strip_suffix("/cache/image_manager_disk_cache")
        .and_then(|p| p.rsplit('/').next())
        .filter(|p| !p.is_empty())
        .unwrap_or("an app")
}

/// The key and value index of a cached file's name (`<key>.<n>` or `<key>.<n>.tmp`).
fn entry_name(name: &str) -> Option<(&str, bool)> {
    let (base, tmp) = match name.strip_suffix(".tmp") {
        Some(b) => (b, true),
        None => (name, false),
    };
    let (key, n) = base.rsplit_once('.')?;
    (!key.is_empty()
        && !key.contains('.')
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit()))
    .then_some((key, tmp))
}

/// The image format of a head, with its marker as a hexdump shows it.
fn image_format(head: &[u8]) -> Option<(&'static str, String)> {
    let at = |i: usize, m: &[u8]| head.get(i..i + m.len()) == Some(m);
    if at(0, &[0xff, 0xd8, 0xff]) {
        Some(("JPEG", "ff d8 ff".into()))
    } else if at(0, b"\x89PNG") {
        Some(("PNG", "PNG".into()))
    } else if at(0, b"GIF89a") {
        Some(("GIF", "GIF89a".into()))
    } else if at(0, b"GIF87a") {
        Some(("GIF", "GIF87a".into()))
    } else if at(0, b"RIFF") && at(8, b"WEBP") {
        Some(("WebP", "WEBP".into()))
    } else if at(4, b"ftyp") {
        let brand = head
            .get(8..12)
            .map(|b| String::from_utf8_lossy(b).to_string())
            .unwrap_or_default();
        let kind = match brand.as_str() {
            "heic" | "heix" | "mif1" | "msf1" => "HEIF",
            "avif" | "avis" => "AVIF",
            _ => "an ISO media file (a video or an image)",
        };
        Some((kind, "ftyp".into()))
    } else if at(0, b"BM") {
        Some(("BMP", "BM".into()))
    } else {
        None
    }
}

/// The journal: its lines (with the chunk each came from), the chunks, whether it was cut in a
/// line. `None` when the first read failed (noted).
struct Journal {
    path: String,
    size: String,
    chunks: Vec<Invoked>,
    lines: Vec<(String, usize)>,
    cut: bool,
}

/// Reads the journal at `path` a chunk at a time.
fn read_journal(
    ctx: &AgentCtx<'_>,
    l: &Located,
    f: &ListedFile,
) -> Result<Option<Journal>, RuntimeError> {
    let name = artefact_name(&l.tree, &f.path);
    let mut j = Journal {
        path: f.path.clone(),
        size: f.size.clone(),
        chunks: Vec::new(),
        lines: Vec::new(),
        cut: false,
    };
    let mut offset = 0u64;
    loop {
        let Some(inv) = call_or_note(
            ctx,
            &name,
            "read_text",
            args_on(
                &l.tree,
                json!({"path": f.path, "offset": offset, "length": CHUNK}),
            ),
        )?
        else {
            break;
        };
        let text = inv.output.text.clone();
        let s = inv.output.structured.clone();
        let read = s
            .as_ref()
            .and_then(|s| s.get("length"))
            .and_then(Value::as_u64)
            .unwrap_or(text.len() as u64);
        let more = match s
            .as_ref()
            .and_then(|s| s.get("more"))
            .and_then(Value::as_bool)
        {
            Some(m) => m,
            None => read >= CHUNK,
        };
        j.chunks.push(inv);
        let at = j.chunks.len() - 1;
        // only whole lines: the rest of a chunk is read with the next; a file's end without a
        // line end is a line cut
        let (body, consumed) = match text.rfind('\n') {
            Some(i) => (
                &text[..=i],
                read.saturating_sub((text.len() - (i + 1)) as u64),
            ),
            None => ("", 0),
        };
        if !more && body.len() < text.len() {
            j.cut = true;
        }
        for line in body.lines() {
            j.lines.push((line.to_string(), at));
        }
        if !more || consumed == 0 {
            break;
        }
        offset += consumed;
        if j.chunks.len() >= MAX_CHUNKS {
            ctx.unparsed(
                &name,
                &format!(
                    "bytes {offset}–{} of its {} were not read: only the first {offset} bytes are parsed",
                    f.size, f.size
                ),
                Some(&j.chunks[at].record.invocation_id),
            )?;
            break;
        }
    }
    Ok((!j.chunks.is_empty()).then_some(j))
}

/// What the journal says of one key.
#[derive(Default)]
struct Entry {
    /// (line, chunk) in order
    lines: Vec<(String, usize)>,
    reads: usize,
    last_op: String,
    clean_size: Option<String>,
}

/// A Glide cache folder.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if !is_cache_dir(&l.path) {
        return Ok(());
    }
    let dir_name = artefact_name(&l.tree, &l.path);
    let Some(listing) = super::list_folder(ctx, l, LIST_LIMIT, "the Glide cache")? else {
        return Ok(());
    };
    let prefix = format!("{}/", l.path.trim_end_matches('/'));
    let here: Vec<ListedFile> = listed_files(&listing.output.text)
        .into_iter()
        .filter(|f| {
            f.path
                .strip_prefix(&prefix)
                .is_some_and(|n| !n.contains('/'))
        })
        .collect();
    let name_of = |f: &ListedFile| f.path.rsplit('/').next().unwrap_or(&f.path).to_string();
    let journal_file = here
        .iter()
        .find(|f| name_of(f) == "journal")
        .or_else(|| here.iter().find(|f| name_of(f) == "journal.bkp"))
        .cloned();
    let cached: Vec<&ListedFile> = here
        .iter()
        .filter(|f| entry_name(&name_of(f)).is_some())
        .collect();
    if journal_file.is_none() && cached.is_empty() {
        return Ok(());
    }
    let pkg = package(&l.path).to_string();

    // the journal: header, then one entry per key
    let mut header: Vec<(String, usize)> = Vec::new();
    let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut bad = 0usize;
    let mut journal: Option<Journal> = None;
    if let Some(jf) = &journal_file {
        let jname = artefact_name(&l.tree, &jf.path);
        if let Some(j) = read_journal(ctx, l, jf)? {
            let first = j.lines.first().map(|(s, _)| s.as_str()).unwrap_or("");
            if first != MAGIC {
                ctx.unparsed(
                    &jname,
                    &format!(
                        "could not parse Glide's cache journal because it is not a DiskLruCache journal: its first line is {:?}, not {MAGIC}",
                        crate::drafts::headline(first)
                    ),
                    Some(&j.chunks[0].record.invocation_id),
                )?;
            } else {
                if j.cut {
                    ctx.unparsed(
                        &jname,
                        "Glide's cache journal is cut: its last line has no end (cut or damaged); the lines before were read",
                        j.chunks.last().map(|i| i.record.invocation_id.as_str()),
                    )?;
                }
                for (i, (line, c)) in j.lines.iter().enumerate() {
                    if i < 5 {
                        header.push((line.clone(), *c));
                        continue;
                    }
                    let mut parts = line.split(' ');
                    let op = parts.next().unwrap_or("");
                    let key = parts.next().unwrap_or("");
                    if key.is_empty() || !matches!(op, "DIRTY" | "CLEAN" | "READ" | "REMOVE") {
                        if !line.is_empty() {
                            bad += 1;
                        }
                        continue;
                    }
                    if !entries.contains_key(key) {
                        order.push(key.to_string());
                    }
                    let e = entries.entry(key.to_string()).or_default();
                    e.lines.push((line.clone(), *c));
                    e.last_op = op.to_string();
                    match op {
                        "READ" => e.reads += 1,
                        "CLEAN" => e.clean_size = parts.next().map(str::to_string),
                        _ => {}
                    }
                }
                if bad > 0 {
                    ctx.unparsed(
                        &jname,
                        &format!(
                            "{bad} lines of Glide's cache journal are no journal operation; the others were read"
                        ),
                        Some(&j.chunks[0].record.invocation_id),
                    )?;
                }
                journal = Some(j);
            }
        }
    }

    // the folder
    let mut d = Draft::new("media", format!("Glide image cache of {pkg}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = vec![format!("{} cached files", cached.len())];
    if let (Some(j), Some(jf)) = (&journal, &journal_file) {
        d.fact(FactType::Path, Some(&j.path), &listing);
        d.fact(FactType::Count, Some(&j.size), &listing);
        for (line, c) in header.iter().skip(1).take(3) {
            d.fact(FactType::Text, Some(line), &j.chunks[*c]);
        }
        let version = |i: usize| header.get(i).map(|(s, _)| s.as_str()).unwrap_or("?");
        said.push(format!(
            "the journal {} (version {}, the app's cache version {}, {} value{} per entry) names {} keys, {} read again {} times, {} removed",
            j.path,
            version(1),
            version(2),
            version(3),
            if version(3) == "1" { "" } else { "s" },
            entries.len(),
            entries.values().filter(|e| e.reads > 0).count(),
            entries.values().map(|e| e.reads).sum::<usize>(),
            entries.values().filter(|e| e.last_op == "REMOVE").count()
        ));
        let (at, enc) = listed_modified(jf);
        d.time(at, enc, "Glide cache journal last written", &listing);
    } else {
        said.push("no journal was read".into());
    }
    d.interpretation = format!(
        "{}: the disk cache Glide keeps for {pkg}, the images the app showed or prefetched: {}; the journal lists the cache's operations oldest first and holds no times.",
        l.path,
        said.join("; ")
    );
    record_draft(ctx, d)?;

    // each cached file
    let mut on_disk: Vec<String> = Vec::new();
    for (i, f) in cached.iter().enumerate() {
        if i as u64 >= super::MAX_ROWS {
            ctx.unparsed(
                &dir_name,
                &format!(
                    "{} cached files: the first {} were recorded, the others counted",
                    cached.len(),
                    super::MAX_ROWS
                ),
                Some(&listing.record.invocation_id),
            )?;
            break;
        }
        if i == HEAD_CAP {
            ctx.unparsed(
                &dir_name,
                &format!(
                    "{} cached files: the heads (formats) of the first {HEAD_CAP} were read, the others are listed only",
                    cached.len()
                ),
                Some(&listing.record.invocation_id),
            )?;
        }
        let file = name_of(f);
        let Some((key, tmp)) = entry_name(&file) else {
            continue;
        };
        on_disk.push(key.to_string());
        let entry = entries.get(key);
        cached_file(
            ctx,
            l,
            &listing,
            f,
            &file,
            key,
            tmp,
            &pkg,
            entry,
            journal.as_ref(),
            i < HEAD_CAP,
        )?;
    }

    // the journal's keys without a file
    if let Some(j) = &journal {
        let mut n = 0u64;
        for key in &order {
            if on_disk.contains(key) {
                continue;
            }
            let Some(e) = entries.get(key) else {
                continue;
            };
            n += 1;
            if n > super::MAX_ROWS {
                break;
            }
            let mut d = Draft::new(
                "media",
                format!("Glide cache entry {key} without a file ({pkg})"),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Identifier, Some(key), &j.chunks[e.lines[0].1]);
            for (line, c) in e.lines.iter().take(MAX_KEY_LINES) {
                d.fact(FactType::Text, Some(line), &j.chunks[*c]);
            }
            d.interpretation = format!(
                "{}: the journal of the Glide cache of {pkg} names the key {key}, whose file is not in the folder: {}; {} journal lines{}.",
                j.path,
                if e.last_op == "REMOVE" {
                    "its last operation is REMOVE, Glide evicted the image (or the app cleared it)"
                } else {
                    "the file is gone without a REMOVE line (deleted outside Glide, or the cache was cleared)"
                },
                e.lines.len(),
                if e.lines.len() > MAX_KEY_LINES {
                    format!(", the first {MAX_KEY_LINES} as facts")
                } else {
                    String::new()
                }
            );
            record_draft(ctx, d)?;
        }
    }
    Ok(())
}

/// One cached file.
#[allow(clippy::too_many_arguments)]
fn cached_file(
    ctx: &AgentCtx<'_>,
    l: &Located,
    listing: &Invoked,
    f: &ListedFile,
    file: &str,
    key: &str,
    tmp: bool,
    pkg: &str,
    entry: Option<&Entry>,
    journal: Option<&Journal>,
    read_head: bool,
) -> Result<(), RuntimeError> {
    let artefact = artefact_name(&l.tree, &f.path);
    let mut d = Draft::new("media", format!("Glide cached image {file} ({pkg})"));
    d.fact(FactType::Path, Some(&f.path), listing);
    d.fact(FactType::Identifier, Some(key), listing);
    d.fact(FactType::Count, Some(&f.size), listing);
    let (at, enc) = listed_modified(f);
    d.time(at, enc, "Glide cached image written", listing);
    let mut said: Vec<String> = Vec::new();
    if read_head && f.size != "0" {
        if let Some(head) = call_or_note(
            ctx,
            &artefact,
            "hexdump",
            args_on(&l.tree, json!({"path": f.path, "length": 16})),
        )? {
            match image_format(&hexdump_bytes(&head.output.text)) {
                Some((kind, marker)) => {
                    d.fact(FactType::Text, Some(&marker), &head);
                    said.push(format!("a {kind} image (marker {marker})"));
                }
                None => said.push(
                    "its head is no image format known here (Glide also caches source data)".into(),
                ),
            }
        }
    } else if f.size == "0" {
        said.push("the file is empty".into());
    }
    match (entry, journal) {
        (Some(e), Some(j)) => {
            for (line, c) in e.lines.iter().take(MAX_KEY_LINES) {
                d.fact(FactType::Text, Some(line), &j.chunks[*c]);
            }
            said.push(format!(
                "the journal has {} lines for its key (last {}{}{})",
                e.lines.len(),
                e.last_op,
                if e.reads > 0 {
                    format!(", read again {} times", e.reads)
                } else {
                    String::new()
                },
                if e.lines.len() > MAX_KEY_LINES {
                    format!(", the first {MAX_KEY_LINES} as facts")
                } else {
                    String::new()
                }
            ));
            if !tmp
                && let Some(n) = &e.clean_size
                && *n != f.size
            {
                ctx.unparsed(
                    &artefact,
                    &format!(
                        "Glide's cached image holds {} bytes, its journal's CLEAN line counts {n}: cut or rewritten",
                        f.size
                    ),
                    Some(&listing.record.invocation_id),
                )?;
                said.push(format!(
                    "it holds {} bytes where the journal's CLEAN line counts {n} (cut or rewritten)",
                    f.size
                ));
            }
        }
        (None, Some(_)) => said.push("the journal does not name its key".into()),
        _ => {}
    }
    d.interpretation = format!(
        "{}: an image Glide cached on disk for {pkg} ({} bytes{}), under the key {key} (a SHA-256 of what was loaded, not reversed); {}. The modified time is when Glide wrote it; the image is not decoded here.",
        f.path,
        f.size,
        if tmp { ", still being written" } else { "" },
        if said.is_empty() {
            "nothing more is known of it".to_string()
        } else {
            said.join("; ")
        }
    );
    record_draft(ctx, d)
}
