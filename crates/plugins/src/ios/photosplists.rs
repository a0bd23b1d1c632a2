//! The Photos app's, the Camera's and the media analysis daemon's property lists, the Photos
//! library's iCloud service logs and the device values of a Cellebrite UFED extraction, read with
//! `parse_plist` (iLEAPP's `Ph080comappleMobileSlideShowPlist`, `Ph081comappleCameraPlist`,
//! `Ph082comappleMediaAnalysisDPlist`, `Ph084CameraSmartSharingMetadataPlist`,
//! `Ph085acntsdcloudServiceEnableLogplist`, `Ph086astsdcloudServiceEnableLogplist` and
//! `Ph087UFEDdevcievaluesplist`):
//!
//! | file | read | phenomena | fields |
//! |---|---|---|---|
//! | `com.apple.mobileslideshow.plist` (a `Library/Preferences/` folder) | every property | one `media` per property ("Photos app setting <key>") | every value below it |
//! | `com.apple.camera.plist` (`Library/Preferences/`) | every property | one `media` per property ("Camera setting <key>"); one `locations` for a property holding an archived `CLLocation` (`CAMUserPreferenceSharedLibraryLast…Location`) | every value; latitude and longitude in the title |
//! | `com.apple.mediaanalysisd.plist` (`Library/Preferences/`) | every property | one `media` per property ("Media analysis setting <key>") | every value (the libraries analysed, the analysis progress) |
//! | `camera_smart_sharing_metadata.plist` (`PhotoData/Caches/SmartSharing/`, an NSKeyedArchiver archive) | `creationDate`, `homeLocations`, `frequentLocations`, `identities`, `locationShiftingRequired`, `version`, `libraryScopeLocalIdentifier` and any other member | one `media` ("Camera Smart Sharing metadata"); one `locations` per home and per frequent location | every value; each location's coordinates, accuracy, altitude and fix time |
//! | `cloudServiceEnableLog.plist` (only in a `com.apple.accountsd` or `com.apple.assetsd` folder) | every event of the list | one `accounts` per event ("Photos cloud service event <n>: <type> enabled/disabled") | `type`, `enabled`, `reason`, `timestamp`, any other member |
//! | `device_values.plist` (UFED Advanced Logical; not inside an app's container or a `Library` folder) | every property | one `device` per property ("UFED device value <key>") | every value; IMEI, serial, UDID, name, ICCID, IMSI and Bluetooth address typed and observed |
//!
//! Values: a property's value is flattened to its scalars (dictionaries and lists walked, each
//! with its key path); data holding a binary property list or JSON is opened (`decode_data`:
//! NSKeyedArchiver archives unwrapped, as the Camera keeps its `CLLocation`s and exposure biases
//! and the Photos app its TipKit state), other data is kept as its hex when short (128 bytes at
//! most) and only said otherwise. Times: plist dates (and archived `NSDate`s), which
//! `parse_plist` prints in RFC 3339, are time marks named by the property and key path; an
//! archived `CLLocation`'s `kCLLocationCodingKeyTimestamp` is Cocoa seconds (since 2001). A
//! property holding a coordinate pair (`kCLLocationCodingKeyCoordinateLatitude`/`…Longitude`,
//! the raw ones, or `latitude`/`longitude`), in range and not 0/0, is a `locations` phenomenon:
//! where the device was when the app saved the position under that key, as the key's name
//! tells (Apple documents none of these keys).
//!
//! Schema drift: the preference plists are read whatever their keys (iOS 12 to 18 keep
//! different ones); a plist whose top is not a dictionary (an enable log: not a list) is noted,
//! as is a Smart Sharing plist holding none of its keys and an enable-log entry that is no
//! dictionary; a cut plist is noted by the call. The generic names are read only where the
//! system keeps them: `cloudServiceEnableLog.plist` only in the two daemons' folders,
//! `device_values.plist` only outside app containers and `Library` folders, the preference
//! plists only in a `Library/Preferences` folder — other files of those names are neither read
//! nor noted.
//!
//! Not read here: `com.apple.purplebuddy.plist` (iLEAPP's `Ph083comapplePurpleBuddyPlist`) is
//! read by [`super::plists`] (device identity). None of these files keeps a password, token or
//! key; the data values of `device_values.plist` (`DevicePublicKey` …) are long and only said.
//!
//! Identities: `device_values.plist`'s `InternationalMobileEquipmentIdentity`,
//! `SerialNumber`, `UniqueDeviceID`, `DeviceName`, `IntegratedCircuitCardIdentity`,
//! `InternationalMobileSubscriberIdentity` and `BluetoothAddress` are the examined device's
//! (`device`), its `PhoneNumber` the device owner's (`owner`), each when valid. The iCloud
//! enable logs name no account (Photos writes only the service, the switch, a reason and the
//! time): no identity from them. The Smart Sharing `identities` are kept as stored, not
//! observed (their meaning is undocumented).

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse_with;
use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::drafts::apple_seconds;
use crate::outputs::in_json;

