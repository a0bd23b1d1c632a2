//! CoreDuet's contacts autocomplete feedback (`Library/CoreDuet/People/Feedback/CNA/local/`,
//! the `_PSCNAutocompleteFeedback` stream), iLEAPP's `cnaAutocompleteFeedback` ("Biome - Contact
//! Autocomplete Feedback (CNA)"): what the recipient autocomplete of Messages, FaceTime and other
//! apps did while the user addressed a message or call — entered and left, the suggestions it
//! offered (the people and groups, with their names and handles), a handle typed or erased, a
//! suggestion tapped. The files are SEGB (Biome's format, v2 on the iOS 17+ releases seen), read
//! by `read_segb` — one call for the folder, with `biome::segb_stream`'s notes of the problems
//! it names —, each record's payload a binary property list the tool decodes as `plist:` JSON (a
//! plain dictionary, or an NSKeyedArchiver archive unwrapped under `root`).
//!
//! | member | fact | said |
//! |---|---|---|
//! | `bundleIdentifier` | the app | |
//! | `feedbackType` | as stored | its word, as iLEAPP names them from the member each type fills: 0 entered, 1 exited, 2 suggestions vended, 4 typed handle, 5 erased handle (others as numbers) |
//! | `isImplicit` | | true or false |
//! | `entered`, `exited`, `typedHandle`, `tappedSuggestion`, `erasedHandle` | every text and number they hold | every member as stored (`typedHandle.handle +35191`) |
//! | `vendedSuggestions.suggestions[]` | conversation identifier, reason, group name; each recipient's display name, handle (phone, e-mail or account) and identifier | the family flag and each handle type as stored |
//! | `reportTime` | a time (a date, UTC) | |
//!
//! One `contacts` phenomenon per record ("Contacts autocomplete in <app>: <type's word>"), with
//! the record's time (Cocoa seconds) and the report time. A suggestion is what the system offered
//! from the user's contacts and recent conversations: it does not by itself show that the user
//! picked it nor wrote to that person (said). On iOS 26 a recipient's identifier is the address
//! book's `<UUID>:ABPerson` (iLEAPP's sample) instead of the handle, and a recipient may come
//! without a handle. A record marked deleted whose data is still in the file is read the same way
//! and said deleted; a CRC that does not match is said; a written record that is no property list
//! of the feedback is noted and the others read; a file the tool cannot read (cut, no SEGB) is
//! noted by `read_segb`'s problems, the rest read. Not read: dot files, the `tombstone` folder.
//!
//! Identities: every suggested recipient is one of the user's contacts, never the user: its
//! handle is observed as that person's (`handle:<normalised>`, or the address-book card holding
//! it, [`Run::observe_handle`]), with its display name and, when the identifier is an address-book
//! person id (`<UUID>:ABPerson`), that id; a recipient with no handle is the person
//! `cna-contact:<UUID>` by its person id and name. A handle typed or erased is a fact only (often
//! a part of one).

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::biome::{decoded, segb_stream, values_at};
use super::{Draft, Run, apple_encoding, handle_fact_type};
use crate::outputs::Table;

/// The stream folder, searched by name.
pub const FOLDER: &str = "CNA";

/// Whether `dir` is CoreDuet's contacts autocomplete feedback folder.
pub fn is_stream(dir: &str) -> bool {
    dir.ends_with("/CoreDuet/People/Feedback/CNA")
}

/// What shows the catalogue that the stream was read: a `read_segb` call on it.
pub fn detectors() -> Vec<String> {
    vec!["/CoreDuet/People/Feedback/CNA\"".to_string()]
}

/// The interaction dictionaries a record may hold, in iLEAPP's order.
const INTERACTIONS: [&str; 5] = [
    "entered",
    "exited",
    "typedHandle",
    "tappedSuggestion",
    "erasedHandle",
];

/// A feedback type's word, as iLEAPP names them.
fn word(kind: Option<i64>) -> String {
    match kind {
        Some(0) => "entered".into(),
        Some(1) => "exited".into(),
        Some(2) => "suggestions vended".into(),
        Some(4) => "typed handle".into(),
        Some(5) => "erased handle".into(),
        Some(k) => format!("feedback type {k}"),
        None => "no feedback type".into(),
    }
}

