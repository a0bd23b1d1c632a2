//! Kleinanzeigen (formerly eBay Kleinanzeigen, `com.ebay.kleinanzeigen`), ALEAPP's
//! `kleinanzeigen.de` (account, message box, messages): Germany's classified-ads marketplace,
//! where buyers and sellers write to each other about an ad.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `shared_prefs/com.ebay.kleinanzeigen_preferences.xml` | one `accounts` ("Kleinanzeigen account <e-mail>") | profile name and initials, the e-mail signed in with and the last used, user id, phone, account type, registered since (ISO), the saved location's latitude and longitude |
//! | `databases/messageBoxDatabase.db`, `conversations` (each message of `messages`) | one `messages` per message ("Kleinanzeigen message to/from <name> about <ad>") | the text, when (ISO), state, direction (`sender` `ME` is the account's), the counterparty's name and id, the ad's title and id, the conversation's last activity (Unix ms) |
//!
//! The conversations' JSON is read by SQLite's JSON functions in the query (`json_valid`
//! guarding each). Identities: the account's e-mail addresses and phone are the device's
//! user's (`owner`); a counterparty is a `kleinanzeigen:<id>` person with their name. A
//! preferences file that holds no map, or a store without `conversations`, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::prefsaccount::{PrefsAccount, prefs_account};
use crate::calls::note_pages_cap;
use crate::drafts::{Draft, date_text, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on};
use crate::outputs::raw;

/// The app's folder.
const APP: &str = "/com.ebay.kleinanzeigen/";

/// Whether `l` is the app's message box.
pub fn is_messages(l: &Located) -> bool {
    l.name() == "messageBoxDatabase.db" && l.path.contains(APP)
}

/// Whether `l` is the app's preferences.
pub fn is_prefs(l: &Located) -> bool {
    l.name() == "com.ebay.kleinanzeigen_preferences.xml" && l.path.contains(APP)
}

/// The account of the preferences (through [`super::prefsaccount`]).
pub fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    prefs_account(
        ctx,
        l,
        &PrefsAccount {
            app: "Kleinanzeigen",
            title: &["AUTH_USER_EMAIL", "LAST_EMAIL_USED", "USERPROFILE_NAME_KEY"],
            facts: &[
                ("USERPROFILE_NAME_KEY", FactType::Name, "profile name"),
                ("USERPROFILE_INITIALS", FactType::Text, "initials"),
                ("AUTH_USER_EMAIL", FactType::Email, "signed in as"),
                ("LAST_EMAIL_USED", FactType::Email, "last e-mail used"),
                ("AUTH_USER_ID", FactType::Account, "user id"),
                ("USERPROFILE_PHONE_NUMBER_KEY", FactType::Phone, "phone"),
                (
                    "USERPROFILE_ACCOUNT_TYPE_KEY",
                    FactType::Text,
                    "account type",
                ),
                (
                    "USERPROFILE_LOCATION_LATITUDE_KEY",
                    FactType::Text,
                    "saved location latitude",
                ),
                (
                    "USERPROFILE_LOCATION_LONGITUDE_KEY",
                    FactType::Text,
                    "longitude",
                ),
            ],
            times: &[(
                "USERPROFILE_USER_SINCE_DATE_KEY",
                date_text,
                "Kleinanzeigen account registered",
            )],
            owner: &[
                (
                    "AUTH_USER_EMAIL",
                    IdType::Email,
                    "The e-mail address signed in with",
                ),
                (
                    "LAST_EMAIL_USED",
                    IdType::Email,
                    "The e-mail address last used",
                ),
                (
                    "USERPROFILE_PHONE_NUMBER_KEY",
                    IdType::Phone,
                    "The phone number",
                ),
                (
                    "USERPROFILE_NAME_KEY",
                    IdType::DisplayName,
                    "The profile name",
                ),
            ],
        },
    )
}

/// `json_extract(<x>, path)`, NULL where `<x>` is not JSON.
fn js(x: &str, path: &str) -> String {
    format!("CASE WHEN json_valid({x}) THEN json_extract({x}, '{path}') END")
}

/// The message box: one phenomenon per message.
pub fn messages(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if super::databases::tables_with(ctx, l, &["conversations"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "conversations")?;
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Kleinanzeigen's messageBoxDatabase.db",
        "conversations",
        &cols,
        &["messages"],
    )? {
        return Ok(());
    }
    let col = |c: &str, path: &str| {
        if cols.contains(c) {
            js(&format!("c.{c}"), path)
        } else {
            "NULL".into()
        }
    };
    let sql = format!(
        "SELECT c.rowid * 100000 + m.key AS rid, {} AS counterparty, {} AS counterparty_id, CASE WHEN {} IS NOT NULL THEN 'kleinanzeigen:' || {} END AS qualified, {} AS ad_title, {} AS ad_id, {} AS last_activity, {} AS sender, {} AS text, {} AS sent_at, {} AS state FROM conversations c, json_each(CASE WHEN json_valid(c.messages) THEN c.messages END) m ORDER BY rid",
        col("counterParty", "$.name"),
        col("counterParty", "$.identifier"),
        col("counterParty", "$.identifier"),
        col("counterParty", "$.identifier"),
        col("ad", "$.displayTitle"),
        col("ad", "$.identifier"),
        if cols.contains("sortByDate") {
            "c.sortByDate"
        } else {
            "NULL"
        },
        js("m.value", "$.sender"),
        js("m.value", "$.text"),
        js("m.value", "$.sortByDate"),
        js("m.value", "$.state"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Kleinanzeigen messages")?;
    for (inv, t, row) in pages.rows() {
        let sent = t.get(row, "sender") == Some("ME");
        let who = raw(t, row, "counterparty").unwrap_or_else(|| "someone".into());
        let ad = raw(t, row, "ad_title").unwrap_or_else(|| "an ad".into());
        let mut d = Draft::new(
            "messages",
            format!(
                "Kleinanzeigen message {} {who} about {ad}",
                if sent { "to" } else { "from" }
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("text", FactType::Text, "text"),
                ("sender", FactType::Text, "sender"),
                ("state", FactType::Text, "state"),
                ("counterparty", FactType::Name, "counterparty"),
                ("counterparty_id", FactType::Account, "counterparty id"),
                ("ad_title", FactType::Text, "ad"),
                ("ad_id", FactType::Identifier, "ad id"),
            ],
        );
        let at = t.get(row, "sent_at");
        d.message_time(at, date_text(at), sent, inv);
        let last = t.get(row, "last_activity");
        d.time(last, unix_millis(last), "Conversation last active", inv);
        d.interpretation = format!(
            "conversations of {name}: a message {} in a Kleinanzeigen conversation about an ad ({}); its time is ISO 8601, the conversation's last activity Unix milliseconds.",
            if sent {
                "the account sent (sender ME)"
            } else {
                "the account received"
            },
            said.join("; "),
        );
        record_draft(ctx, d)?;
        if let Some(id) = t.get(row, "counterparty_id").filter(|v| !v.is_empty()) {
            crate::identity::observe_columns(
                ctx,
                &format!("kleinanzeigen:{id}"),
                &who,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Kleinanzeigen user id"),
                    ("counterparty", IdType::DisplayName, "The name"),
                ],
                &|what| {
                    format!("{what} of the other party of a Kleinanzeigen conversation ({name}).")
                },
            )?;
        }
    }
    Ok(())
}
