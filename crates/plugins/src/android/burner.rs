//! Burner on Android (`com.adhoclabs.burner`): second phone numbers rented by the device's
//! user. The fields of ALEAPP's `get_burnerUser`, `get_burnerMessages`, `get_burnerContacts`,
//! `get_burnerSubscription` (`databases/burnerDatabase.db`, Room entities holding JSON
//! `value`s read with `json_extract` in the query), `get_burner` and
//! `get_burner_communications` (the older `databases/burners.db`):
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `BurnerEntity` / `burners` | one `accounts` per Burner number | created, the number (`phoneNumberId`), its id and name, the auto-reply text; the older store's last update, expiry and the minutes and texts allotted and remaining |
//! | `MessageEntity` / `messages` (with `contacts`) | one `messages` per text, one `calls` per call (the older store's `message_type` 1) | created (Unix ms), direction (1 incoming, 2 outgoing), the other party's number and (older store) name, text, read, attachment URL, duration in minutes, the Burner number used |
//! | `ContactEntity` | one `contacts` per contact | id, number |
//! | `SubscriptionEntity` | one `accounts` per subscription | the numbers' ids, created and renewal (Unix ms), SKU, store, trial, state |
//!
//! Identities: each Burner number is the device's user's (`owner`, a phone); the other party
//! of a text or call and each contact is observed by its number (the address-book contact
//! holding it, else `handle:<number>`); wallet addresses in a text are claims by direction.
//! Schema drift: each table is read when it has its key columns, the others where present.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::{Book, counterparty, observe_party};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, stored_flag, unix_millis};
use crate::identity::{artefact_name, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is one of Burner's stores.
pub fn is_burner(l: &Located) -> bool {
    l.path.contains("/com.adhoclabs.burner/databases/")
        && matches!(l.name(), "burnerDatabase.db" | "burners.db")
}

/// One Burner store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("Burner's {}", l.name());
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    let known = [
        "BurnerEntity",
        "MessageEntity",
        "ContactEntity",
        "SubscriptionEntity",
        "burners",
        "messages",
    ];
    if !known.iter().any(|t| table(t).is_some()) {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {store} because it has none of the tables {}",
                known.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let entity = |t: &str, key: &[&str]| -> Result<bool, RuntimeError> {
        match table(t) {
            Some(cols) => require_columns(ctx, &name, &store, t, cols, key),
            None => Ok(false),
        }
    };
    if entity("BurnerEntity", &["id", "value"])? {
        numbers(ctx, l, &name)?;
    }
    if let Some(cols) = table("burners")
        && require_columns(ctx, &name, &store, "burners", cols, &["phone_number_id"])?
    {
        old_numbers(ctx, l, &name, cols)?;
    }
    if entity("MessageEntity", &["value"])? {
        messages(ctx, l, &name, book)?;
    }
    if let Some(cols) = table("messages")
        && require_columns(
            ctx,
            &name,
            &store,
            "messages",
            cols,
            &["date_created", "contact_phone_number"],
        )?
    {
        let contacts = table("contacts")
            .filter(|c| c.contains("phone_number") && c.contains("name"))
            .is_some();
        old_messages(ctx, l, &name, cols, contacts, book)?;
    }
    if entity("ContactEntity", &["id", "phoneNumber"])? {
        contacts(ctx, l, &name, book)?;
    }
    if entity("SubscriptionEntity", &["value"])? {
        subscriptions(ctx, l, &name)?;
    }
    Ok(())
}

/// `json_extract(value, '$.<key>')` as `alias`, NULL when `value` is not JSON.
fn field(key: &str, alias: &str) -> String {
    format!("CASE WHEN json_valid(value) THEN json_extract(value, '$.{key}') END AS {alias}")
}

/// Observes a Burner number as the device's user's (a value that is no phone is not observed).
fn own_number(
    ctx: &AgentCtx<'_>,
    l: &Located,
    number: String,
    inv: &masf_tools::Invoked,
) -> Result<(), RuntimeError> {
    crate::identity::observe_owner_ids(
        ctx,
        inv,
        vec![(Some(number), IdType::Phone, "number")],
        &|_| {
            format!(
                "A Burner number of the device's user ({}): a second number rented through the app, on which its texts and calls are made.",
                l.name()
            )
        },
    )
}

fn numbers(ctx: &AgentCtx<'_>, l: &Located, name: &str) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, id, {}, {}, {}, {} FROM BurnerEntity ORDER BY rowid",
        field("dateCreated", "created"),
        field("phoneNumberId", "number"),
        field("name", "number_name"),
        field("autoReplyText", "auto_reply"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Burner numbers")?;
    for (inv, t, row) in pages.rows() {
        let number = t
            .get(row, "number")
            .unwrap_or("(number not stored)")
            .to_string();
        let mut d = Draft::new("accounts", format!("Burner number {number}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        d.fact(FactType::Phone, raw(t, row, "number").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "number_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "auto_reply").as_deref(), inv);
        let created = t.get(row, "created");
        d.time(created, unix_millis(created), "Burner number created", inv);
        d.interpretation = format!(
            "BurnerEntity {} of {}: the Burner number {number}{} of the device's user (a second number rented through the app){}; the creation time is Unix milliseconds.",
            t.get(row, "id").unwrap_or("?"),
            l.name(),
            t.get(row, "number_name")
                .map(|n| format!(" named \"{n}\""))
                .unwrap_or_default(),
            t.get(row, "auto_reply")
                .map(|a| format!(", auto-reply \"{a}\""))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        if let Some(n) = raw(t, row, "number") {
            own_number(ctx, l, n, inv)?;
        }
    }
    Ok(())
}

fn old_numbers(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, phone_number_id, {}, {}, {}, {}, {}, {}, {}, {} FROM burners ORDER BY rowid",
        c("date_created"),
        c("name"),
        c("last_updated_date"),
        c("expiration_date"),
        c("total_minutes"),
        c("remaining_minutes"),
        c("total_texts"),
        c("remaining_texts"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Burner numbers")?;
    for (inv, t, row) in pages.rows() {
        let number = t
            .get(row, "phone_number_id")
            .unwrap_or("(number not stored)")
            .to_string();
        let mut d = Draft::new("accounts", format!("Burner number {number}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Phone,
            raw(t, row, "phone_number_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        for col in [
            "total_minutes",
            "remaining_minutes",
            "total_texts",
            "remaining_texts",
        ] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        for (col, what) in [
            ("date_created", "Burner number created"),
            ("last_updated_date", "Burner number last updated"),
            ("expiration_date", "Burner number expires"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "burners row {} of {}: the Burner number {number}{} of the device's user (a second number rented through the app); minutes {} of {} left, texts {} of {} left; times are Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "name")
                .map(|n| format!(" named \"{n}\""))
                .unwrap_or_default(),
            t.get(row, "remaining_minutes").unwrap_or("?"),
            t.get(row, "total_minutes").unwrap_or("?"),
            t.get(row, "remaining_texts").unwrap_or("?"),
            t.get(row, "total_texts").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
        if let Some(n) = raw(t, row, "phone_number_id") {
            own_number(ctx, l, n, inv)?;
        }
    }
    Ok(())
}

/// One text or call: the facts shared by both stores' message rows, then its parties.
struct Communication<'a> {
    rid: &'a str,
    other: Option<&'a str>,
    other_name: Option<&'a str>,
    direction: Option<&'a str>,
    call: bool,
}

#[allow(clippy::too_many_arguments)]
fn communication(
    ctx: &AgentCtx<'_>,
    l: &Located,
    book: &Book,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &masf_tools::Invoked,
    c: Communication<'_>,
    table: &str,
) -> Result<(), RuntimeError> {
    let sent = match c.direction {
        Some("1") => Some(false),
        Some("2") => Some(true),
        _ => None,
    };
    let with = c
        .other_name
        .or(c.other)
        .map(str::to_string)
        .unwrap_or("an unknown party".into());
    let kind = if c.call { "call" } else { "text" };
    let mut d = Draft::new(
        if c.call { "calls" } else { "messages" },
        match sent {
            Some(true) => format!("Burner {kind} to {with}"),
            Some(false) => format!("Burner {kind} from {with}"),
            None => format!("Burner {kind} with {with}"),
        },
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    if let Some(o) = c.other {
        d.claim(super::databases::party_fact(
            ctx,
            &crate::outputs::escape(o),
            inv,
        ));
    }
    d.fact(FactType::Name, raw(t, row, "other_name").as_deref(), inv);
    d.fact(FactType::Text, raw(t, row, "message").as_deref(), inv);
    d.fact(FactType::Url, raw(t, row, "asset_url").as_deref(), inv);
    for col in ["direction", "message_type", "read", "duration"] {
        d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
    }
    d.fact(
        FactType::Phone,
        raw(t, row, "burner_number").as_deref(),
        inv,
    );
    d.fact(
        FactType::Identifier,
        raw(t, row, "burner_id").as_deref(),
        inv,
    );
    let created = t.get(row, "created");
    match sent {
        Some(s) if !c.call => d.message_time(created, unix_millis(created), s, inv),
        _ => d.time(
            created,
            unix_millis(created),
            if c.call {
                "Burner call"
            } else {
                "Burner text created"
            },
            inv,
        ),
    };
    d.interpretation = format!(
        "{table} row {} of {}: a {kind} on the device's user's Burner number{}, {} {with}{}{}; direction {} (1 incoming, 2 outgoing, as ALEAPP reads it); the time is Unix milliseconds.",
        c.rid,
        l.name(),
        t.get(row, "burner_number")
            .map(|n| format!(" {n}"))
            .unwrap_or_default(),
        match sent {
            Some(true) => "to",
            Some(false) => "from",
            None => "with",
        },
        match stored_flag(t.get(row, "read")) {
            Some(true) => ", read",
            Some(false) => ", unread",
            None => "",
        },
        t.get(row, "duration")
            .filter(|_| c.call)
            .map(|m| format!(", about {m} minutes"))
            .unwrap_or_default(),
        c.direction.unwrap_or("not stored"),
    );
    record_draft(ctx, d)?;
    let Some(other) = c.other else {
        return Ok(());
    };
    let what = format!("a Burner {kind} ({table} row {} of {})", c.rid, l.name());
    observe_party(ctx, book, other, inv, &what)?;
    if let (Some(text), Some(s)) = (t.get(row, "message"), sent)
        && !c.call
    {
        let (context, label) = counterparty(ctx, book, other);
        crate::identity::claims_by_direction(ctx, inv, text, &what, s, Some((&context, &label)))?;
    }
    Ok(())
}

fn messages(ctx: &AgentCtx<'_>, l: &Located, name: &str, book: &Book) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, {}, {}, {}, {}, {}, {}, {} FROM MessageEntity ORDER BY rowid",
        field("dateCreated", "created"),
        field("contactPhoneNumber", "other"),
        field("message", "message"),
        field("direction", "direction"),
        field("read", "read"),
        field("burnerId", "burner_id"),
        field("mediaUrl", "asset_url"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Burner messages")?;
    for (inv, t, row) in pages.rows() {
        let c = Communication {
            rid: t.get(row, "rid").unwrap_or("?"),
            other: t.get(row, "other"),
            other_name: None,
            direction: t.get(row, "direction"),
            call: false,
        };
        communication(ctx, l, book, t, row, inv, c, "MessageEntity")?;
    }
    Ok(())
}

fn old_messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &BTreeSet<String>,
    contacts: bool,
    book: &Book,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    // ALEAPP joins contacts (a message whose number has no contact row is dropped): the name
    // is looked up here, every message read
    let other_name = if contacts {
        "(SELECT k.name FROM contacts k WHERE k.phone_number = m.contact_phone_number LIMIT 1)"
    } else {
        "NULL"
    };
    let burner = if cols.contains("burner_id") {
        "m.burner_id"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.date_created AS created, m.contact_phone_number AS other, {other_name} AS other_name, {}, {}, {}, {}, {}, {burner} AS burner_id FROM messages m ORDER BY m.date_created, m.rowid",
        c("direction"),
        c("message_type"),
        c("message"),
        c("asset_url"),
        c("duration"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Burner communications")?;
    for (inv, t, row) in pages.rows() {
        let c = Communication {
            rid: t.get(row, "rid").unwrap_or("?"),
            other: t.get(row, "other"),
            other_name: t.get(row, "other_name"),
            direction: t.get(row, "direction"),
            call: t.get(row, "message_type") == Some("1"),
        };
        communication(ctx, l, book, t, row, inv, c, "messages")?;
    }
    Ok(())
}

fn contacts(ctx: &AgentCtx<'_>, l: &Located, name: &str, book: &Book) -> Result<(), RuntimeError> {
    let sql = "SELECT rowid AS rid, id, phoneNumber FROM ContactEntity ORDER BY rowid";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Burner contacts")?;
    for (inv, t, row) in pages.rows() {
        let number = t.get(row, "phoneNumber").unwrap_or("(no number)");
        let mut d = Draft::new("contacts", format!("Burner contact {number}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        if let Some(n) = raw(t, row, "phoneNumber") {
            d.claim(super::databases::party_fact(ctx, &n, inv));
        }
        d.interpretation = format!(
            "ContactEntity {} of {}: {number}, a contact of the device's user's Burner numbers.",
            t.get(row, "id").unwrap_or("?"),
            l.name()
        );
        record_draft(ctx, d)?;
        if let Some(n) = t.get(row, "phoneNumber") {
            observe_party(
                ctx,
                book,
                n,
                inv,
                &format!("a Burner contact ({})", l.name()),
            )?;
        }
    }
    Ok(())
}

fn subscriptions(ctx: &AgentCtx<'_>, l: &Located, name: &str) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, {}, {}, {}, {}, {}, {}, {} FROM SubscriptionEntity ORDER BY rowid",
        field("burnerIds", "burner_ids"),
        field("creationDate", "created"),
        field("renewalDate", "renewal"),
        field("sku", "sku"),
        field("store", "store"),
        field("trial", "trial"),
        field("state", "state"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Burner subscriptions")?;
    for (inv, t, row) in pages.rows() {
        let sku = t.get(row, "sku").unwrap_or("(SKU not stored)");
        let mut d = Draft::new("accounts", format!("Burner subscription {sku}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "burner_ids").as_deref(),
            inv,
        );
        for col in ["sku", "store", "trial", "state"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        for (col, what) in [
            ("created", "Burner subscription created"),
            ("renewal", "Burner subscription renews"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "SubscriptionEntity row {} of {}: the device's user's Burner subscription {sku} bought through {} for the numbers {}, state {}, trial {} (ALEAPP reads 1 as a trial, 2 as not); times are Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "store").unwrap_or("a store not named"),
            t.get(row, "burner_ids").unwrap_or("not named"),
            t.get(row, "state").unwrap_or("not stored"),
            t.get(row, "trial").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