/// A property list read property by property.
struct Props {
    /// Its file name.
    name: &'static str,
    /// The start of its phenomena's titles.
    label: &'static str,
    category: &'static str,
    /// What the plist is, for the interpretations.
    what: &'static str,
    /// Properties that are identifiers: key, type, fact type, whose (`device` or `owner`).
    ids: &'static [(&'static str, IdType, FactType, &'static str)],
}

const PREFERENCES: [Props; 3] = [
    Props {
        name: "com.apple.mobileslideshow.plist",
        label: "Photos app setting",
        category: "media",
        what: "the Photos app's preferences",
        ids: &[],
    },
    Props {
        name: "com.apple.camera.plist",
        label: "Camera setting",
        category: "media",
        what: "the Camera app's preferences",
        ids: &[],
    },
    Props {
        name: "com.apple.mediaanalysisd.plist",
        label: "Media analysis setting",
        category: "media",
        what: "the preferences of mediaanalysisd, the daemon that analyses the Photos libraries' content on the device",
        ids: &[],
    },
];

const DEVICE_VALUES: Props = Props {
    name: "device_values.plist",
    label: "UFED device value",
    category: "device",
    what: "the device values a Cellebrite UFED extraction read from the phone",
    ids: &[
        (
            "InternationalMobileEquipmentIdentity",
            IdType::Imei,
            FactType::Imei,
            "device",
        ),
        (
            "InternationalMobileEquipmentIdentity2",
            IdType::Imei,
            FactType::Imei,
            "device",
        ),
        ("SerialNumber", IdType::Serial, FactType::Serial, "device"),
        (
            "UniqueDeviceID",
            IdType::Udid,
            FactType::Identifier,
            "device",
        ),
        ("DeviceName", IdType::DeviceName, FactType::Name, "device"),
        (
            "IntegratedCircuitCardIdentity",
            IdType::Iccid,
            FactType::Iccid,
            "device",
        ),
        (
            "IntegratedCircuitCardIdentity2",
            IdType::Iccid,
            FactType::Iccid,
            "device",
        ),
        (
            "InternationalMobileSubscriberIdentity",
            IdType::Imsi,
            FactType::Imsi,
            "device",
        ),
        (
            "InternationalMobileSubscriberIdentity2",
            IdType::Imsi,
            FactType::Imsi,
            "device",
        ),
        (
            "BluetoothAddress",
            IdType::BluetoothAddress,
            FactType::Identifier,
            "device",
        ),
        ("PhoneNumber", IdType::Phone, FactType::Phone, "owner"),
    ],
};

/// The Smart Sharing metadata's members, as iLEAPP reads them.
const SMART_KEYS: [&str; 7] = [
    "creationDate",
    "homeLocations",
    "frequentLocations",
    "identities",
    "locationShiftingRequired",
    "version",
    "libraryScopeLocalIdentifier",
];

/// Most values recorded of one property.
const LEAF_CAP: usize = 500;
/// Longest hex of a data value kept as a fact (128 bytes).
const HEX_MAX: usize = 256;

/// Coordinate pairs of a position, as archives and apps name them.
const COORDINATES: [(&str, &str); 3] = [
    (
        "kCLLocationCodingKeyCoordinateLatitude",
        "kCLLocationCodingKeyCoordinateLongitude",
    ),
    (
        "kCLLocationCodingKeyRawCoordinateLatitude",
        "kCLLocationCodingKeyRawCoordinateLongitude",
    ),
    ("latitude", "longitude"),
];

