//! iCloud Drive as the Files app syncs it (`mobile/Library/Application Support/CloudDocs/session/
//! db/`), the fields of iLEAPP's `filesApp` modules:
//!
//! - `server.db`, `devices`: one `device` phenomenon per device of the Apple Account that wrote to
//!   iCloud Drive (its number and name: the user's iPhone, Mac, iPad …); `users`: one `contacts`
//!   per other person whose shared items the account holds (the name components of the
//!   `NSPersonNameComponents` archive in `user_plist`, read from its binary plist on, decoded by
//!   `sqlite_query`'s `plists`; iLEAPP skips three bytes).
//! - `client.db`, `client_items`: one `files` per file or folder — its path in iCloud Drive
//!   (rebuilt from the 16-byte parent ids, as iLEAPP does), name, item id, app library, size,
//!   created, modified and last opened (Unix seconds; zero is no time), hidden extension,
//!   visible, **the device that wrote its current version** (`version_device`, named from
//!   `server.db`), sharing (iLEAPP's words for `item_sharing_options`: 8/12 anyone with the link
//!   can make changes, 24/28 anyone with the link can view only, 64/68 only invited people), who
//!   shared it (`item_creator_id`, named from `server.db`'s users), Finder tags, favourite rank,
//!   and the put-back path of an item in Recently Deleted; `app_libraries`: one `apps` per app
//!   with an iCloud Drive library (bundle id, item and document counts, size); `boot_history`:
//!   one `device` per OS build the device booted (time, build).
//!
//! For the examiner: which of the account's devices last wrote each file (a file on this phone
//! written on the user's Mac), what others shared with the user, what was deleted.
//!
//! Identities: each device of `server.db` is observed by its name (`clouddocs-device:<name>`,
//! a device name), for the resolution to compare with the case's devices; people are said,
//! not observed (a given and a family name apart). Schema drift: a `client_items` without
//! `item_id` or `item_filename`, or a `devices` without `key` or `name`, is noted; other
//! columns are read where present. Only files below `CloudDocs/session/db/` are read.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, raw};
use crate::calls::column_or_null;
use crate::outputs::{in_json_cell, plist_cell};

/// What `server.db` names: devices and users by their number, each with the query citing it.
#[derive(Default)]
struct Server {
    devices: BTreeMap<String, (String, usize)>,
    users: BTreeMap<String, (Vec<(String, String)>, usize)>,
    invs: Vec<Invoked>,
}

/// Whether `path` is one of iCloud Drive's own databases.
fn clouddocs(path: &str) -> bool {
    path.contains("/CloudDocs/session/db/")
}

/// The folder of a database (`…/db/`).
fn folder(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or(path)
}

/// Triage of every iCloud Drive store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut servers: BTreeMap<String, Server> = BTreeMap::new();
    run.each("server.db", |find, path| {
        if clouddocs(path) {
            let s = server(run, find, path)?;
            servers.insert(folder(path).to_string(), s);
        }
        Ok(())
    })?;
    let empty = Server::default();
    run.each("client.db", |find, path| {
        if !clouddocs(path) {
            return Ok(());
        }
        let s = servers.get(folder(path)).unwrap_or(&empty);
        client(run, find, path, s)
    })
}

/// The name components of an `NSPersonNameComponents` archive, decoded (`NS.givenName` …),
/// each with its key, wherever they sit.
fn name_parts(v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match (k.strip_prefix("NS."), x.as_str()) {
                    (Some(part), Some(s)) if part.ends_with("Name") && !s.is_empty() => {
                        out.push((part.to_string(), s.to_string()))
                    }
                    _ => name_parts(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| name_parts(x, out)),
        _ => {}
    }
}

