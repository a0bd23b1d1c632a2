//! Android Auto (`com.google.android.projection.gearhead/databases/carservicedata.db`), ALEAPP's
//! `androidauto`: the cars the phone was allowed to project to. One `device` phenomenon per
//! `allowedcars` row — the car's manufacturer, model and year, the head unit's make, model and
//! software version, the vehicle's client id, the car's Bluetooth address, the Wi-Fi network it
//! offers (SSID, BSSID) and the time of the connection (`connectiontime`, Unix ms). The Wi-Fi
//! password is never read: the query asks only whether one is stored.
//!
//! The car is observed by its Bluetooth address as the device `bluetooth:<address>` — the
//! context the Bluetooth pairing readers of both platforms and Samsung SmartThings give a peer —
//! so the same car on two examined phones (a shared car, a suspect's and a victim's phone)
//! meets. Columns are taken by name (absent ones NULL); a store without `allowedcars` or its
//! columns is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::observe;
use crate::outputs::raw;

/// Whether `l` is Android Auto's car store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "carservicedata.db" && l.path.contains("/com.google.android.projection.gearhead/")
}

/// One `carservicedata.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Android Auto's carservicedata.db",
            table: "allowedcars",
            required: &["manufacturer", "model"],
            optional: &[
                "connectiontime",
                "modelyear",
                "bluetoothaddress",
                "wifissid",
                "wifibssid",
                "headUnitMake",
                "headUnitModel",
                "headUnitSoftwareVersion",
                "vehicleidclient",
            ],
            rows: "Android Auto cars",
        },
        // the password itself is never read: only whether one is stored
        |cols| {
            vec![if cols.contains("wifipassword") {
                "(wifipassword IS NOT NULL AND wifipassword != '') AS wifi_password_stored".into()
            } else {
                "NULL AS wifi_password_stored".into()
            }]
        },
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let car = [raw(t, row, "manufacturer"), raw(t, row, "model")]
            .into_iter()
            .flatten()
            .filter(|v| !v.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let car = if car.is_empty() {
            "car".to_string()
        } else {
            car
        };
        let mut d = Draft::new("device", format!("Android Auto car {car}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("manufacturer", FactType::Name, "manufacturer"),
                ("model", FactType::Name, "model"),
                ("modelyear", FactType::Text, "year"),
                ("headUnitMake", FactType::Name, "head unit make"),
                ("headUnitModel", FactType::Name, "head unit model"),
                (
                    "headUnitSoftwareVersion",
                    FactType::Text,
                    "head unit software",
                ),
                ("vehicleidclient", FactType::Identifier, "vehicle client id"),
                (
                    "bluetoothaddress",
                    FactType::Identifier,
                    "Bluetooth address",
                ),
                ("wifissid", FactType::Name, "Wi-Fi SSID"),
                ("wifibssid", FactType::Identifier, "Wi-Fi BSSID"),
            ],
        );
        let time = t.get(row, "connectiontime");
        d.time(
            time,
            unix_millis(time),
            "Android Auto connected to the car",
            inv,
        );
        let stored = t.get(row, "wifi_password_stored") == Some("1");
        d.interpretation = format!(
            "allowedcars row {} of {name}: a car the phone was allowed to project to with Android Auto; {}{}{}.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; "),
            time.map(|t| format!("; connected {t} (Unix ms)"))
                .unwrap_or_default(),
            if stored {
                "; a Wi-Fi password for the car's network is stored (not read)"
            } else {
                ""
            }
        );
        record_draft(ctx, d)?;
        if let Some(bt) = t.get(row, "bluetoothaddress").filter(|m| !m.is_empty()) {
            observe(
                ctx,
                &format!("bluetooth:{}", bt.to_ascii_uppercase()),
                EntityKind::Device,
                &car,
                IdType::BluetoothAddress,
                bt,
                inv,
                format!("{name} lists the Android Auto car {car} with the Bluetooth address {bt}."),
            )?;
        }
    }
    Ok(())
}
