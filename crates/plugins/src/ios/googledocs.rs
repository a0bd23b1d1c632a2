//! Google Docs and Google Sheets (`Containers/Data/Application/<id>/` of each app), iLEAPP's
//! `googleDocs` ("Google Docs - Documents", "Document Sync State", "Accounts") and
//! `googleSheets` ("Google Sheets - Documents", "Accounts and App State"): the documents and
//! spreadsheets each Google account signed in to the app kept offline, their titles, whether
//! the account owns them, when they were made, changed on the server, synced and last opened in
//! the app; the accounts the app's preferences name.
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `Library/Preferences/com.google.Docs.plist`, `com.google.Sheets.plist` | one `accounts` per account id the preferences name ("Google Docs account <id>", "Google Sheets account <id>") | the account id (a Google account id of 15–25 digits, read from the key names `userid:<id>`, `GNPRepresentativeTargetIDKey-<id>`, `GNPRenderContextStorage-<app>-<id>-…`, `shared_container_id_to_folder_<id>`, the values of `shared_container_folder_to_id_*` and `signed_in_user_id`, the members of `MDMACMStorage`), each key naming it, whether it is `signed_in_user_id` |
//! | `Documents/<account id>/localStore/documents/<document id>/<document id>.db` `document_properties` (with `localStore/shared/documentMetadata.db` `cross_document_metadata` by document id) | one `files` per document ("Google Docs document <title>", "Google Sheets spreadsheet <title>"; the document id when no title is kept) | the account folder; from the properties: title, id, document type, MIME type, owned by the account (`isOwner`: `true` or 1 owned; `false`, 0 or empty not owned, as the Sheets store writes it), revision, access level (`acl`, as stored), jobset; the signed-in account's name, e-mail, id and photo (`docosKeyData[8]` items 0, 7, 3, 2); created (`docCreationTimestamp`), last modified on the server, last synced, last server snapshot, last cold and warm start in the app (Unix ms); from the metadata row: document type, server update (ms and seconds columns), last sync finished (Unix s), pending changes, fast track, needs snapshot, sync failures, all pending commands persisted, jobset, resource key (as stored) |
//!
//! `document_properties` holds one row per property: a name, a type code and a value blob. As
//! iLEAPP established on real stores, code 0 is UTF-8 text, 2 JSON text and 1 an 8-byte
//! little-endian IEEE 754 double (every one a whole number: counts, revisions and Unix ms). The
//! query pivots the properties into one row and decodes each double with integer arithmetic on
//! the blob's `hex()` (sign, exponent and mantissa; a whole number printed as an integer, a
//! fraction as a real, an infinity, NaN or subnormal as NULL), so every value is in its output.
//! The cold and warm start times are when the app's editor last loaded and last resumed the
//! document: the store's nearest record of when it was last opened (said). A document with no
//! title had never synced (iLEAPP). A store is the app's offline copy of what the account opened
//! or had pinned, not the account's whole Drive; a document shared with the account can be
//! kept (owned: not owned). Document text (`document_commands`), media, comments, templates and
//! the app's other preferences are not read.
//!
//! Google Docs, Sheets and Slides share the `localStore` layout, so a store is read only under a
//! container holding Docs' or Sheets' preferences file (iLEAPP's guard; Slides' containers are
//! left alone), found from the one search's `localStore` folders (`find_files` then lists each
//! one's databases). A store and its metadata row make one phenomenon; a store without a row and
//! a row without a store each make their own. Columns are taken by name (older metadata stores
//! lack `last_sync_finish_timestamp`, `is_fast_track`, `resource_key`); a document store without
//! `document_properties` (its `name`, `type`, `value`) or a `documentMetadata.db` without
//! `cross_document_metadata.document_id` is noted, as is a file no database, and the rest of the
//! container is still read.
//!
//! Identities: the device user's (`owner`): the account folder's name (a Google account id, as
//! the Google Drive and Google Voice readers observe it), `docosKeyData`'s account id, e-mail and
//! name (the signed-in account, not the document's creator: iLEAPP found it on documents the
//! account does not own), and the preferences' `signed_in_user_id`. The other account ids the
//! preferences name (the app kept state for them; they may have been signed out) are facts only.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse;
use super::{Draft, Run, file_name};
use crate::calls::select_columns;
use crate::drafts::{Encoding, unix_millis, unix_seconds};
use crate::outputs::{Table, raw};

