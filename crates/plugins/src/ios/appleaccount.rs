//! The devices of the phone's Apple Account, as the phone last knew them: the account's other
//! iPhones, iPads, Macs and Watches (by serial number, IMEI and name) are what joins the
//! sources of a multi-device case, so each is observed as a device. The fields of iLEAPP's
//! `appleAccountDeviceList`, `appleAccountDeletedDeviceList`, `trusted_peers`,
//! `fmfd_notbackedup_devices` and `findMy`:
//!
//! - **`Library/Application Support/com.apple.akd/devicelist.db`** (the authentication daemon's
//!   cache of the account's devices): one `device` phenomenon per `device_list` row — name,
//!   model, OS, OS version, build, serial number, the IMEIs of `additional_info` (JSON
//!   `{"phones": [{"imei", "slotID"}]}`, read with `sqlite_query`'s `json`), trusted, circle
//!   status, services, machine id (`mid`), the account's `altDSID`, the undocumented `dc`,
//!   `clcg`, `clbg`, `clhs`, `dec` as stored, last updated and last cache update (Unix
//!   seconds); one per `deleted_device_list` row — deleted, last updated, reason code, `mid`,
//!   `altDSID`. The list is a cache: the last refresh, not the account at extraction time.
//! - **`*TrustedPeersHelper.db`** (one per trust-circle context): one `device` phenomenon per
//!   `ZESCROWCLIENTMETADATA` row with its `ZESCROWMETADATA` record — escrow time (Cocoa
//!   seconds), model, model version, device name, serial, the secure backup's numeric passcode
//!   length, device and enclosure colours, and the peer's own gestalt from `ZPEERINFO` (a DER
//!   property list, read with `sqlite_query`'s `der`): OS version, model name, computer name,
//!   serial number. Every context's database is read, as iLEAPP does.
//! - **`Library/Preferences/com.apple.icloud.fmfd.notbackedup.plist`**: the Find My daemon's
//!   device list (`kFMFDStoredDataKey`, a keyed archive in a data value, read with
//!   `parse_plist`'s `decode_data`): one `device` phenomenon per device — name, device id, IDS
//!   device id, active, this device, companion, auto-Me capable.
//! - **`Library/Preferences/com.apple.icloud.findmydeviced.FMIPAccounts.plist`**: the Find My
//!   iPhone account: one `accounts` phenomenon with every value it keeps (`addTime` Unix
//!   seconds), tokens and keys left out (their presence said, never their value).
//!
//! Identities: a device with a serial number is observed by it (`apple-device:<serial>`), with
//! its IMEIs and name: a strong key, so the account's iPad in the same case — read from its
//! own lockdown records — is proposed as the same device, and this phone's own row joins
//! `device` the same way. A Find My device is this phone's name when it says it is this
//! device (`device`), else `fmf-device:<device id>` by name. The Find My iPhone account's user
//! name (an Apple ID) and person id (DSID) are the device owner's (`owner`).
//! Schema drift: columns are read where present; a database without its table is noted.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse_with;
use super::{Draft, Run, core_data_encoding, file_name, raw};
use crate::drafts::unix_seconds;
use crate::outputs::{in_json_cell, json_leaves, json_scalar};

