//! K-9 Mail and Thunderbird for Android (one code base: `com.fsck.k9`,
//! `net.thunderbird.android`), the fields of ALEAPP's `get_k9mail_accounts`,
//! `get_k9mail_messages`, `thunderbird_accounts` and `thunderbird_messages`:
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `databases/preferences_storage` | one `accounts` per account (the UUIDs of the `<uuid>.email.0` keys) | e-mail address, shown name, description, last sync (Unix ms), incoming server (type, host, port, user name, authentication type) and outgoing server (the same), read from the settings JSON with `json_extract` in the query; whether a password is stored is said, the password is not copied |
//! | `databases/<account uuid>.db` | one `messages` per message (`messages` with `empty` not 1) | sent and stored (`date`, `internal_date`: Unix ms), sender, to, cc, bcc and reply-to lists as stored, subject, preview, attachment count, read, flagged, answered, forwarded, deleted, the folder's name, the message's `Message-ID`, the full text (Thunderbird's `messages_fulltext` content) or the first body part (`message_parts` seq 1; a base64 part decoded by `sqlite_query`'s `base64` after its line breaks are dropped in the query), the root part's header as stored |
//!
//! Identities: each account's address and shown name are the device's user's (`owner`); every
//! other address in a message's sender and recipient lists is a person `handle:<address>`
//! (its e-mail). A message whose sender list holds the account's address is sent by the device's
//! user; wallet addresses in its text are claims by direction. Schema drift: the tables are read
//! when they have their key columns, the others where present.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, stored_flag, unix_millis};
use crate::identity::{artefact_name, pages_on, pages_on_with, schema_on};
use crate::outputs::raw;

const APPS: [(&str, &str); 2] = [
    ("com.fsck.k9", "K-9 Mail"),
    ("net.thunderbird.android", "Thunderbird"),
];

/// The app whose databases folder holds `l`.
fn app_of(l: &Located) -> Option<&'static str> {
    APPS.iter()
        .find(|(p, _)| l.path.contains(&format!("/{p}/databases/")))
        .map(|(_, name)| *name)
}

/// Whether `l` is the app's preferences store.
pub fn is_prefs(l: &Located) -> bool {
    l.name() == "preferences_storage" && app_of(l).is_some()
}

/// Whether `l` is an account's message store (`<account uuid>.db`).
pub fn is_store(l: &Located) -> bool {
    let name = l.name();
    app_of(l).is_some()
        && name.strip_suffix(".db").is_some_and(|stem| {
            stem.len() == 36 && stem.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
        })
}

/// The accounts read from the preferences: account UUID → e-mail address.
pub type Accounts = BTreeMap<String, String>;

