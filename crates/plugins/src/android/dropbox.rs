//! Dropbox (`com.dropbox.android/databases/`), ALEAPP's `dropbox` (`dropbox_files`,
//! `dropbox_account`, `dropbox_thumbnails`): the account's store `<account>-db.db` and its
//! preferences `<account>-prefs.db`.
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `*-db.db`, `dropbox` | one `files` per file or folder the app knew in the account ("Dropbox file: <path>") | name, path, size, MIME type, folder, favourite, shared folder id, read only, in the Vault, revision; server modified, modified, local modified, accessed (Unix ms) |
//! | `*-db.db`, `thumbnail_info` | one `files` per cached thumbnail ("Dropbox thumbnail cached: <path>") | the path in the account, size and format of the thumbnail, revision |
//! | `*-prefs.db`, `DropboxAccountPrefs` | one `accounts` for the account ("Dropbox account …") | every e-mail address and `dbid:` account id in the account preferences (`ACCOUNT_INFO`, `FULL_ACCOUNT_INFO_V2`, `PLAN_INFO_V2`: base64 of Protocol Buffers messages, decoded by `sqlite_query`'s `base64` and `protobuf` options), the plan, the photo upload destination, the last URI, sign-up and last login times (Unix ms) |
//!
//! Identities: the account's e-mail address and its `dbid:` id are the device's user's
//! (`owner`): the account signed in on the phone. A file listed is in the account (on Dropbox's
//! servers), not necessarily on the phone (said). Columns are taken by name; a store without
//! its table is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, email_addresses, pages_on_args};
use crate::outputs::raw;

/// The app's folder of stores.
const FOLDER: &str = "/com.dropbox.android/databases/";

/// Whether `l` is an account's file store (`<account>-db.db`).
pub fn is_files(l: &Located) -> bool {
    l.path.contains(FOLDER) && l.name().ends_with("-db.db")
}

/// Whether `l` is an account's preferences (`<account>-prefs.db`).
pub fn is_prefs(l: &Located) -> bool {
    l.path.contains(FOLDER) && l.name().ends_with("-prefs.db")
}

