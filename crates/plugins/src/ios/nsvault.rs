//! NS Vault, sold as "Calculator #" and built on NewSoftwares' Folder Lock
//! (`net.newsoftwares.NSVault`): a vault app that hides photos and videos behind a calculator.
//! iLEAPP's `nsVault` (`calculatorVault`, "Calculator Vault Application") reads its Core Data
//! store `Containers/Data/Application/<id>/Library/FolderLockAdvanced.sqlite` and links each
//! video to its file under the container's `Documents/FolderLockAdvanced/`.
//!
//! | table / folder | phenomenon | fields |
//! |---|---|---|
//! | `ZVIDEOALBUM` | one `files` per album ("NS Vault video album <title>") | album id, title, its folder (`ZALBUM_PATH`, relative to the container), how many `ZVIDEO` rows name it (counted in the query), whether a password or PIN is stored for it (`stored`, never the value) |
//! | `ZVIDEO` (with its album, one per `ZALBUMID`) | one `files` per video ("Hidden in NS Vault: <name>") | name, video id, album id, title and folder, storage path, thumbnail path, duration and size (as written), modified (`ZMODIFIED_DATE`, Cocoa seconds); the hidden file itself where the media folder's listing holds it (the storage path, else the album's folder and the name, joined in the query) |
//! | `Documents/FolderLockAdvanced/` (`find_files`) | one `files` per file no video row names ("NS Vault hidden file <path below the folder>") | path, size, modified time as the listing gives it |
//!
//! A row is a file the user moved into the vault (or a thumbnail the app made of it); the name
//! is the one it had when hidden, and `ZMODIFIED_DATE` is the row's last change (iLEAPP's
//! "Modified Date"), not when the video was taken. A row whose file the listing lacks says the
//! vault held it once; the file may have been deleted from the vault or not extracted. The
//! folder also holds the photos, audio and documents whose tables iLEAPP does not read: they
//! are recorded from the listing only, by path, size and time, and their content is not
//! decoded. Columns are taken by name (absent ones NULL: older stores have no `ZALBUM_PATH`,
//! storage paths or size, and then no file can be linked); a store without `ZVIDEO.ZVIDEONAME`
//! reads its albums only; one with neither table is noted, as is one that is no database.
//!
//! Secrets: an album column whose name holds `pass` or `pin` (a lock the app may keep) is
//! reported only as `stored`; the vault's own passcode and decoy PIN are never selected.
//! Identities: none (the store names no account).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::json;

use super::{Draft, ENTRY_CAP, Run, Schema, file_name};
use crate::calls::{column_expr, columns_marked, select_columns, stored_flag};
use crate::drafts::apple_seconds;
use crate::outputs::{ListedFile, listed_files, raw};

/// The store's file name.
pub const NAME: &str = "FolderLockAdvanced.sqlite";
/// The media folder's name (below the container's `Documents`).
pub const FOLDER: &str = "FolderLockAdvanced";
const VIDEO: &str = "ZVIDEO";
const ALBUM: &str = "ZVIDEOALBUM";

/// Triage of every NS Vault store and media folder of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    // the media folders the one search found, by the container holding them
    let mut folders: BTreeMap<String, String> = BTreeMap::new();
    if let Some((_, dirs)) = run.find_dirs(FOLDER)? {
        for d in dirs {
            if let Some(c) = d.strip_suffix(&format!("/Documents/{FOLDER}")) {
                folders.insert(c.to_string(), d.clone());
            }
        }
    }
    let mut done: BTreeSet<String> = BTreeSet::new();
    run.each(NAME, |find, path| {
        let container = path.strip_suffix(&format!("/Library/{NAME}"));
        let listing = match container.and_then(|c| folders.get(c)) {
            Some(dir) => {
                done.insert(dir.clone());
                list(run, dir)?
            }
            None => None,
        };
        let linked = store(run, find, path, container, listing.as_ref())?;
        if let (Some(dir), Some(l)) = (container.and_then(|c| folders.get(c)), &listing) {
            loose(run, dir, l, &linked)?;
        }
        Ok(())
    })?;
    // a media folder whose store was not extracted: its files, from the listing alone
    for dir in folders.values().filter(|d| !done.contains(*d)) {
        if let Some(l) = list(run, dir)? {
            loose(run, dir, &l, &BTreeSet::new())?;
        }
    }
    Ok(())
}

/// The listing of a media folder (every file below it), noted when the call fails.
fn list(run: &Run<'_, '_>, dir: &str) -> Result<Option<Invoked>, RuntimeError> {
    crate::calls::call_or_note(
        run.ctx,
        dir,
        "find_files",
        json!({"path": dir, "limit": ENTRY_CAP + 1}),
    )
}

