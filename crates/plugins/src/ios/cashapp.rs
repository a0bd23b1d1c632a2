//! Cash App on iOS: the `CCEntitySync-api.squareup.com.sqlite` and
//! `CCEntitySync-internal.cashappapi.com.sqlite` stores of its app group, with the fields of
//! iLEAPP's `get_cashApp`: one `transactions` phenomenon per `ZPAYMENT` row — the display time
//! (`ZDISPLAYDATE`, Unix time read by its size, as iLEAPP converts it), the other party's
//! customer token (`ZREMOTECUSTOMERID`) with the full name and `$cashtag` of its `ZCUSTOMER`
//! record, the account's role, the amount (in cents, divided by 100 in the query so it grounds)
//! and currency, the state and the note.
//!
//! The payment and customer records are JSON documents (`ZSYNCPAYMENT`, `ZSYNCCUSTOMER`);
//! iLEAPP cuts their values out by text search, so a key is read here wherever it first occurs
//! in the document (`json_tree`), as that search finds it; a record that is no JSON loses only
//! its values. iLEAPP's inner join drops a payment whose customer has no record; it is read here
//! with what it has. The newer protobuf store (`…/Environments/Production/Accounts/…`, iLEAPP's
//! `cashAppB`) is not read.
//!
//! Identities: the other party is `cashapp:<customer token>` — the id Android's
//! `cash_money.db` keeps — with `cashtag:<name>` (lower case, without `$`) and the full name;
//! a note's wallet addresses are claims of the sender (`role` SENDER: the device's user). The
//! device's own customer id is not in these rows.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::photos::fields;
use super::{Draft, Run};
use crate::drafts::unix_by_magnitude;

