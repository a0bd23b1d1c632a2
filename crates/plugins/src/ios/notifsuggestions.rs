//! CoreDuet's notification history and notification-handling suggestions
//! (`mobile/Library/DuetExpertCenter/notificationAndSuggestionDB.db`), iLEAPP's
//! `duetNotificationSuggestions` module (its artefacts `duetNotifications`, "DuetExpertCenter -
//! Notifications", and `duetNotificationSuggestions`, "DuetExpertCenter - Notification
//! Suggestions"): which app delivered each notification the device received, how, and what
//! became of it, and the suggestions DuetExpertCenter made from them (muting a thread, turning an
//! app's notifications off …) with what the user did. The DuetExpertCenter stream folders of the
//! same directory (`streams/location/`, `streams/userNotificationEvents/`) are read by
//! [`super::duetstreams`]; this is the SQLite store beside them.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `notifications` | one `notifications` per row ("DuetExpertCenter notification from <app> (<UUID>)") | the app (`bundleId`), is a message, is a group message, urgency, delivery method, delivery reason, latest outcome (Apple-internal codes, as stored), prominent, active, expansions, body length, thread id, contact id, received mode, raw identifier, UUID; received (`receiveTimestamp`) and the latest outcome's time (Cocoa seconds) |
//! | `suggestions` (with `notifications` by `triggerNotificationUUID`) | one `notifications` per row ("DuetExpertCenter notification suggestion <type> (<UUID>)") | suggestion type, scope, latest outcome (as stored), entity identifier, active, feedback key, the triggering notification's UUID and its app (looked up in the query), UUID; created, shown, latest outcome (Cocoa seconds) |
//!
//! What it proves: that the app delivered a notification to the device at that time (a message
//! one when `isMessage` is 1, in a group when `isGroupMessage` is 1) and, from the outcome codes,
//! what the system recorded of its handling; the store keeps no text of the notification (only
//! its body length where the column is). iLEAPP's notes: it kept notification records older than
//! some apps' own message databases. The urgency, delivery method and reason, outcome, received
//! mode, suggestion type and scope codes are Apple-internal: said as stored, never decoded.
//!
//! Schema drift: columns are taken by name; `numExpansions`, `notificationBodyLength`,
//! `receivedMode` and `rawIdentifier` came later (absent on some iOS 17 stores: NULL). A store
//! with neither table is noted; a `notifications` without `receiveTimestamp` or `bundleId`, or a
//! `suggestions` without `createdTimestamp` or `suggestionType`, is noted and the other table
//! still read. A file of this name outside a `DuetExpertCenter` folder is not this store: neither
//! read nor noted. Rows in pages ([`Run::paged`]), up to [`super::ROW_CAP`] (noted beyond).
//!
//! Identities: none. `contactId` is a Contacts identifier of the card the notification was
//! matched to and `threadId` the app's conversation: kept as facts, but the store does not say
//! whose they are (the sender, a group), so no person is made of them.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::select_columns;
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const NOTIFICATIONS: &str = "notifications";
const SUGGESTIONS: &str = "suggestions";

/// The store's file name.
pub const NAME: &str = "notificationAndSuggestionDB.db";

/// Whether `path` is DuetExpertCenter's store (its file in a `DuetExpertCenter` folder).
pub fn is_store(path: &str) -> bool {
    file_name(path) == NAME && path.contains("/DuetExpertCenter/")
}

/// Triage of every DuetExpertCenter notification store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("notificationAndSuggestionDB.db", |find, path| {
        if is_store(path) {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[NOTIFICATIONS, SUGGESTIONS])? else {
        return Ok(());
    };
    let (n, s) = (schema.columns(NOTIFICATIONS), schema.columns(SUGGESTIONS));
    if n.is_empty() && s.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse DuetExpertCenter's notificationAndSuggestionDB.db because it has neither a notifications nor a suggestions table",
            None,
        )?;
        return Ok(());
    }
    if !n.is_empty() && schema.require(run, NOTIFICATIONS, &["receiveTimestamp", "bundleId"])? {
        notifications(run, find, path, &schema)?;
    }
    if !s.is_empty() && schema.require(run, SUGGESTIONS, &["createdTimestamp", "suggestionType"])? {
        suggestions(run, find, path, &schema)?;
    }
    Ok(())
}

/// The query of `notifications`.
fn notifications_sql(schema: &Schema) -> String {
    format!(
        "SELECT n.rowid AS rid, n.receiveTimestamp AS received, n.bundleId AS bundle, {} FROM {NOTIFICATIONS} n",
        select_columns(
            &schema.columns(NOTIFICATIONS),
            "n.",
            &[
                ("isMessage", "is_message"),
                ("isGroupMessage", "is_group"),
                ("urgency", "urgency"),
                ("deliveryMethod", "delivery_method"),
                ("deliveryReason", "delivery_reason"),
                ("latestOutcome", "outcome"),
                ("latestOutcomeTimestamp", "outcome_time"),
                ("isProminent", "prominent"),
                ("isActive", "active"),
                ("numExpansions", "expansions"),
                ("notificationBodyLength", "body_length"),
                ("threadId", "thread"),
                ("contactId", "contact"),
                ("receivedMode", "received_mode"),
                ("rawIdentifier", "raw_identifier"),
                ("uuid", "uuid"),
            ],
        )
    )
}

