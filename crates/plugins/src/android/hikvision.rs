//! Hik-Connect (`com.connect.enduser/databases/database.hik`), ALEAPP's `hikvision`
//! (`get_hikvision`, `get_hikvision_info`): the Hikvision CCTV recorders and cameras the app on
//! the phone reaches, by name, serial number, port and DDNS address, and their channels.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `deviceinfo` (`DeviceInfo` in older releases) | one `device` per recorder or camera ("Hik-Connect device <name> (serial <serial>)") | the device id, the name as the user gave it (often its IP address), serial number, port, channel count and first channel, IP channel count and first IP channel, DDNS address (`chDDNSAddress`, older `chDDNSAddr`) and port; whether a login user name and password are stored (never their values) |
//! | `channelinfo` (with `deviceinfo`) | one `device` per channel ("Hik-Connect channel <name or number> of <device>") | channel number and name, enabled as stored (1 enabled, 0 disabled), the device id with its name and serial number |
//!
//! Tables and columns are taken by name whatever their case (the app's releases spell them
//! differently); absent columns are NULL. A login of the recorder (`…UserName…`, `…Password…`
//! columns) is never selected: the query asks only whether one is stored. Identities: each
//! device with a serial number is a device of its own, `hikvision-device:<serial>` (computed in
//! the query) with its serial as identifier, so the same recorder reached from two phones —
//! or seized itself — is one device. The Hik-Connect account is not kept in this store; the
//! app's event log (`ezvizlog.db`) and album (`image.db`) are not read. A store with neither
//! table is noted, a device table without `nDeviceID` or a channel table without `nChannelNo`
//! too.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::calls::require_columns;
use crate::calls::{column_any_case, table_any_case};
use crate::drafts::RowPhenomena;
use crate::identity::{artefact_name, observe, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is Hik-Connect's device store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "database.hik" && l.path.contains("/com.connect.enduser/")
}

/// `<prefix>"<column>" AS <alias>` for the first of `names` the table has (any case), else
/// `NULL AS <alias>`.
fn pick(cols: &BTreeSet<String>, prefix: &str, names: &[&str], alias: &str) -> String {
    names
        .iter()
        .find_map(|n| column_any_case(cols, n))
        .map_or_else(
            || format!("NULL AS {alias}"),
            |c| format!("{prefix}\"{c}\" AS {alias}"),
        )
}

/// One `database.hik`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let devices = table_any_case(&schema, "deviceinfo");
    let channels = table_any_case(&schema, "channelinfo");
    if devices.is_none() && channels.is_none() {
        ctx.unparsed(
            &name,
            "not Hik-Connect's database.hik: none of the tables deviceinfo, channelinfo",
            None,
        )?;
        return Ok(());
    }
    let what = "Hik-Connect's database.hik";
    // the device table when it has its id (the channels name their device by it)
    let mut device_table = None;
    if let Some((dt, cols)) = devices {
        if let Some(id) = column_any_case(cols, "nDeviceID") {
            device_table = Some((dt, cols, id));
        } else {
            require_columns(ctx, &name, what, dt, cols, &["nDeviceID"])?;
        }
    }
    if let Some((dt, cols, id)) = device_table {
        read_devices(ctx, l, dt, cols, id)?;
    }
    if let Some((ct, cols)) = channels {
        let Some(no) = column_any_case(cols, "nChannelNo") else {
            require_columns(ctx, &name, what, ct, cols, &["nChannelNo"])?;
            return Ok(());
        };
        read_channels(ctx, l, ct, cols, no, device_table)?;
    }
    Ok(())
}

