//! Google Cast (`com.google.android.gms/databases/cast.db`), ALEAPP's `googleCast`: the Cast
//! receivers (televisions, speakers, Chromecasts) Play services discovered on the networks the
//! phone joined. One `device` phenomenon per `DeviceInfo` row — friendly name, model, device id
//! (the SSDP UDN), cloud device id, version, capabilities, receiver metrics id, service instance
//! name, address and port, supported criteria, remote control notification status, the hotspot
//! BSSID, last published, discovered and discovered over Bluetooth LE (Unix ms). A receiver seen
//! places the phone on a network with it (a home, a hotel room); it does not say the user cast
//! to it (said). Columns are taken by name (absent ones NULL; Google's own `cloud_devcie_id`
//! spelling read as written); a table without `device_id` is noted. Identities: none observed (a
//! receiver's name is its owner's choice).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::outputs::raw;

/// Whether `l` is Play services' Cast store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "cast.db" && l.path.contains("/com.google.android.gms/")
}

/// One `cast.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Google Cast's cast.db",
            table: "DeviceInfo",
            required: &["device_id"],
            optional: &[
                "friendly_name",
                "model_name",
                "device_version",
                "capabilities",
                "receiver_metrics_id",
                "service_instance_name",
                "service_address",
                "service_port",
                "supported_criteria",
                "rcn_enabled_status",
                "hotspot_bssid",
                "cloud_devcie_id",
                "last_published_timestamp_millis",
                "last_discovered_timestamp_millis",
                "last_discovered_by_ble_timestamp_millis",
            ],
            rows: "Cast receivers",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let shown = raw(t, row, "friendly_name")
            .or_else(|| raw(t, row, "model_name"))
            .or_else(|| raw(t, row, "device_id"))
            .unwrap_or_else(|| "receiver".into());
        let mut d = Draft::new("device", format!("Google Cast receiver {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("friendly_name", FactType::Name, "name"),
                ("model_name", FactType::Name, "model"),
                ("device_id", FactType::Identifier, "device id (SSDP UDN)"),
                ("cloud_devcie_id", FactType::Identifier, "cloud device id"),
                ("device_version", FactType::Text, "version"),
                ("capabilities", FactType::Text, "capabilities"),
                (
                    "receiver_metrics_id",
                    FactType::Identifier,
                    "receiver metrics id",
                ),
                ("service_instance_name", FactType::Text, "service instance"),
                ("service_address", FactType::Text, "address"),
                ("service_port", FactType::Text, "port"),
                ("supported_criteria", FactType::Text, "supported criteria"),
                (
                    "rcn_enabled_status",
                    FactType::Text,
                    "remote control notifications",
                ),
                ("hotspot_bssid", FactType::Identifier, "hotspot BSSID"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                (
                    "last_published_timestamp_millis",
                    "Cast receiver last published",
                ),
                (
                    "last_discovered_timestamp_millis",
                    "Cast receiver last discovered",
                ),
                (
                    "last_discovered_by_ble_timestamp_millis",
                    "Cast receiver last discovered over Bluetooth LE",
                ),
            ],
        );
        d.interpretation = format!(
            "DeviceInfo row {} of {name}: a Google Cast receiver Play services discovered on a network the phone was on (it places the phone near it; it does not say the user cast to it); {}.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
