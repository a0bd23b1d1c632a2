//! Device identity property lists and keychain exports, read with `parse_plist`:
//!
//! - Lockdown `data_ark.plist` (`-DeviceName`, time zone, last backup computer), the CommCenter
//!   plists (`PhoneNumber`, `LastKnownICCID`, IMSI, `imeis`), purplebuddy and
//!   `SystemVersion.plist`: one phenomenon per plist with the identifiers and device facts it
//!   holds; IMEI, ICCID, IMSI, serial and device name observed for `device`, the own phone
//!   number for `owner`. Keys are matched by name anywhere in the plist (`imei`, `iccid`,
//!   `imsi`, `phonenumber`, `mdn`; the last key exactly `SerialNumber` or `DeviceName`;
//!   `PersonalitySlots` entries and `PersonalWallet` keys are ICCIDs), so the same reading
//!   covers the nested per-SIM entries and the `imeis` list; a value is observed only when it
//!   is a valid identifier of its type (IMEI Luhn, ICCID 18-20 digits, …). CommCenter's
//!   `com.apple.commcenter.device_specific_nobackup.plist` also gives one phenomenon per
//!   property with every value (iLEAPP's `deviceDatam`).
//! - An iTunes/Finder backup's own plists (`/.backup/Info.plist` and `Manifest.plist`, where
//!   the evidence layer lists them, see `masf_evidence::itunes`): what the phone told the
//!   computer when it was backed up — IMEI, MEID, serial, ICCID, phone number, device name, the
//!   device's UDID, model, iOS version and the backup's date — read by the same key rules.
//! - Lockdown pairing records (`root/Library/Lockdown/pair_records/<HostID>.plist`): one
//!   phenomenon per computer the device trusted, with its host id (the name), system BUID and
//!   the device's Wi-Fi MAC as the record keeps them (never its keys or certificates); the
//!   computer observed as `pairing-host:<HostID>`, which that computer's own record names
//!   (`crate::lockdown`).
//! - Keychain dumps exported as plists (`genp`/`inet`/… arrays of items, or one array): one
//!   phenomenon per item with its account (`acct`), service (`svce`), server (`srvr`), access
//!   group and label, never the secret (`v_Data` and any other data field are not read).
//!   E-mail-shaped accounts are observed for `owner`.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::region::Clue;

/// Plists that carry the device's identity.
pub(super) const IDENTITY_GLOBS: [&str; 4] = [
    "data_ark.plist",
    "com.apple.commcenter*.plist",
    "com.apple.purplebuddy*.plist",
    "SystemVersion.plist",
];

/// Where an iTunes/Finder backup's own files are listed (`masf_evidence::itunes`).
const BACKUP_DIR: &str = "/.backup";

/// Device facts worth keeping besides identifiers (key as written → what it is).
const DEVICE_KEYS: [(&str, &str); 16] = [
    ("MEID", "MEID"),
    ("Product Type", "model"),
    ("ProductType", "model"),
    ("Product Version", "iOS version"),
    ("Build Version", "iOS build"),
    ("BuildVersion", "iOS build"),
    ("Last Backup Date", "last backup"),
    ("iTunes Version", "iTunes version"),
    ("-TimeZone", "time zone"),
    (
        "com.apple.iTunes.backup-LastBackupComputerName",
        "last backup computer",
    ),
    ("-DarkProductVersion", "iOS version"),
    ("ProductVersion", "iOS version"),
    ("ProductBuildVersion", "iOS build"),
    ("ProductName", "product"),
    ("lastKnownOSVersion", "iOS version"),
    ("GuessedCountry", "guessed country"),
];

/// Keychain item attributes read (never the data fields).
const KEYCHAIN_ATTRS: [(&str, FactType); 5] = [
    ("acct", FactType::Account),
    ("svce", FactType::Identifier),
    ("srvr", FactType::Identifier),
    ("agrp", FactType::Identifier),
    ("labl", FactType::Name),
];

