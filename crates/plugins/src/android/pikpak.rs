//! PikPak (`com.pikcloud.pikpak/databases/`), ALEAPP's `pikpakCloudlist`, `pikpakDownloads` and
//! `pikpakPlay`: the files the account keeps in its PikPak cloud drive, what the app downloaded
//! and from where (links, magnets), and the videos it played.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `pikpak_files_<…>.db`: `xpan_files` | one `files` per cloud file or folder ("PikPak cloud file <name>", "PikPak cloud folder <name>") | name, kind, file id, parent id, size, MIME type, hash, trashed, the owning user id, URL, thumbnail link; created, modified, deleted (as stored: date text, or Unix by size), updated locally (Unix ms) |
//! | `pikpak_downloads.db`: `xl_downloads` | one `files` per download ("PikPak download <title>") | title, the source (`uri`: a link or a magnet), the file written (`_data`), description, MIME type, total and current bytes, status, deleted; created, last modified (Unix ms) |
//! | `greendao.db`: `VIDEO_PLAY_RECORD` | one `media` per video played ("PikPak played <name>") | name, duration, played time and furthest point as stored; last played (Unix ms) |
//!
//! Tables and columns are taken by name whatever their case (greenDAO writes them upper-case);
//! absent columns are NULL. A cloud file says what the account kept in its drive, not that the
//! phone held a copy; a download's `uri` is where the app fetched it from (a web link or a
//! magnet link naming the torrent's info hash). Identities: the drive's files are the
//! account's own, so when every `xpan_files` row names one user id it is the device's user's
//! (`owner`: `pikpak:<user id>`, computed in the query); a store naming several is read without
//! one. A store without the table it is read for is noted, a table without its key column
//! (`name`, `uri`) too.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType, TimeEncoding};

use super::Located;
use crate::calls::require_columns;
use crate::calls::{column_any_case, table_any_case};
use crate::drafts::{RowPhenomena, date_text, headline, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, observe_owner_ids, query_on, schema_on};
use crate::outputs::raw;

/// Whether `name` is one of PikPak's stores' file names.
fn is_store_name(name: &str) -> bool {
    (name.starts_with("pikpak_files_") && name.ends_with(".db"))
        || matches!(name, "pikpak_downloads.db" | "greendao.db")
}

/// Whether `l` is one of PikPak's stores.
pub fn is_store(l: &Located) -> bool {
    is_store_name(l.name()) && l.path.contains("/com.pikcloud.pikpak/databases/")
}

/// `"<column>" AS <alias>` for the column `want` (any case), else `NULL AS <alias>`.
fn pick(cols: &BTreeSet<String>, want: &str, alias: &str) -> String {
    column_any_case(cols, want).map_or_else(
        || format!("NULL AS {alias}"),
        |c| format!("\"{c}\" AS {alias}"),
    )
}

/// A time kept either as date text (the service's ISO 8601) or as a Unix number (its unit by
/// its size): the cloud list's times, as the API returned them.
fn text_or_unix(value: Option<&str>) -> Option<TimeEncoding> {
    let v = value?.trim();
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        unix_by_magnitude(Some(v))
    } else {
        date_text(Some(v))
    }
}

/// One PikPak store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let (want, key) = match l.name() {
        "pikpak_downloads.db" => ("xl_downloads", "uri"),
        "greendao.db" => ("VIDEO_PLAY_RECORD", "name"),
        _ => ("xpan_files", "name"),
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some((t, cols)) = table_any_case(&schema, want) else {
        ctx.unparsed(
            &name,
            &format!("not PikPak's {}: no table {want}", l.name()),
            None,
        )?;
        return Ok(());
    };
    let Some(key) = column_any_case(cols, key) else {
        require_columns(
            ctx,
            &name,
            &format!("PikPak's {}", l.name()),
            t,
            cols,
            &[key],
        )?;
        return Ok(());
    };
    match want {
        "xl_downloads" => downloads(ctx, l, t, cols, key),
        "VIDEO_PLAY_RECORD" => plays(ctx, l, t, cols, key),
        _ => cloud_files(ctx, l, t, cols, key),
    }
}

