//! Dahua DMSS for iOS, the app that reaches Dahua CCTV recorders, cameras and alarm hubs,
//! iLEAPP's `dmss` (`get_dmss_channels`, `get_dmss_info`, `get_dmss_registered_sensors`,
//! `get_dmss_registered_devices`, `get_dmss_notifications`): the recorders and cameras the app
//! on the phone reaches with their addresses and logins' user names, their channels, and the
//! alarm hub's sensors, cloud devices and alarm messages of each DMSS account used on it.
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `Library/Support/Devices.sqlite3` `DEVICES` (with `DDNSCONFIG` by `DEVICEID` = the device's `IP`) | one `device` per recorder or camera ("DMSS device <name>") | device id, name (as the user gave it), address (`IP`: the IP address, P2P serial number or domain the device was added by — iLEAPP's "IP/SN/Domain"), port, login user name; whether a login password is stored (never its value); the DDNS configuration: enabled (as stored and said), server address, domain, server port, user name, type, alias, whether a DDNS password is stored (never its value) |
//! | `Devices.sqlite3` `CHANNELS` (with `DEVICES` by `ID`) | one `device` per channel ("DMSS channel <name or id> of <device>") | channel id and name, the device's id, name and address |
//! | `Library/Support/<account>/DMSSCloud.sqlite` `GatewayPartTable` | one `device` per alarm sensor ("DMSS sensor <name> (serial <serial>)") | name, model, serial number, type, alarm, online and 24-hour alarm states (`1` on, `0` off, said in the query; other values as stored), battery (%), the hub's serial number, door state, tamper as stored; the account folder |
//! | `DMSSCloud.sqlite` `DEVICES` | one `device` per device of the account ("DMSS cloud device <name> (serial <sn>)") | name, model (`serial`), serial number (`sn`), type, channels, online (said in the query), shared with the account by and shared by it with (as stored), login user name, capabilities (`DeviceCS`, `SupCaps`, `ChannelCS`), port, RTSP port, hardware id; whether a password is stored (never its value); the account folder |
//! | `DMSSCloud.sqlite` `CHNALARMMESSAGE` (with `DEVICES` by `sn` = `DEVICEID`) | one `notifications` per alarm message ("DMSS alarm message <id>: <what>") | alarm id, type as stored and, for the ten types iLEAPP knows, what it means (said in the query), sensor name and serial, area, the nickname of the user who armed or disarmed, the device's serial, name and type, viewed in the app (said); when (`TIME`: a text date read as the phone's local time, as iLEAPP's "Timestamp (Local)"; a number read as Unix seconds or milliseconds by its size) |
//!
//! Where the stores are: `Devices.sqlite3` is a generic name, so it is read only at
//! `Library/Support/` of an app data container that is DMSS's: the container's owner is a bundle
//! id holding `dmss` (DMSS, iDMSS and gDMSS ship under several; the owner as the backup's
//! folder name, FrontBoard's application state or the container's metadata plist names it —
//! [`container_owner`](super::appcontainer::container_owner)), or, when none of them names the owner, the container holds a
//! `Library/Support/<account>/DMSSCloud.sqlite`. Another app's `Devices.sqlite3` is neither
//! read nor noted. `DMSSCloud.sqlite` (a name only DMSS uses) is read wherever it lies at
//! `Library/Support/<account>/`; the account folder is `0` when the app was used without a DMSS
//! account (iLEAPP's reading), else it names the account (recorded as found in the path; what the
//! name is — an id, a number — is not documented, so it is no identity).
//!
//! Not read: `Library/Support/configFile1`, which holds the PIN that locks the app (the PIN is a
//! secret: the file is never opened), the login and DDNS passwords (only whether one is stored,
//! by columns whose names say password), the snapshots and recordings under `Documents/Captures/`
//! and `Documents/Videos/`. Tables and columns are taken by name whatever their case (absent
//! columns NULL); a store with none of its tables is noted, as are a `DEVICES` without `ID` and
//! `NAME`, a `CHANNELS` without `DEVICEID` and `CHANNELID`, a `GatewayPartTable` without
//! `partSN`, a cloud `DEVICES` without `sn`, a `CHNALARMMESSAGE` without `ALARMID`.
//!
//! Identities: each sensor and each cloud device with a serial number is a device of its own,
//! `dmss-device:<serial>` (computed in the query; the Android reader's namespace), so a
//! recorder reached from two phones — or seized itself — is one device. The login user names
//! are the recorders' accounts, not people: no identity. The nickname of an alarm message and
//! the accounts a device is shared with are facts only.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::appcontainer::{Owner, container_owner};
use super::{Draft, Run, container_of, file_name};
use crate::calls::{column_any_case, columns_marked, stored_flag, table_any_case};
use crate::drafts::{date_text, unix_by_magnitude};
use crate::outputs::{Table, raw};