/// Triage of every Cash App store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("CCEntitySync-*.sqlite", |find, path| {
        let name = path.rsplit('/').next().unwrap_or(path);
        if path.contains("/Containers/Shared/AppGroup/")
            && [
                "CCEntitySync-api.squareup.com.sqlite",
                "CCEntitySync-internal.cashappapi.com.sqlite",
            ]
            .contains(&name)
        {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// The first value of `key` anywhere in the JSON document `doc` (NULL when it is no JSON).
fn first(doc: &str, key: &str) -> String {
    format!(
        "CASE WHEN json_valid({doc}) THEN (SELECT j.value FROM json_tree({doc}) j WHERE j.key = '{key}' AND j.type NOT IN ('object', 'array') LIMIT 1) END"
    )
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZPAYMENT", "ZCUSTOMER"])? else {
        return Ok(());
    };
    if schema.columns("ZPAYMENT").is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse Cash App's CCEntitySync store because it has no ZPAYMENT table",
            None,
        )?;
        return Ok(());
    }
    if !schema.require(
        run,
        "ZPAYMENT",
        &["Z_PK", "ZSYNCPAYMENT", "ZREMOTECUSTOMERID", "ZDISPLAYDATE"],
    )? {
        return Ok(());
    }
    let payment = "CAST(p.ZSYNCPAYMENT AS TEXT)";
    let c = schema.columns("ZCUSTOMER");
    let customer = if c.contains("ZCUSTOMERTOKEN") && c.contains("ZSYNCCUSTOMER") {
        "(SELECT CAST(x.ZSYNCCUSTOMER AS TEXT) FROM ZCUSTOMER x WHERE x.ZCUSTOMERTOKEN = p.ZREMOTECUSTOMERID LIMIT 1)"
    } else {
        "NULL"
    };
    let amount = format!(
        "CASE WHEN json_valid({payment}) THEN (SELECT j.value FROM json_tree({payment}) j WHERE j.key = 'amount' AND j.type = 'integer' LIMIT 1) END"
    );
    let sql = format!(
        "SELECT * FROM (SELECT p.Z_PK AS pk, p.ZDISPLAYDATE AS time, p.ZREMOTECUSTOMERID AS customer, \
         {}, {} AS role, {} AS state, {} AS note, CASE WHEN {amount} IS NOT NULL THEN printf('%.2f', {amount} / 100.0) END AS amount, {} AS currency, \
         {} AS full_name, {} AS cashtag FROM ZPAYMENT p)",
        crate::calls::qualified_or_null(
            &schema.columns("ZPAYMENT"),
            "p.",
            "ZREMOTECUSTOMERID",
            "cashapp",
            "qualified"
        ),
        first(payment, "role"),
        first(payment, "state"),
        first(payment, "note"),
        first(payment, "currency_code"),
        first(customer, "full_name"),
        first(customer, "cashtag"),
    );
    // the cashtag as an id: lower case, without `$`, computed in the query so it grounds
    let sql = format!(
        "SELECT * FROM (SELECT q.*, CASE WHEN q.cashtag IS NOT NULL AND ltrim(q.cashtag, '$') != '' THEN 'cashtag:' || lower(ltrim(q.cashtag, '$')) END AS tag_id FROM ({sql}) q)"
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = path.rsplit('/').next().unwrap_or(path);
    for (inv, t, row) in paged.rows() {
        let token = t.get(row, "customer").unwrap_or("?");
        let who = t
            .get(row, "full_name")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "cashtag"))
            .unwrap_or(token)
            .to_string();
        let role = t.get(row, "role");
        let is = |r: &str| role.is_some_and(|x| x.eq_ignore_ascii_case(r));
        let amount = t.get(row, "amount");
        let mut d = Draft::new(
            "transactions",
            format!(
                "Cash App payment {} {who}{}",
                if is("SENDER") {
                    "to"
                } else if is("RECIPIENT") {
                    "from"
                } else {
                    "with"
                },
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
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("customer", FactType::Account, "customer"),
                ("full_name", FactType::Name, "name"),
                ("cashtag", FactType::Account, "cashtag"),
                ("role", FactType::Text, "the account's role"),
                ("amount", FactType::Amount, "amount"),
                ("currency", FactType::Text, "currency"),
                ("state", FactType::Text, "state"),
                ("note", FactType::Text, "note"),
            ],
        );
        let time = t.get(row, "time");
        d.time(time, unix_by_magnitude(time), "Payment displayed", inv);
        d.interpretation = format!(
            "ZPAYMENT Z_PK {} of {path}: a Cash App payment with {who} (customer {token}){}: {}; the amount is the record's amount in cents divided by 100; ZDISPLAYDATE is Unix time, read by its size.",
            t.get(row, "pk").unwrap_or("?"),
            if is("SENDER") {
                ", sent by the device's user (role SENDER)"
            } else if is("RECIPIENT") {
                ", received by the device's user (role RECIPIENT)"
            } else {
                ", which side the device's user is, is not said"
            },
            said.join(", ")
        );
        run.record(d)?;
        if t.get(row, "qualified").is_none() {
            continue;
        }
        let context = format!("cashapp:{token}");
        crate::identity::observe_columns(
            run.ctx,
            &context,
            &who,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Cash App customer id"),
                ("tag_id", IdType::AccountId, "The $cashtag"),
                ("full_name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of the other party of a Cash App payment ({file})."),
        )?;
        let Some(note) = t.get(row, "note").filter(|n| !n.is_empty()) else {
            continue;
        };
        if !(is("SENDER") || is("RECIPIENT")) {
            continue;
        }
        let sent = is("SENDER");
        let party = crate::identity::OwnedParty {
            context,
            label: who.clone(),
            role: format!(
                "{who}, the {} of the payment",
                if sent { "recipient" } else { "sender" }
            ),
        };
        crate::identity::message_claims(
            run.ctx,
            inv,
            note,
            &format!(
                "Cash App payment {} ({file})",
                t.get(row, "pk").unwrap_or("?")
            ),
            sent,
            &format!(
                "the device's user, who {} the payment (role {})",
                if sent { "sent" } else { "received" },
                role.unwrap_or("?")
            ),
            Some(party.party()),
        )?;
    }
    Ok(())
}
