//! Wi-Fi networks the device knows (`/private/var/preferences/com.apple.wifi.known-networks.plist`,
//! iOS 14 and later) and its DHCP leases (`/private/var/db/dhcpclient/leases/*.plist`), read
//! with `parse_plist`, with every field iLEAPP's `appleWifiKnownNetworks`,
//! `appleWifiKnownNetworksTimes`, `appleWifiBSSList` and `dhcpLeases` report:
//!
//! - one phenomenon per known network: SSID, BSSID, network usage, country code, the device
//!   that shared it (name, manufacturer, serial, model), enabled/auto-join, CarPlay, hidden,
//!   captive, portal URL, add reason, bundle id, security type, channel, and its times (added,
//!   updated, joined by user/system, last auto-joined, last discovered, previous join,
//!   password modified, captive probe/web sheet) as `iso8601` marks;
//! - one per access point of a network's `BSSList` (BSSID, channel and flags, last
//!   associated, location with accuracy and time when recorded, router address);
//! - one per network of `com.apple.wifi-private-mac-networks.plist` (iLEAPP's
//!   `appleWifiScannedPrivate`): SSID, BSSID, the private (per-network) MAC address the device
//!   computed and the one it used, whether it is valid, whether the network is a known one,
//!   and its times (updated, added, last joined, address generated, first joined with it,
//!   link down);
//! - one per DHCP lease: the device's IP address, the router's IP and hardware address, the
//!   SSID, lease start and length;
//! - one per network iCloud synced to the device (`Library/SyncedPreferences/com.apple.wifid.plist`,
//!   the `values` dictionary: iLEAPP's `iCloudWifi`): SSID, BSSID, the device that added it
//!   (`added_by`: another device of the same Apple account, by its name), enabled, when it was
//!   added (`added_at` as written, `Jan  5 2019 10:11:12` with no zone: kept as text, not put
//!   on the timeline), and every other value of the entry as stored. The daemon's own
//!   `com.apple.wifid.plist` elsewhere (a launch configuration) is passed over.
//!
//! A network shared by a device (`DeviceName`, `SerialNumber` of the AirDrop/iCloud share) is
//! noted in the phenomenon; no identity is observed: a network is a place, not a person. The
//! same home network on two devices is for the examiner (and the timeline) to weigh.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run};

/// Time keys of a known network (top level and `__OSSpecific__`) with the mark they get.
const NETWORK_TIMES: &[(&str, &str)] = &[
    ("AddedAt", "Wi-Fi network added"),
    ("UpdatedAt", "Wi-Fi network updated"),
    ("JoinedByUserAt", "Wi-Fi joined by user"),
    ("JoinedBySystemAt", "Wi-Fi joined by system"),
    ("LastDiscoveredAt", "Wi-Fi network last discovered"),
    ("prevJoined", "Wi-Fi previously joined"),
    ("lastAutoJoined", "Wi-Fi last auto-joined"),
    ("lastJoined", "Wi-Fi last joined"),
    (
        "WiFiNetworkPasswordModificationDate",
        "Wi-Fi password modified",
    ),
    (
        "WhitelistedCaptiveNetworkProbeDate",
        "Captive network probe",
    ),
    ("CaptiveWebSheetLoginDate", "Captive web sheet login"),
];

/// Other fields of a known network (top level, `__OSSpecific__` or `CaptiveProfile`).
const NETWORK_FIELDS: &[(&str, FactType, &str)] = &[
    ("BSSID", FactType::Identifier, "BSSID"),
    ("networkUsage", FactType::Count, "network usage"),
    ("CountryCode", FactType::Text, "country code"),
    ("DeviceName", FactType::Name, "shared by the device"),
    ("Manufacturer", FactType::Name, "its manufacturer"),
    ("SerialNumber", FactType::Serial, "its serial number"),
    ("ModelName", FactType::Name, "its model"),
    ("SupportedSecurityTypes", FactType::Text, "security"),
    ("AddReason", FactType::Text, "added by"),
    ("BundleID", FactType::Identifier, "added by the app"),
    ("UserPortalURL", FactType::Url, "portal URL"),
    ("CaptivePortalAPI", FactType::Url, "portal API"),
    ("CHANNEL", FactType::Count, "channel"),
];

/// Flags reported when true.
const NETWORK_FLAGS: &[(&str, &str)] = &[
    ("Hidden", "hidden"),
    ("CarPlayNetwork", "a CarPlay network"),
    ("CaptiveNetwork", "a captive network"),
    ("NetworkWasCaptive", "a captive network"),
    ("AutoJoinDisabled", "auto-join disabled"),
    ("Moving", "moving (a hotspot)"),
];

