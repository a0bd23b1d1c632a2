//! Gmail (`com.google.android.gm`): the account it has active and the accounts of other mail
//! providers added to it, with their mail.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `shared_prefs/Gmail.xml` (read by `read_xml`) | one `accounts`: the account the app has active ("Gmail active account <address>"; ALEAPP's `GmailActive`) | `active-account`, the file's path |
//! | `databases/EmailProvider.db`: `Account` (with `HostAuth`) | one `accounts` per account of another provider — IMAP, POP3, Exchange — added to the app ("Gmail <protocol> account <address>"; ALEAPP's `gmailIMAPAccounts`) | account id, address, shown name, sender name, protocol version; the incoming (`hostAuthKeyRecv`) and outgoing (`hostAuthKeySend`) server: protocol, host, port, login, flags as stored; whether a password is stored is said, the password is not copied |
//! | `databases/EmailProvider.db`: `Message` (with `Account`, `Mailbox`, `Attachment`) | one `messages` per message ("Gmail e-mail from <sender>: <subject>", "… sent: <subject>", "… draft: <subject>"; ALEAPP's `gmailIMAPEmails`) | sender, to, cc, bcc and reply-to lists as stored, shown name, the account's address, subject, snippet, folder name and type, attachments (name, MIME type, size), read, starred, attachment and loaded flags, `Message-ID`, server id; when (`timeStamp`, Unix ms) |
//!
//! Identities: a Gmail account on the phone is a Google account of its user — the active one
//! observed on `owner` (a Google account where the normaliser takes it, an e-mail address
//! otherwise); each other provider's account added to the app is the user's too (its address as an
//! e-mail address, its sender name as a display name). Every other address in a message's lists is a
//! person `handle:<address>`; a message in the outbox or sent folder (`Mailbox.type` 4, 5), or
//! whose sender is one of the accounts, is sent by the device's user, one in the drafts (type 3)
//! is their draft; wallet addresses in its snippet are claims by direction.
//! A `Gmail.xml` without the key says nothing (the app may have no account yet) and is passed
//! over; an unreadable file is noted by the read. An `EmailProvider.db` with neither `Account`
//! nor `Message` is noted, so is a table without its key columns; the other columns are taken by
//! name (absent ones NULL). Not read: `HostAuth.password` (said stored, never selected), the
//! `Credential` table (OAuth tokens), the message bodies Gmail keeps in files beside the store
//! (`files/body/…`, `EmailProviderBody.db`) and attachments' content; the Google accounts' own
//! mail is in `bigTopDataDB.<n>` (compressed protocol buffers, not read here).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::prefs::{pref, prefs_xml};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, stored_flag, unix_millis};
use crate::identity::{artefact_name, pages_on, schema_on};
use crate::outputs::raw;

/// The preferences file.
pub const FILE: &str = "Gmail.xml";

/// Whether `l` is Gmail's own preferences file.
pub fn is_prefs(l: &Located) -> bool {
    l.path
        .ends_with(&format!("/com.google.android.gm/shared_prefs/{FILE}"))
}

