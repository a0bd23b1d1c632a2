//! The file-tree triage shared by the disk and archive plugins: inventory, notable files with
//! hashes and times, document metadata and text, EXIF, and identifiers in text.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::views::ExpectedArtefact;
use masf_graph::{EntityKind, FactClaim, FactType, IdType, TimeEncoding, TimeMark};
use masf_tools::Invoked;
use serde_json::json;

use super::file_category;
use crate::extract;
use crate::identity::{TreeRef, args_on, artefact_name, observe, record, trees};
use crate::util::{fact, failure_reason, succeeded};

/// Most notable files worked one by one per tree; the rest are only counted.
pub const MAX_FILES: usize = 2000;

/// Most entries one inventory lists.
const INVENTORY_LIMIT: u64 = 100_000;

/// The expected-artefact catalogue of a file tree.
pub fn expected() -> Vec<ExpectedArtefact> {
    let e = |name: &str, detector: &[&str], value_for: &str| ExpectedArtefact {
        name: name.to_string(),
        detector: detector.iter().map(|d| d.to_string()).collect(),
        value_for: value_for.to_string(),
    };
    vec![
        e("file inventory", &["find_files"], "files, hashes, times"),
        e(
            "Office and PDF documents",
            &["doc_metadata", "doc_text"],
            "authors, times, identifiers in text",
        ),
        e(
            "photos (EXIF)",
            &["doc_metadata"],
            "camera, GPS, time taken",
        ),
        e("text files", &["read_text"], "identifiers in text"),
    ]
}

/// One entry of a `find_files` listing.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub size: String,
    pub deleted: bool,
    /// `(role, raw rendering)`.
    pub times: Vec<(String, String)>,
    pub path: String,
}

/// The file entries of a `find_files` / `list_dir` output, and whether it was truncated.
pub(crate) fn parse_listing(text: &str) -> (Vec<Entry>, bool) {
    let mut out = Vec::new();
    let mut truncated = false;
    for line in text.lines().skip(1) {
        if line.starts_with("# truncated") {
            truncated = true;
        }
        if line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.splitn(7, '\t').collect();
        if cols.len() != 7 || cols[0] != "file" {
            continue;
        }
        let times = if cols[5] == "-" {
            Vec::new()
        } else {
            cols[5]
                .split(',')
                .filter_map(|t| t.split_once('='))
                .map(|(r, v)| (r.to_string(), v.to_string()))
                .collect()
        };
        out.push(Entry {
            size: cols[1].to_string(),
            deleted: cols[4] == "deleted",
            times,
            path: cols[6].to_string(),
        });
    }
    (out, truncated)
}

/// The encoding and plaso-style description of a stored file time as the tools render it.
pub(crate) fn time_mark(role: &str, raw: &str) -> Option<(TimeEncoding, &'static str)> {
    let encoding = if raw.ends_with("(local)") {
        TimeEncoding::FatLocal
    } else if raw.ends_with('Z') {
        TimeEncoding::Iso8601
    } else {
        return None;
    };
    let description = match role {
        "modified" => "Content Modification Time",
        "accessed" => "Last Access Time",
        "changed" => "Metadata Modification Time",
        "created" => "Creation Time",
        "deleted" => "Deletion Time",
        _ => return None,
    };
    Some((encoding, description))
}

/// Works every readable file tree of the task's source: the Android artefacts found in it, then
/// the inventory and the notable files.
pub fn triage_tree(ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
    // Android databases and property files anywhere in the tree (a phone's /data copied to a
    // stick, zipped, or handed over as a folder) are read by the Android plugin's parsers;
    // it first decides and records the source's phone region (the SIMs it finds, else the
    // examiner's).
    crate::android::artefacts(ctx, false)?;
    for tree in trees(ctx)? {
        one_tree(ctx, &tree)?;
    }
    Ok(())
}