/// The phone-numbering region of the source, from its own evidence (see [`crate::region`]):
/// the CommCenter plists (IMSIs, ICCIDs, the subscriber's MCC, the carrier bundle, the own
/// number when written with `+`) and the locale of `.GlobalPreferences.plist` (`AppleLocale`).
/// Runs before anything reads a phone number.
pub fn region(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut clues: Vec<(Clue, Invoked)> = Vec::new();
    for glob in ["com.apple.commcenter*.plist", ".GlobalPreferences.plist"] {
        let Some((_, paths)) = run.find(glob)? else {
            continue;
        };
        for path in &paths {
            let Some((inv, value)) = parse(run, path)? else {
                continue;
            };
            let mut all = Vec::new();
            leaves(&value, &mut Vec::new(), &mut all);
            for (keys, v) in &all {
                let v = v.trim();
                if v.is_empty() || !inv.output.text.contains(v) {
                    continue;
                }
                let Some((kind, fact_type)) = region_clue(keys, v) else {
                    continue;
                };
                if clues.iter().any(|(c, _)| c.kind == kind && c.value == v) {
                    continue;
                }
                clues.push((
                    Clue {
                        kind,
                        value: v.to_string(),
                        at: format!("{} > {}", file_name(path), keys.join(" > ")),
                        fact_type,
                    },
                    inv.clone(),
                ));
            }
        }
    }
    crate::region::settle(run.ctx, &clues)?;
    Ok(())
}

/// What a plist value says about the source's region, by its key path.
fn region_clue(keys: &[String], value: &str) -> Option<(&'static str, FactType)> {
    let last = keys.last()?.to_ascii_lowercase();
    let path = keys.join("/").to_ascii_lowercase();
    let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
    if last == "applelocale" {
        Some(("locale", FactType::Text))
    } else if path.contains("imsi") && digits && (6..=15).contains(&value.len()) {
        Some(("imsi", FactType::Imsi))
    } else if last == "lastknowniccid"
        || ((path.contains("iccid") || keys.first().is_some_and(|k| k == "PersonalWallet"))
            && last == "iccid"
            && (18..=20).contains(&value.trim_end_matches(['F', 'f']).len()))
    {
        Some(("iccid", FactType::Iccid))
    } else if last == "koperatorroaminginfo_subscriber_mcc" && digits && value.len() == 3 {
        Some(("mcc", FactType::Identifier))
    } else if last == "koperatorroaminginfo_subscriber_carrierbundleid" {
        Some(("carrier", FactType::Identifier))
    } else if (last.contains("phonenumber") || last == "mdn") && value.starts_with('+') {
        Some(("own_number", FactType::Phone))
    } else {
        None
    }
}

/// Triage of the identity plists and keychain exports of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for glob in IDENTITY_GLOBS {
        let Some((find, paths)) = run.find(glob)? else {
            continue;
        };
        for path in &paths {
            let parsed = identity(run, &find, path)?;
            if let Some((inv, value)) = parsed.filter(|_| {
                file_name(path) == "com.apple.commcenter.device_specific_nobackup.plist"
            }) {
                device_data(run, &find, path, &inv, &value)?;
            }
        }
    }
    backup(run)?;
    pair_records(run)?;
    if let Some((find, paths)) = run.find("*eychain*.plist")? {
        for path in &paths {
            keychain(run, &find, path)?;
        }
    }
    Ok(())
}

/// An iTunes/Finder backup's `Info.plist` and `Manifest.plist` (found by the `Manifest.plist`
/// the evidence layer lists under [`BACKUP_DIR`]; an extraction has none there).
fn backup(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((_, paths)) = run.find("Manifest.plist")? else {
        return Ok(());
    };
    if !paths.contains(&format!("{BACKUP_DIR}/Manifest.plist")) {
        return Ok(());
    }
    let args = serde_json::json!({"path": BACKUP_DIR, "name_glob": "*.plist"});
    let Some(find) = crate::calls::call_or_note(run.ctx, BACKUP_DIR, "find_files", args)? else {
        return Ok(());
    };
    for name in ["Info.plist", "Manifest.plist"] {
        let path = format!("{BACKUP_DIR}/{name}");
        if crate::outputs::found_paths(&find.output.text).contains(&path) {
            identity(run, &find, &path)?;
        }
    }
    Ok(())
}