/// Triage of the contacts autocomplete feedback folder(s) the one search found.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, dirs)) = run.find_dirs(FOLDER)? else {
        return Ok(());
    };
    for dir in dirs.iter().filter(|d| is_stream(d)) {
        run.ctx.artefact(dir, || stream(run, &find, dir))?;
    }
    Ok(())
}

/// A member's text or number (shown, cited as the `plist:` cell holds it).
fn text(m: &Value, key: &str) -> Option<(String, String)> {
    values_at(m, &[key]).into_iter().next()
}

/// Every scalar below `v` as (path, shown, cited): texts and numbers cited, booleans only shown.
fn leaves(v: &Value, at: &str, out: &mut Vec<(String, String, Option<String>)>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let p = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                leaves(x, &p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, &format!("{at}[{i}]"), out);
            }
        }
        Value::String(s) if !s.is_empty() => {
            out.push((
                at.to_string(),
                s.clone(),
                Some(crate::outputs::in_json_cell(s)),
            ));
        }
        Value::Number(n) => out.push((at.to_string(), n.to_string(), Some(n.to_string()))),
        Value::Bool(b) => out.push((at.to_string(), b.to_string(), None)),
        _ => {}
    }
}

/// A member said as stored (`familySuggestion true`, `handleType 1`).
fn stored(m: &Value, key: &str) -> Option<String> {
    match m.get(key)? {
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// One record being read: where it is and how it was read.
struct Rec<'a> {
    find: &'a Invoked,
    inv: &'a Invoked,
    dir: &'a str,
    t: &'a Table,
    row: &'a [Option<String>],
}

impl Rec<'_> {
    fn get(&self, col: &str) -> Option<&str> {
        self.t.get(self.row, col)
    }

    /// How the record was found, leading the interpretation.
    fn header(&self) -> String {
        format!(
            "Contacts autocomplete feedback record at offset {} of {} ({}{})",
            self.get("offset").unwrap_or("?"),
            self.get("file").unwrap_or("?"),
            self.get("state").unwrap_or("?"),
            if self.get("crc") == Some("bad") {
                ", its data does not match its stored CRC-32"
            } else {
                ""
            },
        )
    }
}

/// The folder read by `read_segb`.
fn stream(run: &Run<'_, '_>, find: &Invoked, dir: &str) -> Result<(), RuntimeError> {
    let what = "CoreDuet's contacts autocomplete feedback stream";
    let Some((inv, t)) = segb_stream(run, dir, what)? else {
        return Ok(());
    };
    for row in &t.rows {
        let state = t.get(row, "state").unwrap_or("?");
        if state == "empty" {
            continue;
        }
        let rec = Rec {
            find,
            inv: &inv,
            dir,
            t: &t,
            row,
        };
        // a plain dictionary, or an archive's `root`
        let payload = decoded(&t, row, "plist:").map(|m| {
            let root = m.get("root").filter(|r| r.is_object()).cloned();
            root.unwrap_or(m)
        });
        let payload = payload
            .filter(|p| p.get("bundleIdentifier").is_some() || p.get("feedbackType").is_some());
        match payload {
            Some(p) => record(run, &rec, &p)?,
            None if state == "written" => {
                run.ctx.unparsed(
                    &format!("{dir}/{}", rec.get("file").unwrap_or("?")),
                    &format!(
                        "could not parse the record at offset {} of {} of {what} because its data is not a property list of the feedback (bundleIdentifier, feedbackType)",
                        rec.get("offset").unwrap_or("?"),
                        rec.get("file").unwrap_or("?"),
                    ),
                    Some(&inv.record.invocation_id),
                )?;
            }
            // a deleted record whose data is gone: nothing of the feedback is left
            None => {}
        }
    }
    Ok(())
}

/// One suggested recipient: its members as (shown, cited).
struct Recipient {
    name: Option<(String, String)>,
    handle: Option<(String, String)>,
    identifier: Option<(String, String)>,
}

