//! Google Photos for Android (`com.google.android.apps.photos`), ALEAPP's `googlePhotos`
//! (`get_googlePhotos`, `get_googlePhotos_remote`, `get_googlePhotos_shared`,
//! `get_googlePhotos_folders`, `get_googlePhotos_cache`, `get_googlePhotos_trash`), with the
//! shared albums ("envelopes") the same store keeps: what the app indexed on the phone, what it
//! knows of the account's cloud library, the media shared with the account, the folders it
//! backs up, its trash and its image cache.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/gphotos<n>.db`: `local_media` | one `media` per file the app indexed on the phone ("Google Photos local item <file name>") | file name and path, dedup key, bucket id, folder, media store id, MIME type, width, height, size, duration (ms), latitude, longitude, capture_timestamp and timezone_offset as stored, the offset in minutes and — where capture_timestamp is utc_timestamp plus the offset — the capture time on the phone's clock (both computed in the query); time (utc_timestamp), moved to the trash, purge (Unix ms) |
//! | `gphotos<n>.db`: `remote_media` | one `media` per item of the cloud library the app knows ("Google Photos cloud item <file name>") | media key, dedup key, file name, remote URL, type, MIME type, size, width, height, duration, latitude, longitude, inferred latitude and longitude, location source, upload status, capture_timestamp, timezone_offset and the computed offset and phone-clock capture time; time (utc_timestamp), created on the server (Unix ms) |
//! | `gphotos<n>.db`: `shared_media` (with `envelopes`) | one `media` per item shared with the account ("Google Photos shared item <file name>") | media key, dedup key, collection (album) id and its title, file name, remote URL, type, size, upload status, capture_timestamp, timezone_offset and the computed offset; time (utc_timestamp) |
//! | `gphotos<n>.db`: `backup_folders` ⋈ `local_media` (by `bucket_id`) | one `files` per folder set to back up that holds indexed files ("Google Photos backup folder <folder>") | bucket id, folder name, folder path (the files' paths without their names, computed in the query) |
//! | `gphotos<n>.db`: `envelopes` (with `envelope_members`, `actors`) | one `social` per shared album or conversation ("Google Photos shared album <title>") | media key, title, share link, owner actor and name, pinned, joined, collaborative, can add, item, recipient and comment counts; created, start, end, last activity, marked read (Unix ms) |
//! | `gphotos<n>.db`: `envelope_members` (or `actors`) | one `contacts` per member of a shared album ("Google Photos sharing member <name> (<album>)") | album key and title, actor id, Google account id (GAIA), name, profile photo URL, e-mail, phone, owner flag; last viewed (Unix ms) |
//! | `gphotos<n>.db`: `comments` | one `social` per comment in a shared album ("Google Photos comment by <name> in <album>") | comment id, album key and title, item key, author's actor id and name, text; time (Unix ms or s, read by its size) |
//! | `databases/local_trash.db`: `local` (with a listing of `files/trash_files/`) | one `files` per item in the app's trash ("Google Photos trashed item <original path>") | original path, content URI, trash file name, media store id, is video; the trash file's path and size where the folder still holds it; deleted (Unix ms) |
//! | `databases/disk_cache`: `journal` | one `media` per image cache entry ("Google Photos cache entry <key>") | key, size, pending delete; last modified (Unix ms) |
//!
//! What the rows are: `local_media` is the app's index of the phone's own pictures and videos,
//! `remote_media` what it knows of the account's cloud library (backed up from this phone or
//! another), `shared_media` items others shared; none says a picture was viewed. A backup folder
//! is a folder set to back up, not proof a file was uploaded. The upload status, types and flags
//! are as stored (ALEAPP: the upload status is no percentage). utc_timestamp is the item's time
//! in UTC; capture_timestamp and timezone_offset are given as stored (ALEAPP divides the offset
//! by 3,600,000 into truncated hours; here it is given in minutes), and capture_timestamp is read
//! as the phone's clock only where the row shows it is utc_timestamp plus the offset. Inferred
//! coordinates are Google's estimate, not the file's. A trashed item's file is reported where
//! the trash folder still holds a file of its trash name (nothing is carved).
//!
//! Never selected: an album's `auth_key` (the key of its share link) and its sync and resume
//! tokens. Not read: the cached images themselves (`cache/glide_cache/`), the trash files'
//! content, the memories, search and face-clustering tables, `media`/`burst_media` (views of the
//! same items). Schema drift: every column but the key ones is taken by name (absent ones
//! NULL); members read from `envelope_members`, from `actors` where an older layout keeps the
//! names there; a store with none of its tables is noted, a table without its key column too
//! (`filepath`, `remote_url`, `media_key`, `envelope_media_key`/`actor_id`, `local_path`, `key`).
//! The generic names (`local_trash.db`, `disk_cache`) are read only in the app's folder.
//!
//! Identities: each member of a shared album is a `gphotos:<actor id>` person (the actor id
//! qualified in the query; the name, and the e-mail and phone where the layout keeps them), as
//! is the author of a comment; no row says which member is the device's user, so no `owner`.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use serde_json::json;