/// Triage of every account device list of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("devicelist.db", |find, path| {
        if path.contains("/com.apple.akd/") {
            akd(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("*TrustedPeersHelper.db", |find, path| {
        trusted_peers(run, find, path)
    })?;
    run.each("com.apple.icloud.fmfd.notbackedup.plist", |find, path| {
        fmfd(run, find, path)
    })?;
    run.each(
        "com.apple.icloud.findmydeviced.FMIPAccounts.plist",
        |find, path| fmip(run, find, path),
    )
}

/// Observes a device of the account by serial number, IMEIs and name.
fn observe_device(
    run: &Run<'_, '_>,
    inv: &Invoked,
    serial: Option<&str>,
    imeis: &[String],
    name: Option<&str>,
    what: &str,
) -> Result<(), RuntimeError> {
    let Some(serial) = serial else {
        return Ok(());
    };
    let context = format!("apple-device:{serial}");
    let label = name.unwrap_or(serial);
    run.observe(
        &context,
        EntityKind::Device,
        label,
        IdType::Serial,
        serial,
        inv,
        format!("{serial} is the serial number of {label}, {what}."),
    )?;
    for imei in imeis {
        run.observe(
            &context,
            EntityKind::Device,
            label,
            IdType::Imei,
            imei,
            inv,
            format!("{imei} is an IMEI of {label} (serial {serial}), {what}."),
        )?;
    }
    if let Some(n) = name {
        run.observe(
            &context,
            EntityKind::Device,
            n,
            IdType::DeviceName,
            n,
            inv,
            format!("{n} is the name of the device with serial {serial}, {what}."),
        )?;
    }
    Ok(())
}

/// The IMEIs of `additional_info` (`{"phones": [{"imei": …}]}`), as the cell holds them.
fn imeis_of(cell: Option<&str>) -> Vec<String> {
    let Some(text) = cell else {
        return Vec::new();
    };
    let v: Value =
        serde_json::from_str(text.strip_prefix("json:").unwrap_or(text)).unwrap_or(Value::Null);
    v.get("phones")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| match p.get("imei")? {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .collect()
}

/// The authentication daemon's device list and deleted devices.
fn akd(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["device_list", "deleted_device_list"])? else {
        return Ok(());
    };
    let file = file_name(path);
    if schema.require(run, "device_list", &["name"])? {
        let cols = [
            "last_updated_date",
            "last_cache_updated_date",
            "name",
            "model",
            "os",
            "os_version",
            "build_number",
            "serial_number",
            "additional_info",
            "trusted",
            "circle_status",
            "services",
            "mid",
            "altDSID",
            "dc",
            "clcg",
            "clbg",
            "clhs",
            "dec",
        ];
        let sql = format!(
            "SELECT d.rowid AS rid, {} FROM device_list d",
            cols.iter()
                .map(|c| format!("{} AS {c}", schema.col("d", "device_list", c)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let Some(pages) = run.paged_with(path, &sql, "d.rowid", &["json"])? else {
            return Ok(());
        };
        crate::calls::note_pages_cap(run.ctx, path, &pages, "account devices")?;
        for (inv, t, row) in pages.rows() {
            let get = |c: &str| t.get(row, c);
            let name = raw(t, row, "name");
            let serial = raw(t, row, "serial_number");
            let imeis = imeis_of(get("additional_info"));
            let mut d = Draft::new(
                "device",
                format!(
                    "Apple Account device: {}{}",
                    name.as_deref().unwrap_or("unnamed"),
                    get("model").map(|m| format!(" ({m})")).unwrap_or_default()
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Name, name.as_deref(), inv);
            d.fact(FactType::Serial, serial.as_deref(), inv);
            for i in &imeis {
                d.fact(FactType::Imei, Some(i), inv);
            }
            d.fact(
                FactType::Text,
                raw(t, row, "additional_info").as_deref(),
                inv,
            );
            for c in [
                "model",
                "os",
                "os_version",
                "build_number",
                "mid",
                "altDSID",
            ] {
                d.fact(FactType::Identifier, raw(t, row, c).as_deref(), inv);
            }
            for c in [
                "trusted",
                "circle_status",
                "services",
                "dc",
                "clcg",
                "clbg",
                "clhs",
                "dec",
            ] {
                d.fact(FactType::Text, raw(t, row, c).as_deref(), inv);
            }
            for (c, what) in [
                (
                    "last_updated_date",
                    "Apple Account device list entry updated",
                ),
                (
                    "last_cache_updated_date",
                    "Apple Account device list cache updated",
                ),
            ] {
                let v = raw(t, row, c);
                d.time(v.as_deref(), unix_seconds(v.as_deref()), what, inv);
            }
            let shown = |c: &str| get(c).unwrap_or("?");
            d.interpretation = format!(
                "device_list row {} of {file}: a device of the Apple Account(s) signed in on this phone, as the authentication daemon last cached it: {}, model {}, {} {} (build {}), serial {}, IMEI {}, trusted {} ({}), circle status {}, services {}, machine id {}, altDSID {}; dc {}, clcg {}, clbg {}, clhs {}, dec {} as stored; updated {}, cache updated {} (Unix seconds).",
                shown("rid"),
                shown("name"),
                shown("model"),
                shown("os"),
                shown("os_version"),
                shown("build_number"),
                shown("serial_number"),
                if imeis.is_empty() {
                    "none kept".to_string()
                } else {
                    imeis.join(", ")
                },
                shown("trusted"),
                match get("trusted") {
                    Some("1") => "yes",
                    Some("0") => "no",
                    _ => "as stored",
                },
                shown("circle_status"),
                shown("services"),
                shown("mid"),
                shown("altDSID"),
                shown("dc"),
                shown("clcg"),
                shown("clbg"),
                shown("clhs"),
                shown("dec"),
                shown("last_updated_date"),
                shown("last_cache_updated_date"),
            );
            run.record(d)?;
            observe_device(
                run,
                inv,
                get("serial_number"),
                &imeis,
                get("name"),
                "a device of the phone's Apple Account (akd devicelist.db)",
            )?;
        }
    }
    let dc = schema.columns("deleted_device_list");
    if dc.is_empty() {
        return Ok(());
    }
    let c = |col: &str| schema.col("d", "deleted_device_list", col);
    let sql = format!(
        "SELECT d.rowid AS rid, {} AS deleted_date, {} AS last_updated_date, {} AS reason, {} AS mid, {} AS altDSID FROM deleted_device_list d",
        c("deleted_date"),
        c("last_updated_date"),
        c("reason"),
        c("mid"),
        c("altDSID"),
    );
    let Some(pages) = run.paged(path, &sql, "d.rowid")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "deleted account devices")?;
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| t.get(row, c);
        let mut d = Draft::new(
            "device",
            format!(
                "Apple Account device removed: machine id {}",
                get("mid").unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, raw(t, row, "mid").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "altDSID").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "reason").as_deref(), inv);
        for (c, what) in [
            ("deleted_date", "Device removed from the Apple Account"),
            ("last_updated_date", "Deleted device list entry updated"),
        ] {
            let v = raw(t, row, c);
            d.time(v.as_deref(), unix_seconds(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "deleted_device_list row {} of {file}: the device with machine id {} was removed from the Apple Account {} (reason code {}, as stored: its values are not documented) at {}, the entry updated {} (Unix seconds).",
            get("rid").unwrap_or("?"),
            get("mid").unwrap_or("?"),
            get("altDSID").unwrap_or("?"),
            get("reason").unwrap_or("?"),
            get("deleted_date").unwrap_or("?"),
            get("last_updated_date").unwrap_or("?"),
        );
        run.record(d)?;
    }
    Ok(())
}

/// The first object under `v` holding any of `keys` (a peer's gestalt inside its SOSPeerInfo).
fn object_with<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a serde_json::Map<String, Value>> {
    match v {
        Value::Object(o) if keys.iter().any(|k| o.contains_key(*k)) => Some(o),
        Value::Object(o) => o.values().find_map(|x| object_with(x, keys)),
        Value::Array(a) => a.iter().find_map(|x| object_with(x, keys)),
        _ => None,
    }
}

/// The keys of a trusted peer's gestalt, with what they are.
const GESTALT: [(&str, &str); 4] = [
    ("OSVersion", "OS version"),
    ("ModelName", "model name"),
    ("ComputerName", "computer name"),
    ("SerialNumber", "serial number"),
];

/// A trust circle's escrow records: the devices of the account that hold its keychain.
fn trusted_peers(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZESCROWCLIENTMETADATA", "ZESCROWMETADATA"])? else {
        return Ok(());
    };
    if schema.columns("ZESCROWCLIENTMETADATA").is_empty() {
        // one database per trust-circle context; a release without escrow records keeps none
        run.ctx.unparsed(
            path,
            "no ZESCROWCLIENTMETADATA table: this trust-circle database keeps no escrow records (not evidence the feature was unused)",
            None,
        )?;
        return Ok(());
    }
    let c = |col: &str| schema.col("c", "ZESCROWCLIENTMETADATA", col);
    let m = |col: &str| schema.col("m", "ZESCROWMETADATA", col);
    let joined = schema
        .columns("ZESCROWCLIENTMETADATA")
        .contains("ZESCROWMETADATA")
        && schema.columns("ZESCROWMETADATA").contains("Z_PK");
    let sql = format!(
        "SELECT c.rowid AS rid, {} AS ts, {} AS model, {} AS model_version, {} AS device_name, {} AS serial, {} AS passcode_length, {} AS color, {} AS enclosure_color, {} AS peer_info FROM ZESCROWCLIENTMETADATA c {}",
        c("ZSECUREBACKUPMETADATATIMESTAMP"),
        c("ZDEVICEMODEL"),
        c("ZDEVICEMODELVERSION"),
        c("ZDEVICENAME"),
        if joined { m("ZSERIAL") } else { "NULL".into() },
        c("ZSECUREBACKUPNUMERICPASSPHRASELENGTH"),
        c("ZDEVICECOLOR"),
        c("ZDEVICEENCLOSURECOLOR"),
        if joined {
            m("ZPEERINFO")
        } else {
            "NULL".into()
        },
        if joined {
            "LEFT JOIN ZESCROWMETADATA m ON c.ZESCROWMETADATA = m.Z_PK"
        } else {
            ""
        },
    );
    let Some(pages) = run.paged_with(path, &sql, "c.rowid", &["der"])? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "trusted peers")?;
    let file = file_name(path);
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| t.get(row, c);
        let peer: Value = get("peer_info")
            .and_then(|p| p.strip_prefix("der:"))
            .and_then(|p| serde_json::from_str(p).ok())
            .unwrap_or(Value::Null);
        let gestalt = object_with(&peer, &GESTALT.map(|(k, _)| k));
        let g = |k: &str| -> Option<String> {
            match gestalt?.get(k)? {
                Value::String(s) if !s.is_empty() => Some(s.clone()),
                _ => None,
            }
        };
        let name = get("device_name")
            .map(str::to_string)
            .or_else(|| g("ComputerName"));
        let serial = get("serial")
            .map(str::to_string)
            .or_else(|| g("SerialNumber"));
        let mut d = Draft::new(
            "device",
            format!(
                "Apple Account trusted peer: {}{}",
                name.as_deref().unwrap_or("unnamed"),
                get("model").map(|m| format!(" ({m})")).unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, raw(t, row, "device_name").as_deref(), inv);
        d.fact(FactType::Serial, raw(t, row, "serial").as_deref(), inv);
        for c in ["model", "model_version", "color", "enclosure_color"] {
            d.fact(FactType::Identifier, raw(t, row, c).as_deref(), inv);
        }
        d.fact(FactType::Count, get("passcode_length"), inv);
        let mut said = Vec::new();
        for (k, what) in GESTALT {
            if let Some(v) = g(k) {
                let ft = match k {
                    "SerialNumber" => FactType::Serial,
                    "ComputerName" => FactType::Name,
                    _ => FactType::Identifier,
                };
                d.fact(ft, Some(&in_json_cell(&v)), inv);
                said.push(format!("{what} {v}"));
            }
        }
        let ts = raw(t, row, "ts");
        d.time(
            ts.as_deref(),
            core_data_encoding(ts.as_deref()),
            "Secure backup (escrow) record of the trusted peer",
            inv,
        );
        let shown = |c: &str| get(c).unwrap_or("?");
        d.interpretation = format!(
            "ZESCROWCLIENTMETADATA row {} of {file}: a device of the phone's Apple Account that holds its iCloud Keychain (a peer of its trust circle, with a secure-backup escrow record): {}, model {} {}, serial {}, the secure backup's numeric passcode {} digits long, colour {}, enclosure colour {}; escrow time {} (Cocoa seconds){}.",
            shown("rid"),
            shown("device_name"),
            shown("model"),
            shown("model_version"),
            shown("serial"),
            shown("passcode_length"),
            shown("color"),
            shown("enclosure_color"),
            shown("ts"),
            if said.is_empty() {
                String::new()
            } else {
                format!(
                    "; the peer's own record (ZPEERINFO) says {}",
                    said.join(", ")
                )
            },
        );
        run.record(d)?;
        observe_device(
            run,
            inv,
            serial.as_deref(),
            &[],
            name.as_deref(),
            "a trusted peer of the phone's Apple Account (TrustedPeersHelper.db)",
        )?;
    }
    Ok(())
}

/// The first array under `v` stored as `key`.
fn array_at<'a>(v: &'a Value, key: &str) -> Option<&'a Vec<Value>> {
    match v {
        Value::Object(o) => o
            .get(key)
            .and_then(Value::as_array)
            .or_else(|| o.values().find_map(|x| array_at(x, key))),
        Value::Array(a) => a.iter().find_map(|x| array_at(x, key)),
        _ => None,
    }
}