/// One feedback record.
fn record(run: &Run<'_, '_>, rec: &Rec<'_>, p: &Value) -> Result<(), RuntimeError> {
    let inv = rec.inv;
    let app = text(p, "bundleIdentifier");
    let kind = p.get("feedbackType").and_then(Value::as_i64);
    let deleted = rec.get("state") != Some("written");
    let mut d = Draft::new(
        "contacts",
        format!(
            "Contacts autocomplete in {}: {}{}",
            app.as_ref().map_or("an unnamed app", |(a, _)| a.as_str()),
            word(kind),
            if deleted { " (a deleted record)" } else { "" }
        ),
    );
    d.fact(FactType::Path, Some(rec.dir), rec.find);
    d.fact(
        FactType::Identifier,
        app.as_ref().map(|(_, c)| c.as_str()),
        inv,
    );
    let kind_cited = text(p, "feedbackType");
    d.fact(
        FactType::Text,
        kind_cited.as_ref().map(|(_, c)| c.as_str()),
        inv,
    );
    let mut said = Vec::new();
    if let Some(i) = p.get("isImplicit").and_then(Value::as_bool) {
        said.push(format!("implicit {i}"));
    }
    // the interaction dictionaries, every member as stored
    for key in INTERACTIONS {
        let Some(v) = p.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        let mut found = Vec::new();
        leaves(v, "", &mut found);
        for (_, _, cited) in &found {
            d.fact(FactType::Text, cited.as_deref(), inv);
        }
        let members: Vec<String> = found
            .iter()
            .map(|(path, shown, _)| {
                if path.is_empty() {
                    shown.clone()
                } else {
                    format!("{path} {shown}")
                }
            })
            .collect();
        said.push(if members.is_empty() {
            format!("{key} (empty)")
        } else {
            format!("{key}: {}", members.join(", "))
        });
    }
    // the suggestions offered, with their recipients
    let mut recipients = Vec::new();
    let suggestions = p
        .get("vendedSuggestions")
        .and_then(|v| v.get("suggestions"))
        .and_then(Value::as_array);
    for (i, s) in suggestions.into_iter().flatten().enumerate() {
        let mut parts = Vec::new();
        for (key, fact, label) in [
            (
                "conversationIdentifier",
                FactType::Identifier,
                "conversation",
            ),
            ("reason", FactType::Text, "reason"),
            ("groupName", FactType::Text, "group"),
        ] {
            if let Some((shown, cited)) = text(s, key) {
                d.fact(fact, Some(cited.as_str()), inv);
                parts.push(format!("{label} {shown}"));
            }
        }
        if let Some(f) = stored(s, "familySuggestion") {
            parts.push(format!("family suggestion {f}"));
        }
        let mut people = Vec::new();
        for r in s
            .get("recipients")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let one = Recipient {
                name: text(r, "displayName"),
                handle: text(r, "handle"),
                identifier: text(r, "identifier"),
            };
            d.fact(
                FactType::Name,
                one.name.as_ref().map(|(_, c)| c.as_str()),
                inv,
            );
            if let Some((h, c)) = &one.handle {
                d.fact(handle_fact_type(h), Some(c.as_str()), inv);
            }
            d.fact(
                FactType::Identifier,
                one.identifier.as_ref().map(|(_, c)| c.as_str()),
                inv,
            );
            let mut who = one
                .name
                .as_ref()
                .map_or_else(|| "unnamed".to_string(), |(n, _)| n.clone());
            if let Some((h, _)) = &one.handle {
                who.push_str(&format!(" {h}"));
            }
            if let Some(t) = stored(r, "handleType") {
                who.push_str(&format!(" (handle type {t})"));
            }
            if let Some((id, _)) = one
                .identifier
                .as_ref()
                .filter(|(id, _)| one.handle.as_ref().is_none_or(|(h, _)| h != id))
            {
                who.push_str(&format!(" [{id}]"));
            }
            people.push(who);
            recipients.push(one);
        }
        if !people.is_empty() {
            parts.push(format!("recipients {}", people.join("; ")));
        }
        said.push(format!("suggestion {}: {}", i + 1, parts.join(", ")));
    }
    let time = rec.get("time");
    d.time(
        time,
        apple_encoding(time),
        "Contacts autocomplete feedback recorded",
        inv,
    );
    let report = text(p, "reportTime");
    d.time(
        report.as_ref().map(|(_, c)| c.as_str()),
        crate::drafts::date_text(report.as_ref().map(|(_, c)| c.as_str())),
        "Contacts autocomplete feedback reported",
        inv,
    );
    d.interpretation = format!(
        "{}: the recipient autocomplete of {} ({}, feedback type {}){}{}; the record's time is Cocoa seconds{}. Suggestions are what the system offered from the user's contacts and recent conversations: they do not by themselves show that the user picked one or wrote to that person.",
        rec.header(),
        app.as_ref().map_or("an unnamed app", |(a, _)| a.as_str()),
        word(kind),
        kind_cited.as_ref().map_or("?", |(k, _)| k.as_str()),
        if said.is_empty() { "" } else { ": " },
        said.join("; "),
        report
            .as_ref()
            .map(|(r, _)| format!(", the report time {r} UTC"))
            .unwrap_or_default(),
    );
    run.record(d)?;
    let what = format!(
        "the contacts autocomplete of {} (CoreDuet's CNA feedback)",
        app.as_ref().map_or("an app", |(a, _)| a.as_str())
    );
    for r in &recipients {
        person(run, inv, r, &what)?;
    }
    Ok(())
}

