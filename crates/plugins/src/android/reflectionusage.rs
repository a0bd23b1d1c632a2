//! Android System Intelligence's app events (`com.google.android.as/databases/
//! reflection_gel_events.db`, Device Personalization Services), ALEAPP's `usageapps`
//! (`get_usageapps`): the app launches and uses the service recorded to predict the next app,
//! kept for apps since removed too. (Its Now Playing history beside it is read by
//! [`super::nowplaying`].)
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `reflection_gel_events.db`: `reflection_event` | one `app_usage` per event ("Android System Intelligence app event <app or id>") | event id as stored, deleted app (`deleted_app` in the id, said in the query), type and `generated_from` as stored; from the `proto` message (`sqlite_query`'s `protobuf` option) the app (field 1), fields 2, 5›1, 5›6 (a fixed32, its number) and 8 as stored, and the message as decoded; when (`timestamp`, Unix ms) |
//!
//! The message's layout is not published: field 1 names the app (a package), the other fields
//! are quoted as the decoding prints them, unnamed (ALEAPP shows 5›6 as "from in proto"). An event
//! is the service's record of an app used or launched for its predictions (the launcher's
//! suggestions); an id holding `deleted_app` is an app removed since, which may be the only trace
//! left of it. A `proto` that is no message keeps the event's id and time (its cell quoted as
//! stored). Schema drift: `id`, `type`, `generated_from` and `proto` are taken by name (absent
//! ones NULL; older stores have no `generated_from`); a store without `reflection_event`, or
//! whose table lacks `timestamp`, is noted. Only the store in `com.google.android.as` is read.
//! Secrets: none kept. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::Value;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on_with, schema_on};
use crate::outputs::{proto_text, protobuf_cell, raw};

/// Whether `l` is Android System Intelligence's app-event store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "reflection_gel_events.db" && l.path.contains("/com.google.android.as/databases/")
}

/// What the notes call the store.
const WHAT: &str = "Android System Intelligence's reflection_gel_events.db";

/// `(column, type, label)` of the columns read as stored.
const FIELDS: &[(&str, FactType, &str)] = &[
    ("id", FactType::Identifier, "event id"),
    ("deleted", FactType::Text, "deleted app"),
    ("type", FactType::Text, "type"),
    ("generated_from", FactType::Text, "generated from"),
];

/// The events query over `reflection_event` with columns `cols`.
pub(crate) fn events_sql(cols: &std::collections::BTreeSet<String>) -> String {
    let deleted = if cols.contains("id") {
        "CASE WHEN instr(id, 'deleted_app') > 0 THEN 'deleted app' END AS deleted"
    } else {
        "NULL AS deleted"
    };
    format!(
        "SELECT rowid AS rid, {}, {deleted}, timestamp, {}, {}, {} FROM reflection_event ORDER BY rowid",
        column_or_null(cols, "", "id", "id"),
        column_or_null(cols, "", "type", "type"),
        column_or_null(cols, "", "generated_from", "generated_from"),
        column_or_null(cols, "", "proto", "proto"),
    )
}

/// The number at `path` of a decoded message (the first value at each step), as the decoding
/// prints it.
fn number_at(m: &Value, path: &[&str]) -> Option<String> {
    let mut node = m;
    for f in path {
        node = node.get(f)?.get(0)?;
    }
    match node {
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// One `reflection_gel_events.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = schema.get("reflection_event") else {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {WHAT} because it has no reflection_event table (another layout)"
            ),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(ctx, &name, WHAT, "reflection_event", cols, &["timestamp"])? {
        return Ok(());
    }
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &events_sql(cols), &["protobuf"])?
    else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "app events")?;
    for (inv, t, row) in pages.rows() {
        let message: Option<Value> = t.get(row, "proto").and_then(protobuf_cell);
        let app = message.as_ref().and_then(|m| proto_text(m, &["1"]));
        let shown = app
            .as_ref()
            .map(|(plain, _)| plain.clone())
            .or_else(|| t.get(row, "id").map(str::to_string))
            .unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string());
        let mut d = Draft::new(
            "app_usage",
            format!("Android System Intelligence app event {shown}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.fields(t, row, inv, FIELDS);
        if let Some((plain, cited)) = &app {
            d.fact(FactType::Identifier, Some(cited), inv);
            said.push(format!("app {plain}"));
        }
        if let Some(m) = &message {
            for (label, path) in [
                ("field 2", &["2"][..]),
                ("field 5›1", &["5", "1"][..]),
                ("field 5›6", &["5", "6"][..]),
            ] {
                if let Some(n) = number_at(m, path) {
                    d.fact(FactType::Text, Some(&n), inv);
                    said.push(format!("{label} {n}"));
                }
            }
            if let Some((plain, cited)) = proto_text(m, &["8"]) {
                d.fact(FactType::Text, Some(&cited), inv);
                said.push(format!("field 8 {plain}"));
            }
        }
        d.fact(FactType::Text, raw(t, row, "proto").as_deref(), inv);
        let at = t.get(row, "timestamp");
        d.time(
            at,
            unix_millis(at),
            "App event recorded by Android System Intelligence",
            inv,
        );
        d.interpretation = format!(
            "reflection_event row {} of {name}: an app event Android System Intelligence (Device Personalization Services) recorded for its app predictions (an app used or launched; kept after the app is removed, an id holding deleted_app naming one removed since); {}; the message's layout is not published: field 1 is the app, the other fields quoted as decoded; timestamp Unix ms.",
            t.get(row, "rid").unwrap_or("?"),
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join(", ")
            }
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
