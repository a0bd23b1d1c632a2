//! Hik-Connect (Hikvision's CCTV app) for iOS, iLEAPP's `hikvision` (`hikvisionChannels`,
//! `hikvisionInfo`, `hikvisionActivity`): the Hikvision recorders and cameras the app on the
//! phone reaches, by name, serial number, port and DDNS address, their channels, and the app's
//! usage log (live views and playbacks among its records).
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `Documents/database.hik` `DeviceInfo` | one `device` per recorder or camera ("Hik-Connect device <name> (serial <serial>)") | device id, name as the user gave it (often its IP address), serial number, port, channel count and first channel, IP channel count and first IP channel, DDNS address (`chDDNSAddr`, or `chDDNSAddress` as the Android app spells it) and port, the login user name (a column whose name holds `username`); whether a login password is stored (never its value) |
//! | `database.hik` `ChannelInfo` (with `DeviceInfo`) | one `device` per channel ("Hik-Connect channel <name or number> of <device>") | channel number and name, enabled as stored (1 enabled, 0 disabled), the device id with its name and serial number |
//! | `Documents/DCLOG/YSDCLogItem.sqlite` `YSDCLogItem` | one `app_usage` per record ("Hik-Connect activity <row>: <record type>") | the record type (`systemName`), its data as stored; when (`time`, Unix milliseconds) |
//!
//! The stores are read where iLEAPP finds them: `database.hik` directly in a `Documents`
//! folder, `YSDCLogItem.sqlite` in `Documents/DCLOG/` (the names are Hikvision's own; a file of
//! the name elsewhere is passed over). Tables and columns are taken by name whatever their case
//! (the app's releases spell them differently; absent columns NULL); a `database.hik` with
//! neither table is noted, a device table without `nDeviceID` or a channel table without
//! `nChannelNo` too; a log store without `YSDCLogItem`, or a `YSDCLogItem` without `time` and
//! `systemName`, is noted. The usage log's records are the app's own telemetry: iLEAPP reads
//! them as the user's interaction with the app — a live view or a playback of a recorder's
//! footage among them — not easy to pin to one action; its data is recorded as stored.
//!
//! Not read: the recorders' login passwords (only whether one is stored, by columns whose
//! names say password), the pictures and videos under `Documents/YYYY/MM/DD/` (iLEAPP's
//! `hikvisionMedia`). Identities: each device with a serial number is a device of its own,
//! `hikvision-device:<serial>` (computed in the query; the Android reader's namespace), so a
//! recorder reached from two phones — or seized itself — is one device. The Hik-Connect
//! account is not kept in these stores; a recorder's login user name is the recorder's
//! account, not a person: no identity.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::dmssios::{need, pick, tables};
use super::{Draft, Run, file_name};
use crate::calls::{column_any_case, columns_marked, stored_flag, table_any_case};
use crate::drafts::unix_millis;
use crate::outputs::{Table, raw};

/// Where the stores lie.
const STORE_TAIL: &str = "/Documents/database.hik";
const LOG_TAIL: &str = "/Documents/DCLOG/YSDCLogItem.sqlite";

/// Triage of every Hik-Connect store and usage log of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    if let Some((find, paths)) = run.find("database.hik")? {
        for path in paths.iter().filter(|p| p.ends_with(STORE_TAIL)) {
            store(run, &find, path)?;
        }
    }
    if let Some((find, paths)) = run.find("YSDCLogItem.sqlite")? {
        for path in paths.iter().filter(|p| p.ends_with(LOG_TAIL)) {
            usage_log(run, &find, path)?;
        }
    }
    Ok(())
}