/// Reads one store; returns the listed files its video rows named.
fn store(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    container: Option<&str>,
    listing: Option<&Invoked>,
) -> Result<BTreeSet<String>, RuntimeError> {
    let mut linked = BTreeSet::new();
    let Some(schema) = run.schema(path, &[VIDEO, ALBUM])? else {
        return Ok(linked);
    };
    let (v, a) = (schema.columns(VIDEO), schema.columns(ALBUM));
    if v.is_empty() && a.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse NS Vault's hidden videos because the database has none of the tables ZVIDEO, ZVIDEOALBUM (another app's store of the same name?)",
            None,
        )?;
        return Ok(linked);
    }
    if a.contains("Z_PK") {
        albums(run, find, path, &schema)?;
    }
    if !v.is_empty() && schema.require(run, VIDEO, &["Z_PK", "ZVIDEONAME"])? {
        let files: BTreeMap<String, ListedFile> = listing
            .map(|l| listed_files(&l.output.text))
            .unwrap_or_default()
            .into_iter()
            .map(|f| (f.path.clone(), f))
            .collect();
        videos(
            run,
            find,
            path,
            &schema,
            (container, listing, &files),
            &mut linked,
        )?;
    }
    Ok(linked)
}

fn albums(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let a = schema.columns(ALBUM);
    let v = schema.columns(VIDEO);
    let count = if a.contains("ZALBUMID") && v.contains("ZALBUMID") {
        format!("(SELECT count(*) FROM {VIDEO} v WHERE v.ZALBUMID = a.ZALBUMID)")
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT a.Z_PK AS pk, {}, {count} AS videos, {} FROM {ALBUM} a",
        select_columns(
            &a,
            "a.",
            &[
                ("ZALBUMID", "album_id"),
                ("ZALBUM_TITLE", "title"),
                ("ZALBUM_PATH", "folder"),
            ],
        ),
        stored_flag("a.", &columns_marked(&a, &["pass", "pin"]), "password"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let title = raw(t, row, "title").filter(|s| !s.is_empty());
        let mut d = Draft::new(
            "files",
            format!(
                "NS Vault video album {}",
                title
                    .as_deref()
                    .or(t.get(row, "album_id"))
                    .unwrap_or("without a title")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("album_id", FactType::Identifier, "album id"),
                ("title", FactType::Name, "title"),
                ("folder", FactType::Path, "folder"),
                ("videos", FactType::Count, "videos"),
            ],
        );
        let locked = t.get(row, "password") == Some("stored");
        d.interpretation = format!(
            "ZVIDEOALBUM Z_PK {} of {file}: a video album of the NS Vault (Folder Lock) vault ({}){}; the folder is relative to the app's container.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", "),
            if locked {
                "; a password or PIN is stored for it (stored; the value was not read)"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "NS Vault albums")
}

/// The container, the media folder's listing and its files by path.
type Listing<'a> = (
    Option<&'a str>,
    Option<&'a Invoked>,
    &'a BTreeMap<String, ListedFile>,
);

fn videos(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    (container, listing, files): Listing<'_>,
    linked: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let v = schema.columns(VIDEO);
    let a = schema.columns(ALBUM);
    let joined = a.contains("Z_PK") && a.contains("ZALBUMID") && v.contains("ZALBUMID");
    let (album, join) = if joined {
        (
            select_columns(
                &a,
                "a.",
                &[("ZALBUM_TITLE", "album"), ("ZALBUM_PATH", "album_folder")],
            ),
            // one album per id
            format!(
                " LEFT JOIN {ALBUM} a ON a.Z_PK = (SELECT min(a2.Z_PK) FROM {ALBUM} a2 WHERE a2.ZALBUMID = v.ZALBUMID)"
            ),
        )
    } else {
        ("NULL AS album, NULL AS album_folder".into(), String::new())
    };
    // where the file sits below the container: the storage path, else the album's folder and
    // the name (as iLEAPP links it)
    let folder = if joined {
        column_expr(&a, "a.", "ZALBUM_PATH")
    } else {
        "NULL".into()
    };
    let relative = format!(
        "COALESCE(NULLIF({}, ''), NULLIF({folder}, '') || '/' || NULLIF(v.ZVIDEONAME, ''))",
        column_expr(&v, "v.", "ZSTORAGE_PATH"),
    );
    let sql = format!(
        "SELECT v.Z_PK AS pk, v.ZVIDEONAME AS name, {}, {album}, {relative} AS relative FROM {VIDEO} v{join}",
        select_columns(
            &v,
            "v.",
            &[
                ("ZVIDEO_ID", "video_id"),
                ("ZALBUMID", "album_id"),
                ("ZMODIFIED_DATE", "modified"),
                ("ZSTORAGE_PATH", "storage_path"),
                ("ZSTORAGE_PATH_THUMBNIL", "thumbnail"),
                ("ZVIDOE_DURATION", "duration"),
                ("ZVIDEO_SIZE", "size"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let name = raw(t, row, "name").filter(|s| !s.is_empty());
        let mut d = Draft::new(
            "files",
            format!(
                "Hidden in NS Vault: {}",
                name.as_deref().unwrap_or("a video without a name")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("video_id", FactType::Identifier, "video id"),
                ("album_id", FactType::Identifier, "album id"),
                ("album", FactType::Name, "album"),
                ("album_folder", FactType::Path, "album folder"),
                ("storage_path", FactType::Path, "storage path"),
                ("thumbnail", FactType::Path, "thumbnail"),
                ("duration", FactType::Text, "duration"),
                ("size", FactType::Text, "size"),
            ],
        );
        let modified = t.get(row, "modified");
        d.time(
            modified,
            apple_seconds(modified),
            "NS Vault video row modified",
            inv,
        );
        // the file itself, where the media folder's listing holds it
        let on_disk = match (container, t.get(row, "relative"), listing) {
            (Some(c), Some(rel), Some(l)) => {
                let full = format!("{c}/{}", rel.trim_start_matches('/'));
                files.get(&full).map(|f| (f, l))
            }
            _ => None,
        };
        if let Some((f, l)) = on_disk {
            linked.insert(f.path.clone());
            d.fact(FactType::Path, Some(&f.path), l);
            d.fact(FactType::Count, Some(&f.size), l);
        }
        d.interpretation = format!(
            "ZVIDEO Z_PK {} of {file}: a video the user hid in the NS Vault (Folder Lock) vault ({}); ZMODIFIED_DATE{} is the row's last change in Cocoa seconds, not when the video was taken. {}",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", "),
            modified.map(|m| format!(" {m}")).unwrap_or_default(),
            match (on_disk, listing, t.get(row, "relative")) {
                (Some((f, _)), _, _) => format!(
                    "The hidden file is in the vault's media folder ({} bytes), listed beside this row.",
                    f.size
                ),
                (None, Some(_), Some(_)) => "The vault's media folder holds no file at the row's path: the video was removed from the vault, or not extracted.".to_string(),
                (None, None, Some(_)) => "The vault's media folder was not found in the extraction.".to_string(),
                (None, _, None) => "The row keeps no folder or storage path (an older store), so its file cannot be told apart in the media folder.".to_string(),
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "NS Vault videos")
}

/// One phenomenon per file of the media folder no video row named.
fn loose(
    run: &Run<'_, '_>,
    dir: &str,
    listing: &Invoked,
    linked: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let files: Vec<ListedFile> = listed_files(&listing.output.text)
        .into_iter()
        .filter(|f| !linked.contains(&f.path))
        .collect();
    for (i, f) in files.iter().enumerate() {
        if i as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                dir,
                &format!(
                    "{} files in NS Vault's media folder; the first {ENTRY_CAP} were recorded",
                    files.len()
                ),
                Some(&listing.record.invocation_id),
            )?;
            break;
        }
        let below = f
            .path
            .strip_prefix(dir)
            .map(|p| p.trim_start_matches('/'))
            .unwrap_or(&f.path);
        let mut d = Draft::new("files", format!("NS Vault hidden file {below}"));
        d.fact(FactType::Path, Some(&f.path), listing);
        d.fact(FactType::Count, Some(&f.size), listing);
        // UTC times end in Z; a ZIP's local time is marked, and is read as naive local text
        let (value, encoding) = match f.time("modified") {
            Some(m) if m.ends_with('Z') => (Some(m), Some(TimeEncoding::Iso8601)),
            Some(m) => match m.strip_suffix(" (local)") {
                Some(local) => (Some(local), Some(TimeEncoding::LocalText)),
                None => (None, None),
            },
            None => (None, None),
        };
        d.time(value, encoding, "NS Vault hidden file modified", listing);
        d.interpretation = format!(
            "{}: a file of the NS Vault (Folder Lock) vault's media folder ({} bytes) that no ZVIDEO row names — a photo, audio file, document or thumbnail the vault hides, or a video of an older store; its content is not decoded here, and its name is the vault's, which may differ from the original.",
            f.path, f.size
        );
        run.record(d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_of_a_container() {
        let c = "/private/var/mobile/Containers/Data/Application/X";
        let d = format!("{c}/Documents/{FOLDER}");
        assert_eq!(d.strip_suffix(&format!("/Documents/{FOLDER}")), Some(c));
        let p = format!("{c}/Library/{NAME}");
        assert_eq!(p.strip_suffix(&format!("/Library/{NAME}")), Some(c));
    }
}
