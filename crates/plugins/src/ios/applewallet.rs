//! Apple Wallet on iOS, the fields of iLEAPP's `appleWalletTransactions`,
//! `get_appleWalletPKPasses` and `get_appleWalletNanoPasses`:
//!
//! - `Library/Passes/passes23.sqlite`, `payment_transaction`: one `transactions` phenomenon per
//!   Apple Pay or Apple Cash transaction — transaction date and location date (Core Data
//!   seconds), merchant, locality, administrative area, amount (the stored integer divided by
//!   10,000 in the query, as iLEAPP reads it), currency, latitude, longitude, altitude, the peer
//!   payment's counterpart handle and memo, status and type as stored;
//! - `Library/Passes/Cards/<id>.pkpass/pass.json` (read by `read_json`): one `accounts`
//!   phenomenon per pass — its organisation, description, serial number, pass type and team
//!   ids, relevant and expiration dates, and every other value of the document (the fields of
//!   its style — boarding pass, event ticket, store card, coupon, generic — with their labels,
//!   barcode messages, locations), where iLEAPP lists each top-level key with its value;
//! - the Apple Watch's `nanopasses.sqlite3`, `PASS`: one `accounts` phenomenon per pass — added
//!   (Core Data seconds), unique id, organisation, type, description, pending delete, and the
//!   strings of its encoded pass and front and back field buckets (binary property lists decoded
//!   by `sqlite_query`).
//!
//! Identities: a peer payment's counterpart written as a phone number or e-mail is a person by
//! it (the address-book card holding it, else `handle:<value>`). Schema drift: each table is
//! read when it has its key columns, the others where present.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::photos::fields;
use super::{Draft, Run, core_data_encoding, raw};
use crate::drafts::date_text;
use crate::outputs::json_scalar;