/// Triage of the known networks and DHCP leases of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    if let Some((find, paths)) = run.find("com.apple.wifi.known-networks.plist")? {
        for path in &paths {
            known_networks(run, &find, path)?;
        }
    }
    if let Some((find, paths)) = run.find("com.apple.wifi-private-mac-networks.plist")? {
        for path in &paths {
            private_macs(run, &find, path)?;
        }
    }
    if let Some((find, paths)) = run.find("en*.plist")? {
        for path in paths.iter().filter(|p| p.contains("/dhcpclient/leases/")) {
            lease(run, &find, path)?;
        }
    }
    if let Some((find, paths)) = run.find("com.apple.wifid.plist")? {
        for path in paths.iter().filter(|p| p.contains("/SyncedPreferences/")) {
            synced(run, &find, path)?;
        }
    }
    Ok(())
}

/// The known fields of an iCloud-synced network (key → fact, what it is).
const SYNCED_FIELDS: &[(&str, FactType, &str)] = &[
    ("SSID_STR", FactType::Name, "SSID"),
    ("BSSID", FactType::Identifier, "BSSID"),
    ("added_by", FactType::Name, "added by the device"),
    ("enabled", FactType::Text, "enabled"),
    ("added_at", FactType::Text, "added at (as written, no zone)"),
];