/// The Find My daemon's list of the account's devices.
fn fmfd(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse_with(run, path, json!({"decode_data": true}))? else {
        return Ok(());
    };
    let Some(devices) = array_at(&v, "kFMFDDevicesListKey") else {
        if v.get("kFMFDStoredDataKey").is_some() {
            run.ctx.unparsed(
                path,
                "kFMFDStoredDataKey holds no device list (kFMFDDevicesListKey) this reader can read",
                Some(&inv.record.invocation_id),
            )?;
        }
        return Ok(());
    };
    let file = file_name(path);
    for (i, x) in devices.iter().enumerate() {
        let s = |k: &str| json_scalar(x.get(k));
        let name = x.get("deviceName").and_then(Value::as_str);
        let id = x
            .get("deviceId")
            .or_else(|| x.get("idsDeviceId"))
            .and_then(Value::as_str);
        let mut d = Draft::new(
            "device",
            format!("Find My device: {}", name.unwrap_or("unnamed")),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, s("deviceName").as_deref(), &inv);
        d.fact(FactType::Identifier, s("deviceId").as_deref(), &inv);
        d.fact(FactType::Identifier, s("idsDeviceId").as_deref(), &inv);
        let flag = |k: &str| match x.get(k).and_then(Value::as_bool) {
            Some(true) => "yes",
            Some(false) => "no",
            None => "not kept",
        };
        d.interpretation = format!(
            "device {} of {file}'s kFMFDDevicesListKey (the Find My daemon's list of the Apple Account's devices): {}, device id {}, IDS device id {}; active device {}, this device {}, companion device {}, auto-Me capable {}.",
            i + 1,
            name.unwrap_or("unnamed"),
            s("deviceId").unwrap_or_else(|| "?".into()),
            s("idsDeviceId").unwrap_or_else(|| "?".into()),
            flag("isActiveDevice"),
            flag("isThisDevice"),
            flag("isCompanionDevice"),
            flag("isAutoMeCapable"),
        );
        run.record(d)?;
        let Some(n) = name.filter(|n| !n.is_empty()) else {
            continue;
        };
        if x.get("isThisDevice").and_then(Value::as_bool) == Some(true) {
            run.observe(
                "device",
                EntityKind::Device,
                n,
                IdType::DeviceName,
                n,
                &inv,
                format!("{n} is this phone's name in the Find My daemon's device list ({file}: isThisDevice)."),
            )?;
        } else if let Some(id) = id {
            run.observe(
                &format!("fmf-device:{id}"),
                EntityKind::Device,
                n,
                IdType::DeviceName,
                n,
                &inv,
                format!("{n} is a device of the phone's Apple Account in the Find My daemon's device list ({file}; device id {id})."),
            )?;
        }
    }
    Ok(())
}

