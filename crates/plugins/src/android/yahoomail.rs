//! Yahoo Mail (`com.yahoo.mobile.client.android.mail/databases/flux_database.db`), ALEAPP's
//! `yahooMail` (`yahoo_mail_messages`, `yahoo_mail_accounts`): the app's Flux store, where
//! every table has one shape — `mailboxYid` (the account), `key` (the record), `value` (a JSON
//! document), `timestamp` — so a message is assembled from several tables joined on its key.
//!
//! | tables | phenomenon | fields |
//! |---|---|---|
//! | `Mailboxes` (`accountsList`) | one `accounts` per account ("Yahoo Mail account <e-mail>") | e-mail, account name, id, domain, primary, selected; the mailbox |
//! | `MessagesData` ⋈ `MessagesRecipients`, `MessagesFlags`, `MessagesFolderId`, `MessagesSubjectSnippet`, `MessagesBody`, `MessagesRefV2` | one `messages` per cached message ("Yahoo Mail e-mail from <sender>: <subject>", or "sent") | date and server sync (Unix ms), from, to, cc, bcc, reply-to (the JSON lists as stored: each address and name), subject and snippet (the first list query's, as ALEAPP reads them), read, flagged, folder id, the cached HTML body, conversation id, message id, the account |
//!
//! The JSON is read by SQLite's JSON functions in the query, each only where `json_valid` holds,
//! so a value that is not JSON costs its field, never the read. Identities: each account's
//! e-mail is the device's user's (`owner`); every other address of a message is a
//! `handle:<address>` person (as the other mail readers observe correspondents). A sent message
//! is one whose sender is one of the accounts. A store without `MessagesData` or `Mailboxes` is
//! noted.

use std::collections::BTreeSet;

use crate::calls::json_at;
use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::note_pages_cap;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, email_addresses, pages_on};
use crate::outputs::raw;

/// Whether `l` is Yahoo Mail's Flux store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "flux_database.db"
        && l.path
            .contains("/com.yahoo.mobile.client.android.mail/databases/")
}

