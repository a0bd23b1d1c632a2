//! The SIM cards the phone held (`wireless/Library/Databases/CellularUsage.db`, table
//! `subscriber_info`), the fields of iLEAPP's `subscriberInfo`: one `device` phenomenon per row —
//! the slot, the card's ICCID (`subscriber_id`), its phone number (`subscriber_mdn`, the MSISDN)
//! and when the row was last updated (Cocoa seconds). Every card the phone saw is kept, not only
//! the one inserted at extraction, so a number the user had before, or a SIM later moved to
//! another phone, shows here.
//!
//! Identities: each card's ICCID is observed on `device` (a strong key: a phone of the case
//! that held the same card is proposed as linked, and its serial decides); its number is the
//! device owner's (`owner`), as CommCenter's own number is. A `subscriber_id` that is not an
//! ICCID (not `89` and 18 to 22 digits) is recorded, not observed. Schema drift: a table
//! without `subscriber_id` is noted; the other columns are read where present.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, file_name, raw};

/// Triage of every `CellularUsage.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("CellularUsage.db", |find, path| one(run, find, path))
}

/// Whether `v` reads as an ICCID: `89` (telecommunications), 18 to 22 digits in all.
fn iccid_like(v: &str) -> bool {
    v.starts_with("89") && (18..=22).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_digit())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["subscriber_info"])? else {
        return Ok(());
    };
    if !schema.require(run, "subscriber_info", &["subscriber_id"])? {
        return Ok(());
    }
    let c = |col: &str| schema.col("s", "subscriber_info", col);
    let sql = format!(
        "SELECT s.rowid AS rid, s.subscriber_id AS iccid, {} AS mdn, {} AS slot, {} AS updated FROM subscriber_info s",
        c("subscriber_mdn"),
        c("slot_id"),
        c("last_update_time"),
    );
    let Some(pages) = run.paged(path, &sql, "s.rowid")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "SIM cards")?;
    let file = file_name(path);
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| t.get(row, c);
        let iccid = get("iccid").filter(|v| iccid_like(v));
        let mut d = Draft::new(
            "device",
            format!(
                "SIM card {} (slot {})",
                get("iccid").unwrap_or("?"),
                get("slot").unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        match iccid {
            Some(v) => d.fact(FactType::Iccid, Some(v), inv),
            None => d.fact(FactType::Identifier, raw(t, row, "iccid").as_deref(), inv),
        };
        d.fact(FactType::Phone, raw(t, row, "mdn").as_deref(), inv);
        d.fact(FactType::Identifier, get("slot"), inv);
        let updated = raw(t, row, "updated");
        d.time(
            updated.as_deref(),
            core_data_encoding(updated.as_deref()),
            "SIM card's subscriber record last updated",
            inv,
        );
        d.interpretation = format!(
            "subscriber_info row {} of {file}: a SIM card the phone held in slot {}, {} {}, phone number (MSISDN) {}; last updated {} (Cocoa seconds). Every card the phone saw is kept here, not only the one in it at extraction.",
            get("rid").unwrap_or("?"),
            get("slot").unwrap_or("?"),
            if iccid.is_some() {
                "ICCID"
            } else {
                "subscriber id (not an ICCID)"
            },
            get("iccid").unwrap_or("?"),
            get("mdn").unwrap_or("not kept"),
            get("updated").unwrap_or("?"),
        );
        run.record(d)?;
        if let Some(v) = iccid {
            run.observe(
                "device",
                EntityKind::Device,
                "this device",
                IdType::Iccid,
                v,
                inv,
                format!(
                    "{v} is the ICCID of a SIM card this phone held (slot {}, {file}).",
                    get("slot").unwrap_or("?")
                ),
            )?;
        }
        if let Some(n) = get("mdn") {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Phone,
                n,
                inv,
                format!(
                    "{n} is the phone number (MSISDN) of a SIM card this phone held ({file}): the device user's number while the card was in it."
                ),
            )?;
        }
    }
    Ok(())
}