/// Whether a key holds a secret (a token, key or password) whose value is not copied.
fn secret(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    ["token", "password", "secret", "key"]
        .iter()
        .any(|w| k.contains(w))
}

/// The Find My iPhone account.
fn fmip(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse_with(run, path, json!({}))? else {
        return Ok(());
    };
    let Some(o) = v.as_object() else {
        return Ok(());
    };
    let file = file_name(path);
    let mut d = Draft::new("accounts", "Find My iPhone account".to_string());
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    let mut withheld = Vec::new();
    let (mut user, mut dsid) = (None, None);
    for (key, x) in o {
        if secret(key) {
            withheld.push(key.as_str());
            continue;
        }
        if key == "addTime" {
            let t = json_scalar(Some(x));
            d.time(
                t.as_deref(),
                unix_seconds(t.as_deref()),
                "Find My iPhone enabled (account added)",
                &inv,
            );
            said.push(format!("added {}", t.as_deref().unwrap_or("?")));
            continue;
        }
        let mut leaves = Vec::new();
        json_leaves(x, key, &mut leaves);
        for (k, val) in leaves {
            let ft = match k.as_str() {
                "username" | "appleId" | "appleID" => {
                    user = x.as_str().map(str::to_string);
                    FactType::Account
                }
                "personID" | "dsid" => {
                    dsid = json_scalar(Some(x));
                    FactType::Account
                }
                _ => FactType::Text,
            };
            d.fact(ft, Some(&val), &inv);
            said.push(format!("{k} {val}"));
        }
    }
    d.interpretation = format!(
        "{file}: the Find My iPhone account of this phone: {}{}.",
        said.join(", "),
        if withheld.is_empty() {
            String::new()
        } else {
            format!(
                "; {} kept, their values not copied into this finding",
                withheld.join(", ")
            )
        }
    );
    run.record(d)?;
    if let Some(u) = user.filter(|u| !u.is_empty()) {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AppleId,
            &u,
            &inv,
            format!("{u} is the Apple ID this phone's Find My iPhone is enabled with ({file})."),
        )?;
    }
    if let Some(n) = dsid {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Dsid,
            &n,
            &inv,
            format!("{n} is the DSID of the Apple Account this phone's Find My iPhone is enabled with ({file})."),
        )?;
    }
    Ok(())
}
