//! Box (the cloud-storage app, `net.box.BoxNet`), its app group `Containers/Shared/AppGroup/
//! <id>/`, iLEAPP's `box` (`box_account`, `box_all_files`, `box_recents`, `box_comments`,
//! `box_previews`): the Box account signed in, the files and folders the app cached with where
//! each sits, whose it is and its shared link, what was kept offline, opened recently, commented
//! and previewed.
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `Library/Preferences/group.net.box.BoxNet.plist` `lastUserJSON` (a binary property list or JSON in data, or JSON text) | one `accounts` ("Box account <login>") | user id, `box:<id>` (qualified by `parse_plist`), login, name, phone, job title, address, avatar URL, custom avatar, status, enterprise name, time zone, language, space allowed and used, largest upload (bytes); created and modified (ISO 8601 as written) |
//! | `Documents/db/Item.db` `items` (its `jsonData`, Box's API object; `offlinefilesinfo/itemIDs.plist`, `lastDownloadDates.plist` by id) | one `files` per file or folder ("Box file <path>", "Box folder <path>") | item id, name, the path (walked up `parentID` in the query; the first parent the cache lacks named when the walk stops short of the root), type, extension, description, size, version id, SHA-1 (`SHA1`, or the object's), status; the shared link's URL, access, download and preview counts; the owner's, creator's and last modifier's login, name and `box:<id>` (qualified in the query); favourite and collections; created, modified, content created and modified, trashed, link expiry (ISO 8601), last fetched from Box (`lastNetworkFetchedTimestamp`, Unix s or ms by size); kept offline and when downloaded (the plists') |
//! | the offline plists alone | one `files` per offline id `Item.db` does not hold ("Box offline item <id>") | item id, when downloaded |
//! | `Documents/db/Recents.db` `recents` | one `files` per entry ("Box recent <interaction> of <path>") | item id and type, interaction, when (Unix s or ms by size); the item's path from `Item.db` |
//! | `Documents/db/annotations.db` `fileActivity` (with `comments`, `annotations` by id) | one `messages` per comment or annotation ("Box comment on <path> by <name>") | activity id, kind, file id and path, message, tagged message, reply, the author's and last editor's login, name and `box:<id>`; made and fetched (Unix s or ms by size), edited (a comment's ISO 8601, an annotation's number) |
//! | `File Provider Storage/boxpreview/<user id>/db/PreviewItem.db` `previewItems` | one `media` per preview ("Box preview of <name>") | file id, name, SHA-1, representations (kind and dimensions, from its JSON), the user folder; last accessed (Unix s or ms by size) |
//!
//! The listing is the app's cache of what the account browsed, not the account's whole Box;
//! an item owned by another user was shared with the account (its owner said). A shared link is
//! the address anyone it was given to can open (its access level said); a file kept offline was
//! downloaded to the phone. iLEAPP's converters read Box's Unix times by their size, and so do
//! these. JSON members are read with `json_valid` guards (a cut object gives NULLs, its row
//! kept). The path is walked from each item up (iLEAPP walks down from the root and drops
//! items whose folder is not cached). Not read: the preview and original files themselves.
//!
//! The stores are read in app groups holding Box's preferences file, or whose `Item.db` has
//! `items` with `modelID` and `jsonData` (another app's `Item.db` is left alone; the group is
//! the folder holding `Library/` and `Documents/`, so a backup's `AppDomainGroup-…` is one). Columns are
//! taken by name (older stores lack `lastNetworkFetchedTimestamp` and `SHA1`, older
//! `annotations.db` the `annotations` table); in a Box app group, a store without its table (or
//! `items.modelID`, `parentID`, `name`; `recents.itemID`; `fileActivity.id`, `fileID`;
//! `previewItems.fileID`) is noted, as is one that is no database, a preferences file without
//! `lastUserJSON` and one no dictionary, and the rest of the app group is still read.
//!
//! Identities: the account is the device user's (`owner`): `box:<user id>`, its login (an
//! e-mail address), name and phone. Every other user an item or comment names (owner, creator,
//! modifier, author) is the person `box:<user id>` with login and name; a user whose id is the
//! account's is left to the owner. Without the preferences file the account is unknown and its
//! own items' users are persons too.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::oura::{cited, nested};
use super::plists::parse_with;
use super::{Draft, Run, Schema, file_name};
use crate::calls::{column_expr, json_at, select_columns};
use crate::drafts::{Encoding, date_text, unix_by_magnitude};
use crate::outputs::{Table, json_scalar, raw};