/// Triage of the source's Wallet stores and passes.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("passes23.sqlite", |find, path| {
        if path.contains("/Library/Passes/") {
            transactions(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("pass.json", |find, path| {
        if path.contains("/Passes/Cards/") && path.contains(".pkpass/") {
            pass(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("nanopasses.sqlite3", |find, path| nano(run, find, path))
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn transactions(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["payment_transaction"])? else {
        return Ok(());
    };
    if schema.columns("payment_transaction").is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse Wallet's passes23.sqlite because it has no payment_transaction table",
            None,
        )?;
        return Ok(());
    }
    if !schema.require(run, "payment_transaction", &["transaction_date"])? {
        return Ok(());
    }
    let t_ = |c: &str| schema.col("t", "payment_transaction", c);
    let cols = schema.columns("payment_transaction");
    let amount = if cols.contains("amount") {
        "CAST(t.amount AS REAL) / 10000"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT * FROM (SELECT t.rowid AS rid, t.transaction_date AS at, {} AS merchant, {} AS locality, {} AS area, {amount} AS amount, {} AS currency, {} AS located_at, {} AS latitude, {} AS longitude, {} AS altitude, {} AS handle, {} AS memo, {} AS status, {} AS type FROM payment_transaction t)",
        t_("merchant_name"),
        t_("locality"),
        t_("administrative_area"),
        t_("currency_code"),
        t_("location_date"),
        t_("location_latitude"),
        t_("location_longitude"),
        t_("location_altitude"),
        t_("peer_payment_counterpart_handle"),
        t_("peer_payment_memo"),
        t_("transaction_status"),
        t_("transaction_type"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let with = t
            .get(row, "merchant")
            .or(t.get(row, "handle"))
            .unwrap_or("a party not stored")
            .to_string();
        let amount = t
            .get(row, "amount")
            .map(|a| {
                format!(
                    ": {a}{}",
                    t.get(row, "currency")
                        .map(|c| format!(" {c}"))
                        .unwrap_or_default()
                )
            })
            .unwrap_or_default();
        let mut d = Draft::new(
            "transactions",
            format!("Apple Wallet transaction with {with}{amount}"),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("merchant", FactType::Name, "merchant"),
                ("locality", FactType::Text, "locality"),
                ("area", FactType::Text, "administrative area"),
                ("amount", FactType::Amount, "amount"),
                ("currency", FactType::Text, "currency"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("altitude", FactType::Text, "altitude"),
                ("handle", FactType::Account, "peer payment counterpart"),
                ("memo", FactType::Text, "memo"),
                ("status", FactType::Count, "status"),
                ("type", FactType::Count, "type"),
            ],
        );
        let at = raw(t, row, "at");
        d.time(
            at.as_deref(),
            core_data_encoding(at.as_deref()),
            "Wallet transaction",
            inv,
        );
        let located = raw(t, row, "located_at");
        d.time(
            located.as_deref(),
            core_data_encoding(located.as_deref()),
            "Wallet transaction located",
            inv,
        );
        d.interpretation = format!(
            "payment_transaction row {rid} of {}: an Apple Pay or Apple Cash transaction: {}; the amount is the stored integer divided by 10,000 (as iLEAPP reads it), status and type as stored, the times Core Data seconds.",
            file_name(path),
            said.join(", ")
        );
        run.record(d)?;
        if let Some(h) = t.get(row, "handle") {
            run.observe_handle(
                h,
                inv,
                &format!("an Apple Cash peer payment (payment_transaction row {rid})"),
            )?;
        }
    }
    Ok(())
}

/// Every scalar of `v` below `at` (as the tool's output writes it), up to `cap`.
fn scalars<'a>(v: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>, cap: usize) {
    if out.len() >= cap {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                scalars(x, format!("{at}.{k}"), out, cap);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                scalars(x, format!("{at}[{i}]"), out, cap);
            }
        }
        _ => out.push((at, v)),
    }
}

/// The pass styles of PassKit, each a dictionary of field lists.
const STYLES: [&str; 5] = [
    "boardingPass",
    "eventTicket",
    "storeCard",
    "coupon",
    "generic",
];

fn pass(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_json", json!({"path": path}))?
    else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text);
    let Some(doc) = doc.filter(Value::is_object) else {
        run.ctx.unparsed(
            path,
            "could not parse the Wallet pass because its pass.json is no JSON object",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let s = |k: &str| json_scalar(doc.get(k));
    let organisation = s("organizationName");
    let description = s("description");
    let style = STYLES.iter().find(|k| doc.get(**k).is_some()).copied();
    let mut d = Draft::new(
        "accounts",
        format!(
            "Apple Wallet pass{}: {}",
            style.map(|s| format!(" ({s})")).unwrap_or_default(),
            description
                .as_deref()
                .or(organisation.as_deref())
                .unwrap_or("not described")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Name, organisation.as_deref(), &inv);
    d.fact(FactType::Text, description.as_deref(), &inv);
    for k in ["serialNumber", "passTypeIdentifier", "teamIdentifier"] {
        d.fact(FactType::Identifier, s(k).as_deref(), &inv);
    }
    for (k, what) in [
        ("relevantDate", "Wallet pass relevant"),
        ("expirationDate", "Wallet pass expires"),
    ] {
        let v = s(k);
        d.time(v.as_deref(), date_text(v.as_deref()), what, &inv);
    }
    let skip = [
        "organizationName",
        "description",
        "serialNumber",
        "passTypeIdentifier",
        "teamIdentifier",
        "relevantDate",
        "expirationDate",
    ];
    let mut rest = Vec::new();
    if let Value::Object(m) = &doc {
        for (k, v) in m.iter().filter(|(k, _)| !skip.contains(&k.as_str())) {
            scalars(v, k.clone(), &mut rest, 400);
        }
    }
    let mut said = Vec::new();
    for (at, v) in &rest {
        let Some(value) = json_scalar(Some(v)) else {
            continue;
        };
        d.fact(FactType::Text, Some(&value), &inv);
        if at.ends_with(".value") || at.ends_with(".message") || at.ends_with(".label") {
            said.push(format!("{at} {value}"));
        }
    }
    d.interpretation = format!(
        "{path}: a pass kept in Apple Wallet{}{}{}; {} values of the pass are facts{}.",
        organisation
            .as_deref()
            .map(|o| format!(" issued by {o}"))
            .unwrap_or_default(),
        style.map(|s| format!(", a {s}")).unwrap_or_default(),
        description
            .as_deref()
            .map(|x| format!(" (\"{x}\")"))
            .unwrap_or_default(),
        rest.len(),
        if said.is_empty() {
            String::new()
        } else {
            format!(" (among them {})", said.join(", "))
        },
    );
    run.record(d)
}

fn nano(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["PASS"])? else {
        return Ok(());
    };
    if schema.columns("PASS").is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse the Watch's nanopasses.sqlite3 because it has no PASS table",
            None,
        )?;
        return Ok(());
    }
    if !schema.require(run, "PASS", &["UNIQUE_ID"])? {
        return Ok(());
    }
    let p = |c: &str| schema.col("p", "PASS", c);
    let sql = format!(
        "SELECT * FROM (SELECT p.rowid AS rid, p.UNIQUE_ID AS id, {} AS organisation, {} AS type, {} AS description, {} AS added, {} AS pending_delete, {} AS encoded, {} AS front, {} AS back FROM PASS p)",
        p("ORGANIZATION_NAME"),
        p("TYPE_ID"),
        p("LOCALIZED_DESCRIPTION"),
        p("INGESTED_DATE"),
        p("DELETE_PENDING"),
        p("ENCODED_PASS"),
        p("FRONT_FIELD_BUCKETS"),
        p("BACK_FIELD_BUCKETS"),
    );
    let Some(paged) = run.paged_with(path, &sql, "rid", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = t.get(row, "id").unwrap_or("?").to_string();
        let mut d = Draft::new(
            "accounts",
            format!(
                "Apple Watch Wallet pass: {}",
                t.get(row, "description")
                    .or(t.get(row, "organisation"))
                    .unwrap_or(&id)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("id", FactType::Identifier, "unique id"),
                ("organisation", FactType::Name, "organisation"),
                ("type", FactType::Count, "type"),
                ("description", FactType::Text, "description"),
                ("pending_delete", FactType::Count, "pending delete"),
            ],
        );
        let mut strings = 0;
        for col in ["encoded", "front", "back"] {
            let Some(v) = t
                .get(row, col)
                .and_then(|c| c.strip_prefix("plist:"))
                .and_then(|j| serde_json::from_str::<Value>(j).ok())
            else {
                continue;
            };
            let mut found = Vec::new();
            scalars(&v, col.to_string(), &mut found, 200);
            for (_, x) in found {
                if let Some(s) = crate::outputs::json_cell_scalar(Some(x)) {
                    d.fact(FactType::Text, Some(&s), inv);
                    strings += 1;
                }
            }
        }
        let added = raw(t, row, "added");
        d.time(
            added.as_deref(),
            core_data_encoding(added.as_deref()),
            "Wallet pass added to the Watch",
            inv,
        );
        d.interpretation = format!(
            "PASS row {} of {}: a Wallet pass on the paired Apple Watch: {}; {strings} values of its encoded pass and field buckets are facts; the time added is Core Data seconds.",
            t.get(row, "rid").unwrap_or("?"),
            file_name(path),
            said.join(", ")
        );
        run.record(d)?;
    }
    Ok(())
}
