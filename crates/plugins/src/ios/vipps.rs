//! Vipps (`Vipps.sqlite`, a Core Data store), iLEAPP's `vipps` and `vippsContacts`: whom the
//! user paid or was paid by, with the payment's message, and the contacts the app matched.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZCONTACTMODEL` | one `contacts` per contact ("Vipps contact <name>") | name, each phone number (`ZRAWPHONENUMBERS`, or `ZPHONENUMBERS` in older stores), the address-book identifier, the profile image's size (not read) |
//! | `ZFEEDDETAILMODEL` | one `transactions` per chat item of the feed ("Vipps <direction> <amount>: <message>") | the phone number the feed key names (`<kind>-<number>`), the contact holding it (by name, as iLEAPP looks it up), model type, status, Vipps transaction id; from the item's JSON (`ZBLOB`, a property list whose values are JSON texts, decoded by `sqlite_query`'s `plists` and `decode_nested`): message, amount, status text and category, direction, transaction id, type, time (`messageTimeStamp`, Unix milliseconds) |
//!
//! Only items whose JSON says `"model": "CHAT"` are payments with a message (as iLEAPP reads
//! them); the others are counted in a note, and a `ZBLOB` that does not decode is noted. The
//! direction is as stored (`OUTGOING`: the device's user paid). Columns are taken by name
//! (absent ones NULL); a `Vipps.sqlite` without `ZFEEDDETAILMODEL.ZBLOB` is noted.
//!
//! Identities: each phone number, of a contact or of a feed item's counterpart, is observed as
//! the message handles of `sms.db` are ([`Run::observe_handle`]: `handle:<normalised>`, or the
//! address-book card holding it), with the contact's name where Vipps keeps one; so the person
//! paid in Vipps meets the same number in Messages, WhatsApp or the address book.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, Schema, file_name};
use crate::calls::select_columns;
use crate::drafts::{headline, unix_millis};
use crate::outputs::{escape, in_json_cell, plist_cell, raw};

const CONTACT: &str = "ZCONTACTMODEL";
const FEED: &str = "ZFEEDDETAILMODEL";

/// The phone-number columns of `ZCONTACTMODEL`, newest first.
const PHONE_COLUMNS: [&str; 2] = ["ZRAWPHONENUMBERS", "ZPHONENUMBERS"];

/// Triage of every Vipps store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("Vipps.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[CONTACT, FEED])? else {
            continue;
        };
        if !schema.require(run, FEED, &["ZBLOB"])? {
            continue;
        }
        if schema.columns(CONTACT).contains("Z_PK") {
            contacts(run, &find, path, &schema)?;
        }
        feed(run, &find, path, &schema)?;
    }
    Ok(())
}