/// The computers the device trusted: `pair_records/<HostID>.plist` below Lockdown.
fn pair_records(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("????????-????-????-????-????????????.plist")? else {
        return Ok(());
    };
    for path in paths
        .iter()
        .filter(|p| p.contains("/Lockdown/pair_records/"))
    {
        let name = file_name(path).trim_end_matches(".plist");
        let Ok(host) = masf_graph::identifiers::normalize(IdType::PairingHost, name, None) else {
            continue;
        };
        let Some((inv, value)) = parse(run, path)? else {
            continue;
        };
        let mut d = Draft::new("device", format!("Computer {host} paired with this device"));
        d.fact(FactType::Path, Some(path), &find);
        d.fact(FactType::Identifier, Some(name), &find);
        let mut said = Vec::new();
        for (key, what) in [
            ("SystemBUID", "system BUID"),
            ("WiFiMACAddress", "Wi-Fi MAC address"),
        ] {
            if let Some(v) = value[key].as_str().filter(|v| !v.is_empty()) {
                d.fact(
                    FactType::Identifier,
                    Some(&crate::outputs::in_json(v)),
                    &inv,
                );
                said.push(format!("{what} {v}"));
            }
        }
        d.interpretation = format!(
            "{path} is the device's lockdown pairing record of the computer with host id {host}: the device trusted that computer{}. The record's keys and certificates are not copied into this finding.",
            if said.is_empty() {
                String::new()
            } else {
                format!(" ({})", said.join(", "))
            }
        );
        run.record(d)?;
        run.observe(
            &format!("pairing-host:{host}"),
            EntityKind::Device,
            "computer paired with this device",
            IdType::PairingHost,
            name,
            &find,
            format!("{path} is the pairing record of the computer with host id {host}."),
        )?;
    }
    Ok(())
}

/// A plist of the source read with `parse_plist` as JSON; `None` (noted unparsed) when the tool
/// fails or its output is no JSON.
pub(crate) fn parse(
    run: &Run<'_, '_>,
    path: &str,
) -> Result<Option<(Invoked, Value)>, RuntimeError> {
    parse_with(run, path, serde_json::json!({}))
}

/// [`parse`] with more of `parse_plist`'s arguments (`qualify`, `decode_data`) in `options`.
pub(crate) fn parse_with(
    run: &Run<'_, '_>,
    path: &str,
    options: Value,
) -> Result<Option<(Invoked, Value)>, RuntimeError> {
    let mut args = options;
    args["path"] = Value::from(path);
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "parse_plist", args)? else {
        return Ok(None);
    };
    match serde_json::from_str::<Value>(&inv.output.text) {
        Ok(v) => Ok(Some((inv, v))),
        Err(e) => {
            run.ctx.unparsed(
                path,
                &format!("parse_plist output is not JSON: {e}"),
                Some(&inv.record.invocation_id),
            )?;
            Ok(None)
        }
    }
}

/// Every scalar leaf of a JSON value with its key path (`PersonalWallet/8985…/IMSI`).
fn leaves(v: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                // CommCenter keeps one entry per SIM under its ICCID.
                if path.len() == 1 && path[0] == "PersonalWallet" {
                    out.push((vec!["PersonalWallet".into(), "iccid".into()], k.clone()));
                }
                path.push(k.clone());
                leaves(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(i.to_string());
                leaves(x, path, out);
                path.pop();
            }
        }
        Value::String(s) => out.push((path.clone(), s.clone())),
        Value::Number(n) => out.push((path.clone(), n.to_string())),
        _ => {}
    }
}

/// The identifier type a key path names, and whose it is.
fn identity_kind(keys: &[String]) -> Option<(IdType, FactType, &'static str)> {
    let p = keys.join("/").to_ascii_lowercase();
    let last = keys
        .last()
        .map(|k| k.to_ascii_lowercase())
        .unwrap_or_default();
    if last == "mdn" {
        // The mobile directory number: the SIM's own phone number.
        return Some((IdType::Phone, FactType::Phone, "owner"));
    }
    if keys.first().is_some_and(|k| k == "PersonalitySlots") {
        return Some((IdType::Iccid, FactType::Iccid, "device"));
    }
    if p.contains("imei") && !p.contains("svn") {
        Some((IdType::Imei, FactType::Imei, "device"))
    } else if p.contains("iccid") {
        Some((IdType::Iccid, FactType::Iccid, "device"))
    } else if p.contains("imsi") {
        Some((IdType::Imsi, FactType::Imsi, "device"))
    } else if ["serialnumber", "-serialnumber", "serial number"].contains(&last.as_str()) {
        // Exactly the device's; not BasebandSerialNumber and the like.
        Some((IdType::Serial, FactType::Serial, "device"))
    } else if ["unique identifier", "target identifier", "uniquedeviceid"].contains(&last.as_str())
    {
        // An iTunes backup's Info.plist and Manifest.plist name the phone by its UDID.
        Some((IdType::Udid, FactType::Identifier, "device"))
    } else if ["devicename", "-devicename", "device name"].contains(&last.as_str()) {
        Some((IdType::DeviceName, FactType::Name, "device"))
    } else if p.contains("phonenumber") || last == "phone number" {
        Some((IdType::Phone, FactType::Phone, "owner"))
    } else {
        None
    }
}

