//! FairEmail on Android (`eu.faircode.email/databases/fairemail`, a Room store), the fields of
//! ALEAPP's `get_fair_mail_accounts`, `get_fair_mail_contacts` and `get_fair_mail_messages`:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `account` with `identity` | one `accounts` per identity of an account (an account without one too) | created and last connected (Unix ms), account id and name, the identity's name, e-mail, display name and signature, IMAP host, port and user name; whether a password is stored is said, the password is not copied |
//! | `contact` | one `contacts` per contact | id, name, e-mail, times contacted, first and last contacted (Unix ms), the account's name and user |
//! | `message` with `folder`, `account`, `attachment` | one `messages` per message | received, sent and stored (Unix ms), the account's user, folder, every address and name of `from`, `to`, `cc`, `bcc` (JSON lists read with `json_each`: ALEAPP's joins keep the first of each), return path, subject, preview, seen, attachment count and the attachments' ids and names, the backend infrastructure; the body is the file `files/messages/<id>` (named, not read) |
//!
//! Identities: the identities' e-mail addresses and names are the device's user's (`owner`);
//! every other address of a contact or a message is a person `handle:<address>`. A message
//! whose sender is one of the identities is sent by the device's user; wallet addresses in its
//! preview are claims by direction. Schema drift: each table is read when it has its key
//! columns, the others where present.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, stored_flag, unix_millis};
use crate::identity::{artefact_name, email_addresses, observe, pages_on, schema_on};
use crate::outputs::raw;

const STORE: &str = "FairEmail's store";

/// Whether `l` is FairEmail's store.
pub fn is_fairemail(l: &Located) -> bool {
    l.name() == "fairemail" && l.path.contains("/eu.faircode.email/databases/")
}

type Schema = BTreeMap<String, BTreeSet<String>>;

/// One FairEmail store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    if table("account").is_none() && table("message").is_none() {
        ctx.unparsed(
            &name,
            &format!("could not parse {STORE} because it has neither account nor message"),
            None,
        )?;
        return Ok(());
    }
    let mut own = BTreeSet::new();
    if let Some(cols) = table("account")
        && require_columns(ctx, &name, STORE, "account", cols, &["id"])?
    {
        accounts(ctx, l, &name, &schema, cols, &mut own)?;
    }
    if let Some(cols) = table("contact")
        && require_columns(ctx, &name, STORE, "contact", cols, &["id", "email"])?
    {
        contacts(ctx, l, &name, &schema, cols, &own)?;
    }
    if let Some(cols) = table("message")
        && require_columns(ctx, &name, STORE, "message", cols, &["id", "received"])?
    {
        messages(ctx, l, &name, &schema, cols, &own)?;
    }
    Ok(())
}

