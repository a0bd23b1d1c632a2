//! Device Health Services (`com.google.android.apps.turbo`), ALEAPP's
//! `deviceHealthServices_Battery` (`Turbo_Bluetooth`) and `deviceHealthServices_AppUsage`
//! (`get_Turbo_AppUsage`): the Bluetooth devices that connected to the phone with their battery
//! and volume over time, and the times each app was launched. (The phone's own battery,
//! `turbo.db`, is read by [`super::apps::turbo`].)
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/bluetooth.db`: `device_address` | one `bluetooth` per device ("Bluetooth device <address> (Device Health)") | Bluetooth address, device identifier as stored, the store's device index |
//! | `databases/bluetooth.db`: `battery_event` (with `device_address`) | one `bluetooth` per reading ("Bluetooth device <address> battery <level>%") | the device's address and identifier (by its index), battery level, volume level, the phone's time zone then; when (`timestamp_millis`, Unix ms) |
//! | `shared_prefs/app_usage_stats.xml` | one `app_usage` per launch ("App launched: <package> (Device Health)") | the package, the preference it is kept under; when (Unix ms) |
//!
//! A reading says the device was connected to the phone at that moment (Device Health Services
//! samples connected devices' batteries); the device identifier and the volume level are kept
//! as stored (their meaning is the app's). Each launch preference is written
//! `<package>#<time>,<time>,…`; a preference of another form (a setting) is noted by name, not
//! read. Identities: each address of `device_address` is the device `bluetooth:<address>` — a
//! headset, car or watch that connected to the phone: the same device in another phone's
//! pairings meets it (the normaliser refuses placeholders). Not read: `turbo.db` here (see
//! above). A `bluetooth.db` with neither table is noted; columns are taken by name (absent ones
//! NULL: older releases keep fewer, and call the time zone column `timezone`). At most
//! [`crate::calls::ROW_CAP`] rows or launches a store.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::calls::{ROW_CAP, column_or_null};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_millis};
use crate::identity::{artefact_name, observe, schema_on};
use crate::outputs::raw;

/// Device Health Services' data folder.
const PACKAGE: &str = "/com.google.android.apps.turbo/";

/// Whether `l` is Device Health Services' Bluetooth store.
pub fn is_bluetooth(l: &Located) -> bool {
    l.name() == "bluetooth.db" && l.path.contains(PACKAGE) && l.path.contains("/databases/")
}

/// Whether `l` is Device Health Services' app launch preferences.
pub fn is_app_usage(l: &Located) -> bool {
    l.name() == "app_usage_stats.xml"
        && l.path.contains(PACKAGE)
        && l.path.contains("/shared_prefs/")
}