fn one_tree(ctx: &AgentCtx<'_>, tree: &TreeRef) -> Result<(), RuntimeError> {
    let Some(listing) = crate::util::call_or_note(
        ctx,
        &format!("file tree {}", tree.label),
        "find_files",
        args_on(tree, json!({"limit": INVENTORY_LIMIT})),
    )?
    else {
        return Ok(());
    };
    let (entries, truncated) = parse_listing(&listing.output.text);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &entries {
        *counts
            .entry(file_category(&e.path).unwrap_or("other"))
            .or_default() += 1;
    }
    let deleted = entries.iter().filter(|e| e.deleted).count();
    let notable: Vec<&Entry> = entries
        .iter()
        .filter(|e| file_category(&e.path).is_some())
        .collect();
    let summary = counts
        .iter()
        .map(|(c, n)| format!("{c} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut facts: Vec<FactClaim> = notable
        .iter()
        .take(MAX_FILES)
        .map(|e| fact(FactType::Path, &e.path, &listing))
        .collect();
    facts.dedup_by(|a, b| a.value == b.value);
    let where_ = if tree.partition.is_some() {
        format!(" of {}", tree.label)
    } else {
        String::new()
    };
    record(
        ctx,
        PhenomenonDraft {
            category: "inventory".into(),
            title: format!(
                "Inventory{where_}: {} files ({summary}; deleted {deleted})",
                entries.len()
            ),
            facts,
            interpretation: format!(
                "The tree{where_} holds {} files{}: {summary}; {deleted} of them deleted (still listed by the file system). {} notable files (documents, images, text, databases, archives) are listed as facts{} and examined one by one below.",
                entries.len(),
                if truncated {
                    format!(" (the listing stops at {INVENTORY_LIMIT} entries)")
                } else {
                    String::new()
                },
                notable.len(),
                if notable.len() > MAX_FILES {
                    format!(" (the first {MAX_FILES})")
                } else {
                    String::new()
                },
            ),
            times: vec![],
        },
    )?;
    for e in notable.iter().take(MAX_FILES) {
        file(ctx, tree, &listing, e)?;
    }
    Ok(())
}

/// One notable file: its hash and times, then its content by category.
fn file(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    listing: &Invoked,
    e: &Entry,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, &e.path);
    let mut facts = vec![fact(FactType::Path, &e.path, listing)];
    let mut times = Vec::new();
    let mut sha = None;
    if !e.deleted {
        let h = ctx.call("hash_file", args_on(tree, json!({"path": e.path})))?;
        if succeeded(&h) {
            if let Some(v) = h
                .output
                .text
                .lines()
                .find_map(|l| l.strip_prefix("sha256: "))
            {
                facts.push(fact(FactType::Hash, v, &h));
                sha = Some(v.to_string());
            }
        } else {
            ctx.unparsed(&name, &failure_reason(&h), Some(&h.record.invocation_id))?;
            return Ok(());
        }
    }
    for (role, raw) in &e.times {
        if let Some((encoding, description)) = time_mark(role, raw) {
            times.push(TimeMark {
                fact: facts.len(),
                encoding,
                description: description.to_string(),
            });
            facts.push(fact(FactType::Timestamp, raw, listing));
        }
    }
    let category = file_category(&e.path).unwrap_or("other");
    record(
        ctx,
        PhenomenonDraft {
            category: "files".into(),
            title: format!(
                "{} {}",
                if e.deleted { "Deleted file" } else { "File" },
                e.path
            ),
            facts,
            interpretation: format!(
                "{name} ({category}, {} bytes{}){}; stored times: {}.",
                e.size,
                if e.deleted {
                    ", deleted: its directory entry survives"
                } else {
                    ""
                },
                sha.map(|s| format!(", SHA-256 {s}")).unwrap_or_default(),
                if e.times.is_empty() {
                    "none".to_string()
                } else {
                    e.times
                        .iter()
                        .map(|(r, v)| format!("{r} {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
            times,
        },
    )?;
    let ext = e
        .path
        .rsplit_once('.')
        .map(|(_, x)| x.to_ascii_lowercase())
        .unwrap_or_default();
    match category {
        "documents"
            if matches!(
                ext.as_str(),
                "docx" | "docm" | "xlsx" | "xlsm" | "pptx" | "pdf" | "odt" | "ods" | "odp"
            ) =>
        {
            document(ctx, tree, listing, e)?;
        }
        "images" if matches!(ext.as_str(), "jpg" | "jpeg" | "tif" | "tiff") && !e.deleted => {
            photo(ctx, tree, listing, e)?;
        }
        "text" => text_file(ctx, tree, listing, e)?,
        _ => {}
    }
    Ok(())
}

/// An Office or PDF document: metadata (authors observed as `author:<name>`), then the
/// identifiers its text mentions.
fn document(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    listing: &Invoked,
    e: &Entry,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, &e.path);
    let Some(meta) = crate::util::call_or_note(
        ctx,
        &name,
        "doc_metadata",
        args_on(tree, json!({"path": e.path})),
    )?
    else {
        return Ok(());
    };
    let fields = fields(&meta.output.text);
    let get = |k: &str| fields.get(k).map(String::as_str).filter(|v| !v.is_empty());
    let mut facts = vec![fact(FactType::Path, &e.path, listing)];
    let mut times = Vec::new();
    let mut said = Vec::new();
    let mut authors = Vec::new();
    for (key, what, t) in [
        ("dc:title", "title", FactType::Text),
        ("dc:creator", "creator", FactType::Name),
        ("cp:lastModifiedBy", "last modified by", FactType::Name),
        ("app:Application", "application", FactType::Text),
        ("app:Company", "company", FactType::Text),
        ("pdf:Title", "title", FactType::Text),
        ("pdf:Author", "author", FactType::Name),
        ("pdf:Creator", "creator tool", FactType::Text),
        ("pdf:Producer", "producer", FactType::Text),
    ] {
        if let Some(v) = get(key) {
            facts.push(fact(t, v, &meta));
            said.push(format!("{what} {v}"));
            if t == FactType::Name {
                authors.push((v.to_string(), what));
            }
        }
    }
    for (key, what, desc, encoding) in [
        (
            "dcterms:created",
            "created",
            "Creation Time",
            Some(TimeEncoding::Iso8601),
        ),
        (
            "dcterms:modified",
            "modified",
            "Content Modification Time",
            Some(TimeEncoding::Iso8601),
        ),
        (
            "cp:lastPrinted",
            "last printed",
            "Last Printed Time",
            Some(TimeEncoding::Iso8601),
        ),
        // PDF dates (`D:20250216103000+08'00'`) have no TimeEncoding yet: kept as facts.
        ("pdf:CreationDate", "created", "Creation Time", None),
        ("pdf:ModDate", "modified", "Content Modification Time", None),
    ] {
        if let Some(v) = get(key) {
            if let Some(encoding) = encoding {
                times.push(TimeMark {
                    fact: facts.len(),
                    encoding,
                    description: desc.to_string(),
                });
            }
            facts.push(fact(FactType::Timestamp, v, &meta));
            said.push(format!("{what} {v}"));
        }
    }
    let format = fields
        .get("format")
        .map(String::as_str)
        .unwrap_or("document");
    if facts.len() > 1 {
        record(
            ctx,
            PhenomenonDraft {
                category: "documents".into(),
                title: format!("Document metadata of {}", e.path),
                facts,
                interpretation: format!("{name} ({format}): {}.", said.join(", ")),
                times,
            },
        )?;
    }
    for (author, what) in authors {
        observe(
            ctx,
            &format!("author:{author}"),
            EntityKind::Person,
            &author,
            IdType::DisplayName,
            &author,
            &meta,
            format!("The {what} named in a document's metadata."),
        )?;
    }
    let Some(text) = crate::util::call_or_note(
        ctx,
        &name,
        "doc_text",
        args_on(tree, json!({"path": e.path})),
    )?
    else {
        return Ok(());
    };
    identifiers_in(ctx, &e.path, &name, &text, Some(listing))
}

/// `key: value` lines of `doc_metadata`.
fn fields(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Records and observes the phones, e-mails and wallets a text output mentions: phones and
/// e-mails as `document:<path>`, wallets as `wallet:<address>`.
pub fn identifiers_in(
    ctx: &AgentCtx<'_>,
    path: &str,
    name: &str,
    text: &Invoked,
    listing: Option<&Invoked>,
) -> Result<(), RuntimeError> {
    let found = extract::identifiers(&text.output.text, ctx.phone_region().as_ref());
    if found.is_empty() {
        return Ok(());
    }
    let mut facts: Vec<FactClaim> = listing
        .map(|l| fact(FactType::Path, path, l))
        .into_iter()
        .collect();
    for f in &found {
        let t = match f.id_type {
            IdType::Phone => FactType::Phone,
            IdType::Email => FactType::Email,
            _ => FactType::Wallet,
        };
        if !facts.iter().any(|c: &FactClaim| c.value == f.raw) {
            facts.push(fact(t, &f.raw, text));
        }
    }
    let list = |t: IdType| {
        let v: Vec<&str> = found
            .iter()
            .filter(|f| f.id_type == t)
            .map(|f| f.normalized.as_str())
            .collect();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    record(
        ctx,
        PhenomenonDraft {
            category: "documents".into(),
            title: format!("Identifiers in {path}"),
            facts,
            interpretation: format!(
                "The text of {name} mentions phones {}, e-mails {}, wallets {}.",
                list(IdType::Phone),
                list(IdType::Email),
                list(IdType::Wallet)
            ),
            times: vec![],
        },
    )?;
    let context = format!("document:{path}");
    let label = format!("mentioned in {path}");
    for f in &found {
        match f.id_type {
            IdType::Wallet => observe(
                ctx,
                &format!("wallet:{}", f.normalized),
                EntityKind::Wallet,
                &f.normalized,
                IdType::Wallet,
                &f.raw,
                text,
                "A wallet address written in a document or text file.".to_string(),
            )?,
            t => observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                t,
                &f.raw,
                text,
                "An identifier that the text of a document or text file mentions.".to_string(),
            )?,
        };
    }
    Ok(())
}

/// A text file: the identifiers it mentions (first MiB).
fn text_file(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    listing: &Invoked,
    e: &Entry,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, &e.path);
    let Some(text) = crate::util::call_or_note(
        ctx,
        &name,
        "read_text",
        args_on(tree, json!({"path": e.path, "length": 1 << 20})),
    )?
    else {
        return Ok(());
    };
    crate::util::note_unread_rest(ctx, &name, &text, "searched for identifiers")?;
    identifiers_in(ctx, &e.path, &name, &text, Some(listing))
}

/// A JPEG/TIFF: camera, serial, original time (naive local text) and GPS from EXIF; the
/// camera's serial observed as `camera:<serial>`.
fn photo(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    listing: &Invoked,
    e: &Entry,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, &e.path);
    let Some(meta) = crate::util::call_or_note(
        ctx,
        &name,
        "doc_metadata",
        args_on(tree, json!({"path": e.path})),
    )?
    else {
        return Ok(());
    };
    let fields = fields(&meta.output.text);
    let get = |k: &str| {
        fields
            .get(k)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    };
    let mut facts = vec![fact(FactType::Path, &e.path, listing)];
    let mut times = Vec::new();
    let mut said = Vec::new();
    for (key, what, t) in [
        ("exif:Make", "make", FactType::Text),
        ("exif:Model", "model", FactType::Text),
        ("exif:BodySerialNumber", "serial", FactType::Serial),
        ("exif:CameraOwnerName", "owner", FactType::Name),
        ("exif:Artist", "artist", FactType::Name),
        ("exif:Software", "software", FactType::Text),
        ("exif:GPSLatitudeRef", "latitude ref", FactType::Text),
        ("exif:GPSLatitude", "latitude", FactType::Text),
        ("exif:GPSLongitudeRef", "longitude ref", FactType::Text),
        ("exif:GPSLongitude", "longitude", FactType::Text),
    ] {
        if let Some(v) = get(key) {
            facts.push(fact(t, v, &meta));
            said.push(format!("{what} {v}"));
        }
    }
    for (key, what, desc) in [
        ("exif:DateTimeOriginal", "taken", "Original Time"),
        ("exif:DateTimeDigitized", "digitized", "Digitized Time"),
        ("exif:DateTime", "modified", "Content Modification Time"),
    ] {
        if let Some(v) = get(key) {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::LocalText,
                description: desc.to_string(),
            });
            facts.push(fact(FactType::Timestamp, v, &meta));
            said.push(format!("{what} {v} (local)"));
        }
    }
    if facts.len() == 1 {
        return Ok(());
    }
    record(
        ctx,
        PhenomenonDraft {
            category: "images".into(),
            title: format!("EXIF of {}", e.path),
            facts,
            interpretation: format!("{name}: {}.", said.join(", ")),
            times,
        },
    )?;
    if let Some(serial) = get("exif:BodySerialNumber") {
        // "Canon EOS 200D", not "Canon Canon EOS 200D".
        let camera = match (get("exif:Make"), get("exif:Model")) {
            (Some(make), Some(model)) if model.starts_with(make) => model.to_string(),
            (Some(make), Some(model)) => format!("{make} {model}"),
            (a, b) => a.or(b).unwrap_or_default().to_string(),
        };
        observe(
            ctx,
            &format!("camera:{serial}"),
            EntityKind::Device,
            if camera.is_empty() { "camera" } else { &camera },
            IdType::Serial,
            serial,
            &meta,
            "The serial number of the camera that took a photo.".to_string(),
        )?;
    }
    Ok(())
}