/// One `flux_database.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = super::databases::tables_with(ctx, l, &["Mailboxes", "MessagesData"])?
    else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    // the accounts
    let sql = format!(
        "SELECT m.mailboxYid AS mailbox, {} AS email, {} AS account_name, {} AS account_id, {} AS domain, {} AS is_primary, {} AS selected FROM Mailboxes m, json_each(CASE WHEN json_valid(m.value) THEN json_extract(m.value, '$.accountsList') END) a ORDER BY m.rowid, a.key",
        json_at("a.value", "$.email"),
        json_at("a.value", "$.accountName"),
        json_at("a.value", "$.accountId"),
        json_at("a.value", "$.accountDomain"),
        json_at("a.value", "$.isPrimary"),
        json_at("a.value", "$.isSelected"),
    );
    let mut own: BTreeSet<String> = BTreeSet::new();
    if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
        for (inv, t, row) in pages.rows() {
            let Some(email) = raw(t, row, "email").filter(|e| !e.is_empty()) else {
                continue;
            };
            let mut d = Draft::new("accounts", format!("Yahoo Mail account {email}"));
            d.fact(FactType::Path, Some(&l.path), &l.found);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("email", FactType::Email, "e-mail"),
                    ("account_name", FactType::Name, "name"),
                    ("account_id", FactType::Account, "account id"),
                    ("domain", FactType::Text, "domain"),
                    ("is_primary", FactType::Text, "primary"),
                    ("selected", FactType::Text, "selected"),
                    ("mailbox", FactType::Account, "mailbox"),
                ],
            );
            d.interpretation = format!(
                "Mailboxes of {name}: a Yahoo Mail account signed in on the phone ({}).",
                said.join("; ")
            );
            record_draft(ctx, d)?;
            crate::identity::observe_owner_ids(
                ctx,
                inv,
                vec![(Some(email.clone()), IdType::Email, "The e-mail address")],
                &|what| {
                    format!(
                        "{what} of the Yahoo Mail account signed in on the device ({name}), the device's user."
                    )
                },
            )?;
            own.insert(email.to_lowercase());
        }
    }
    let has = |t: &str| tables.iter().any(|x| x == t);
    let join = |table: &str, alias: &str| {
        if has(table) {
            format!(
                " LEFT JOIN {table} {alias} ON {alias}.mailboxYid = d.mailboxYid AND {alias}.key = d.key"
            )
        } else {
            String::new()
        }
    };
    let val = |table: &str, alias: &str, path: &str| {
        if has(table) {
            json_at(&format!("{alias}.value"), path)
        } else {
            "NULL".into()
        }
    };
    let subject = if has("MessagesSubjectSnippet") {
        format!(
            "(SELECT {} FROM json_each(CASE WHEN json_valid(s.value) THEN s.value END) e LIMIT 1)",
            json_at("e.value", "$.subject")
        )
    } else {
        "NULL".into()
    };
    let snippet = if has("MessagesSubjectSnippet") {
        format!(
            "(SELECT {} FROM json_each(CASE WHEN json_valid(s.value) THEN s.value END) e LIMIT 1)",
            json_at("e.value", "$.snippet")
        )
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT d.rowid AS rid, d.mailboxYid AS mailbox, d.key AS message_id, {} AS date, {} AS synced, {} AS from_list, {} AS to_list, {} AS cc_list, {} AS bcc_list, {} AS reply_to_list, {} AS is_read, {} AS flagged, {} AS folder_id, {subject} AS subject, {snippet} AS snippet, {} AS body, {} AS conversation FROM MessagesData d{}{}{}{}{}{} ORDER BY d.rowid",
        json_at("d.value", "$.date"),
        json_at("d.value", "$.serverSyncTimestamp"),
        val("MessagesRecipients", "r", "$.fromList"),
        val("MessagesRecipients", "r", "$.toList"),
        val("MessagesRecipients", "r", "$.ccList"),
        val("MessagesRecipients", "r", "$.bccList"),
        val("MessagesRecipients", "r", "$.replyToList"),
        val("MessagesFlags", "f", "$.isRead"),
        val("MessagesFlags", "f", "$.isFlagged"),
        val("MessagesFolderId", "fo", "$"),
        val("MessagesBody", "b", "$.htmlBody"),
        val("MessagesRefV2", "rf", "$.conversationId"),
        join("MessagesRecipients", "r"),
        join("MessagesFlags", "f"),
        join("MessagesFolderId", "fo"),
        join("MessagesSubjectSnippet", "s"),
        join("MessagesBody", "b"),
        join("MessagesRefV2", "rf"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Yahoo Mail messages")?;
    for (inv, t, row) in pages.rows() {
        let from = email_addresses(t.get(row, "from_list").unwrap_or_default());
        let sent = from.iter().any(|(_, e)| own.contains(e));
        let subject = raw(t, row, "subject").unwrap_or_else(|| "(no subject)".into());
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Yahoo Mail e-mail sent: {subject}")
            } else {
                format!(
                    "Yahoo Mail e-mail from {}: {subject}",
                    from.first()
                        .map(|(w, _)| w.as_str())
                        .unwrap_or("an unknown sender")
                )
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("from_list", FactType::Text, "from"),
                ("to_list", FactType::Text, "to"),
                ("cc_list", FactType::Text, "cc"),
                ("bcc_list", FactType::Text, "bcc"),
                ("reply_to_list", FactType::Text, "reply to"),
                ("subject", FactType::Text, "subject"),
                ("snippet", FactType::Text, "snippet"),
                ("is_read", FactType::Text, "read"),
                ("flagged", FactType::Text, "flagged"),
                ("folder_id", FactType::Identifier, "folder"),
                ("conversation", FactType::Identifier, "conversation"),
                ("message_id", FactType::Identifier, "message id"),
                ("mailbox", FactType::Account, "account"),
            ],
        );
        d.fact(FactType::Text, raw(t, row, "body").as_deref(), inv);
        let date = t.get(row, "date");
        d.message_time(date, unix_millis(date), sent, inv);
        let synced = t.get(row, "synced");
        d.time(
            synced,
            unix_millis(synced),
            "E-mail synced from the server",
            inv,
        );
        d.interpretation = format!(
            "MessagesData {} of {name} with its recipients, flags, folder, subject and body records: an e-mail {} ({}){}; dates are Unix milliseconds. The subject and snippet are the app's, as stored for its first list query.",
            t.get(row, "message_id").unwrap_or("?"),
            if sent {
                "sent by the device's user"
            } else {
                "received"
            },
            said.join("; "),
            if raw(t, row, "body").is_some() {
                "; its HTML body cached"
            } else {
                "; its body not cached"
            },
        );
        record_draft(ctx, d)?;
        crate::identity::observe_mail_lists(
            ctx,
            t,
            row,
            inv,
            &own,
            &[
                ("from_list", "from"),
                ("to_list", "to"),
                ("cc_list", "cc"),
                ("bcc_list", "bcc"),
                ("reply_to_list", "reply-to"),
            ],
            &format!(
                "an e-mail of the device's Yahoo Mail account (message {} of {name})",
                t.get(row, "message_id").unwrap_or("?")
            ),
        )?;
    }
    Ok(())
}