/// Where the device list lies in DMSS's container.
const DEVICES_TAIL: &str = "/Library/Support/Devices.sqlite3";

/// Every table's columns of one database.
pub(super) type Tables = BTreeMap<String, BTreeSet<String>>;

/// Every table's and view's columns of the database at `path` (one `sqlite_query`); `None`
/// when it cannot be read (noted by the call).
pub(super) fn tables(run: &Run<'_, '_>, path: &str) -> Result<Option<Tables>, RuntimeError> {
    Ok(run
        .query(path, crate::outputs::SCHEMA_SQL, 100_000)?
        .map(|(_, t)| crate::outputs::columns_by_table(&t)))
}

/// `<prefix>"<column>" AS <alias>` for the first of `names` the table has (any case), else
/// `NULL AS <alias>`.
pub(super) fn pick(cols: &BTreeSet<String>, prefix: &str, names: &[&str], alias: &str) -> String {
    names
        .iter()
        .find_map(|n| column_any_case(cols, n))
        .map_or_else(
            || format!("NULL AS {alias}"),
            |c| format!("{prefix}\"{c}\" AS {alias}"),
        )
}

/// A 0/1 column said in the query (`1` → `on`, `0` → `off`, other values as stored), or
/// `NULL AS <alias>` when the table lacks it.
pub(super) fn said(
    cols: &BTreeSet<String>,
    prefix: &str,
    name: &str,
    (on, off): (&str, &str),
    alias: &str,
) -> String {
    match column_any_case(cols, name) {
        Some(c) => format!(
            "CASE WHEN {prefix}\"{c}\" IN (1, '1') THEN '{on}' WHEN {prefix}\"{c}\" IN (0, '0') THEN '{off}' ELSE {prefix}\"{c}\" END AS {alias}"
        ),
        None => format!("NULL AS {alias}"),
    }
}

/// Whether `cols` has every one of `needed` (any case); when not, notes `path` ("could not
/// parse <what> because table <table> lacks …").
pub(super) fn need(
    run: &Run<'_, '_>,
    path: &str,
    what: &str,
    table: &str,
    cols: &BTreeSet<String>,
    needed: &[&str],
) -> Result<bool, RuntimeError> {
    let missing: Vec<&str> = needed
        .iter()
        .copied()
        .filter(|n| column_any_case(cols, n).is_none())
        .collect();
    if missing.is_empty() {
        return Ok(true);
    }
    run.ctx.unparsed(
        path,
        &format!(
            "could not parse {what} because table {table} lacks {} (unexpected schema)",
            missing.join(", ")
        ),
        None,
    )?;
    Ok(false)
}

/// A column of `cols` named `name` in any case (present: the caller checked with [`need`]).
fn col<'a>(cols: &'a BTreeSet<String>, name: &'a str) -> &'a str {
    column_any_case(cols, name).unwrap_or(name)
}

/// Whether a bundle id is one of DMSS's (DMSS, iDMSS, gDMSS …).
fn is_dmss(bundle: &str) -> bool {
    bundle.to_ascii_lowercase().contains("dmss")
}

/// The account folder of a cloud store (`…/Library/Support/<account>/DMSSCloud.sqlite`).
fn cloud_account(path: &str) -> Option<&str> {
    let dir = path.strip_suffix("/DMSSCloud.sqlite")?;
    let (support, account) = dir.rsplit_once('/')?;
    (support.ends_with("/Library/Support") && !account.is_empty()).then_some(account)
}

/// A time as DMSS's alarm messages keep it: a number is Unix seconds or milliseconds (by its
/// size), a text date the phone's local time.
fn alarm_time(value: Option<&str>) -> Option<masf_graph::TimeEncoding> {
    let v = value?.trim();
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        unix_by_magnitude(Some(v))
    } else {
        date_text(Some(v))
    }
}

