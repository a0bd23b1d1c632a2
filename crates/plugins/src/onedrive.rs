//! Microsoft OneDrive's metadata store, `QTMetadata.db`, the same on Android
//! (`com.microsoft.skydrive/files/`) and iOS (`DatabaseQT/` or `DatabaseQt/` of the app's group
//! container): ALEAPP's `OneDrive_Metadata` and iLEAPP's `oneDrive` (files, accounts and drives,
//! sharing permissions, stream cache).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `items` | one `files` per file or folder ("OneDrive item <name>") | name, extension, the folder path (walked up `parentRid` to each parent's `resourceId` in the query), size, item and icon type, deleted state, sharing level, vault type (the Personal Vault), offline, owner name and CID, shared by (name, e-mail), file hash and its type (or `sha1Hash`), position (latitude, longitude, altitude), camera make and model, resource id, the drive's path and account; item, created, modified on the client, last access, taken, shared and deleted dates (Unix ms) |
//! | `drives` (with `web_app`, `sync_root`) | one `accounts` per drive ("OneDrive drive <path>") | account id, drive resource id, path, display and canonical name, drive and server type, synced file count, web app and Microsoft Graph URLs, tenant hosts; last sync |
//! | `permission_entity` (through `permission` to `items`) | one `contacts` per sharing permission ("OneDrive sharing of <item> with <who>") | the entity's name, e-mail, role, type, link type and name, user id, scope, the item's name and resource id; expiration |
//! | `stream_cache` | one `files` per cached stream ("OneDrive cached <item>") | the item, stream type, sync state, progress, error code, stream location (a path in the app's data); last access, last sync, stream modified |
//!
//! Codes (item type, deleted state, sharing level, vault type, role…) are said as stored: no
//! value list ships with the store. Times are Unix milliseconds; zero and negative values are
//! not times (left out). Identities: each drive's account id is the device's user's
//! (`onedrive:<account id>`, `owner`), so a OneDrive account signed in on two phones links
//! them; whoever shared an item with the account and each person an item is shared with is a
//! correspondent (`handle:<e-mail>`). A store without `items` is noted; every column is taken
//! by name where the table has it (the hash columns changed across versions).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{RowPhenomena, record_rows, unix_millis};
use crate::identity::{TreeRef, artefact_name, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `path` is OneDrive's `QTMetadata.db` (Android's app folder, iOS's `DatabaseQT`).
pub fn is_store(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or(path);
    let parent = parts.next().unwrap_or_default();
    name == "QTMetadata.db"
        && (path.contains("/com.microsoft.skydrive/") || parent.eq_ignore_ascii_case("DatabaseQT"))
}

/// One `QTMetadata.db`.
pub fn read(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let empty = BTreeSet::new();
    let cols = |t: &str| schema.get(t).unwrap_or(&empty);
    let items = cols("items");
    if !require_columns(
        ctx,
        &name,
        "OneDrive's QTMetadata.db",
        "items",
        items,
        &["_id", "name"],
    )? {
        return Ok(());
    }
    let drives = cols("drives");
    let has_drives = ["_id", "accountId"].iter().all(|c| drives.contains(*c));
    files(ctx, tree, path, found, items, has_drives.then_some(drives))?;
    if has_drives {
        accounts(
            ctx,
            tree,
            path,
            found,
            drives,
            cols("web_app"),
            cols("sync_root"),
        )?;
    }
    let pe = cols("permission_entity");
    if pe.contains("_id") {
        sharing(ctx, tree, path, found, pe, cols("permission"), items)?;
    }
    let sc = cols("stream_cache");
    if sc.contains("_id") {
        streams(ctx, tree, path, found, sc, items)?;
    }
    Ok(())
}

/// Each `items` row with its folder path.
fn files(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    c: &BTreeSet<String>,
    drives: Option<&BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let i = |col: &str| column_or_null(c, "i.", col, col);
    // the folder path: each item's own path from the tree's roots down (a parent that does not
    // resolve starts a root), bounded against cycles; an item's folder is its parent's path
    let folder = if ["resourceId", "parentRid"].iter().all(|x| c.contains(*x)) {
        (
            "WITH RECURSIVE walk(rid, path, depth) AS (SELECT r.resourceId, coalesce(r.name, ''), 0 FROM items r WHERE r.resourceId IS NOT NULL AND NOT EXISTS (SELECT 1 FROM items p WHERE p.resourceId = r.parentRid) UNION SELECT k.resourceId, w.path || '/' || coalesce(k.name, ''), w.depth + 1 FROM walk w JOIN items k ON k.parentRid = w.rid WHERE w.depth < 64 AND k.resourceId IS NOT NULL), folders AS (SELECT rid, min(path) AS path FROM walk GROUP BY rid) ",
            "f.path AS folder",
            " LEFT JOIN folders f ON f.rid = i.parentRid",
        )
    } else {
        ("", "NULL AS folder", "")
    };
    let (drive_cols, drive_join) = match drives {
        Some(d) => (
            format!(
                "{}, d.accountId AS account",
                column_or_null(d, "d.", "drivePath", "drive_path")
            ),
            if c.contains("driveId") {
                " LEFT JOIN drives d ON d._id = i.driveId"
            } else {
                " LEFT JOIN drives d ON 0"
            },
        ),
        None => ("NULL AS drive_path, NULL AS account".to_string(), ""),
    };
    let hash = if c.contains("fileHash") {
        "i.fileHash AS hash".to_string()
    } else {
        column_or_null(c, "i.", "sha1Hash", "hash")
    };
    let cols = [
        "extension",
        "size",
        "itemType",
        "iconType",
        "deletedState",
        "sharingLevelValue",
        "vaultType",
        "isOffline",
        "ownerName",
        "ownerCid",
        "sharedByDisplayName",
        "sharedByEmail",
        "fileHashType",
        "latitude",
        "longitude",
        "altitude",
        "cameraMake",
        "cameraModel",
        "resourceId",
        "itemDate",
        "creationDate",
        "modifiedDateOnClient",
        "lastAccess",
        "dateTaken",
        "dateShared",
        "deletedDateTime",
    ]
    .iter()
    .map(|col| i(col))
    .collect::<Vec<_>>()
    .join(", ");
    let (with, folder_col, folder_join) = folder;
    let sql = format!(
        "{with}SELECT i._id AS rid, i.name AS name, {folder_col}, {cols}, {hash}, {drive_cols} FROM items i{folder_join}{drive_join} ORDER BY i._id"
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "OneDrive item {}",
            match (raw(t, row, "folder"), raw(t, row, "name")) {
                (Some(f), Some(n)) => format!("{f}/{n}"),
                (_, n) => n.unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string()),
            }
        )
    };
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &artefact_name(tree, path), &pages, "OneDrive items")?;
    record_rows(
        ctx,
        path,
        found,
        &pages,
        &RowPhenomena {
            table: "items",
            category: "files",
            what: "a file or folder of the OneDrive account as the app knew it (codes as stored; the folder walked up parentRid; times Unix milliseconds)",
            title: &title,
            fields: &[
                ("name", FactType::Name, "name"),
                ("extension", FactType::Text, "extension"),
                ("folder", FactType::Path, "folder"),
                ("size", FactType::Count, "size (bytes)"),
                ("itemType", FactType::Text, "item type"),
                ("iconType", FactType::Text, "icon type"),
                ("deletedState", FactType::Text, "deleted state"),
                ("sharingLevelValue", FactType::Text, "sharing level"),
                ("vaultType", FactType::Text, "vault type"),
                ("isOffline", FactType::Text, "offline"),
                ("ownerName", FactType::Name, "owner"),
                ("ownerCid", FactType::Account, "owner CID"),
                ("sharedByDisplayName", FactType::Name, "shared by"),
                ("sharedByEmail", FactType::Email, "shared by e-mail"),
                ("hash", FactType::Hash, "hash"),
                ("fileHashType", FactType::Text, "hash type"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("altitude", FactType::Text, "altitude"),
                ("cameraMake", FactType::Text, "camera make"),
                ("cameraModel", FactType::Text, "camera model"),
                ("resourceId", FactType::Identifier, "resource id"),
                ("drive_path", FactType::Text, "drive"),
                ("account", FactType::Account, "account"),
            ],
            times: &[
                ("itemDate", "OneDrive item date", unix_millis),
                ("creationDate", "OneDrive item created", unix_millis),
                (
                    "modifiedDateOnClient",
                    "OneDrive item modified on the client",
                    unix_millis,
                ),
                ("lastAccess", "OneDrive item last accessed", unix_millis),
                ("dateTaken", "Photo taken (OneDrive)", unix_millis),
                ("dateShared", "OneDrive item shared", unix_millis),
                ("deletedDateTime", "OneDrive item deleted", unix_millis),
            ],
        },
        &mut |inv, t, row| {
            let Some(list) = t.get(row, "sharedByEmail") else {
                return Ok(());
            };
            crate::identity::observe_correspondents(ctx, list, &BTreeSet::new(), inv, &|who| {
                format!(
                    "{who} shared the OneDrive item {} with the account (items of {path}).",
                    t.get(row, "name").unwrap_or("?")
                )
            })
        },
    )
}

