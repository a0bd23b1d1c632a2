//! Google Duo / Meet calling on Android (`com.google.android.apps.tachyon/databases/tachyon.db`),
//! the fields of ALEAPP's `get_googleDuo`, `get_googleDuo_contacts` and `get_googleDuo_notes`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `activity_history` (with `duo_users`) | one `calls` per activity | time (`timestamp_usec`, Unix µs), the local and remote users (the id before `|` of `self_id` and `other_id`, cut in the query), the remote user's contact name, activity type (1 call, 2 note, 4 reaction), call state (0 left a message, 1 missed, 2 answered) and direction (`outgoing` 0/1) as ALEAPP reads them (other values as stored); the local user is the device's (`owner`, by its number), the remote user the call's other party |
//! | `duo_users` | one `contacts` per user | last updated (Unix ms), the contact's name, user id (a number or e-mail), label, contact id; a person `duo:<user id>` with the number or e-mail and name |
//! | `messages` | one `messages` per note (video or audio message) | sent, received and seen times (Unix ms), sender and recipient ids, the content's URI and file name, size, saved flag |
//!
//! Schema drift: each table is read when it has its key columns, its other columns where
//! present (ALEAPP reads absent ones as NULL, as here).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use super::databases::{Book, observe_party, party_fact};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_micros, unix_millis};
use crate::identity::{artefact_name, normalized, observe, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is the calling app's store.
pub fn is_duo(l: &Located) -> bool {
    l.path.contains("/com.google.android.apps.tachyon/")
}

const STORE: &str = "Google Duo's tachyon.db";

/// The id of a `<id>|<type>` column cut in the query (the whole value without `|`).
fn id_of(col: &str, alias: &str) -> String {
    format!(
        "CASE WHEN instr({col}, '|') > 0 THEN substr({col}, 1, instr({col}, '|') - 1) ELSE {col} END AS {alias}"
    )
}

/// One `tachyon.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    // every table's columns in one query
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let has = |t: &str| schema.contains_key(t);
    let name = artefact_name(&l.tree, &l.path);
    if !["activity_history", "duo_users", "messages"]
        .iter()
        .any(|t| has(t))
    {
        ctx.unparsed(
            &name,
            "could not parse Google Duo's tachyon.db because it has none of the tables activity_history, duo_users, messages",
            None,
        )?;
        return Ok(());
    }
    let user_cols = schema.get("duo_users").cloned().unwrap_or_default();
    let users = has("duo_users")
        && require_columns(ctx, &name, STORE, "duo_users", &user_cols, &["user_id"])?;
    if users {
        contacts(ctx, l, &name, &user_cols)?;
    }
    if let Some(cols) = schema.get("activity_history") {
        activity(ctx, l, &name, book, users, cols)?;
    }
    if let Some(cols) = schema.get("messages") {
        notes(ctx, l, &name, cols)?;
    }
    Ok(())
}