/// The apps whose containers are read: (preferences file, app, what one of its files is).
const APPS: [(&str, &str, &str); 2] = [
    ("com.google.Docs.plist", "Google Docs", "document"),
    ("com.google.Sheets.plist", "Google Sheets", "spreadsheet"),
];

/// The folder of an account's stores (`Documents/<account id>/localStore`).
const LOCAL_STORE: &str = "localStore";
/// The per-document property table.
const PROPERTIES: &str = "document_properties";
/// The shared store of every document's sync state, and its table.
const METADATA_DB: &str = "documentMetadata.db";
const METADATA: &str = "cross_document_metadata";

/// Preference keys whose names carry an account id (after the prefix, between `-` or `:`).
const ACCOUNT_KEYS: [&str; 4] = [
    "userid:",
    "GNPRepresentativeTargetIDKey-",
    "GNPRenderContextStorage-",
    "shared_container_id_to_folder_",
];

/// `document_properties` rows pivoted: (property, column, fact type, label). The times are
/// listed in [`PROPERTY_TIMES`].
const PROPERTY_FIELDS: [(&str, &str, FactType, &str); 7] = [
    ("title", "title", FactType::Name, "title"),
    ("id", "doc_id", FactType::Identifier, "id"),
    ("documentType", "doc_type", FactType::Text, "document type"),
    ("mimeType", "mime_type", FactType::Text, "MIME type"),
    ("rev", "revision", FactType::Text, "revision"),
    ("acl", "access_level", FactType::Text, "access level"),
    ("jobset", "jobset", FactType::Text, "jobset"),
];

/// Time properties (Unix ms): (property, column, what happened).
const PROPERTY_TIMES: [(&str, &str, &str); 6] = [
    ("docCreationTimestamp", "created", "created"),
    (
        "lastModifiedServerTimestamp",
        "server_modified",
        "last modified on the server",
    ),
    ("lastSyncedTimestamp", "synced", "last synced to the device"),
    (
        "lastServerSnapshotTimestamp",
        "snapshot",
        "last server snapshot taken",
    ),
    (
        "lastColdStartedTimestamp",
        "cold_started",
        "last opened in the app (cold start)",
    ),
    (
        "lastWarmStartedTimestamp",
        "warm_started",
        "last resumed in the app (warm start)",
    ),
];

/// The signed-in account in `docosKeyData` (its item 8): (JSON path, column, fact type, label).
const ACCOUNT_FIELDS: [(&str, &str, FactType, &str); 4] = [
    ("$[8][0]", "account_name", FactType::Name, "account name"),
    (
        "$[8][7]",
        "account_email",
        FactType::Email,
        "account e-mail",
    ),
    ("$[8][3]", "account_id", FactType::Account, "account id"),
    ("$[8][2]", "account_photo", FactType::Url, "account photo"),
];

/// `cross_document_metadata` columns: (column, alias).
const METADATA_COLUMNS: [(&str, &str); 11] = [
    ("document_type", "m_type"),
    (
        "last_server_updated_timestamp_milliseconds",
        "server_updated_ms",
    ),
    ("drive_last_server_udated_timestamp", "server_updated_s"),
    ("last_sync_finish_timestamp", "sync_finished"),
    ("has_pending_changes", "pending"),
    ("is_fast_track", "fast_track"),
    ("needs_snapshot", "needs_snapshot"),
    ("sync_failures", "sync_failures"),
    ("all_pending_commands_persisted", "persisted"),
    ("jobset", "m_jobset"),
    ("resource_key", "resource_key"),
];

