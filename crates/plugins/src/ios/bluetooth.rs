//! Bluetooth devices the phone knows, with the fields of iLEAPP's `bluetooth` modules:
//!
//! - `com.apple.MobileBluetooth.ledevices.paired.db` (a system group container's
//!   `Library/Database/`), `PairedDevices`: one phenomenon per paired Bluetooth LE device —
//!   UUID, name, where the name came from, address, resolved address, last seen and last
//!   connected (Unix seconds);
//! - `com.apple.MobileBluetooth.ledevices.other.db`, `OtherDevices`: one per device seen nearby
//!   but never paired — UUID, name, address, last seen;
//! - `Library/Preferences/com.apple.MobileBluetooth.devices.plist`: one per classic (BR/EDR)
//!   paired device, keyed by its address — name, default name, last seen (Unix seconds),
//!   product and vendor id.
//!
//! A car kit, a headset, a watch or another phone: each is a device the phone was near or
//! joined. A classic address or a public LE address is observed as the device
//! `bluetooth:<address>` (`bluetooth_address`), which another examined phone's own adapter or
//! its pairing with the same car meets; a random LE address changes and names no device. A
//! peer's name is what its owner typed (often a person's: "Leung's AirPods"): the entity's
//! label and a fact, never a person's identifier. Schema drift:
//! the table must have `Name` and `Address` (else noted, naming them); the other columns are
//! read when present.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run, raw};
use crate::calls::column_or_null;
use crate::outputs::{in_json, json_scalar};

/// The two device databases: (file, table, what its rows are).
pub(super) const DATABASES: [(&str, &str, &str); 2] = [
    (
        "com.apple.MobileBluetooth.ledevices.paired.db",
        "PairedDevices",
        "paired",
    ),
    (
        "com.apple.MobileBluetooth.ledevices.other.db",
        "OtherDevices",
        "seen nearby, not paired",
    ),
];

/// Triage of the Bluetooth databases and the paired-devices plist of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for (file, table, what) in DATABASES {
        run.each(file, |find, path| devices(run, find, path, table, what))?;
    }
    run.each("com.apple.MobileBluetooth.devices.plist", |find, path| {
        classic(run, find, path)
    })
}

fn devices(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    table: &str,
    what: &str,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[table])? else {
        return Ok(());
    };
    if !schema.require(run, table, &["Name", "Address"])? {
        return Ok(());
    }
    let c = schema.columns(table);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let select = format!(
        "SELECT rowid AS rid, Name AS name, Address AS address, {}, {}, {}, {}, {} FROM {table}",
        col("Uuid", "uuid"),
        col("NameOrigin", "origin"),
        col("ResolvedAddress", "resolved"),
        col("LastSeenTime", "seen"),
        col("LastConnectionTime", "connected"),
    );
    let Some(paged) = run.paged(path, &select, "rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let name = raw(t, row, "name");
        let address = raw(t, row, "address");
        let mut d = Draft::new(
            "bluetooth",
            format!(
                "Bluetooth device {} ({what}): {}",
                address.as_deref().unwrap_or("?"),
                name.as_deref().unwrap_or("(no name)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = Vec::new();
        for (col, fact_type, label) in [
            ("name", FactType::Name, "name"),
            ("address", FactType::Identifier, "address"),
            ("uuid", FactType::Identifier, "UUID"),
            ("origin", FactType::Count, "name origin"),
            ("resolved", FactType::Identifier, "resolved address"),
        ] {
            if let Some(v) = raw(t, row, col).filter(|v| !v.is_empty()) {
                d.fact(fact_type, Some(&v), inv);
                said.push(format!("{label} {v}"));
            }
        }
        for (col, desc) in [
            ("seen", "Bluetooth device last seen"),
            ("connected", "Bluetooth device last connected"),
        ] {
            let v = raw(t, row, col).filter(|v| v != "0");
            d.time(
                v.as_deref(),
                crate::drafts::unix_seconds(v.as_deref()),
                desc,
                inv,
            );
        }
        d.interpretation = format!(
            "{table} of {path}: a Bluetooth LE device the phone {}; {}. Times are Unix seconds.",
            if what == "paired" {
                "paired with"
            } else {
                "saw nearby without pairing"
            },
            said.join("; ")
        );
        run.record(d)?;
        if let Some(a) = &address {
            peer(run, a, name.as_deref(), inv, path)?;
        }
    }
    Ok(())
}

/// `com.apple.MobileBluetooth.devices.plist`: the classic devices, keyed by address.
fn classic(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, value)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(map) = value.as_object() else {
        run.ctx.unparsed(
            path,
            "could not parse the Bluetooth devices because the plist is not a dictionary of addresses",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for (address, device) in map.iter().take(ENTRY_CAP as usize) {
        let get = |k: &str| json_scalar(device.get(k));
        let name = get("Name").or_else(|| get("DefaultName"));
        let mut d = Draft::new(
            "bluetooth",
            format!(
                "Bluetooth device {address} (paired): {}",
                name.as_deref().unwrap_or("(no name)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&in_json(address)), &inv);
        let mut said = vec![format!("address {address}")];
        for (key, fact_type, label) in [
            ("Name", FactType::Name, "name"),
            ("DefaultName", FactType::Name, "default name"),
            ("DeviceIdProduct", FactType::Count, "product id"),
            ("DeviceIdVendor", FactType::Count, "vendor id"),
        ] {
            if let Some(v) = get(key) {
                d.fact(fact_type, Some(&v), &inv);
                said.push(format!("{label} {v}"));
            }
        }
        let seen = device
            .get("LastSeenTime")
            .filter(|v| v.as_f64().is_some_and(|t| t > 0.0))
            .and_then(|v| json_scalar(Some(v)));
        d.time(
            seen.as_deref(),
            seen.as_ref().map(|_| TimeEncoding::UnixSeconds),
            "Bluetooth device last seen",
            &inv,
        );
        d.interpretation = format!(
            "{path}: a classic Bluetooth device paired with the phone; {}. LastSeenTime is Unix seconds.",
            said.join("; ")
        );
        run.record(d)?;
        peer(run, &in_json(address), name.as_deref(), &inv, path)?;
    }
    Ok(())
}

/// The peer `written` (as the cited output writes its address) as the device
/// `bluetooth:<address>`, when the address is a stable one.
pub(crate) fn peer(
    run: &Run<'_, '_>,
    written: &str,
    name: Option<&str>,
    inv: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let Ok(address) = masf_graph::identifiers::normalize(IdType::BluetoothAddress, written, None)
    else {
        return Ok(());
    };
    run.observe(
        &format!("bluetooth:{address}"),
        EntityKind::Device,
        name.unwrap_or("Bluetooth device"),
        IdType::BluetoothAddress,
        written,
        inv,
        format!(
            "{} lists the Bluetooth device {address}.",
            super::file_name(path)
        ),
    )?;
    Ok(())
}
