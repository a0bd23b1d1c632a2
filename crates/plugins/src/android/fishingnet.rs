//! App Locker by fishingnet — HLD's vault apps (`com.hld.anzenbokusufake`, "Calculator – hide
//! photos", and its siblings `com.hld.anzenbokusu`, `com.hld.anzenbokusucal`), which present a
//! calculator or a gallery and keep what the user hides in a `.privacy_safe` folder of the shared
//! storage. ALEAPP's `appLockerfishingnet` (the hidden media), `appLockerfishingnetdb` (the vault
//! index) and `appLockerfishingnetpat` (the unlock pattern):
//!
//! | store | phenomenon | fields |
//! |---|---|---|
//! | `.privacy_safe/picture/*`, `.privacy_safe/video/*` (found by the folder's name, listed with `find_files`) | one `files` per hidden file ("Hidden in App Locker (.privacy_safe/picture): <name>") | path, the vault's name for it, the folder, size; the file system's modified time (when the vault wrote it) |
//! | `.privacy_safe/db/privacy_safe.db` | encrypted (the app's own copy): one `files` ("App Locker vault index privacy_safe.db (encrypted)") and a note; a plain copy (decrypted elsewhere): one `files` per `FILE_INFO` row ("Hidden in App Locker: <original name>") | path, size, modified; original name and path (where the file was taken from), album, the vault's name and path for it, size as shown and in bytes, image size, suffix, decoy space, type, encrypt type, delete time, the album it was moved from; added and created (device-local text, as stored) |
//! | `com.hld.anzenbokusu*/shared_prefs/share_privacy_safe.xml` | one `apps` ("App Locker (HLD) unlock pattern set", or "… preferences without an unlock pattern") | path; the name of the pattern's preference (`85B064D2…E3F8`) |
//!
//! The media are AES-CBC ciphertext under a key and IV fixed in the app (ALEAPP decrypts them;
//! not decoded here), stored under names the vault chose: the listing says how many files the
//! user hid, how big, and when the vault wrote them, not what they show. Their original names
//! and paths are in the vault index, a SQLCipher database under the same fixed passphrase: the
//! `sqlite` tools have no cipher profile for it, so the app's own copy is said to be there
//! (its first bytes, `hexdump`, say encrypted) and noted, not read; a plain SQLite copy is read
//! (`FILE_INFO`, greenDAO's upper-case columns taken by name in any case, absent ones NULL; its
//! `ACCOUNT` — the vault's number password — and `THUMBNAIL` are never selected). Its times are
//! text the app writes in the device's local time without a zone: quoted as stored, read as
//! local time where they have the date-time shape.
//!
//! The preferences hold the unlock pattern AES-encrypted under that fixed key, under a
//! preference whose name is itself encrypted: whether a pattern is set is said, the pattern and
//! its ciphertext never (the ciphertext decrypts with the published key, so it is as good as the
//! pattern). An index that is neither SQLite nor whole pages, a plain copy without `FILE_INFO` or
//! its `ORIGIN_PATH`, preferences that are not XML, and a listing cut at its limit are noted.
//! Identities: none (a vault says what was hidden, not by whom).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use serde_json::json;

use super::Located;
use crate::calls::{column_any_case, table_any_case};
use crate::drafts::{Draft, RowPhenomena, date_text, record_draft};
use crate::identity::{args_on, artefact_name, schema_on};
use crate::ios::signal::{Header, sqlcipher};
use crate::outputs::{ListedFile, listed_files, raw};

/// The vault's folder on the shared storage.
pub const DIR: &str = ".privacy_safe";

/// The (encrypted) name of the preference holding the encrypted unlock pattern.
const PATTERN_PREF: &str = "85B064D26810275C89F1F2CC15E20B442E98874398F16F6717BBD5D34920E3F8";

/// The folders of hidden media read (ALEAPP's).
const MEDIA: [&str; 2] = ["picture", "video"];

/// Most entries the folder's listing returns.
const LIST_LIMIT: u64 = 20_000;

/// Whether `l` is the vault's folder.
pub fn is_app_dir(l: &Located) -> bool {
    l.path.rsplit('/').next() == Some(DIR)
}

/// Whether `path` is the preferences file of one of HLD's vault apps.
fn prefs_path(path: &str) -> bool {
    path.ends_with("/shared_prefs/share_privacy_safe.xml")
        && path
            .split('/')
            .any(|s| s.starts_with("com.hld.anzenbokusu"))
}

/// Whether `l` is the preferences of one of HLD's vault apps.
pub fn is_prefs(l: &Located) -> bool {
    prefs_path(&l.path)
}

/// A listed file's modified time with its encoding (UTC ends in `Z`; a FAT or ZIP local time is
/// marked ` (local)` and read as naive local text).
pub(super) fn listed_modified(f: &ListedFile) -> (Option<&str>, Option<TimeEncoding>) {
    match f.time("modified") {
        Some(m) if m.ends_with('Z') => (Some(m), Some(TimeEncoding::Iso8601)),
        Some(m) => match m.strip_suffix(" (local)") {
            Some(local) => (Some(local), Some(TimeEncoding::LocalText)),
            None => (None, None),
        },
        None => (None, None),
    }
}