/// One `bluetooth.db`: its devices, then their readings.
pub fn bluetooth(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key("device_address") && !schema.contains_key("battery_event") {
        ctx.unparsed(
            &name,
            "not Device Health Services' bluetooth.db: neither device_address nor battery_event",
            None,
        )?;
        return Ok(());
    }
    let file = l.name().to_string();
    super::record_table(
        ctx,
        l,
        &schema,
        "bd_addr",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "device_address",
            category: "bluetooth",
            what: "a Bluetooth device that connected to the phone, as Device Health Services keeps it to follow its battery (the identifier as stored)",
            title: &|t, row| {
                format!(
                    "Bluetooth device {} (Device Health)",
                    raw(t, row, "bd_addr").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("bd_addr", FactType::Identifier, "Bluetooth address"),
                (
                    "device_identifier",
                    FactType::Identifier,
                    "device identifier",
                ),
                ("device_idx", FactType::Identifier, "device index"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            let Some(addr) = t.get(row, "bd_addr").filter(|a| !a.trim().is_empty()) else {
                return Ok(());
            };
            observe(
                ctx,
                &format!("bluetooth:{}", addr.trim().to_ascii_uppercase()),
                EntityKind::Device,
                "Bluetooth device",
                IdType::BluetoothAddress,
                addr,
                inv,
                format!(
                    "device_address of {file} (Device Health Services) lists the Bluetooth device {addr}: a device that connected to the phone."
                ),
            )?;
            Ok(())
        },
    )?;
    let Some(cols) = schema.get("battery_event") else {
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Device Health Services' Bluetooth battery readings",
        "battery_event",
        cols,
        &["timestamp_millis"],
    )? {
        return Ok(());
    }
    let devices = schema
        .get("device_address")
        .filter(|d| d.contains("device_idx"))
        .filter(|_| cols.contains("device_idx"));
    let of_device = |col: &str, alias: &str| match devices {
        Some(d) if d.contains(col) => format!(
            "(SELECT d.{col} FROM device_address d WHERE d.device_idx = e.device_idx LIMIT 1) AS {alias}"
        ),
        _ => format!("NULL AS {alias}"),
    };
    let zone = if cols.contains("time_zone") {
        "e.time_zone AS time_zone".to_string()
    } else {
        column_or_null(cols, "e.", "timezone", "time_zone")
    };
    let sql = format!(
        "SELECT e.rowid AS rid, e.timestamp_millis AS timestamp_millis, {}, {}, {}, {}, {}, {zone} FROM battery_event e ORDER BY e.rowid",
        column_or_null(cols, "e.", "device_idx", "device_idx"),
        of_device("bd_addr", "address"),
        of_device("device_identifier", "identifier"),
        column_or_null(cols, "e.", "battery_level", "battery_level"),
        column_or_null(cols, "e.", "volume_level", "volume_level"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "battery_event",
            category: "bluetooth",
            what: "the battery of a Bluetooth device connected to the phone, as Device Health Services sampled it (the device named by its index in device_address; volume as stored; the phone's time zone then; the time Unix milliseconds)",
            title: &|t, row| {
                let who = raw(t, row, "address")
                    .or_else(|| raw(t, row, "device_idx").map(|i| format!("#{i}")))
                    .unwrap_or_else(|| "?".into());
                match raw(t, row, "battery_level") {
                    Some(level) => format!("Bluetooth device {who} battery {level}%"),
                    None => format!("Bluetooth device {who} battery"),
                }
            },
            fields: &[
                ("address", FactType::Identifier, "Bluetooth address"),
                ("identifier", FactType::Identifier, "device identifier"),
                ("device_idx", FactType::Identifier, "device index"),
                ("battery_level", FactType::Count, "battery %"),
                ("volume_level", FactType::Count, "volume level"),
                ("time_zone", FactType::Text, "time zone"),
            ],
            times: &[(
                "timestamp_millis",
                "Bluetooth device battery sampled",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// A launch preference's value, `<package>#<time>,<time>,…`: the package and each time.
fn launches(value: &str) -> Option<(&str, Vec<&str>)> {
    let (package, times) = value.split_once('#')?;
    let package = package.trim();
    let times: Vec<&str> = times
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    (!package.is_empty() && !times.is_empty()).then_some((package, times))
}

/// `app_usage_stats.xml`: one phenomenon per launch.
pub fn app_usage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "Device Health", None)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let mut recorded = 0u64;
    let mut other: Vec<&str> = Vec::new();
    let mut capped = false;
    'prefs: for (key, value) in &prefs {
        let Some((package, times)) = launches(value) else {
            other.push(key.as_str());
            continue;
        };
        for time in times {
            if recorded >= ROW_CAP {
                capped = true;
                break 'prefs;
            }
            let mut d = Draft::new(
                "app_usage",
                format!("App launched: {package} (Device Health)"),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Identifier, Some(package), &inv);
            if key != package {
                d.fact(FactType::Text, Some(key.as_str()), &inv);
            }
            d.time(
                Some(time),
                unix_millis(Some(time)),
                "App launched (Device Health)",
                &inv,
            );
            d.interpretation = format!(
                "{}: Device Health Services recorded a launch of the app {package} at {time} (Unix milliseconds), among the launch times it keeps for the app (preference {key}).",
                l.path
            );
            record_draft(ctx, d)?;
            recorded += 1;
        }
    }
    if capped {
        ctx.unparsed(
            &name,
            &format!("only the first {ROW_CAP} app launches were read"),
            Some(&inv.record.invocation_id),
        )?;
    }
    if !other.is_empty() {
        ctx.unparsed(
            &name,
            &format!(
                "{} preferences hold no launch list (<package>#<times>) and were not read: {}",
                other.len(),
                other
                    .iter()
                    .take(10)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::launches;

    #[test]
    fn launch_preferences() {
        assert_eq!(
            launches("com.whatsapp#1714550400000,1714554000000"),
            Some(("com.whatsapp", vec!["1714550400000", "1714554000000"]))
        );
        assert_eq!(launches("com.whatsapp#"), None);
        assert_eq!(launches("no times here"), None);
        assert_eq!(
            launches("org.example#12, x ,34"),
            Some(("org.example", vec!["12", "34"]))
        );
    }
}