/// The device identity of one plist; its parsed content for further reading (`None` when it
/// could not be read: noted).
fn identity(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
) -> Result<Option<(Invoked, Value)>, RuntimeError> {
    let Some((inv, value)) = parse(run, path)? else {
        return Ok(None);
    };
    let mut all = Vec::new();
    leaves(&value, &mut Vec::new(), &mut all);
    let text = &inv.output.text;
    let mut d = Draft::new("device", format!("Device identity in {path}"));
    d.fact(FactType::Path, Some(path), find);
    let mut found: Vec<String> = Vec::new();
    let mut observations = Vec::new();
    for (keys, v) in &all {
        if v.trim().is_empty() || !text.contains(v.as_str()) {
            continue;
        }
        let key = keys.join(" > ");
        if let Some((id_type, fact_type, whose)) = identity_kind(keys) {
            if run.normalised(id_type, v).is_none() {
                continue;
            }
            d.fact(fact_type, Some(v), &inv);
            found.push(format!("{id_type} {v} ({key})"));
            observations.push((whose, id_type, v.clone(), key));
        } else if let Some((_, what)) = DEVICE_KEYS
            .iter()
            .find(|(k, _)| keys.last().is_some_and(|l| l == k))
        {
            d.fact(FactType::Text, Some(v), &inv);
            found.push(format!("{what} {v}"));
        }
    }
    if found.is_empty() {
        return Ok(Some((inv, value)));
    }
    d.interpretation = format!("{path} records {}.", found.join(", "));
    run.record(d)?;
    for (whose, id_type, v, key) in observations {
        let (kind, label) = if whose == "device" {
            (EntityKind::Device, "examined device")
        } else {
            (EntityKind::Person, "device owner")
        };
        run.observe(
            whose,
            kind,
            label,
            id_type,
            &v,
            &inv,
            format!(
                "{} records {v} under {key}: the {}'s {id_type}.",
                file_name(path),
                if whose == "device" {
                    "device"
                } else {
                    "device owner"
                }
            ),
        )?;
    }
    Ok(Some((inv, value)))
}

/// The time encoding of a numeric CommCenter value under a key named like a time
/// (`AccountCreationTimestamp`, `…ExpiryTime`, `launchTimestamps`): Unix seconds when the
/// value is that large (after 2008), Apple absolute seconds otherwise; `None` for other keys
/// and for day counts (`kCKUploadDate`, days since 1970: kept as a number).
fn commcenter_time(key: &str, v: &str) -> Option<TimeEncoding> {
    let k = key.to_ascii_lowercase();
    if !(k.contains("timestamp") || k.ends_with("time")) {
        return None;
    }
    let n: f64 = v.parse().ok()?;
    if !n.is_finite() || n < 1e8 {
        return None;
    }
    Some(if n >= 1.2e9 {
        TimeEncoding::UnixSeconds
    } else {
        TimeEncoding::AppleSeconds
    })
}

