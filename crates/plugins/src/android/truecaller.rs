//! Truecaller on Android (`com.truecaller/databases/`), the fields of ALEAPP's `truecaller`
//! module:
//!
//! | file, table | phenomenon | fields and identities |
//! |---|---|---|
//! | `tc.db` `history` | one `calls` per row | time (Unix ms), duration and ringing duration (as stored: no unit is documented), normalized and raw number, the name the app had cached for it, country code, number type, type, action, feature, filter source, important flag and note, assistant state (codes as stored), SIM subscription, Truecaller id, event id, call-log id; the number observed as the call's other party |
//! | `tc.db` `raw_contact` (numbers from `data` where `data_type` is 4) | one `contacts` per cached contact | search time (Unix ms), insert time (Unix s), name, default number, numbers, alternative and transliterated names, company, job title, about, gender, spam score, type and categories, suspected fraud, badges, favourite, source (as stored), image URL, search query, Truecaller id, phone-book id; a person `truecaller:<raw_contact _id>` with the numbers and the name |
//! | `tc.db` `msg_im_users` | one `contacts` per messaging peer | date (Unix ms), registration (Unix s), number, fallback name, IM peer id, Truecaller id, join notification; a person `truecaller-im:<peer id>` with the number and name |
//! | `insights.db` `sender_info` | one `contacts` per classified SMS sender | sender, name, sender type, country code, source type, smart-features status, grammars (as stored) |
//! | `calling-cache.db` `call_cache` | one `calls` per cached lookup | time (Unix ms), number, state (as stored), maximum age in seconds (a cache lifetime, not an event) |
//!
//! A cached contact is the answer of the app's own lookup — a crowd-sourced directory — not a
//! card of the user's address book, and not a sign the user knows the person: its names are
//! observed as display names of the number's person and said to be Truecaller's. Who the
//! device's user is, is not in these databases. Schema drift: each table is read when it has
//! its key columns, its other columns where present; another app's files of these names are
//! passed over.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::{Book, observe_party, party_fact, tables_with};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis, unix_seconds};
use crate::identity::{artefact_name, observe_columns, pages_on, table_columns};
use crate::outputs::raw;

/// The file names read, with what each holds.
pub const FILES: [&str; 3] = ["tc.db", "insights.db", "calling-cache.db"];

/// Whether `l` is one of Truecaller's databases.
pub fn is_truecaller(l: &Located) -> bool {
    l.path.contains("/com.truecaller/databases/")
}

/// One Truecaller database.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    match l.name() {
        "tc.db" => tc(ctx, l, book),
        "insights.db" => senders(ctx, l),
        "calling-cache.db" => cache(ctx, l),
        _ => Ok(()),
    }
}