/// The preferences file and where it lies in the app group.
const PREFS: &str = "group.net.box.BoxNet.plist";
const PREFS_TAIL: &str = "/Library/Preferences/group.net.box.BoxNet.plist";
/// The databases and where they lie in the app group.
const ITEMS_TAIL: &str = "/Documents/db/Item.db";
const RECENTS_TAIL: &str = "/Documents/db/Recents.db";
const ANNOTATIONS_TAIL: &str = "/Documents/db/annotations.db";
const OFFLINE_IDS_TAIL: &str = "/Documents/offlinefilesinfo/itemIDs.plist";
const OFFLINE_DATES_TAIL: &str = "/Documents/offlinefilesinfo/lastDownloadDates.plist";
const PREVIEWS_DIR: &str = "/File Provider Storage/boxpreview/";
const GROUP: &str = "/Containers/Shared/AppGroup/";

const ITEMS: &str = "items";
const RECENTS: &str = "recents";
const ACTIVITY: &str = "fileActivity";
const COMMENTS: &str = "comments";
const ANNOTATIONS: &str = "annotations";
const PREVIEWS: &str = "previewItems";

/// The account's fields in `lastUserJSON`: (member, fact type, label).
const ACCOUNT_FIELDS: [(&str, FactType, &str); 15] = [
    ("id", FactType::Account, "user id"),
    ("login", FactType::Email, "login"),
    ("name", FactType::Name, "name"),
    ("phone", FactType::Phone, "phone"),
    ("job_title", FactType::Text, "job title"),
    ("address", FactType::Text, "address"),
    ("avatar_url", FactType::Url, "avatar"),
    ("has_custom_avatar", FactType::Text, "custom avatar"),
    ("status", FactType::Text, "status"),
    ("timezone", FactType::Text, "time zone"),
    ("language", FactType::Text, "language"),
    ("space_amount", FactType::Count, "space allowed (bytes)"),
    ("space_used", FactType::Count, "space used (bytes)"),
    ("max_upload_size", FactType::Count, "largest upload (bytes)"),
    ("id.qualified", FactType::Account, "qualified id"),
];

/// An item's JSON members: (JSON path, alias).
const ITEM_JSON: [(&str, &str); 13] = [
    ("$.extension", "extension"),
    ("$.description", "description"),
    ("$.size", "size"),
    ("$.file_version.id", "version"),
    ("$.item_status", "status"),
    ("$.created_at", "created_at"),
    ("$.modified_at", "modified_at"),
    ("$.content_created_at", "content_created"),
    ("$.content_modified_at", "content_modified"),
    ("$.trashed_at", "trashed_at"),
    ("$.shared_link.url", "link"),
    ("$.shared_link.access", "link_access"),
    ("$.shared_link.unshared_at", "link_unshared"),
];

/// The users an item names: (JSON member, alias prefix, role).
const ITEM_USERS: [(&str, &str, &str); 3] = [
    ("owned_by", "owner", "owner"),
    ("created_by", "creator", "creator"),
    ("modified_by", "modifier", "last modifier"),
];

/// An item's facts: (column, fact type, label).
const ITEM_FIELDS: [(&str, FactType, &str); 26] = [
    ("item_id", FactType::Identifier, "item id"),
    ("name", FactType::Name, "name"),
    ("path", FactType::Text, "path"),
    (
        "missing_parent",
        FactType::Identifier,
        "first folder not cached",
    ),
    ("kind", FactType::Text, "type"),
    ("extension", FactType::Text, "extension"),
    ("description", FactType::Text, "description"),
    ("size", FactType::Count, "size (bytes)"),
    ("version", FactType::Identifier, "version id"),
    ("sha1", FactType::Hash, "SHA-1"),
    ("status", FactType::Text, "status"),
    ("link", FactType::Url, "shared link"),
    ("link_access", FactType::Text, "link access"),
    ("link_downloads", FactType::Count, "link downloads"),
    ("link_previews", FactType::Count, "link previews"),
    ("owner_login", FactType::Email, "owner's login"),
    ("owner_name", FactType::Name, "owner's name"),
    ("owner_q", FactType::Account, "owner"),
    ("creator_login", FactType::Email, "creator's login"),
    ("creator_name", FactType::Name, "creator's name"),
    ("creator_q", FactType::Account, "creator"),
    ("modifier_login", FactType::Email, "last modifier's login"),
    ("modifier_name", FactType::Name, "last modifier's name"),
    ("modifier_q", FactType::Account, "last modifier"),
    ("favourite", FactType::Text, "favourite"),
    ("collections", FactType::Text, "collections"),
];

/// A comment's or annotation's facts: (column, fact type, label).
const ACTIVITY_FIELDS: [(&str, FactType, &str); 12] = [
    ("activity_id", FactType::Identifier, "id"),
    ("kind", FactType::Text, "kind"),
    ("file_id", FactType::Identifier, "file id"),
    ("message", FactType::Text, "message"),
    ("tagged", FactType::Text, "tagged message"),
    ("is_reply", FactType::Text, "reply"),
    ("author_login", FactType::Email, "author's login"),
    ("author_name", FactType::Name, "author's name"),
    ("author_q", FactType::Account, "author"),
    ("editor_login", FactType::Email, "last editor's login"),
    ("editor_name", FactType::Name, "last editor's name"),
    ("editor_q", FactType::Account, "last editor"),
];

