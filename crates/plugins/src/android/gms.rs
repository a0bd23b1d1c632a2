//! Google Play services' records of who the device's user is (`com.google.android.gms/
//! databases/`), the fields of ALEAPP's `constellationSimVerifications` and `gmsAccountHistory`:
//!
//! - `constellation.db` `sim_verifications`: one `device` phenomenon per SIM whose phone number
//!   Google verified (Constellation, the number verification behind RCS and Google's services):
//!   the number, the IMSI, the number the SIM itself reports, the state and method as stored, the
//!   SIM slot (newer Play services), the verification time (Unix milliseconds). The number is the
//!   owner's; the IMSI the device's.
//! - `google_account_history.db` `AccountHistory`: one `accounts` phenomenon per change Play
//!   services recorded to the Google accounts on the device: the account, the change type (an
//!   integer, as stored: its values are not documented), the event index, the change data. Each
//!   account named is observed as the owner's Google account.
//!
//! Schema drift: a table without its key columns is noted; other columns are read where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, normalized, observe, pages_on, required_columns};
use crate::outputs::raw;

/// Whether `path` is one of Play services' databases (not an app's file of the same name).
pub fn is_gms(path: &str) -> bool {
    path.contains("/com.google.android.gms/")
}

/// `constellation.db`: the SIMs whose numbers Google verified.
pub fn constellation(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["sim_verifications"])?.is_none() {
        return Ok(());
    }
    let Some(cols) = required_columns(
        ctx,
        &l.tree,
        &l.path,
        "the verified SIM numbers",
        "sim_verifications",
        &["phone_number"],
    )?
    else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, phone_number, {}, {}, {}, {}, {}, {} FROM sim_verifications ORDER BY rowid",
        c("verification_time"),
        c("imsi"),
        c("sim_readable_number"),
        c("state"),
        c("verification_method"),
        c("sim_slot"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_pages_cap(ctx, &name, &pages, "SIM verifications")?;
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| t.get(row, c).filter(|v| !v.is_empty());
        let number = get("phone_number");
        let mut d = Draft::new(
            "device",
            format!(
                "SIM number verified by Google: {}",
                number.unwrap_or("no number")
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Phone, raw(t, row, "phone_number").as_deref(), inv);
        d.fact(FactType::Imsi, get("imsi"), inv);
        d.fact(
            FactType::Phone,
            raw(t, row, "sim_readable_number").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "state").as_deref(), inv);
        d.fact(
            FactType::Text,
            raw(t, row, "verification_method").as_deref(),
            inv,
        );
        let time = get("verification_time");
        d.time(
            time,
            unix_millis(time),
            "SIM number verified by Google",
            inv,
        );
        d.interpretation = format!(
            "sim_verifications row {} of {name}: Google Play services verified the phone number {} of a SIM (IMSI {}, slot {}; the SIM itself reports {}), state {} and method {} as stored; verification_time is Unix milliseconds.",
            get("row").unwrap_or("?"),
            number.unwrap_or("not kept"),
            get("imsi").unwrap_or("not kept"),
            get("sim_slot").unwrap_or("not kept"),
            get("sim_readable_number").unwrap_or("no number"),
            get("state").unwrap_or("?"),
            get("verification_method").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
        for n in [number, get("sim_readable_number")].into_iter().flatten() {
            if normalized(ctx, IdType::Phone, n).is_some() {
                observe(
                    ctx,
                    "owner",
                    EntityKind::Person,
                    "device owner",
                    IdType::Phone,
                    n,
                    inv,
                    format!(
                        "{n} is the number of a SIM in this device, as Google verified it ({}): the owner's own number.",
                        l.name()
                    ),
                )?;
            }
        }
        if let Some(v) = get("imsi") {
            observe(
                ctx,
                "device",
                EntityKind::Device,
                "Android device",
                IdType::Imsi,
                v,
                inv,
                format!(
                    "IMSI of a SIM whose number Google verified in this device ({}).",
                    l.name()
                ),
            )?;
        }
    }
    Ok(())
}

/// `google_account_history.db`: the changes to the Google accounts on the device.
pub fn account_history(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["AccountHistory"])?.is_none() {
        return Ok(());
    }
    let Some(cols) = required_columns(
        ctx,
        &l.tree,
        &l.path,
        "the Google account history",
        "AccountHistory",
        &["account_name"],
    )?
    else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, account_name, {}, {}, {} FROM AccountHistory ORDER BY rowid",
        c("change_type"),
        c("event_index"),
        c("change_data"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_pages_cap(ctx, &name, &pages, "Google account changes")?;
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| t.get(row, c).filter(|v| !v.is_empty());
        let account = get("account_name");
        let mut d = Draft::new(
            "accounts",
            format!(
                "Google account change: {} (type {})",
                account.unwrap_or("?"),
                get("change_type").unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Email, raw(t, row, "account_name").as_deref(), inv);
        d.fact(FactType::Text, get("change_type"), inv);
        d.fact(FactType::Text, get("event_index"), inv);
        d.fact(FactType::Text, raw(t, row, "change_data").as_deref(), inv);
        d.interpretation = format!(
            "AccountHistory row {} of {name}: Google Play services recorded a change to the Google account {} on this device: change type {} (an integer whose values are not documented, as stored), event {}, change data {}.",
            get("row").unwrap_or("?"),
            account.unwrap_or("?"),
            get("change_type").unwrap_or("?"),
            get("event_index").unwrap_or("?"),
            get("change_data").unwrap_or("none"),
        );
        record_draft(ctx, d)?;
        if let Some(a) = account.filter(|a| normalized(ctx, IdType::GoogleAccount, a).is_some()) {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::GoogleAccount,
                a,
                inv,
                format!(
                    "{a} is a Google account Play services recorded on this device ({}).",
                    l.name()
                ),
            )?;
        }
    }
    Ok(())
}
