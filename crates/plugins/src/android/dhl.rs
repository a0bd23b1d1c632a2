//! DHL Express (`com.dhl.exp.dhlmobile/databases/dhledb.db`), ALEAPP's `dhl`
//! (`dhl_tracked_shipments`, `dhl_account`): which shipments were tracked on the phone, and the
//! account's settings.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `TBL_TRACK_SHIPMENT` | one `transactions` per tracking search ("DHL shipment <airway bill> tracked") | airway bill number, the account id that searched (0 before sign-in); when (local text, no zone) |
//! | `TBL_USERSETTING` | one `accounts` per user record ("DHL account <id>") | account id, language, shipment, promotion and information notifications |
//!
//! A tracked number says the shipment was looked up on the phone, not that its user sent or
//! received it; the same airway bill on two devices is a lead the examiner links. The store's
//! reference tables (countries, currencies, packages) are the app's own and not read. No
//! identity is observed (the account id is the app's internal number). A store with neither
//! table is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{RowPhenomena, date_text};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is DHL's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "dhledb.db" && l.path.contains("/com.dhl.exp.dhlmobile/")
}

/// One `dhledb.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if !schema.contains_key("TBL_TRACK_SHIPMENT") && !schema.contains_key("TBL_USERSETTING") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not DHL's dhledb.db: neither TBL_TRACK_SHIPMENT nor TBL_USERSETTING",
            None,
        )?;
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "airWayBill",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "TBL_TRACK_SHIPMENT",
            category: "transactions",
            what: "a shipment whose airway bill was tracked in the DHL app (a search, not proof of sending or receiving; the date local text as stored, account 0 before sign-in)",
            title: &|t, row| {
                format!(
                    "DHL shipment {} tracked",
                    raw(t, row, "airWayBill").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("airWayBill", FactType::Identifier, "airway bill"),
                ("user_id", FactType::Account, "account"),
            ],
            times: &[("search_date", "DHL shipment tracked", date_text)],
        },
        &mut |_, _, _| Ok(()),
    )?;
    super::record_table(
        ctx,
        l,
        &schema,
        "_id",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "TBL_USERSETTING",
            category: "accounts",
            what: "the DHL app's user record (settings as stored)",
            title: &|t, row| format!("DHL account {}", t.get(row, "_id").unwrap_or("?")),
            fields: &[
                ("_id", FactType::Account, "account"),
                ("languageCd", FactType::Text, "language"),
                ("notifyShipment", FactType::Text, "shipment notifications"),
                ("notifyPromotion", FactType::Text, "promotion notifications"),
                ("notifyInfo", FactType::Text, "information notifications"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}