/// The account of an app group: its qualified id (`box:<id>`), to tell its own items' users.
struct Account {
    qualified: String,
}

/// The items read: each item's display path and the page of the query that read it.
#[derive(Default)]
struct Names {
    pages: Vec<Invoked>,
    at: BTreeMap<String, (String, usize)>,
}

impl Names {
    /// The display path of item `id` with the call that read it.
    fn get(&self, id: Option<&str>) -> Option<(&str, &Invoked)> {
        let (shown, page) = self.at.get(id?)?;
        Some((shown.as_str(), self.pages.get(*page)?))
    }
}

/// The offline plists read: each one's path and call.
type Plists = Vec<(String, Invoked)>;

/// A file kept offline: the plist naming it (an index of [`Plists`]), its id as the plist
/// writes it and when it was downloaded (as written).
struct Offline {
    src: usize,
    id: String,
    date: Option<String>,
}

/// The search results the triage reads, by store.
struct Found {
    find: Option<(Invoked, Vec<String>)>,
}

impl Found {
    /// The path of the store at `tail` of `container` with its search, when found.
    fn at(&self, container: &str, tail: &str) -> Option<(&Invoked, String)> {
        let (inv, paths) = self.find.as_ref()?;
        let want = format!("{container}{tail}");
        paths.contains(&want).then_some((inv, want))
    }
}

/// Triage of every Box app group of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    // app group → its preferences file, and Item.db's schema when read to tell it is Box's
    let mut groups: BTreeMap<String, (Option<String>, Option<Schema>)> = BTreeMap::new();
    let prefs = run.find(PREFS)?;
    if let Some((_, paths)) = &prefs {
        for p in paths {
            if let Some(c) = p.strip_suffix(PREFS_TAIL) {
                groups.insert(c.to_string(), (Some(p.clone()), None));
            }
        }
    }
    let items = Found {
        find: run.find("Item.db")?,
    };
    if let Some((_, paths)) = &items.find {
        // an app group of a file-system extraction or of a backup
        for p in paths
            .iter()
            .filter(|p| p.contains(GROUP) || p.contains("/AppDomainGroup-"))
        {
            let Some(c) = p.strip_suffix(ITEMS_TAIL) else {
                continue;
            };
            if groups.contains_key(c) {
                continue;
            }
            // another app's Item.db is left alone: only Box's table is read here
            let Some(schema) = run.schema(p, &[ITEMS])? else {
                continue;
            };
            let cols = schema.columns(ITEMS);
            if cols.contains("modelID") && cols.contains("jsonData") {
                groups.insert(c.to_string(), (None, Some(schema)));
            }
        }
    }
    let recents = Found {
        find: run.find("Recents.db")?,
    };
    let annotations = Found {
        find: run.find("annotations.db")?,
    };
    let ids = Found {
        find: run.find("itemIDs.plist")?,
    };
    let dates = Found {
        find: run.find("lastDownloadDates.plist")?,
    };
    let previews = run.find("PreviewItem.db")?;
    for (container, (prefs_path, schema)) in groups {
        let account = match (&prefs, &prefs_path) {
            (Some((find, _)), Some(path)) => account(run, find, path)?,
            _ => None,
        };
        let mut plists = Plists::new();
        let mut offline = Vec::new();
        for (found, tail, dated) in [
            (&ids, OFFLINE_IDS_TAIL, false),
            (&dates, OFFLINE_DATES_TAIL, true),
        ] {
            if let Some((_, path)) = found.at(&container, tail) {
                offline.extend(offline_ids(run, &path, dated, &mut plists)?);
            }
        }
        // one per id, a download date kept over the bare list's entry (as iLEAPP)
        let mut kept: BTreeMap<String, Offline> = BTreeMap::new();
        for o in offline {
            if o.date.is_some() || !kept.contains_key(&o.id) {
                kept.insert(o.id.clone(), o);
            }
        }
        let mut names = Names::default();
        if let Some((find, path)) = items.at(&container, ITEMS_TAIL) {
            let schema = match schema {
                Some(s) => Some(s),
                None => run.schema(&path, &[ITEMS])?,
            };
            if let Some(schema) = schema {
                let stores = Stores {
                    find,
                    path: &path,
                    plists: &plists,
                    plists_find: ids.find.as_ref().or(dates.find.as_ref()).map(|(i, _)| i),
                };
                read_items(
                    run,
                    &stores,
                    &schema,
                    account.as_ref(),
                    &mut kept,
                    &mut names,
                )?;
            }
        }
        for o in kept.values() {
            offline_alone(
                run,
                o,
                &plists,
                ids.find.as_ref().or(dates.find.as_ref()).map(|(i, _)| i),
            )?;
        }
        if let Some((find, path)) = recents.at(&container, RECENTS_TAIL) {
            read_recents(run, find, &path, &names)?;
        }
        if let Some((find, path)) = annotations.at(&container, ANNOTATIONS_TAIL) {
            read_comments(run, find, &path, account.as_ref(), &names)?;
        }
        if let Some((find, paths)) = &previews {
            let dir = format!("{container}{PREVIEWS_DIR}");
            for p in paths.iter().filter(|p| {
                p.strip_prefix(&dir)
                    .and_then(|r| r.strip_suffix("/db/PreviewItem.db"))
                    .is_some_and(|u| !u.is_empty() && !u.contains('/'))
            }) {
                read_previews(run, find, p, &dir, &names)?;
            }
        }
    }
    Ok(())
}