fn notifications(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let Some(paged) = run.paged(path, &notifications_sql(schema), "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let rid = get("rid").unwrap_or_else(|| "?".into());
        let mut d = Draft::new(
            "notifications",
            format!(
                "DuetExpertCenter notification from {} ({})",
                get("bundle").unwrap_or_else(|| "an unnamed app".into()),
                get("uuid").unwrap_or_else(|| format!("row {rid}")),
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("bundle", FactType::Identifier, "app"),
                ("is_message", FactType::Text, "is a message"),
                ("is_group", FactType::Text, "is a group message"),
                ("urgency", FactType::Text, "urgency (as stored)"),
                (
                    "delivery_method",
                    FactType::Text,
                    "delivery method (as stored)",
                ),
                (
                    "delivery_reason",
                    FactType::Text,
                    "delivery reason (as stored)",
                ),
                ("outcome", FactType::Text, "latest outcome (as stored)"),
                ("prominent", FactType::Text, "prominent"),
                ("active", FactType::Text, "active"),
                ("expansions", FactType::Count, "expansions"),
                ("body_length", FactType::Count, "body length"),
                ("thread", FactType::Identifier, "thread id"),
                ("contact", FactType::Identifier, "contact id"),
                ("received_mode", FactType::Text, "received mode (as stored)"),
                ("raw_identifier", FactType::Identifier, "raw identifier"),
                ("uuid", FactType::Identifier, "UUID"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("received", "Notification received (DuetExpertCenter)"),
                (
                    "outcome_time",
                    "Notification's latest outcome (DuetExpertCenter)",
                ),
            ],
        );
        d.interpretation = format!(
            "{NOTIFICATIONS} row {rid} of {file}: a notification the device received, as CoreDuet's DuetExpertCenter kept it to make its suggestions ({}){}. The store keeps no text of it (a body length at most); the urgency, delivery, outcome and received-mode codes are Apple's internal ones, said as stored; a contact id names the Contacts card it was matched to, not whose it is. Times are Cocoa seconds.",
            said.join("; "),
            match t.get(row, "received") {
                Some(r) => format!(", received at {r}"),
                None => String::new(),
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "DuetExpertCenter notifications")
}

/// The query of `suggestions`, with the app of the notification that triggered each (looked up
/// by its UUID where both tables have the columns).
fn suggestions_sql(schema: &Schema) -> String {
    let (n, s) = (schema.columns(NOTIFICATIONS), schema.columns(SUGGESTIONS));
    let trigger_app = if s.contains("triggerNotificationUUID")
        && n.contains("uuid")
        && n.contains("bundleId")
    {
        format!(
            "(SELECT t.bundleId FROM {NOTIFICATIONS} t WHERE t.uuid = s.triggerNotificationUUID LIMIT 1) AS trigger_app"
        )
    } else {
        "NULL AS trigger_app".to_string()
    };
    format!(
        "SELECT s.rowid AS rid, s.createdTimestamp AS created, s.suggestionType AS kind, {}, {trigger_app} FROM {SUGGESTIONS} s",
        select_columns(
            &s,
            "s.",
            &[
                ("shownTimestamp", "shown"),
                ("scope", "scope"),
                ("entityIdentifier", "entity"),
                ("latestOutcome", "outcome"),
                ("latestOutcomeTimestamp", "outcome_time"),
                ("isActive", "active"),
                ("feedbackKey", "feedback_key"),
                ("triggerNotificationUUID", "trigger_uuid"),
                ("uuid", "uuid"),
            ],
        )
    )
}

fn suggestions(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let Some(paged) = run.paged(path, &suggestions_sql(schema), "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let rid = get("rid").unwrap_or_else(|| "?".into());
        let mut d = Draft::new(
            "notifications",
            format!(
                "DuetExpertCenter notification suggestion {} ({})",
                get("kind").unwrap_or_else(|| "of no type".into()),
                get("uuid").unwrap_or_else(|| format!("row {rid}")),
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("kind", FactType::Text, "suggestion type (as stored)"),
                ("scope", FactType::Text, "scope (as stored)"),
                ("entity", FactType::Identifier, "entity identifier"),
                ("outcome", FactType::Text, "latest outcome (as stored)"),
                ("active", FactType::Text, "active"),
                ("feedback_key", FactType::Identifier, "feedback key"),
                (
                    "trigger_uuid",
                    FactType::Identifier,
                    "triggering notification's UUID",
                ),
                (
                    "trigger_app",
                    FactType::Identifier,
                    "triggering notification's app",
                ),
                ("uuid", FactType::Identifier, "UUID"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                (
                    "created",
                    "Notification suggestion created (DuetExpertCenter)",
                ),
                ("shown", "Notification suggestion shown (DuetExpertCenter)"),
                (
                    "outcome_time",
                    "Notification suggestion's latest outcome (DuetExpertCenter)",
                ),
            ],
        );
        d.interpretation = format!(
            "{SUGGESTIONS} row {rid} of {file}: a suggestion CoreDuet's DuetExpertCenter made about handling notifications ({}){}; a shown time says it was put before the user, the latest outcome what became of it (Apple's internal codes, said as stored, as are the type and scope). Times are Cocoa seconds.",
            said.join("; "),
            if get("trigger_uuid").is_some() && get("trigger_app").is_none() {
                "; the notification that triggered it is not in the notifications table"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(
        run.ctx,
        path,
        &paged,
        "DuetExpertCenter notification suggestions",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_paths() {
        assert!(is_store(
            "/private/var/mobile/Library/DuetExpertCenter/notificationAndSuggestionDB.db"
        ));
        assert!(!is_store(
            "/private/var/mobile/Containers/Data/Application/X/Library/Caches/notificationAndSuggestionDB.db"
        ));
        assert!(!is_store(
            "/private/var/mobile/Library/DuetExpertCenter/notificationAndSuggestionDB.db-wal"
        ));
    }
}