/// `xpan_files`: the cloud drive's files and folders, and its owner.
fn cloud_files(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tn: &str,
    cols: &BTreeSet<String>,
    key: &str,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, \"{key}\" AS name, {} FROM \"{tn}\" ORDER BY rowid",
        [
            ("kind", "kind"),
            ("id", "file_id"),
            ("parent_id", "parent_id"),
            ("size", "size"),
            ("mime_type", "mime_type"),
            ("hash", "hash"),
            ("trashed", "trashed"),
            ("user_id", "user_id"),
            ("url", "url"),
            ("thumbnail_link", "thumbnail_link"),
            ("create_time", "create_time"),
            ("modify_time", "modify_time"),
            ("delete_time", "delete_time"),
            ("local_update_time", "local_update_time"),
        ]
        .iter()
        .map(|(c, a)| pick(cols, c, a))
        .collect::<Vec<_>>()
        .join(", ")
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: tn,
            category: "files",
            what: "a file or folder the PikPak account keeps in its cloud drive, as the app last listed it (what the drive holds, not that the phone held a copy; created, modified and deleted as the service gave them, updated locally Unix milliseconds)",
            title: &|t, row| {
                let folder = t
                    .get(row, "kind")
                    .is_some_and(|k| k.to_ascii_lowercase().contains("folder"));
                format!(
                    "PikPak cloud {} {}",
                    if folder { "folder" } else { "file" },
                    raw(t, row, "name").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("name", FactType::Name, "name"),
                ("kind", FactType::Text, "kind"),
                ("file_id", FactType::Identifier, "file id"),
                ("parent_id", FactType::Identifier, "parent id"),
                ("size", FactType::Count, "size (bytes)"),
                ("mime_type", FactType::Text, "MIME type"),
                ("hash", FactType::Hash, "hash"),
                ("trashed", FactType::Text, "trashed"),
                ("user_id", FactType::Account, "user id"),
                ("url", FactType::Url, "URL"),
                ("thumbnail_link", FactType::Url, "thumbnail link"),
            ],
            times: &[
                ("create_time", "PikPak cloud file created", text_or_unix),
                ("modify_time", "PikPak cloud file modified", text_or_unix),
                ("delete_time", "PikPak cloud file deleted", text_or_unix),
                (
                    "local_update_time",
                    "PikPak cloud file updated by the app",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )?;
    // the drive's account: its one user id
    let Some(user) = column_any_case(cols, "user_id") else {
        return Ok(());
    };
    let sql = format!(
        "SELECT DISTINCT 'pikpak:' || \"{user}\" AS qualified, \"{user}\" AS user_id FROM \"{tn}\" WHERE \"{user}\" IS NOT NULL AND \"{user}\" != '' ORDER BY 2"
    );
    let Some((inv, users)) = query_on(ctx, &l.tree, &l.path, &sql, 10)? else {
        return Ok(());
    };
    let [row] = users.rows.as_slice() else {
        return Ok(());
    };
    let file = l.name().to_string();
    observe_owner_ids(
        ctx,
        &inv,
        vec![(
            users.get(row, "qualified").map(str::to_string),
            IdType::AccountId,
            "The PikPak user id",
        )],
        &|what| {
            format!(
                "{what} that owns every file of the PikPak cloud drive the app keeps on the phone ({tn} of {file}): the drive is the account signed in, the device's user's."
            )
        },
    )
}

/// `xl_downloads`: what the app downloaded, from where.
fn downloads(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tn: &str,
    cols: &BTreeSet<String>,
    key: &str,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, \"{key}\" AS uri, {} FROM \"{tn}\" ORDER BY rowid",
        [
            ("title", "title"),
            ("_data", "local_file"),
            ("description", "description"),
            ("mimetype", "mime_type"),
            ("total_bytes", "total_bytes"),
            ("current_bytes", "current_bytes"),
            ("status", "status"),
            ("deleted", "deleted"),
            ("create_time", "create_time"),
            ("lastmod", "lastmod"),
        ]
        .iter()
        .map(|(c, a)| pick(cols, c, a))
        .collect::<Vec<_>>()
        .join(", ")
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: tn,
            category: "files",
            what: "a download the PikPak app made (uri is its source: a web link, or a magnet link naming the torrent; the local file where it was written; status as stored; created and last modified Unix milliseconds)",
            title: &|t, row| {
                format!(
                    "PikPak download {}",
                    raw(t, row, "title")
                        .or_else(|| raw(t, row, "uri").map(|u| headline(&u)))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("title", FactType::Name, "title"),
                ("uri", FactType::Url, "source"),
                ("local_file", FactType::Path, "written to"),
                ("description", FactType::Text, "description"),
                ("mime_type", FactType::Text, "MIME type"),
                ("total_bytes", FactType::Count, "total bytes"),
                ("current_bytes", FactType::Count, "bytes downloaded"),
                ("status", FactType::Text, "status"),
                ("deleted", FactType::Text, "deleted"),
            ],
            times: &[
                ("create_time", "PikPak download created", unix_millis),
                ("lastmod", "PikPak download last modified", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `VIDEO_PLAY_RECORD`: the videos the app played.
fn plays(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tn: &str,
    cols: &BTreeSet<String>,
    key: &str,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, \"{key}\" AS name, {} FROM \"{tn}\" ORDER BY rowid",
        [
            ("duration", "duration"),
            ("played_time", "played_time"),
            ("max_played_time", "max_played_time"),
            ("last_play_timestamp", "last_play_timestamp"),
        ]
        .iter()
        .map(|(c, a)| pick(cols, c, a))
        .collect::<Vec<_>>()
        .join(", ")
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: tn,
            category: "media",
            what: "a video the PikPak app played (duration, the position reached and the furthest point as stored; last played Unix milliseconds)",
            title: &|t, row| {
                format!(
                    "PikPak played {}",
                    raw(t, row, "name").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("name", FactType::Name, "name"),
                ("duration", FactType::Count, "duration"),
                ("played_time", FactType::Count, "played to"),
                ("max_played_time", FactType::Count, "furthest point"),
            ],
            times: &[(
                "last_play_timestamp",
                "PikPak video last played",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}