use super::{Located, Schema};
use crate::calls::{Tables, column_expr, note_pages_cap, select_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, title_of, unix_by_magnitude, unix_millis};
use crate::identity::{args_on, artefact_name, observe, pages_on, schema_on};
use crate::outputs::raw;

/// The app's folder of stores.
const DATABASES: &str = "/com.google.android.apps.photos/databases/";

/// Whether `name` is named like one of the stores read (wherever it lies).
pub fn is_name(name: &str) -> bool {
    (name.starts_with("gphotos") && name.ends_with(".db"))
        || name == "local_trash.db"
        || name == "disk_cache"
}

/// Whether `path` is one of Google Photos' stores read here (in its `databases/` folder).
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains(DATABASES) && is_name(name)
}

/// Whether `l` is one of Google Photos' stores read here.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// The category of a store read here, by its name.
pub fn category(name: &str) -> &'static str {
    if name == "local_trash.db" {
        "files"
    } else {
        "media"
    }
}

/// One of Google Photos' stores.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    match l.name() {
        "local_trash.db" => trash(ctx, l, &name, &schema),
        "disk_cache" => cache(ctx, l, &name, &schema),
        _ => gphotos(ctx, l, &name, &schema),
    }
}

/// The offset in minutes and the capture time on the phone's clock (where `capture_timestamp`
/// is `utc_timestamp` plus `timezone_offset`) of a media table aliased `t`.
fn clock(cols: &BTreeSet<String>, t: &str) -> String {
    let minutes = if cols.contains("timezone_offset") {
        format!("{t}.timezone_offset / 60000 AS offset_minutes")
    } else {
        "NULL AS offset_minutes".to_string()
    };
    let local = if ["capture_timestamp", "utc_timestamp", "timezone_offset"]
        .iter()
        .all(|c| cols.contains(*c))
    {
        format!(
            "CASE WHEN {t}.capture_timestamp - {t}.utc_timestamp = {t}.timezone_offset THEN strftime('%Y-%m-%d %H:%M:%S', {t}.capture_timestamp / 1000, 'unixepoch') END AS capture_local"
        )
    } else {
        "NULL AS capture_local".to_string()
    };
    format!("{minutes}, {local}")
}

