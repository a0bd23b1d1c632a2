//! Google Play services' contacts index (`com.google.android.gms/databases/icing_contacts.db`),
//! ALEAPP's `googleIcingContacts` (`gmsIcingContacts`, `gmsIcingContactMethods`): the address
//! book as Play services copied it to index it for search (Icing, on-device search).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `contacts` | one `contacts` per contact ("Icing contact <display name>") | contact id, lookup key, display name, given names, nickname, phonetic name, organization, note, the numbers, e-mails and postal address as the row keeps them, times contacted, starred (newer Play services); last updated (`last_updated_timestamp`, Unix ms, newer Play services) |
//! | `phones`, `emails`, `postals` | facts of their contact's phenomenon | each number, e-mail address and postal address with its label; the type codes (ContactsContract's integers) stay in the interpretation as stored |
//!
//! The index is kept apart from the contacts provider's `contacts2.db` and refreshed from it, so
//! the two can differ: a contact here may be gone from the address book, or be newer than a copy
//! of it. A row says the contact was in the address book when Play services last indexed it,
//! not when it was created or who created it. `times_contacted` is Android's usage counter as
//! the index copied it; neither schema known keeps a last-contacted time (the brief's "last
//! contacted" has no column), and `last_updated_timestamp` is when the contact last changed.
//!
//! Schema drift: Play services 20 (2020) creates `contacts` without `last_updated_timestamp`
//! and `starred`; every column but `contact_id` is read where present (NULL otherwise), a
//! method table is read when it has `contact_id` and its value column. A store without
//! `contacts` is noted (another app's file of the name); a table lacking `contact_id` is noted.
//!
//! Identities: each contact is a person `contact:icing:<contact_id>` (the index's contact id
//! is the provider's aggregate contact id, not the raw contact id `contacts2.db`'s reader keys
//! its persons by: the numbers and addresses link them), labelled with its display name:
//! display name, each number, each e-mail address. None is the owner's: the address book's
//! own card, if indexed, is not told apart.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use crate::calls::{Tables, note_pages_cap, select_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, normalized, observe, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is Play services' contacts index.
pub fn is_store(l: &Located) -> bool {
    l.name() == "icing_contacts.db" && super::gms::is_gms(&l.path)
}

/// The contact columns read: `(column, alias)`.
const CONTACT_COLUMNS: &[(&str, &str)] = &[
    ("lookup_key", "lookup_key"),
    ("display_name", "display_name"),
    ("given_names", "given_names"),
    ("nickname", "nickname"),
    ("phonetic_name", "phonetic_name"),
    ("organization", "organization"),
    ("note", "note"),
    ("phone_numbers", "phone_numbers"),
    ("emails", "emails"),
    ("postal_address", "postal_address"),
    ("times_contacted", "times_contacted"),
    ("starred", "starred"),
    ("last_updated_timestamp", "last_updated"),
];

/// The method tables: `(table, value column, kind)`.
const METHODS: &[(&str, &str, &str)] = &[
    ("phones", "phone", "phone"),
    ("emails", "email", "email"),
    ("postals", "postal", "postal"),
];

/// One method row of a contact: kind, value (as the output prints it and as stored), label,
/// type, and the call that returned it.
struct Method<'a> {
    kind: String,
    cited: String,
    value: String,
    label: Option<String>,
    kind_code: Option<String>,
    inv: &'a Invoked,
}

