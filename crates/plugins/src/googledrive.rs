//! Google Drive's DriveKit store, `cello.db`, the same on iOS (`Documents/drivekit/users/
//! <account id>/cello/` or `gdx-cello/` of the app's container: Google Drive, Docs, Sheets,
//! Gmail and Chat embed the library) and Android (`com.google.android.apps.docs/app_cello/
//! <account>/`): iLEAPP's `googleDrive` (`google_drive_accounts`, `google_drive_items`) and
//! ALEAPP's `Cello`: the files and folders of the Google account the app cached, where each
//! sits, whose it is, whether it was shared with the account or trashed, when it was made,
//! changed, viewed.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `properties` (`driveway_account`, or `account` in older stores; `root_id`) | one `accounts` per store ("Google Drive account <e-mail>") | the account folder the path names; from the account message (read by `sqlite_query`'s `protobuf`; 2.1 in `driveway_account`, 1 in `account`): account id (2), e-mail (8), name (9, or 3 in older stores), profile image URL (5), each kept only when it has its shape (digits, an address, a URL), as iLEAPP keeps them; the root folder's id and title |
//! | `items` (with `stable_parents`, `item_properties`) | one `files` per file or folder ("Google Drive item <folder>/<title>") | title, Drive id, the folder path (walked up `stable_parents` in the query, one parent per item), MIME type, folder, size (`quota_bytes`), starred, owned by the account (`is_owner`), trashed, explicitly trashed, hidden, offline status (`offlineStatus`, as stored); created, modified, modified by the account, last viewed by the account, shared with the account, trashed, the offline copy's last change (`offlineLastModifiedDate`) — Unix ms, 0 no time |
//!
//! The store is a cache: it lists what the app fetched, not the whole Drive. Columns are taken
//! by name (older stores have no `trashed_date`); a `cello.db` without `items` is noted. Not
//! read: the content and thumbnails cached under `files/` and `thumbnails/`, the comments
//! stores, the app that owns the container (iLEAPP reads its metadata property list).
//!
//! Identities: the account is the device user's (`owner`): the folder's account id (a Google
//! account id, GAIA, as Google Voice and Google Chat observe it; on Android the folder is named
//! by the e-mail address), and the account message's id, e-mail and name.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use crate::calls::{note_pages_cap, require_columns, select_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, record_rows, unix_millis};
use crate::identity::{TreeRef, artefact_name, observe, pages_on, query_on_with, schema_on};
use crate::outputs::{in_json_cell, protobuf_cell};

/// The account folder of a `cello.db` path: iOS's `drivekit/users/<account>/<…cello>/`,
/// Android's `com.google.android.apps.docs/app_cello/<account>/`.
pub fn account_of(path: &str) -> Option<&str> {
    let mut parts = path.rsplit('/');
    if parts.next()? != "cello.db" {
        return None;
    }
    let parent = parts.next()?;
    if parent.ends_with("cello") {
        let account = parts.next()?;
        return (parts.next()? == "users" && parts.next()? == "drivekit" && !account.is_empty())
            .then_some(account);
    }
    (parts.next()? == "app_cello"
        && parts.next()? == "com.google.android.apps.docs"
        && !parent.is_empty())
    .then_some(parent)
}

/// Whether `path` is a DriveKit `cello.db` (iOS or Android).
pub fn is_store(path: &str) -> bool {
    account_of(path).is_some()
}

/// One `cello.db`.
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
        "Google Drive's cello.db",
        "items",
        items,
        &["id", "title"],
    )? {
        return Ok(());
    }
    let props = cols("properties");
    account(
        ctx,
        tree,
        path,
        found,
        props.contains("property") && props.contains("value"),
    )?;
    files(
        ctx,
        tree,
        path,
        found,
        items,
        cols("stable_parents"),
        cols("item_properties"),
    )
}

/// The value at `path` (field numbers joined by `.`) of a decoded message (each field an
/// array: the first value taken at each step).
fn at<'a>(m: &'a Value, path: &str) -> Option<&'a Value> {
    let mut node = m;
    for field in path.split('.') {
        node = node.get(field)?.get(0)?;
    }
    Some(node)
}

/// The string at `path` of message `m` when `shape` accepts it and the `protobuf:` cell holds
/// it as written (no escaping: so that it grounds as an identifier).
fn text_at<'a>(m: &'a Value, path: &str, shape: fn(&str) -> bool) -> Option<&'a str> {
    at(m, path)
        .and_then(Value::as_str)
        .filter(|s| shape(s) && in_json_cell(s) == *s)
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn address(s: &str) -> bool {
    let Some((user, host)) = s.split_once('@') else {
        return false;
    };
    !user.is_empty() && host.contains('.') && !s.contains(char::is_whitespace)
}

fn url(s: &str) -> bool {
    s.starts_with("http://") || s.starts_with("https://") || s.starts_with("//")
}