fn contacts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let order = if cols.contains("contact_id") {
        "contact_id, rowid"
    } else {
        "rowid"
    };
    let sql = format!(
        "SELECT rowid AS rid, user_id, {}, {}, {}, {} FROM duo_users ORDER BY {order}",
        c("system_contact_last_update_millis"),
        c("contact_display_name"),
        c("contact_phone_type_custom"),
        c("contact_id"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Google Duo users")?;
    for (inv, t, row) in pages.rows() {
        let Some(user) = t.get(row, "user_id").filter(|u| !u.is_empty()) else {
            continue;
        };
        let label = t
            .get(row, "contact_display_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(user)
            .to_string();
        let mut d = Draft::new("contacts", format!("Google Duo contact {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let email = user.contains('@');
        if email {
            d.fact(FactType::Email, Some(user), inv);
        } else {
            d.claim(party_fact(ctx, user, inv));
        }
        d.fact(
            FactType::Name,
            raw(t, row, "contact_display_name").as_deref(),
            inv,
        );
        d.fact(
            FactType::Text,
            raw(t, row, "contact_phone_type_custom").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "contact_id").as_deref(),
            inv,
        );
        let updated = t.get(row, "system_contact_last_update_millis");
        d.time(updated, unix_millis(updated), "Contact last updated", inv);
        d.interpretation = format!(
            "duo_users row {} of {}: {user}{}, a user the calling app (Duo / Meet) knows from the address book (contact {}).",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "contact_display_name")
                .filter(|n| !n.is_empty())
                .map(|n| format!(" named {n}"))
                .unwrap_or_default(),
            t.get(row, "contact_id").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            &format!("duo:{user}"),
            &label,
            t,
            row,
            inv,
            &[
                (
                    "user_id",
                    if email { IdType::Email } else { IdType::Phone },
                    "The Duo user id",
                ),
                ("contact_display_name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of {label}, a Google Duo user ({}).", l.name()),
        )?;
    }
    Ok(())
}

fn activity(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    book: &Book,
    users: bool,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    if !require_columns(
        ctx,
        name,
        STORE,
        "activity_history",
        cols,
        &["timestamp_usec", "other_id"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(cols, "a.", col, col);
    let me = if cols.contains("self_id") {
        id_of("a.self_id", "self")
    } else {
        "NULL AS self".to_string()
    };
    let contact = if users {
        "(SELECT u.contact_display_name FROM duo_users u WHERE u.user_id = (CASE WHEN instr(a.other_id, '|') > 0 THEN substr(a.other_id, 1, instr(a.other_id, '|') - 1) ELSE a.other_id END) LIMIT 1)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT a.rowid AS rid, a.timestamp_usec AS time, {me}, {}, {contact} AS contact, {}, {}, {} FROM activity_history a ORDER BY a.timestamp_usec, a.rowid",
        id_of("a.other_id", "other"),
        c("activity_type"),
        c("call_state"),
        c("outgoing"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Google Duo activities")?;
    for (inv, t, row) in pages.rows() {
        let other = t.get(row, "other").filter(|o| !o.is_empty());
        let who = t
            .get(row, "contact")
            .filter(|n| !n.is_empty())
            .or(other)
            .unwrap_or("an unknown user");
        let kind = match t.get(row, "activity_type") {
            Some("1") => "call".to_string(),
            Some("2") => "note".to_string(),
            Some("4") => "reaction".to_string(),
            Some(v) => format!("activity (type {v})"),
            None => "activity".to_string(),
        };
        let outgoing = t.get(row, "outgoing");
        let mut d = Draft::new(
            "calls",
            match outgoing {
                Some("1") => format!("Google Duo {kind} to {who}"),
                Some("0") => format!("Google Duo {kind} from {who}"),
                _ => format!("Google Duo {kind} with {who}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["self", "other"] {
            if let Some(v) = t.get(row, col).filter(|v| !v.is_empty()) {
                d.claim(party_fact(ctx, v, inv));
            }
        }
        d.fact(FactType::Name, raw(t, row, "contact").as_deref(), inv);
        for col in ["activity_type", "call_state", "outgoing"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        let time = t.get(row, "time");
        d.time(time, unix_micros(time), &format!("Duo {kind}"), inv);
        d.interpretation = format!(
            "activity_history row {} of {}: a Google Duo / Meet {kind} {} {who}{} by the local user {}; {}; the codes read as ALEAPP reads them; timestamp_usec is Unix microseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            match outgoing {
                Some("1") => "to",
                Some("0") => "from",
                _ => "with",
            },
            other
                .filter(|o| Some(*o) != Some(who))
                .map(|o| format!(" ({o})"))
                .unwrap_or_default(),
            t.get(row, "self").unwrap_or("not stored"),
            match t.get(row, "call_state") {
                Some("0") => "call_state 0: a message was left".to_string(),
                Some("1") => "call_state 1: missed".to_string(),
                Some("2") => "call_state 2: answered".to_string(),
                Some(v) => format!("call_state {v} (as stored)"),
                None => "no call state stored".to_string(),
            },
        );
        record_draft(ctx, d)?;
        if let Some(me) = t.get(row, "self").filter(|m| !m.is_empty())
            && normalized(ctx, IdType::Phone, me).is_some()
        {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Phone,
                me,
                inv,
                format!(
                    "The number {me} is the local user (self_id) of the Google Duo / Meet app's call history ({}).",
                    l.name()
                ),
            )?;
        }
        if let Some(o) = other {
            observe_party(
                ctx,
                book,
                o,
                inv,
                &format!("a Google Duo {kind} ({})", l.name()),
            )?;
        }
    }
    Ok(())
}

fn notes(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    if !require_columns(
        ctx,
        name,
        STORE,
        "messages",
        cols,
        &["sender_id", "recipient_id"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(cols, "", col, col);
    let file = if cols.contains("content_uri") {
        "replace(content_uri, rtrim(content_uri, replace(content_uri, '/', '')), '')"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT rowid AS rid, sender_id, recipient_id, {}, {}, {}, {}, {file} AS file, {}, {} FROM messages ORDER BY rowid",
        c("sent_timestamp_millis"),
        c("received_timestamp_millis"),
        c("seen_timestamp_millis"),
        c("content_uri"),
        c("content_size_bytes"),
        c("saved_status"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Google Duo notes")?;
    for (inv, t, row) in pages.rows() {
        let from = t.get(row, "sender_id").unwrap_or("?");
        let to = t.get(row, "recipient_id").unwrap_or("?");
        let mut d = Draft::new(
            "messages",
            format!("Google Duo note message from {from} to {to}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["sender_id", "recipient_id"] {
            if let Some(v) = t.get(row, col).filter(|v| !v.is_empty()) {
                d.claim(party_fact(ctx, v, inv));
            }
        }
        d.fact(FactType::Url, raw(t, row, "content_uri").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "file").as_deref(), inv);
        d.fact(
            FactType::Count,
            raw(t, row, "content_size_bytes").as_deref(),
            inv,
        );
        d.fact(FactType::Count, raw(t, row, "saved_status").as_deref(), inv);
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("sent_timestamp_millis", "Note sent"),
                ("received_timestamp_millis", "Note received"),
                ("seen_timestamp_millis", "Note seen"),
            ],
        );
        d.interpretation = format!(
            "messages row {} of {}: a Google Duo note (a video or audio message) from {from} to {to}{}{}; saved {}; times are Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "file")
                .filter(|f| !f.is_empty())
                .map(|f| format!(", file {f}"))
                .unwrap_or_default(),
            t.get(row, "content_size_bytes")
                .map(|s| format!(" ({s} bytes)"))
                .unwrap_or_default(),
            match t.get(row, "saved_status") {
                Some("1") => "yes",
                Some("0") => "no",
                _ => "not stored",
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