/// One `Gmail.xml`.
pub fn active(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "Gmail", None)? else {
        return Ok(());
    };
    let Some(account) = pref(&prefs, "active-account") else {
        return Ok(());
    };
    let mut d = Draft::new("accounts", format!("Gmail active account {account}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Email, Some(&account), &inv);
    d.interpretation = format!(
        "{}: the Gmail app's active account (active-account) is {account}, the account it shows when opened; a Google account of the phone's user.",
        l.path
    );
    record_draft(ctx, d)?;
    let google = crate::identity::normalized(ctx, IdType::GoogleAccount, &account).is_some();
    crate::identity::observe_owner_ids(
        ctx,
        &inv,
        vec![(
            Some(account.clone()),
            if google {
                IdType::GoogleAccount
            } else {
                IdType::Email
            },
            "Gmail account",
        )],
        &|w| format!("The {w} active in the Gmail app (Gmail.xml active-account)."),
    )
}

/// The store of the other providers' accounts Gmail holds (IMAP, POP3, Exchange).
pub const MAIL_STORE: &str = "EmailProvider.db";

/// Whether `l` is Gmail's store of its other providers' accounts and mail.
pub fn is_mail_store(l: &Located) -> bool {
    l.name() == MAIL_STORE && l.path.contains("/com.google.android.gm/databases/")
}

/// The server columns read from `HostAuth` for each side of an account, as `(column, alias
/// suffix)`; never `password` (whether one is stored is said), nor the certificate or the
/// credential key.
const HOST: &[(&str, &str)] = &[
    ("protocol", "protocol"),
    ("address", "address"),
    ("port", "port"),
    ("login", "login"),
    ("flags", "flags"),
];

/// The columns of `Message` read besides `_id`, `timeStamp` and `fromList`, absent ones NULL.
const MESSAGE: &[&str] = &[
    "accountKey",
    "mailboxKey",
    "displayName",
    "subject",
    "snippet",
    "toList",
    "ccList",
    "bccList",
    "replyToList",
    "flagRead",
    "flagFavorite",
    "flagAttachment",
    "flagLoaded",
    "messageId",
    "syncServerId",
];

/// The folder types of the Email provider Gmail's store keeps (`Mailbox.type`) named in an
/// interpretation; others are given as stored.
fn folder_kind(t: Option<&str>) -> Option<&'static str> {
    Some(match t? {
        "0" => "the inbox",
        "1" => "a folder of the user's",
        "3" => "the drafts",
        "4" => "the outbox",
        "5" => "the sent folder",
        "6" => "the trash",
        "7" => "the junk folder",
        _ => return None,
    })
}

/// One `EmailProvider.db`: one `accounts` phenomenon per `Account` row (with its incoming and
/// outgoing servers of `HostAuth`), one `messages` per `Message` row.
pub fn mail(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key("Account") && !schema.contains_key("Message") {
        ctx.unparsed(
            &name,
            "not Gmail's EmailProvider.db: none of the tables Account, Message",
            None,
        )?;
        return Ok(());
    }
    let own = mail_accounts(ctx, l, &schema, &name)?;
    mail_messages(ctx, l, &schema, &name, &own)
}