/// An account's file store: files, then cached thumbnails.
pub fn files(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = super::databases::tables_with(ctx, l, &["dropbox"])? else {
        return Ok(());
    };
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Dropbox's account store",
            table: "dropbox",
            required: &["path"],
            optional: &[
                "_display_name",
                "bytes",
                "mime_type",
                "is_dir",
                "is_favorite",
                "shared_folder_id",
                "read_only",
                "is_vault_folder",
                "revision",
                "server_modified_millis",
                "modified_millis",
                "local_modified",
                "accessed_millis",
            ],
            rows: "Dropbox files",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let Some(path) = raw(t, row, "path") else {
            continue;
        };
        let folder = t.get(row, "is_dir") == Some("1");
        let mut d = Draft::new(
            "files",
            format!("Dropbox {}: {path}", if folder { "folder" } else { "file" }),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Path, Some(&path), inv);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("_display_name", FactType::Name, "name"),
                ("bytes", FactType::Count, "size"),
                ("mime_type", FactType::Text, "MIME type"),
                ("shared_folder_id", FactType::Identifier, "shared folder"),
                ("revision", FactType::Identifier, "revision"),
            ],
        );
        for (col, what) in [
            ("is_favorite", "a favourite"),
            ("read_only", "read only"),
            ("is_vault_folder", "in the Vault"),
        ] {
            if t.get(row, col) == Some("1") {
                d.fact(FactType::Text, t.get(row, col), inv);
                said.push(what.into());
            }
        }
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                (
                    "server_modified_millis",
                    "File modified on Dropbox's servers",
                ),
                ("modified_millis", "File modified"),
                ("local_modified", "Local copy modified"),
                ("accessed_millis", "File opened in the app"),
            ],
        );
        d.interpretation = format!(
            "dropbox row {} of {name}: a {} in the Dropbox account signed in on the phone ({}); it is in the account, which does not say a copy is on the phone; the times are Unix milliseconds.",
            t.get(row, "rowid").unwrap_or("?"),
            if folder { "folder" } else { "file" },
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    if !tables.iter().any(|t| t == "thumbnail_info") {
        return Ok(());
    }
    let Some((_, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Dropbox's account store",
            table: "thumbnail_info",
            required: &["dropbox_canon_path"],
            optional: &["thumb_size", "format", "revision"],
            rows: "Dropbox thumbnails",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let Some(path) = raw(t, row, "dropbox_canon_path") else {
            continue;
        };
        let mut d = Draft::new("files", format!("Dropbox thumbnail cached: {path}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Path, Some(&path), inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("thumb_size", FactType::Text, "size"),
                ("format", FactType::Text, "format"),
                ("revision", FactType::Identifier, "revision"),
            ],
        );
        d.interpretation = format!(
            "thumbnail_info row {} of {name}: the app cached a thumbnail of {path} from the account ({}): the file was shown in the app; the image bytes are elsewhere in its cache.",
            t.get(row, "rowid").unwrap_or("?"),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// Every string of a decoded message, depth first.
fn strings<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match v {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Preferences quoted as stored text, with what they are.
const TEXT_PREFS: &[(&str, &str)] = &[
    ("PHOTO_UPLOAD_LAST_DESTINATION", "photo upload destination"),
    ("LAST_URI", "last URI"),
    ("IS_SIGN_UP", "signed up on this phone"),
    ("UPGRADE_SOURCE_FOR_JTBD", "upgrade source"),
];

/// Preferences holding Unix ms, with what happened.
const TIME_PREFS: &[(&str, &str)] = &[
    ("USER_SIGN_UP_DATE", "Dropbox account signed up"),
    ("LAST_USER_LOGIN_TIME", "Dropbox last login"),
    (
        "NOTIFICATION_PERMISSION_REQUEST_TIMESTAMP",
        "Dropbox asked for notification permission",
    ),
];

/// An account's preferences: one phenomenon for the account, its identities the owner's.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if super::databases::tables_with(ctx, l, &["DropboxAccountPrefs"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    if crate::identity::required_columns(
        ctx,
        &l.tree,
        &l.path,
        "Dropbox's account preferences",
        "DropboxAccountPrefs",
        &["pref_name", "pref_value"],
    )?
    .is_none()
    {
        return Ok(());
    }
    let mut extra = serde_json::Map::new();
    extra.insert("base64".into(), serde_json::json!(true));
    extra.insert("protobuf".into(), serde_json::json!(true));
    let Some(pages) = pages_on_args(
        ctx,
        &l.tree,
        &l.path,
        "SELECT pref_name, pref_value FROM DropboxAccountPrefs ORDER BY pref_name",
        &extra,
    )?
    else {
        return Ok(());
    };
    // facts gathered before the title (the first address) is known
    let mut facts: Vec<(FactType, String, &masf_tools::Invoked)> = Vec::new();
    let mut times: Vec<(String, &str, &masf_tools::Invoked)> = Vec::new();
    let mut emails: Vec<(String, String)> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    let mut said = Vec::new();
    let mut cite = None;
    for (inv, t, row) in pages.rows() {
        cite.get_or_insert(inv);
        let pref = t.get(row, "pref_name").unwrap_or_default();
        let value = t.get(row, "pref_value").unwrap_or_default();
        if let Some(m) = crate::outputs::protobuf_cell(value) {
            let mut all = Vec::new();
            strings(&m, &mut all);
            for s in all {
                for (written, lower) in email_addresses(s) {
                    if !emails.iter().any(|(_, l)| *l == lower) {
                        facts.push((FactType::Email, written.clone(), inv));
                        said.push(format!("e-mail {written} ({pref})"));
                        emails.push((written, lower));
                    }
                }
                if let Some(id) = s
                    .split(|c: char| c.is_whitespace() || c == '"')
                    .find(|w| w.starts_with("dbid:") && w.len() > 5)
                    && !ids.iter().any(|i| i == id)
                {
                    facts.push((FactType::Account, id.to_string(), inv));
                    said.push(format!("account id {id} ({pref})"));
                    ids.push(id.to_string());
                }
                if s.starts_with("Dropbox ") && pref == "PLAN_INFO_V2" {
                    facts.push((FactType::Text, s.to_string(), inv));
                    said.push(format!("plan {s}"));
                }
            }
            continue;
        }
        if let Some((_, what)) = TEXT_PREFS.iter().find(|(p, _)| *p == pref)
            && let Some(v) = raw(t, row, "pref_value").filter(|v| !v.trim().is_empty())
        {
            said.push(format!("{what} {v}"));
            facts.push((FactType::Text, v, inv));
        }
        if let Some((_, what)) = TIME_PREFS.iter().find(|(p, _)| *p == pref) {
            times.push((value.to_string(), what, inv));
        }
    }
    let Some(inv) = cite else {
        return Ok(());
    };
    let shown = emails
        .first()
        .map(|(w, _)| w.clone())
        .or_else(|| ids.first().cloned())
        .unwrap_or_else(|| l.name().to_string());
    let mut d = Draft::new("accounts", format!("Dropbox account {shown}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    for (ft, v, inv) in &facts {
        d.fact(*ft, Some(v), inv);
    }
    for (v, what, inv) in &times {
        d.time(Some(v), unix_millis(Some(v)), what, inv);
    }
    d.interpretation = format!(
        "DropboxAccountPrefs of {name}: the Dropbox account signed in on the phone ({}); the account preferences ACCOUNT_INFO, FULL_ACCOUNT_INFO_V2 and PLAN_INFO_V2 are base64 of Protocol Buffers messages, read as decoded; times are Unix milliseconds.",
        if said.is_empty() {
            "no identity in its preferences".to_string()
        } else {
            said.join("; ")
        },
    );
    record_draft(ctx, d)?;
    crate::identity::observe_owner_ids(
        ctx,
        inv,
        emails
            .iter()
            .map(|(w, _)| (Some(w.clone()), IdType::Email, "The e-mail address"))
            .chain(ids.iter().map(|id| {
                (
                    Some(id.clone()),
                    IdType::AccountId,
                    "The Dropbox account id",
                )
            }))
            .collect(),
        &|what| {
            format!(
                "{what} of the Dropbox account signed in on the device ({name}), the device's user."
            )
        },
    )?;
    Ok(())
}
