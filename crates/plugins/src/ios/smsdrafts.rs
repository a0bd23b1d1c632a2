//! Unsent Messages drafts (`Library/SMS/Drafts/<recipient>/composition.plist`), iLEAPP's
//! `draftmessage`: one `messages` phenomenon per draft — the text the user typed and never sent.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `composition.plist` | one `messages` per draft ("Unsent Messages draft to <folder>: <text>") | the folder (the recipient: a phone number, an e-mail address, or a group chat's identifier), the text, the file's modified time as the artefact search listed it (when the draft was last edited) |
//!
//! The file is a property list whose `text` is the data of a keyed archive (NSKeyedArchiver) of
//! an attributed string: `parse_plist` with `decode_data` unwraps it and the text is its
//! `NSString` (wherever the archive puts it: the reader takes the first `NSString` string under
//! the document, so a file that is itself the keyed archive reads the same). A draft was never
//! sent: it says what the user meant to write to whom, not what the other side received
//! (said). A file that does not parse is noted (by `parse_plist`'s failure); one holding no
//! `NSString` is recorded without text and noted. Paths with `tombstone` are passed over, as
//! iLEAPP does.
//!
//! Identities: the folder, when it is a phone number or an e-mail address, is observed as the
//! message handles of `sms.db` are ([`Run::observe_handle`]: `handle:<normalised>`, or the
//! address-book card holding it); a group chat's identifier is kept as a fact only.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use serde_json::{Value, json};

use super::plists::parse_with;
use super::{Draft, Run, handle_fact_type};
use crate::drafts::headline;
use crate::outputs::{ListedFile, json_scalar, listed_files};

/// How deep [`archived_text`] looks for the archived string.
const DEPTH: usize = 8;

/// The text of the attributed string the draft archives: the first `NSString` member holding a
/// string, depth first (`text` → `$data_plist` → `root` → `NSString` in the files iOS writes).
fn archived_text(v: &Value, depth: usize) -> Option<&Value> {
    if depth > DEPTH {
        return None;
    }
    match v {
        Value::Object(m) => {
            if let Some(s) = m.get("NSString").filter(|s| s.is_string()) {
                return Some(s);
            }
            m.values().find_map(|x| archived_text(x, depth + 1))
        }
        Value::Array(a) => a.iter().find_map(|x| archived_text(x, depth + 1)),
        _ => None,
    }
}

/// The recipient folder of a draft (`…/SMS/Drafts/<folder>/composition.plist`).
fn folder_of(path: &str) -> Option<&str> {
    let (_, rest) = path.rsplit_once("/SMS/Drafts/")?;
    let folder = rest.strip_suffix("/composition.plist")?;
    (!folder.is_empty() && !folder.contains('/')).then_some(folder)
}

/// A listed file's modified time with its encoding (UTC ends in `Z`; a FAT or ZIP local time is
/// marked ` (local)` and read as naive local text).
fn modified(file: Option<&ListedFile>) -> (Option<&str>, Option<TimeEncoding>) {
    match file.and_then(|f| f.time("modified")) {
        Some(m) if m.ends_with('Z') => (Some(m), Some(TimeEncoding::Iso8601)),
        Some(m) => match m.strip_suffix(" (local)") {
            Some(local) => (Some(local), Some(TimeEncoding::LocalText)),
            None => (None, None),
        },
        None => (None, None),
    }
}

/// Triage of every Messages draft of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("composition.plist")? else {
        return Ok(());
    };
    // the one search lists each file with its times
    let listed: BTreeMap<String, ListedFile> = listed_files(&find.output.text)
        .into_iter()
        .map(|f| (f.path.clone(), f))
        .collect();
    for path in &paths {
        let Some(folder) = folder_of(path) else {
            continue;
        };
        if path.contains("tombstone") {
            continue;
        }
        let Some((inv, doc)) = parse_with(run, path, json!({"decode_data": true}))? else {
            continue;
        };
        let text = archived_text(&doc, 0);
        let shown = text.and_then(Value::as_str).map(headline);
        let mut d = Draft::new(
            "messages",
            match &shown {
                Some(t) => format!("Unsent Messages draft to {folder}: {t}"),
                None => format!("Unsent Messages draft to {folder}"),
            },
        );
        d.fact(FactType::Path, Some(path), &find);
        // a phone number or an e-mail address; a group chat's folder is an identifier
        let folder_type = match handle_fact_type(folder) {
            FactType::Account => FactType::Identifier,
            t => t,
        };
        d.fact(folder_type, Some(folder), &find);
        d.fact(FactType::Text, json_scalar(text).as_deref(), &inv);
        let (at, enc) = modified(listed.get(path.as_str()));
        d.time(at, enc, "Messages draft last edited", &find);
        d.interpretation = format!(
            "{path}: a message the device's user typed to {folder} in Messages and never sent ({}); the draft is kept until it is sent or cleared, so it says what the user meant to write, not what {folder} received; {}.",
            match &shown {
                Some(t) => format!("text {t:?}"),
                None => "no archived text found".into(),
            },
            match at {
                Some(t) =>
                    format!("the file was last modified {t} (when the draft was last edited)"),
                None => "the extraction keeps no modification time for it".into(),
            },
        );
        run.record(d)?;
        if text.is_none() {
            run.ctx.unparsed(
                path,
                "could not read the draft's text because the property list holds no archived NSString (text → keyed archive → NSString)",
                Some(&inv.record.invocation_id),
            )?;
        }
        // the recipient, as sms.db's handles are observed; a group chat's folder
        // (`chat<digits>`) names no one
        if folder_type != FactType::Identifier {
            run.observe_handle(
                folder,
                &find,
                &format!("an unsent Messages draft (SMS/Drafts/{folder})"),
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_archived_text() {
        let p = "/private/var/mobile/Library/SMS/Drafts/+41791234567/composition.plist";
        assert_eq!(folder_of(p), Some("+41791234567"));
        assert_eq!(
            folder_of("/private/var/mobile/Library/SMS/Drafts/composition.plist"),
            None
        );
        let v = json!({"text": {"$data_plist": {"root": {"NSAttributes": {}, "NSString": "hi"}}}});
        assert_eq!(archived_text(&v, 0), Some(&json!("hi")));
        assert_eq!(archived_text(&json!({"root": {"NSString": 3}}), 0), None);
    }
}
