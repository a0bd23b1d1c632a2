//! The file-tree triage shared by the disk, archive and Android plugins (each runs the Android
//! parsers on the tree first, then [`contents`]): the inventory (one phenomenon
//! per tree, its table the `inventory` tool's pages), the deleted files, document metadata and
//! text, EXIF, and identifiers, amounts, IBANs and transaction hashes in text. Browser
//! databases the Android parsers look for wherever they sit (Chromium `History`, Firefox
//! `places.sqlite` and `formhistory.sqlite`) are left to them, so each is read once; this
//! triage reads what they do not (Chromium `Bookmarks`, wallet stores, Apple pairing records, a
//! computer's ADB key `~/.android/adbkey.pub`: [`crate::adb`]).

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::views::ExpectedArtefact;
use masf_graph::{EntityKind, FactClaim, FactType, IdType, TimeEncoding, TimeMark};
use masf_tools::Invoked;
use masf_tools::inventory::{CONTINUES, END, TOTAL_PREFIX};
use serde_json::json;

use crate::drafts::fact;
use crate::extract;
use crate::identity::{
    self, TreeRef, args_on, artefact_name, observe, observe_cued, record, trees,
};
use crate::outputs::unescape;

/// The category of a file by its name's extension (`documents`, `images`, `text`,
/// `databases`, `archives`), `None` for anything else.
pub fn file_category(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "docx" | "docm" | "xlsx" | "xlsm" | "pptx" | "pdf" | "doc" | "xls" | "ppt" | "odt"
        | "ods" | "odp" | "rtf" => "documents",
        "jpg" | "jpeg" | "tif" | "tiff" | "png" | "heic" | "gif" | "bmp" | "webp" => "images",
        "txt" | "csv" | "md" | "log" | "json" | "xml" | "html" | "htm" | "eml" | "vcf" => "text",
        "db" | "sqlite" | "sqlite3" | "sqlitedb" | "storedata" => "databases",
        "zip" | "rar" | "7z" | "tar" | "gz" | "tgz" => "archives",
        _ => return None,
    })
}

/// Most documents, photos and text files read for their content per tree; the others are
/// in the inventory's table only, and one "not read" note counts them.
pub const MAX_FILES: usize = 2000;

/// Most deleted files named, with their stored times, in a tree's deleted-files phenomenon
/// (all of them are in the inventory's table).
pub const MAX_DELETED: usize = 100;

/// Most inventory pages read per tree (at most 5,000 files each).
const MAX_PAGES: usize = 2000;

/// The expected-artefact catalogue of a file tree.
pub fn expected() -> Vec<ExpectedArtefact> {
    let e = |name: &str, detector: &[&str], value_for: &str| ExpectedArtefact {
        name: name.to_string(),
        detector: detector.iter().map(|d| d.to_string()).collect(),
        value_for: value_for.to_string(),
    };
    vec![
        e("file inventory", &["inventory"], "files, hashes, times"),
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
        e(
            "FSEvents logs (.fseventsd)",
            &["read_fsevents"],
            "every change fseventsd logged on a macOS volume: paths created, removed, renamed, modified, with event ids and node ids",
        ),
        e(
            "text files",
            &["read_text", "read_xml"],
            "identifiers in text",
        ),
        e(
            "browser history (Chromium History)",
            &["/History\""],
            "visits, downloads, searches of Chrome, Edge, Brave, Opera profiles",
        ),
        e(
            "browser history (Firefox places.sqlite)",
            &["/places.sqlite\""],
            "visits, bookmarks, downloads of Firefox, Tor Browser, LibreWolf profiles",
        ),
        e(
            "form history (Firefox formhistory.sqlite)",
            &["/formhistory.sqlite\""],
            "values typed into web forms, with use counts and times",
        ),
        e(
            "browser bookmarks (Chromium Bookmarks)",
            &["/Bookmarks\""],
            "bookmarks of Chrome, Edge, Brave, Opera profiles, with folders and times",
        ),
        e(
            "Apple devices the computer knows",
            &["/Lockdown/", "/MobileSync/Backup/"],
            "iPhones and iPads paired with it or backed up on it: UDID, IMEI, serial, number",
        ),
        e(
            "ADB key (adbkey.pub)",
            &["/.android/adbkey.pub\""],
            "the key this computer presents to Android devices for USB debugging, matched with the devices that trust it",
        ),
        e(
            "browser wallet extensions",
            &["leveldb_records"],
            "wallet accounts, address books, transactions",
        ),
    ]
}