/// Triage of DMSS's stores: every cloud store, then every device list in a DMSS container.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    // the containers holding a cloud store: DMSS's, when nothing else names their owner
    let mut marked: Vec<(String, String)> = Vec::new();
    let clouds = run.find("DMSSCloud.sqlite")?;
    if let Some((find, paths)) = &clouds {
        for path in paths {
            let Some(account) = cloud_account(path) else {
                continue;
            };
            if let Some(c) = container_of(path) {
                marked.push((c.to_string(), path.clone()));
            }
            cloud(run, find, path, account)?;
        }
    }
    let Some((find, paths)) = run.find("Devices.sqlite3")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(container) = container_of(path) else {
            continue;
        };
        if *path != format!("{container}{DEVICES_TAIL}") {
            continue;
        }
        let owner = match container_owner(run, &find, path)? {
            Some(o) if o.bundle.as_deref().is_some_and(is_dmss) => o,
            Some(_) => continue,
            None => {
                let (Some((cloud_find, _)), Some((_, marker))) =
                    (&clouds, marked.iter().find(|(c, _)| c == container))
                else {
                    continue;
                };
                Owner {
                    bundle: None,
                    fact: (FactType::Path, marker.clone()),
                    cite: cloud_find.clone(),
                    how: format!(
                        "the container holds DMSS's cloud store {}",
                        marker
                            .strip_prefix(container)
                            .unwrap_or(marker.as_str())
                            .trim_start_matches('/')
                    ),
                }
            }
        };
        devices_store(run, &find, path, &owner)?;
    }
    Ok(())
}

/// One `Devices.sqlite3` of DMSS's container.
fn devices_store(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    owner: &Owner,
) -> Result<(), RuntimeError> {
    let Some(tables) = tables(run, path)? else {
        return Ok(());
    };
    let devices = table_any_case(&tables, "DEVICES");
    let channels = table_any_case(&tables, "CHANNELS");
    if devices.is_none() && channels.is_none() {
        run.ctx.unparsed(
            path,
            "could not parse DMSS's Devices.sqlite3 because it has none of the tables DEVICES, CHANNELS",
            None,
        )?;
        return Ok(());
    }
    let what = "DMSS's Devices.sqlite3";
    let mut device_table = None;
    if let Some((dt, cols)) = devices
        && need(run, path, what, dt, cols, &["ID", "NAME"])?
    {
        device_table = Some((dt, cols));
        read_devices(
            run,
            find,
            path,
            owner,
            (dt, cols),
            table_any_case(&tables, "DDNSCONFIG"),
        )?;
    }
    if let Some((ct, cols)) = channels
        && need(run, path, what, ct, cols, &["DEVICEID", "CHANNELID"])?
    {
        read_channels(run, find, path, owner, (ct, cols), device_table)?;
    }
    Ok(())
}