/// Every property of CommCenter's `com.apple.commcenter.device_specific_nobackup.plist`
/// (iLEAPP's `deviceDatam`): one phenomenon per top-level key with each of its values (nested
/// dictionaries and lists flattened to their leaves), dates and time-named numbers as time
/// marks. Its identifiers are observed by [`identity`].
fn device_data(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    value: &Value,
) -> Result<(), RuntimeError> {
    let Some(props) = value.as_object() else {
        run.ctx.unparsed(
            path,
            "unexpected format: the plist is not a dictionary of properties",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for (count, (key, v)) in props.iter().enumerate() {
        if count as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!(
                    "{} properties; the first {count} were recorded",
                    props.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let key_in = crate::outputs::in_json(key);
        let mut d = Draft::new("device", format!("CommCenter device data {key_in}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = Vec::new();
        let mut all = Vec::new();
        match v {
            Value::Bool(b) => all.push((Vec::new(), b.to_string())),
            _ => leaves(v, &mut Vec::new(), &mut all),
        }
        // booleans nested in dictionaries (`leaves` keeps strings and numbers only)
        bools(v, &mut Vec::new(), &mut all);
        for (keys, leaf) in &all {
            let shown = crate::outputs::in_json(leaf);
            let name = keys
                .iter()
                .rev()
                .find(|k| k.parse::<usize>().is_err())
                .map(String::as_str)
                .unwrap_or(key);
            let at = if keys.is_empty() {
                String::new()
            } else {
                format!(" ({})", crate::outputs::in_json(&keys.join(" > ")))
            };
            if let Some(enc) = commcenter_time(name, leaf) {
                d.time(
                    Some(&shown),
                    Some(enc),
                    &format!("CommCenter {}", crate::outputs::in_json(name)),
                    inv,
                );
            } else if is_iso_time(leaf) {
                d.time(
                    Some(&shown),
                    Some(TimeEncoding::Iso8601),
                    &format!("CommCenter {}", crate::outputs::in_json(name)),
                    inv,
                );
            } else {
                d.fact(FactType::Text, Some(&shown), inv);
            }
            if !shown.trim().is_empty() {
                said.push(format!("{shown}{at}"));
            }
        }
        d.interpretation = format!(
            "CommCenter's device-specific preferences ({path}) hold {key_in}: {}.",
            if said.is_empty() {
                "no value".to_string()
            } else {
                said.join(", ")
            }
        );
        run.record(d)?;
    }
    Ok(())
}

/// The booleans below a value (not at its top), with their key paths.
fn bools(v: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(k.clone());
                if let Value::Bool(b) = x {
                    out.push((path.clone(), b.to_string()));
                } else {
                    bools(x, path, out);
                }
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(i.to_string());
                if let Value::Bool(b) = x {
                    out.push((path.clone(), b.to_string()));
                } else {
                    bools(x, path, out);
                }
                path.pop();
            }
        }
        _ => {}
    }
}

/// Whether a string is a date as `parse_plist` writes one (`2023-01-05T10:22:09.256450Z`).
fn is_iso_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 20
        && b.get(4) == Some(&b'-')
        && b.get(10) == Some(&b'T')
        && s.ends_with('Z')
        && [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
            .iter()
            .all(|&i| b.get(i).is_some_and(u8::is_ascii_digit))
}

/// Keychain items: dictionaries holding any of the attributes read.
fn items(v: &Value, out: &mut Vec<serde_json::Map<String, Value>>) {
    match v {
        Value::Object(m) => {
            if KEYCHAIN_ATTRS.iter().any(|(k, _)| m.contains_key(*k)) {
                out.push(m.clone());
            } else {
                for x in m.values() {
                    items(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| items(x, out)),
        _ => {}
    }
}

fn keychain(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, value)) = parse(run, path)? else {
        return Ok(());
    };
    let mut found = Vec::new();
    items(&value, &mut found);
    if found.is_empty() {
        run.ctx.unparsed(
            path,
            "no keychain items (dictionaries with acct, svce or srvr) in the plist",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let text = &inv.output.text;
    let total = found.len();
    for (i, item) in found.iter().take(ENTRY_CAP as usize).enumerate() {
        let get = |k: &str| {
            item.get(k)
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty() && text.contains(*s))
        };
        let acct = get("acct");
        let service = get("svce").or_else(|| get("srvr"));
        let mut d = Draft::new(
            "credentials",
            format!(
                "Keychain item {}: {} for {}",
                i + 1,
                acct.unwrap_or("(no account)"),
                service.unwrap_or("(no service)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        for (k, t) in KEYCHAIN_ATTRS {
            d.fact(t, get(k), &inv);
        }
        if let Some(m) = get("mdat") {
            d.time(
                Some(m),
                Some(TimeEncoding::Iso8601),
                "Modification Time",
                &inv,
            );
        }
        d.interpretation = format!(
            "The keychain export {path} holds a credential for account {} with service {}; its secret is not reproduced here.",
            acct.unwrap_or("(none)"),
            service.unwrap_or("(none)")
        );
        run.record(d)?;
        if let Some(a) = acct.filter(|a| a.contains('@')) {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Email,
                a,
                &inv,
                format!("The device keychain holds a credential for {a}."),
            )?;
        }
    }
    if total > ENTRY_CAP as usize {
        let count = total.to_string();
        let mut d = Draft::new("credentials", format!("Keychain items in {path} (summary)"));
        d.fact(FactType::Path, Some(path), find);
        d.interpretation = format!(
            "{path} holds {count} keychain items; the first {ENTRY_CAP} are recorded one by one, the rest are not."
        );
        run.record(d)?;
    }
    Ok(())
}
