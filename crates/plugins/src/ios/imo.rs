//! imo.im (`Documents/IMODb2.sqlite` of the imo app's container), with the fields iLEAPP's
//! `imoHD_Chat` and plaso's `ios_imohdchat_message` report:
//!
//! - one phenomenon per `ZIMOCONTACT` (imo's buddy list: user id `ZBUID`, alias, display
//!   name, the phone-book name and number, group, blocked, favourite and muted flags);
//! - one per `ZIMOCHATMSG`: time (`ZTS`, nanoseconds since 1970), direction (`ZISSENT` 1 sent,
//!   0 received), the conversation (`ZBUID`, with its contact's display name and number), the
//!   author's id and alias (`ZA_UID`, `ZALIAS`: empty on sent messages), text, type and state,
//!   and from the archived `ZIMDATA` (read through `sqlite_query`'s `plists`) the item action
//!   (`photo_uploaded`, …) and the first object's id and file name. iLEAPP joins the contact on
//!   `ZA_UID`, so its sent rows have no partner; the conversation's `ZBUID` names it for both
//!   directions.
//!
//! Identities: each non-group contact is `imo:<ZBUID>` (the qualified id, display name, alias,
//! phone); wallet addresses in a message are claims of the side that wrote it.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, file_name, raw, summarise};
use crate::calls::column_or_null;
use crate::drafts::unix_nanos;
use crate::outputs::{in_json_cell, plist_cell};

/// Triage of every `IMODb2.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("IMODb2.sqlite", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZIMOCONTACT", "ZIMOCHATMSG"])? else {
        return Ok(());
    };
    if !schema.require(run, "ZIMOCHATMSG", &["Z_PK", "ZTS", "ZISSENT", "ZTEXT"])? {
        return Ok(());
    }
    let contact = schema.columns("ZIMOCONTACT");
    let has_contacts = contact.contains("Z_PK") && contact.contains("ZBUID");
    if has_contacts {
        contacts(run, find, path, &contact)?;
    }
    messages(
        run,
        find,
        path,
        &schema.columns("ZIMOCHATMSG"),
        has_contacts,
    )
}

fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str, alias: &str| column_or_null(cols, "", col, alias);
    let sql = format!(
        "SELECT Z_PK AS pk, ZBUID AS buid, 'imo:' || ZBUID AS qualified, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM ZIMOCONTACT",
        c("ZALIAS", "alias"),
        c("ZDISPLAY", "display"),
        c("ZPH_NAME", "ph_name"),
        c("ZPHONE", "phone"),
        c("ZDIGIT_PHONE", "digits"),
        c("ZIS_GROUP", "is_group"),
        c("ZBLOCK_STATE", "blocked"),
        c("ZFAV_STATE", "favourite"),
        c("ZMUTED_STATE", "muted"),
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let buid = raw(t, row, "buid");
        let alias = raw(t, row, "alias");
        let display = raw(t, row, "display");
        let ph_name = raw(t, row, "ph_name");
        let phone = raw(t, row, "phone");
        let group = t.get(row, "is_group").is_some_and(|g| g != "0");
        let label = display
            .clone()
            .or(alias.clone())
            .or(buid.clone())
            .unwrap_or_else(|| pk.clone());
        let mut d = Draft::new(
            "contacts",
            format!("imo {} {label}", if group { "group" } else { "contact" }),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, buid.as_deref(), inv);
        d.fact(FactType::Name, alias.as_deref(), inv);
        d.fact(FactType::Name, display.as_deref(), inv);
        d.fact(FactType::Name, ph_name.as_deref(), inv);
        d.fact(FactType::Phone, phone.as_deref(), inv);
        d.fact(FactType::Phone, raw(t, row, "digits").as_deref(), inv);
        let flags: Vec<String> = ["blocked", "favourite", "muted"]
            .iter()
            .map(|f| format!("{f} {}", t.get(row, f).unwrap_or("?")))
            .collect();
        d.interpretation = format!(
            "ZIMOCONTACT Z_PK {pk} of {path}: an imo {} with user id {}, alias {}, display name {}, phone-book name {}, phone {}; {}.",
            if group { "group" } else { "contact" },
            buid.as_deref().unwrap_or("(none)"),
            alias.as_deref().unwrap_or("(none)"),
            display.as_deref().unwrap_or("(none)"),
            ph_name.as_deref().unwrap_or("(none)"),
            phone.as_deref().unwrap_or("(none)"),
            flags.join(", "),
        );
        run.record(d)?;
        let (Some(b), false) = (buid.as_deref(), group) else {
            continue;
        };
        let context = format!("imo:{b}");
        let why = |what: &str| format!("{what} of the imo contact {label} ({}).", file_name(path));
        run.observe_person(
            &context,
            &label,
            inv,
            &why,
            &[
                (
                    IdType::AccountId,
                    raw(t, row, "qualified").as_deref(),
                    "The imo user id",
                ),
                (IdType::DisplayName, display.as_deref(), "The display name"),
                (IdType::Nickname, alias.as_deref(), "The alias"),
            ],
        )?;
        if let Some(p) = &phone {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                IdType::Phone,
                p,
                inv,
                why("The phone number"),
            )?;
        }
    }
    Ok(())
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    cols: &std::collections::BTreeSet<String>,
    has_contacts: bool,
) -> Result<(), RuntimeError> {
    let c = |col: &str, alias: &str| column_or_null(cols, "m.", col, alias);
    let (join, partner, number) = if has_contacts && cols.contains("ZBUID") {
        (
            " LEFT JOIN ZIMOCONTACT k ON k.Z_PK = (SELECT min(Z_PK) FROM ZIMOCONTACT WHERE ZBUID = m.ZBUID)",
            "k.ZDISPLAY",
            "k.ZPHONE",
        )
    } else {
        ("", "NULL", "NULL")
    };
    let sql = format!(
        "SELECT m.Z_PK AS pk, m.ZTS AS ts, m.ZISSENT AS sent, m.ZTEXT AS text, {}, {}, {}, {}, {}, {}, \
{partner} AS partner, {number} AS partner_phone FROM ZIMOCHATMSG m{join}",
        c("ZBUID", "conversation"),
        c("ZA_UID", "author"),
        c("ZALIAS", "author_alias"),
        c("ZTYPE", "type"),
        c("ZSTATE", "state"),
        c("ZIMDATA", "imdata"),
    );
    let Some(paged) = run.paged_with(path, &sql, "m.Z_PK", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let sent = t.get(row, "sent") == Some("1");
        let conversation = raw(t, row, "conversation");
        let partner = raw(t, row, "partner");
        let who = partner
            .clone()
            .or(conversation.clone())
            .unwrap_or_else(|| "an unknown conversation".into());
        let mut d = Draft::new(
            "messages",
            format!(
                "imo message {pk} {} {who}",
                if sent { "sent to" } else { "received from" }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, conversation.as_deref(), inv);
        d.fact(FactType::Name, partner.as_deref(), inv);
        d.fact(
            FactType::Phone,
            raw(t, row, "partner_phone").as_deref(),
            inv,
        );
        let author = raw(t, row, "author");
        let author_alias = raw(t, row, "author_alias");
        d.fact(FactType::Account, author.as_deref(), inv);
        d.fact(FactType::Name, author_alias.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "type").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "state").as_deref(), inv);
        // an archived dictionary comes under its `$top` key (`root`)
        let data = t
            .get(row, "imdata")
            .and_then(plist_cell)
            .map(|v| v.get("root").cloned().unwrap_or(v));
        let action = data
            .as_ref()
            .and_then(|v| v.get("type"))
            .and_then(Value::as_str);
        let object = data
            .as_ref()
            .and_then(|v| v.get("objects"))
            .and_then(Value::as_array)
            .and_then(|o| o.first());
        let object_id = object
            .and_then(|o| o.get("object_id"))
            .and_then(Value::as_str);
        let file = object
            .and_then(|o| o.get("filename"))
            .and_then(Value::as_str);
        for v in [action, object_id, file].into_iter().flatten() {
            d.fact(FactType::Identifier, Some(&in_json_cell(v)), inv);
        }
        let ts = raw(t, row, "ts");
        d.time(
            ts.as_deref(),
            unix_nanos(ts.as_deref()),
            if sent {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        d.interpretation = format!(
            "ZIMOCHATMSG Z_PK {pk} of {path}: an imo message {} (ZISSENT {}) in the conversation {} ({}){}, type {}, state {}{}; ZTS is nanoseconds since 1970.",
            if sent {
                "the user sent"
            } else {
                "the user received"
            },
            t.get(row, "sent").unwrap_or("?"),
            conversation.as_deref().unwrap_or("(none)"),
            partner.as_deref().unwrap_or("no contact"),
            author_alias
                .as_deref()
                .map(|a| format!(", written by {a}"))
                .unwrap_or_default(),
            t.get(row, "type").unwrap_or("?"),
            t.get(row, "state").unwrap_or("?"),
            match (action, object_id) {
                (Some(a), Some(o)) => format!(
                    "; item action {a}, object {o}{}",
                    file.map(|f| format!(" ({f})")).unwrap_or_default()
                ),
                (Some(a), None) => format!("; item action {a}"),
                _ => String::new(),
            },
        );
        run.record(d)?;
        if let Some(text) = t.get(row, "text") {
            let other = conversation
                .as_ref()
                .map(|c| (format!("imo:{c}"), format!("the imo contact {who}")));
            run.message_claims(
                inv,
                text,
                &format!("imo message {pk} ({})", file_name(path)),
                sent,
                other,
                "ZISSENT 1",
                "ZISSENT 0",
            )?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "messages",
            path,
            find,
            "imo messages",
            "SELECT count(*) AS total, min(NULLIF(ZTS, 0)) AS first_time, max(ZTS) AS last_time FROM ZIMOCHATMSG",
            unix_nanos,
            "First message",
            "Last message",
        )?;
    }
    Ok(())
}