/// The vault folder: its hidden media listed, its index read or said encrypted.
pub fn vault(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(listing) = super::list_folder(ctx, l, LIST_LIMIT, "App Locker's vault folder")? else {
        return Ok(());
    };
    let prefix = format!("{}/", l.path.trim_end_matches('/'));
    for f in listed_files(&listing.output.text) {
        let Some(rest) = f.path.strip_prefix(&prefix) else {
            continue;
        };
        let Some((folder, _)) = rest.split_once('/') else {
            continue;
        };
        if MEDIA.contains(&folder) {
            hidden(ctx, &listing, &f, folder)?;
        } else if rest == "db/privacy_safe.db" {
            let db = Located {
                tree: l.tree.clone(),
                path: f.path.clone(),
                found: listing.clone(),
            };
            index(ctx, &db, &f)?;
        }
    }
    Ok(())
}

/// One hidden file of `picture/` or `video/`.
fn hidden(
    ctx: &AgentCtx<'_>,
    listing: &masf_tools::Invoked,
    f: &ListedFile,
    folder: &str,
) -> Result<(), RuntimeError> {
    let file = f.path.rsplit('/').next().unwrap_or(&f.path);
    let mut d = Draft::new(
        "files",
        format!("Hidden in App Locker (.privacy_safe/{folder}): {file}"),
    );
    d.fact(FactType::Path, Some(&f.path), listing);
    d.fact(FactType::Name, Some(file), listing);
    d.fact(FactType::Text, Some(folder), listing);
    d.fact(FactType::Count, Some(&f.size), listing);
    let (at, enc) = listed_modified(f);
    d.time(at, enc, "Hidden file written by App Locker", listing);
    d.interpretation = format!(
        "{}: a file App Locker (HLD) keeps in its hidden {folder} folder ({} bytes), AES-encrypted under the app's fixed key and stored under the vault's name for it ({file}), not its original one (that is in the encrypted vault index); {}. Not decoded here: what it shows is not said.",
        f.path,
        f.size,
        match at {
            Some(t) => format!(
                "the file system's modified time {t} is when the vault last wrote it (for a file written once, when it was hidden)"
            ),
            None => "the extraction keeps no modified time for it".to_string(),
        }
    );
    record_draft(ctx, d)
}

/// The vault index `db/privacy_safe.db`: said encrypted and noted, or read as a plain copy.
fn index(ctx: &AgentCtx<'_>, db: &Located, f: &ListedFile) -> Result<(), RuntimeError> {
    let name = artefact_name(&db.tree, &db.path);
    let Some((inv, header)) = sqlcipher(ctx, &name, args_on(&db.tree, json!({"path": db.path})))?
    else {
        return Ok(());
    };
    match header {
        Header::Sqlite => plain_index(ctx, db),
        Header::Encrypted(why) => {
            let mut d = Draft::new(
                "files",
                "App Locker vault index privacy_safe.db (encrypted)",
            );
            d.fact(FactType::Path, Some(&db.path), &db.found);
            d.fact(FactType::Count, Some(&f.size), &db.found);
            let (at, enc) = listed_modified(f);
            d.time(at, enc, "App Locker vault index last written", &db.found);
            d.interpretation = format!(
                "{}: App Locker's (HLD) index of the files hidden in its vault ({} bytes): the original name and path of each, when it was hidden, its album. It is encrypted (SQLCipher, under a passphrase fixed in the app) and not read here: the hidden files are listed from their folders instead, without their original names.",
                db.path, f.size
            );
            record_draft(ctx, d)?;
            ctx.unparsed(
                &name,
                &format!(
                    "could not parse App Locker's privacy_safe.db: encrypted (SQLCipher) under the app's fixed passphrase, for which the sqlite tools have no cipher profile; not read: {why}"
                ),
                Some(&inv.record.invocation_id),
            )
        }
        Header::Other(why) => ctx.unparsed(
            &name,
            &format!("could not parse App Locker's privacy_safe.db: {why}"),
            Some(&inv.record.invocation_id),
        ),
    }
}

/// `f."<column>" AS <alias>` for the column of `cols` named `want` in any case, else NULL.
fn pick(cols: &std::collections::BTreeSet<String>, want: &str, alias: &str) -> String {
    match column_any_case(cols, want) {
        Some(c) => format!("f.\"{c}\" AS {alias}"),
        None => format!("NULL AS {alias}"),
    }
}