/// The accounts: account id → address (lower-cased), for the messages.
fn mail_accounts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &super::Schema,
    name: &str,
) -> Result<BTreeMap<String, String>, RuntimeError> {
    let mut own = BTreeMap::new();
    let Some(cols) = schema.get("Account") else {
        return Ok(own);
    };
    if !require_columns(
        ctx,
        name,
        "Gmail's EmailProvider.db",
        "Account",
        cols,
        &["_id", "emailAddress"],
    )? {
        return Ok(own);
    }
    let hosts = schema.get("HostAuth").filter(|h| h.contains("_id"));
    let side = |key: &str, pre: &str| -> Vec<String> {
        let linked = hosts.filter(|_| cols.contains(key));
        let mut v: Vec<String> = HOST
            .iter()
            .map(|(c, a)| match linked {
                Some(h) if h.contains(*c) => {
                    format!("(SELECT h.{c} FROM HostAuth h WHERE h._id = a.{key}) AS {pre}_{a}")
                }
                _ => format!("NULL AS {pre}_{a}"),
            })
            .collect();
        v.push(match linked {
            Some(h) if h.contains("password") => format!(
                "(SELECT h.password IS NOT NULL AND h.password != '' FROM HostAuth h WHERE h._id = a.{key}) AS {pre}_password"
            ),
            _ => format!("NULL AS {pre}_password"),
        });
        v
    };
    let sql = format!(
        "SELECT a._id AS aid, a.emailAddress AS email, {}, {}, {}, {}, {} FROM Account a ORDER BY a._id",
        column_or_null(cols, "a.", "displayName", "shown_name"),
        column_or_null(cols, "a.", "senderName", "sender_name"),
        column_or_null(cols, "a.", "protocolVersion", "protocol_version"),
        side("hostAuthKeyRecv", "in").join(", "),
        side("hostAuthKeySend", "out").join(", "),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(own);
    };
    note_pages_cap(ctx, name, &pages, "Gmail's other-provider accounts")?;
    for (inv, t, row) in pages.rows() {
        let aid = t.get(row, "aid").unwrap_or("?");
        let email = t.get(row, "email").unwrap_or("(no address)");
        if let Some(e) = t.get(row, "email") {
            own.insert(aid.to_string(), e.to_lowercase());
        }
        let protocol = t.get(row, "in_protocol").unwrap_or("mail");
        let mut d = Draft::new("accounts", format!("Gmail {protocol} account {email}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "aid").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "shown_name").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
        d.fact(
            FactType::Text,
            raw(t, row, "protocol_version").as_deref(),
            inv,
        );
        for pre in ["in", "out"] {
            for (_, a) in HOST {
                let ty = if *a == "login" {
                    FactType::Account
                } else {
                    FactType::Text
                };
                d.fact(ty, raw(t, row, &format!("{pre}_{a}")).as_deref(), inv);
            }
        }
        let server = |pre: &str| {
            let v = |k: &str| t.get(row, &format!("{pre}_{k}"));
            match (v("protocol"), v("address"), v("port")) {
                (None, None, None) => "not stored".to_string(),
                (p, host, port) => format!(
                    "{} {}:{}{}",
                    p.unwrap_or("(protocol not stored)"),
                    host.unwrap_or("?"),
                    port.unwrap_or("?"),
                    v("login").map(|u| format!(" as {u}")).unwrap_or_default()
                ),
            }
        };
        d.interpretation = format!(
            "Account row {aid} of {}: a mail account of another provider ({email}{}) added to the Gmail app; incoming server {}, outgoing server {}; {}.",
            l.name(),
            t.get(row, "sender_name")
                .map(|n| format!(", sending as {n}"))
                .unwrap_or_default(),
            server("in"),
            server("out"),
            match (t.get(row, "in_password"), t.get(row, "out_password")) {
                (Some("1"), _) | (_, Some("1")) => "a server password is stored (not copied here)",
                _ => "no server password is stored (the app may sign in with a token)",
            },
        );
        record_draft(ctx, d)?;
        crate::identity::observe_owner_ids(
            ctx,
            inv,
            vec![
                (raw(t, row, "email"), IdType::Email, "address"),
                (
                    raw(t, row, "sender_name"),
                    IdType::DisplayName,
                    "sender name",
                ),
            ],
            &|what| {
                format!(
                    "The {what} of a mail account added to the Gmail app on the device (Account row {aid} of {}), the device's user's.",
                    l.name()
                )
            },
        )?;
    }
    Ok(own)
}

/// The messages, each with its account's address, its folder and its attachments' names.
fn mail_messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &super::Schema,
    name: &str,
    own: &BTreeMap<String, String>,
) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("Message") else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        name,
        "Gmail's EmailProvider.db",
        "Message",
        cols,
        &["_id", "timeStamp", "fromList"],
    )? {
        return Ok(());
    }
    let has = |t: &str, c: &[&str]| {
        schema
            .get(t)
            .is_some_and(|cs| c.iter().all(|c| cs.contains(*c)))
    };
    let account = if has("Account", &["_id", "emailAddress"]) && cols.contains("accountKey") {
        "(SELECT a.emailAddress FROM Account a WHERE a._id = m.accountKey)"
    } else {
        "NULL"
    };
    let (folder, folder_type) = if cols.contains("mailboxKey") && has("Mailbox", &["_id"]) {
        (
            if has("Mailbox", &["displayName"]) {
                "(SELECT b.displayName FROM Mailbox b WHERE b._id = m.mailboxKey)"
            } else {
                "NULL"
            },
            if has("Mailbox", &["type"]) {
                "(SELECT b.type FROM Mailbox b WHERE b._id = m.mailboxKey)"
            } else {
                "NULL"
            },
        )
    } else {
        ("NULL", "NULL")
    };
    let attachments = if has("Attachment", &["messageKey", "fileName"]) {
        let mime = if has("Attachment", &["mimeType"]) {
            "coalesce(t.mimeType, '?')"
        } else {
            "'?'"
        };
        let size = if has("Attachment", &["size"]) {
            "coalesce(t.size, '?')"
        } else {
            "'?'"
        };
        format!(
            "(SELECT group_concat(coalesce(t.fileName, '(no name)') || ' (' || {mime} || ', ' || {size} || ' bytes)', '; ') FROM Attachment t WHERE t.messageKey = m._id)"
        )
    } else {
        "NULL".to_string()
    };
    let sql = format!(
        "SELECT m._id AS mid, m.timeStamp AS timeStamp, m.fromList AS fromList, {}, {account} AS account, {folder} AS folder, {folder_type} AS folder_type, {attachments} AS attachments FROM Message m ORDER BY m._id",
        MESSAGE
            .iter()
            .map(|c| column_or_null(cols, "m.", c, c))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Gmail's other-provider messages")?;
    let all_own: BTreeSet<String> = own.values().cloned().collect();
    for (inv, t, row) in pages.rows() {
        let mid = t.get(row, "mid").unwrap_or("?");
        let sender = t.get(row, "fromList").unwrap_or_default();
        let from = crate::identity::email_addresses(sender);
        let kind = t.get(row, "folder_type");
        let draft = kind == Some("3");
        let sent = !draft
            && (matches!(kind, Some("4" | "5")) || from.iter().any(|(_, e)| all_own.contains(e)));
        let subject = t.get(row, "subject").unwrap_or("(no subject)");
        let mut d = Draft::new(
            "messages",
            if draft {
                format!("Gmail e-mail draft: {subject}")
            } else if sent {
                format!("Gmail e-mail sent: {subject}")
            } else {
                format!(
                    "Gmail e-mail from {}: {subject}",
                    from.first()
                        .map(|(v, _)| v.as_str())
                        .unwrap_or("an unknown sender")
                )
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["fromList", "toList", "ccList", "bccList", "replyToList"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Name, raw(t, row, "displayName").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "account").as_deref(), inv);
        for col in [
            "subject",
            "snippet",
            "folder",
            "folder_type",
            "attachments",
            "messageId",
            "syncServerId",
        ] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        let flags: Vec<&str> = [
            ("flagRead", "read"),
            ("flagFavorite", "starred"),
            ("flagAttachment", "with attachments"),
        ]
        .into_iter()
        .filter(|(c, _)| stored_flag(t.get(row, c)) == Some(true))
        .map(|(_, w)| w)
        .collect();
        for f in ["flagRead", "flagFavorite", "flagAttachment", "flagLoaded"] {
            d.fact(FactType::Count, raw(t, row, f).as_deref(), inv);
        }
        let date = t.get(row, "timeStamp");
        if draft {
            d.time(date, unix_millis(date), "E-mail draft saved", inv);
        } else {
            d.message_time(date, unix_millis(date), sent, inv);
        }
        d.interpretation = format!(
            "Message row {mid} of {} (Gmail, account {}): an e-mail {} in {}{}, subject \"{subject}\"{}; the time (timeStamp) is Unix milliseconds. Only the snippet is in the store: the full body is kept in files beside it (not read).",
            l.name(),
            t.get(row, "account").unwrap_or("not named"),
            if draft {
                "drafted by the device's user"
            } else if sent {
                "sent by the device's user"
            } else {
                "received"
            },
            t.get(row, "folder")
                .map(|f| format!("folder {f}"))
                .unwrap_or_else(|| "a folder not stored".to_string()),
            match (kind, folder_kind(kind)) {
                (Some(k), Some(w)) => format!(" (type {k}, {w})"),
                (Some(k), None) => format!(" (type {k})"),
                _ => String::new(),
            },
            if flags.is_empty() {
                String::new()
            } else {
                format!("; {}", flags.join(", "))
            },
        );
        record_draft(ctx, d)?;
        crate::identity::observe_mail_lists(
            ctx,
            t,
            row,
            inv,
            &all_own,
            &[
                ("fromList", "sender"),
                ("toList", "to"),
                ("ccList", "cc"),
                ("bccList", "bcc"),
                ("replyToList", "reply-to"),
            ],
            &format!(
                "an e-mail of a mail account added to the Gmail app (Message row {mid} of {})",
                l.name()
            ),
        )?;
        if let Some(text) = t.get(row, "snippet") {
            crate::identity::mail_claims(
                ctx,
                inv,
                text,
                &format!("Gmail e-mail, Message row {mid} ({})", l.name()),
                sent || draft,
                sender,
                t.get(row, "toList").unwrap_or_default(),
            )?;
        }
    }
    Ok(())
}