/// `Item.db` with the search that found it, and the offline plists read beside it.
struct Stores<'a> {
    find: &'a Invoked,
    path: &'a str,
    plists: &'a Plists,
    plists_find: Option<&'a Invoked>,
}

/// The account of the preferences file; `None` when it is not read (noted).
fn account(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<Option<Account>, RuntimeError> {
    let options = json!({"decode_data": true, "qualify": {"id": "box"}});
    let Some((inv, doc)) = parse_with(run, path, options)? else {
        return Ok(None);
    };
    if !doc.is_object() {
        run.ctx.unparsed(
            path,
            "could not read the Box account because the preferences file is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    }
    let Some((user, twice)) = nested(doc.get("lastUserJSON")).filter(|(u, _)| u.is_object()) else {
        run.ctx.unparsed(
            path,
            "could not read the Box account because the preferences hold no lastUserJSON object",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    };
    let get = |k: &str| cited(&inv, user.get(k), twice);
    let id = get("id");
    let login = get("login");
    let name = get("name");
    let enterprise = user
        .get("enterprise")
        .and_then(|e| cited(&inv, e.get("name"), twice));
    let mut d = Draft::new(
        "accounts",
        format!(
            "Box account {}",
            login.as_deref().or(id.as_deref()).unwrap_or("?")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (k, ft, label) in ACCOUNT_FIELDS {
        if let Some(v) = get(k) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    if let Some(e) = &enterprise {
        d.fact(FactType::Name, Some(e), &inv);
        said.push(format!("enterprise {e}"));
    }
    for (k, what) in [
        ("created_at", "Box account created"),
        ("modified_at", "Box account last modified"),
    ] {
        let v = get(k);
        d.time(v.as_deref(), date_text(v.as_deref()), what, &inv);
    }
    d.interpretation = format!(
        "lastUserJSON of {}: the Box user the app was signed in as when it last saved its preferences, the device user's ({}).",
        file_name(path),
        said.join("; ")
    );
    run.record(d)?;
    let qualified = get("id.qualified");
    let phone = get("phone").filter(|p| run.normalised(IdType::Phone, p).is_some());
    let why = |what: &str| {
        format!(
            "{what} of the Box account signed in to the app on the device (lastUserJSON of {}).",
            file_name(path)
        )
    };
    run.observe_person(
        "owner",
        "device owner",
        &inv,
        &why,
        &[
            (
                IdType::AccountId,
                qualified.as_deref(),
                "The Box user id (qualified by parse_plist)",
            ),
            (IdType::Email, login.as_deref(), "The login"),
            (IdType::DisplayName, name.as_deref(), "The name"),
            (IdType::Phone, phone.as_deref(), "The phone number"),
        ],
    )?;
    Ok(id.map(|i| Account {
        qualified: qualified.unwrap_or_else(|| format!("box:{i}")),
    }))
}

/// The ids an offline plist names (`dated`: `lastDownloadDates.plist`, id → date), the plist
/// kept in `plists`.
fn offline_ids(
    run: &Run<'_, '_>,
    path: &str,
    dated: bool,
    plists: &mut Plists,
) -> Result<Vec<Offline>, RuntimeError> {
    let Some((inv, doc)) = parse_with(run, path, json!({}))? else {
        return Ok(Vec::new());
    };
    let src = plists.len();
    let mut out = Vec::new();
    match &doc {
        Value::Array(a) => {
            for v in a {
                // a number as written, a string unquoted (the output holds it inside quotes)
                let id = match v {
                    Value::String(s) => Some(s.clone()),
                    other => json_scalar(Some(other)),
                };
                if let Some(id) = id.filter(|i| !i.is_empty()) {
                    out.push(Offline {
                        src,
                        id,
                        date: None,
                    });
                }
            }
        }
        Value::Object(o) => {
            for (k, v) in o {
                let date = if dated {
                    json_scalar(Some(v)).filter(|d| date_text(Some(d)).is_some())
                } else {
                    None
                };
                if !k.is_empty() {
                    out.push(Offline {
                        src,
                        id: k.clone(),
                        date,
                    });
                }
            }
        }
        _ => {
            run.ctx.unparsed(
                path,
                "could not read Box's offline files because the plist is neither a list nor a dictionary",
                Some(&inv.record.invocation_id),
            )?;
        }
    }
    plists.push((path.to_string(), inv));
    Ok(out)
}

/// `'box:' || <id>` of a JSON user id expression, NULL when it is NULL or empty.
fn qualified(id: &str) -> String {
    format!("CASE WHEN {id} IS NOT NULL AND {id} != '' THEN 'box:' || {id} END")
}

/// The query of `items`: each item with its path walked up `parentID` (at most 64 levels, so a
/// loop ends), its JSON members and its users qualified.
fn items_sql(cols: &std::collections::BTreeSet<String>) -> String {
    let json = cols.contains("jsonData");
    let j = |path: &str| {
        if json {
            json_at("i.jsonData", path)
        } else {
            "NULL".into()
        }
    };
    let mut sel = vec![
        "i.rowid AS rid".to_string(),
        "i.modelID AS item_id".into(),
        "i.name AS name".into(),
        "'/' || t.path AS path".into(),
        "CASE WHEN t.anc IS NULL OR t.anc IN (0, '0', '') THEN NULL ELSE t.anc END AS missing_parent"
            .into(),
        format!(
            "COALESCE({}, {}) AS kind",
            j("$.type"),
            column_expr(cols, "i.", "type")
        ),
        format!(
            "COALESCE({}, {}) AS sha1",
            column_expr(cols, "i.", "SHA1"),
            j("$.sha1")
        ),
    ];
    for (at, alias) in ITEM_JSON {
        sel.push(format!("{} AS {alias}", j(at)));
    }
    sel.push(format!(
        "{} AS link_downloads",
        j("$.shared_link.download_count")
    ));
    sel.push(format!(
        "{} AS link_previews",
        j("$.shared_link.preview_count")
    ));
    for (member, alias, _) in ITEM_USERS {
        sel.push(format!(
            "{} AS {alias}_login",
            j(&format!("$.{member}.login"))
        ));
        sel.push(format!(
            "{} AS {alias}_name",
            j(&format!("$.{member}.name"))
        ));
        sel.push(format!(
            "{} AS {alias}_q",
            qualified(&j(&format!("$.{member}.id")))
        ));
    }
    let collections = if json {
        "json_each(CASE WHEN json_valid(i.jsonData) THEN i.jsonData END, '$.collections') c"
    } else {
        "json_each(NULL) c"
    };
    sel.push(format!(
        "CASE WHEN EXISTS (SELECT 1 FROM {collections} WHERE json_extract(c.value, '$.collection_type') = 'favorites') THEN 'favourite' END AS favourite"
    ));
    sel.push(format!(
        "(SELECT group_concat(json_extract(c.value, '$.name'), ', ') FROM {collections}) AS collections"
    ));
    sel.push(select_columns(
        cols,
        "i.",
        &[("lastNetworkFetchedTimestamp", "fetched")],
    ));
    format!(
        "WITH RECURSIVE up(id, anc, path, depth) AS (SELECT modelID, parentID, coalesce(name, '?'), 0 FROM {ITEMS} \
UNION ALL SELECT up.id, p.parentID, coalesce(p.name, '?') || '/' || up.path, up.depth + 1 FROM up JOIN {ITEMS} p ON p.modelID = up.anc WHERE up.depth < 64), \
paths AS (SELECT id, anc, path, max(depth) AS depth FROM up GROUP BY id) \
SELECT {} FROM {ITEMS} i LEFT JOIN paths t ON t.id = i.modelID",
        sel.join(", ")
    )
}

/// The other users a row names (`<prefix>_q`, `_login`, `_name`), each observed as a person
/// unless it is the account's own id.
fn observe_users(
    run: &Run<'_, '_>,
    t: &Table,
    row: &[Option<String>],
    inv: &Invoked,
    users: &[(&str, &str)],
    account: Option<&Account>,
    what: &str,
) -> Result<(), RuntimeError> {
    for (prefix, role) in users {
        let get = |c: &str| raw(t, row, &format!("{prefix}_{c}")).filter(|v| !v.trim().is_empty());
        let Some(q) = get("q") else {
            continue;
        };
        if account.is_some_and(|a| a.qualified == q) {
            continue;
        }
        let (login, name) = (get("login"), get("name"));
        let label = name
            .clone()
            .or_else(|| login.clone())
            .unwrap_or_else(|| q.clone());
        let why =
            |w: &str| format!("{w} of the {role} of {what}, a Box user other than the account.");
        for (ty, v, w) in [
            (
                IdType::AccountId,
                Some(q.clone()),
                "The Box user id (qualified in the query)",
            ),
            (IdType::Email, login, "The login"),
            (IdType::DisplayName, name, "The name"),
        ] {
            if let Some(v) = v {
                run.observe(&q, EntityKind::Person, &label, ty, &v, inv, why(w))?;
            }
        }
    }
    Ok(())
}

fn read_items(
    run: &Run<'_, '_>,
    stores: &Stores<'_>,
    schema: &Schema,
    account: Option<&Account>,
    offline: &mut BTreeMap<String, Offline>,
    names: &mut Names,
) -> Result<(), RuntimeError> {
    let path = stores.path;
    if !schema.require(run, ITEMS, &["modelID", "parentID", "name"])? {
        return Ok(());
    }
    let sql = items_sql(&schema.columns(ITEMS));
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (page, (inv, t)) in paged.pages.iter().enumerate() {
        for row in &t.rows {
            let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
            let id = get("item_id").unwrap_or_else(|| "?".into());
            let shown = get("path")
                .or_else(|| get("name"))
                .unwrap_or_else(|| id.clone());
            let noun = match get("kind").as_deref() {
                Some("folder") => "folder",
                Some("file") => "file",
                Some("web_link") => "web link",
                _ => "item",
            };
            let mut d = Draft::new("files", format!("Box {noun} {shown}"));
            d.fact(FactType::Path, Some(path), stores.find);
            let mut said = d.fields(t, row, inv, &ITEM_FIELDS);
            d.times_of(t, row, inv, date_text, &ISO_TIMES);
            d.times_of(
                t,
                row,
                inv,
                unix_by_magnitude,
                &[("fetched", "Box app last fetched the item")],
            );
            if let Some(o) = offline.remove(&id)
                && let Some((plist, pinv)) = stores.plists.get(o.src)
            {
                d.fact(
                    FactType::Path,
                    Some(plist),
                    stores.plists_find.unwrap_or(stores.find),
                );
                d.fact(FactType::Identifier, Some(&o.id), pinv);
                d.time(
                    o.date.as_deref(),
                    date_text(o.date.as_deref()),
                    "Box file downloaded for offline use",
                    pinv,
                );
                said.push(format!(
                    "kept offline ({}{})",
                    file_name(plist),
                    o.date
                        .as_deref()
                        .map(|x| format!(", downloaded {x}"))
                        .unwrap_or_default()
                ));
            }
            let owner_q = get("owner_q");
            d.interpretation = format!(
                "items row {} of {file}: a Box {noun} the app cached for the account ({}). {}{}{}",
                get("rid").unwrap_or_else(|| "?".into()),
                said.join("; "),
                match (account, owner_q.as_deref()) {
                    (Some(a), Some(q)) if a.qualified == q => "The account owns it. ",
                    (Some(_), Some(_)) => "Another user owns it: it was shared with the account. ",
                    _ => "",
                },
                if get("link").is_some() {
                    "Its shared link opens it for whoever the link reaches (its access level said). "
                } else {
                    ""
                },
                if get("missing_parent").is_some() {
                    "Its path starts at the first folder the cache holds (the next parent was not cached). ISO 8601 times as written, the fetch time Unix s or ms by size."
                } else {
                    "ISO 8601 times as written, the fetch time Unix s or ms by size."
                },
            );
            run.record(d)?;
            names
                .at
                .insert(id, (shown.clone(), names.pages.len() + page));
            observe_users(
                run,
                t,
                row,
                inv,
                &ITEM_USERS.map(|(_, p, r)| (p, r)),
                account,
                &format!("the Box {noun} {shown}"),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Box items")?;
    names
        .pages
        .extend(paged.pages.into_iter().map(|(inv, _)| inv));
    Ok(())
}

/// An item's ISO 8601 times: (column, what happened).
const ISO_TIMES: [(&str, &str); 6] = [
    ("created_at", "Box item created"),
    ("modified_at", "Box item last modified"),
    ("content_created", "Box file content created"),
    ("content_modified", "Box file content last modified"),
    ("trashed_at", "Box item moved to the trash"),
    ("link_unshared", "Box shared link set to expire"),
];

/// An offline id `Item.db` does not hold.
fn offline_alone(
    run: &Run<'_, '_>,
    o: &Offline,
    plists: &Plists,
    find: Option<&Invoked>,
) -> Result<(), RuntimeError> {
    let Some((plist, inv)) = plists.get(o.src) else {
        return Ok(());
    };
    let mut d = Draft::new("files", format!("Box offline item {}", o.id));
    if let Some(f) = find {
        d.fact(FactType::Path, Some(plist), f);
    }
    d.fact(FactType::Identifier, Some(&o.id), inv);
    d.time(
        o.date.as_deref(),
        date_text(o.date.as_deref()),
        "Box file downloaded for offline use",
        inv,
    );
    d.interpretation = format!(
        "{} names the Box item {} as kept offline on the phone{}; the app's item cache does not hold it, so its name and folder are not known here.",
        file_name(plist),
        o.id,
        o.date
            .as_deref()
            .map(|x| format!(", downloaded {x}"))
            .unwrap_or_default()
    );
    run.record(d)
}

fn read_recents(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    names: &Names,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[RECENTS])? else {
        return Ok(());
    };
    if !schema.require(run, RECENTS, &["itemID"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT r.rowid AS rid, r.itemID AS item_id, {} FROM {RECENTS} r",
        select_columns(
            &schema.columns(RECENTS),
            "r.",
            &[
                ("interactionTimeStamp", "interacted"),
                ("interactionType", "interaction"),
                ("itemType", "item_type"),
            ],
        )
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let id = get("item_id");
        let known = names.get(id.as_deref());
        let interaction = get("interaction").unwrap_or_else(|| "use".into());
        let shown = known
            .map(|(s, _)| s.to_string())
            .or_else(|| id.clone())
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("files", format!("Box recent {interaction} of {shown}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("item_id", FactType::Identifier, "item id"),
                ("item_type", FactType::Text, "item type"),
                ("interaction", FactType::Text, "interaction"),
            ],
        );
        if let Some((s, i)) = known {
            d.fact(FactType::Text, Some(s), i);
        }
        let at = t.get(row, "interacted");
        d.time(at, unix_by_magnitude(at), "Box item used (recents)", inv);
        d.interpretation = format!(
            "recents row {} of {}: the Box app listed the item among its recent ones ({}{}){}; the time is Unix s or ms by size.",
            get("rid").unwrap_or_else(|| "?".into()),
            file_name(path),
            said.join("; "),
            known
                .map(|(k, _)| format!("; its path in Item.db {k}"))
                .unwrap_or_default(),
            at.map(|a| format!(", at {a}")).unwrap_or_default(),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Box recents")
}

/// `COALESCE` of the expressions, or the one, or NULL.
fn first_of(exprs: &[String]) -> String {
    match exprs {
        [] => "NULL".into(),
        [one] => one.clone(),
        many => format!("COALESCE({})", many.join(", ")),
    }
}

/// The query of `fileActivity` with its comment and annotation where the tables are.
fn comments_sql(schema: &Schema) -> String {
    let f = schema.columns(ACTIVITY);
    let c = schema.columns(COMMENTS);
    let a = schema.columns(ANNOTATIONS);
    let (has_c, has_a) = (c.contains("id") && c.contains("jsonData"), a.contains("id"));
    let cj = |p: &str| json_at("c.jsonData", p);
    let a_json = |col: &str, p: &str| {
        if a.contains(col) {
            json_at(&format!("a.{col}"), p)
        } else {
            "NULL".into()
        }
    };
    let pick = |from_c: String, from_a: String| {
        let mut v = Vec::new();
        if has_c {
            v.push(from_c);
        }
        if has_a && from_a != "NULL" {
            v.push(from_a);
        }
        first_of(&v)
    };
    let mut sel = vec![
        "f.rowid AS rid".to_string(),
        "f.id AS activity_id".into(),
        "f.fileID AS file_id".into(),
        select_columns(
            &f,
            "f.",
            &[
                ("type", "kind"),
                ("createdAt", "created"),
                ("networkFetchedAt", "fetched"),
            ],
        ),
        format!(
            "{} AS message",
            pick(cj("$.message"), a_json("descriptionJSONData", "$.message"))
        ),
        format!("{} AS tagged", pick(cj("$.tagged_message"), "NULL".into())),
        format!("{} AS c_modified", pick(cj("$.modified_at"), "NULL".into())),
        format!(
            "{} AS is_reply",
            if has_c {
                column_expr(&c, "c.", "isReply")
            } else {
                "NULL".into()
            }
        ),
        format!(
            "{} AS a_modified",
            if has_a {
                column_expr(&a, "a.", "modifiedAt")
            } else {
                "NULL".into()
            }
        ),
    ];
    for (alias, c_member, a_col) in [
        ("author", "created_by", "createdByJSONData"),
        ("editor", "modified_by", "modifiedByJSONData"),
    ] {
        sel.push(format!(
            "{} AS {alias}_login",
            pick(cj(&format!("$.{c_member}.login")), a_json(a_col, "$.login"))
        ));
        sel.push(format!(
            "{} AS {alias}_name",
            pick(cj(&format!("$.{c_member}.name")), a_json(a_col, "$.name"))
        ));
        sel.push(format!(
            "{} AS {alias}_q",
            qualified(&pick(
                cj(&format!("$.{c_member}.id")),
                a_json(a_col, "$.id")
            ))
        ));
    }
    let mut from = format!("FROM {ACTIVITY} f");
    if has_c {
        from.push_str(&format!(" LEFT JOIN {COMMENTS} c ON c.id = f.id"));
    }
    if has_a {
        from.push_str(&format!(" LEFT JOIN {ANNOTATIONS} a ON a.id = f.id"));
    }
    format!("SELECT {} {from}", sel.join(", "))
}

fn read_comments(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    account: Option<&Account>,
    names: &Names,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[ACTIVITY, COMMENTS, ANNOTATIONS])? else {
        return Ok(());
    };
    if !schema.require(run, ACTIVITY, &["id", "fileID"])? {
        return Ok(());
    }
    let Some(paged) = run.paged(path, &comments_sql(&schema), "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let kind = get("kind").unwrap_or_else(|| "comment".into());
        let known = names.get(get("file_id").as_deref());
        let file = known
            .map(|(s, _)| s.to_string())
            .or_else(|| get("file_id"))
            .unwrap_or_else(|| "?".into());
        let who = get("author_name")
            .or_else(|| get("author_login"))
            .unwrap_or_else(|| "an unnamed user".into());
        let mut d = Draft::new("messages", format!("Box {kind} on {file} by {who}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(t, row, inv, &ACTIVITY_FIELDS);
        if let Some((s, i)) = known {
            d.fact(FactType::Text, Some(s), i);
        }
        let times: [(&str, Encoding, &str); 4] = [
            ("created", unix_by_magnitude, "Box comment made"),
            ("c_modified", date_text, "Box comment last edited"),
            (
                "a_modified",
                unix_by_magnitude,
                "Box annotation last edited",
            ),
            ("fetched", unix_by_magnitude, "Box app fetched the comment"),
        ];
        for (col, enc, what) in times {
            let v = t.get(row, col);
            d.time(v, enc(v), what, inv);
        }
        d.interpretation = format!(
            "fileActivity row {} of {}: a {kind} left on the Box file {file} ({}); a comment is read by the file's collaborators, an annotation is a note on a spot of the file. Made and fetched times Unix s or ms by size, a comment's edit time ISO 8601.",
            get("rid").unwrap_or_else(|| "?".into()),
            file_name(path),
            said.join("; "),
        );
        run.record(d)?;
        observe_users(
            run,
            t,
            row,
            inv,
            &[("author", "author"), ("editor", "last editor")],
            account,
            &format!("a Box {kind} kept in {}", file_name(path)),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Box comments and annotations")
}

fn read_previews(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    dir: &str,
    names: &Names,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[PREVIEWS])? else {
        return Ok(());
    };
    if !schema.require(run, PREVIEWS, &["fileID"])? {
        return Ok(());
    }
    let p = schema.columns(PREVIEWS);
    let reps = if p.contains("representations") {
        "(SELECT group_concat(json_extract(e.value, '$.representation') || coalesce(' ' || json_extract(e.value, '$.properties.dimensions'), ''), ', ') \
FROM json_each(CASE WHEN json_valid(p.representations) THEN p.representations END, '$.entries') e)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT p.rowid AS rid, p.fileID AS file_id, {}, {reps} AS representations FROM {PREVIEWS} p",
        select_columns(
            &p,
            "p.",
            &[
                ("name", "name"),
                ("lastAccessedDate", "accessed"),
                ("sha1", "sha1"),
            ],
        )
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let user = path
        .strip_prefix(dir)
        .and_then(|r| r.split('/').next())
        .unwrap_or("?");
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let known = names.get(get("file_id").as_deref());
        let shown = get("name")
            .or_else(|| known.map(|(s, _)| s.to_string()))
            .or_else(|| get("file_id"))
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("media", format!("Box preview of {shown}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, Some(user), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("file_id", FactType::Identifier, "file id"),
                ("name", FactType::Name, "name"),
                ("sha1", FactType::Hash, "SHA-1"),
                ("representations", FactType::Text, "representations"),
            ],
        );
        if let Some((s, i)) = known {
            d.fact(FactType::Text, Some(s), i);
        }
        let at = t.get(row, "accessed");
        d.time(at, unix_by_magnitude(at), "Box preview last accessed", inv);
        d.interpretation = format!(
            "previewItems row {} of {} (the preview cache of the Box user folder {user}): the app rendered a preview of the file on the phone, so it was viewed in the app ({}); the access time is Unix s or ms by size.",
            get("rid").unwrap_or_else(|| "?".into()),
            file_name(path),
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Box previews")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries() {
        let cols: std::collections::BTreeSet<String> = ["modelID", "parentID", "name", "jsonData"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let sql = items_sql(&cols);
        assert!(sql.starts_with("WITH RECURSIVE up(id, anc, path, depth)"));
        assert!(sql.ends_with("FROM items i LEFT JOIN paths t ON t.id = i.modelID"));
        assert!(sql.contains("NULL AS fetched"));
        assert!(sql.contains("COALESCE(NULL, CASE WHEN json_valid(i.jsonData)"));
        assert_eq!(first_of(&[]), "NULL");
        assert_eq!(first_of(&["a".into(), "b".into()]), "COALESCE(a, b)");
        assert_eq!(
            qualified("x"),
            "CASE WHEN x IS NOT NULL AND x != '' THEN 'box:' || x END"
        );
    }
}
