//! React Native AsyncStorage (`RCTAsyncLocalStorage_V1/manifest.json` in an app container's
//! `Documents/` or `Library/Application Support/`): every key with its value, iLEAPP's
//! `rctAsyncStorageManifest` — any React Native app's settings, account ids, cached state.
//! Read with `read_json` (which redacts secrets such as recovery phrases and private keys),
//! one phenomenon per key: the key, the value as stored (a long one cut to its first
//! [`VALUE_MAX`] characters, said), the app the container belongs to (as
//! `applicationState.db` names it). A value too large for the manifest is kept in a file of the
//! folder named by the MD5 of its key: the manifest holds `null` for it, and the file is named
//! from the folder's listing (with its size) or said to be absent.
//!
//! Identities: wallet addresses a value holds are observed as `wallet:<address>` without a
//! claim — whose each is, the app's state does not say.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run};
use crate::outputs::in_json;

/// The folder's name.
pub const DIR: &str = "RCTAsyncLocalStorage_V1";

/// The longest value recorded whole (characters of its escaped form).
pub const VALUE_MAX: usize = 2000;

/// Keys recorded per manifest; the rest are counted.
const KEYS_MAX: usize = 2000;

/// Triage of every AsyncStorage manifest of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("manifest.json")? else {
        return Ok(());
    };
    for path in paths {
        if path.ends_with(&format!("/{DIR}/manifest.json")) {
            one(run, &find, &path)?;
        }
    }
    Ok(())
}

/// The longest prefix of `s` of at most `max` bytes that ends on a character boundary.
fn prefix(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_json", json!({"path": path}))?
    else {
        return Ok(());
    };
    let body: String = inv
        .output
        .text
        .lines()
        .filter(|l| !l.starts_with("# "))
        .collect::<Vec<_>>()
        .join("\n");
    let manifest = match serde_json::from_str::<Value>(&body) {
        Ok(Value::Object(m)) => m,
        Ok(other) => {
            let kind = match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                Value::Bool(_) => "a boolean",
                _ => "null",
            };
            run.ctx.unparsed(
                path,
                &format!("could not parse the AsyncStorage manifest because it is {kind}, not an object of keys"),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
        Err(e) => {
            run.ctx.unparsed(
                path,
                &format!("could not parse the AsyncStorage manifest: {e}"),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
    };
    let folder = path.rsplit_once('/').map_or(path, |(d, _)| d);
    let (app, app_cite) = run.app_of(path).unzip();
    let app_said = app
        .as_deref()
        .map(|a| format!("{a}'s"))
        .unwrap_or_else(|| "an app's".to_string());
    // the files beside the manifest, for the values kept out of it
    let listing = if manifest.values().any(Value::is_null) {
        crate::calls::call_or_note(
            run.ctx,
            folder,
            "find_files",
            json!({"path": folder, "limit": 10000}),
        )?
    } else {
        None
    };
    let files = listing
        .as_ref()
        .map(|l| crate::outputs::listed_files(&l.output.text))
        .unwrap_or_default();
    let region = run.ctx.phone_region();
    for (key, value) in manifest.iter().take(KEYS_MAX) {
        let mut d = Draft::new(
            "apps",
            format!(
                "AsyncStorage of {}: {key}",
                app.as_deref().unwrap_or(folder)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        if let (Some(a), Some(cite)) = (&app, &app_cite) {
            d.fact(FactType::Name, Some(a), cite);
        }
        d.fact(FactType::Identifier, Some(&in_json(key)), &inv);
        let said = match value {
            Value::Null => {
                let name = crate::wallets::async_storage_file(key);
                match files
                    .iter()
                    .find(|f| f.path.rsplit('/').next() == Some(name.as_str()))
                    .map(|f| (&f.path, &f.size))
                {
                    Some((file, size)) => {
                        if let Some(l) = &listing {
                            d.fact(FactType::Path, Some(file), l);
                            d.fact(FactType::Count, Some(size), l);
                        }
                        format!("its value is kept out of the manifest, in {file} ({size} bytes; the MD5 of the key names it)")
                    }
                    None => "its value is kept out of the manifest, in a file named by the MD5 of the key, which the folder does not hold".to_string(),
                }
            }
            Value::String(s) => {
                let escaped = in_json(s);
                let kept = prefix(&escaped, VALUE_MAX);
                d.fact(FactType::Text, Some(kept), &inv);
                if kept.len() < escaped.len() {
                    format!(
                        "its value is {} characters long; the first {} are recorded",
                        escaped.chars().count(),
                        kept.chars().count()
                    )
                } else {
                    "its value is recorded as stored".to_string()
                }
            }
            other => {
                let shown = other.to_string();
                let kept = prefix(&shown, VALUE_MAX);
                if matches!(other, Value::Number(_) | Value::Bool(_)) {
                    d.fact(FactType::Text, Some(kept), &inv);
                }
                format!(
                    "its value is a JSON {} (AsyncStorage keeps strings)",
                    if other.is_object() {
                        "object"
                    } else if other.is_array() {
                        "array"
                    } else {
                        "scalar"
                    }
                )
            }
        };
        d.interpretation = format!(
            "{path}: a key of {app_said} React Native AsyncStorage ({}); {said}.",
            in_json(key)
        );
        run.record(d)?;
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Null => continue,
            other => other.to_string(),
        };
        let mut seen = std::collections::BTreeSet::new();
        for f in crate::extract::identifiers(&text, region.as_ref())
            .into_iter()
            .filter(|f| f.id_type == IdType::Wallet)
        {
            if !seen.insert(f.normalized.clone()) {
                continue;
            }
            run.observe(
                &format!("wallet:{}", f.normalized),
                EntityKind::Wallet,
                &f.normalized,
                IdType::Wallet,
                &f.raw,
                &inv,
                format!(
                    "A wallet address in the value of {} in {app_said} AsyncStorage ({path}); whose it is, the app's state does not say.",
                    in_json(key)
                ),
            )?;
        }
    }
    if manifest.len() > KEYS_MAX {
        run.ctx.unparsed(
            path,
            &format!(
                "{} keys; the first {KEYS_MAX} were recorded",
                manifest.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}