/// Triage of the Photos, Camera and media analysis plists, the iCloud service enable logs and
/// UFED's device values.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for p in &PREFERENCES {
        run.each(p.name, |find, path| {
            if in_preferences(path) {
                properties(run, find, path, p)
            } else {
                Ok(())
            }
        })?;
    }
    run.each("camera_smart_sharing_metadata.plist", |find, path| {
        smart_sharing(run, find, path)
    })?;
    run.each("cloudServiceEnableLog.plist", |find, path| {
        enable_log(run, find, path)
    })?;
    run.each("device_values.plist", |find, path| {
        if ufed_values(path) {
            properties(run, find, path, &DEVICE_VALUES)
        } else {
            Ok(())
        }
    })
}

/// Whether a plist is in a `Library/Preferences` folder.
fn in_preferences(path: &str) -> bool {
    path.rsplit_once('/')
        .is_some_and(|(dir, _)| dir.ends_with("/Library/Preferences"))
}

/// Whether a `device_values.plist` can be UFED's: not inside an app's container or bundle, nor
/// a `Library` folder of the file system.
fn ufed_values(path: &str) -> bool {
    !["/Containers/", "/Library/", ".app/", "/Bundle/"]
        .iter()
        .any(|s| path.contains(s))
}

/// A scalar below a property, as the output writes it.
enum Scalar {
    /// A string (escaped as in the output).
    Str(String),
    /// A number or boolean.
    Plain(String),
    /// Data left as hex.
    Hex(String),
}

/// The scalars below `v` with their key paths (data holding a property list or JSON opened,
/// empty strings and nulls left out).
fn walk(v: &Value, keys: &mut Vec<String>, out: &mut Vec<(Vec<String>, Scalar, bool)>) {
    match v {
        Value::Object(m) => {
            if m.len() == 1 {
                if let Some(Value::String(h)) = m.get("$data_hex") {
                    out.push((keys.clone(), Scalar::Hex(h.clone()), false));
                    return;
                }
                if let Some(x) = m.get("$data_plist").or_else(|| m.get("$data_json")) {
                    walk(x, keys, out);
                    return;
                }
            }
            for (k, x) in m {
                keys.push(k.clone());
                walk(x, keys, out);
                keys.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                keys.push(i.to_string());
                walk(x, keys, out);
                keys.pop();
            }
        }
        Value::String(s) if !s.trim().is_empty() => {
            out.push((keys.clone(), Scalar::Str(in_json(s)), plist_date(s)));
        }
        Value::Number(n) => out.push((keys.clone(), Scalar::Plain(n.to_string()), false)),
        Value::Bool(b) => out.push((keys.clone(), Scalar::Plain(b.to_string()), false)),
        _ => {}
    }
}

/// Whether a string is a date as `parse_plist` prints one (`2023-01-05T10:22:09Z`, a fraction
/// allowed).
fn plist_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 20
        && b.get(4) == Some(&b'-')
        && b.get(7) == Some(&b'-')
        && b.get(10) == Some(&b'T')
        && s.ends_with('Z')
        && [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
            .iter()
            .all(|&i| b.get(i).is_some_and(u8::is_ascii_digit))
}

/// Adds the scalars below a value to `d` — dates and `CLLocation` fix times as time marks
/// named `<mark> > <key path>`, short data as its hex — and returns what to say of each.
fn add_leaves(
    d: &mut Draft,
    leaves: &[(Vec<String>, Scalar, bool)],
    inv: &Invoked,
    mark: &str,
) -> Vec<String> {
    let mut said = Vec::new();
    for (keys, s, date) in leaves.iter().take(LEAF_CAP) {
        let at = keys.join(" > ");
        let desc = if at.is_empty() {
            mark.to_string()
        } else {
            format!("{mark} > {at}")
        };
        let shown = |v: &str| {
            if at.is_empty() {
                v.to_string()
            } else {
                format!("{at} {v}")
            }
        };
        match s {
            Scalar::Str(v) if *date => {
                d.time(Some(v.as_str()), Some(TimeEncoding::Iso8601), &desc, inv);
                said.push(shown(v));
            }
            Scalar::Plain(v)
                if keys
                    .last()
                    .is_some_and(|k| k == "kCLLocationCodingKeyTimestamp")
                    && apple_seconds(Some(v.as_str())).is_some() =>
            {
                d.time(
                    Some(v.as_str()),
                    apple_seconds(Some(v.as_str())),
                    &desc,
                    inv,
                );
                said.push(shown(&format!("{v} (Cocoa seconds)")));
            }
            Scalar::Str(v) | Scalar::Plain(v) => {
                d.fact(FactType::Text, Some(v.as_str()), inv);
                said.push(shown(v));
            }
            Scalar::Hex(h) if h.len() <= HEX_MAX => {
                d.fact(FactType::Text, Some(h.as_str()), inv);
                said.push(shown(&format!("data {h}")));
            }
            Scalar::Hex(h) => {
                said.push(shown(&format!(
                    "{} bytes of data (not decoded, not copied here)",
                    h.len() / 2
                )));
            }
        }
    }
    if leaves.len() > LEAF_CAP {
        said.push(format!(
            "and {} more values not recorded",
            leaves.len() - LEAF_CAP
        ));
    }
    said
}