/// `deviceinfo`: one phenomenon per device, its serial number observed.
fn read_devices(
    ctx: &AgentCtx<'_>,
    l: &Located,
    dt: &str,
    cols: &BTreeSet<String>,
    id: &str,
) -> Result<(), RuntimeError> {
    let serial = column_any_case(cols, "chDeviceSerialNo")
        .map(|s| {
            format!(
                "CASE WHEN d.\"{s}\" IS NOT NULL AND d.\"{s}\" != '' THEN 'hikvision-device:' || d.\"{s}\" END AS qualified"
            )
        })
        .unwrap_or_else(|| "NULL AS qualified".to_string());
    let sql = format!(
        "SELECT d.rowid AS rid, d.\"{id}\" AS device_id, {}, {}, {serial}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM \"{dt}\" d ORDER BY d.rowid",
        pick(cols, "d.", &["chDeviceName"], "name"),
        pick(cols, "d.", &["chDeviceSerialNo"], "serial"),
        pick(cols, "d.", &["nDevicePort"], "port"),
        pick(cols, "d.", &["nChannelNum"], "channels"),
        pick(cols, "d.", &["nStartChan"], "first_channel"),
        pick(cols, "d.", &["nIPChannelNum"], "ip_channels"),
        pick(cols, "d.", &["nStartIPChan"], "first_ip_channel"),
        pick(cols, "d.", &["chDDNSAddress", "chDDNSAddr"], "ddns"),
        pick(cols, "d.", &["nDDNSPort"], "ddns_port"),
        crate::calls::stored_flag(
            "d.",
            &crate::calls::columns_marked(cols, &["username", "user_name"]),
            "user_name"
        ),
        crate::calls::stored_flag(
            "d.",
            &crate::calls::columns_marked(cols, &["password", "passwd", "pwd"]),
            "password"
        ),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: dt,
            category: "device",
            what: "a Hikvision recorder or camera the Hik-Connect app on the phone reaches (the name is the one the user gave it, often its IP address; a stored login is said, never read)",
            title: &|t, row| device_title(t, row, "name", "serial", "device_id"),
            fields: &[
                ("device_id", FactType::Identifier, "device id"),
                ("name", FactType::Name, "name"),
                ("serial", FactType::Serial, "serial number"),
                ("port", FactType::Text, "port"),
                ("channels", FactType::Count, "channels"),
                ("first_channel", FactType::Text, "first channel"),
                ("ip_channels", FactType::Count, "IP channels"),
                ("first_ip_channel", FactType::Text, "first IP channel"),
                ("ddns", FactType::Url, "DDNS address"),
                ("ddns_port", FactType::Text, "DDNS port"),
                ("user_name", FactType::Text, "login user name"),
                ("password", FactType::Text, "login password"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            let (Some(q), Some(serial)) = (t.get(row, "qualified"), t.get(row, "serial")) else {
                return Ok(());
            };
            let device = t.get(row, "name").unwrap_or("a Hikvision device");
            observe(
                ctx,
                q,
                EntityKind::Device,
                &format!("{device} (serial {serial})"),
                IdType::Serial,
                serial,
                inv,
                format!(
                    "The serial number of {device}, a Hikvision recorder or camera the Hik-Connect app on the phone reaches ({dt} of {file})."
                ),
            )?;
            Ok(())
        },
    )
}

/// `Hik-Connect device <name> (serial <serial>)`, by what the row has.
fn device_title(t: &Table, row: &[Option<String>], name: &str, serial: &str, id: &str) -> String {
    match (raw(t, row, name), raw(t, row, serial)) {
        (Some(n), Some(s)) => format!("Hik-Connect device {n} (serial {s})"),
        (Some(n), None) => format!("Hik-Connect device {n}"),
        (None, Some(s)) => format!("Hik-Connect device serial {s}"),
        (None, None) => format!(
            "Hik-Connect device {}",
            raw(t, row, id).unwrap_or_else(|| "?".into())
        ),
    }
}

/// `channelinfo`: one phenomenon per channel, with its device's name and serial number.
fn read_channels(
    ctx: &AgentCtx<'_>,
    l: &Located,
    ct: &str,
    cols: &BTreeSet<String>,
    no: &str,
    devices: Option<(&str, &BTreeSet<String>, &str)>,
) -> Result<(), RuntimeError> {
    let of_device = |want: &str, alias: &str| match (devices, column_any_case(cols, "nDeviceID")) {
        (Some((dt, dcols, id)), Some(cid)) => match column_any_case(dcols, want) {
            Some(c) => format!(
                "(SELECT d.\"{c}\" FROM \"{dt}\" d WHERE d.\"{id}\" = c.\"{cid}\" LIMIT 1) AS {alias}"
            ),
            None => format!("NULL AS {alias}"),
        },
        _ => format!("NULL AS {alias}"),
    };
    let sql = format!(
        "SELECT c.rowid AS rid, c.\"{no}\" AS channel_no, {}, {}, {}, {}, {} FROM \"{ct}\" c ORDER BY c.rowid",
        pick(cols, "c.", &["chChannelName"], "name"),
        pick(cols, "c.", &["nEnable"], "enabled"),
        pick(cols, "c.", &["nDeviceID"], "device_id"),
        of_device("chDeviceName", "device_name"),
        of_device("chDeviceSerialNo", "device_serial"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: ct,
            category: "device",
            what: "a channel (a camera input) of a Hikvision recorder the Hik-Connect app on the phone reaches (enabled as stored: 1 enabled, 0 disabled; the device's name and serial number from its deviceinfo row)",
            title: &|t, row| {
                let channel = raw(t, row, "name")
                    .or_else(|| raw(t, row, "channel_no"))
                    .unwrap_or_else(|| "?".into());
                let device = raw(t, row, "device_name")
                    .or_else(|| raw(t, row, "device_id").map(|d| format!("device {d}")))
                    .unwrap_or_else(|| "an unknown device".into());
                format!("Hik-Connect channel {channel} of {device}")
            },
            fields: &[
                ("channel_no", FactType::Count, "channel number"),
                ("name", FactType::Name, "channel name"),
                ("enabled", FactType::Text, "enabled"),
                ("device_id", FactType::Identifier, "device id"),
                ("device_name", FactType::Name, "device"),
                ("device_serial", FactType::Serial, "device serial number"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}
