//! Cash App (`com.squareup.cash/databases/cash_money.db`), the fields of ALEAPP's `cashApp`
//! module: one `transactions` phenomenon per `payment` row — the time (`display_date`, Unix
//! milliseconds), the account's role in it (`role`, as stored), the sender's and recipient's
//! customer ids with their `$cashtag`s and display names (`customer`), the amount (`render_data`
//! JSON `amount.amount`, in cents, divided by 100 in the query so the value grounds; its
//! `currency_code` where the JSON has one), the state and the note. ALEAPP's INNER JOINs drop a
//! payment whose party has no `customer` row; it is read here with what it has. A
//! `render_data` that is no JSON loses only its amount and note.
//!
//! Identities: each party is a `cashapp:<customer id>` person with its cashtag as
//! `cashtag:<name>` (lower case, without `$`: Cash App's `$cashtag`s are unique and read the same
//! in any case — the id another phone's Cash App keeps for the same person) and its display
//! name. The device's user is the party `role` names — `SENDER` the sender, `RECIPIENT` the
//! recipient, in any case, as the column's name and ALEAPP's "User Account Role" read it; any other value
//! names no owner. A note's wallet addresses are claims of the sender, who wrote it.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{OwnedParty, artefact_name, observe_columns, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is Cash App's store.
pub fn is_cashapp(l: &Located) -> bool {
    l.path.contains("/com.squareup.cash/")
}

/// The `customer` columns of one party, joined as `alias`, selected under `prefix_…` names.
fn party(alias: &str, prefix: &str, customers: bool) -> String {
    if customers {
        format!(
            "{alias}.cashtag AS {prefix}_tag, CASE WHEN {alias}.cashtag IS NOT NULL AND ltrim({alias}.cashtag, '$') != '' THEN 'cashtag:' || lower(ltrim({alias}.cashtag, '$')) END AS {prefix}_tag_id, {alias}.customer_display_name AS {prefix}_name"
        )
    } else {
        format!("NULL AS {prefix}_tag, NULL AS {prefix}_tag_id, NULL AS {prefix}_name")
    }
}