/// One `icing_contacts.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let what = "Play services' contacts index icing_contacts.db";
    let Some(tables) = Tables::of(ctx, &name, what, &schema, &["contacts"])? else {
        return Ok(());
    };
    let Some(cols) = tables.need("contacts", &["contact_id"])? else {
        return Ok(());
    };
    // the numbers, addresses and their labels, by contact
    let mut parts = Vec::new();
    for (table, col, kind) in METHODS {
        let Some(mc) = tables.need(table, &["contact_id", *col])? else {
            continue;
        };
        parts.push(format!(
            "SELECT '{kind}' AS kind, m.contact_id AS contact_id, m.{col} AS value, {} FROM {table} m WHERE m.{col} IS NOT NULL AND m.{col} != ''",
            select_columns(mc, "m.", &[("label", "label"), ("type", "type")])
        ));
    }
    let method_pages = if parts.is_empty() {
        None
    } else {
        let sql = format!(
            "{} ORDER BY contact_id, kind, value",
            parts.join(" UNION ALL ")
        );
        let p = pages_on(ctx, &l.tree, &l.path, &sql)?;
        if let Some(p) = &p {
            note_pages_cap(ctx, &name, p, "contact numbers and addresses")?;
        }
        p
    };
    let mut methods: BTreeMap<String, Vec<Method<'_>>> = BTreeMap::new();
    if let Some(p) = &method_pages {
        for (inv, t, row) in p.rows() {
            let (Some(id), Some(value), Some(cited), Some(kind)) = (
                t.get(row, "contact_id"),
                t.get(row, "value"),
                raw(t, row, "value"),
                t.get(row, "kind"),
            ) else {
                continue;
            };
            methods.entry(id.to_string()).or_default().push(Method {
                kind: kind.to_string(),
                cited,
                value: value.to_string(),
                label: raw(t, row, "label"),
                kind_code: t.get(row, "type").map(str::to_string),
                inv,
            });
        }
    }
    let sql = format!(
        "SELECT c.rowid AS rid, c.contact_id AS contact_id, {} FROM contacts c ORDER BY c.contact_id",
        select_columns(cols, "c.", CONTACT_COLUMNS)
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "indexed contacts")?;
    let none = Vec::new();
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "contact_id") else {
            continue;
        };
        let display = t.get(row, "display_name");
        let label = display.map_or_else(|| format!("contact {id}"), str::to_string);
        let mut d = Draft::new("contacts", format!("Icing contact {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("contact_id", FactType::Identifier, "contact id"),
                ("lookup_key", FactType::Identifier, "lookup key"),
                ("display_name", FactType::Name, "display name"),
                ("given_names", FactType::Name, "given names"),
                ("nickname", FactType::Name, "nickname"),
                ("phonetic_name", FactType::Text, "phonetic name"),
                ("organization", FactType::Text, "organization"),
                ("note", FactType::Text, "note"),
                (
                    "phone_numbers",
                    FactType::Text,
                    "numbers as the row keeps them",
                ),
                ("emails", FactType::Text, "e-mails as the row keeps them"),
                ("postal_address", FactType::Text, "postal address"),
                ("times_contacted", FactType::Count, "times contacted"),
                ("starred", FactType::Text, "starred"),
            ],
        );
        let mine = methods.get(id).unwrap_or(&none);
        for m in mine {
            let ft = match m.kind.as_str() {
                "phone" if normalized(ctx, IdType::Phone, &m.value).is_some() => FactType::Phone,
                "email" => FactType::Email,
                _ => FactType::Text,
            };
            d.fact(ft, Some(&m.cited), m.inv);
            d.fact(FactType::Text, m.label.as_deref(), m.inv);
            said.push(format!(
                "{} {}{} (type {})",
                m.kind,
                m.cited,
                m.label
                    .as_deref()
                    .map(|x| format!(", label {x}"))
                    .unwrap_or_default(),
                m.kind_code.as_deref().unwrap_or("not kept")
            ));
        }
        let updated = t.get(row, "last_updated");
        d.time(
            updated,
            unix_millis(updated),
            "Contact last updated (Play services contacts index)",
            inv,
        );
        d.interpretation = format!(
            "contacts row {} of {} (contact id {id}): a contact of the phone's address book as Google Play services indexed it for search (a copy kept apart from contacts2.db: it may outlive the contact there or lag behind it): {}; numbers and addresses from the phones, emails and postals tables with ContactsContract's type codes as stored; last_updated_timestamp is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if said.is_empty() {
                "no field kept".to_string()
            } else {
                said.join(", ")
            }
        );
        record_draft(ctx, d)?;
        let context = format!("contact:icing:{id}");
        let note = format!(
            "Contact {id} of Play services' contacts index ({}), a person in the phone's address book.",
            l.name()
        );
        if let Some(v) = display {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                v,
                inv,
                note.clone(),
            )?;
        }
        for m in mine {
            let id_type = match m.kind.as_str() {
                "phone" => IdType::Phone,
                "email" => IdType::Email,
                _ => continue,
            };
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                id_type,
                &m.value,
                m.inv,
                note.clone(),
            )?;
        }
    }
    Ok(())
}
