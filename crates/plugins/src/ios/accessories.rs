//! CoreAccessories' analytics (`mobile/Library/CoreAccessories/Analytics/`):
//! `acc_analytics_accessoryd_v3.db` (accessoryd: the accessories connected — headphones,
//! chargers, cars, docks) and `acc_analytics_UserEventAgent_v3.db` (UserEventAgent: cable and
//! port events), each an `all_events` table of one binary property list per event. Read with
//! `sqlite_query`'s `plists` option (the plist as JSON in the logged output), as iLEAPP's
//! `get_coreAccessories` and `get_coreAccessoriesUserEvent` read it: one `device` phenomenon per
//! event with every key and value of its plist, `eventTime` on the timeline (Unix seconds, or
//! milliseconds by magnitude), and a Lightning cable's `lightningDigitalID` named where iLEAPP
//! knows it (official or MFi cable, quick charge, audio, HDMI). The plists' keys are not
//! documented by Apple: no key is taken for an identity (an accessory's serial number stays a
//! fact of the event); a row whose data is no property list is counted and noted.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use serde_json::Value;

use super::{Draft, Run};
use crate::drafts::unix_by_magnitude;
use crate::outputs::{json_leaves, plist_cell, raw};

/// The databases read, with the daemon that writes each.
const DATABASES: [(&str, &str); 2] = [
    ("acc_analytics_accessoryd_v3.db", "accessoryd"),
    ("acc_analytics_UserEventAgent_v3.db", "UserEventAgent"),
];

/// Lightning digital ids iLEAPP names (upper case).
const LIGHTNING: [(&str, &str); 6] = [
    ("100C00000000", "official normal cable"),
    ("10C000000000", "MFi certified common cable"),
    ("101908000000", "official quick charge cable"),
    ("100908000000", "MFi certified quick charge cable"),
    ("04F100000000", "audio cable"),
    ("0BF000000000", "official to HDMI cable"),
];

/// Keys whose value names the event in its title, first found first.
const TITLE_KEYS: [&str; 4] = ["accessoryName", "name", "model", "eventName"];

/// Triage of both analytics databases of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for (name, daemon) in DATABASES {
        run.each(name, |find, path| {
            let Some(schema) = run.schema(path, &["all_events"])? else {
                return Ok(());
            };
            if !schema.require(run, "all_events", &["data"])? {
                return Ok(());
            }
            let sql = "SELECT rowid AS rowid, data FROM all_events";
            let Some(paged) = run.paged_with(path, sql, "rowid", &["plists"])? else {
                return Ok(());
            };
            let mut unreadable = Vec::new();
            for (inv, t, row) in paged.rows() {
                let id = raw(t, row, "rowid").unwrap_or_default();
                let Some(event) = t.get(row, "data").and_then(plist_cell) else {
                    unreadable.push(id);
                    continue;
                };
                let mut leaves = Vec::new();
                json_leaves(&event, "", &mut leaves);
                let named = TITLE_KEYS
                    .iter()
                    .find_map(|k| event.get(*k).and_then(Value::as_str));
                let mut d = Draft::new(
                    "device",
                    match named {
                        Some(n) => format!("Accessory event ({daemon}): {n}"),
                        None => format!("Accessory event ({daemon}) {id}"),
                    },
                );
                d.fact(FactType::Path, Some(path), find);
                let mut said = Vec::new();
                for (k, v) in &leaves {
                    d.fact(FactType::Text, Some(v), inv);
                    let word = (k == "lightningDigitalID")
                        .then(|| {
                            LIGHTNING
                                .iter()
                                .find(|(id, _)| id.eq_ignore_ascii_case(v))
                                .map(|(_, w)| format!(" ({w})"))
                        })
                        .flatten()
                        .unwrap_or_default();
                    said.push(format!("{k} {v}{word}"));
                }
                // a number of Unix seconds or milliseconds; a plist date is RFC 3339 text
                let (time, encoding) = match event.get("eventTime") {
                    Some(Value::String(s)) => (Some(s.clone()), Some(TimeEncoding::Iso8601)),
                    Some(n @ Value::Number(_)) => {
                        let n = n.to_string();
                        let e = unix_by_magnitude(Some(&n));
                        (Some(n), e)
                    }
                    _ => (None, None),
                };
                d.time(time.as_deref(), encoding, "Accessory event", inv);
                d.interpretation = format!(
                    "{daemon} recorded an accessory event (row {id} of all_events in {path}): {}. The keys are Apple's, undocumented; eventTime is read as Unix seconds (milliseconds by magnitude), as iLEAPP reads it.",
                    if said.is_empty() {
                        "no value".to_string()
                    } else {
                        said.join("; ")
                    }
                );
                run.record(d)?;
            }
            if !unreadable.is_empty() {
                run.ctx.unparsed(
                    path,
                    &format!(
                        "{} all_events row(s) hold no property list (rowid {})",
                        unreadable.len(),
                        unreadable.join(", ")
                    ),
                    paged.pages.first().map(|(i, _)| i.record.invocation_id.as_str()),
                )?;
            }
            Ok(())
        })?;
    }
    Ok(())
}
