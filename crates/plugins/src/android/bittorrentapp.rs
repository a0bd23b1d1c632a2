//! BitTorrent for Android (`com.bittorrent.client`, and µTorrent, `com.utorrent.client`, the
//! same company's client built on the same code), ALEAPP's `bittorrentClientpref`
//! (`get_bittorrentClientpref`) and `bittorrentDlhist` (`get_bittorrentDlhist`): the app's
//! preferences and its download history.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `shared_prefs/com.bittorrent.client_preferences.xml` (`read_xml`) | one `apps` ("BitTorrent settings") | every preference's name and value as stored; `BornOn` (Unix ms) marked as the first start the app recorded |
//! | `dlhistory*.config`, `dlhistory*.config.bak` (`read_bencode`) | one `files` per entry of its `records` list ("BitTorrent download: <name> (<file>)") | the name (`n`), the path it was saved to (`s`), any other scalar member as stored (named in the interpretation); the record's time (`a`, Unix ms) |
//!
//! The history lists what the client downloaded (a torrent's content, a file of it), with where
//! it was saved and when the entry was written: content the user asked for; whether it is still
//! there is in the folder it names. The `.bak` is the copy the app keeps of the previous
//! history: its entries are read as well (an entry in both is two phenomena, each naming its
//! file). ALEAPP keeps only the last entry of each file; every entry is read here. The
//! preferences say how the client was set up (folders, limits, flags) and `BornOn` when it first
//! started as it records it; `read_xml` redacts any preference named like a token or password
//! before it prints the file, so those values are never read (their names are said).
//!
//! A history that is not bencode, or holds no `records` list, is noted, as are preferences that
//! are not XML or hold none. The history is read wherever it lies (its name is the client's own);
//! the preferences only in `com.bittorrent.client/shared_prefs/`. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::{Value, json};

use super::Located;
use crate::calls::call_or_note;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name};
use crate::outputs::json_scalar;

/// The preferences' name.
pub const PREFS: &str = "com.bittorrent.client_preferences.xml";

/// The members of a history entry read by name: `(member, type, label)`.
const MEMBERS: [(&str, FactType, &str); 2] = [
    ("n", FactType::Name, "name"),
    ("s", FactType::Path, "saved to"),
];

/// The member holding an entry's time (Unix ms).
const TIME: &str = "a";

/// Whether `name` is a download history's (`dlhistory*.config`, `dlhistory*.config.bak`).
pub fn is_history_name(name: &str) -> bool {
    name.starts_with("dlhistory") && (name.ends_with(".config") || name.ends_with(".config.bak"))
}

/// Whether `l` is a BitTorrent download history.
pub fn is_history(l: &Located) -> bool {
    is_history_name(l.name())
}

/// Whether `path` is BitTorrent's preferences (in its own `shared_prefs`).
pub fn is_prefs_path(path: &str) -> bool {
    path.ends_with(&format!("/com.bittorrent.client/shared_prefs/{PREFS}"))
}

/// Whether `l` is BitTorrent's preferences.
pub fn is_prefs(l: &Located) -> bool {
    is_prefs_path(&l.path)
}

/// The client a path belongs to, by its package folder.
fn client(path: &str) -> &'static str {
    if path.contains("/com.utorrent.client/") {
        "µTorrent"
    } else {
        "BitTorrent"
    }
}

/// `com.bittorrent.client_preferences.xml`: one phenomenon holding every preference.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "BitTorrent", None)? else {
        return Ok(());
    };
    if prefs.is_empty() {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "BitTorrent's preferences hold no preference",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let mut d = Draft::new("apps", "BitTorrent settings");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    let mut redacted = Vec::new();
    for (key, value) in &prefs {
        if value.starts_with("[redacted by MASForensics") {
            redacted.push(key.as_str());
            continue;
        }
        d.fact(FactType::Text, Some(key.as_str()), &inv);
        d.fact(FactType::Text, Some(value.as_str()), &inv);
        said.push(format!("{key} {value}"));
    }
    let born = super::prefs::pref(&prefs, "BornOn");
    d.time(
        born.as_deref(),
        unix_millis(born.as_deref()),
        "BitTorrent first started (BornOn)",
        &inv,
    );
    d.interpretation = format!(
        "{}: the preferences of the BitTorrent app on the phone (the app was installed and set up as they say; BornOn is the first start the app recorded, Unix ms): {}{}.",
        l.path,
        said.join(", "),
        if redacted.is_empty() {
            String::new()
        } else {
            format!(
                "; redacted before reading (never read): {}",
                redacted.join(", ")
            )
        }
    );
    record_draft(ctx, d)
}

/// A `dlhistory*.config` (or its `.bak`): one phenomenon per entry of its `records`.
pub fn history(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let app = client(&l.path);
    let Some(inv) = call_or_note(
        ctx,
        &name,
        "read_bencode",
        args_on(&l.tree, json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let doc: Option<Value> = inv
        .output
        .text
        .split_once('\n')
        .and_then(|(_, body)| serde_json::from_str(body).ok());
    let Some(records) = doc
        .as_ref()
        .and_then(|d| d.get("records"))
        .and_then(Value::as_array)
    else {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {app}'s {} because it holds no records list (not its download history)",
                l.name()
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let file = l.name();
    for (i, r) in records.iter().enumerate().take(super::MAX_ROWS as usize) {
        let Some(obj) = r.as_object() else {
            continue;
        };
        let shown = json_scalar(obj.get("n")).unwrap_or_else(|| format!("entry {}", i + 1));
        let mut d = Draft::new("files", format!("{app} download: {shown} ({file})"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.json_fields(r, &inv, &MEMBERS);
        for (k, v) in obj {
            if k.as_str() == TIME || MEMBERS.iter().any(|(m, _, _)| *m == k.as_str()) {
                continue;
            }
            if let Some(v) = json_scalar(Some(v)).filter(|v| !v.trim().is_empty()) {
                d.fact(FactType::Text, Some(&v), &inv);
                said.push(format!("{k} {v}"));
            }
        }
        let at = json_scalar(obj.get(TIME));
        d.time(
            at.as_deref(),
            unix_millis(at.as_deref()),
            &format!("{app} download recorded in its history"),
            &inv,
        );
        d.interpretation = format!(
            "{}, entry {} of {}: a download {app} recorded in its history{} (content the user asked for; whether it is still on the device is in the folder it names; the time, member a, Unix ms, is when the entry was written): {}.",
            l.path,
            i + 1,
            records.len(),
            if file.ends_with(".bak") {
                " (the copy it keeps of the previous history)"
            } else {
                ""
            },
            if said.is_empty() {
                "no name or path stored".to_string()
            } else {
                said.join(", ")
            }
        );
        record_draft(ctx, d)?;
    }
    if records.len() > super::MAX_ROWS as usize {
        ctx.unparsed(
            &name,
            &format!(
                "{} entries; the first {} were recorded",
                records.len(),
                super::MAX_ROWS
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths() {
        assert!(is_history_name("dlhistory.config"));
        assert!(is_history_name("dlhistory2.config.bak"));
        assert!(!is_history_name("dlhistory.config.tmp"));
        assert!(is_prefs_path(
            "/data/data/com.bittorrent.client/shared_prefs/com.bittorrent.client_preferences.xml"
        ));
        assert!(!is_prefs_path(
            "/data/media/0/Download/com.bittorrent.client_preferences.xml"
        ));
        assert_eq!(client("/data/data/com.utorrent.client/files/x"), "µTorrent");
    }
}