/// One file of an entry listing (`find_files`, `list_dir`) or of an inventory page.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub size: String,
    pub deleted: bool,
    /// `(role, raw rendering)`.
    pub times: Vec<(String, String)>,
    /// The path (for tool arguments).
    pub path: String,
    /// The path as the output writes it (the value of a path fact).
    pub cell: String,
}

fn times_of(cell: &str) -> Vec<(String, String)> {
    if cell == "-" {
        Vec::new()
    } else {
        cell.split(',')
            .filter_map(|t| t.split_once('='))
            .map(|(r, v)| (r.to_string(), v.to_string()))
            .collect()
    }
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
        out.push(Entry {
            size: cols[1].to_string(),
            deleted: cols[4] == "deleted",
            times: times_of(cols[5]),
            path: cols[6].to_string(),
            cell: cols[6].to_string(),
        });
    }
    (out, truncated)
}

/// One page of an `inventory` table, read back from its logged text.
#[derive(Debug, Default)]
pub(crate) struct InventoryPage {
    /// `(files, deleted)` of the whole tree (the first page's count line).
    pub total: Option<(u64, u64)>,
    pub entries: Vec<Entry>,
    /// The page's last line without its `# ` (`N files listed; …`).
    pub closing: Option<String>,
    /// The file after which the next page starts; `None` on the last page.
    pub next: Option<String>,
}

/// Reads an `inventory` page (see `masf_tools::inventory`).
pub(crate) fn parse_inventory(text: &str) -> InventoryPage {
    let mut page = InventoryPage::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix(TOTAL_PREFIX) {
            // `/: 12 files, 1 deleted` (the path may itself hold ": ").
            let counts = rest.rsplit_once(": ").map(|(_, c)| c).unwrap_or_default();
            let mut n = counts
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .filter_map(|t| t.parse::<u64>().ok());
            if let (Some(files), Some(deleted)) = (n.next(), n.next()) {
                page.total = Some((files, deleted));
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("# ") {
            if let Some((_, after)) = rest.split_once(CONTINUES) {
                page.closing = Some(rest.to_string());
                page.next = Some(unescape(after));
            } else if rest.ends_with(END) {
                page.closing = Some(rest.to_string());
            }
            continue;
        }
        let cols: Vec<&str> = line.splitn(6, '\t').collect();
        if cols.len() != 6 || cols[0] == "size" {
            continue;
        }
        page.entries.push(Entry {
            size: cols[0].to_string(),
            deleted: cols[3] == "deleted",
            times: times_of(cols[4]),
            path: unescape(cols[5]),
            cell: cols[5].to_string(),
        });
    }
    page
}

/// The inventory, deleted files, documents, photos, text files and wallet stores of every tree
/// of the source (the Android parsers are run by each plugin before this).
pub fn contents(ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
    for tree in trees(ctx)? {
        one_tree(ctx, &tree)?;
    }
    Ok(())
}

/// A citation of `invoked` without its output (a page's text is not kept once read).
fn citation(invoked: &Invoked) -> Invoked {
    Invoked {
        record: invoked.record.clone(),
        output: masf_tools::ToolOutput::text(String::new()),
    }
}

/// What a content file is read for, by category and extension; `None` when it is not.
fn content_kind(e: &Entry) -> Option<&'static str> {
    // LevelDB files (`000003.log`, tables) are records, not text: the wallet reader reads the
    // stores it knows with `leveldb_records`; read as text they would log a store's secrets.
    let name = e.path.rsplit('/').next().unwrap_or(&e.path);
    if crate::wallets::store_of(&e.path).is_some()
        || masf_tools::leveldb_tool::is_numbered_log(name)
    {
        return None;
    }
    // Conceal's key files (an app's `shared_prefs/crypto.KEY_256.xml`, Playground AppLocker's
    // vault key among them) hold a key in the clear: never read as text
    if name.starts_with("crypto.KEY_")
        && name.ends_with(".xml")
        && e.path.contains("/shared_prefs/")
    {
        return None;
    }
    let ext = e
        .path
        .rsplit_once('.')
        .map(|(_, x)| x.to_ascii_lowercase())
        .unwrap_or_default();
    match file_category(&e.path)? {
        "documents"
            if matches!(
                ext.as_str(),
                "docx" | "docm" | "xlsx" | "xlsm" | "pptx" | "pdf" | "odt" | "ods" | "odp"
            ) =>
        {
            Some("documents")
        }
        "images" if matches!(ext.as_str(), "jpg" | "jpeg" | "tif" | "tiff") && !e.deleted => {
            Some("images")
        }
        "text" => Some("text"),
        _ => None,
    }
}

