//! Which app owns each container: the metadata containermanagerd writes in every container's
//! folder (`.com.apple.mobile_container_manager.metadata.plist`), iLEAPP's `appGrouplisting`
//! ("Bundle ID by AppGroup & PluginKit IDs") for app groups (`Containers/Shared/AppGroup/<GUID>/`)
//! and app extensions (`Containers/Data/PluginKitPlugin/<GUID>/`), and the same file of the
//! apps' data containers (`Containers/Data/Application/<GUID>/`), which iLEAPP's
//! `secretCalculator` reads to find the Secret Calculator Photo Album; read with `parse_plist`:
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | each container's metadata plist | one `apps` per container ("<kind> container <GUID> belongs to <bundle id>", " (vault app: <name>)" after it for an app of [`VAULT_APPS`]) | the file, the container's folder and GUID (its name), `MCMMetadataIdentifier` (the owner: an app's, extension's or app group's identifier), `MCMMetadataUUID`, `MCMMetadataContentClass`, `MCMMetadataSchemaVersion`, `MCMMetadataVersion`, `MCMMetadataActiveDPClass`, every scalar of `MCMMetadataInfo` (content protection class, disk usage …), the user identity's `personaUniqueString` and `posixUID` |
//! | a vault app's `Library/data.sqlite`: `Photos` (with `Albums`) | one `media` per hidden item ("<vault name> hidden photo|video|item <path>") | the stored path, the item's id, its date (Unix seconds), the video flag, the album's name and date (the `Albums` row whose `id` is the item's `id`, as iLEAPP pairs them) |
//!
//! The container's GUID is what every artefact path of the app holds, so this names a path's
//! app where FrontBoard's application state ([`super::appstate`]) does not — for app groups and
//! extensions, which it does not list, and for data containers when the database is missing.
//! The metadata says the container existed under that owner; it says nothing of when the app
//! was installed or used, and an app group's or extension's container can outlive its app
//! (iLEAPP saw listings kept for apps no longer installed). The content class and
//! data-protection numbers are kept as stored.
//!
//! [`VAULT_APPS`] are apps that hide photos and videos behind a disguise (a working calculator):
//! their container is flagged in its title and interpretation, and their store of hidden items
//! is read. The list is iLEAPP's (`secretCalculator` knows one such app).
//!
//! Other containers' metadata (system containers, `Containers/Data/System/`, and the like) is not
//! read, as iLEAPP. A metadata file that is no dictionary or has no `MCMMetadataIdentifier` is
//! noted; one that does not parse is noted by the call. A vault store whose `Photos` lacks
//! `path` is noted; `id`, `date`, `video` and the `Albums` table are read where the store has
//! them (NULL otherwise); its rows are paged by `rowid`. At most [`ENTRY_CAP`] containers a
//! source (noted beyond).
//!
//! Identities: none (an owner is an app, not a person).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run};
use crate::calls::column_or_null;
use crate::drafts::unix_seconds;
use crate::outputs::{in_json, json_leaves, raw};

/// The metadata file's name.
pub const METADATA: &str = ".com.apple.mobile_container_manager.metadata.plist";

/// The kinds of container read: (the folder holding them, what they are).
static KINDS: [(&str, &str); 3] = [
    ("/Containers/Data/Application/", "App data"),
    ("/Containers/Shared/AppGroup/", "App group"),
    ("/Containers/Data/PluginKitPlugin/", "App extension data"),
];

/// Apps that hide photos and videos behind a disguise, as iLEAPP's `secretCalculator` knows
/// them: (bundle id, name, its store of hidden items inside the data container).
pub static VAULT_APPS: [(&str, &str, &str); 1] = [(
    "xyz.hypertornado.calculator",
    "Secret Calculator Photo Album",
    "Library/data.sqlite",
)];

/// The metadata's scalar members: (key, type, label).
const FIELDS: [(&str, FactType, &str); 5] = [
    ("MCMMetadataUUID", FactType::Identifier, "MCMMetadataUUID"),
    (
        "MCMMetadataContentClass",
        FactType::Text,
        "content class (as stored)",
    ),
    ("MCMMetadataSchemaVersion", FactType::Text, "schema version"),
    ("MCMMetadataVersion", FactType::Text, "metadata version"),
    (
        "MCMMetadataActiveDPClass",
        FactType::Text,
        "active data-protection class (as stored)",
    ),
];

/// The user identity's members read: (key, type, label).
const USER: [(&str, FactType, &str); 2] = [
    ("personaUniqueString", FactType::Identifier, "persona"),
    ("posixUID", FactType::Text, "POSIX user id"),
];

/// Most `MCMMetadataInfo` values recorded of one container.
const INFO_MAX: usize = 50;

/// A container whose store of hidden items is looked for: (its folder, bundle id, vault name,
/// store path inside the folder).
type Vault = (String, &'static str, &'static str, &'static str);

/// The container a metadata file describes: (its folder, GUID, kind), for the three kinds read.
pub fn container(path: &str) -> Option<(&str, &str, &'static str)> {
    let dir = path.strip_suffix(METADATA)?.strip_suffix('/')?;
    let (parent, guid) = dir.rsplit_once('/')?;
    let parent = format!("{parent}/");
    let (_, kind) = KINDS.iter().find(|(k, _)| parent.ends_with(k))?;
    (!guid.is_empty()).then_some((dir, guid, *kind))
}

/// Triage of every container metadata file of the source, then of the vault apps' stores.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    let mut capped = false;
    let mut vaults: Vec<Vault> = Vec::new();
    run.each(".com.apple.mobile_container_manager.metadata.plist", |find, path| {
        let Some((dir, guid, kind)) = container(path) else {
            return Ok(());
        };
        if count >= ENTRY_CAP as usize {
            if !capped {
                capped = true;
                run.ctx.unparsed(
                    path,
                    &format!(
                        "more than {ENTRY_CAP} containers: the metadata of those past the first {ENTRY_CAP} was not read"
                    ),
                    Some(&find.record.invocation_id),
                )?;
            }
            return Ok(());
        }
        count += 1;
        if let Some(v) = one(run, find, path, dir, guid, kind)? {
            vaults.push(v);
        }
        Ok(())
    })?;
    if vaults.is_empty() {
        return Ok(());
    }
    let Some((find, stores)) = run.find("data.sqlite")? else {
        return Ok(());
    };
    for (dir, bundle, name, rel) in &vaults {
        let store = format!("{dir}/{rel}");
        if stores.contains(&store) {
            hidden_items(run, &find, &store, bundle, name)?;
        }
    }
    Ok(())
}

/// One container's metadata; the container when its owner is a vault app.
fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    dir: &str,
    guid: &str,
    kind: &'static str,
) -> Result<Option<Vault>, RuntimeError> {
    let Some((inv, doc)) = parse(run, path)? else {
        return Ok(None);
    };
    if !doc.is_object() {
        run.ctx.unparsed(
            path,
            "could not read the container's owner because its metadata is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    }
    let Some(owner) = doc
        .get("MCMMetadataIdentifier")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
    else {
        run.ctx.unparsed(
            path,
            "could not read the container's owner because its metadata holds no MCMMetadataIdentifier",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    };
    let id = in_json(owner);
    let vault = VAULT_APPS.iter().find(|(b, _, _)| *b == owner);
    let mut d = Draft::new(
        "apps",
        format!(
            "{kind} container {guid} belongs to {id}{}",
            vault
                .map(|(_, n, _)| format!(" (vault app: {n})"))
                .unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Path, Some(dir), find);
    d.fact(FactType::Identifier, Some(guid), find);
    d.fact(FactType::Identifier, Some(id.as_str()), &inv);
    let mut said = d.json_fields(&doc, &inv, &FIELDS);
    if let Some(info) = doc.get("MCMMetadataInfo").filter(|i| i.is_object()) {
        let mut leaves = Vec::new();
        json_leaves(info, "", &mut leaves);
        for (k, v) in leaves.iter().take(INFO_MAX) {
            d.fact(FactType::Text, Some(v.as_str()), &inv);
            said.push(format!("MCMMetadataInfo {k} {v}"));
        }
    }
    if let Some(user) = doc.get("MCMMetadataUserIdentity").filter(|u| u.is_object()) {
        said.extend(d.json_fields(user, &inv, &USER));
    }
    let whose = match kind {
        "App data" => "that app's",
        "App group" => "shared by the apps of that group",
        _ => "that app extension's",
    };
    d.interpretation = format!(
        "containermanagerd's metadata of the {} container {guid} ({dir}) names {id} as its owner (MCMMetadataIdentifier){}. Files under {dir} are {whose}. The metadata says the container existed under that owner, not when the app was installed or last used; {}{}",
        kind.to_lowercase(),
        if said.is_empty() {
            String::new()
        } else {
            format!("; {}", said.join(", "))
        },
        if kind == "App data" {
            "a data container goes when its app is deleted."
        } else {
            "an app group's or extension's container can outlive its app (iLEAPP saw listings kept for apps no longer installed)."
        },
        vault
            .map(|(_, n, rel)| format!(
                " {id} is {n}, an app that hides photos and videos behind a working calculator (a vault, as iLEAPP's secretCalculator flags it); its {rel} lists the hidden items."
            ))
            .unwrap_or_default(),
    );
    run.record(d)?;
    Ok(vault.map(|(b, n, rel)| (dir.to_string(), *b, *n, *rel)))
}

/// The items a vault app hides (`Photos`, each with the `Albums` row of its id).
fn hidden_items(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    bundle: &str,
    name: &str,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["Photos", "Albums"])? else {
        return Ok(());
    };
    if !schema.require(run, "Photos", &["path"])? {
        return Ok(());
    }
    let p = schema.columns("Photos");
    let a = schema.columns("Albums");
    let album = |col: &str, alias: &str| {
        if p.contains("id") && a.contains("id") && a.contains(col) {
            format!("(SELECT a.{col} FROM Albums a WHERE a.id = p.id LIMIT 1) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT * FROM (SELECT p.rowid AS rid, {}, {}, p.path AS stored_path, {}, {}, {} FROM Photos p) q",
        column_or_null(&p, "p.", "id", "item_id"),
        column_or_null(&p, "p.", "date", "item_date"),
        column_or_null(&p, "p.", "video", "video"),
        album("name", "album"),
        album("date", "album_date"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let stored = get("stored_path");
        let video = get("video");
        let what = match video.as_deref() {
            Some("1") => "video",
            Some("0") => "photo",
            _ => "item",
        };
        let mut d = Draft::new(
            "media",
            format!(
                "{name} hidden {what} {}",
                stored.as_deref().unwrap_or("without a path")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("stored_path", FactType::Name, "stored path"),
                ("item_id", FactType::Identifier, "id"),
                ("video", FactType::Text, "video flag"),
                ("album", FactType::Name, "album"),
            ],
        );
        let date = get("item_date");
        d.time(
            date.as_deref(),
            unix_seconds(date.as_deref()),
            &format!("{name} item date"),
            inv,
        );
        let album_date = get("album_date");
        d.time(
            album_date.as_deref(),
            unix_seconds(album_date.as_deref()),
            &format!("{name} album date"),
            inv,
        );
        d.interpretation = format!(
            "Photos rowid {} of {path}: an item hidden in {name} ({bundle}), an app that shows a working calculator and keeps photos and videos behind it ({}{}{}). The app keeps the file under Library/Data/ of its container by the stored path (iLEAPP names it <path>.mov); the album is the Albums row whose id is the item's id, as iLEAPP pairs them.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
            date.map(|v| format!("; date {v} (Unix seconds)"))
                .unwrap_or_default(),
            album_date
                .map(|v| format!("; album date {v} (Unix seconds)"))
                .unwrap_or_default(),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, &format!("{name} items"))
}