/// `gphotos<n>.db`: the media tables, the backup folders and the shared albums.
fn gphotos(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let Some(tables) = Tables::of(
        ctx,
        name,
        "Google Photos' media store",
        schema,
        &["local_media", "remote_media", "shared_media", "envelopes"],
    )?
    else {
        return Ok(());
    };
    if let Some(cols) = tables.need("local_media", &["filepath"])? {
        local_media(ctx, l, cols)?;
        if cols.contains("bucket_id")
            && schema
                .get("backup_folders")
                .is_some_and(|b| b.contains("bucket_id"))
        {
            backup_folders(ctx, l, cols)?;
        }
    }
    if let Some(cols) = tables.need("remote_media", &["remote_url"])? {
        remote_media(ctx, l, cols)?;
    }
    if let Some(cols) = tables.need("shared_media", &["remote_url"])? {
        shared_media(ctx, l, schema, cols)?;
    }
    if let Some(cols) = tables.need("envelopes", &["media_key"])? {
        envelopes(ctx, l, schema, cols)?;
    }
    if let Some(cols) = tables.need("envelope_members", &["envelope_media_key", "actor_id"])? {
        members(ctx, l, schema, cols)?;
    }
    if let Some(cols) = tables.need("comments", &["envelope_media_key", "actor_media_key"])? {
        comments(ctx, l, schema, cols)?;
    }
    Ok(())
}

/// The local-media query.
pub(crate) fn local_media_sql(cols: &BTreeSet<String>) -> String {
    format!(
        "SELECT m.rowid AS rid, m.filepath AS filepath, {}, {} FROM local_media m ORDER BY m.rowid",
        select_columns(
            cols,
            "m.",
            &[
                ("filename", "filename"),
                ("dedup_key", "dedup_key"),
                ("bucket_id", "bucket_id"),
                ("folder_name", "folder_name"),
                ("media_store_id", "media_store_id"),
                ("mime_type", "mime_type"),
                ("width", "width"),
                ("height", "height"),
                ("size_bytes", "size_bytes"),
                ("duration", "duration"),
                ("latitude", "latitude"),
                ("longitude", "longitude"),
                ("capture_timestamp", "capture_timestamp"),
                ("timezone_offset", "timezone_offset"),
                ("utc_timestamp", "utc_timestamp"),
                ("trash_timestamp", "trash_timestamp"),
                ("purge_timestamp", "purge_timestamp"),
            ],
        ),
        clock(cols, "m"),
    )
}