/// A plain SQLite copy of the vault index: one phenomenon per `FILE_INFO` row (never its
/// `ACCOUNT` or `THUMBNAIL`).
fn plain_index(ctx: &AgentCtx<'_>, db: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &db.tree, &db.path)? else {
        return Ok(());
    };
    let name = artefact_name(&db.tree, &db.path);
    let Some((table, cols)) = table_any_case(&schema, "FILE_INFO") else {
        ctx.unparsed(
            &name,
            "could not parse App Locker's privacy_safe.db (a plain SQLite copy) because it has no table FILE_INFO (unexpected schema)",
            None,
        )?;
        return Ok(());
    };
    if column_any_case(cols, "ORIGIN_PATH").is_none() {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse App Locker's privacy_safe.db because table {table} lacks ORIGIN_PATH (unexpected schema)"
            ),
            None,
        )?;
        return Ok(());
    }
    let select: Vec<String> = [
        ("ORIGIN_NAME", "origin_name"),
        ("ORIGIN_PATH", "origin_path"),
        ("FOLDER_NAME", "album"),
        ("ENCRYPT_NAME", "encrypt_name"),
        ("ENCRYPT_PATH", "encrypt_path"),
        ("SIZE", "size_shown"),
        ("FILE_LENGTH", "file_length"),
        ("IMAGE_SIZE", "image_size"),
        ("SUFFIX", "suffix"),
        ("IS_MOCK_SPACE", "mock_space"),
        ("TYPE", "kind"),
        ("ENCRYPT_TYPE", "encrypt_type"),
        ("DELETE_TIME", "delete_time"),
        ("FROM_FOLDER_NAME", "from_album"),
        ("ADD_TIME", "added"),
        ("CREATE_TIME", "created"),
    ]
    .iter()
    .map(|(c, a)| pick(cols, c, a))
    .collect();
    let sql = format!(
        "SELECT f.rowid AS rid, {} FROM \"{table}\" f ORDER BY f.rowid",
        select.join(", ")
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Hidden in App Locker: {}",
            raw(t, row, "origin_name")
                .or_else(|| raw(t, row, "encrypt_name"))
                .or_else(|| raw(t, row, "origin_path"))
                .unwrap_or_default()
        )
    };
    super::record_query(
        ctx,
        db,
        &sql,
        &RowPhenomena {
            table: "FILE_INFO",
            category: "files",
            what: "a file the user hid in App Locker (HLD): where it was taken from (original name and path) and the name and path the vault keeps it under, encrypted; ADD_TIME is when it was hidden and CREATE_TIME the original file's creation, both text the app writes in the device's local time without a zone (quoted as stored); size as the app shows it and in bytes; type, encrypt type and delete time as stored",
            title: &title,
            fields: &[
                ("origin_name", FactType::Name, "original name"),
                ("origin_path", FactType::Path, "taken from"),
                ("album", FactType::Name, "album"),
                ("encrypt_name", FactType::Name, "name in the vault"),
                ("encrypt_path", FactType::Path, "kept at"),
                ("size_shown", FactType::Text, "size shown"),
                ("file_length", FactType::Count, "bytes"),
                ("image_size", FactType::Text, "image size"),
                ("suffix", FactType::Text, "suffix"),
                ("mock_space", FactType::Text, "in the decoy space"),
                ("kind", FactType::Text, "type"),
                ("encrypt_type", FactType::Text, "encrypt type"),
                ("delete_time", FactType::Text, "delete time (as stored)"),
                ("from_album", FactType::Name, "moved from album"),
            ],
            times: &[
                (
                    "added",
                    "File hidden in App Locker (device-local time)",
                    date_text,
                ),
                (
                    "created",
                    "Hidden file's original created (device-local time)",
                    date_text,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The preferences: whether an unlock pattern is set (never the pattern or its ciphertext).
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    let set = entries
        .iter()
        .any(|(n, v)| n == PATTERN_PREF && !v.trim().is_empty());
    let package = l
        .path
        .split('/')
        .find(|s| s.starts_with("com.hld.anzenbokusu"))
        .unwrap_or("com.hld.anzenbokusu");
    let mut d = Draft::new(
        "apps",
        if set {
            "App Locker (HLD) unlock pattern set"
        } else {
            "App Locker (HLD) preferences without an unlock pattern"
        },
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    if set {
        d.fact(FactType::Identifier, Some(PATTERN_PREF), &inv);
    }
    d.interpretation = if set {
        format!(
            "{}: {package}'s preferences hold an unlock pattern (under the preference {PATTERN_PREF}, the encrypted name of the pattern's entry): the user set a pattern to open the vault. The pattern is stored AES-encrypted under a key fixed in the app (ALEAPP decrypts it); it is not copied here.",
            l.path
        )
    } else {
        format!(
            "{}: {package}'s preferences ({} entries, their names encrypted) hold no unlock pattern under {PATTERN_PREF}: no pattern is set in this file (the app may be locked otherwise, by a number password).",
            l.path,
            entries.len()
        )
    };
    record_draft(ctx, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_by_path() {
        assert!(prefs_path(
            "/data/data/com.hld.anzenbokusufake/shared_prefs/share_privacy_safe.xml"
        ));
        assert!(prefs_path(
            "/data/user/10/com.hld.anzenbokusucal/shared_prefs/share_privacy_safe.xml"
        ));
        assert!(!prefs_path(
            "/data/data/com.example/shared_prefs/share_privacy_safe.xml"
        ));
        assert!(!prefs_path(
            "/data/data/com.hld.anzenbokusufake/files/share_privacy_safe.xml"
        ));
    }
}