/// The networks iCloud synced to the device (`SyncedPreferences/com.apple.wifid.plist`).
fn synced(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(values) = v.get("values").and_then(Value::as_object) else {
        run.ctx.unparsed(
            path,
            "unexpected format: no `values` dictionary of synced networks",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for (count, (key, entry)) in values.iter().enumerate() {
        if count as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!(
                    "{} synced networks; the first {count} were recorded",
                    values.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let Some(net) = entry.get("value").and_then(Value::as_object) else {
            continue;
        };
        let ssid = net.get("SSID_STR").and_then(scalar);
        let mut d = Draft::new(
            "wifi",
            format!(
                "iCloud-synced Wi-Fi network {}",
                ssid.as_deref().unwrap_or(key)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = Vec::new();
        for (k, ft, what) in SYNCED_FIELDS {
            if let Some(s) = net.get(*k).and_then(scalar) {
                d.fact(*ft, Some(&s), &inv);
                said.push(format!("{what} {s}"));
            }
        }
        for (k, x) in net {
            if SYNCED_FIELDS.iter().any(|(f, _, _)| f == k) {
                continue;
            }
            if let Some(s) = scalar(x) {
                d.fact(FactType::Text, Some(&s), &inv);
                said.push(format!("{k} {s}"));
            }
        }
        d.interpretation = format!(
            "iCloud synced the Wi-Fi network {} to this device ({path}, entry {key}): {}. A network another device of the same Apple account joined reaches every device of the account so; `added by` names that device as its user called it.",
            ssid.as_deref().unwrap_or("(no SSID)"),
            if said.is_empty() {
                "no field".to_string()
            } else {
                said.join("; ")
            }
        );
        run.record(d)?;
    }
    Ok(())
}

/// A scalar as the pretty JSON output writes it (strings bare, numbers and booleans as JSON).
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The value of `key` at the top of a network or in its `__OSSpecific__` / `CaptiveProfile`.
fn field<'a>(net: &'a Value, key: &str) -> Option<&'a Value> {
    net.get(key)
        .or_else(|| net.get("__OSSpecific__").and_then(|o| o.get(key)))
        .or_else(|| net.get("CaptiveProfile").and_then(|o| o.get(key)))
}

fn known_networks(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, value)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(nets) = value.as_object() else {
        run.ctx.unparsed(
            path,
            "unexpected format: the plist is not a dictionary of networks",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for (count, (key, net)) in nets.iter().enumerate() {
        if count as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!("{} networks; the first {count} were recorded", nets.len()),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        // the SSID is data in the plist; the key names it as text
        let ssid = key.strip_prefix("wifi.network.ssid.").unwrap_or(key);
        let mut d = Draft::new("wifi", format!("Wi-Fi network {ssid}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, Some(ssid), &inv);
        let mut said = Vec::new();
        for (k, ft, what) in NETWORK_FIELDS {
            if let Some(v) = field(net, k).and_then(scalar) {
                d.fact(*ft, Some(&v), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        let mut flags: Vec<&str> = NETWORK_FLAGS
            .iter()
            .filter(|(k, _)| field(net, k) == Some(&Value::Bool(true)))
            .map(|(_, w)| *w)
            .collect();
        if field(net, "Enabled") == Some(&Value::Bool(false)) {
            flags.push("disabled");
        }
        flags.dedup();
        for (k, mark) in NETWORK_TIMES {
            if let Some(v) = field(net, k).and_then(Value::as_str) {
                d.time(Some(v), Some(TimeEncoding::Iso8601), mark, &inv);
                said.push(format!("{} {v}", mark.to_lowercase()));
            }
        }
        d.interpretation = format!(
            "The device knows the Wi-Fi network {ssid} ({path}){}: {}.",
            if flags.is_empty() {
                String::new()
            } else {
                format!(", {}", flags.join(", "))
            },
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join("; ")
            }
        );
        run.record(d)?;
        for bss in net
            .get("BSSList")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            access_point(run, find, path, ssid, bss, &inv)?;
        }
    }
    Ok(())
}

/// One access point of a known network's `BSSList`.
fn access_point(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    ssid: &str,
    bss: &Value,
    inv: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(bssid) = bss.get("BSSID").and_then(Value::as_str) else {
        return Ok(());
    };
    let mut d = Draft::new("wifi", format!("Wi-Fi access point {bssid} of {ssid}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Name, Some(ssid), inv);
    d.fact(FactType::Identifier, Some(bssid), inv);
    let mut said = Vec::new();
    for (k, ft, what) in [
        ("Channel", FactType::Count, "channel"),
        ("ChannelFlags", FactType::Count, "channel flags"),
        ("LocationLatitude", FactType::Text, "latitude"),
        ("LocationLongitude", FactType::Text, "longitude"),
        ("LocationAccuracy", FactType::Text, "accuracy (m)"),
        ("IPv4NetworkSignature", FactType::Text, "network signature"),
    ] {
        if let Some(v) = bss.get(k).and_then(scalar) {
            d.fact(ft, Some(&v), inv);
            said.push(format!("{what} {v}"));
        }
    }
    for (k, mark) in [
        ("LastAssociatedAt", "Wi-Fi access point last associated"),
        ("LocationTimestamp", "Wi-Fi access point located"),
    ] {
        if let Some(v) = bss.get(k).and_then(Value::as_str) {
            d.time(Some(v), Some(TimeEncoding::Iso8601), mark, inv);
            said.push(format!("{} {v}", mark.to_lowercase()));
        }
    }
    d.interpretation = format!(
        "The known network {ssid} ({path}) lists the access point {bssid}: {}.",
        if said.is_empty() {
            "no other field".to_string()
        } else {
            said.join("; ")
        }
    );
    run.record(d)
}

/// One DHCP lease (`/private/var/db/dhcpclient/leases/en0.plist`).
fn lease(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let mut d = Draft::new(
        "wifi",
        format!(
            "DHCP lease {}",
            v.get("IPAddress")
                .and_then(Value::as_str)
                .unwrap_or("(no address)")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (k, ft, what) in [
        ("IPAddress", FactType::Identifier, "the device's IP address"),
        ("RouterIPAddress", FactType::Identifier, "router IP address"),
        ("SSID", FactType::Name, "network"),
        ("LeaseLength", FactType::Count, "lease length (s)"),
    ] {
        if let Some(s) = v.get(k).and_then(scalar) {
            d.fact(ft, Some(&s), &inv);
            said.push(format!("{what} {s}"));
        }
    }
    // a MAC address stored as data: its hex in the output, written with colons here
    if let Some(h) = v
        .get("RouterHardwareAddress")
        .and_then(|m| m.get("$data_hex"))
        .and_then(Value::as_str)
    {
        d.fact(FactType::Identifier, Some(h), &inv);
        let mac: Vec<&str> = (0..h.len() / 2)
            .filter_map(|i| h.get(2 * i..2 * i + 2))
            .collect();
        said.push(format!("router hardware address {}", mac.join(":")));
    }
    if let Some(t) = v.get("LeaseStartDate").and_then(Value::as_str) {
        d.time(
            Some(t),
            Some(TimeEncoding::Iso8601),
            "DHCP lease started",
            &inv,
        );
        said.push(format!("lease started {t}"));
    }
    d.interpretation = format!(
        "The device's DHCP lease ({path}): {}.",
        if said.is_empty() {
            "no field".to_string()
        } else {
            said.join("; ")
        }
    );
    run.record(d)
}

/// Time keys of a network with a private address, with the mark they get.
const PRIVATE_TIMES: &[(&str, &str)] = &[
    ("lastUpdated", "Wi-Fi private address updated"),
    ("addedAt", "Wi-Fi network added"),
    ("lastJoined", "Wi-Fi last joined"),
    ("MacGenerationTimeStamp", "Wi-Fi private address generated"),
    (
        "FirstJoinWithNewMacTimestamp",
        "Wi-Fi first joined with the private address",
    ),
    ("LinkDownTimestamp", "Wi-Fi link down"),
];

/// A data value's hex as `parse_plist` writes it (`{"$data_hex": …}`).
fn data_hex(v: Option<&Value>) -> Option<&str> {
    v?.get("$data_hex")?.as_str().filter(|h| !h.is_empty())
}

/// A hex MAC address written with colons, as iLEAPP and the Settings app show it.
fn colons(h: &str) -> String {
    (0..h.len() / 2)
        .filter_map(|i| h.get(2 * i..2 * i + 2))
        .collect::<Vec<_>>()
        .join(":")
}

/// The networks the device scanned or joined with a private (randomised, per-network) Wi-Fi
/// address (`/private/var/preferences/SystemConfiguration/com.apple.wifi-private-mac-networks.plist`).
fn private_macs(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, value)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(list) = value
        .get("List of scanned networks with private mac")
        .and_then(Value::as_array)
    else {
        run.ctx.unparsed(
            path,
            "unexpected format: no \"List of scanned networks with private mac\" array",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for (count, net) in list.iter().enumerate() {
        if count as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!("{} networks; the first {count} were recorded", list.len()),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let ssid = net.get("SSID_STR").and_then(scalar);
        let bssid = net.get("BSSID").and_then(scalar);
        let mut d = Draft::new(
            "wifi",
            format!(
                "Wi-Fi private address for {}",
                ssid.as_deref()
                    .or(bssid.as_deref())
                    .unwrap_or("(unnamed network)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let ssid_in = ssid.as_deref().map(crate::outputs::in_json);
        d.fact(FactType::Name, ssid_in.as_deref(), &inv);
        d.fact(FactType::Identifier, bssid.as_deref(), &inv);
        let mut said = Vec::new();
        if let Some(b) = &bssid {
            said.push(format!("BSSID {b}"));
        }
        let mac = net.get("PRIVATE_MAC_ADDRESS");
        for (k, what) in [
            ("PRIVATE_MAC_ADDRESS_IN_USE", "private address used"),
            ("PRIVATE_MAC_ADDRESS_VALUE", "private address computed"),
        ] {
            if let Some(h) = data_hex(mac.and_then(|m| m.get(k))) {
                d.fact(FactType::Identifier, Some(h), &inv);
                said.push(format!("{what} {}", colons(h)));
            }
        }
        let mut flags = Vec::new();
        for (v, yes, no) in [
            (
                mac.and_then(|m| m.get("PRIVATE_MAC_ADDRESS_VALID")),
                "the private address is valid",
                "the private address is not valid",
            ),
            (
                net.get("PresentInKnownNetworks"),
                "a known network",
                "not a known network",
            ),
            (net.get("IsOpenNetwork"), "open", "secured"),
            (
                net.get("CaptiveNetwork"),
                "a captive network",
                "not captive",
            ),
        ] {
            match v.and_then(Value::as_bool) {
                Some(true) => flags.push(yes),
                Some(false) => flags.push(no),
                None => {}
            }
        }
        for (k, ft, what) in [
            ("PrivateMacAddReason", FactType::Text, "add reason"),
            ("ValidityInterval", FactType::Count, "validity interval (s)"),
        ] {
            if let Some(v) = net.get(k).and_then(scalar) {
                d.fact(ft, Some(&v), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        for (k, mark) in PRIVATE_TIMES {
            if let Some(v) = net.get(*k).and_then(Value::as_str) {
                d.time(Some(v), Some(TimeEncoding::Iso8601), mark, &inv);
                said.push(format!("{} {v}", mark.to_lowercase()));
            }
        }
        d.interpretation = format!(
            "The device keeps a private Wi-Fi address for the network {} ({path}){}: {}.",
            ssid_in.as_deref().unwrap_or("(no SSID)"),
            if flags.is_empty() {
                String::new()
            } else {
                format!(", {}", flags.join(", "))
            },
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join("; ")
            }
        );
        run.record(d)?;
    }
    Ok(())
}