/// `alias` from the row of `table` whose `id` is `key` (a column of the outer row), or NULL
/// when the table or column is missing.
fn lookup(schema: &Schema, table: &str, col: &str, key: &str, alias: &str) -> String {
    if schema
        .get(table)
        .is_some_and(|c| c.contains("id") && c.contains(col))
    {
        format!("(SELECT x.{col} FROM {table} x WHERE x.id = {key}) AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

fn accounts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
    cols: &BTreeSet<String>,
    own: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let a = |col: &str, alias: &str| column_or_null(cols, "a.", col, alias);
    let ids = schema.get("identity").filter(|c| c.contains("account"));
    let i = |col: &str, alias: &str| match ids {
        Some(c) => column_or_null(c, "i.", col, alias),
        None => format!("NULL AS {alias}"),
    };
    let join = if ids.is_some() {
        "LEFT JOIN identity i ON i.account = a.id"
    } else {
        ""
    };
    let password = if cols.contains("password") {
        "a.password IS NOT NULL AND a.password != ''"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT a.id AS account_id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {password} AS has_password FROM account a {join} ORDER BY a.id",
        a("name", "account_name"),
        a("host", "host"),
        a("port", "port"),
        a("user", "user"),
        a("created", "created"),
        a("last_connected", "last_connected"),
        i("id", "identity_id"),
        i("name", "identity_name"),
        i("email", "email"),
        i("display", "display"),
        i("signature", "signature"),
        a("protocol", "protocol"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "FairEmail accounts")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "account_id").unwrap_or("?");
        let label = t
            .get(row, "email")
            .or(t.get(row, "user"))
            .or(t.get(row, "account_name"))
            .unwrap_or(id)
            .to_string();
        if let Some(e) = t.get(row, "email") {
            own.insert(e.to_lowercase());
        }
        let mut d = Draft::new("accounts", format!("FairEmail account {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "account_id").as_deref(),
            inv,
        );
        d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
        for col in ["identity_name", "display", "account_name"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        for col in ["signature", "host", "port", "protocol"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Account, raw(t, row, "user").as_deref(), inv);
        let created = t.get(row, "created");
        d.time(created, unix_millis(created), "Mail account created", inv);
        let last = t.get(row, "last_connected");
        d.time(last, unix_millis(last), "Mail account last connected", inv);
        d.interpretation = format!(
            "account {id} of {} (FairEmail){}: {label}, server {}:{} as {}; {}. Times are Unix milliseconds.",
            l.name(),
            t.get(row, "identity_id")
                .map(|i| format!(", identity {i}"))
                .unwrap_or_default(),
            t.get(row, "host").unwrap_or("?"),
            t.get(row, "port").unwrap_or("?"),
            t.get(row, "user").unwrap_or("(user not stored)"),
            if t.get(row, "has_password") == Some("1") {
                "a password is stored (not copied here)"
            } else {
                "no password is stored"
            },
        );
        record_draft(ctx, d)?;
        let user_email = t
            .get(row, "user")
            .filter(|u| !email_addresses(u).is_empty());
        crate::identity::observe_owner_ids(
            ctx,
            inv,
            vec![
                (raw(t, row, "email"), IdType::Email, "e-mail address"),
                (
                    user_email.map(crate::outputs::escape),
                    IdType::Email,
                    "user name",
                ),
                (raw(t, row, "identity_name"), IdType::DisplayName, "name"),
                (raw(t, row, "display"), IdType::DisplayName, "display name"),
            ],
            &|what| {
                format!(
                    "The {what} of a FairEmail account set up on the device ({}), the device's user's.",
                    l.name()
                )
            },
        )?;
    }
    Ok(())
}

fn contacts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
    cols: &BTreeSet<String>,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "c.", col, col);
    let account = |col: &str, alias: &str| {
        if cols.contains("account") {
            lookup(schema, "account", col, "c.account", alias)
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT c.id AS id, c.email AS email, {}, {}, {}, {}, {}, {}, {} FROM contact c ORDER BY c.id",
        c("name"),
        c("times_contacted"),
        c("first_contacted"),
        c("last_contacted"),
        c("type"),
        account("name", "account_name"),
        account("user", "account_user"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "FairEmail contacts")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let email = t.get(row, "email").unwrap_or_default();
        let label = t.get(row, "name").unwrap_or(email).to_string();
        let mut d = Draft::new("contacts", format!("FairEmail contact {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
        d.fact(
            FactType::Count,
            raw(t, row, "times_contacted").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "type").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "account_name").as_deref(), inv);
        d.fact(
            FactType::Account,
            raw(t, row, "account_user").as_deref(),
            inv,
        );
        for (col, what) in [
            ("first_contacted", "Contact first contacted"),
            ("last_contacted", "Contact last contacted"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "contact {id} of {} (FairEmail): {label} <{email}>, contacted {} times through the account {} (type {} as stored); times are Unix milliseconds.",
            l.name(),
            t.get(row, "times_contacted").unwrap_or("?"),
            t.get(row, "account_user")
                .or(t.get(row, "account_name"))
                .unwrap_or("not stored"),
            t.get(row, "type").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        for (written, address) in email_addresses(email) {
            if own.contains(&address) {
                continue;
            }
            let context = format!("handle:{address}");
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Email,
                &written,
                inv,
                format!(
                    "The e-mail address of {label}, a FairEmail contact ({}).",
                    l.name()
                ),
            )?;
            if let Some(n) = raw(t, row, "name") {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    &label,
                    IdType::DisplayName,
                    &n,
                    inv,
                    format!("The name FairEmail keeps for {written} ({}).", l.name()),
                )?;
            }
        }
    }
    Ok(())
}

const LISTS: [&str; 4] = ["from", "to", "cc", "bcc"];

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
    cols: &BTreeSet<String>,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    // each address list (JSON) as its addresses and its names, one a line
    let list = |col: &str| {
        if cols.contains(col) {
            format!(
                "CASE WHEN json_valid(m.\"{col}\") THEN (SELECT group_concat(json_extract(j.value, '$.address'), char(10)) FROM json_each(m.\"{col}\") j) END AS {col}_addresses, \
CASE WHEN json_valid(m.\"{col}\") THEN (SELECT group_concat(json_extract(j.value, '$.personal'), char(10)) FROM json_each(m.\"{col}\") j) END AS {col}_names"
            )
        } else {
            format!("NULL AS {col}_addresses, NULL AS {col}_names")
        }
    };
    let return_path = if cols.contains("return_path") {
        "CASE WHEN json_valid(m.return_path) THEN json_extract(m.return_path, '$[0].address') END"
    } else {
        "NULL"
    };
    let attachments = schema
        .get("attachment")
        .filter(|a| a.contains("id") && a.contains("message"));
    let (att_ids, att_names) = match attachments {
        Some(a) => (
            "(SELECT group_concat(x.id, ',') FROM attachment x WHERE x.message = m.id)".to_string(),
            if a.contains("name") {
                "(SELECT group_concat(x.name, char(10)) FROM attachment x WHERE x.message = m.id)"
                    .to_string()
            } else {
                "NULL".to_string()
            },
        ),
        None => ("NULL".into(), "NULL".into()),
    };
    let folder = if cols.contains("folder") {
        lookup(schema, "folder", "name", "m.folder", "folder_name")
    } else {
        "NULL AS folder_name".into()
    };
    let account = if cols.contains("account") {
        lookup(schema, "account", "user", "m.account", "account_user")
    } else {
        "NULL AS account_user".into()
    };
    let sql = format!(
        "SELECT m.id AS id, m.received AS received, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {return_path} AS return_path, {att_ids} AS attachment_ids, {att_names} AS attachment_names, {folder}, {account} FROM message m ORDER BY m.id",
        c("sent"),
        c("stored"),
        c("subject"),
        c("preview"),
        c("seen"),
        c("attachments"),
        c("infrastructure"),
        c("msgid"),
        list("from"),
        list("to"),
        list("cc"),
        list("bcc"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "FairEmail messages")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let from = email_addresses(t.get(row, "from_addresses").unwrap_or_default());
        let sent = from.iter().any(|(_, a)| own.contains(a));
        let subject = t.get(row, "subject").unwrap_or("(no subject)");
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("FairEmail e-mail sent: {subject}")
            } else {
                format!(
                    "FairEmail e-mail from {}: {subject}",
                    from.first()
                        .map(|(w, _)| w.as_str())
                        .unwrap_or("an unknown sender")
                )
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        for col in LISTS {
            for line in t
                .get(row, &format!("{col}_addresses"))
                .unwrap_or_default()
                .lines()
            {
                d.fact(FactType::Email, Some(&crate::outputs::escape(line)), inv);
            }
            for line in t
                .get(row, &format!("{col}_names"))
                .unwrap_or_default()
                .lines()
            {
                d.fact(FactType::Name, Some(&crate::outputs::escape(line)), inv);
            }
        }
        d.fact(FactType::Email, raw(t, row, "return_path").as_deref(), inv);
        for col in [
            "subject",
            "preview",
            "folder_name",
            "infrastructure",
            "msgid",
        ] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(
            FactType::Account,
            raw(t, row, "account_user").as_deref(),
            inv,
        );
        for col in ["seen", "attachments"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        d.fact(
            FactType::Identifier,
            raw(t, row, "attachment_ids").as_deref(),
            inv,
        );
        for line in t.get(row, "attachment_names").unwrap_or_default().lines() {
            d.fact(FactType::Text, Some(&crate::outputs::escape(line)), inv);
        }
        let sent_at = t.get(row, "sent");
        d.message_time(sent_at, unix_millis(sent_at), sent, inv);
        let received = t.get(row, "received");
        d.time(received, unix_millis(received), "E-mail received", inv);
        let stored = t.get(row, "stored");
        d.time(
            stored,
            unix_millis(stored),
            "E-mail stored on the device",
            inv,
        );
        d.interpretation = format!(
            "message {id} of {} (FairEmail, account {}): an e-mail {} in folder {}, subject \"{subject}\", {}; its body is the app's file files/messages/{id}. Times are Unix milliseconds.",
            l.name(),
            t.get(row, "account_user").unwrap_or("not stored"),
            if sent {
                "sent by the device's user"
            } else {
                "received"
            },
            t.get(row, "folder_name").unwrap_or("not stored"),
            match stored_flag(t.get(row, "seen")) {
                Some(true) => "seen",
                Some(false) => "not seen",
                None => "seen state not stored",
            },
        );
        record_draft(ctx, d)?;
        let lists: Vec<(String, String)> = LISTS
            .iter()
            .map(|c| (format!("{c}_addresses"), format!("{c} list")))
            .collect();
        crate::identity::observe_mail_lists(
            ctx,
            t,
            row,
            inv,
            own,
            &lists
                .iter()
                .map(|(c, f)| (c.as_str(), f.as_str()))
                .collect::<Vec<_>>(),
            &format!(
                "an e-mail of the device's FairEmail account (message {id} of {})",
                l.name()
            ),
        )?;
        if let Some(preview) = t.get(row, "preview") {
            crate::identity::mail_claims(
                ctx,
                inv,
                preview,
                &format!("FairEmail message {id} ({})", l.name()),
                sent,
                t.get(row, "from_addresses").unwrap_or_default(),
                t.get(row, "to_addresses").unwrap_or_default(),
            )?;
        }
    }
    Ok(())
}
