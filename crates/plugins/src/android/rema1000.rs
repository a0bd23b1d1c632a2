//! REMA 1000 "Scan Selv" (the Danish supermarket's app, `dk.rema1000.app/databases/receipts.db`),
//! ALEAPP's `rema_1000` (`rema1000_receipt_raw`, `rema1000_receipt_prettified`): the receipts of
//! the purchases paid in the app or kept by it — when, in which store, how much, with which card.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ReceiptEntity` | one `transactions` per receipt ("REMA 1000 receipt <display id>") | receipt id and display id, store number, the store's street and town (the second and third `;`-separated fields of `searchText`, cut in the query, as ALEAPP reads them), postcode (`zipString`), total as the app shows it and as stored (øre), discount and VAT as stored, payment source, card type, masked card number, payment id, chargeback as stored, the search text (the store and the items, as the app indexes them); paid (`paymentDate`, Unix, its unit by its size) |
//!
//! The store's street and town are read only where `searchText` has at least three fields; the
//! rest of it (the item words, as the app indexes them) stays in the search text fact. ALEAPP
//! takes the time as Unix milliseconds in Copenhagen's zone and the total in minor units; neither
//! unit nor currency is written in the store. The items (`ReceiptItemEntity`) are not read one by
//! one (their link to a receipt is not established). A masked card number is a payment card's
//! last digits, not an identity. Identities: none. Columns are taken by name (absent ones NULL:
//! older releases keep fewer); a `receipts.db` without `ReceiptEntity.id` is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, unix_by_magnitude};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is REMA 1000's receipt store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "receipts.db" && is_store_path(&l.path)
}

/// Whether `path` is REMA 1000's receipt store (for `categorise`).
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/dk.rema1000.app/databases/receipts.db")
}

/// The columns read besides `id`, as `(column, type, label)`.
const FIELDS: &[(&str, FactType, &str)] = &[
    ("displayId", FactType::Identifier, "receipt"),
    ("storeNumber", FactType::Identifier, "store number"),
    ("street", FactType::Text, "store street"),
    ("town", FactType::Text, "store town"),
    ("zipString", FactType::Text, "postcode"),
    ("totalPriceString", FactType::Amount, "total"),
    ("totalPrice", FactType::Text, "total as stored (øre)"),
    ("totalDiscount", FactType::Text, "discount as stored"),
    ("totalVat", FactType::Text, "VAT as stored"),
    ("paymentSource", FactType::Text, "payment source"),
    ("pp_cardType", FactType::Text, "card type"),
    ("pp_maskedPan", FactType::Text, "masked card number"),
    ("pp_id", FactType::Identifier, "payment id"),
    ("Chargeback", FactType::Text, "chargeback"),
    ("searchText", FactType::Text, "search text"),
];

/// The store's street and town: the second and third `;`-separated fields of `searchText`
/// (a CTE over the table's rows, and the two select expressions), NULL without three fields.
fn place(cols: &std::collections::BTreeSet<String>) -> (String, &'static str, &'static str) {
    if !cols.contains("searchText") {
        return (String::new(), "NULL AS street, NULL AS town", "");
    }
    (
        "WITH f AS (SELECT rowid AS rid, CASE WHEN instr(searchText, ';') > 0 THEN substr(searchText, instr(searchText, ';') + 1) END AS r1 FROM ReceiptEntity), g AS (SELECT rid, CASE WHEN instr(r1, ';') > 0 THEN substr(r1, 1, instr(r1, ';') - 1) END AS street, CASE WHEN instr(r1, ';') > 0 THEN substr(r1, instr(r1, ';') + 1) END AS r2 FROM f) ".to_string(),
        "g.street AS street, CASE WHEN instr(g.r2, ';') > 0 THEN substr(g.r2, 1, instr(g.r2, ';') - 1) ELSE g.r2 END AS town",
        " LEFT JOIN g ON g.rid = e.rowid",
    )
}

/// One `receipts.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "REMA 1000's receipts.db",
        &schema,
        "ReceiptEntity",
        &["id"],
    )?
    else {
        return Ok(());
    };
    let (with, street_town, join) = place(cols);
    let select: Vec<String> = FIELDS
        .iter()
        .filter(|(c, ..)| !matches!(*c, "street" | "town"))
        .map(|(c, ..)| column_or_null(cols, "e.", c, c))
        .collect();
    let sql = format!(
        "{with}SELECT e.rowid AS rid, e.id AS receipt, {}, {street_town}, {} FROM ReceiptEntity e{join} ORDER BY e.rowid",
        select.join(", "),
        column_or_null(cols, "e.", "paymentDate", "paymentDate"),
    );
    let mut fields = vec![("receipt", FactType::Identifier, "receipt id")];
    fields.extend_from_slice(FIELDS);
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "ReceiptEntity",
            category: "transactions",
            what: "a purchase receipt REMA 1000's app kept: the store (its number, and its street and town as the second and third fields of the search text), the total as shown and as stored (øre, as ALEAPP reads it), the payment (source, card type, masked card number); paid at the time stored (Unix, its unit by its size)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "REMA 1000 receipt {}",
                    raw(t, row, "displayId")
                        .filter(|v| !v.trim().is_empty())
                        .or_else(|| raw(t, row, "receipt"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &fields,
            times: &[("paymentDate", "REMA 1000 purchase paid", unix_by_magnitude)],
        },
        &mut |_, _, _| Ok(()),
    )
}