/// The metadata row's facts: (column, fact type, label).
const METADATA_FIELDS: [(&str, FactType, &str); 9] = [
    ("document_id", FactType::Identifier, "document id"),
    ("m_type", FactType::Text, "document type"),
    ("pending", FactType::Text, "has pending changes"),
    ("fast_track", FactType::Text, "fast track"),
    ("needs_snapshot", FactType::Text, "needs snapshot"),
    ("sync_failures", FactType::Count, "sync failures"),
    (
        "persisted",
        FactType::Text,
        "all pending commands persisted",
    ),
    ("m_jobset", FactType::Text, "jobset"),
    ("resource_key", FactType::Identifier, "resource key"),
];

/// One app's container.
struct App<'a> {
    name: &'static str,
    noun: &'static str,
    container: &'a str,
}

/// A document store read: its path and the query holding its one pivoted row.
struct Store {
    path: String,
    inv: Invoked,
    t: Table,
}

/// Triage of every Google Docs and Google Sheets container of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let dirs = run
        .find_dirs(LOCAL_STORE)?
        .map(|(_, d)| d)
        .unwrap_or_default();
    for (prefs, name, noun) in APPS {
        let Some((find, paths)) = run.find(prefs)? else {
            continue;
        };
        let tail = format!("/Library/Preferences/{prefs}");
        for path in paths.iter().filter(|p| p.ends_with(&tail)) {
            let app = App {
                name,
                noun,
                container: &path[..path.len() - tail.len()],
            };
            accounts(run, &app, &find, path)?;
            for dir in dirs
                .iter()
                .filter(|d| account_of(app.container, d).is_some())
            {
                local_store(run, &app, dir)?;
            }
        }
    }
    Ok(())
}

/// The account folder of `dir` when it is `<container>/Documents/<account>/localStore`.
fn account_of<'a>(container: &str, dir: &'a str) -> Option<&'a str> {
    let rest = dir.strip_prefix(container)?.strip_prefix("/Documents/")?;
    let account = rest.strip_suffix(&format!("/{LOCAL_STORE}"))?;
    (!account.is_empty() && !account.contains('/')).then_some(account)
}

/// The document id of `path` when it is `<dir>/documents/<id>/<id>.db`.
fn document_of<'a>(dir: &str, path: &'a str) -> Option<&'a str> {
    let rest = path.strip_prefix(dir)?.strip_prefix("/documents/")?;
    let (id, file) = rest.split_once('/')?;
    (!id.is_empty() && file.strip_suffix(".db") == Some(id)).then_some(id)
}

