//! The numbers the device's user blocked (`com.android.providers.blockednumber/databases/
//! blockednumbers.db`, AOSP's `BlockedNumberProvider`: table `blocked` — `original_number` as
//! typed or received, `e164_number` normalised by the provider). One phenomenon per number;
//! each number is observed on the contact holding it (else `handle:<number>`), so a person the
//! user blocked is one the case can name.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use super::databases::{Book, counterparty, tables_with};
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft};
use crate::identity::{artefact_name, normalized, observe, pages_on, required_columns};
use crate::outputs::raw;

/// One `blockednumbers.db`.
pub fn blocked(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["blocked"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = required_columns(
        ctx,
        &l.tree,
        &l.path,
        "the blocked numbers",
        "blocked",
        &["original_number"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS row, original_number, {} FROM blocked ORDER BY rowid",
        column_or_null(&cols, "", "e164_number", "e164_number")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "blocked numbers")?;
    for (inv, t, row) in pages.rows() {
        let Some(number) = t.get(row, "original_number").filter(|n| !n.is_empty()) else {
            continue;
        };
        let e164 = t.get(row, "e164_number").filter(|n| !n.is_empty());
        let mut d = Draft::new("contacts", format!("Number blocked: {number}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["original_number", "e164_number"] {
            let Some(v) = raw(t, row, col).filter(|v| !v.is_empty()) else {
                continue;
            };
            let ft = if normalized(ctx, IdType::Phone, &v).is_some() {
                FactType::Phone
            } else {
                FactType::Identifier
            };
            d.fact(ft, Some(&v), inv);
        }
        d.interpretation = format!(
            "blocked row {} of {name}: the device's user blocked calls and messages from this number (as typed or received{}).",
            t.get(row, "row").unwrap_or("?"),
            if e164.is_some() {
                ", and as the provider normalised it"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        let Some(value) = e164
            .filter(|v| normalized(ctx, IdType::Phone, v).is_some())
            .or(Some(number).filter(|v| normalized(ctx, IdType::Phone, v).is_some()))
        else {
            continue;
        };
        let (context, label) = counterparty(ctx, book, value);
        observe(
            ctx,
            &context,
            EntityKind::Person,
            &label,
            IdType::Phone,
            value,
            inv,
            format!(
                "{value} is a number the device's user blocked ({}).",
                l.name()
            ),
        )?;
    }
    Ok(())
}
