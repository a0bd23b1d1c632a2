//! RAR for Android (`com.rarlab.rar/shared_prefs/com.rarlab.rar_preferences.xml`), ALEAPP's
//! `rarlabPreferences` (`get_rarlabPreferences`): the archives the app opened and the folders it
//! extracted to, as its histories keep them, and its other preferences.
//!
//! | preference | phenomenon | fields |
//! |---|---|---|
//! | `ArcHistory` (a JSON array kept as a string preference) | one `files` per archive in the history ("RAR archive in history: <path>") | the archive's path (as the file writes it: JSON, `/` escaped or not, XML-escaped), the preference |
//! | `ExtrPathHistory` (the same) | one `files` per folder in the history ("RAR extraction folder in history: <path>") | the folder's path, the preference |
//! | every other preference | one `apps` for the settings ("RAR settings") | each preference's name and value as stored (the start folder `prefs_start_folder`, the default extraction folder `prefs_def_extr_folder`, whether the histories are kept, sort, theme, favourites …) |
//!
//! A path in a history was opened (an archive) or extracted to (a folder) in the app at some
//! time — the histories keep no time, only their order (most recent first, as the app lists
//! them; the position is said in the interpretation, not a fact). The archive may since have
//! been moved or deleted; the path says where it was, not what it held. An archive opened from
//! another app (a download, a messenger's document) shows its path there. Identities: none.
//!
//! The file is read with `read_xml` (plain XML, or ABX decoded to the same text); each path is
//! cited in the form the output keeps it (org.json writes `\/`; Android's serializer escapes
//! `&`, `<`, `>`, `"`), the title giving it decoded. A file that is not XML, or holds no
//! preference, is noted; a history that is not a JSON array of strings is noted and the other
//! preferences still read.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::Value;

use super::Located;
use super::prefs::{cited_in_prefs, pref_json, prefs_xml};
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// The histories: `(preference, title prefix, what one entry is)`.
const HISTORIES: &[(&str, &str, &str)] = &[
    (
        "ArcHistory",
        "RAR archive in history",
        "an archive opened in RAR",
    ),
    (
        "ExtrPathHistory",
        "RAR extraction folder in history",
        "a folder RAR extracted archives to",
    ),
];

/// Whether `l` is RAR's preferences.
pub fn is_store(l: &Located) -> bool {
    l.name() == "com.rarlab.rar_preferences.xml" && l.path.contains("/com.rarlab.rar/")
}

/// One preferences file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "RAR", None)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if prefs.is_empty() {
        ctx.unparsed(
            &name,
            "RAR's preferences hold no preference",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let mut settings: Vec<(&str, &str)> = Vec::new();
    for (key, value) in &prefs {
        let Some((_, prefix, what)) = HISTORIES.iter().find(|(k, _, _)| k == key) else {
            settings.push((key.as_str(), value.as_str()));
            continue;
        };
        let paths: Vec<String> = match pref_json(value) {
            Ok(Value::Array(items)) if items.iter().all(Value::is_string) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            _ => {
                ctx.unparsed(
                    &name,
                    &format!("could not parse RAR's {key} because it is not a JSON array of paths"),
                    Some(&inv.record.invocation_id),
                )?;
                continue;
            }
        };
        let count = paths.len();
        for (i, path) in paths.iter().enumerate().filter(|(_, p)| !p.is_empty()) {
            let mut d = Draft::new("files", format!("{prefix}: {path}"));
            d.fact(FactType::Path, Some(&l.path), &l.found);
            let cited = cited_in_prefs(&inv, path);
            d.fact(FactType::Path, cited.as_deref(), &inv);
            d.fact(FactType::Text, Some(key.as_str()), &inv);
            d.interpretation = format!(
                "{} ({key}, entry {} of {count}, the app listing the most recent first): {what}: {path}{}. The history keeps no time; the path says where the item was, not what it held.",
                l.path,
                i + 1,
                match &cited {
                    Some(c) if c != path => format!(" (written {c} in the file)"),
                    Some(_) => String::new(),
                    None => " (not found as written in the output: no fact of it)".to_string(),
                }
            );
            record_draft(ctx, d)?;
        }
    }
    if !settings.is_empty() {
        let mut d = Draft::new("apps", "RAR settings");
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = Vec::new();
        for (key, value) in &settings {
            d.fact(FactType::Text, Some(*key), &inv);
            d.fact(FactType::Text, Some(*value), &inv);
            said.push(format!("{key} {value}"));
        }
        d.interpretation = format!(
            "{}: the preferences of RAR on the phone (the app was installed and set up as they say; prefs_start_folder is the folder it opens in, prefs_def_extr_folder its default extraction folder): {}.",
            l.path,
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
