//! The Google Calendar app's own event store (`com.google.android.calendar/databases/cal_v2a`),
//! ALEAPP's `googleCalendar` (`googleCalendarAppEvents`): the events the app keeps apart from
//! the calendar provider, each decoded from its Protocol Buffers record. The provider's
//! `calendar.db` (ALEAPP's `get_calendar`, `get_calendar_calendars`) is read by
//! [`super::system`], not here.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/cal_v2a`: `Events` ⟕ `Accounts` (`Proto` decoded by `sqlite_query`'s `protobuf`) | one `calendar` per event ("Google Calendar event <title>", else "… <event id>") | event id, event type as stored, to be removed, start and end day (`StartDayUtc`, `EndDayUtc`, as stored), the account (`Accounts.PlatformAccountName`); from the record: title (field 6), description (7), web link (3), iCal UID (19), calendar id and name (10.1 and 10.2, else 35.1 and 35.2); start (36.1), end (37.1), created (4), updated (5): Unix time by its size |
//!
//! The field numbers are those ALEAPP reads (the app publishes no schema): a field absent from
//! a record is left out, a record that does not decode as a message gives the event with the
//! table's columns only (counted in its interpretation). An event is what the app synchronised
//! or created for the account: it does not say the user attended, and its start and end are
//! the planned times (an all-day event's are midnight UTC of its day). Schema drift: older
//! releases lack `EventType` (read as NULL), as do other columns absent; a store without
//! `Events(Proto)` is noted. Not read: the store's other tables (calendars, settings, sync
//! state), attendees and reminders inside the record (ALEAPP reads none), which the decoded
//! cell still holds whole in the logged output.
//!
//! Identities: the account an event belongs to (`PlatformAccountName`, a Google account's
//! e-mail) is the device's user's (`owner`); a calendar id that is someone else's address (a
//! shared calendar) is a fact, not an identity.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::Value;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_by_magnitude};
use crate::identity::{artefact_name, observe_owner_ids, pages_on_with, schema_on};
use crate::outputs::{json_scalar, proto_text, protobuf_cell};

/// The app's databases folder.
const DATABASES: &str = "/com.google.android.calendar/databases/";

/// Whether `l` is the Google Calendar app's event store.
pub fn is_store(l: &Located) -> bool {
    l.name().ends_with("cal_v2a") && l.path.contains(DATABASES)
}

/// The value at `path` of a decoded message: each field's first value, in turn.
fn at<'a>(m: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut node = m;
    for f in path {
        node = node.get(f)?.get(0)?;
    }
    Some(node)
}

/// A string at `path`: (the text, its form in the cell), blank ones left out.
fn text(m: &Value, path: &[&str]) -> Option<(String, String)> {
    proto_text(m, path).filter(|(t, _)| !t.trim().is_empty())
}

/// A number at `path`, as the cell prints it.
fn number(m: &Value, path: &[&str]) -> Option<String> {
    at(m, path)
        .filter(|v| v.is_number())
        .and_then(|v| json_scalar(Some(v)))
}

/// The events query (the account joined by its id when both tables have it).
pub(crate) fn events_sql(
    events: &std::collections::BTreeSet<String>,
    accounts: Option<&std::collections::BTreeSet<String>>,
) -> String {
    let c = |col: &str, alias: &str| column_or_null(events, "e.", col, alias);
    let account = match accounts {
        Some(a)
            if events.contains("AccountId")
                && a.contains("AccountId")
                && a.contains("PlatformAccountName") =>
        {
            "(SELECT a.PlatformAccountName FROM Accounts a WHERE a.AccountId = e.AccountId LIMIT 1) AS account"
        }
        _ => "NULL AS account",
    };
    format!(
        "SELECT e.rowid AS rid, {}, {}, {}, {}, {}, {}, {account}, e.Proto AS proto FROM Events e ORDER BY e.rowid",
        c("EventId", "event_id"),
        c("EventType", "event_type"),
        c("ToBeRemoved", "to_be_removed"),
        c("StartDayUtc", "start_day"),
        c("EndDayUtc", "end_day"),
        c("AccountId", "account_id"),
    )
}

/// One `cal_v2a`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(events) = schema.get("Events").filter(|c| !c.is_empty()) else {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse the Google Calendar app's {} because it has no Events table",
                l.name()
            ),
            None,
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        &format!("the Google Calendar app's {}", l.name()),
        "Events",
        events,
        &["Proto"],
    )? {
        return Ok(());
    }
    let sql = events_sql(events, schema.get("Accounts"));
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Google Calendar app events")?;
    let file = l.name();
    let mut accounts: std::collections::BTreeMap<String, &masf_tools::Invoked> =
        std::collections::BTreeMap::new();
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?").to_string();
        let m = t.get(row, "proto").and_then(protobuf_cell);
        let empty = Value::Null;
        let msg = m.as_ref().unwrap_or(&empty);
        let title = text(msg, &["6"]);
        let calendar_id = text(msg, &["10", "1"]).or_else(|| text(msg, &["35", "1"]));
        let calendar = text(msg, &["10", "2"]).or_else(|| text(msg, &["35", "2"]));
        let shown = title
            .as_ref()
            .map(|(t, _)| t.clone())
            .or_else(|| t.get(row, "event_id").map(str::to_string))
            .unwrap_or_else(|| format!("row {rid}"));
        let mut d = Draft::new("calendar", format!("Google Calendar event {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("event_id", FactType::Identifier, "event id"),
                ("event_type", FactType::Text, "event type"),
                ("to_be_removed", FactType::Text, "to be removed"),
                ("start_day", FactType::Text, "start day (UTC) as stored"),
                ("end_day", FactType::Text, "end day (UTC) as stored"),
                ("account", FactType::Email, "account"),
            ],
        );
        for (value, ft, label) in [
            (title.clone(), FactType::Text, "title (6)"),
            (text(msg, &["7"]), FactType::Text, "description (7)"),
            (text(msg, &["3"]), FactType::Url, "web link (3)"),
            (text(msg, &["19"]), FactType::Identifier, "iCal UID (19)"),
            (calendar_id, FactType::Identifier, "calendar id"),
            (calendar, FactType::Name, "calendar"),
        ] {
            if let Some((v, cited)) = value {
                d.fact(ft, Some(&cited), inv);
                said.push(format!("{label} {v}"));
            }
        }
        for (path, what) in [
            (&["36", "1"][..], "Google Calendar event start"),
            (&["37", "1"][..], "Google Calendar event end"),
            (&["4"][..], "Google Calendar event created"),
            (&["5"][..], "Google Calendar event updated"),
        ] {
            let v = number(msg, path);
            d.time(v.as_deref(), unix_by_magnitude(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "Events row {rid} of {file}: an event the Google Calendar app kept for the account ({}; the planned times, not attendance; times Unix by their size): {}.",
            if m.is_some() {
                "fields of its Proto record as ALEAPP reads them"
            } else {
                "its Proto record did not decode as a message: the table's columns only"
            },
            said.join(", ")
        );
        record_draft(ctx, d)?;
        if let Some(a) = t.get(row, "account") {
            accounts.entry(a.to_string()).or_insert(inv);
        }
    }
    // each account once, citing the first page naming it
    for (account, inv) in accounts {
        observe_owner_ids(
            ctx,
            inv,
            vec![(Some(account), IdType::Email, "account")],
            &|what| {
                format!(
                    "The {what} Google Calendar events of {file} belong to (Accounts.PlatformAccountName): the device's user's Google account."
                )
            },
        )?;
    }
    Ok(())
}