/// Each drive with its account, web app and sync root.
fn accounts(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    d: &BTreeSet<String>,
    w: &BTreeSet<String>,
    s: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let dc = |col: &str| column_or_null(d, "d.", col, col);
    let (web, web_join) = if w.contains("accountId") {
        (
            format!(
                "{}, {}, {}",
                column_or_null(w, "w.", "webAppUrl", "webAppUrl"),
                column_or_null(w, "w.", "microsoftGraphUrl", "microsoftGraphUrl"),
                column_or_null(w, "w.", "tenantHosts", "tenantHosts"),
            ),
            " LEFT JOIN web_app w ON w.accountId = d.accountId",
        )
    } else {
        (
            "NULL AS webAppUrl, NULL AS microsoftGraphUrl, NULL AS tenantHosts".to_string(),
            "",
        )
    };
    let (sync, sync_join) = if s.contains("driveId") {
        (
            format!(
                "{}, {}",
                column_or_null(s, "s.", "lastSyncTime", "lastSyncTime"),
                column_or_null(s, "s.", "syncedFileCount", "syncedFileCount"),
            ),
            " LEFT JOIN sync_root s ON s.driveId = d._id",
        )
    } else {
        (
            "NULL AS lastSyncTime, NULL AS syncedFileCount".to_string(),
            "",
        )
    };
    let sql = format!(
        "SELECT d._id AS rid, d.accountId AS accountId, 'onedrive:' || d.accountId AS qualified, {}, {}, {}, {}, {}, {}, {web}, {sync} FROM drives d{web_join}{sync_join} WHERE d.accountId IS NOT NULL AND d.accountId != '' ORDER BY d._id",
        dc("driveResourceId"),
        dc("drivePath"),
        dc("driveDisplayName"),
        dc("driveCanonicalName"),
        dc("driveType"),
        dc("serverType"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "OneDrive drive {}",
            raw(t, row, "drivePath")
                .or_else(|| raw(t, row, "driveDisplayName"))
                .unwrap_or_else(|| t.get(row, "accountId").unwrap_or("?").to_string())
        )
    };
    record_rows(
        ctx,
        path,
        found,
        &pages,
        &RowPhenomena {
            table: "drives",
            category: "accounts",
            what: "a OneDrive drive of an account signed in to the app (types as stored; last sync Unix milliseconds)",
            title: &title,
            fields: &[
                ("accountId", FactType::Account, "account"),
                ("driveResourceId", FactType::Identifier, "drive resource id"),
                ("drivePath", FactType::Text, "drive path"),
                ("driveDisplayName", FactType::Name, "display name"),
                ("driveCanonicalName", FactType::Text, "canonical name"),
                ("driveType", FactType::Text, "drive type"),
                ("serverType", FactType::Text, "server type"),
                ("syncedFileCount", FactType::Count, "synced files"),
                ("webAppUrl", FactType::Url, "web app"),
                ("microsoftGraphUrl", FactType::Url, "Microsoft Graph"),
                ("tenantHosts", FactType::Text, "tenant hosts"),
            ],
            times: &[("lastSyncTime", "OneDrive drive last synced", unix_millis)],
        },
        &mut |inv, t, row| {
            crate::identity::observe_owner_ids(
                ctx,
                inv,
                vec![(
                    raw(t, row, "qualified"),
                    IdType::AccountId,
                    "The OneDrive account id",
                )],
                &|what| {
                    format!(
                        "{what} of a drive signed in to OneDrive on the device (drives of {path}), the device's user's account."
                    )
                },
            )
        },
    )
}