/// `columns` of `table` selected (missing ones as NULL) from alias `prefix`.
fn select(cols: &std::collections::BTreeSet<String>, prefix: &str, columns: &[&str]) -> String {
    columns
        .iter()
        .map(|c| column_or_null(cols, prefix, c, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Adds `(column, type)` facts of a row.
fn facts(
    d: &mut Draft,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &masf_tools::Invoked,
    spec: &[(&str, FactType)],
) {
    for (col, ft) in spec {
        d.fact(*ft, raw(t, row, col).as_deref(), inv);
    }
}

/// What a row's `(column, label)` pairs say, for an interpretation.
fn said(t: &crate::outputs::Table, row: &[Option<String>], spec: &[(&str, &str)]) -> String {
    spec.iter()
        .filter_map(|(c, label)| {
            t.get(row, c)
                .filter(|v| !v.is_empty())
                .map(|v| format!("{label} {v}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn tc(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &[])? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    if !["history", "raw_contact", "msg_im_users"]
        .iter()
        .any(|t| has(t))
    {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse Truecaller's tc.db because it has none of the tables history, raw_contact, msg_im_users",
            None,
        )?;
        return Ok(());
    }
    if has("history") {
        history(ctx, l, book)?;
    }
    if has("raw_contact") {
        contacts(ctx, l, has("data"))?;
    }
    if has("msg_im_users") {
        im_users(ctx, l)?;
    }
    Ok(())
}

const HISTORY: &[&str] = &[
    "duration",
    "ringing_duration",
    "normalized_number",
    "raw_number",
    "cached_name",
    "country_code",
    "number_type",
    "type",
    "action",
    "feature",
    "filter_source",
    "is_important_call",
    "important_call_note",
    "assistant_state",
    "subscription_id",
    "tc_id",
    "event_id",
    "call_log_id",
];

fn history(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "history")?;
    if !require_columns(
        ctx,
        &name,
        "Truecaller's tc.db",
        "history",
        &cols,
        &["timestamp"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, timestamp, {} FROM history ORDER BY timestamp, rowid",
        select(&cols, "", HISTORY)
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Truecaller call history rows")?;
    for (inv, t, row) in pages.rows() {
        let number = t
            .get(row, "normalized_number")
            .or(t.get(row, "raw_number"))
            .filter(|n| !n.is_empty());
        let shown = number.unwrap_or("an unknown number");
        let mut d = Draft::new(
            "calls",
            format!(
                "Truecaller call history: {shown}{}",
                t.get(row, "cached_name")
                    .filter(|n| !n.is_empty())
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["normalized_number", "raw_number"] {
            if let Some(v) = t.get(row, col).filter(|v| !v.is_empty()) {
                d.claim(party_fact(ctx, v, inv));
            }
        }
        facts(
            &mut d,
            t,
            row,
            inv,
            &[
                ("cached_name", FactType::Name),
                ("duration", FactType::Count),
                ("ringing_duration", FactType::Count),
                ("country_code", FactType::Text),
                ("number_type", FactType::Count),
                ("type", FactType::Count),
                ("action", FactType::Count),
                ("feature", FactType::Count),
                ("filter_source", FactType::Text),
                ("is_important_call", FactType::Count),
                ("important_call_note", FactType::Text),
                ("assistant_state", FactType::Count),
                ("subscription_id", FactType::Identifier),
                ("tc_id", FactType::Identifier),
                ("event_id", FactType::Identifier),
                ("call_log_id", FactType::Identifier),
            ],
        );
        let time = t.get(row, "timestamp");
        d.time(time, unix_millis(time), "Call recorded by Truecaller", inv);
        d.interpretation = format!(
            "history row {} of {}: a call with {shown} in Truecaller's own call history ({}); type, action and feature are codes kept as stored (no mapping is documented), durations as stored (no unit is documented); timestamp is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            said(
                t,
                row,
                &[
                    ("cached_name", "the name the app had cached for the number"),
                    ("duration", "duration"),
                    ("ringing_duration", "ringing duration"),
                    ("type", "type"),
                    ("action", "action"),
                    ("feature", "feature"),
                    ("important_call_note", "note"),
                    ("subscription_id", "SIM subscription"),
                ],
            ),
        );
        record_draft(ctx, d)?;
        if let Some(n) = number {
            observe_party(
                ctx,
                book,
                n,
                inv,
                &format!("a call in Truecaller's call history ({})", l.name()),
            )?;
        }
    }
    Ok(())
}

const CONTACT: &[&str] = &[
    "contact_search_time",
    "insert_timestamp",
    "contact_name",
    "contact_default_number",
    "contact_alt_name",
    "contact_transliterated_name",
    "contact_company",
    "contact_job_title",
    "contact_about",
    "contact_gender",
    "contact_spam_score",
    "contact_spam_type",
    "spam_categories",
    "is_suspected_fraud",
    "contact_badges",
    "contact_is_favorite",
    "contact_source",
    "contact_image_url",
    "search_query",
    "tc_id",
    "contact_phonebook_id",
];

fn contacts(ctx: &AgentCtx<'_>, l: &Located, data: bool) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "raw_contact")?;
    if !require_columns(
        ctx,
        &name,
        "Truecaller's tc.db",
        "raw_contact",
        &cols,
        &["_id"],
    )? {
        return Ok(());
    }
    let dcols = if data {
        table_columns(ctx, &l.tree, &l.path, "data")?
    } else {
        Default::default()
    };
    let numbers = if ["data_raw_contact_id", "data_type", "data1"]
        .iter()
        .all(|c| dcols.contains(*c))
    {
        "(SELECT group_concat(d.data1, ', ') FROM data d WHERE d.data_raw_contact_id = rc._id AND d.data_type = 4)"
    } else {
        "NULL"
    };
    let order = if cols.contains("contact_search_time") {
        "rc.contact_search_time, rc._id"
    } else {
        "rc._id"
    };
    let sql = format!(
        "SELECT rc._id AS id, 'truecaller:' || rc._id AS qualified, {}, {numbers} AS numbers FROM raw_contact rc ORDER BY {order}",
        select(&cols, "rc.", CONTACT)
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Truecaller cached contacts")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let label = t
            .get(row, "contact_name")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "contact_default_number"))
            .unwrap_or(id)
            .to_string();
        let mut d = Draft::new("contacts", format!("Truecaller cached contact {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let listed: Vec<&str> = t
            .get(row, "numbers")
            .map(|n| n.split(", ").filter(|v| !v.is_empty()).collect())
            .unwrap_or_default();
        if let Some(v) = t
            .get(row, "contact_default_number")
            .filter(|v| !v.is_empty())
        {
            d.claim(party_fact(ctx, v, inv));
        }
        for n in &listed {
            d.claim(party_fact(ctx, n, inv));
        }
        facts(
            &mut d,
            t,
            row,
            inv,
            &[
                ("contact_name", FactType::Name),
                ("contact_alt_name", FactType::Name),
                ("contact_transliterated_name", FactType::Name),
                ("contact_company", FactType::Text),
                ("contact_job_title", FactType::Text),
                ("contact_about", FactType::Text),
                ("contact_gender", FactType::Text),
                ("contact_spam_score", FactType::Count),
                ("contact_spam_type", FactType::Text),
                ("spam_categories", FactType::Text),
                ("is_suspected_fraud", FactType::Count),
                ("contact_badges", FactType::Count),
                ("contact_is_favorite", FactType::Count),
                ("contact_source", FactType::Count),
                ("contact_image_url", FactType::Url),
                ("search_query", FactType::Text),
                ("tc_id", FactType::Identifier),
                ("contact_phonebook_id", FactType::Identifier),
            ],
        );
        let searched = t.get(row, "contact_search_time");
        d.time(searched, unix_millis(searched), "Truecaller lookup", inv);
        let inserted = t.get(row, "insert_timestamp");
        d.time(
            inserted,
            unix_seconds(inserted),
            "Truecaller contact cached",
            inv,
        );
        d.interpretation = format!(
            "raw_contact _id {id} of {}: a contact Truecaller cached from its own directory lookup (crowd-sourced; not a card of the user's address book, and not a sign the user knows the person): {}{}; spam and source codes as stored; contact_search_time is Unix milliseconds, insert_timestamp Unix seconds.",
            l.name(),
            said(
                t,
                row,
                &[
                    ("contact_name", "name"),
                    ("contact_default_number", "default number"),
                    ("contact_company", "company"),
                    ("contact_job_title", "job title"),
                    ("contact_spam_score", "spam score"),
                    ("search_query", "searched for"),
                ],
            ),
            if listed.is_empty() {
                String::new()
            } else {
                format!("; numbers {}", listed.join(", "))
            },
        );
        record_draft(ctx, d)?;
        let context = format!("truecaller:{id}");
        let why = |what: &str| {
            format!(
                "{what} Truecaller's directory gave for a number it looked up (raw_contact {id} of {}); crowd-sourced, not the user's address book.",
                l.name()
            )
        };
        observe_columns(
            ctx,
            &context,
            &label,
            t,
            row,
            inv,
            &[
                ("contact_name", IdType::DisplayName, "The name"),
                ("contact_default_number", IdType::Phone, "The number"),
            ],
            &why,
        )?;
        for n in &listed {
            if Some(*n) != t.get(row, "contact_default_number") {
                crate::identity::observe(
                    ctx,
                    &context,
                    masf_graph::EntityKind::Person,
                    &label,
                    IdType::Phone,
                    n,
                    inv,
                    why(&format!("The number {n}")),
                )?;
            }
        }
    }
    Ok(())
}

fn im_users(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "msg_im_users")?;
    if !require_columns(
        ctx,
        &name,
        "Truecaller's tc.db",
        "msg_im_users",
        &cols,
        &["normalized_number"],
    )? {
        return Ok(());
    }
    let order = if cols.contains("date") {
        "date, rowid"
    } else {
        "rowid"
    };
    let sql = format!(
        "SELECT rowid AS rid, normalized_number, {} FROM msg_im_users ORDER BY {order}",
        select(
            &cols,
            "",
            &[
                "date",
                "registration_timestamp",
                "fallback_name",
                "im_peer_id",
                "tc_id",
                "join_im_notification",
            ],
        )
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Truecaller messaging users")?;
    for (inv, t, row) in pages.rows() {
        let number = t.get(row, "normalized_number").unwrap_or("?");
        let label = t
            .get(row, "fallback_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(number)
            .to_string();
        let mut d = Draft::new("contacts", format!("Truecaller messaging user {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        if let Some(n) = t.get(row, "normalized_number").filter(|n| !n.is_empty()) {
            d.claim(party_fact(ctx, n, inv));
        }
        facts(
            &mut d,
            t,
            row,
            inv,
            &[
                ("fallback_name", FactType::Name),
                ("im_peer_id", FactType::Identifier),
                ("tc_id", FactType::Identifier),
                ("join_im_notification", FactType::Count),
            ],
        );
        let date = t.get(row, "date");
        d.time(date, unix_millis(date), "Messaging user recorded", inv);
        let reg = t.get(row, "registration_timestamp");
        d.time(reg, unix_seconds(reg), "Messaging user registered", inv);
        d.interpretation = format!(
            "msg_im_users row {} of {}: the number {number} Truecaller resolved to a messaging peer ({}) — a directory entry, not a record of messages; date is Unix milliseconds, registration_timestamp Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            said(
                t,
                row,
                &[("fallback_name", "name"), ("im_peer_id", "peer id")]
            ),
        );
        record_draft(ctx, d)?;
        let Some(peer) = t.get(row, "im_peer_id").filter(|p| !p.is_empty()) else {
            continue;
        };
        observe_columns(
            ctx,
            &format!("truecaller-im:{peer}"),
            &label,
            t,
            row,
            inv,
            &[
                ("normalized_number", IdType::Phone, "The number"),
                ("fallback_name", IdType::DisplayName, "The name"),
            ],
            &|what| {
                format!(
                    "{what} of the Truecaller messaging peer {peer} ({}); a directory entry of the app.",
                    l.name()
                )
            },
        )?;
    }
    Ok(())
}

fn senders(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["sender_info"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "sender_info")?;
    if !require_columns(
        ctx,
        &name,
        "Truecaller's insights.db",
        "sender_info",
        &cols,
        &["sender"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, sender, {} FROM sender_info ORDER BY sender, rowid",
        select(
            &cols,
            "",
            &[
                "sender_name",
                "sender_type",
                "country_code",
                "source_type",
                "smart_features_status",
                "grammars_enabled",
            ],
        )
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Truecaller SMS senders")?;
    for (inv, t, row) in pages.rows() {
        let sender = t.get(row, "sender").unwrap_or("?");
        let mut d = Draft::new("contacts", format!("Truecaller SMS sender {sender}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.claim(party_fact(ctx, sender, inv));
        facts(
            &mut d,
            t,
            row,
            inv,
            &[
                ("sender_name", FactType::Name),
                ("sender_type", FactType::Text),
                ("country_code", FactType::Text),
                ("source_type", FactType::Text),
                ("smart_features_status", FactType::Text),
                ("grammars_enabled", FactType::Text),
            ],
        );
        d.interpretation = format!(
            "sender_info row {} of {}: an SMS sender Truecaller classified: {sender}{}; types and statuses as stored; the table keeps no time.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "sender_name")
                .map(|n| format!(" ({n})"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn cache(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["call_cache"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "call_cache")?;
    if !require_columns(
        ctx,
        &name,
        "Truecaller's calling-cache.db",
        "call_cache",
        &cols,
        &["timestamp", "number"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, timestamp, number, {} FROM call_cache ORDER BY timestamp, rowid",
        select(&cols, "", &["state", "maxAgeSeconds"])
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Truecaller call lookups")?;
    for (inv, t, row) in pages.rows() {
        let number = t.get(row, "number").unwrap_or("?");
        let mut d = Draft::new("calls", format!("Truecaller call lookup {number}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        if let Some(n) = t.get(row, "number").filter(|n| !n.is_empty()) {
            d.claim(party_fact(ctx, n, inv));
        }
        facts(
            &mut d,
            t,
            row,
            inv,
            &[
                ("state", FactType::Text),
                ("maxAgeSeconds", FactType::Count),
            ],
        );
        let time = t.get(row, "timestamp");
        d.time(time, unix_millis(time), "Number looked up for a call", inv);
        d.interpretation = format!(
            "call_cache row {} of {}: Truecaller's cached lookup of {number} for a call, state {} (as stored), kept for {} seconds (a cache lifetime, not an event); timestamp is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "state").unwrap_or("not stored"),
            t.get(row, "maxAgeSeconds").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