/// The inventory of one tree, page by page: one phenomenon whose facts cite every page (the
/// table of every file), then one for its deleted files, then the content files.
fn one_tree(ctx: &AgentCtx<'_>, tree: &TreeRef) -> Result<(), RuntimeError> {
    let what = format!("file tree {}", tree.label);
    let mut pages: Vec<(Invoked, String)> = Vec::new();
    let mut total: Option<(u64, u64, Invoked)> = None;
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut listed, mut deleted_listed) = (0usize, 0usize);
    let mut content: Vec<(Entry, usize)> = Vec::new();
    let mut content_total = 0usize;
    let mut deleted: Vec<(Entry, usize)> = Vec::new();
    // LevelDB stores of browser wallet extensions (and profiles' Local Storage)
    let mut wallet_stores = std::collections::BTreeSet::new();
    let mut preferences = std::collections::BTreeSet::new();
    // Chromium-family bookmark files, with the page that lists each
    let mut bookmarks: Vec<(String, usize)> = Vec::new();
    // the computer's own ADB public keys (one per user), with the page that lists each
    let mut adb_keys: Vec<(String, usize)> = Vec::new();
    // FSEvents folders (`.fseventsd` of a macOS volume), with the page listing their first log
    let mut fsevents: Vec<(String, usize)> = Vec::new();
    // Apple devices the computer knows (pairing records, backups), with the page of each
    let mut apple: Vec<(String, String, crate::lockdown::Kind, usize)> = Vec::new();
    let mut after: Option<String> = None;
    let mut complete = false;
    while pages.len() < MAX_PAGES {
        let mut args = json!({"path": "/"});
        if let Some(a) = &after {
            args["after"] = json!(a);
        }
        let Some(invoked) =
            crate::calls::call_or_note(ctx, &what, "inventory", args_on(tree, args))?
        else {
            break;
        };
        let page = parse_inventory(&invoked.output.text);
        let cited = citation(&invoked);
        if let Some((files, del)) = page.total {
            total = Some((files, del, cited.clone()));
        }
        for e in page.entries {
            *counts
                .entry(file_category(&e.path).unwrap_or("other"))
                .or_default() += 1;
            listed += 1;
            if !e.deleted
                && let Some(store) = crate::wallets::store_of(&e.path)
            {
                wallet_stores.insert(store);
            }
            if !e.deleted && e.path.ends_with("/Preferences") {
                preferences.insert(e.path.clone());
            }
            if !e.deleted && e.path.ends_with("/Bookmarks") && e.size != "0" {
                bookmarks.push((e.path.clone(), pages.len()));
            }
            if !e.deleted && crate::adb::is_host_key(&e.path) {
                adb_keys.push((e.path.clone(), pages.len()));
            }
            if !e.deleted
                && let Some((dir, _)) = e.path.rsplit_once('/')
                && crate::fsevents::is_folder(dir)
                && !fsevents.iter().any(|(d, _)| d == dir)
            {
                fsevents.push((dir.to_string(), pages.len()));
            }
            if !e.deleted
                && let Some((kind, udid)) = crate::lockdown::classify(&e.path)
            {
                apple.push((e.path.clone(), udid, kind, pages.len()));
            }
            if e.deleted {
                deleted_listed += 1;
                if deleted.len() < MAX_DELETED {
                    deleted.push((e.clone(), pages.len()));
                }
            }
            if content_kind(&e).is_some() {
                content_total += 1;
                if content.len() < MAX_FILES {
                    content.push((e, pages.len()));
                }
            }
        }
        let Some(closing) = page.closing else {
            ctx.unparsed(
                &what,
                "an inventory page has no closing line",
                Some(&invoked.record.invocation_id),
            )?;
            break;
        };
        pages.push((cited, closing));
        match page.next {
            Some(next) => after = Some(next),
            None => {
                complete = true;
                break;
            }
        }
    }
    let Some((first, _)) = pages.first() else {
        return Ok(());
    };
    if !complete && pages.len() == MAX_PAGES {
        ctx.unparsed(
            &what,
            &format!("the inventory stopped after {MAX_PAGES} pages ({listed} files)"),
            pages.last().map(|(p, _)| p.record.invocation_id.as_str()),
        )?;
    }
    let (files, deleted_count) = match &total {
        Some((f, d, _)) => (*f, *d),
        None => (listed as u64, deleted_listed as u64),
    };
    let summary = counts
        .iter()
        .map(|(c, n)| format!("{c} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut facts: Vec<FactClaim> = Vec::new();
    if let Some((f, d, page)) = &total {
        facts.push(fact(FactType::Count, format!("{f} files"), page));
        facts.push(fact(FactType::Count, format!("{d} deleted"), page));
    }
    for (page, closing) in &pages {
        facts.push(fact(FactType::Text, closing.as_str(), page));
    }
    let where_ = if tree.partition.is_some() {
        format!(" of {}", tree.label)
    } else {
        String::new()
    };
    record(
        ctx,
        PhenomenonDraft {
            category: "inventory".into(),
            title: format!("Inventory{where_}: {files} files ({summary}; deleted {deleted_count})"),
            facts,
            interpretation: format!(
                "The tree{where_} holds {files} files: {summary}; {deleted_count} of them deleted (still listed by the file system). The table of every file — size, SHA-256, id, deleted flag, stored times, path — is the output of the {} inventory call{} cited{}. {} of the {content_total} documents, photos and text files were read for their content below.",
                pages.len(),
                if pages.len() == 1 { "" } else { "s" },
                if complete {
                    String::new()
                } else {
                    format!(" (the table is incomplete: {listed} files listed)")
                },
                content.len(),
            ),
            times: vec![],
        },
    )?;
    if content_total > content.len() {
        ctx.unparsed(
            &format!("content of {what}"),
            &format!(
                "{} more documents, photos and text files than the {MAX_FILES} read per tree were not read for their content (they are in the inventory)",
                content_total - content.len()
            ),
            Some(&first.record.invocation_id),
        )?;
    }
    deleted_files(ctx, tree, &where_, &deleted, deleted_count, &pages)?;
    for (e, page) in &content {
        let listing = &pages[*page].0;
        match content_kind(e) {
            Some("documents") => document(ctx, tree, listing, e)?,
            Some("images") => photo(ctx, tree, listing, e)?,
            Some("text") => text_file(ctx, tree, listing, e)?,
            _ => {}
        }
    }
    for (path, page) in &bookmarks {
        let listing = &pages[*page].0;
        ctx.artefact(&crate::identity::artefact_name(tree, path), || {
            crate::browsers::chromium_bookmarks(ctx, tree, path, listing)
        })?;
    }
    for (path, page) in &adb_keys {
        let listing = &pages[*page].0;
        ctx.artefact(&crate::identity::artefact_name(tree, path), || {
            crate::adb::host(ctx, tree, path, listing)
        })?;
    }
    for (dir, page) in &fsevents {
        let listing = &pages[*page].0;
        let name = crate::identity::artefact_name(tree, dir);
        ctx.artefact(&name, || {
            crate::fsevents::folder(ctx, &name, dir, listing, &|a| args_on(tree, a))
        })?;
    }
    let apple: Vec<_> = apple
        .into_iter()
        .map(|(path, udid, kind, page)| (path, udid, kind, pages[page].0.clone()))
        .collect();
    crate::lockdown::triage(ctx, tree, &apple)?;
    crate::wallets::triage_stores(ctx, tree, &wallet_stores, &preferences)
}

/// One phenomenon naming a tree's deleted files (the first [`MAX_DELETED`]) with their stored
/// times, each cited to the inventory page that lists it, so deletions reach the timeline.
fn deleted_files(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    where_: &str,
    deleted: &[(Entry, usize)],
    count: u64,
    pages: &[(Invoked, String)],
) -> Result<(), RuntimeError> {
    if deleted.is_empty() {
        return Ok(());
    }
    let mut facts = Vec::new();
    let mut times = Vec::new();
    let mut said = Vec::new();
    for (e, page) in deleted {
        let page = &pages[*page].0;
        facts.push(fact(FactType::Path, &e.cell, page));
        for (role, raw) in &e.times {
            if let Some((encoding, description)) = crate::outputs::time_mark(role, raw) {
                times.push(TimeMark {
                    fact: facts.len(),
                    encoding,
                    description: description.to_string(),
                });
                facts.push(fact(FactType::Timestamp, raw, page));
            }
        }
        said.push(format!(
            "{} ({} bytes{})",
            artefact_name(tree, &e.path),
            e.size,
            if e.times.is_empty() {
                String::new()
            } else {
                format!(
                    "; {}",
                    e.times
                        .iter()
                        .map(|(r, v)| format!("{r} {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ));
    }
    record(
        ctx,
        PhenomenonDraft {
            category: "files".into(),
            title: format!("Deleted files{where_}: {count}"),
            facts,
            interpretation: format!(
                "{count} deleted file{} whose directory entries survive{}: {}.",
                if count == 1 { "" } else { "s" },
                if count as usize > deleted.len() {
                    format!(
                        " (the first {} named here, all in the inventory)",
                        deleted.len()
                    )
                } else {
                    String::new()
                },
                said.join("; ")
            ),
            times,
        },
    )?;
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
    let Some((meta, fields)) = metadata_of(ctx, tree, &name, e)? else {
        return Ok(());
    };
    let get = |k: &str| fields.get(k).map(String::as_str).filter(|v| !v.is_empty());
    let mut facts = vec![fact(FactType::Path, &e.cell, listing)];
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
    // The document's author (its creator, not whoever saved it last) is its writer.
    let writer = authors
        .iter()
        .find(|(_, what)| matches!(*what, "creator" | "author"))
        .map(|(a, _)| a.clone());
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
    let Some(text) = crate::calls::call_or_note(
        ctx,
        &name,
        "doc_text",
        args_on(tree, json!({"path": e.path})),
    )?
    else {
        return Ok(());
    };
    identifiers_in(ctx, &e.cell, &name, &text, Some(listing), writer.as_deref())
}

/// `doc_metadata`'s `key: value` fields.
type Fields = BTreeMap<String, String>;

/// `doc_metadata` of a file (documents and photos alike): the logged call and its fields;
/// none when the call failed (noted as not read).
fn metadata_of(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    name: &str,
    e: &Entry,
) -> Result<Option<(Invoked, Fields)>, RuntimeError> {
    let meta = crate::calls::call_or_note(
        ctx,
        name,
        "doc_metadata",
        args_on(tree, json!({"path": e.path})),
    )?;
    Ok(meta.map(|m| {
        let fields = fields(&m.output.text);
        (m, fields)
    }))
}

/// `key: value` lines of `doc_metadata`.
fn fields(text: &str) -> Fields {
    text.lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Records and observes the phones, e-mails and wallets a text output mentions, then records its
/// amounts, IBANs and transaction hashes ([`money_in`]): phones and
/// e-mails as `document:<path>`, wallets as `wallet:<address>`, and the control claims the
/// words around an address make (issue 16):
///
/// - a party named right before it ("Payee: LEUNG YL", "to CHAN MH, TRC20 address …",
///   `identity::named_party`) claims it as `named:<name>`;
/// - else words of possession or receipt ("me: …", "USDT receive: …", `identity::own_cue`)
///   make it the claim of the document's own subject — the `document:<path>` mention, which
///   resolution gives to the one actor its phones and e-mails are — and of its `author`;
/// - else a bare address (no cue word at all) is a light claim of the `author`, the writer;
///   a request ("send to …") or a report ("sent to …") in a document says nothing of whose.
pub fn identifiers_in(
    ctx: &AgentCtx<'_>,
    path: &str,
    name: &str,
    text: &Invoked,
    listing: Option<&Invoked>,
    author: Option<&str>,
) -> Result<(), RuntimeError> {
    // One scan of the text serves both phenomena.
    let found = extract::identifiers(&text.output.text, ctx.phone_region().as_ref());
    mentions(ctx, path, name, text, &found, listing, author)?;
    money_in(ctx, path, name, text, &found, listing)
}

/// The identifiers part of [`identifiers_in`]: one "Identifiers in <path>" phenomenon and the
/// observations.
fn mentions(
    ctx: &AgentCtx<'_>,
    path: &str,
    name: &str,
    text: &Invoked,
    found: &[extract::Found],
    listing: Option<&Invoked>,
    author: Option<&str>,
) -> Result<(), RuntimeError> {
    if found.is_empty() {
        return Ok(());
    }
    let mut facts: Vec<FactClaim> = listing
        .map(|l| fact(FactType::Path, path, l))
        .into_iter()
        .collect();
    for f in found {
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
    for f in found {
        match f.id_type {
            IdType::Wallet => {
                observe(
                    ctx,
                    &format!("wallet:{}", f.normalized),
                    EntityKind::Wallet,
                    &f.normalized,
                    IdType::Wallet,
                    &f.raw,
                    text,
                    "A wallet address written in a document or text file.".to_string(),
                )?;
                wallet_claims(ctx, &f.raw, text, &context, &label, author)?
            }
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

/// The amounts with a currency, valid IBANs and transaction hashes a text output mentions
/// ([`extract::money`]): one "Amounts and accounts in <path>" phenomenon beside the
/// identifiers, every value cited as written (amounts as [`FactType::Amount`], IBANs as
/// [`FactType::Account`], hashes as [`FactType::Hash`]); nothing when the text holds none.
fn money_in(
    ctx: &AgentCtx<'_>,
    path: &str,
    name: &str,
    text: &Invoked,
    identifiers: &[extract::Found],
    listing: Option<&Invoked>,
) -> Result<(), RuntimeError> {
    let found = extract::money_beside(&text.output.text, identifiers);
    if found.is_empty() {
        return Ok(());
    }
    let mut facts: Vec<FactClaim> = listing
        .map(|l| fact(FactType::Path, path, l))
        .into_iter()
        .collect();
    let of = |kind: extract::MoneyKind| found.iter().filter(move |m| m.kind == kind);
    let mut said = Vec::new();
    let mut counts = Vec::new();
    for (kind, t, one, many) in [
        (
            extract::MoneyKind::Amount,
            FactType::Amount,
            "amount",
            "amounts",
        ),
        (extract::MoneyKind::Iban, FactType::Account, "IBAN", "IBANs"),
        (
            extract::MoneyKind::TxHash,
            FactType::Hash,
            "transaction hash",
            "transaction hashes",
        ),
    ] {
        let n = of(kind).count();
        if n == 0 {
            continue;
        }
        let what = if n == 1 { one } else { many };
        counts.push(format!("{n} {what}"));
        let listed: Vec<String> = of(kind)
            .map(|m| {
                if kind == extract::MoneyKind::Iban && m.normalized != m.raw {
                    format!("{} (written \"{}\")", m.normalized, m.raw)
                } else {
                    m.raw.clone()
                }
            })
            .collect();
        said.push(format!("{what} {}", listed.join(", ")));
        for m in of(kind) {
            if !facts.iter().any(|c: &FactClaim| c.value == m.raw) {
                facts.push(fact(t, &m.raw, text));
            }
        }
    }
    record(
        ctx,
        PhenomenonDraft {
            category: "documents".into(),
            title: format!("Amounts and accounts in {path}: {}", counts.join(", ")),
            facts,
            interpretation: format!(
                "The text of {name} mentions {}. Amounts are quoted as written with their \
                 currency (rates left out); IBANs passed the ISO 13616 check digits and their \
                 country's length and are given in electronic form.",
                said.join("; ")
            ),
            times: vec![],
        },
    )?;
    Ok(())
}

/// The control claims on the wallet address `raw` written in the text of `text` (see
/// [`identifiers_in`]); `mention` and `mention_label` are the document's mention entity.
fn wallet_claims(
    ctx: &AgentCtx<'_>,
    raw: &str,
    text: &Invoked,
    mention: &str,
    mention_label: &str,
    author: Option<&str>,
) -> Result<bool, RuntimeError> {
    let body = &text.output.text;
    let before = body.find(raw).map_or("", |i| &body[..i]);
    // Not the path: an interpretation may name only paths its cited output holds.
    let what = "the text of this document";
    let mut observe_here =
        |context: &str, kind, label: &str, id_type, value: &str, why: String, cue: Option<&str>| {
            observe_cued(ctx, context, kind, label, id_type, value, text, why, cue)
        };
    if let Some((party, role)) = identity::named_party(before) {
        identity::observe_named(&party, &role, raw, what, &mut observe_here)?;
        return Ok(true);
    }
    // The claim of the document's author (none when its metadata names none), with the cue
    // word that made it, or bare.
    let observe_author =
        |observe: &mut identity::ObserveFn<'_>, cue: Option<&str>| -> Result<bool, RuntimeError> {
            let Some(a) = author else {
                return Ok(false);
            };
            let why = match cue {
                Some(cue) => format!(
                    "The wallet address {raw} is written in {what} after \"{cue}\"; the \
                     document's author {a} wrote it as theirs: a claim given to the one \
                     person known by that name."
                ),
                None => format!(
                    "The wallet address {raw} is written in {what}, authored by {a}, with \
                     nothing before it that says whose it is: a light claim that the author \
                     controls it, given to the one person known by that name."
                ),
            };
            observe(
                &format!("author:{a}"),
                EntityKind::Person,
                a,
                IdType::Wallet,
                raw,
                why,
                cue,
            )?;
            Ok(true)
        };
    if let Some(cue) = identity::own_cue(before) {
        observe_here(
            mention,
            EntityKind::Person,
            mention_label,
            IdType::Wallet,
            raw,
            format!(
                "The wallet address {raw} is written in {what} after \"{cue}\", a word that \
                 says it is the address of whom the document is about: a claim of the one \
                 person its phones and e-mails are, weighed against any other claim on it."
            ),
            Some(&cue),
        )?;
        observe_author(&mut observe_here, Some(&cue))?;
        return Ok(true);
    }
    if identity::holder_from_text(before).1.is_none() {
        // A bare address: a light claim of the author, when the document names one.
        return observe_author(&mut observe_here, None);
    }
    Ok(false)
}

/// Whether `e` is an Android app's shared-preferences file (`…/shared_prefs/<name>.xml`, not
/// deleted, at most 1 MiB: the window `read_text` would read).
fn is_preferences_xml(e: &Entry) -> bool {
    e.path.contains("/shared_prefs/")
        && e.path.to_ascii_lowercase().ends_with(".xml")
        && !e.deleted
        && e.size.parse::<u64>().is_ok_and(|n| n <= 1 << 20)
}

/// A text file: the identifiers it mentions (first MiB; a shared-preferences file whole, its
/// secrets redacted).
fn text_file(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    listing: &Invoked,
    e: &Entry,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, &e.path);
    // An app's shared preferences keep its passwords, tokens and keys in the clear: they are
    // read with `read_xml`, which prints them as stored but for those secrets (redacted by
    // name, counted) and decodes the binary XML of Android 12+; every other text as stored.
    let (tool, args) = if is_preferences_xml(e) {
        ("read_xml", json!({"path": e.path}))
    } else {
        ("read_text", json!({"path": e.path, "length": 1 << 20}))
    };
    let Some(text) = crate::calls::call_or_note(ctx, &name, tool, args_on(tree, args))? else {
        return Ok(());
    };
    crate::calls::note_unread_rest(ctx, &name, &text, "searched for identifiers")?;
    identifiers_in(ctx, &e.cell, &name, &text, Some(listing), None)
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
    let Some((meta, fields)) = metadata_of(ctx, tree, &name, e)? else {
        return Ok(());
    };
    let get = |k: &str| {
        fields
            .get(k)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    };
    let mut facts = vec![fact(FactType::Path, &e.cell, listing)];
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