fn name_shape(s: &str) -> bool {
    !s.trim().is_empty() && !s.contains('\0')
}

/// The account of the store: the folder the path names and the account message.
fn account(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    has_properties: bool,
) -> Result<(), RuntimeError> {
    let folder = account_of(path).unwrap_or("?");
    // observations cite the query, which does not hold the path: the file is named by its
    // account folder
    let why = |what: &str| {
        format!(
            "{what} of the Google account whose Drive the app cached (the cello.db of the account folder {folder}), the account signed in to the app on the device."
        )
    };
    // the folder: a Google account id on iOS, the account's e-mail address on Android
    let folder_type = if address(folder) {
        Some(IdType::Email)
    } else if (15..=25).contains(&folder.len()) && digits(folder) {
        Some(IdType::AccountId)
    } else {
        None
    };
    if let Some(ty) = folder_type {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            ty,
            folder,
            found,
            why("The account folder's name"),
        )?;
    }
    if !has_properties {
        return Ok(());
    }
    let sql = "SELECT p.property AS property, CASE WHEN p.property = 'root_id' THEN CAST(p.value AS TEXT) END AS root_id, CASE WHEN p.property = 'root_id' THEN (SELECT i.title FROM items i WHERE i.id = CAST(p.value AS TEXT) LIMIT 1) END AS root_title, CASE WHEN p.property != 'root_id' THEN p.value END AS account FROM properties p WHERE p.property IN ('driveway_account', 'account', 'root_id') ORDER BY p.property DESC";
    let Some((inv, t)) = query_on_with(ctx, tree, path, sql, 10, &["protobuf"])? else {
        return Ok(());
    };
    // the newer message first (`driveway_account` sorts after `account`)
    let message = t
        .rows
        .iter()
        .filter(|r| t.get(r, "property") != Some("root_id"))
        .find_map(|r| t.get(r, "account").and_then(protobuf_cell));
    let person = message.as_ref().and_then(|m| {
        at(m, "2.1")
            .filter(|a| a.get("2").is_some())
            .or_else(|| at(m, "1"))
    });
    let root = t
        .rows
        .iter()
        .find(|r| t.get(r, "property") == Some("root_id"));
    let id = person.and_then(|p| text_at(p, "2", digits));
    let email = person.and_then(|p| text_at(p, "8", address));
    let image = person.and_then(|p| text_at(p, "5", url));
    let name =
        person.and_then(|p| text_at(p, "9", name_shape).or_else(|| text_at(p, "3", name_shape)));
    let mut d = Draft::new(
        "accounts",
        format!("Google Drive account {}", email.or(id).unwrap_or(folder)),
    );
    d.fact(FactType::Path, Some(path), found);
    d.fact(FactType::Account, Some(folder), found);
    let mut said = vec![format!("account folder {folder}")];
    for (v, ft, label) in [
        (id, FactType::Account, "account id"),
        (email, FactType::Email, "e-mail"),
        (name, FactType::Name, "name"),
        (image, FactType::Url, "profile image"),
    ] {
        if let Some(v) = v {
            d.fact(ft, Some(v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    if let Some(r) = root {
        for (col, ft, label) in [
            ("root_id", FactType::Identifier, "root folder id"),
            ("root_title", FactType::Name, "root folder"),
        ] {
            if let Some(v) = crate::outputs::raw(&t, r, col) {
                d.fact(ft, Some(&v), &inv);
                said.push(format!("{label} {v}"));
            }
        }
    }
    d.interpretation = format!(
        "properties of {path}: the Google account whose Drive the app cached, the device user's ({}); the account fields are read from the account message as iLEAPP reads them, each only when it has its shape.",
        said.join("; ")
    );
    record_draft(ctx, d)?;
    for (v, ty, what) in [
        (id, IdType::AccountId, "The Google account id"),
        (email, IdType::Email, "The e-mail address"),
        (name, IdType::DisplayName, "The name"),
    ] {
        if let Some(v) = v {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                ty,
                v,
                &inv,
                why(what),
            )?;
        }
    }
    Ok(())
}

/// Each `items` row with its folder path and offline state.
fn files(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    c: &BTreeSet<String>,
    parents: &BTreeSet<String>,
    props: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let stable = c.contains("stable_id");
    // each item's folder: its parents' titles from the top down (one parent per item, as
    // iLEAPP takes one; bounded against cycles)
    let (with, folder, join) = if stable
        && ["item_stable_id", "parent_stable_id"]
            .iter()
            .all(|x| parents.contains(*x))
    {
        (
            "WITH RECURSIVE parent(item, up) AS (SELECT item_stable_id, min(parent_stable_id) FROM stable_parents GROUP BY item_stable_id), walk(item, at, path, depth) AS (SELECT p.item, p.up, coalesce((SELECT t.title FROM items t WHERE t.stable_id = p.up), ''), 1 FROM parent p UNION ALL SELECT w.item, p.up, coalesce((SELECT t.title FROM items t WHERE t.stable_id = p.up), '') || '/' || w.path, w.depth + 1 FROM walk w JOIN parent p ON p.item = w.at WHERE w.depth < 64), folders AS (SELECT item, path FROM (SELECT item, path, row_number() OVER (PARTITION BY item ORDER BY depth DESC) AS n FROM walk) WHERE n = 1) ",
            "f.path AS folder",
            " LEFT JOIN folders f ON f.item = i.stable_id",
        )
    } else {
        ("", "NULL AS folder", "")
    };
    let property = |key: &str, alias: &str| {
        if stable
            && ["item_stable_id", "key", "value"]
                .iter()
                .all(|x| props.contains(*x))
        {
            format!(
                "(SELECT v.value FROM item_properties v WHERE v.item_stable_id = i.stable_id AND v.key = '{key}' LIMIT 1) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let order = if stable { "i.stable_id" } else { "i.rowid" };
    let sql = format!(
        "{with}SELECT i.id AS item_id, i.title AS title, {folder}, {}, {}, {} FROM items i{join} ORDER BY {order}",
        select_columns(
            c,
            "i.",
            &[
                ("mime_type", "mime_type"),
                ("is_folder", "is_folder"),
                ("quota_bytes", "quota_bytes"),
                ("starred", "starred"),
                ("is_owner", "is_owner"),
                ("trashed", "trashed"),
                ("explicitly_trashed", "explicitly_trashed"),
                ("hidden", "hidden"),
                ("created_date", "created_date"),
                ("modified_date", "modified_date"),
                ("modified_by_me_date", "modified_by_me_date"),
                ("viewed_by_me_date", "viewed_by_me_date"),
                ("shared_with_me_date", "shared_with_me_date"),
                ("trashed_date", "trashed_date"),
            ],
        ),
        property("offlineStatus", "offline_status"),
        property("offlineLastModifiedDate", "offline_modified"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(
        ctx,
        &artefact_name(tree, path),
        &pages,
        "Google Drive items",
    )?;
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        let name = t
            .get(row, "title")
            .or_else(|| t.get(row, "item_id"))
            .unwrap_or("?");
        match t.get(row, "folder") {
            Some(f) => format!("Google Drive item {f}/{name}"),
            None => format!("Google Drive item {name}"),
        }
    };
    record_rows(
        ctx,
        path,
        found,
        &pages,
        &RowPhenomena {
            table: "items",
            category: "files",
            what: "a file or folder of the Google account's Drive the app cached (is_owner 1: the account owns it; shared_with_me_date: when it was shared with the account; flags and offline status as stored; the folder walked up stable_parents; times Unix milliseconds)",
            title: &title,
            fields: &[
                ("title", FactType::Name, "title"),
                ("item_id", FactType::Identifier, "Drive id"),
                ("folder", FactType::Path, "folder"),
                ("mime_type", FactType::Text, "MIME type"),
                ("is_folder", FactType::Text, "folder flag"),
                ("quota_bytes", FactType::Count, "size (bytes)"),
                ("starred", FactType::Text, "starred"),
                ("is_owner", FactType::Text, "owned by the account"),
                ("trashed", FactType::Text, "trashed"),
                ("explicitly_trashed", FactType::Text, "explicitly trashed"),
                ("hidden", FactType::Text, "hidden"),
                ("offline_status", FactType::Text, "offline status"),
            ],
            times: &[
                ("created_date", "Google Drive item created", unix_millis),
                ("modified_date", "Google Drive item modified", unix_millis),
                (
                    "modified_by_me_date",
                    "Google Drive item modified by the account",
                    unix_millis,
                ),
                (
                    "viewed_by_me_date",
                    "Google Drive item last viewed by the account",
                    unix_millis,
                ),
                (
                    "shared_with_me_date",
                    "Google Drive item shared with the account",
                    unix_millis,
                ),
                ("trashed_date", "Google Drive item trashed", unix_millis),
                (
                    "offline_modified",
                    "Google Drive item's offline copy last modified",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

#[cfg(test)]
mod tests {
    use super::{account_of, is_store};

    #[test]
    fn the_account_folder_of_each_layout() {
        assert_eq!(
            account_of(
                "/private/var/mobile/Containers/Data/Application/X/Documents/drivekit/users/104857361234567890123/cello/cello.db"
            ),
            Some("104857361234567890123")
        );
        assert_eq!(
            account_of("/x/Documents/drivekit/users/1177/gdx-cello/cello.db"),
            Some("1177")
        );
        assert_eq!(
            account_of("/data/data/com.google.android.apps.docs/app_cello/a@example.com/cello.db"),
            Some("a@example.com")
        );
        assert!(!is_store("/x/Documents/cello/cello.db"));
        assert!(!is_store(
            "/data/data/other.app/app_cello/a@example.com/cello.db"
        ));
    }
}
