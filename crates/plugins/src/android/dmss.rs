//! Dahua DMSS (`com.mm.android.DMSS/databases/devicechannel.db`), ALEAPP's `dmss` (`get_dmss`,
//! `get_dmss_info`): the Dahua CCTV recorders and cameras the app on the phone reaches, and
//! their channels.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `devices` | one `device` per recorder or camera ("DMSS device <name>") | the device id, name (as the user gave it, often its IP address), channel count, serial number (`uid`, the P2P serial the device was added by), IP address and port as stored (encrypted by the app in recent releases); whether a login user name and password are stored (never their values) |
//! | `channels` (with `devices`) | one `device` per channel ("DMSS channel <name or number> of <device>") | channel number and name, favourite as stored, the device id with its name and serial number |
//!
//! The login of each device (`username`, `password`, encrypted by the app) is never selected:
//! the query asks only whether one is stored. Columns are taken by name (absent ones NULL).
//! Identities: each device with a serial number is a device of its own, `dmss-device:<serial>`
//! (computed in the query) with its serial as identifier, so the same recorder reached from two
//! phones — or seized itself — is one device. Not read: the per-account IoT stores (alarm
//! sensors, cloud devices, alarm messages of `<account>.db`) and the snapshot folder. A store
//! with neither table is noted, a `devices` without `id` and `devicename` or a `channels`
//! without `did` and `num` too.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, require_columns};
use crate::drafts::RowPhenomena;
use crate::identity::{artefact_name, observe, schema_on};
use crate::outputs::raw;

/// Whether `l` is DMSS's device store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "devicechannel.db" && l.path.contains("/com.mm.android.DMSS/")
}

/// One `devicechannel.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key("devices") && !schema.contains_key("channels") {
        ctx.unparsed(
            &name,
            "not DMSS's devicechannel.db: none of the tables devices, channels",
            None,
        )?;
        return Ok(());
    }
    let what = "DMSS's devicechannel.db";
    let mut devices = None;
    if let Some(cols) = schema.get("devices")
        && require_columns(ctx, &name, what, "devices", cols, &["id", "devicename"])?
    {
        devices = Some(cols);
        read_devices(ctx, l, cols)?;
    }
    if let Some(cols) = schema.get("channels")
        && require_columns(ctx, &name, what, "channels", cols, &["did", "num"])?
    {
        read_channels(ctx, l, cols, devices)?;
    }
    Ok(())
}

/// `devices`: one phenomenon per device, its serial number observed.
fn read_devices(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let qualified = if cols.contains("uid") {
        "CASE WHEN d.uid IS NOT NULL AND d.uid != '' THEN 'dmss-device:' || d.uid END AS qualified"
    } else {
        "NULL AS qualified"
    };
    let sql = format!(
        "SELECT d.rowid AS rid, d.id AS device_id, d.devicename AS name, {}, {}, {qualified}, {}, {}, {}, {} FROM devices d ORDER BY d.rowid",
        column_or_null(cols, "d.", "channelcount", "channels"),
        column_or_null(cols, "d.", "uid", "serial"),
        column_or_null(cols, "d.", "ip", "ip"),
        column_or_null(cols, "d.", "port", "port"),
        // the login itself is never read: only whether one is stored
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
            table: "devices",
            category: "device",
            what: "a Dahua recorder or camera the DMSS app on the phone reaches (the name is the one the user gave it, often its IP address; the IP address and port as stored, encrypted by the app in recent releases; a stored login is said, never read)",
            title: &|t, row| {
                format!(
                    "DMSS device {}",
                    raw(t, row, "name")
                        .or_else(|| raw(t, row, "device_id"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("device_id", FactType::Identifier, "device id"),
                ("name", FactType::Name, "name"),
                ("channels", FactType::Count, "channels"),
                ("serial", FactType::Serial, "serial number"),
                ("ip", FactType::Text, "IP address as stored"),
                ("port", FactType::Text, "port as stored"),
                ("user_name", FactType::Text, "login user name"),
                ("password", FactType::Text, "login password"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            let (Some(q), Some(serial)) = (t.get(row, "qualified"), t.get(row, "serial")) else {
                return Ok(());
            };
            let device = t.get(row, "name").unwrap_or("a Dahua device");
            observe(
                ctx,
                q,
                EntityKind::Device,
                &format!("{device} (serial {serial})"),
                IdType::Serial,
                serial,
                inv,
                format!(
                    "The serial number of {device}, a Dahua recorder or camera the DMSS app on the phone reaches (devices of {file})."
                ),
            )?;
            Ok(())
        },
    )
}

/// `channels`: one phenomenon per channel, with its device's name and serial number.
fn read_channels(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    devices: Option<&BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let of_device = |want: &str, alias: &str| match devices {
        Some(d) if d.contains(want) => {
            format!("(SELECT d.{want} FROM devices d WHERE d.id = c.did LIMIT 1) AS {alias}")
        }
        _ => format!("NULL AS {alias}"),
    };
    let sql = format!(
        "SELECT c.rowid AS rid, c.did AS device_id, c.num AS num, {}, {}, {}, {} FROM channels c ORDER BY c.rowid",
        column_or_null(cols, "c.", "name", "name"),
        column_or_null(cols, "c.", "isfavorite", "favourite"),
        of_device("devicename", "device_name"),
        of_device("uid", "device_serial"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "channels",
            category: "device",
            what: "a channel (a camera input) of a Dahua recorder the DMSS app on the phone reaches (favourite as stored: 1 a favourite; the device's name and serial number from its devices row)",
            title: &|t, row| {
                let channel = raw(t, row, "name")
                    .or_else(|| raw(t, row, "num"))
                    .unwrap_or_else(|| "?".into());
                let device = raw(t, row, "device_name")
                    .or_else(|| raw(t, row, "device_id").map(|d| format!("device {d}")))
                    .unwrap_or_else(|| "an unknown device".into());
                format!("DMSS channel {channel} of {device}")
            },
            fields: &[
                ("num", FactType::Count, "channel number"),
                ("name", FactType::Name, "channel name"),
                ("favourite", FactType::Text, "favourite"),
                ("device_id", FactType::Identifier, "device id"),
                ("device_name", FactType::Name, "device"),
                ("device_serial", FactType::Serial, "device serial number"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}