/// Each sharing permission with the item it attaches to.
fn sharing(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    pe: &BTreeSet<String>,
    perm: &BTreeSet<String>,
    items: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let e = |col: &str| column_or_null(pe, "pe.", col, col);
    let joined = pe.contains("parentId") && ["_id", "parentId"].iter().all(|c| perm.contains(*c));
    let (item, join) = if joined {
        (
            format!(
                "i.name AS item, {}",
                column_or_null(items, "i.", "resourceId", "item_rid")
            ),
            " LEFT JOIN permission p ON p._id = pe.parentId LEFT JOIN items i ON i._id = p.parentId",
        )
    } else {
        ("NULL AS item, NULL AS item_rid".to_string(), "")
    };
    let sql = format!(
        "SELECT pe._id AS rid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {item} FROM permission_entity pe{join} ORDER BY pe._id",
        e("permissionEntityName"),
        e("permissionEntityEmail"),
        e("permissionEntityRole"),
        e("permissionEntityType"),
        e("permissionEntityLinkType"),
        e("permissionEntityLinkName"),
        e("permissionEntityExpiration"),
        e("permissionEntityUserId"),
        e("permissionScopeResourceName"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "OneDrive sharing of {} with {}",
            t.get(row, "item").unwrap_or("?"),
            t.get(row, "permissionEntityEmail")
                .or_else(|| t.get(row, "permissionEntityName"))
                .or_else(|| t.get(row, "permissionEntityLinkType"))
                .unwrap_or("?")
        )
    };
    record_rows(
        ctx,
        path,
        found,
        &pages,
        &RowPhenomena {
            table: "permission_entity",
            category: "contacts",
            what: "who or what link an item of the OneDrive account is shared with (role, type and link type as stored; expiration Unix milliseconds)",
            title: &title,
            fields: &[
                ("permissionEntityName", FactType::Name, "name"),
                ("permissionEntityEmail", FactType::Email, "e-mail"),
                ("permissionEntityRole", FactType::Text, "role"),
                ("permissionEntityType", FactType::Text, "type"),
                ("permissionEntityLinkType", FactType::Text, "link type"),
                ("permissionEntityLinkName", FactType::Text, "link name"),
                ("permissionEntityUserId", FactType::Account, "user id"),
                ("permissionScopeResourceName", FactType::Text, "scope"),
                ("item", FactType::Name, "item"),
                ("item_rid", FactType::Identifier, "item resource id"),
            ],
            times: &[(
                "permissionEntityExpiration",
                "OneDrive sharing expires",
                unix_millis,
            )],
        },
        &mut |inv, t, row| {
            let Some(list) = t.get(row, "permissionEntityEmail") else {
                return Ok(());
            };
            crate::identity::observe_correspondents(ctx, list, &BTreeSet::new(), inv, &|who| {
                format!(
                    "The OneDrive item {} is shared with {who} (permission_entity of {path}).",
                    t.get(row, "item").unwrap_or("?")
                )
            })
        },
    )
}