fn server(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<Server, RuntimeError> {
    let mut s = Server::default();
    let Some(schema) = run.schema(path, &["devices", "users"])? else {
        return Ok(s);
    };
    let devices = !schema.columns("devices").is_empty()
        && schema.require(run, "devices", &["key", "name"])?;
    if devices && let Some(pages) = run.paged(path, "SELECT key, name FROM devices", "key")? {
        for (inv, t) in &pages.pages {
            let at = s.invs.len();
            s.invs.push(inv.clone());
            for row in &t.rows {
                let (Some(key), Some(name)) = (t.get(row, "key"), t.get(row, "name")) else {
                    continue;
                };
                let cited = raw(t, row, "name").unwrap_or_default();
                let mut d = Draft::new("device", format!("iCloud Drive device {key}: {name}"));
                d.fact(FactType::Path, Some(path), find);
                d.fact(FactType::Identifier, Some(key), inv);
                d.fact(FactType::Name, Some(&cited), inv);
                d.interpretation = format!(
                    "devices row {key} of server.db: {cited} is a device of the Apple Account that wrote to iCloud Drive (the Files app's sync names each file version's device by this number)."
                );
                run.record(d)?;
                run.observe(
                    &format!("clouddocs-device:{name}"),
                    EntityKind::Device,
                    name,
                    IdType::DeviceName,
                    &cited,
                    inv,
                    format!("{cited} is a device that wrote to this Apple Account's iCloud Drive (server.db devices row {key})."),
                )?;
                s.devices.insert(key.to_string(), (cited, at));
            }
        }
    }
    let users = schema.columns("users");
    if users.contains("user_key") && users.contains("user_plist") {
        let sql = "SELECT user_key, substr(user_plist, instr(user_plist, X'62706C6973743030')) AS person FROM users";
        if let Some(pages) = run.paged_with(path, sql, "user_key", &["plists"])? {
            for (inv, t) in &pages.pages {
                let at = s.invs.len();
                s.invs.push(inv.clone());
                for row in &t.rows {
                    let Some(key) = t.get(row, "user_key") else {
                        continue;
                    };
                    let mut parts = Vec::new();
                    if let Some(v) = t.get(row, "person").and_then(plist_cell) {
                        name_parts(&v, &mut parts);
                    }
                    // in the order a name is written (the decoded keys are sorted)
                    let rank = |k: &str| {
                        [
                            "namePrefix",
                            "givenName",
                            "middleName",
                            "familyName",
                            "nameSuffix",
                        ]
                        .iter()
                        .position(|r| *r == k)
                        .unwrap_or(5)
                    };
                    parts.sort_by_key(|(k, _)| rank(k));
                    let shown: Vec<&str> = parts.iter().map(|(_, v)| v.as_str()).collect();
                    let mut d = Draft::new(
                        "contacts",
                        format!(
                            "iCloud Drive user {key}: {}",
                            if shown.is_empty() {
                                "unnamed".to_string()
                            } else {
                                shown.join(" ")
                            }
                        ),
                    );
                    d.fact(FactType::Path, Some(path), find);
                    d.fact(FactType::Identifier, Some(key), inv);
                    for (_, v) in &parts {
                        d.fact(FactType::Name, Some(&in_json_cell(v)), inv);
                    }
                    d.interpretation = format!(
                        "users row {key} of server.db: a person whose shared iCloud Drive items this account holds{}.",
                        if parts.is_empty() {
                            " (no name kept)".to_string()
                        } else {
                            format!(
                                ", {}",
                                parts
                                    .iter()
                                    .map(|(k, v)| format!("{k} {v}"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        }
                    );
                    run.record(d)?;
                    s.users.insert(key.to_string(), (parts, at));
                }
            }
        }
    }
    Ok(s)
}

/// iLEAPP's words for `item_sharing_options` (anything above 4 is shared).
fn sharing(v: Option<&str>) -> Option<String> {
    let n: i64 = v?.parse().ok()?;
    (n > 4).then(|| match n {
        8 | 12 => "anyone with the link can make changes".to_string(),
        24 | 28 => "anyone with the link can view only".to_string(),
        64 | 68 => "only invited people".to_string(),
        _ => format!("sharing options {n}"),
    })
}

/// A positive Unix time's encoding (zero or negative is no time).
fn unix(v: Option<&str>) -> Option<masf_graph::TimeEncoding> {
    crate::drafts::unix_seconds(v)
}

fn client(run: &Run<'_, '_>, find: &Invoked, path: &str, s: &Server) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["client_items", "app_libraries", "boot_history"])? else {
        return Ok(());
    };
    // the apps' libraries, by rowid
    let mut apps: BTreeMap<String, (String, Invoked)> = BTreeMap::new();
    let libs = schema.columns("app_libraries");
    if libs.contains("app_library_name") {
        let col = |n: &str, a: &str| column_or_null(&libs, "", n, a);
        let sql = format!(
            "SELECT rowid AS rid, app_library_name AS bundle, {}, {}, {} FROM app_libraries",
            col("auto_client_item_count", "items"),
            col("auto_document_count", "documents"),
            col("auto_aggregate_size", "size"),
        );
        if let Some(pages) = run.paged(path, &sql, "rowid")? {
            for (inv, t, row) in pages.rows() {
                let (Some(rid), Some(bundle)) = (t.get(row, "rid"), raw(t, row, "bundle")) else {
                    continue;
                };
                let mut d = Draft::new("apps", format!("iCloud Drive app library: {bundle}"));
                d.fact(FactType::Path, Some(path), find);
                d.fact(FactType::Identifier, Some(&bundle), inv);
                let said = d.fields(
                    t,
                    row,
                    inv,
                    &[
                        ("items", FactType::Count, "items"),
                        ("documents", FactType::Count, "documents"),
                        ("size", FactType::Count, "total size (bytes)"),
                    ],
                );
                d.interpretation = format!(
                    "app_libraries row {rid} of client.db: {bundle} keeps a library in iCloud Drive{}.",
                    if said.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", said.join("; "))
                    }
                );
                run.record(d)?;
                apps.insert(rid.to_string(), (bundle, inv.clone()));
            }
        }
    }
    items(run, find, path, &schema, s, &apps)?;
    let boots = schema.columns("boot_history");
    if boots.contains("date") && boots.contains("os") {
        let sql = "SELECT rowid AS rid, date, os FROM boot_history";
        if let Some(pages) = run.paged(path, sql, "rowid")? {
            for (inv, t, row) in pages.rows() {
                let os = raw(t, row, "os");
                let date = raw(t, row, "date");
                let mut d = Draft::new(
                    "device",
                    format!(
                        "OS build {} (iCloud Drive boot history)",
                        os.as_deref().unwrap_or("?")
                    ),
                );
                d.fact(FactType::Path, Some(path), find);
                d.fact(FactType::Identifier, os.as_deref(), inv);
                d.time(
                    date.as_deref(),
                    unix(date.as_deref()),
                    "OS build booted (iCloud Drive boot history)",
                    inv,
                );
                d.interpretation = format!(
                    "boot_history row {} of client.db: the device booted OS build {} at {} (Unix seconds), as iCloud Drive's sync recorded it: a trace of the system's updates.",
                    t.get(row, "rid").unwrap_or("?"),
                    os.as_deref().unwrap_or("?"),
                    date.as_deref().unwrap_or("?"),
                );
                run.record(d)?;
            }
        }
    }
    Ok(())
}

/// Most levels of folders walked up to rebuild a path.
const DEPTH: usize = 64;

fn items(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
    s: &Server,
    apps: &BTreeMap<String, (String, Invoked)>,
) -> Result<(), RuntimeError> {
    const T: &str = "client_items";
    if schema.columns(T).is_empty() || !schema.require(run, T, &["item_id", "item_filename"])? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let parent = if c.contains("item_parent_id") {
        "CASE WHEN typeof(item_parent_id) = 'blob' AND length(item_parent_id) = 16 THEN hex(item_parent_id) ELSE CAST(item_parent_id AS TEXT) END AS parent"
    } else {
        "NULL AS parent"
    };
    let tags = if c.contains("item_finder_tags") {
        "CAST(item_finder_tags AS TEXT) AS tags"
    } else {
        "NULL AS tags"
    };
    let sql = format!(
        "SELECT rowid AS rid, hex(item_id) AS id, {parent}, item_filename AS name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {tags}, {} FROM {T}",
        col("item_type", "type"),
        col("item_birthtime", "created"),
        col("version_mtime", "modified"),
        col("item_lastusedtime", "opened"),
        col("app_library_rowid", "app"),
        col("item_hidden_ext", "hidden_ext"),
        col("version_size", "size"),
        col("version_device", "device"),
        col("item_sharing_options", "sharing"),
        col("item_user_visible", "visible"),
        col("item_trash_put_back_path", "trash"),
        col("item_creator_id", "creator"),
        col("item_favoriterank", "favourite"),
    );
    let Some(pages) = run.paged(path, &sql, "rowid")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "iCloud Drive items")?;
    // the tree: item id → (parent id, name)
    let mut tree: BTreeMap<String, (Option<String>, String)> = BTreeMap::new();
    for (_, t, row) in pages.rows() {
        if let (Some(id), Some(name)) = (t.get(row, "id"), t.get(row, "name")) {
            tree.insert(
                id.to_string(),
                (t.get(row, "parent").map(str::to_string), name.to_string()),
            );
        }
    }
    let full = |id: &str| {
        let mut parts = Vec::new();
        let mut at = Some(id.to_string());
        while let Some(i) = at.take() {
            let Some((p, name)) = tree.get(&i) else {
                break;
            };
            parts.push(name.as_str());
            if parts.len() >= DEPTH {
                break;
            }
            at = p.clone();
        }
        parts.reverse();
        parts.join("/")
    };
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| t.get(row, c);
        let Some(id) = get("id") else {
            continue;
        };
        let folder = get("size").is_none();
        let where_ = format!("{}{}", full(id), if folder { "/" } else { "" });
        let mut d = Draft::new(
            "files",
            format!(
                "iCloud Drive {}: {where_}",
                if folder { "folder" } else { "file" }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Identifier, Some(id), inv);
        let mut said = Vec::new();
        let app = get("app").and_then(|a| apps.get(a));
        if let Some((bundle, ainv)) = app {
            d.fact(FactType::Identifier, Some(bundle), ainv);
            said.push(format!("in {bundle}'s library"));
        }
        if let Some(n) = get("size") {
            d.fact(FactType::Count, Some(n), inv);
            said.push(format!("{n} bytes"));
        }
        if let Some(k) = get("device") {
            match s.devices.get(k) {
                Some((name, i)) => {
                    d.fact(FactType::Name, Some(name), &s.invs[*i]);
                    said.push(format!(
                        "its current version written by {name} (device {k})"
                    ));
                }
                None => said.push(format!(
                    "its current version written by device {k} (not in server.db)"
                )),
            }
        }
        if let Some(how) = sharing(get("sharing")) {
            let by = match get("creator").filter(|c| *c != "0") {
                Some(u) => match s.users.get(u) {
                    Some((parts, i)) if !parts.is_empty() => {
                        for (_, v) in parts {
                            d.fact(FactType::Name, Some(&in_json_cell(v)), &s.invs[*i]);
                        }
                        parts
                            .iter()
                            .map(|(_, v)| v.as_str())
                            .collect::<Vec<_>>()
                            .join(" ")
                    }
                    _ => format!("user {u} (no name kept)"),
                },
                None => "the local account".to_string(),
            };
            said.push(format!("shared ({how}), by {by}"));
        }
        if let Some(tags) = raw(t, row, "tags") {
            d.fact(FactType::Text, Some(&tags), inv);
            said.push(format!("Finder tags {tags}"));
        }
        if let Some(r) = get("favourite").filter(|r| *r != "0") {
            said.push(format!("favourite (rank {r})"));
        }
        if let Some(back) = raw(t, row, "trash") {
            d.fact(FactType::Path, Some(&back), inv);
            said.push(format!("in Recently Deleted (put back to {back})"));
        }
        if get("hidden_ext") == Some("1") {
            said.push("extension hidden".into());
        }
        if get("visible") == Some("0") {
            said.push("not visible to the user".into());
        }
        for (col, what) in [
            ("created", "iCloud Drive item created"),
            ("modified", "iCloud Drive item modified"),
            ("opened", "iCloud Drive item last opened"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), unix(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "client_items row {} of client.db: the {} {where_} in the Apple Account's iCloud Drive (the path rebuilt from the parent ids){}; created {}, modified {}, last opened {} (Unix seconds; 0 is none).",
            get("rid").unwrap_or("?"),
            if folder { "folder" } else { "file" },
            if said.is_empty() {
                String::new()
            } else {
                format!(", {}", said.join(", "))
            },
            get("created").unwrap_or("not kept"),
            get("modified").unwrap_or("not kept"),
            get("opened").unwrap_or("not kept"),
        );
        run.record(d)?;
    }
    Ok(())
}