/// `DEVICES` of `Devices.sqlite3`: one phenomenon per recorder or camera, with its DDNS
/// configuration.
fn read_devices(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    owner: &Owner,
    (dt, cols): (&str, &BTreeSet<String>),
    ddns: Option<(&str, &BTreeSet<String>)>,
) -> Result<(), RuntimeError> {
    // a DDNS column of the first DDNSCONFIG row whose DEVICEID is the device's IP
    let ddns_of = |want: &[&str], alias: &str| -> String {
        let (Some((xt, xc)), Some(ip)) = (ddns, column_any_case(cols, "IP")) else {
            return format!("NULL AS {alias}");
        };
        let Some(key) = column_any_case(xc, "DEVICEID") else {
            return format!("NULL AS {alias}");
        };
        let expr = if want.is_empty() {
            // whether a DDNS password is stored, never its value
            let held = columns_marked(xc, &["password", "passwd", "pwd"]);
            stored_flag("x.", &held, "flag")
        } else {
            pick(xc, "x.", want, "v")
        };
        format!(
            "(SELECT {expr} FROM \"{xt}\" x WHERE x.\"{key}\" = d.\"{ip}\" ORDER BY x.rowid LIMIT 1) AS {alias}"
        )
    };
    let held = columns_marked(cols, &["password", "passwd", "pwd"]);
    let sql = format!(
        "SELECT q.*, CASE WHEN q.ddns_enable IN (1, '1') THEN 'enabled' WHEN q.ddns_enable IN (0, '0') THEN 'disabled' END AS ddns_state FROM (SELECT d.rowid AS rid, d.\"{}\" AS device_id, d.\"{}\" AS name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM \"{dt}\" d) q",
        col(cols, "ID"),
        col(cols, "NAME"),
        pick(cols, "d.", &["IP"], "address"),
        pick(cols, "d.", &["PORT"], "port"),
        pick(cols, "d.", &["USER", "USERNAME", "USER_NAME"], "user_name"),
        stored_flag("d.", &held, "password"),
        ddns_of(&["DDNSENABLE"], "ddns_enable"),
        ddns_of(&["DDNSADDRESS"], "ddns_address"),
        ddns_of(&["DDNSDOMAIN"], "ddns_domain"),
        ddns_of(&["DDNSSERVERPORT"], "ddns_port"),
        ddns_of(&["DDNSUSERNAME"], "ddns_user"),
        ddns_of(&[], "ddns_password"),
        ddns_of(&["DDNSTYPE"], "ddns_type"),
        ddns_of(&["DDNSALIAS"], "ddns_alias"),
        if ddns.is_some() {
            "1 AS ddns_read"
        } else {
            "0 AS ddns_read"
        },
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let shown = raw(t, row, "name")
            .or_else(|| raw(t, row, "address"))
            .or_else(|| raw(t, row, "device_id"))
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("device", format!("DMSS device {shown}"));
        d.fact(FactType::Path, Some(path), find);
        owner.name_in(&mut d);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("device_id", FactType::Identifier, "device id"),
                ("name", FactType::Name, "name"),
                (
                    "address",
                    FactType::Text,
                    "address (IP address, serial number or domain)",
                ),
                ("port", FactType::Text, "port"),
                ("user_name", FactType::Text, "login user name"),
                ("password", FactType::Text, "login password"),
                ("ddns_enable", FactType::Text, "DDNS enabled (as stored)"),
                ("ddns_state", FactType::Text, "DDNS"),
                ("ddns_address", FactType::Text, "DDNS server"),
                ("ddns_domain", FactType::Text, "DDNS domain"),
                ("ddns_port", FactType::Text, "DDNS server port"),
                ("ddns_user", FactType::Text, "DDNS user name"),
                ("ddns_password", FactType::Text, "DDNS password"),
                ("ddns_type", FactType::Text, "DDNS type"),
                ("ddns_alias", FactType::Name, "DDNS alias"),
            ],
        );
        d.interpretation = format!(
            "{dt} row {} of {file} (DMSS's device list; {}): a Dahua recorder or camera the DMSS app on the phone reaches — {}. The name is the one the user gave it; the address is the IP address, P2P serial number or domain it was added by; the DDNS configuration is the {} row whose DEVICEID is that address{}. A stored login or DDNS password is said, never read.",
            t.get(row, "rid").unwrap_or("?"),
            owner.how,
            said.join("; "),
            ddns.map_or("DDNSCONFIG", |(x, _)| x),
            if t.get(row, "ddns_read") == Some("1") {
                ""
            } else {
                " (the store has no DDNSCONFIG table)"
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "DMSS devices")
}