fn local_media(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    super::record_query(
        ctx,
        l,
        &local_media_sql(cols),
        &RowPhenomena {
            table: "local_media",
            category: "media",
            what: "a picture or video on the phone that Google Photos indexed (indexed, not shown to have been viewed or uploaded; utc_timestamp is the item's time in UTC, Unix ms; capture_timestamp and timezone_offset as stored, the offset also in minutes, and the capture time on the phone's clock where capture_timestamp is utc_timestamp plus the offset; duration ms; trash and purge times Unix ms)",
            title: &title_of("Google Photos local item", &["filename", "filepath"]),
            fields: &[
                ("filename", FactType::Name, "file name"),
                ("filepath", FactType::Path, "path"),
                ("dedup_key", FactType::Identifier, "dedup key"),
                ("bucket_id", FactType::Identifier, "bucket id"),
                ("folder_name", FactType::Name, "folder"),
                ("media_store_id", FactType::Identifier, "media store id"),
                ("mime_type", FactType::Text, "MIME type"),
                ("width", FactType::Count, "width"),
                ("height", FactType::Count, "height"),
                ("size_bytes", FactType::Count, "size (bytes)"),
                ("duration", FactType::Count, "duration (ms)"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                (
                    "capture_timestamp",
                    FactType::Text,
                    "capture_timestamp (as stored)",
                ),
                (
                    "timezone_offset",
                    FactType::Text,
                    "timezone_offset (ms, as stored)",
                ),
                ("offset_minutes", FactType::Text, "offset (minutes)"),
                (
                    "capture_local",
                    FactType::Text,
                    "capture time on the phone's clock",
                ),
            ],
            times: &[
                (
                    "utc_timestamp",
                    "Google Photos local item time (UTC)",
                    unix_millis,
                ),
                (
                    "trash_timestamp",
                    "Google Photos local item moved to the trash",
                    unix_millis,
                ),
                (
                    "purge_timestamp",
                    "Google Photos local item purge time",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The folders set to back up that hold indexed files.
fn backup_folders(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT DISTINCT m.bucket_id AS bucket_id, {} AS folder_name, rtrim(m.filepath, replace(m.filepath, '/', '')) AS folder_path FROM local_media m JOIN backup_folders b ON b.bucket_id = m.bucket_id ORDER BY m.bucket_id, folder_path",
        column_expr(cols, "m.", "folder_name"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "backup_folders",
            category: "files",
            what: "a folder set to back up in Google Photos that holds files the app indexed (its bucket id in backup_folders; the folder path is the indexed files' paths without their names, computed in the query); set to back up, not proof that any file was uploaded",
            title: &title_of(
                "Google Photos backup folder",
                &["folder_name", "folder_path"],
            ),
            fields: &[
                ("bucket_id", FactType::Identifier, "bucket id"),
                ("folder_name", FactType::Name, "folder"),
                ("folder_path", FactType::Path, "folder path"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The cloud-media query.
pub(crate) fn remote_media_sql(cols: &BTreeSet<String>) -> String {
    format!(
        "SELECT r.rowid AS rid, r.remote_url AS remote_url, {}, {} FROM remote_media r ORDER BY r.rowid",
        select_columns(
            cols,
            "r.",
            &[
                ("media_key", "media_key"),
                ("dedup_key", "dedup_key"),
                ("filename", "filename"),
                ("type", "type"),
                ("mime_type", "mime_type"),
                ("size_bytes", "size_bytes"),
                ("width", "width"),
                ("height", "height"),
                ("duration", "duration"),
                ("latitude", "latitude"),
                ("longitude", "longitude"),
                ("inferred_latitude", "inferred_latitude"),
                ("inferred_longitude", "inferred_longitude"),
                ("location_source", "location_source"),
                ("upload_status", "upload_status"),
                ("capture_timestamp", "capture_timestamp"),
                ("timezone_offset", "timezone_offset"),
                ("utc_timestamp", "utc_timestamp"),
                ("server_creation_timestamp", "server_creation_timestamp"),
            ],
        ),
        clock(cols, "r"),
    )
}

fn remote_media(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    super::record_query(
        ctx,
        l,
        &remote_media_sql(cols),
        &RowPhenomena {
            table: "remote_media",
            category: "media",
            what: "an item of the account's Google Photos cloud library the app knows (backed up from this phone or another; the inferred coordinates are Google's estimate, not the file's; type, location source and upload status as stored — the upload status is no percentage; utc_timestamp is the item's time in UTC and server_creation_timestamp the server's, Unix ms; capture_timestamp and timezone_offset as stored, the offset also in minutes, the phone-clock capture time where capture_timestamp is utc_timestamp plus the offset; duration ms)",
            title: &title_of("Google Photos cloud item", &["filename", "media_key"]),
            fields: &[
                ("media_key", FactType::Identifier, "media key"),
                ("dedup_key", FactType::Identifier, "dedup key"),
                ("filename", FactType::Name, "file name"),
                ("remote_url", FactType::Url, "remote URL"),
                ("type", FactType::Text, "type"),
                ("mime_type", FactType::Text, "MIME type"),
                ("size_bytes", FactType::Count, "size (bytes)"),
                ("width", FactType::Count, "width"),
                ("height", FactType::Count, "height"),
                ("duration", FactType::Count, "duration (ms)"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("inferred_latitude", FactType::Text, "inferred latitude"),
                ("inferred_longitude", FactType::Text, "inferred longitude"),
                ("location_source", FactType::Text, "location source"),
                ("upload_status", FactType::Text, "upload status"),
                (
                    "capture_timestamp",
                    FactType::Text,
                    "capture_timestamp (as stored)",
                ),
                (
                    "timezone_offset",
                    FactType::Text,
                    "timezone_offset (ms, as stored)",
                ),
                ("offset_minutes", FactType::Text, "offset (minutes)"),
                (
                    "capture_local",
                    FactType::Text,
                    "capture time on the phone's clock",
                ),
            ],
            times: &[
                (
                    "utc_timestamp",
                    "Google Photos cloud item time (UTC)",
                    unix_millis,
                ),
                (
                    "server_creation_timestamp",
                    "Google Photos cloud item created on the server",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `(SELECT title FROM envelopes …)` of the album key `key`, or NULL without the table.
fn album_title(schema: &Schema, key: &str) -> String {
    if schema
        .get("envelopes")
        .is_some_and(|e| e.contains("media_key") && e.contains("title"))
    {
        format!("(SELECT e.title FROM envelopes e WHERE e.media_key = {key} LIMIT 1)")
    } else {
        "NULL".to_string()
    }
}

fn shared_media(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let album = if cols.contains("collection_id") {
        album_title(schema, "s.collection_id")
    } else {
        "NULL".to_string()
    };
    let sql = format!(
        "SELECT s.rowid AS rid, s.remote_url AS remote_url, {}, {album} AS album, {} FROM shared_media s ORDER BY s.rowid",
        select_columns(
            cols,
            "s.",
            &[
                ("media_key", "media_key"),
                ("dedup_key", "dedup_key"),
                ("collection_id", "collection_id"),
                ("filename", "filename"),
                ("type", "type"),
                ("size_bytes", "size_bytes"),
                ("upload_status", "upload_status"),
                ("capture_timestamp", "capture_timestamp"),
                ("timezone_offset", "timezone_offset"),
                ("utc_timestamp", "utc_timestamp"),
            ],
        ),
        clock(cols, "s"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "shared_media",
            category: "media",
            what: "an item shared with the account in a shared album or conversation (collection id and its title; type and upload status as stored; utc_timestamp the item's time in UTC, Unix ms; capture_timestamp and timezone_offset as stored, the offset also in minutes)",
            title: &title_of("Google Photos shared item", &["filename", "media_key"]),
            fields: &[
                ("media_key", FactType::Identifier, "media key"),
                ("dedup_key", FactType::Identifier, "dedup key"),
                ("collection_id", FactType::Identifier, "collection id"),
                ("album", FactType::Name, "album"),
                ("filename", FactType::Name, "file name"),
                ("remote_url", FactType::Url, "remote URL"),
                ("type", FactType::Text, "type"),
                ("size_bytes", FactType::Count, "size (bytes)"),
                ("upload_status", FactType::Text, "upload status"),
                (
                    "capture_timestamp",
                    FactType::Text,
                    "capture_timestamp (as stored)",
                ),
                (
                    "timezone_offset",
                    FactType::Text,
                    "timezone_offset (ms, as stored)",
                ),
                ("offset_minutes", FactType::Text, "offset (minutes)"),
                (
                    "capture_local",
                    FactType::Text,
                    "capture time on the phone's clock",
                ),
            ],
            times: &[(
                "utc_timestamp",
                "Google Photos shared item time (UTC)",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The expression of a member's `col` for the member row aliased `m` (actor id `m.actor_id`):
/// `envelope_members.col`, else (or where NULL) the `actors` row's.
fn member_col(schema: &Schema, col: &str, actor: &str, alias: &str) -> String {
    let in_members = schema.get("envelope_members").is_some_and(|c| {
        c.contains(col) && c.contains("actor_id") && c.contains("envelope_media_key")
    });
    let in_actors = schema
        .get("actors")
        .is_some_and(|c| c.contains(col) && c.contains("media_key"));
    let from_actors = format!("(SELECT a.{col} FROM actors a WHERE a.media_key = {actor} LIMIT 1)");
    let from_members = format!(
        "(SELECT x.{col} FROM envelope_members x WHERE x.actor_id = {actor} AND x.{col} IS NOT NULL AND x.{col} != '' LIMIT 1)"
    );
    match (in_members, in_actors) {
        (true, true) => format!("coalesce({from_members}, {from_actors}) AS {alias}"),
        (true, false) => format!("{from_members} AS {alias}"),
        (false, true) => format!("{from_actors} AS {alias}"),
        (false, false) => format!("NULL AS {alias}"),
    }
}

fn envelopes(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let owner_name = if cols.contains("owner_actor_id") {
        member_col(schema, "display_name", "e.owner_actor_id", "owner_name")
    } else {
        "NULL AS owner_name".to_string()
    };
    let sql = format!(
        "SELECT e.rowid AS rid, e.media_key AS media_key, {}, {owner_name} FROM envelopes e ORDER BY e.rowid",
        select_columns(
            cols,
            "e.",
            &[
                ("title", "title"),
                ("short_url", "short_url"),
                ("owner_actor_id", "owner_actor_id"),
                ("is_pinned", "is_pinned"),
                ("is_joined", "is_joined"),
                ("is_collaborative", "is_collaborative"),
                ("can_add_content", "can_add_content"),
                ("total_item_count", "total_item_count"),
                ("total_recipient_count", "total_recipient_count"),
                ("comment_count", "comment_count"),
                ("created_time_ms", "created_time_ms"),
                ("start_time_ms", "start_time_ms"),
                ("end_time_ms", "end_time_ms"),
                ("last_activity_time_ms", "last_activity_time_ms"),
                ("mark_as_read_time_ms", "mark_as_read_time_ms"),
            ],
        ),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "envelopes",
            category: "social",
            what: "a shared album or conversation of Google Photos the account takes part in (an \"envelope\": its share link, owner, counts and flags as stored — never its auth key or sync tokens; times Unix ms: created, the span of its items (start, end), last activity, marked read)",
            title: &title_of("Google Photos shared album", &["title", "media_key"]),
            fields: &[
                ("media_key", FactType::Identifier, "media key"),
                ("title", FactType::Name, "title"),
                ("short_url", FactType::Url, "share link"),
                ("owner_actor_id", FactType::Account, "owner actor id"),
                ("owner_name", FactType::Name, "owner"),
                ("is_pinned", FactType::Text, "pinned"),
                ("is_joined", FactType::Text, "joined"),
                ("is_collaborative", FactType::Text, "collaborative"),
                ("can_add_content", FactType::Text, "can add content"),
                ("total_item_count", FactType::Count, "items"),
                ("total_recipient_count", FactType::Count, "recipients"),
                ("comment_count", FactType::Count, "comments"),
            ],
            times: &[
                (
                    "created_time_ms",
                    "Google Photos shared album created",
                    unix_millis,
                ),
                (
                    "start_time_ms",
                    "Google Photos shared album start",
                    unix_millis,
                ),
                ("end_time_ms", "Google Photos shared album end", unix_millis),
                (
                    "last_activity_time_ms",
                    "Google Photos shared album last activity",
                    unix_millis,
                ),
                (
                    "mark_as_read_time_ms",
                    "Google Photos shared album marked read",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The members of the shared albums, each a `gphotos:<actor id>` person.
fn members(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT m.rowid AS rid, m.envelope_media_key AS album_key, {} AS album, m.actor_id AS actor_id, CASE WHEN m.actor_id != '' THEN 'gphotos:' || m.actor_id END AS account, {}, {}, {}, {}, {}, {} FROM envelope_members m ORDER BY m.rowid",
        album_title(schema, "m.envelope_media_key"),
        member_col(schema, "gaia_id", "m.actor_id", "gaia_id"),
        member_col(schema, "display_name", "m.actor_id", "display_name"),
        member_col(
            schema,
            "profile_photo_url",
            "m.actor_id",
            "profile_photo_url"
        ),
        crate::calls::column_or_null(cols, "m.", "email", "email"),
        crate::calls::column_or_null(cols, "m.", "phone_number", "phone"),
        select_columns(
            cols,
            "m.",
            &[
                ("is_owner", "is_owner"),
                ("last_view_time_ms", "last_view_time_ms")
            ],
        ),
    );
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "envelope_members",
            category: "contacts",
            what: "a member of a Google Photos shared album or conversation (its actor id, Google account id and name as the app keeps them; e-mail and phone where this layout keeps them; owner flag as stored; last viewed Unix ms)",
            title: &|t, row| {
                format!(
                    "Google Photos sharing member {} ({})",
                    raw(t, row, "display_name")
                        .or_else(|| raw(t, row, "actor_id"))
                        .unwrap_or_else(|| "?".into()),
                    raw(t, row, "album")
                        .or_else(|| raw(t, row, "album_key"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("album_key", FactType::Identifier, "album key"),
                ("album", FactType::Name, "album"),
                ("actor_id", FactType::Account, "actor id"),
                ("gaia_id", FactType::Account, "Google account id"),
                ("display_name", FactType::Name, "name"),
                ("profile_photo_url", FactType::Url, "profile photo"),
                ("email", FactType::Email, "e-mail"),
                ("phone", FactType::Phone, "phone"),
                ("is_owner", FactType::Text, "owner"),
            ],
            times: &[(
                "last_view_time_ms",
                "Google Photos shared album last viewed by the member",
                unix_millis,
            )],
        },
        &mut |inv, t, row| {
            let Some(account) = t.get(row, "account") else {
                return Ok(());
            };
            let label = t.get(row, "display_name").unwrap_or(account).to_string();
            let album = t
                .get(row, "album")
                .or_else(|| t.get(row, "album_key"))
                .unwrap_or("?")
                .to_string();
            crate::identity::observe_columns(
                ctx,
                account,
                &label,
                t,
                row,
                inv,
                &[
                    ("account", IdType::AccountId, "The actor id"),
                    ("display_name", IdType::DisplayName, "The name"),
                    ("email", IdType::Email, "The e-mail address"),
                    ("phone", IdType::Phone, "The phone number"),
                ],
                &|what| {
                    format!(
                        "{what} of {label}, a member of the Google Photos shared album {album} ({file} envelope_members)."
                    )
                },
            )
        },
    )
}

/// The comments of the shared albums.
fn comments(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT c.rowid AS rid, c.envelope_media_key AS album_key, {} AS album, c.actor_media_key AS actor_id, CASE WHEN c.actor_media_key != '' THEN 'gphotos:' || c.actor_media_key END AS account, {}, {} FROM comments c ORDER BY c.rowid",
        album_title(schema, "c.envelope_media_key"),
        member_col(schema, "display_name", "c.actor_media_key", "author"),
        select_columns(
            cols,
            "c.",
            &[
                ("comment_id", "comment_id"),
                ("item_media_key", "item_media_key"),
                ("text", "text"),
                ("timestamp", "timestamp"),
            ],
        ),
    );
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "comments",
            category: "social",
            what: "a comment in a Google Photos shared album or conversation (its author's actor id and name, the item it is on; the time read as Unix ms or s by its size)",
            title: &|t, row| {
                format!(
                    "Google Photos comment by {} in {}",
                    raw(t, row, "author")
                        .or_else(|| raw(t, row, "actor_id"))
                        .unwrap_or_else(|| "?".into()),
                    raw(t, row, "album")
                        .or_else(|| raw(t, row, "album_key"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("comment_id", FactType::Identifier, "comment id"),
                ("album_key", FactType::Identifier, "album key"),
                ("album", FactType::Name, "album"),
                ("item_media_key", FactType::Identifier, "item"),
                ("actor_id", FactType::Account, "author actor id"),
                ("author", FactType::Name, "author"),
                ("text", FactType::Text, "text"),
            ],
            times: &[("timestamp", "Google Photos comment", unix_by_magnitude)],
        },
        &mut |inv, t, row| {
            let Some(account) = t.get(row, "account") else {
                return Ok(());
            };
            let label = t.get(row, "author").unwrap_or(account).to_string();
            observe(
                ctx,
                account,
                EntityKind::Person,
                &label,
                IdType::AccountId,
                account,
                inv,
                format!(
                    "The actor id of {label}, who wrote a comment in a Google Photos shared album ({file} comments)."
                ),
            )?;
            Ok(())
        },
    )
}

/// `local_trash.db`: the app's trash, each item with its trash file when the folder holds it.
fn trash(ctx: &AgentCtx<'_>, l: &Located, name: &str, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = Tables::one(
        ctx,
        name,
        "Google Photos' local_trash.db",
        schema,
        "local",
        &["local_path"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS rid, local_path, {} FROM local ORDER BY rowid",
        select_columns(
            cols,
            "",
            &[
                ("content_uri", "content_uri"),
                ("trash_file_name", "trash_file_name"),
                ("media_store_id", "media_store_id"),
                ("is_video", "is_video"),
                ("deleted_time", "deleted_time"),
            ],
        ),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "trashed items")?;
    // the trash folder beside the databases: `<app>/files/trash_files/`
    let listing = match l.path.strip_suffix("/databases/local_trash.db") {
        Some(app) => {
            let dir = format!("{app}/files/trash_files");
            let inv = ctx.call(
                "find_files",
                args_on(
                    &l.tree,
                    json!({"path": dir, "name_globs": ["*"], "limit": super::MAX_ROWS + 1}),
                ),
            )?;
            crate::calls::succeeded(&inv).then_some(inv)
        }
        None => None,
    };
    let files = listing
        .as_ref()
        .map(|i| crate::outputs::listed_files(&i.output.text))
        .unwrap_or_default();
    for (inv, t, row) in pages.rows() {
        let shown = raw(t, row, "local_path").unwrap_or_else(|| "?".into());
        let mut d = Draft::new("files", format!("Google Photos trashed item {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("local_path", FactType::Path, "original path"),
                ("content_uri", FactType::Url, "content URI"),
                ("trash_file_name", FactType::Name, "trash file name"),
                ("media_store_id", FactType::Identifier, "media store id"),
                ("is_video", FactType::Text, "is video"),
            ],
        );
        let kept = t
            .get(row, "trash_file_name")
            .and_then(|n| files.iter().find(|f| f.path.rsplit('/').next() == Some(n)));
        if let (Some(f), Some(listing)) = (kept, listing.as_ref()) {
            d.fact(FactType::Path, Some(&f.path), listing);
            d.fact(FactType::Count, Some(&f.size), listing);
        }
        let deleted = t.get(row, "deleted_time");
        d.time(
            deleted,
            unix_millis(deleted),
            "Google Photos item moved to the trash",
            inv,
        );
        d.interpretation = format!(
            "local row {} of {}: an item moved to Google Photos' trash ({}); {}; deleted_time Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            said.join(", "),
            match kept {
                Some(f) => format!(
                    "the trash folder still holds its file, {} ({} bytes)",
                    f.path, f.size
                ),
                None => "no file of its trash name is listed in files/trash_files".to_string(),
            }
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `disk_cache`: the image cache's journal.
fn cache(ctx: &AgentCtx<'_>, l: &Located, name: &str, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = Tables::one(
        ctx,
        name,
        "Google Photos' disk_cache",
        schema,
        "journal",
        &["key"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS rid, key, {} FROM journal ORDER BY rowid",
        select_columns(
            cols,
            "",
            &[
                ("size", "size"),
                ("pending_delete", "pending_delete"),
                ("last_modified_time", "last_modified_time"),
            ],
        ),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "journal",
            category: "media",
            what: "an entry of Google Photos' image cache (its key, size and pending-delete flag as stored; last modified Unix ms); the cached image is not read",
            title: &title_of("Google Photos cache entry", &["key"]),
            fields: &[
                ("key", FactType::Identifier, "key"),
                ("size", FactType::Count, "size (bytes)"),
                ("pending_delete", FactType::Text, "pending delete"),
            ],
            times: &[(
                "last_modified_time",
                "Google Photos cache entry last modified",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_paths_and_older_tables() {
        assert!(is_store_path(
            "/data/data/com.google.android.apps.photos/databases/gphotos0.db"
        ));
        assert!(!is_store_path(
            "/data/data/com.example/databases/local_trash.db"
        ));
        let sql = local_media_sql(&cols(&["filepath", "filename"]));
        assert!(sql.contains("NULL AS utc_timestamp"), "{sql}");
        assert!(sql.contains("NULL AS capture_local"), "{sql}");
    }
}