/// The preferences store: one `accounts` phenomenon per account; the addresses are returned
/// for the message stores.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located, accounts: &mut Accounts) -> Result<(), RuntimeError> {
    let app = app_of(l).unwrap_or("K-9 Mail");
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("{app}'s preferences_storage");
    let Some(cols) = schema.get("preferences_storage").filter(|c| !c.is_empty()) else {
        ctx.unparsed(
            &name,
            &format!("could not parse {store} because it has no preferences_storage table"),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(
        ctx,
        &name,
        &store,
        "preferences_storage",
        cols,
        &["primkey", "value"],
    )? {
        return Ok(());
    }
    let key = |k: &str| format!("max(CASE WHEN primkey = uuid || '.{k}' THEN value END)");
    let server = |k: &str, alias: &str| {
        let set = key(&format!("{k}ServerSettings"));
        format!(
            "CASE WHEN json_valid({set}) THEN json_extract({set}, '$.type') END AS {alias}_type, \
CASE WHEN json_valid({set}) THEN json_extract({set}, '$.host') END AS {alias}_host, \
CASE WHEN json_valid({set}) THEN json_extract({set}, '$.port') END AS {alias}_port, \
CASE WHEN json_valid({set}) THEN json_extract({set}, '$.username') END AS {alias}_user, \
CASE WHEN json_valid({set}) THEN json_extract({set}, '$.authenticationType') END AS {alias}_auth, \
CASE WHEN json_valid({set}) THEN json_extract({set}, '$.password') IS NOT NULL AND json_extract({set}, '$.password') != '' END AS {alias}_password"
        )
    };
    let sql = format!(
        "SELECT * FROM (SELECT uuid, {} AS email, {} AS shown_name, {} AS description, {} AS last_sync, {}, {} FROM (SELECT substr(primkey, 1, 36) AS uuid, primkey, value FROM preferences_storage) \
WHERE uuid IN (SELECT substr(primkey, 1, 36) FROM preferences_storage WHERE primkey LIKE '%.email.0' AND length(primkey) = 44) GROUP BY uuid ORDER BY uuid)",
        key("email.0"),
        key("name.0"),
        key("description"),
        key("lastSyncTime"),
        server("incoming", "in"),
        server("outgoing", "out"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let Some(uuid) = t.get(row, "uuid") else {
            continue;
        };
        let email = t.get(row, "email").unwrap_or("(no address)").to_string();
        accounts.insert(uuid.to_string(), email.clone());
        let mut d = Draft::new("accounts", format!("{app} account {email}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "uuid").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "shown_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "description").as_deref(), inv);
        for side in ["in", "out"] {
            for k in ["type", "host", "port", "auth"] {
                d.fact(
                    FactType::Text,
                    raw(t, row, &format!("{side}_{k}")).as_deref(),
                    inv,
                );
            }
            d.fact(
                FactType::Account,
                raw(t, row, &format!("{side}_user")).as_deref(),
                inv,
            );
        }
        let sync = t.get(row, "last_sync");
        d.time(sync, unix_millis(sync), "Mail account last synced", inv);
        let server = |side: &str| {
            let v = |k: &str| t.get(row, &format!("{side}_{k}"));
            match (v("type"), v("host"), v("port")) {
                (None, None, None) => "not stored".to_string(),
                (ty, host, port) => format!(
                    "{} {}:{}{}",
                    ty.unwrap_or("(type not stored)"),
                    host.unwrap_or("?"),
                    port.unwrap_or("?"),
                    v("user").map(|u| format!(" as {u}")).unwrap_or_default()
                ),
            }
        };
        d.interpretation = format!(
            "The {app} account {uuid} of {} ({email}{}): incoming server {}, outgoing server {}; {}. The last sync time is Unix milliseconds.",
            l.name(),
            t.get(row, "shown_name")
                .map(|n| format!(", shown as {n}"))
                .unwrap_or_default(),
            server("in"),
            server("out"),
            match (t.get(row, "in_password"), t.get(row, "out_password")) {
                (Some("1"), _) | (_, Some("1")) =>
                    "a server password is stored in the settings (not copied here)",
                _ => "no server password is stored",
            },
        );
        record_draft(ctx, d)?;
        crate::identity::observe_owner_ids(
            ctx,
            inv,
            vec![
                (raw(t, row, "email"), IdType::Email, "address"),
                (raw(t, row, "shown_name"), IdType::DisplayName, "shown name"),
            ],
            &|what| {
                format!(
                    "The {what} of the {app} mail account set up on the device ({}), the device's user's.",
                    l.name()
                )
            },
        )?;
    }
    Ok(())
}

/// One account's message store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located, accounts: &Accounts) -> Result<(), RuntimeError> {
    let app = app_of(l).unwrap_or("K-9 Mail");
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("{app}'s account store");
    let Some(cols) = schema.get("messages").filter(|c| !c.is_empty()) else {
        ctx.unparsed(
            &name,
            &format!("could not parse {store} because it has no messages table"),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(
        ctx,
        &name,
        &store,
        "messages",
        cols,
        &["id", "date", "sender_list"],
    )? {
        return Ok(());
    }
    let uuid = l.name().trim_end_matches(".db").to_string();
    let account = accounts.get(&uuid).cloned();
    let has = |t: &str, c: &str| schema.get(t).is_some_and(|cs| cs.contains(c));
    let parts = has("message_parts", "root")
        && has("message_parts", "seq")
        && has("message_parts", "data")
        && cols.contains("message_part_id");
    let encoded = parts && has("message_parts", "encoding");
    // base64 body parts, decoded by the tool once their line breaks are dropped
    let mut decoded: BTreeMap<String, (masf_tools::Invoked, String)> = BTreeMap::new();
    if encoded {
        let sql = "SELECT * FROM (SELECT m.id AS mid, replace(replace(CAST(p.data AS TEXT), char(13), ''), char(10), '') AS body FROM messages m JOIN message_parts p ON p.root = m.message_part_id AND p.seq = 1 WHERE p.encoding = 'base64' AND p.data IS NOT NULL ORDER BY m.id)";
        if let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, sql, &["base64"])? {
            for (inv, t, row) in pages.rows() {
                if let (Some(id), Some(body)) = (t.get(row, "mid"), raw(t, row, "body"))
                    && body.starts_with("b64:")
                {
                    decoded.insert(id.to_string(), (inv.clone(), body));
                }
            }
        }
    }
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let folder = if has("folders", "id") && has("folders", "name") && cols.contains("folder_id") {
        "(SELECT f.name FROM folders f WHERE f.id = m.folder_id)"
    } else {
        "NULL"
    };
    let fulltext = if has("messages_fulltext_content", "docid")
        && has("messages_fulltext_content", "c0fulltext")
    {
        "(SELECT x.c0fulltext FROM messages_fulltext_content x WHERE x.docid = m.id)"
    } else {
        "NULL"
    };
    let body = if parts {
        format!(
            "(SELECT CAST(p.data AS TEXT) FROM message_parts p WHERE p.root = m.message_part_id AND p.seq = 1{})",
            if encoded {
                " AND (p.encoding IS NULL OR p.encoding != 'base64')"
            } else {
                ""
            }
        )
    } else {
        "NULL".into()
    };
    let header = if parts && has("message_parts", "header") && has("message_parts", "id") {
        "(SELECT CAST(p.header AS TEXT) FROM message_parts p WHERE p.id = m.message_part_id)"
    } else {
        "NULL"
    };
    let live = if cols.contains("empty") {
        "WHERE m.empty IS NOT 1 "
    } else {
        ""
    };
    let sql = format!(
        "SELECT m.id AS mid, m.date AS date, m.sender_list AS sender_list, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {folder} AS folder, {fulltext} AS fulltext, {body} AS body, {header} AS header FROM messages m {live}ORDER BY m.id",
        c("internal_date"),
        c("to_list"),
        c("cc_list"),
        c("bcc_list"),
        c("reply_to_list"),
        c("subject"),
        c("preview"),
        c("attachment_count"),
        c("read"),
        c("flagged"),
        c("answered"),
        c("forwarded"),
        c("deleted"),
        c("message_id"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, &format!("{app} messages"))?;
    let own: BTreeSet<String> = accounts.values().map(|a| a.to_lowercase()).collect();
    for (inv, t, row) in pages.rows() {
        let mid = t.get(row, "mid").unwrap_or("?");
        let sender = t.get(row, "sender_list").unwrap_or_default();
        let from = crate::identity::email_addresses(sender);
        let sent = account
            .as_ref()
            .is_some_and(|a| from.iter().any(|(_, e)| e.eq_ignore_ascii_case(a)));
        let subject = t.get(row, "subject").unwrap_or("(no subject)");
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("{app} e-mail sent: {subject}")
            } else {
                format!(
                    "{app} e-mail from {}: {subject}",
                    from.first()
                        .map(|(v, _)| v.as_str())
                        .unwrap_or("an unknown sender")
                )
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in [
            "sender_list",
            "to_list",
            "cc_list",
            "bcc_list",
            "reply_to_list",
        ] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        for col in [
            "subject",
            "preview",
            "folder",
            "message_id",
            "fulltext",
            "body",
            "header",
        ] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        let b64 = decoded.get(mid);
        if let Some((binv, body)) = b64 {
            d.fact(FactType::Text, Some(body), binv);
        }
        d.fact(
            FactType::Count,
            raw(t, row, "attachment_count").as_deref(),
            inv,
        );
        let flags: Vec<&str> = ["read", "flagged", "answered", "forwarded", "deleted"]
            .into_iter()
            .filter(|f| stored_flag(t.get(row, f)) == Some(true))
            .collect();
        for f in ["read", "flagged", "answered", "forwarded", "deleted"] {
            d.fact(FactType::Count, raw(t, row, f).as_deref(), inv);
        }
        let date = t.get(row, "date");
        d.message_time(date, unix_millis(date), sent, inv);
        let stored = t.get(row, "internal_date");
        d.time(
            stored,
            unix_millis(stored),
            "E-mail stored on the device",
            inv,
        );
        d.interpretation = format!(
            "messages row {mid} of {} ({app}, account {}): an e-mail {} in folder {}, subject \"{subject}\"{}; dates are Unix milliseconds (date as the message is dated, internal_date as stored).",
            l.name(),
            account.as_deref().unwrap_or("not named by the preferences"),
            if sent {
                "sent by the device's user"
            } else {
                "received"
            },
            t.get(row, "folder").unwrap_or("not stored"),
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
            &own,
            &[
                ("sender_list", "sender"),
                ("to_list", "to"),
                ("cc_list", "cc"),
                ("bcc_list", "bcc"),
                ("reply_to_list", "reply-to"),
            ],
            &format!(
                "an e-mail of the device's {app} account (messages row {mid} of {})",
                l.name()
            ),
        )?;
        // the text: the full text, the first body part (decoded from base64 by the tool), or
        // the preview, each cited from the output holding it
        let decoded_text = b64.map(|(binv, body)| {
            (
                binv,
                crate::outputs::unescape(body.trim_start_matches("b64:")),
            )
        });
        let text = t
            .get(row, "fulltext")
            .or(t.get(row, "body"))
            .map(|v| (inv, v.to_string()))
            .or(decoded_text)
            .or(t.get(row, "preview").map(|v| (inv, v.to_string())));
        if let Some((cite, text)) = text {
            crate::identity::mail_claims(
                ctx,
                cite,
                &text,
                &format!("{app} e-mail, messages row {mid} ({})", l.name()),
                sent,
                sender,
                t.get(row, "to_list").unwrap_or_default(),
            )?;
        }
    }
    Ok(())
}