/// A value that the output holds as it is (no escaping): only those are observed.
fn plain(v: &Option<(String, String)>) -> Option<&str> {
    v.as_ref()
        .filter(|(shown, cited)| shown == cited)
        .map(|(shown, _)| shown.as_str())
}

/// A suggested recipient as a person: by its handle (or the card holding it), else by its
/// address-book person id; its name and person id with it.
fn person(run: &Run<'_, '_>, inv: &Invoked, r: &Recipient, what: &str) -> Result<(), RuntimeError> {
    let name = plain(&r.name);
    // an address-book person id (`<UUID>:ABPerson`); a handle kept as the identifier is not one
    let guid = plain(&r.identifier).filter(|g| run.normalised(IdType::ContactGuid, g).is_some());
    let (context, label) = match plain(&r.handle) {
        Some(h) => {
            run.observe_handle(h, inv, what)?;
            match run.handle_context(h) {
                Some(c) => (c, h.to_string()),
                None => return Ok(()),
            }
        }
        None => match guid.and_then(|g| run.normalised(IdType::ContactGuid, g)) {
            Some(n) => (
                format!("cna-contact:{n}"),
                name.or(guid).unwrap_or("?").to_string(),
            ),
            None => return Ok(()),
        },
    };
    if let Some(g) = guid {
        run.observe(
            &context,
            EntityKind::Person,
            &label,
            IdType::ContactGuid,
            g,
            inv,
            format!("{label} was suggested by {what} under the address-book person id {g}."),
        )?;
    }
    if let Some(n) = name {
        run.observe(
            &context,
            EntityKind::Person,
            &label,
            IdType::DisplayName,
            n,
            inv,
            format!("{what} suggested {label} under the name {n}."),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_members() {
        assert_eq!(word(Some(2)), "suggestions vended");
        assert_eq!(word(Some(3)), "feedback type 3");
        let p: Value = serde_json::from_str(
            r#"{"typedHandle":{"handle":"+35191","length":6,"flag":true},"familySuggestion":false}"#,
        )
        .unwrap();
        let mut out = Vec::new();
        leaves(p.get("typedHandle").unwrap(), "", &mut out);
        assert_eq!(
            out,
            vec![
                (
                    "handle".to_string(),
                    "+35191".to_string(),
                    Some("+35191".to_string())
                ),
                ("length".into(), "6".into(), Some("6".into())),
                ("flag".into(), "true".into(), None),
            ]
        );
        assert_eq!(stored(&p, "familySuggestion").as_deref(), Some("false"));
        assert!(is_stream(
            "/private/var/mobile/Library/CoreDuet/People/Feedback/CNA"
        ));
        assert!(!is_stream("/private/var/mobile/Library/Other/CNA"));
    }
}
