//! Google's Phone app (`com.google.android.dialer/databases/`), ALEAPP's `googleDialer` modules:
//!
//! | store, table | phenomenon | fields and identities |
//! |---|---|---|
//! | `annotated_call_log.db`, `AnnotatedCallLog` | one `calls` per call (the app's own copy of the call log: it may keep calls gone from `calllog.db`) | time (Unix ms), number as dialled and formatted, type (incoming, outgoing, missed, voicemail, rejected, blocked, answered elsewhere), presentation, duration, geocoded location, phone account, read, new, voicemail and its transcription; the number the call's other party (the contact holding it, else `handle:<number>`) |
//! | `phone_lookup_history.db`, `PhoneLookupHistory` | one `contacts` per number the app looked up | the number, last looked up (Unix ms) and, from the `phone_lookup_info` message, the contact's name, label and lookup URI, the network's caller ID name (CNAP), the location; the number observed as a party |
//! | `dialer.db`, `smartdial_table` | one `contacts` per smart-dial entry | name, number as stored and normalised, contact id, last updated and last used (Unix ms), times used, starred |
//! | `dialer.db`, `cached_number_contacts` | one `contacts` per cached caller ID | last updated (Unix ms), number, normalised number, name, label, source (a directory, a business listing), photo URI, lookup key; the number observed as a party |
//!
//! Columns are taken by name (absent ones NULL); a table without its number column is noted.
//! A caller ID or directory name is what the source called the number, not the person's own
//! word (said); only numbers are observed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::Value;

use super::Located;
use super::databases::{Book, observe_party, party_fact};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::pages_on_with;
use crate::outputs::{proto_text, raw};

/// The app's package folder.
const PACKAGE: &str = "/com.google.android.dialer/databases/";

/// Whether `l` is one of the Phone app's stores read here.
pub fn is_store(l: &Located) -> bool {
    l.path.contains(PACKAGE)
        && matches!(
            l.name(),
            "annotated_call_log.db" | "phone_lookup_history.db" | "dialer.db"
        )
}

/// One store of the Phone app.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    match l.name() {
        "annotated_call_log.db" => calls(ctx, l, book),
        "phone_lookup_history.db" => lookups(ctx, l, book),
        _ => {
            smartdial(ctx, l)?;
            cached(ctx, l, book)
        }
    }
}

/// `AnnotatedCallLog.call_type` (Android's `CallLog.Calls` types).
fn call_type(t: Option<&str>) -> (&'static str, &'static str) {
    match t {
        Some("1") => ("Incoming call from", "Incoming call started"),
        Some("2") => ("Outgoing call to", "Outgoing call started"),
        Some("3") => ("Missed call from", "Missed call"),
        Some("4") => ("Voicemail from", "Voicemail received"),
        Some("5") => ("Rejected call from", "Rejected call"),
        Some("6") => ("Blocked call from", "Blocked call"),
        Some("7") => (
            "Call answered on another device from",
            "Call answered elsewhere",
        ),
        _ => ("Call with", "Call started"),
    }
}

fn calls(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "the Phone app's annotated_call_log.db",
            table: "AnnotatedCallLog",
            required: &["timestamp"],
            optional: &[
                "formatted_number",
                "raw_number",
                "call_type",
                "presentation",
                "duration",
                "geocoded_location",
                "phone_account_id",
                "is_read",
                "new",
                "is_voicemail_call",
                "voicemail_transcription",
            ],
            rows: "calls of the Phone app's call log",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let number = t
            .get(row, "raw_number")
            .or_else(|| t.get(row, "formatted_number"))
            .filter(|n| !n.is_empty());
        let (title, desc) = call_type(t.get(row, "call_type"));
        let party = number.unwrap_or("an unknown number");
        let mut d = Draft::new("calls", format!("{title} {party} (Phone app's call log)"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        if let Some(n) = number {
            d.claim(party_fact(ctx, n, inv));
        }
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("formatted_number", FactType::Text, "formatted number"),
                ("duration", FactType::Count, "duration (s)"),
                ("geocoded_location", FactType::Text, "geocoded location"),
                ("phone_account_id", FactType::Identifier, "phone account"),
                ("presentation", FactType::Text, "presentation"),
                (
                    "voicemail_transcription",
                    FactType::Text,
                    "voicemail transcription",
                ),
            ],
        );
        for (c, what) in [
            ("is_read", "read"),
            ("new", "new"),
            ("is_voicemail_call", "voicemail"),
        ] {
            if let Some(v) = t.get(row, c) {
                said.push(format!("{what}: {}", if v == "1" { "yes" } else { "no" }));
            }
        }
        let at = t.get(row, "timestamp");
        d.time(at, unix_millis(at), desc, inv);
        d.interpretation = format!(
            "AnnotatedCallLog row {} of {name}: {} {party}, the Phone app's own copy of the call log (a call deleted from the system's call log may remain here); {}.",
            raw(t, row, "rowid").unwrap_or_default(),
            title.to_lowercase(),
            said.join("; ")
        );
        record_draft(ctx, d)?;
        if let Some(n) = number {
            let what = format!(
                "call {} of the Phone app's call log",
                raw(t, row, "rowid").unwrap_or_default()
            );
            observe_party(ctx, book, n, inv, &what)?;
        }
    }
    Ok(())
}