/// The contact's phone numbers as the output holds them (each its fact's value) with the
/// numbers themselves: a `plist:` array (a transformable column), else text split on `,`, `;`
/// and line breaks.
fn numbers(cell: &str) -> Vec<(String, String)> {
    if let Some(Value::Array(items)) = plist_cell(cell) {
        return items
            .iter()
            .filter_map(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(|s| (in_json_cell(s), s.to_string()))
            .collect();
    }
    cell.split([',', ';', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| (escape(s), s.to_string()))
        .collect()
}

/// Observes `phone` as a counterparty handle, with `name` on the entity holding it.
fn observe_number(
    run: &Run<'_, '_>,
    phone: &str,
    name: Option<&str>,
    inv: &Invoked,
    what: &str,
) -> Result<(), RuntimeError> {
    run.observe_handle(phone, inv, what)?;
    if let (Some(context), Some(name)) = (run.handle_context(phone), name) {
        run.observe(
            &context,
            EntityKind::Person,
            name,
            IdType::DisplayName,
            name,
            inv,
            format!("The name Vipps keeps for {phone} ({what})."),
        )?;
    }
    Ok(())
}

fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let c = schema.columns(CONTACT);
    let phones = PHONE_COLUMNS
        .iter()
        .find(|p| c.contains(**p))
        .map(|p| format!("c.{p} AS phones"))
        .unwrap_or_else(|| "NULL AS phones".into());
    let image = if c.contains("ZPROFILEIMAGEDATA") {
        "length(c.ZPROFILEIMAGEDATA) AS image_bytes"
    } else {
        "NULL AS image_bytes"
    };
    let sql = format!(
        "SELECT c.Z_PK AS pk, {}, {phones}, {image} FROM {CONTACT} c",
        select_columns(
            &c,
            "c.",
            &[("ZNAME", "name"), ("ZCONTACTSTOREIDENTIFIER", "store_id")],
        ),
    );
    // a transformable phone column is an archived array: read as JSON
    let Some(paged) = run.paged_with(path, &sql, "pk", &["plists"])? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let nums = t.get(row, "phones").map(numbers).unwrap_or_default();
        let name = get("name");
        let label = name
            .clone()
            .or_else(|| nums.first().map(|(_, n)| n.clone()))
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("contacts", format!("Vipps contact {label}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("store_id", FactType::Identifier, "address-book identifier"),
            ],
        );
        for (cited, n) in &nums {
            d.fact(FactType::Phone, Some(cited), inv);
            said.push(format!("phone {n}"));
        }
        if let Some(bytes) = get("image_bytes") {
            d.fact(FactType::Count, Some(&bytes), inv);
            said.push(format!("profile image of {bytes} bytes (not read)"));
        }
        d.interpretation = format!(
            "ZCONTACTMODEL Z_PK {} of {path}: a contact Vipps matched to the user's address book ({}).",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
        for (_, n) in &nums {
            observe_number(
                run,
                n,
                name.as_deref(),
                inv,
                &format!("a Vipps contact (ZCONTACTMODEL of {file})"),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Vipps contacts")
}

/// A scalar member of `v` as the `plist:` cell `cell` holds it (a string JSON-escaped, then
/// cell-escaped); `None` when absent, empty or not in the cell (it would not ground).
fn member(v: &Value, key: &str, cell: &str) -> Option<String> {
    let written = crate::outputs::json_cell_scalar(v.get(key))?;
    cell.contains(&written).then_some(written)
}

/// The chat items of a decoded `ZBLOB` (its values, or those of its `root` when it is a keyed
/// archive) and how many other items it holds.
fn items(blob: &Value) -> (Vec<&Value>, usize) {
    let top = match blob.get("root") {
        Some(r) if r.is_object() => r,
        _ => blob,
    };
    let mut chats = Vec::new();
    let mut other = 0;
    for v in top.as_object().into_iter().flat_map(|o| o.values()) {
        let data = v.get("data").filter(|d| d.is_object());
        match (v.get("model").and_then(Value::as_str), data) {
            (Some("CHAT"), Some(d)) => chats.push(d),
            _ => other += 1,
        }
    }
    (chats, other)
}

fn feed(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let f = schema.columns(FEED);
    let c = schema.columns(CONTACT);
    // the number after the feed key's first '-', as iLEAPP takes it
    let phone = if f.contains("ZFEEDMODELKEY") {
        "CASE WHEN instr(f.ZFEEDMODELKEY, '-') > 0 THEN substr(f.ZFEEDMODELKEY, instr(f.ZFEEDMODELKEY, '-') + 1) END"
    } else {
        "NULL"
    };
    // the contact holding that number, by either phone column
    let lookups: Vec<String> = PHONE_COLUMNS
        .iter()
        .filter(|p| c.contains(**p) && c.contains("ZNAME"))
        .map(|p| {
            format!(
                "(SELECT c.ZNAME FROM {CONTACT} c WHERE c.{p} LIKE '%' || phone || '%' ORDER BY c.Z_PK LIMIT 1)"
            )
        })
        .collect();
    let contact = match lookups.len() {
        0 => "NULL".to_string(),
        1 => lookups.join(""),
        _ => format!("coalesce({})", lookups.join(", ")),
    };
    let sql = format!(
        "SELECT pk, feed_key, model_type, status, transaction_id, phone, CASE WHEN phone IS NOT NULL AND phone != '' THEN {contact} END AS contact, blob FROM (SELECT f.Z_PK AS pk, {}, {phone} AS phone, f.ZBLOB AS blob FROM {FEED} f)",
        select_columns(
            &f,
            "f.",
            &[
                ("ZFEEDMODELKEY", "feed_key"),
                ("ZMODELTYPE", "model_type"),
                ("ZSTATUS", "status"),
                ("ZVIPPSTRANSACTIONID", "transaction_id"),
            ],
        ),
    );
    // the item's JSON texts inside the property list are decoded by the tool, so their values
    // print once, unescaped
    let Some(paged) = run.paged_with(path, &sql, "pk", &["plists", "decode_nested"])? else {
        return Ok(());
    };
    let file = file_name(path);
    let (mut other, mut unread) = (0usize, 0usize);
    for (inv, t, row) in paged.rows() {
        let Some(blob) = t.get(row, "blob").and_then(plist_cell) else {
            if t.get(row, "blob").is_some() {
                unread += 1;
            }
            continue;
        };
        let cell = raw(t, row, "blob").unwrap_or_default();
        let (chats, others) = items(&blob);
        other += others;
        let paid = !chats.is_empty();
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let (phone, contact) = (get("phone"), get("contact"));
        let who = contact
            .clone()
            .or_else(|| phone.clone())
            .unwrap_or_else(|| "an unrecorded party".into());
        for data in chats {
            let m = |k: &str| member(data, k, &cell);
            let direction = m("direction");
            let amount = m("amount");
            let message = data
                .get("message")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty());
            let mut d = Draft::new(
                "transactions",
                format!(
                    "Vipps {} {who}{}{}",
                    match direction.as_deref() {
                        Some("OUTGOING") => "payment to",
                        Some("INCOMING") => "payment from",
                        _ => "payment with",
                    },
                    amount
                        .as_deref()
                        .map(|a| format!(" {a}"))
                        .unwrap_or_default(),
                    message
                        .map(|s| format!(": {}", headline(s)))
                        .unwrap_or_default(),
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            let mut said = d.fields(
                t,
                row,
                inv,
                &[
                    ("phone", FactType::Phone, "phone"),
                    ("contact", FactType::Name, "contact"),
                    ("model_type", FactType::Text, "model type"),
                    ("status", FactType::Text, "status"),
                    (
                        "transaction_id",
                        FactType::Identifier,
                        "Vipps transaction id",
                    ),
                ],
            );
            for (k, ft, label) in [
                ("message", FactType::Text, "message"),
                ("amount", FactType::Amount, "amount"),
                ("statusText", FactType::Text, "status text"),
                ("statusCategory", FactType::Text, "status category"),
                ("direction", FactType::Text, "direction"),
                ("transactionID", FactType::Identifier, "transaction id"),
                ("type", FactType::Text, "type"),
            ] {
                if let Some(v) = m(k) {
                    d.fact(ft, Some(&v), inv);
                    said.push(format!("{label} {v}"));
                }
            }
            let at = m("messageTimeStamp");
            d.time(
                at.as_deref(),
                unix_millis(at.as_deref()),
                "Vipps payment message",
                inv,
            );
            d.interpretation = format!(
                "ZFEEDDETAILMODEL Z_PK {} of {path}: a Vipps payment with its message, a CHAT item of the feed ({}); the number is the one the feed key names, the contact the one holding it; the direction as stored (OUTGOING: the device's user paid); messageTimeStamp is Unix milliseconds.",
                t.get(row, "pk").unwrap_or("?"),
                said.join("; ")
            );
            run.record(d)?;
        }
        // the counterpart of a payment (another item's key may name no number)
        if let Some(p) = phone.as_deref().filter(|_| paid) {
            observe_number(
                run,
                p,
                contact.as_deref(),
                inv,
                &format!("Vipps payments (ZFEEDDETAILMODEL of {file})"),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Vipps feed items")?;
    if other > 0 {
        run.ctx.unparsed(
            path,
            &format!(
                "{other} items of ZFEEDDETAILMODEL are not CHAT items (as iLEAPP, not read as payments)"
            ),
            None,
        )?;
    }
    if unread > 0 {
        run.ctx.unparsed(
            path,
            &format!("{unread} ZBLOB values of ZFEEDDETAILMODEL are no property list (not read)"),
            None,
        )?;
    }
    Ok(())
}