/// Whether `s` has the shape of a Google account id (GAIA: 15 to 25 digits).
fn gaia(s: &str) -> bool {
    (15..=25).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

/// The account ids the preferences name, each with the keys naming it.
fn account_ids(doc: &serde_json::Map<String, Value>) -> BTreeMap<String, Vec<String>> {
    let mut ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut add = |id: &str, key: &str| {
        if gaia(id) {
            let keys = ids.entry(id.to_string()).or_default();
            if !keys.iter().any(|k| k == key) {
                keys.push(key.to_string());
            }
        }
    };
    for (k, v) in doc {
        for prefix in ACCOUNT_KEYS {
            if let Some(rest) = k.strip_prefix(prefix) {
                for part in rest.split(['-', ':']) {
                    add(part, k);
                }
            }
        }
        if k.starts_with("shared_container_folder_to_id_")
            && let Some(id) = v.as_str()
        {
            add(id, k);
        }
        if k == "MDMACMStorage"
            && let Some(o) = v.as_object()
        {
            for id in o.keys() {
                add(id, k);
            }
        }
        if k == "signed_in_user_id"
            && let Some(id) = v.as_str()
        {
            add(id, k);
        }
    }
    ids
}

/// The accounts the app's preferences name.
fn accounts(
    run: &Run<'_, '_>,
    app: &App<'_>,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(obj) = doc.as_object() else {
        run.ctx.unparsed(
            path,
            &format!(
                "could not read the {} accounts because the preferences file is no dictionary",
                app.name
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let signed_in = obj.get("signed_in_user_id").and_then(Value::as_str);
    for (id, keys) in account_ids(obj) {
        let signed = signed_in == Some(id.as_str());
        let mut d = Draft::new("accounts", format!("{} account {id}", app.name));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, Some(&id), &inv);
        for k in &keys {
            d.fact(FactType::Text, Some(k), &inv);
        }
        d.interpretation = format!(
            "The {} preferences name the Google account id {id} (in {}){}",
            app.name,
            keys.join(", "),
            if signed {
                ": the account signed in to the app (signed_in_user_id), the device user's."
            } else {
                ": an account the app kept state for, not the one signed in when the file was last written (it may have been signed out)."
            }
        );
        run.record(d)?;
        if signed {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::AccountId,
                &id,
                &inv,
                format!(
                    "The Google account id signed in to {} on the device (signed_in_user_id of {}).",
                    app.name,
                    file_name(path)
                ),
            )?;
        }
    }
    Ok(())
}

/// Every store of one account folder.
fn local_store(run: &Run<'_, '_>, app: &App<'_>, dir: &str) -> Result<(), RuntimeError> {
    let Some(account) = account_of(app.container, dir) else {
        return Ok(());
    };
    let args = json!({"path": dir, "name_glob": "*.db", "limit": 20000});
    let Some(listing) =
        crate::calls::call_or_note(run.ctx, &format!("{dir}/*.db"), "find_files", args)?
    else {
        return Ok(());
    };
    if listing.output.text.contains("\n# truncated") {
        run.ctx.unparsed(
            dir,
            "more than 20000 databases in the account folder; those past the first were not read",
            Some(&listing.record.invocation_id),
        )?;
    }
    if gaia(account) {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AccountId,
            account,
            &listing,
            format!(
                "{} keeps the stores of each Google account signed in to it in a folder named by the account id: {account}, an account of the device's user.",
                app.name
            ),
        )?;
    }
    let paths = crate::outputs::found_paths(&listing.output.text);
    let mut stores: BTreeMap<String, Store> = BTreeMap::new();
    for p in &paths {
        let Some(id) = document_of(dir, p) else {
            continue;
        };
        if let Some(s) = properties(run, p)? {
            stores.insert(id.to_string(), s);
        }
    }
    let meta = format!("{dir}/shared/{METADATA_DB}");
    if paths.contains(&meta) {
        metadata(run, app, account, &listing, &meta, &mut stores)?;
    }
    for (id, s) in &stores {
        document(run, app, account, &listing, id, Some(s), None)?;
    }
    Ok(())
}

/// The hex digits, in order: `instr` of one in it is its value plus one.
const HEX: &str = "0123456789ABCDEF";