/// `CHANNELS` of `Devices.sqlite3`: one phenomenon per channel, with its device.
fn read_channels(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    owner: &Owner,
    (ct, cols): (&str, &BTreeSet<String>),
    devices: Option<(&str, &BTreeSet<String>)>,
) -> Result<(), RuntimeError> {
    let device_id = col(cols, "DEVICEID");
    let of_device = |want: &str, alias: &str| match devices {
        Some((dt, dc)) => match (column_any_case(dc, "ID"), column_any_case(dc, want)) {
            (Some(id), Some(w)) => format!(
                "(SELECT d.\"{w}\" FROM \"{dt}\" d WHERE d.\"{id}\" = c.\"{device_id}\" LIMIT 1) AS {alias}"
            ),
            _ => format!("NULL AS {alias}"),
        },
        None => format!("NULL AS {alias}"),
    };
    let sql = format!(
        "SELECT * FROM (SELECT c.rowid AS rid, c.\"{device_id}\" AS device_id, c.\"{}\" AS channel_id, {}, {}, {} FROM \"{ct}\" c) q",
        col(cols, "CHANNELID"),
        pick(cols, "c.", &["NAME"], "name"),
        of_device("NAME", "device_name"),
        of_device("IP", "device_address"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let channel = raw(t, row, "name")
            .or_else(|| raw(t, row, "channel_id"))
            .unwrap_or_else(|| "?".into());
        let device = raw(t, row, "device_name")
            .or_else(|| raw(t, row, "device_id").map(|d| format!("device {d}")))
            .unwrap_or_else(|| "an unknown device".into());
        let mut d = Draft::new("device", format!("DMSS channel {channel} of {device}"));
        d.fact(FactType::Path, Some(path), find);
        owner.name_in(&mut d);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("channel_id", FactType::Identifier, "channel id"),
                ("name", FactType::Name, "channel name"),
                ("device_id", FactType::Identifier, "device id"),
                ("device_name", FactType::Name, "device"),
                ("device_address", FactType::Text, "device address"),
            ],
        );
        d.interpretation = format!(
            "{ct} row {} of {file} (DMSS's device list; {}): a channel (a camera input) of a Dahua recorder the DMSS app on the phone reaches — {}; the device's name and address are those of its DEVICES row.",
            t.get(row, "rid").unwrap_or("?"),
            owner.how,
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "DMSS channels")
}

/// The account a cloud store is of, for the interpretation.
fn account_said(account: &str) -> String {
    if account == "0" {
        "kept while the app was used without a DMSS account (folder 0)".to_string()
    } else {
        format!("of the DMSS account whose folder is {account}")
    }
}

/// One `DMSSCloud.sqlite`: the alarm hub's sensors, the account's devices, the alarm messages.
fn cloud(run: &Run<'_, '_>, find: &Invoked, path: &str, account: &str) -> Result<(), RuntimeError> {
    let Some(tables) = tables(run, path)? else {
        return Ok(());
    };
    let parts = table_any_case(&tables, "GatewayPartTable");
    let devices = table_any_case(&tables, "DEVICES");
    let alarms = table_any_case(&tables, "CHNALARMMESSAGE");
    if parts.is_none() && devices.is_none() && alarms.is_none() {
        run.ctx.unparsed(
            path,
            "could not parse DMSS's DMSSCloud.sqlite because it has none of the tables GatewayPartTable, DEVICES, CHNALARMMESSAGE",
            None,
        )?;
        return Ok(());
    }
    let what = "DMSS's DMSSCloud.sqlite";
    if let Some((pt, cols)) = parts
        && need(run, path, what, pt, cols, &["partSN"])?
    {
        sensors(run, find, path, account, (pt, cols))?;
    }
    let mut device_table = None;
    if let Some((dt, cols)) = devices
        && need(run, path, what, dt, cols, &["sn"])?
    {
        device_table = Some((dt, cols));
        cloud_devices(run, find, path, account, (dt, cols))?;
    }
    if let Some((at, cols)) = alarms
        && need(run, path, what, at, cols, &["ALARMID"])?
    {
        alarm_messages(run, find, path, account, (at, cols), device_table)?;
    }
    Ok(())
}

/// `'dmss-device:' || <serial>` as `qualified` (NULL for none), computed in the query.
fn qualified(cols: &BTreeSet<String>, prefix: &str, name: &str) -> String {
    match column_any_case(cols, name) {
        Some(c) => format!(
            "CASE WHEN {prefix}\"{c}\" IS NOT NULL AND {prefix}\"{c}\" != '' THEN 'dmss-device:' || {prefix}\"{c}\" END AS qualified"
        ),
        None => "NULL AS qualified".to_string(),
    }
}

/// Observes the serial number of a row's device (`qualified`, `serial`) as `label`.
fn observe_serial(
    run: &Run<'_, '_>,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
    what: &str,
) -> Result<(), RuntimeError> {
    let (Some(q), Some(serial)) = (t.get(row, "qualified"), t.get(row, "serial")) else {
        return Ok(());
    };
    let name = t.get(row, "name").unwrap_or("a Dahua device");
    run.observe(
        q,
        EntityKind::Device,
        &format!("{name} (serial {serial})"),
        IdType::Serial,
        serial,
        inv,
        format!("The serial number of {name}, {what}."),
    )?;
    Ok(())
}