/// Each cached stream with its item.
fn streams(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    sc: &BTreeSet<String>,
    items: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let s = |col: &str| column_or_null(sc, "sc.", col, col);
    let (item, join) = if sc.contains("parentId") {
        (
            format!(
                "i.name AS item, {}",
                column_or_null(items, "i.", "resourceId", "item_rid")
            ),
            " LEFT JOIN items i ON i._id = sc.parentId",
        )
    } else {
        ("NULL AS item, NULL AS item_rid".to_string(), "")
    };
    let sql = format!(
        "SELECT sc._id AS rid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {item} FROM stream_cache sc{join} ORDER BY sc._id",
        s("stream_location"),
        s("streamType"),
        s("sync_state"),
        s("progress"),
        s("error_code"),
        s("last_access_date"),
        s("last_sync_date"),
        s("stream_last_modification_date"),
        s("parentId"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "OneDrive cached {}",
            t.get(row, "item")
                .or_else(|| t.get(row, "stream_location"))
                .unwrap_or("?")
        )
    };
    record_rows(
        ctx,
        path,
        found,
        &pages,
        &RowPhenomena {
            table: "stream_cache",
            category: "files",
            what: "a stream of a OneDrive item the app kept on the device (its content at the stream location, as stored in the app's data; codes as stored; times Unix milliseconds)",
            title: &title,
            fields: &[
                ("item", FactType::Name, "item"),
                ("item_rid", FactType::Identifier, "item resource id"),
                ("stream_location", FactType::Path, "stream location"),
                ("streamType", FactType::Text, "stream type"),
                ("sync_state", FactType::Text, "sync state"),
                ("progress", FactType::Text, "progress"),
                ("error_code", FactType::Text, "error code"),
            ],
            times: &[
                (
                    "last_access_date",
                    "OneDrive stream last accessed",
                    unix_millis,
                ),
                ("last_sync_date", "OneDrive stream last synced", unix_millis),
                (
                    "stream_last_modification_date",
                    "OneDrive stream modified",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}
