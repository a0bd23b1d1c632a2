//! Kijiji on Android (`com.ebay.kijiji.ca`), the fields of ALEAPP's `get_kijijiConversations`
//! and `get_kijijiLocalUserInfo`:
//!
//! - `databases/messageBoxDatabase`: one `messages` phenomenon per message of a `conversations`
//!   row (its `messages` JSON array read with `json_each`, the ad and counterparty JSON with
//!   `json_extract`, in the query): sent time (`sortByDate`, Unix ms), conversation id, the ad's
//!   id and title, message id, the counterparty's id and name, sender (`ME` is the device's
//!   user), state, text;
//! - `shared_prefs/LoginData.xml` (read by `read_xml`): the user's e-mail, display name, the
//!   logged-in flag and eBay user id (`userEbayId<e-mail>`, qualified by `read_xml`'s `qualify`
//!   on a second read that names it) — one `accounts` phenomenon.
//!
//! Identities: a counterparty is `kijiji:<id>` (computed in the query) with its name; the
//! logged-in user's e-mail, name and `kijiji:<eBay user id>` are the device's user's (`owner`);
//! wallet addresses in a message are claims by direction.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_by_magnitude};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is Kijiji's message store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "messageBoxDatabase" && l.path.contains("/com.ebay.kijiji.ca/databases/")
}

/// Whether `l` is Kijiji's login preferences.
pub fn is_login(l: &Located) -> bool {
    l.path
        .ends_with("/com.ebay.kijiji.ca/shared_prefs/LoginData.xml")
}

/// The message store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = "Kijiji's messageBoxDatabase";
    let Some(cols) = schema.get("conversations").filter(|c| !c.is_empty()) else {
        ctx.unparsed(
            &name,
            &format!("could not parse {store} because it has no conversations table"),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(
        ctx,
        &name,
        store,
        "conversations",
        cols,
        &["identifier", "ad", "counterParty", "messages"],
    )? {
        return Ok(());
    }
    let j = |col: &str, path: &str| {
        format!("CASE WHEN json_valid(c.{col}) THEN json_extract(c.{col}, '$.{path}') END")
    };
    let m = |path: &str| format!("json_extract(m.value, '$.{path}')");
    let party = j("counterParty", "identifier");
    let sql = format!(
        "SELECT * FROM (SELECT c.identifier AS conversation, {} AS ad_id, {} AS ad_title, {party} AS party_id, {} AS party_name, \
CASE WHEN {party} IS NOT NULL AND {party} != '' THEN 'kijiji:' || {party} END AS qualified, \
m.key AS n, {} AS message_id, {} AS sent_at, {} AS sender, {} AS state, {} AS text \
FROM conversations c, json_each(CASE WHEN json_valid(c.messages) THEN c.messages ELSE '[]' END) m ORDER BY c.rowid, m.key)",
        j("ad", "identifier"),
        j("ad", "displayTitle"),
        j("counterParty", "name"),
        m("identifier"),
        m("sortByDate"),
        m("sender"),
        m("state"),
        m("text"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Kijiji messages")?;
    for (inv, t, row) in pages.rows() {
        let sent = t.get(row, "sender") == Some("ME");
        let with = t
            .get(row, "party_name")
            .or(t.get(row, "party_id"))
            .unwrap_or("an unknown user")
            .to_string();
        let ad = t.get(row, "ad_title").unwrap_or("an ad not named");
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Kijiji message to {with} about {ad}")
            } else {
                format!("Kijiji message from {with} about {ad}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["conversation", "ad_id", "message_id"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Text, raw(t, row, "ad_title").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "party_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "party_name").as_deref(), inv);
        for col in ["sender", "state", "text"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        let at = t.get(row, "sent_at");
        d.message_time(at, unix_by_magnitude(at), sent, inv);
        d.interpretation = format!(
            "message {} of conversation {} in {}: a Kijiji message {} {with} about the ad \"{ad}\" ({}); state {}; the time is Unix time by its size.",
            t.get(row, "n").unwrap_or("?"),
            t.get(row, "conversation").unwrap_or("?"),
            l.name(),
            if sent {
                "from the device's user (sender ME) to"
            } else {
                "to the device's user from"
            },
            t.get(row, "ad_id").unwrap_or("id not stored"),
            t.get(row, "state").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        let Some(id) = t.get(row, "party_id") else {
            continue;
        };
        let context = format!("kijiji:{id}");
        observe_columns(
            ctx,
            &context,
            &with,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Kijiji user id"),
                ("party_name", IdType::DisplayName, "The name"),
            ],
            &|what| {
                format!(
                    "{what} of {with}, a Kijiji user the device's user wrote with ({}).",
                    l.name()
                )
            },
        )?;
        if let Some(text) = t.get(row, "text") {
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!("Kijiji message ({})", l.name()),
                sent,
                Some((&context, &with)),
            )?;
        }
    }
    Ok(())
}

/// The login preferences.
pub fn login(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((first, prefs)) = super::prefs::prefs_xml(ctx, l, "Kijiji", None)? else {
        return Ok(());
    };
    let get = super::prefs::pref;
    let email = get(&prefs, "UserEmailAddress");
    // the eBay user id's preference is named after the e-mail: read again, qualifying it
    let key = email.as_ref().map(|e| format!("userEbayId{e}"));
    let (inv, prefs) = match &key {
        Some(k) => super::prefs::prefs_xml(
            ctx,
            l,
            "Kijiji",
            Some(serde_json::json!({ k.as_str(): "kijiji" })),
        )?
        .unwrap_or((first, prefs)),
        None => (first, prefs),
    };
    let display = get(&prefs, "UserDisplayName");
    let logged_in = get(&prefs, "LoggedInAsUser");
    let ebay_id = key.as_deref().and_then(|k| get(&prefs, k));
    if email.is_none() && display.is_none() && ebay_id.is_none() {
        return Ok(());
    }
    let mut d = Draft::new(
        "accounts",
        format!(
            "Kijiji account {}",
            email.as_deref().or(display.as_deref()).unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Email, email.as_deref(), &inv);
    d.fact(FactType::Name, display.as_deref(), &inv);
    d.fact(FactType::Account, ebay_id.as_deref(), &inv);
    d.fact(FactType::Text, logged_in.as_deref(), &inv);
    d.interpretation = format!(
        "{}: the Kijiji user of the device: e-mail {}, display name {}, eBay user id {}, logged in as user: {} (as stored).",
        l.name(),
        email.as_deref().unwrap_or("not stored"),
        display.as_deref().unwrap_or("not stored"),
        ebay_id.as_deref().unwrap_or("not stored"),
        logged_in.as_deref().unwrap_or("not stored"),
    );
    record_draft(ctx, d)?;
    let qualified = key.as_ref().and_then(|k| {
        inv.output
            .text
            .lines()
            .find_map(|line| line.strip_prefix(&format!("# qualified {k}: ")))
            .map(str::to_string)
    });
    crate::identity::observe_owner_ids(
        ctx,
        &inv,
        vec![
            (email, IdType::Email, "e-mail"),
            (display, IdType::DisplayName, "display name"),
            (qualified, IdType::AccountId, "user id (its eBay user id)"),
        ],
        &|what| format!("The Kijiji {what} of the device's user ({}).", l.name()),
    )
}