/// The coordinates (latitude, longitude as the output writes them) of the first position below
/// `v`: a pair of [`COORDINATES`] in range and not both zero.
fn location_of(v: &Value, depth: usize) -> Option<(String, String)> {
    if depth > 8 {
        return None;
    }
    match v {
        Value::Object(o) => {
            for (la, lo) in COORDINATES {
                if let (Some(Value::Number(a)), Some(Value::Number(b))) = (o.get(la), o.get(lo)) {
                    let x = a.as_f64().unwrap_or(f64::NAN);
                    let y = b.as_f64().unwrap_or(f64::NAN);
                    if (-90.0..=90.0).contains(&x)
                        && (-180.0..=180.0).contains(&y)
                        && (x, y) != (0.0, 0.0)
                    {
                        return Some((a.to_string(), b.to_string()));
                    }
                }
            }
            o.values().find_map(|x| location_of(x, depth + 1))
        }
        Value::Array(a) => a.iter().find_map(|x| location_of(x, depth + 1)),
        _ => None,
    }
}

/// What a JSON value is, for a note.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Object(_) => "dictionary",
        Value::Array(_) => "list",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
    }
}

/// One phenomenon per property of a plist (`p`); identifier properties observed.
fn properties(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    p: &Props,
) -> Result<(), RuntimeError> {
    let Some((inv, value)) = parse_with(run, path, json!({"decode_data": true}))? else {
        return Ok(());
    };
    let file = file_name(path);
    let Some(props) = value.as_object() else {
        run.ctx.unparsed(
            path,
            &format!(
                "unexpected format: {file} is not a dictionary of properties (its top is a {})",
                kind_of(&value)
            ),
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
        let place = location_of(v, 0);
        let (category, title) = match &place {
            Some((lat, lon)) => ("locations", format!("{} {key} at {lat}, {lon}", p.label)),
            None => (p.category, format!("{} {key}", p.label)),
        };
        let mut d = Draft::new(category, title);
        d.fact(FactType::Path, Some(path), find);
        let raw = match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        let id = p
            .ids
            .iter()
            .find(|(k, ..)| *k == key.as_str())
            .zip(raw)
            .filter(|((_, t, ..), raw)| run.normalised(*t, raw).is_some());
        let said = match &id {
            Some(((_, _, ft, _), raw)) => {
                let shown = in_json(raw);
                d.fact(*ft, Some(shown.as_str()), &inv);
                vec![shown]
            }
            None => {
                let mut leaves = Vec::new();
                walk(v, &mut Vec::new(), &mut leaves);
                add_leaves(&mut d, &leaves, &inv, &format!("{} {key}", p.label))
            }
        };
        d.interpretation = format!(
            "{file} ({}, {path}) keeps {key}: {}.{}{}",
            p.what,
            if said.is_empty() {
                "no value".to_string()
            } else {
                said.join("; ")
            },
            match &place {
                Some((lat, lon)) => format!(
                    " It holds a position, latitude {lat}, longitude {lon}: where the device was when the app saved it under this key, as far as the key's name tells (Apple documents none of these keys)."
                ),
                None => String::new(),
            },
            match &id {
                Some(((_, t, _, whose), _)) => format!(
                    " It is the {} {t}.",
                    if *whose == "owner" {
                        "device owner's"
                    } else {
                        "examined device's"
                    }
                ),
                None => String::new(),
            }
        );
        run.record(d)?;
        if let Some(((_, t, _, whose), raw)) = id {
            let (kind, label) = if *whose == "owner" {
                (EntityKind::Person, "device owner")
            } else {
                (EntityKind::Device, "examined device")
            };
            run.observe(
                whose,
                kind,
                label,
                *t,
                &raw,
                &inv,
                format!(
                    "{file} ({}) records {raw} under {key}: the {label}'s {t}.",
                    p.what
                ),
            )?;
        }
    }
    Ok(())
}

/// The dictionary of the Smart Sharing metadata: the one holding any of [`SMART_KEYS`] (the
/// archive's root, or the plist itself).
fn smart_metadata(v: &Value, depth: usize) -> Option<&serde_json::Map<String, Value>> {
    let o = v.as_object()?;
    if SMART_KEYS.iter().any(|k| o.contains_key(*k)) {
        return Some(o);
    }
    if depth >= 3 {
        return None;
    }
    o.values().find_map(|x| smart_metadata(x, depth + 1))
}

/// The Camera's Smart Sharing metadata: one phenomenon for the metadata, one per home and per
/// frequent location.
fn smart_sharing(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, value)) = parse_with(run, path, json!({"decode_data": true}))? else {
        return Ok(());
    };
    let file = file_name(path);
    let Some(meta) = smart_metadata(&value, 0) else {
        run.ctx.unparsed(
            path,
            &format!(
                "unexpected format: {file} holds none of the Smart Sharing metadata members ({})",
                SMART_KEYS.join(", ")
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let lists: Vec<(&str, &str, Vec<&Value>)> =
        [("homeLocations", "home"), ("frequentLocations", "frequent")]
            .into_iter()
            .map(|(key, kind)| {
                let items = match meta.get(key) {
                    Some(Value::Array(a)) => a.iter().collect(),
                    Some(x @ Value::Object(_)) => vec![x],
                    _ => Vec::new(),
                };
                (key, kind, items)
            })
            .collect();
    let mut d = Draft::new("media", "Camera Smart Sharing metadata");
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (key, v) in meta {
        if lists.iter().any(|(k, ..)| k == key) {
            continue;
        }
        let mut leaves = Vec::new();
        walk(v, &mut vec![key.clone()], &mut leaves);
        said.extend(add_leaves(
            &mut d,
            &leaves,
            &inv,
            "Camera Smart Sharing metadata",
        ));
    }
    d.interpretation = format!(
        "{file} ({path}) is the Camera's Smart Sharing metadata for the iCloud Shared Photo Library (where the Camera may share new photos to the Shared Library by itself): {}; {}.",
        if said.is_empty() {
            "no value".to_string()
        } else {
            said.join("; ")
        },
        lists
            .iter()
            .map(|(key, _, items)| format!("{} {key}", items.len()))
            .collect::<Vec<_>>()
            .join(" and ")
    );
    run.record(d)?;
    for (key, kind, items) in &lists {
        for (i, x) in items.iter().enumerate().take(ENTRY_CAP as usize) {
            let n = i + 1;
            let place = location_of(x, 0);
            let mark = format!("Camera Smart Sharing {kind} location {n}");
            let title = match &place {
                Some((lat, lon)) => format!("{mark} at {lat}, {lon}"),
                None => mark.clone(),
            };
            let mut d = Draft::new("locations", title);
            d.fact(FactType::Path, Some(path), find);
            let mut leaves = Vec::new();
            walk(x, &mut Vec::new(), &mut leaves);
            let said = add_leaves(&mut d, &leaves, &inv, &mark);
            d.interpretation = format!(
                "Entry {n} of {key} in {file} ({path}): a {kind} location the Camera's Smart Sharing learned for the Shared Photo Library{}: {}.",
                match &place {
                    Some((lat, lon)) => format!(" (latitude {lat}, longitude {lon})"),
                    None => " (no coordinates kept)".to_string(),
                },
                if said.is_empty() {
                    "no value".to_string()
                } else {
                    said.join("; ")
                }
            );
            run.record(d)?;
        }
    }
    Ok(())
}

/// The Photos library's log of iCloud service switches (`cloudServiceEnableLog.plist` of the
/// accounts daemon's or the assets daemon's folder): one phenomenon per event.
fn enable_log(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let folder = path.rsplit('/').nth(1).unwrap_or_default();
    let daemon = match folder {
        "com.apple.accountsd" => "accountsd",
        "com.apple.assetsd" => "assetsd",
        _ => return Ok(()),
    };
    let Some((inv, value)) = parse_with(run, path, json!({}))? else {
        return Ok(());
    };
    let file = file_name(path);
    let Some(events) = value.as_array() else {
        run.ctx.unparsed(
            path,
            &format!(
                "unexpected format: {file} is not a list of cloud service events (dictionaries of type, enabled, timestamp; its top is a {})",
                kind_of(&value)
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut odd = 0;
    for (i, e) in events.iter().enumerate() {
        if i as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!("{} events; the first {i} were read", events.len()),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let Some(o) = e.as_object() else {
            odd += 1;
            continue;
        };
        let n = i + 1;
        let kind = o
            .get("type")
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty());
        let state = match o.get("enabled") {
            Some(Value::Bool(true)) => "enabled",
            Some(Value::Bool(false)) => "disabled",
            Some(Value::Number(x)) if x.as_i64() == Some(1) => "enabled",
            Some(Value::Number(x)) if x.as_i64() == Some(0) => "disabled",
            _ => "logged",
        };
        let when = o
            .get("timestamp")
            .and_then(Value::as_str)
            .filter(|t| plist_date(t));
        let what = format!("{} {state}", kind.unwrap_or("(no type)"));
        let mut d = Draft::new(
            "accounts",
            format!(
                "Photos cloud service event {n}: {what} ({daemon}{})",
                when.map(|t| format!(", {t}")).unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = Vec::new();
        for (k, x) in o {
            if k == "timestamp" && when.is_some() {
                d.time(
                    when,
                    Some(TimeEncoding::Iso8601),
                    &format!("Photos cloud service {what}"),
                    &inv,
                );
                continue;
            }
            let mut leaves = Vec::new();
            walk(x, &mut vec![k.clone()], &mut leaves);
            said.extend(add_leaves(
                &mut d,
                &leaves,
                &inv,
                "Photos cloud service event",
            ));
        }
        d.interpretation = format!(
            "Event {n} of {file} in {folder} ({path}), the Photos library's log of its iCloud services being switched on and off, written for {daemon}: the {} service{} was {} {}{}. Its members: {}.",
            kind.unwrap_or("(unnamed)"),
            if kind == Some("CPL") {
                " (iCloud Photos, the Cloud Photo Library)"
            } else {
                ""
            },
            match state {
                "enabled" => "switched on",
                "disabled" => "switched off",
                _ => "logged (no on/off state kept)",
            },
            when.map(|t| format!("at {t}"))
                .unwrap_or_else(|| "at no time kept".to_string()),
            match o.get("reason").and_then(Value::as_str) {
                Some(r) if !r.trim().is_empty() => format!(", reason {}", in_json(r)),
                _ => String::new(),
            },
            if said.is_empty() {
                "none besides the time".to_string()
            } else {
                said.join("; ")
            }
        );
        run.record(d)?;
    }
    if odd > 0 {
        run.ctx.unparsed(
            path,
            &format!(
                "{odd} of the {} entries are not dictionaries of a cloud service event; not read",
                events.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_dates_and_paths_are_told_apart() {
        let v = json!({"$data_plist": {"root": {
            "kCLLocationCodingKeyCoordinateLatitude": 47.5,
            "kCLLocationCodingKeyCoordinateLongitude": 8.25
        }}});
        assert_eq!(
            location_of(&v, 0),
            Some(("47.5".to_string(), "8.25".to_string()))
        );
        assert_eq!(
            location_of(&json!({"latitude": 0.0, "longitude": 0.0}), 0),
            None
        );
        assert_eq!(
            location_of(&json!({"latitude": 91.0, "longitude": 1.0}), 0),
            None
        );
        assert!(plist_date("2024-05-01T10:00:00Z"));
        assert!(plist_date("2024-05-01T10:00:00.5Z"));
        assert!(!plist_date("2024-05-01 10:00:00"));
        assert!(in_preferences(
            "/private/var/mobile/Library/Preferences/com.apple.camera.plist"
        ));
        assert!(!in_preferences(
            "/private/var/mobile/Documents/com.apple.camera.plist"
        ));
        assert!(ufed_values("/device_values.plist"));
        assert!(!ufed_values(
            "/private/var/mobile/Containers/Data/Application/X/Documents/device_values.plist"
        ));
        let mut out = Vec::new();
        walk(
            &json!({"a": {"$data_hex": "0102"}, "b": [true, "x\"y"], "c": ""}),
            &mut Vec::new(),
            &mut out,
        );
        let shown: Vec<String> = out
            .iter()
            .map(|(k, s, _)| match s {
                Scalar::Str(v) | Scalar::Plain(v) | Scalar::Hex(v) => {
                    format!("{}={v}", k.join(">"))
                }
            })
            .collect();
        assert_eq!(shown, ["a=0102", "b>0=true", "b>1=x\\\"y"]);
    }
}