fn lookups(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let name = crate::identity::artefact_name(&l.tree, &l.path);
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "PhoneLookupHistory")?;
    if !cols.contains("normalized_number") {
        crate::identity::required_columns(
            ctx,
            &l.tree,
            &l.path,
            "the Phone app's phone_lookup_history.db",
            "PhoneLookupHistory",
            &["normalized_number"],
        )?;
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rowid, normalized_number, {}, {} FROM PhoneLookupHistory ORDER BY rowid",
        crate::calls::column_or_null(&cols, "", "phone_lookup_info", "phone_lookup_info"),
        crate::calls::column_or_null(&cols, "", "last_modified", "last_modified"),
    );
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(ctx, &name, &pages, "looked-up numbers")?;
    for (inv, t, row) in pages.rows() {
        let Some(number) = t.get(row, "normalized_number").filter(|n| !n.is_empty()) else {
            continue;
        };
        let info: Option<Value> =
            raw(t, row, "phone_lookup_info").and_then(|c| crate::outputs::protobuf_cell(&c));
        let text = |path: &[&str]| info.as_ref().and_then(|m| proto_text(m, path));
        let contact = text(&["1", "1", "1"]);
        let cnap = text(&["7", "1"]);
        let mut d = Draft::new(
            "contacts",
            format!(
                "Number looked up by the Phone app: {number}{}",
                contact
                    .as_ref()
                    .or(cnap.as_ref())
                    .map(|(n, _)| format!(" ({n})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.claim(party_fact(ctx, number, inv));
        let mut said = Vec::new();
        for (label, v, ft) in [
            ("contact name", contact.clone(), FactType::Name),
            ("label", text(&["1", "1", "5"]), FactType::Text),
            ("lookup URI", text(&["1", "1", "7"]), FactType::Text),
            ("caller ID name (CNAP)", cnap.clone(), FactType::Name),
            ("location", text(&["13", "1"]), FactType::Text),
        ] {
            if let Some((plain, cited)) = v {
                d.fact(ft, Some(&cited), inv);
                said.push(format!("{label} {plain}"));
            }
        }
        let at = t.get(row, "last_modified");
        d.time(
            at,
            unix_millis(at),
            "Number last looked up by the Phone app",
            inv,
        );
        d.interpretation = format!(
            "PhoneLookupHistory row {} of {name}: the Phone app looked up {number} (a call or a search); {}. A caller ID name is what the network called the number.",
            raw(t, row, "rowid").unwrap_or_default(),
            if said.is_empty() {
                "nothing was found for it".to_string()
            } else {
                said.join("; ")
            }
        );
        record_draft(ctx, d)?;
        observe_party(ctx, book, number, inv, "a number the Phone app looked up")?;
    }
    Ok(())
}

fn smartdial(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "smartdial_table")?;
    if cols.is_empty() {
        return Ok(());
    }
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "the Phone app's dialer.db",
            table: "smartdial_table",
            required: &["phone_number"],
            optional: &[
                "display_name",
                "normalized_number",
                "contact_id",
                "last_smartdial_update_time",
                "last_time_used",
                "times_used",
                "starred",
            ],
            rows: "smart-dial entries",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let Some(number) = t.get(row, "phone_number").filter(|n| !n.is_empty()) else {
            continue;
        };
        let mut d = Draft::new(
            "contacts",
            format!(
                "Smart-dial entry {}{number}",
                t.get(row, "display_name")
                    .map(|n| format!("{n}: "))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.claim(party_fact(ctx, number, inv));
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("display_name", FactType::Name, "name"),
                ("normalized_number", FactType::Text, "normalised number"),
                ("contact_id", FactType::Identifier, "contact id"),
                ("times_used", FactType::Count, "times used"),
            ],
        );
        if let Some(v) = t.get(row, "starred") {
            said.push(format!("starred: {}", if v == "1" { "yes" } else { "no" }));
        }
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("last_time_used", "Smart-dial entry last used"),
                ("last_smartdial_update_time", "Smart-dial entry updated"),
            ],
        );
        d.interpretation = format!(
            "smartdial_table row {} of {name}: a contact number the Phone app offers when the user starts dialling; {}.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn cached(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "cached_number_contacts")?;
    if cols.is_empty() {
        return Ok(());
    }
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "the Phone app's dialer.db",
            table: "cached_number_contacts",
            required: &["number"],
            optional: &[
                "normalized_number",
                "display_name",
                "phone_label",
                "source_name",
                "photo_uri",
                "lookup_key",
                "time_last_updated",
            ],
            rows: "cached caller IDs",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let Some(number) = t.get(row, "number").filter(|n| !n.is_empty()) else {
            continue;
        };
        let mut d = Draft::new(
            "contacts",
            format!(
                "Caller ID cached by the Phone app: {number}{}",
                t.get(row, "display_name")
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.claim(party_fact(ctx, number, inv));
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("display_name", FactType::Name, "name"),
                ("normalized_number", FactType::Text, "normalised number"),
                ("phone_label", FactType::Text, "label"),
                ("source_name", FactType::Text, "source"),
                ("photo_uri", FactType::Text, "photo URI"),
                ("lookup_key", FactType::Identifier, "lookup key"),
            ],
        );
        let at = t.get(row, "time_last_updated");
        d.time(at, unix_millis(at), "Caller ID cached", inv);
        d.interpretation = format!(
            "cached_number_contacts row {} of {name}: the name the Phone app showed for {number}, from a directory or a business listing (what the source called the number, not the person's own word); {}.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; ")
        );
        record_draft(ctx, d)?;
        observe_party(
            ctx,
            book,
            number,
            inv,
            "a number whose caller ID the Phone app cached",
        )?;
    }
    Ok(())
}
