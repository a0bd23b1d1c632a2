//! Samsung SmartThings (`com.samsung.android.oneconnect/databases/QcDB.db`), ALEAPP's
//! `samsungSmartThings`: the devices the phone found or connected to through SmartThings —
//! televisions, earbuds, watches, speakers, appliances.
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `devices` | one `device` per row | connection time (`timeStamp`, Unix ms), name, type, network type, Wi-Fi Direct, Bluetooth and Bluetooth LE addresses; a Bluetooth address the device `bluetooth:<address>` (as the phone's own pairings name it, so the same earbuds or television in another examined phone's Bluetooth list meet it) |
//!
//! Columns are taken by name (absent ones NULL, as ALEAPP's query would fail and it reads none);
//! a `devices` table without `deviceName` is noted. The LE address is kept as a fact only: an LE
//! address may be random, no identifier.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::observe;
use crate::outputs::raw;

/// Whether `l` is SmartThings' store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "QcDB.db" && l.path.contains("/com.samsung.android.oneconnect/")
}

/// One `QcDB.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Samsung SmartThings' QcDB.db",
            table: "devices",
            required: &["deviceName"],
            optional: &[
                "timeStamp",
                "deviceType",
                "netType",
                "wifiP2pMac",
                "btMac",
                "bleMac",
            ],
            rows: "SmartThings devices",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let device = raw(t, row, "deviceName").unwrap_or_else(|| "unnamed".into());
        let mut d = Draft::new("device", format!("SmartThings device {device}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("deviceName", FactType::Name, "name"),
                ("deviceType", FactType::Text, "type"),
                ("netType", FactType::Text, "network type"),
                ("wifiP2pMac", FactType::Identifier, "Wi-Fi Direct address"),
                ("btMac", FactType::Identifier, "Bluetooth address"),
                ("bleMac", FactType::Identifier, "Bluetooth LE address"),
            ],
        );
        let time = t.get(row, "timeStamp");
        d.time(time, unix_millis(time), "SmartThings device connected", inv);
        d.interpretation = format!(
            "devices row {} of {name}: a device Samsung SmartThings found or connected to; {}{}.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; "),
            time.map(|t| format!("; connected {t} (Unix ms)"))
                .unwrap_or_default()
        );
        record_draft(ctx, d)?;
        // the device by its classic Bluetooth address, as the phone's own pairings name it
        if let Some(bt) = t.get(row, "btMac").filter(|m| !m.is_empty()) {
            observe(
                ctx,
                &format!("bluetooth:{}", bt.to_ascii_uppercase()),
                EntityKind::Device,
                &device,
                IdType::BluetoothAddress,
                bt,
                inv,
                format!(
                    "{name} lists the SmartThings device {device} with the Bluetooth address {bt}."
                ),
            )?;
        }
    }
    Ok(())
}