/// One `database.hik`.
fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(tables) = tables(run, path)? else {
        return Ok(());
    };
    let devices = table_any_case(&tables, "DeviceInfo");
    let channels = table_any_case(&tables, "ChannelInfo");
    if devices.is_none() && channels.is_none() {
        run.ctx.unparsed(
            path,
            "could not parse Hik-Connect's database.hik because it has none of the tables DeviceInfo, ChannelInfo",
            None,
        )?;
        return Ok(());
    }
    let what = "Hik-Connect's database.hik";
    let mut device_table = None;
    if let Some((dt, cols)) = devices
        && need(run, path, what, dt, cols, &["nDeviceID"])?
    {
        let id = column_any_case(cols, "nDeviceID").unwrap_or("nDeviceID");
        device_table = Some((dt, cols, id));
        read_devices(run, find, path, dt, cols, id)?;
    }
    if let Some((ct, cols)) = channels
        && need(run, path, what, ct, cols, &["nChannelNo"])?
    {
        read_channels(run, find, path, ct, cols, device_table)?;
    }
    Ok(())
}

/// `DeviceInfo`: one phenomenon per device, its serial number observed.
fn read_devices(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    dt: &str,
    cols: &BTreeSet<String>,
    id: &str,
) -> Result<(), RuntimeError> {
    let qualified = column_any_case(cols, "chDeviceSerialNo")
        .map(|s| {
            format!(
                "CASE WHEN d.\"{s}\" IS NOT NULL AND d.\"{s}\" != '' THEN 'hikvision-device:' || d.\"{s}\" END AS qualified"
            )
        })
        .unwrap_or_else(|| "NULL AS qualified".to_string());
    // the login's user name (a recorder's account), never its password
    let users: Vec<&str> = columns_marked(cols, &["username", "user_name"]);
    let held = columns_marked(cols, &["password", "passwd", "pwd"]);
    let sql = format!(
        "SELECT * FROM (SELECT d.rowid AS rid, d.\"{id}\" AS device_id, {}, {}, {qualified}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM \"{dt}\" d) q",
        pick(cols, "d.", &["chDeviceName"], "name"),
        pick(cols, "d.", &["chDeviceSerialNo"], "serial"),
        pick(cols, "d.", &["nDevicePort"], "port"),
        pick(cols, "d.", &["nChannelNum"], "channels"),
        pick(cols, "d.", &["nStartChan"], "first_channel"),
        pick(cols, "d.", &["nIPChannelNum"], "ip_channels"),
        pick(cols, "d.", &["nStartIPChan"], "first_ip_channel"),
        pick(cols, "d.", &["chDDNSAddr", "chDDNSAddress"], "ddns"),
        pick(cols, "d.", &["nDDNSPort"], "ddns_port"),
        pick(cols, "d.", &users, "user_name"),
        stored_flag("d.", &held, "password"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let mut d = Draft::new("device", device_title(t, row));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("device_id", FactType::Identifier, "device id"),
                ("name", FactType::Name, "name"),
                ("serial", FactType::Serial, "serial number"),
                ("port", FactType::Text, "port"),
                ("channels", FactType::Count, "channels"),
                ("first_channel", FactType::Text, "first channel"),
                ("ip_channels", FactType::Count, "IP channels"),
                ("first_ip_channel", FactType::Text, "first IP channel"),
                ("ddns", FactType::Text, "DDNS address"),
                ("ddns_port", FactType::Text, "DDNS port"),
                ("user_name", FactType::Text, "login user name"),
                ("password", FactType::Text, "login password"),
            ],
        );
        d.interpretation = format!(
            "{dt} row {} of {file}: a Hikvision recorder or camera the Hik-Connect app on the phone reaches — {}. The name is the one the user gave it, often its IP address; a stored login password is said, never read.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
        );
        run.record(d)?;
        let (Some(q), Some(serial)) = (t.get(row, "qualified"), t.get(row, "serial")) else {
            continue;
        };
        let device = t.get(row, "name").unwrap_or("a Hikvision device");
        run.observe(
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
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Hik-Connect devices")
}

/// `Hik-Connect device <name> (serial <serial>)`, by what the row has.
fn device_title(t: &Table, row: &[Option<String>]) -> String {
    match (raw(t, row, "name"), raw(t, row, "serial")) {
        (Some(n), Some(s)) => format!("Hik-Connect device {n} (serial {s})"),
        (Some(n), None) => format!("Hik-Connect device {n}"),
        (None, Some(s)) => format!("Hik-Connect device serial {s}"),
        (None, None) => format!(
            "Hik-Connect device {}",
            raw(t, row, "device_id").unwrap_or_else(|| "?".into())
        ),
    }
}

/// `ChannelInfo`: one phenomenon per channel, with its device's name and serial number.
fn read_channels(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    ct: &str,
    cols: &BTreeSet<String>,
    devices: Option<(&str, &BTreeSet<String>, &str)>,
) -> Result<(), RuntimeError> {
    let no = column_any_case(cols, "nChannelNo").unwrap_or("nChannelNo");
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
        "SELECT * FROM (SELECT c.rowid AS rid, c.\"{no}\" AS channel_no, {}, {}, {}, {}, {} FROM \"{ct}\" c) q",
        pick(cols, "c.", &["chChannelName"], "name"),
        pick(cols, "c.", &["nEnable"], "enabled"),
        pick(cols, "c.", &["nDeviceID"], "device_id"),
        of_device("chDeviceName", "device_name"),
        of_device("chDeviceSerialNo", "device_serial"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let channel = raw(t, row, "name")
            .or_else(|| raw(t, row, "channel_no"))
            .unwrap_or_else(|| "?".into());
        let device = raw(t, row, "device_name")
            .or_else(|| raw(t, row, "device_id").map(|d| format!("device {d}")))
            .unwrap_or_else(|| "an unknown device".into());
        let mut d = Draft::new(
            "device",
            format!("Hik-Connect channel {channel} of {device}"),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("channel_no", FactType::Count, "channel number"),
                ("name", FactType::Name, "channel name"),
                ("enabled", FactType::Text, "enabled"),
                ("device_id", FactType::Identifier, "device id"),
                ("device_name", FactType::Name, "device"),
                ("device_serial", FactType::Serial, "device serial number"),
            ],
        );
        d.interpretation = format!(
            "{ct} row {} of {file}: a channel (a camera input) of a Hikvision recorder the Hik-Connect app on the phone reaches — {}; enabled as stored (1 enabled, 0 disabled); the device's name and serial number are those of its device row.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Hik-Connect channels")
}

/// One `YSDCLogItem.sqlite`: the app's usage log.
fn usage_log(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(tables) = tables(run, path)? else {
        return Ok(());
    };
    let Some((lt, cols)) = table_any_case(&tables, "YSDCLogItem") else {
        run.ctx.unparsed(
            path,
            "could not parse Hik-Connect's YSDCLogItem.sqlite because it has no YSDCLogItem table",
            None,
        )?;
        return Ok(());
    };
    if !need(
        run,
        path,
        "Hik-Connect's YSDCLogItem.sqlite",
        lt,
        cols,
        &["time", "systemName"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT * FROM (SELECT l.rowid AS rid, {}, {}, {} FROM \"{lt}\" l) q",
        pick(cols, "l.", &["time"], "time"),
        pick(cols, "l.", &["systemName"], "record_type"),
        pick(cols, "l.", &["data"], "data"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let kind = raw(t, row, "record_type").unwrap_or_else(|| "record".into());
        let mut d = Draft::new("app_usage", format!("Hik-Connect activity {rid}: {kind}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("record_type", FactType::Text, "record type"),
                ("data", FactType::Text, "data"),
            ],
        );
        let time = t.get(row, "time");
        d.time(time, unix_millis(time), "Hik-Connect activity logged", inv);
        d.interpretation = format!(
            "{lt} row {rid} of {file}: a record of the Hik-Connect app's usage log — {}; logged at {} (Unix milliseconds). iLEAPP reads these records as the user's interaction with the app (a live view or playback of a recorder's footage among them), which is not easy to pin to one action.",
            said.join("; "),
            time.unwrap_or("no time stored"),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Hik-Connect usage records")
}