/// One `cash_money.db`.
pub fn payments(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["payment"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "payment")?;
    if !require_columns(
        ctx,
        &name,
        "Cash App's cash_money.db",
        "payment",
        &cols,
        &["sender_id", "recipient_id", "display_date"],
    )? {
        return Ok(());
    }
    let customers = tables.iter().any(|t| t == "customer")
        && require_columns(
            ctx,
            &name,
            "Cash App's cash_money.db",
            "customer",
            &table_columns(ctx, &l.tree, &l.path, "customer")?,
            &["customer_id", "cashtag", "customer_display_name"],
        )?;
    let c = |col: &str| column_or_null(&cols, "p.", col, col);
    let json = |path: &str| {
        if cols.contains("render_data") {
            format!(
                "CASE WHEN json_valid(p.render_data) THEN json_extract(p.render_data, '{path}') END"
            )
        } else {
            "NULL".to_string()
        }
    };
    let joins = if customers {
        " LEFT JOIN customer s ON s.customer_id = p.sender_id LEFT JOIN customer r ON r.customer_id = p.recipient_id"
    } else {
        ""
    };
    let amount = json("$.amount.amount");
    let sql = format!(
        "SELECT p.rowid AS rid, p.display_date AS display_date, {}, {}, p.sender_id AS sender_id, 'cashapp:' || p.sender_id AS sender_q, {}, \
         p.recipient_id AS recipient_id, 'cashapp:' || p.recipient_id AS recipient_q, {}, \
         CASE WHEN {amount} IS NOT NULL THEN printf('%.2f', {amount} / 100.0) END AS amount, {} AS currency, {} AS note \
         FROM payment p{joins} ORDER BY p.display_date, p.rowid",
        c("role"),
        c("state"),
        party("s", "sender", customers),
        party("r", "recipient", customers),
        json("$.amount.currency_code"),
        json("$.note"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Cash App payments")?;
    for (inv, t, row) in pages.rows() {
        let who = |side: &str| -> String {
            let tag = t.get(row, &format!("{side}_tag"));
            let display = t.get(row, &format!("{side}_name"));
            let id = t.get(row, &format!("{side}_id")).unwrap_or("?");
            match (display, tag) {
                (Some(n), Some(tag)) => format!("{n} ({tag})"),
                (Some(n), None) => n.to_string(),
                (None, Some(tag)) => tag.to_string(),
                (None, None) => id.to_string(),
            }
        };
        let (from, to) = (who("sender"), who("recipient"));
        let amount = t.get(row, "amount");
        let role = t.get(row, "role");
        let is = |r: &str| role.is_some_and(|x| x.eq_ignore_ascii_case(r));
        let mut d = Draft::new(
            "transactions",
            format!(
                "Cash App payment from {from} to {to}{}",
                amount
                    .map(|a| format!(
                        ": {a}{}",
                        t.get(row, "currency")
                            .map(|c| format!(" {c}"))
                            .unwrap_or_default()
                    ))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["sender_id", "recipient_id"] {
            d.fact(FactType::Account, raw(t, row, col).as_deref(), inv);
        }
        for col in ["sender_tag", "recipient_tag"] {
            d.fact(FactType::Account, raw(t, row, col).as_deref(), inv);
        }
        for col in ["sender_name", "recipient_name"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Amount, amount, inv);
        d.fact(FactType::Text, raw(t, row, "currency").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "state").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "note").as_deref(), inv);
        let time = t.get(row, "display_date");
        d.time(time, unix_millis(time), "Payment displayed", inv);
        d.interpretation = format!(
            "payment row {} of {}: a Cash App payment from {from} (customer {}) to {to} (customer {}){}, state {}, the account's role {}{}; display_date is Unix milliseconds{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "sender_id").unwrap_or("?"),
            t.get(row, "recipient_id").unwrap_or("?"),
            amount
                .map(|a| format!(
                    " of {a}{} (render_data amount.amount in cents, divided by 100)",
                    t.get(row, "currency")
                        .map(|c| format!(" {c}"))
                        .unwrap_or_default()
                ))
                .unwrap_or_default(),
            t.get(row, "state").unwrap_or("not stored"),
            role.unwrap_or("not stored"),
            if is("SENDER") {
                ": the device's user sent it"
            } else if is("RECIPIENT") {
                ": the device's user received it"
            } else {
                ": which side the device's user is, is not said"
            },
            t.get(row, "note")
                .map(|n| format!("; note: {n}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        let mut contexts = Vec::new();
        for (side, own) in [("sender", is("SENDER")), ("recipient", is("RECIPIENT"))] {
            let Some(id) = t.get(row, &format!("{side}_id")).filter(|v| !v.is_empty()) else {
                contexts.push(None);
                continue;
            };
            let context = if own {
                "owner".to_string()
            } else {
                format!("cashapp:{id}")
            };
            let label = if own {
                "device owner".to_string()
            } else {
                who(side)
            };
            observe_columns(
                ctx,
                &context,
                &label,
                t,
                row,
                inv,
                &[
                    (
                        &format!("{side}_q"),
                        IdType::AccountId,
                        "The Cash App customer id",
                    ),
                    (&format!("{side}_tag_id"), IdType::AccountId, "The $cashtag"),
                    (
                        &format!("{side}_name"),
                        IdType::DisplayName,
                        "The display name",
                    ),
                ],
                &|what| {
                    format!(
                        "{what} of the {side} of a Cash App payment ({}){}.",
                        l.name(),
                        if own {
                            format!(", the device's user: role {}", role.unwrap_or("?"))
                        } else {
                            String::new()
                        }
                    )
                },
            )?;
            contexts.push(Some((context, label)));
        }
        let Some(note) = t.get(row, "note").filter(|n| !n.is_empty()) else {
            continue;
        };
        // the note is the sender's words
        let sent = is("SENDER");
        let other = if sent {
            contexts.get(1).cloned().flatten()
        } else {
            contexts.first().cloned().flatten()
        }
        .filter(|(c, _)| c != "owner")
        .map(|(context, label)| OwnedParty {
            role: format!(
                "{label}, the {} of the payment",
                if sent { "recipient" } else { "sender" }
            ),
            context,
            label,
        });
        if !sent && !is("RECIPIENT") {
            continue;
        }
        crate::identity::message_claims(
            ctx,
            inv,
            note,
            &format!("Cash App payment note {}", t.get(row, "rid").unwrap_or("?")),
            sent,
            &format!(
                "the device's user, the {} of the payment (role {})",
                if sent { "sender" } else { "recipient" },
                role.unwrap_or("?")
            ),
            other.as_ref().map(OwnedParty::party),
        )?;
    }
    Ok(())
}