/// `GatewayPartTable`: one phenomenon per sensor of the alarm hub.
fn sensors(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    account: &str,
    (pt, cols): (&str, &BTreeSet<String>),
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT * FROM (SELECT p.rowid AS rid, {}, {}, p.\"{}\" AS serial, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM \"{pt}\" p) q",
        pick(cols, "p.", &["partName"], "name"),
        pick(cols, "p.", &["partModel"], "model"),
        col(cols, "partSN"),
        qualified(cols, "p.", "partSN"),
        pick(cols, "p.", &["paasType"], "kind"),
        said(cols, "p.", "alarmState", ("on", "off"), "alarm"),
        pick(cols, "p.", &["batteryPercent"], "battery"),
        pick(cols, "p.", &["boxSN"], "hub_serial"),
        said(cols, "p.", "onLineState", ("on", "off"), "online"),
        pick(cols, "p.", &["doorState"], "door"),
        said(cols, "p.", "fullDayAlarm", ("on", "off"), "full_day"),
        pick(cols, "p.", &["tamper"], "tamper"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    let whose = account_said(account);
    for (inv, t, row) in paged.rows() {
        let name = raw(t, row, "name");
        let serial = raw(t, row, "serial");
        let title = match (&name, &serial) {
            (Some(n), Some(s)) => format!("DMSS sensor {n} (serial {s})"),
            (Some(n), None) => format!("DMSS sensor {n}"),
            (None, Some(s)) => format!("DMSS sensor serial {s}"),
            (None, None) => format!("DMSS sensor {}", t.get(row, "rid").unwrap_or("?")),
        };
        let mut d = Draft::new("device", title);
        d.fact(FactType::Path, Some(path), find);
        if account != "0" {
            d.fact(FactType::Account, Some(account), find);
        }
        let facts = d.fields(
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("model", FactType::Text, "model"),
                ("serial", FactType::Serial, "serial number"),
                ("kind", FactType::Text, "type"),
                ("alarm", FactType::Text, "alarm state"),
                ("battery", FactType::Count, "battery (%)"),
                ("hub_serial", FactType::Serial, "hub serial number"),
                ("online", FactType::Text, "online"),
                ("door", FactType::Text, "door state"),
                ("full_day", FactType::Text, "24-hour alarm"),
                ("tamper", FactType::Text, "tamper (as stored)"),
            ],
        );
        d.interpretation = format!(
            "{pt} row {} of {file} ({whose}): a sensor registered with a Dahua alarm hub that the DMSS app on the phone controls — {}; the states are as the app last cached them (1 on, 0 off, as iLEAPP reads them).",
            t.get(row, "rid").unwrap_or("?"),
            facts.join("; "),
        );
        run.record(d)?;
        observe_serial(
            run,
            inv,
            t,
            row,
            &format!(
                "a sensor of a Dahua alarm hub the DMSS app on the phone controls ({pt} of {file})"
            ),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "DMSS sensors")
}

/// The cloud store's `DEVICES`: one phenomenon per device of the account.
fn cloud_devices(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    account: &str,
    (dt, cols): (&str, &BTreeSet<String>),
) -> Result<(), RuntimeError> {
    let held = columns_marked(cols, &["password", "passwd", "pwd"]);
    let sql = format!(
        "SELECT * FROM (SELECT d.rowid AS rid, {}, {}, d.\"{}\" AS serial, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM \"{dt}\" d) q",
        pick(cols, "d.", &["name"], "name"),
        pick(cols, "d.", &["serial"], "model"),
        col(cols, "sn"),
        qualified(cols, "d.", "sn"),
        pick(cols, "d.", &["devType"], "kind"),
        pick(cols, "d.", &["channelCount"], "channels"),
        said(
            cols,
            "d.",
            "deviceIsOnline",
            ("online", "offline"),
            "online"
        ),
        pick(cols, "d.", &["ReceiveShare"], "shared_from"),
        pick(cols, "d.", &["SendShareStr"], "shared_to"),
        pick(cols, "d.", &["userName"], "user_name"),
        pick(cols, "d.", &["DeviceCS"], "device_caps"),
        pick(cols, "d.", &["SupCaps"], "sup_caps"),
        pick(cols, "d.", &["ChannelCS"], "channel_caps"),
        pick(cols, "d.", &["mPort"], "port"),
        pick(cols, "d.", &["mRtspPort"], "rtsp_port"),
        pick(cols, "d.", &["hwId"], "hardware_id"),
        stored_flag("d.", &held, "password"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    let whose = account_said(account);
    for (inv, t, row) in paged.rows() {
        let name = raw(t, row, "name");
        let serial = raw(t, row, "serial");
        let title = match (&name, &serial) {
            (Some(n), Some(s)) => format!("DMSS cloud device {n} (serial {s})"),
            (Some(n), None) => format!("DMSS cloud device {n}"),
            (None, Some(s)) => format!("DMSS cloud device serial {s}"),
            (None, None) => format!("DMSS cloud device {}", t.get(row, "rid").unwrap_or("?")),
        };
        let mut d = Draft::new("device", title);
        d.fact(FactType::Path, Some(path), find);
        if account != "0" {
            d.fact(FactType::Account, Some(account), find);
        }
        let facts = d.fields(
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("model", FactType::Text, "model"),
                ("serial", FactType::Serial, "serial number"),
                ("kind", FactType::Text, "type"),
                ("channels", FactType::Count, "channels"),
                ("online", FactType::Text, "state"),
                ("shared_from", FactType::Text, "shared with the account by"),
                ("shared_to", FactType::Text, "shared by the account with"),
                ("user_name", FactType::Text, "login user name"),
                ("device_caps", FactType::Text, "device capabilities"),
                ("sup_caps", FactType::Text, "supported capabilities"),
                ("channel_caps", FactType::Text, "channel capabilities"),
                ("port", FactType::Text, "port"),
                ("rtsp_port", FactType::Text, "RTSP port"),
                ("hardware_id", FactType::Identifier, "hardware id"),
                ("password", FactType::Text, "password"),
            ],
        );
        d.interpretation = format!(
            "{dt} row {} of {file} ({whose}): a Dahua device (recorder, camera, alarm hub) of the DMSS account — {}; the sharing columns name the accounts the device was shared with the account by, or by it with (as stored); a stored password is said, never read.",
            t.get(row, "rid").unwrap_or("?"),
            facts.join("; "),
        );
        run.record(d)?;
        observe_serial(
            run,
            inv,
            t,
            row,
            &format!("a Dahua device of the DMSS account used on the phone ({dt} of {file})"),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "DMSS cloud devices")
}

/// What the alarm message types iLEAPP knows mean (the rest as stored).
const ALARM_TYPES: [(&str, &str); 10] = [
    (
        "gwMsg_ATSFault_Start",
        "the alarm transmission failed (network connection)",
    ),
    ("gwMsg_ATSFault_Stop", "the alarm transmission was restored"),
    (
        "gwMsg_AreaAlarm_AddArea",
        "an area was added by the nickname",
    ),
    (
        "gwMsg_AreaAlarm_AreaDelete",
        "an area was removed by the nickname",
    ),
    (
        "gwMsg_AreaArmModeChange_Remote_DisArm",
        "the area was disarmed remotely by the nickname",
    ),
    (
        "gwMsg_AreaArmModeChange_Remote_Arm_p1",
        "the area was armed in home mode remotely by the nickname",
    ),
    (
        "gwMsg_ArmingFailure",
        "arming the area failed (an attempt by the nickname)",
    ),
    (
        "gwMsg_AlarmLocal_PassiveInfrared",
        "the sensor detected motion in the area",
    ),
    (
        "gwMsg_AlarmLocal_DoorMagnetism_Start",
        "the door sensor detected an opening",
    ),
    (
        "gwMsg_AlarmLocal_DoorMagnetism_Stop",
        "the door sensor detected a closing",
    ),
];

/// `CHNALARMMESSAGE`: one phenomenon per alarm message, with its device.
fn alarm_messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    account: &str,
    (at, cols): (&str, &BTreeSet<String>),
    devices: Option<(&str, &BTreeSet<String>)>,
) -> Result<(), RuntimeError> {
    let meaning = match column_any_case(cols, "TYPE") {
        Some(c) => format!(
            "CASE m.\"{c}\" {} END AS meaning",
            ALARM_TYPES
                .iter()
                .map(|(code, said)| format!("WHEN '{code}' THEN '{said}'"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        None => "NULL AS meaning".to_string(),
    };
    let of_device = |want: &str, alias: &str| match (devices, column_any_case(cols, "DEVICEID")) {
        (Some((dt, dc)), Some(key)) => match (column_any_case(dc, "sn"), column_any_case(dc, want))
        {
            (Some(sn), Some(w)) => format!(
                "(SELECT d.\"{w}\" FROM \"{dt}\" d WHERE d.\"{sn}\" = m.\"{key}\" LIMIT 1) AS {alias}"
            ),
            _ => format!("NULL AS {alias}"),
        },
        _ => format!("NULL AS {alias}"),
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.rowid AS rid, m.\"{}\" AS alarm_id, {}, {}, {meaning}, {}, {}, {}, {}, {}, {}, {}, {} FROM \"{at}\" m) q",
        col(cols, "ALARMID"),
        pick(cols, "m.", &["TIME"], "time"),
        pick(cols, "m.", &["TYPE"], "type"),
        pick(cols, "m.", &["SensorName"], "sensor"),
        pick(cols, "m.", &["SensorSN"], "sensor_serial"),
        pick(cols, "m.", &["AreaName"], "area"),
        pick(cols, "m.", &["NickName"], "nickname"),
        pick(cols, "m.", &["DEVICEID"], "device_serial"),
        of_device("name", "device_name"),
        of_device("devType", "device_type"),
        said(cols, "m.", "ISCHECKED", ("viewed", "not viewed"), "checked"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    let whose = account_said(account);
    for (inv, t, row) in paged.rows() {
        let id = raw(t, row, "alarm_id").unwrap_or_else(|| "?".into());
        let what = raw(t, row, "meaning")
            .or_else(|| raw(t, row, "type"))
            .unwrap_or_else(|| "of no type".into());
        let mut d = Draft::new("notifications", format!("DMSS alarm message {id}: {what}"));
        d.fact(FactType::Path, Some(path), find);
        if account != "0" {
            d.fact(FactType::Account, Some(account), find);
        }
        let facts = d.fields(
            t,
            row,
            inv,
            &[
                ("alarm_id", FactType::Identifier, "alarm id"),
                ("type", FactType::Text, "type (as stored)"),
                ("meaning", FactType::Text, "meaning"),
                ("sensor", FactType::Name, "sensor"),
                ("sensor_serial", FactType::Serial, "sensor serial number"),
                ("area", FactType::Name, "area"),
                ("nickname", FactType::Name, "user's nickname"),
                ("device_serial", FactType::Serial, "device serial number"),
                ("device_name", FactType::Name, "device"),
                ("device_type", FactType::Text, "device type"),
                ("checked", FactType::Text, "in the app"),
            ],
        );
        let time = t.get(row, "time");
        d.time(time, alarm_time(time), "DMSS alarm message", inv);
        d.interpretation = format!(
            "{at} row {} of {file} ({whose}): an alarm message of a Dahua alarm hub the DMSS app on the phone received — {}; the time is {} (a text date is the phone's local time, as iLEAPP reads it); the nickname is the hub user who armed, disarmed or changed an area; the device is the DEVICES row whose serial number is the message's DEVICEID.",
            t.get(row, "rid").unwrap_or("?"),
            facts.join("; "),
            time.unwrap_or("not stored"),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "DMSS alarm messages")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ios::appcontainer::is_guid;

    #[test]
    fn guids_and_account_folders() {
        assert!(is_guid("0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"));
        assert!(!is_guid("com.google.Tachyon"));
        assert_eq!(
            cloud_account("/a/Library/Support/1203/DMSSCloud.sqlite"),
            Some("1203")
        );
        assert_eq!(cloud_account("/a/Library/Caches/0/DMSSCloud.sqlite"), None);
        assert!(is_dmss("com.mm.iDMSS") && !is_dmss("com.example.cam"));
        assert!(alarm_time(Some("2023-04-18 21:14:03")).is_some());
        assert_eq!(
            alarm_time(Some("1681852443123")),
            Some(masf_graph::TimeEncoding::UnixMillis)
        );
        assert_eq!(
            alarm_time(Some("2023-04-18 21:14:03")),
            Some(masf_graph::TimeEncoding::LocalText)
        );
    }
}
