//! Kik's attachment metadata (`Containers/Shared/AppGroup/<id>/cores/private/<account>/
//! attachments/<content id>`), iLEAPP's `kikBplistmeta`: one binary property list per file a
//! Kik message carried, kept beside `kik.sqlite` (which [`super::kik`] reads), read with
//! `parse_plist`.
//!
//! | key | phenomenon | fields |
//! |---|---|---|
//! | the file (one per attachment) | one `messages` per attachment ("Kik attachment <file name or content id>") | content id (`id`), app id (`app-id`); of `string` (name and value pairs): file name, file size, allow forward, layout, app name, and any other pair by its name; of `hashes`: the original's and the scaled copy's SHA-1, the scaled copy's block hash, any other by its name; whether an embedded thumbnail (`image`) is kept (not read) |
//!
//! The content id is the one a message's attachment row names (`ZKIKATTACHMENT.ZCONTENT` of
//! `kik.sqlite`, the name of the media in `content_manager/data_cache/`), so an attachment
//! whose message was deleted still shows what was sent or received: its name, size, the app
//! that shared it and its hashes (an original's SHA-1 can be matched against files found
//! elsewhere). Dot files are passed over; files of the folder that are no property list, or
//! not one of this shape (no `id`, `string` nor `hashes`), are counted in one note per folder.
//! Identities: none (the plist names no user).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, file_name};
use crate::outputs::json_scalar;

/// The folder's name, searched as a folder.
pub const FOLDER: &str = "attachments";

/// Whether `dir` is a Kik account's attachments folder.
pub fn is_folder(dir: &str) -> bool {
    dir.contains("/Containers/Shared/AppGroup/")
        && dir.contains("/cores/private/")
        && dir.ends_with("/attachments")
}

/// The `string` pairs read by name: `(name, type, label)`; others are text by their name.
const STRINGS: [(&str, FactType, &str); 5] = [
    ("file-name", FactType::Name, "file name"),
    ("file-size", FactType::Count, "file size"),
    ("allow-forward", FactType::Text, "allow forward"),
    ("layout", FactType::Text, "layout"),
    ("app-name", FactType::Name, "app name"),
];

/// Triage of every Kik attachments folder the one search found.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((_, dirs)) = run.find_dirs(FOLDER)? else {
        return Ok(());
    };
    for dir in dirs.iter().filter(|d| is_folder(d)) {
        folder(run, dir)?;
    }
    Ok(())
}

fn folder(run: &Run<'_, '_>, dir: &str) -> Result<(), RuntimeError> {
    let Some(listed) =
        crate::calls::call_or_note(run.ctx, dir, "list_dir", json!({ "path": dir }))?
    else {
        return Ok(());
    };
    let mut other: Vec<String> = Vec::new();
    for path in crate::outputs::found_paths(&listed.output.text) {
        if file_name(&path).starts_with('.') {
            continue;
        }
        let inv = run.ctx.call("parse_plist", json!({ "path": path }))?;
        let parsed = crate::calls::succeeded(&inv)
            .then(|| serde_json::from_str::<Value>(&inv.output.text).ok())
            .flatten()
            .filter(|v| {
                ["id", "string", "hashes"]
                    .iter()
                    .any(|k| v.get(k).is_some())
            });
        match parsed {
            Some(v) => one(run, &listed, &inv, &path, &v)?,
            None => other.push(file_name(&path).to_string()),
        }
    }
    if !other.is_empty() {
        run.ctx.unparsed(
            dir,
            &format!(
                "{} files of the Kik attachments folder are no attachment property list (no id, string or hashes; not read): {}",
                other.len(),
                other.join(", ")
            ),
            Some(&listed.record.invocation_id),
        )?;
    }
    Ok(())
}

/// The `(name, value)` pairs of a list of `{name, value}` dictionaries, each value as the
/// output prints it.
fn pairs(v: Option<&Value>) -> Vec<(String, String)> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let name = p.get("name")?.as_str()?.to_string();
            let value = json_scalar(p.get("value"))?;
            Some((name, value))
        })
        .collect()
}

fn one(
    run: &Run<'_, '_>,
    listed: &Invoked,
    inv: &Invoked,
    path: &str,
    v: &Value,
) -> Result<(), RuntimeError> {
    let id = json_scalar(v.get("id"));
    let strings = pairs(v.get("string"));
    let hashes = pairs(v.get("hashes"));
    let named = |n: &str| strings.iter().find(|(k, _)| k == n).map(|(_, x)| x.clone());
    let mut d = Draft::new(
        "messages",
        format!(
            "Kik attachment {}",
            named("file-name")
                .or_else(|| id.clone())
                .unwrap_or_else(|| file_name(path).to_string())
        ),
    );
    d.fact(FactType::Path, Some(path), listed);
    let mut said = d.json_fields(
        v,
        inv,
        &[
            ("id", FactType::Identifier, "content id"),
            ("app-id", FactType::Identifier, "app id"),
        ],
    );
    for (name, value) in &strings {
        let (ft, label) = STRINGS
            .iter()
            .find(|(k, ..)| *k == name.as_str())
            .map(|(_, ft, label)| (*ft, *label))
            .unwrap_or((FactType::Text, name.as_str()));
        d.fact(ft, Some(value), inv);
        said.push(format!("{label} {value}"));
    }
    for (name, value) in &hashes {
        let ft = if name.starts_with("sha1") {
            FactType::Hash
        } else {
            FactType::Text
        };
        d.fact(ft, Some(value), inv);
        said.push(format!("{name} {value}"));
    }
    let thumbnail = v
        .get("image")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    d.interpretation = format!(
        "{path}: the metadata Kik kept for a file a message carried ({}){}; the content id is the one the message's attachment row of kik.sqlite names (ZKIKATTACHMENT.ZCONTENT), so it stands for what was sent or received even when the message is gone.",
        said.join("; "),
        if thumbnail {
            "; it also holds an embedded thumbnail (not read)"
        } else {
            ""
        }
    );
    run.record(d)
}