/// The 64-bit integer of the 8-byte blob `col` read little-endian, as SQL: byte `i` from the
/// hex digits `2i+1` and `2i+2` of `hex(col)`, shifted by `8i` (SQLite's 64-bit shifts wrap,
/// so the top byte sets the sign bit as the double's does).
fn le_bits(col: &str) -> String {
    (0..8)
        .map(|i| {
            let hi = 2 * i + 1;
            format!(
                "(((instr('{HEX}', substr(hex({col}), {hi}, 1)) - 1) * 16 + instr('{HEX}', substr(hex({col}), {}, 1)) - 1) << {})",
                hi + 1,
                8 * i
            )
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The IEEE 754 double of `bits`, its exponent `e` and mantissa `m` (columns of the inner
/// query), as SQL: a whole number as an integer, a fraction as a real, zero as 0; infinities,
/// NaN, subnormals and magnitudes past 2¹¹⁵ as NULL.
fn le_double() -> String {
    let one = "4503599627370496"; // 2^52, the implicit leading bit
    format!(
        "CASE WHEN e = 0 AND m = 0 THEN 0 WHEN e = 0 OR e = 2047 THEN NULL \
WHEN e >= 1075 AND e - 1075 <= 10 THEN (CASE WHEN bits < 0 THEN -1 ELSE 1 END) * ((m | {one}) << (e - 1075)) \
WHEN e >= 1075 AND e - 1075 <= 62 THEN (CASE WHEN bits < 0 THEN -1.0 ELSE 1.0 END) * (m | {one}) * (1 << (e - 1075)) \
WHEN e >= 1075 THEN NULL \
WHEN 1075 - e <= 52 AND ((m | {one}) & ((1 << (1075 - e)) - 1)) = 0 THEN (CASE WHEN bits < 0 THEN -1 ELSE 1 END) * ((m | {one}) >> (1075 - e)) \
WHEN 1075 - e <= 62 THEN (CASE WHEN bits < 0 THEN -1.0 ELSE 1.0 END) * (m | {one}) / (1 << (1075 - e)) END"
    )
}

/// The query pivoting `document_properties` into one row, each value decoded by its type code.
fn properties_sql() -> String {
    let mut cols = vec!["count(*) AS properties".to_string()];
    for (name, col, ..) in PROPERTY_FIELDS {
        cols.push(format!(
            "max(CASE WHEN name = '{name}' THEN v END) AS {col}"
        ));
    }
    cols.push(
        "max(CASE WHEN name = 'isOwner' THEN CASE WHEN v IS NULL THEN NULL \
WHEN lower(v) IN ('true', '1') THEN 'owned' WHEN v = '' OR lower(v) IN ('false', '0') THEN 'not owned' \
ELSE v END END) AS owned"
            .to_string(),
    );
    for (name, col, _) in PROPERTY_TIMES {
        cols.push(format!(
            "max(CASE WHEN name = '{name}' THEN v END) AS {col}"
        ));
    }
    let docos = "CASE WHEN name = 'docosKeyData' AND json_valid(v) THEN v END";
    for (at, col, ..) in ACCOUNT_FIELDS {
        let x = format!("json_extract({docos}, '{at}')");
        let shaped = match col {
            // iLEAPP keeps each only when it has its shape
            "account_email" => format!("CASE WHEN {x} LIKE '%_@_%._%' THEN {x} END"),
            "account_id" => format!(
                "CASE WHEN typeof({x}) = 'text' AND length({x}) BETWEEN 15 AND 25 AND {x} NOT GLOB '*[^0-9]*' THEN {x} END"
            ),
            "account_photo" => format!("CASE WHEN {x} LIKE 'http%' THEN {x} END"),
            _ => format!("CASE WHEN typeof({x}) = 'text' THEN {x} END"),
        };
        cols.push(format!("max({shaped}) AS {col}"));
    }
    format!(
        "SELECT {} FROM (SELECT name, CASE WHEN type = 1 AND bits IS NOT NULL THEN {} \
WHEN type = 1 AND typeof(value) IN ('integer', 'real') THEN value WHEN type = 1 THEN NULL \
ELSE CAST(value AS TEXT) END AS v FROM (SELECT name, type, value, bits, ((bits >> 52) & 2047) AS e, \
(bits & 4503599627370495) AS m FROM (SELECT name, type, value, CASE WHEN type = 1 AND typeof(value) = 'blob' \
AND length(value) = 8 THEN {} END AS bits FROM {PROPERTIES})))",
        cols.join(", "),
        le_double(),
        le_bits("value"),
    )
}

/// Reads one document store's properties; `None` when it cannot be read or lacks them (noted).
fn properties(run: &Run<'_, '_>, path: &str) -> Result<Option<Store>, RuntimeError> {
    let Some(schema) = run.schema(path, &[PROPERTIES])? else {
        return Ok(None);
    };
    if !schema.require(run, PROPERTIES, &["name", "type", "value"])? {
        return Ok(None);
    }
    Ok(run
        .query(path, &properties_sql(), 1)?
        .map(|(inv, t)| Store {
            path: path.to_string(),
            inv,
            t,
        }))
}

/// Every row of `documentMetadata.db`, each recorded with its document's store (taken out of
/// `stores`) when the folder holds one.
fn metadata(
    run: &Run<'_, '_>,
    app: &App<'_>,
    account: &str,
    listing: &Invoked,
    path: &str,
    stores: &mut BTreeMap<String, Store>,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[METADATA])? else {
        return Ok(());
    };
    if !schema.require(run, METADATA, &["document_id"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT m.rowid AS rid, m.document_id AS document_id, {} FROM {METADATA} m",
        select_columns(&schema.columns(METADATA), "m.", &METADATA_COLUMNS)
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = raw(t, row, "document_id").unwrap_or_default();
        let store = stores.remove(&id);
        let meta = Meta { path, inv, t, row };
        document(run, app, account, listing, &id, store.as_ref(), Some(&meta))?;
    }
    crate::calls::note_pages_cap(
        run.ctx,
        path,
        &paged,
        &format!("{} document sync records", app.name),
    )
}

/// One metadata row with its call.
struct Meta<'a> {
    path: &'a str,
    inv: &'a Invoked,
    t: &'a Table,
    row: &'a [Option<String>],
}

/// One document: its store's properties and its metadata row, either or both.
fn document(
    run: &Run<'_, '_>,
    app: &App<'_>,
    account: &str,
    listing: &Invoked,
    id: &str,
    store: Option<&Store>,
    meta: Option<&Meta<'_>>,
) -> Result<(), RuntimeError> {
    let prop = |c: &str| {
        store
            .and_then(|s| s.t.rows.first().and_then(|r| raw(&s.t, r, c)))
            .filter(|v| !v.trim().is_empty())
    };
    let title = prop("title");
    let shown = title.clone().unwrap_or_else(|| id.to_string());
    let mut d = Draft::new("files", format!("{} {} {shown}", app.name, app.noun));
    if let Some(s) = store {
        d.fact(FactType::Path, Some(&s.path), listing);
    }
    if let Some(m) = meta {
        d.fact(FactType::Path, Some(m.path), listing);
    }
    d.fact(FactType::Account, Some(account), listing);
    let mut said = Vec::new();
    if let Some(s) = store
        && let Some(row) = s.t.rows.first()
    {
        let spec: Vec<(&str, FactType, &str)> = PROPERTY_FIELDS
            .iter()
            .map(|(_, c, ft, l)| (*c, *ft, *l))
            .chain([("owned", FactType::Text, "owned by the account")])
            .chain(ACCOUNT_FIELDS.iter().map(|(_, c, ft, l)| (*c, *ft, *l)))
            .collect();
        said.extend(d.fields(&s.t, row, &s.inv, &spec));
        for (_, col, what) in PROPERTY_TIMES {
            let v = s.t.get(row, col);
            d.time(
                v,
                unix_millis(v),
                &format!("{} {} {what}", app.name, app.noun),
                &s.inv,
            );
            if let Some(v) = v.filter(|v| unix_millis(Some(v)).is_some()) {
                said.push(format!("{what} {v}"));
            }
        }
    }
    if let Some(m) = meta {
        said.extend(d.fields(m.t, m.row, m.inv, &METADATA_FIELDS));
        let times: [(&str, Encoding, &str); 3] = [
            (
                "server_updated_ms",
                unix_millis,
                "last updated on the server (milliseconds column)",
            ),
            (
                "server_updated_s",
                unix_seconds,
                "last updated on the server (seconds column)",
            ),
            ("sync_finished", unix_seconds, "last sync finished"),
        ];
        for (col, enc, what) in times {
            let v = m.t.get(m.row, col);
            d.time(
                v,
                enc(v),
                &format!("{} {} {what}", app.name, app.noun),
                m.inv,
            );
            if let Some(v) = v.filter(|v| enc(Some(v)).is_some()) {
                said.push(format!("{what} {v}"));
            }
        }
    }
    let sources = match (store, meta) {
        (Some(_), Some(_)) => format!("its store {id}.db and its row of {METADATA_DB}"),
        (Some(_), None) => format!("its store {id}.db (no row of {METADATA_DB})"),
        _ => format!("its row of {METADATA_DB} (no store of the document kept)"),
    };
    d.interpretation = format!(
        "A {} {} that {} kept offline for the Google account folder {account}, from {sources}: {}. The store is the app's copy of what the account opened or kept available offline, not its whole Drive{}; the cold and warm start times are when the app's editor last loaded and last resumed it (its nearest record of when it was last opened); property times are Unix ms, the metadata's seconds column and sync finish Unix seconds.",
        app.noun,
        if title.is_some() {
            format!("titled {shown}")
        } else if store.is_some() {
            "without a title (a store that never synced)".to_string()
        } else {
            "whose title is not known here".to_string()
        },
        app.name,
        said.join("; "),
        match prop("owned").as_deref() {
            Some("not owned") => "; the account does not own it (shared with it)",
            _ => "",
        },
    );
    run.record(d)?;
    // the signed-in account named in the document's properties
    if let Some(s) = store
        && let Some(row) = s.t.rows.first()
    {
        let why = |what: &str| {
            format!(
                "{what} of the Google account signed in to {} (docosKeyData of the store {}), the device user's.",
                app.name,
                file_name(&s.path)
            )
        };
        let get = |c: &str| raw(&s.t, row, c).filter(|v| !v.trim().is_empty());
        let (aid, email, name) = (get("account_id"), get("account_email"), get("account_name"));
        run.observe_person(
            "owner",
            "device owner",
            &s.inv,
            &why,
            &[
                (IdType::AccountId, aid.as_deref(), "The account id"),
                (IdType::Email, email.as_deref(), "The e-mail address"),
                (IdType::DisplayName, name.as_deref(), "The name"),
            ],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        let c = "/private/var/mobile/Containers/Data/Application/A1";
        let dir = format!("{c}/Documents/112233445566778899001/localStore");
        assert_eq!(account_of(c, &dir), Some("112233445566778899001"));
        assert_eq!(
            account_of(c, &format!("{c}/Documents/x/y/localStore")),
            None
        );
        assert_eq!(account_of("/other", &dir), None);
        assert_eq!(
            document_of(&dir, &format!("{dir}/documents/1AbC/1AbC.db")),
            Some("1AbC")
        );
        assert_eq!(
            document_of(&dir, &format!("{dir}/documents/1AbC/x.db")),
            None
        );
        assert_eq!(
            document_of(&dir, &format!("{dir}/shared/{METADATA_DB}")),
            None
        );
    }

    #[test]
    fn preference_accounts() {
        let v = json!({
            "signed_in_user_id": "112233445566778899001",
            "userid:112233445566778899001": {"$data_hex": "00"},
            "GNPRenderContextStorage-google_docs-109876543210987654321-x": 1,
            "shared_container_folder_to_id_F": "109876543210987654321",
            "MDMACMStorage": {"100000000000000000007": {}},
            "userid:12": 1,
        });
        let ids = account_ids(v.as_object().unwrap());
        assert_eq!(ids.len(), 3, "{ids:?}");
        assert_eq!(
            ids["112233445566778899001"],
            ["signed_in_user_id", "userid:112233445566778899001"]
        );
        assert_eq!(ids["109876543210987654321"].len(), 2);
    }

    #[test]
    fn queries() {
        let bits = le_bits("value");
        assert_eq!(bits.matches(" | ").count(), 7);
        assert!(bits.ends_with("<< 56)"));
        let sql = properties_sql();
        assert!(sql.contains("AS cold_started"));
        assert!(sql.contains("'$[8][7]'"));
        assert!(sql.ends_with(&format!("FROM {PROPERTIES})))")));
    }
}
