//! System artefacts: the saved Wi-Fi networks, the Bluetooth pairings, the calendar provider
//! and the media store.
//!
//! - **Wi-Fi** (`/data/misc/wifi/WifiConfigStore.xml`, Android 8+; on 11+ also
//!   `/data/misc/apexdata/com.android.wifi/WifiConfigStore.xml`, and the per-user stores under
//!   `/data/misc_ce/<user>/`): read with `read_text` and parsed with `quick-xml` in the shape
//!   AOSP's `XmlUtil.WifiConfigurationXmlUtil` / `NetworkSelectionStatusXmlUtil` write
//!   (`<NetworkList><Network><WifiConfiguration>…<NetworkStatus>…<IpConfiguration>`): one
//!   phenomenon per network with its SSID, config key, key management and security types,
//!   hidden flag, creator and last updater (uid, name), randomised and gateway MAC addresses,
//!   selection status, `HasEverConnected`, association count and the times the file holds
//!   (`ConnectChoiceTimeStamp`, Unix ms; Android 8's `CreationTime`/`UpdateTime` text, which
//!   has no year, as text). Before Android 8, `wpa_supplicant.conf`'s `network={…}` blocks.
//!   Facts are the raw text of the file (`&quot;` and all), so they ground verbatim.
//! - **Bluetooth** (`/data/misc/bluedroid/bt_config.conf`, `/data/misc/bluetooth/bt_config.conf`;
//!   AOSP `btif_config`'s INI file): the adapter (`[Adapter]` `Address`, `Name`; the name is
//!   observed as the `device` entity's device name) and one phenomenon per remote device
//!   section (`[aa:bb:cc:dd:ee:ff]`: name, class, type, manufacturer, services, `Timestamp` in
//!   Unix seconds).
//! - **Calendar** (`com.android.providers.calendar/databases/calendar.db`, AOSP
//!   `CalendarDatabaseHelper`): each calendar (account, type, display name, owner account),
//!   each event (title, description, location, start and end in Unix ms, all-day, recurrence,
//!   organizer, calendar) with its attendees (name, e-mail, status). The accounts of the
//!   calendars are the owner's (a `com.google` account as a Google account); attendees,
//!   organizers and owners of shared calendars with an e-mail are `handle:<e-mail>` persons.
//! - **Media store** (`com.android.providers.media[.module]/databases/external.db`, AOSP
//!   `MediaProvider` / `DatabaseHelper`): one phenomenon per photo or video of `files` (path,
//!   name, type, size, added/modified in Unix s, taken in Unix ms, latitude/longitude where the
//!   schema and row have them, the owning app, dimensions, download flag, relative path), the
//!   first [`ROW_CAP`] one by one and the rest summarised.
//!
//! Secrets are never facts: the pre-shared key, WEP keys, enterprise password and DPP keys of a
//! network, a Bluetooth device's link key and LE keys, the adapter's local keys are said to be
//! present (or not) — their values are never copied into a phenomenon.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;

use super::databases::tables_with;
use super::{Located, MAX_ROWS};
use crate::calls::ROW_CAP;
use crate::calls::column_or_null;
use crate::drafts::{Draft, record_draft, unix_millis, unix_seconds};
use crate::identity::{artefact_name, normalized, observe, pages_on, query_on};
use crate::outputs::raw;

// ---------------------------------------------------------------------------------------------
// Wi-Fi

/// A value of a saved network as the file holds it: element kind (`string`, `int`, …), its
/// `name`, and the raw text (the `value` attribute or the element's content, unescaped never).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WifiValue {
    pub kind: String,
    pub name: String,
    pub raw: String,
}

/// A saved network: the values of [`WIFI_FIELDS`] and which secrets are stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WifiNetwork {
    pub values: Vec<WifiValue>,
    /// The pre-shared key: `Some(true)` stored, `Some(false)` stored encrypted, `None` absent.
    pub psk: Option<bool>,
    /// Other secrets stored (WEP keys, enterprise password, DPP keys), by tag name.
    pub secrets: Vec<String>,
}

impl WifiNetwork {
    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.raw.as_str())
            .filter(|v| !v.trim().is_empty())
    }
}

/// Values of a network reported (never a secret), with their fact type and how they are named.
const WIFI_FIELDS: &[(&str, FactType, &str)] = &[
    ("ConfigKey", FactType::Identifier, "config key"),
    ("BSSID", FactType::Identifier, "BSSID"),
    ("FQDN", FactType::Text, "Passpoint FQDN"),
    ("ProviderFriendlyName", FactType::Name, "Passpoint provider"),
    ("HiddenSSID", FactType::Text, "hidden"),
    (
        "AllowedKeyMgmt",
        FactType::Text,
        "allowed key management (bit set)",
    ),
    ("SecurityType", FactType::Text, "security type"),
    ("Shared", FactType::Text, "shared with all users"),
    ("AutoJoinEnabled", FactType::Text, "auto-join"),
    ("CreatorUid", FactType::Identifier, "created by uid"),
    ("CreatorName", FactType::Identifier, "created by"),
    ("LastUpdateUid", FactType::Identifier, "last updated by uid"),
    ("LastUpdateName", FactType::Identifier, "last updated by"),
    (
        "LastConnectUid",
        FactType::Identifier,
        "last connected by uid",
    ),
    ("CreationTime", FactType::Text, "created (no year)"),
    ("UpdateTime", FactType::Text, "updated (no year)"),
    (
        "RandomizedMacAddress",
        FactType::Identifier,
        "randomised MAC address",
    ),
    (
        "MacRandomizationSetting",
        FactType::Text,
        "MAC randomisation setting",
    ),
    (
        "DefaultGwMacAddress",
        FactType::Identifier,
        "gateway MAC address",
    ),
    (
        "ValidatedInternetAccess",
        FactType::Text,
        "validated internet access",
    ),
    ("NumAssociation", FactType::Count, "associations"),
    (
        "IsMostRecentlyConnected",
        FactType::Text,
        "most recently connected",
    ),
    ("Identity", FactType::Account, "enterprise identity"),
    ("AnonIdentity", FactType::Account, "anonymous identity"),
    ("SelectionStatus", FactType::Text, "selection status"),
    ("DisableReason", FactType::Text, "disable reason"),
    (
        "ConnectChoice",
        FactType::Identifier,
        "preferred by the user over",
    ),
    ("HasEverConnected", FactType::Text, "has ever connected"),
    ("IpAssignment", FactType::Text, "IP assignment"),
    ("ProxySettings", FactType::Text, "proxy settings"),
];

/// Secret values of a network: only their presence is said.
const WIFI_SECRETS: &[&str] = &[
    "WEPKeys",
    "Password",
    "DppPrivateEcKey",
    "DppConnector",
    "DppCSignKey",
    "DppNetAccessKey",
];

/// `WifiConfiguration.KeyMgmt` bit names (AOSP `WifiConfiguration.java`).
const KEY_MGMT: &[&str] = &[
    "NONE",
    "WPA_PSK",
    "WPA_EAP",
    "IEEE8021X",
    "WPA2_PSK",
    "OSEN",
    "FT_PSK",
    "FT_EAP",
    "SAE",
    "OWE",
    "SUITE_B_192",
    "WPA_PSK_SHA256",
    "WPA_EAP_SHA256",
    "WAPI_PSK",
    "WAPI_CERT",
    "FILS_SHA256",
    "FILS_SHA384",
    "DPP",
];

/// `WifiConfiguration.SECURITY_TYPE_*` names (Android 12+ `SecurityParams`).
const SECURITY_TYPES: &[&str] = &[
    "OPEN",
    "WEP",
    "PSK",
    "EAP",
    "SAE",
    "EAP_SUITE_B",
    "OWE",
    "WAPI_PSK",
    "WAPI_CERT",
    "EAP_WPA3_ENTERPRISE",
    "OSEN",
    "PASSPOINT_R1_R2",
    "PASSPOINT_R3",
    "DPP",
];

/// The key-management names of a `BitSet.toByteArray()` hex string (`02` = `WPA_PSK`).
pub fn key_mgmt_names(hex: &str) -> Vec<String> {
    let bytes: Vec<u8> = hex
        .as_bytes()
        .chunks(2)
        .filter_map(|c| u8::from_str_radix(std::str::from_utf8(c).ok()?, 16).ok())
        .collect();
    let mut out = Vec::new();
    for (i, b) in bytes.iter().enumerate() {
        for bit in 0..8 {
            if b & (1 << bit) != 0 {
                let n = i * 8 + bit;
                out.push(
                    KEY_MGMT
                        .get(n)
                        .map_or_else(|| format!("bit {n}"), |s| s.to_string()),
                );
            }
        }
    }
    out
}

fn qname(name: quick_xml::name::QName<'_>) -> String {
    AsRef::<str>::as_ref(&name).to_string()
}

/// The raw (still escaped) value of attribute `key`.
fn raw_attr(e: &quick_xml::events::BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| AsRef::<str>::as_ref(&a.key) == key)
        .map(|a| a.value.to_string())
}

/// Parses a `WifiConfigStore.xml`: its saved networks, or why it is not one.
pub fn parse_wifi_store(text: &str) -> Result<Vec<WifiNetwork>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut stack: Vec<String> = Vec::new();
    let mut root: Option<String> = None;
    let mut networks = Vec::new();
    let mut current: Option<WifiNetwork> = None;
    // an open value element: (kind, name, start of its content)
    let mut open: Option<(String, String, usize)> = None;
    // the reported fields, the SSID and any time (`…Time…`)
    let keep = |name: &str| {
        name == "SSID" || name.contains("Time") || WIFI_FIELDS.iter().any(|(n, _, _)| *n == name)
    };
    loop {
        let before = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let tag = qname(e.name());
                root.get_or_insert_with(|| tag.clone());
                if tag == "Network" && stack.last().map(String::as_str) == Some("NetworkList") {
                    current = Some(WifiNetwork::default());
                }
                if let Some(n) = current.as_mut() {
                    match raw_attr(&e, "name") {
                        Some(name) => {
                            let start =
                                usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
                            open = Some((tag.clone(), name, start));
                        }
                        // a section: an encrypted key is written as one
                        None if tag == "PreSharedKey" => n.psk = Some(false),
                        None if WIFI_SECRETS.contains(&tag.as_str()) => n.secrets.push(tag.clone()),
                        None => {}
                    }
                }
                stack.push(tag);
            }
            Ok(Event::Empty(e)) => {
                let tag = qname(e.name());
                root.get_or_insert_with(|| tag.clone());
                if let (Some(n), Some(name)) = (current.as_mut(), raw_attr(&e, "name"))
                    && tag != "null"
                {
                    if name == "PreSharedKey" {
                        n.psk = Some(true);
                    } else if WIFI_SECRETS.contains(&name.as_str()) {
                        n.secrets.push(name);
                    } else if let Some(v) = raw_attr(&e, "value").filter(|_| keep(&name)) {
                        n.values.push(WifiValue {
                            kind: tag,
                            name,
                            raw: v,
                        });
                    }
                }
            }
            Ok(Event::End(e)) => {
                let tag = qname(e.name());
                if let Some((kind, name, start)) = open.take_if(|(k, _, _)| *k == tag)
                    && let Some(n) = current.as_mut()
                {
                    let content = text.get(start..before).unwrap_or_default();
                    if name == "PreSharedKey" {
                        if !content.trim().is_empty() {
                            n.psk = Some(true);
                        }
                    } else if WIFI_SECRETS.contains(&name.as_str()) {
                        if !content.trim().is_empty() {
                            n.secrets.push(name);
                        }
                    } else if keep(&name) {
                        n.values.push(WifiValue {
                            kind,
                            name,
                            raw: content.to_string(),
                        });
                    }
                }
                stack.pop();
                if tag == "Network"
                    && stack.last().map(String::as_str) == Some("NetworkList")
                    && let Some(n) = current.take()
                {
                    networks.push(n);
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(err) => {
                return Err(format!(
                    "not readable XML at byte {}: {err}",
                    reader.error_position()
                ));
            }
        }
    }
    if !stack.is_empty() {
        return Err(format!(
            "the XML ends inside <{}>: the file is cut short",
            stack.join("><")
        ));
    }
    match root.as_deref() {
        Some("WifiConfigStoreData") => Ok(networks),
        Some(other) => Err(format!(
            "the root element is <{other}>, not <WifiConfigStoreData>"
        )),
        None => Err("no XML element in the file".to_string()),
    }
}

/// The SSID as the file writes it without its `&quot;` quotes (a hex SSID as it is), and its
/// readable form.
pub(super) fn ssid_of(raw_ssid: &str) -> (String, String) {
    let inner = raw_ssid
        .strip_prefix("&quot;")
        .and_then(|s| s.strip_suffix("&quot;"))
        .unwrap_or(raw_ssid);
    let shown = quick_xml::escape::unescape(inner)
        .map(|c| c.into_owned())
        .unwrap_or_else(|_| inner.to_string());
    (inner.to_string(), shown)
}

/// `WifiConfigStore.xml`: one phenomenon per saved network.
pub fn wifi_config_store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let networks = match parse_wifi_store(&inv.output.text) {
        Ok(n) => n,
        Err(why) => {
            ctx.unparsed(&name, &why, Some(&inv.record.invocation_id))?;
            return Ok(());
        }
    };
    for (i, n) in networks.iter().enumerate() {
        if i as u64 >= MAX_ROWS {
            ctx.unparsed(
                &name,
                &format!(
                    "{} saved networks; the first {MAX_ROWS} were recorded",
                    networks.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let ssid_raw = n.get("SSID");
        let (ssid_fact, ssid) = ssid_raw.map(ssid_of).unwrap_or_default();
        let shown = if ssid.is_empty() { "?" } else { ssid.as_str() };
        let mut d = Draft::new("wifi", format!("Saved Wi-Fi network {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, Some(&ssid_fact), &inv);
        let mut said = Vec::new();
        for (field, ft, what) in WIFI_FIELDS {
            for v in n.values.iter().filter(|v| v.name == *field) {
                if v.raw.trim().is_empty() {
                    continue;
                }
                d.fact(*ft, Some(&v.raw), &inv);
                let readable = quick_xml::escape::unescape(&v.raw)
                    .map(|c| c.into_owned())
                    .unwrap_or_else(|_| v.raw.clone());
                let readable = match *field {
                    "AllowedKeyMgmt" => {
                        format!("{readable} = {}", key_mgmt_names(&v.raw).join(", "))
                    }
                    "SecurityType" => format!(
                        "{readable} = {}",
                        v.raw
                            .parse::<usize>()
                            .ok()
                            .and_then(|i| SECURITY_TYPES.get(i))
                            .unwrap_or(&"unknown")
                    ),
                    _ => readable,
                };
                said.push(format!("{what} {readable}"));
            }
        }
        // times: `long` values named …Time… holding Unix milliseconds
        for v in n.values.iter().filter(|v| v.kind == "long") {
            if v.name.to_ascii_lowercase().contains("time")
                && v.raw.parse::<i64>().is_ok_and(|t| t > 100_000_000_000)
            {
                d.time(
                    Some(&v.raw),
                    Some(TimeEncoding::UnixMillis),
                    &format!("Wi-Fi {}", v.name),
                    &inv,
                );
                said.push(format!("{} {} (Unix ms)", v.name, v.raw));
            }
        }
        let psk = match n.psk {
            Some(true) => "a pre-shared key is stored (its value is not read)",
            Some(false) => "a pre-shared key is stored encrypted (its value is not read)",
            None => "no pre-shared key",
        };
        let secrets = if n.secrets.is_empty() {
            String::new()
        } else {
            format!("; also stored, values not read: {}", n.secrets.join(", "))
        };
        d.interpretation = format!(
            "{name} saves the Wi-Fi network {shown}: {psk}{secrets}; {}.",
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join("; ")
            }
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The `network={…}` blocks of a `wpa_supplicant.conf`, each as its `key=value` lines.
pub fn wpa_networks(text: &str) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<(String, String)>> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("network={") {
            current = Some(Vec::new());
        } else if line == "}" {
            if let Some(n) = current.take() {
                out.push(n);
            }
        } else if let (Some(n), Some((k, v))) = (current.as_mut(), line.split_once('=')) {
            n.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

/// `wpa_supplicant.conf` keys reported, with fact type and name (`psk`, `wep_key*`,
/// `password` are secrets: only said present).
const WPA_FIELDS: &[(&str, FactType, &str)] = &[
    ("bssid", FactType::Identifier, "BSSID"),
    ("key_mgmt", FactType::Text, "key management"),
    ("scan_ssid", FactType::Text, "hidden (scan_ssid)"),
    ("priority", FactType::Count, "priority"),
    ("disabled", FactType::Text, "disabled"),
    ("identity", FactType::Account, "enterprise identity"),
    ("id_str", FactType::Text, "Android's id string"),
];

/// `wpa_supplicant.conf` (before Android 8): one phenomenon per `network` block.
pub fn wpa_supplicant(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let networks = wpa_networks(&inv.output.text);
    if networks.is_empty() {
        if !inv.output.text.contains("ctrl_interface") && !inv.output.text.contains("update_config")
        {
            ctx.unparsed(
                &name,
                "no network={…} block and no wpa_supplicant setting: not a wpa_supplicant configuration",
                Some(&inv.record.invocation_id),
            )?;
        }
        return Ok(());
    }
    for n in networks.iter().take(MAX_ROWS as usize) {
        let get = |k: &str| n.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        let ssid_raw = get("ssid").unwrap_or_default();
        let ssid = ssid_raw
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .unwrap_or(ssid_raw);
        let shown = if ssid.is_empty() { "?" } else { ssid };
        let mut d = Draft::new("wifi", format!("Saved Wi-Fi network {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, Some(ssid), &inv);
        let mut said = Vec::new();
        for (k, ft, what) in WPA_FIELDS {
            if let Some(v) = get(k).filter(|v| !v.is_empty()) {
                let v = v
                    .strip_prefix('"')
                    .and_then(|s| s.strip_suffix('"'))
                    .unwrap_or(v);
                d.fact(*ft, Some(v), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        let secrets: Vec<&str> = n
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| *k == "psk" || *k == "password" || k.starts_with("wep_key"))
            .collect();
        d.interpretation = format!(
            "{name} saves the Wi-Fi network {shown}: {}; {}.",
            if secrets.is_empty() {
                "no key stored".to_string()
            } else {
                format!("stored, values not read: {}", secrets.join(", "))
            },
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join("; ")
            }
        );
        record_draft(ctx, d)?;
    }
    if networks.len() > MAX_ROWS as usize {
        ctx.unparsed(
            &name,
            &format!(
                "{} networks; the first {MAX_ROWS} were recorded",
                networks.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Bluetooth

/// The sections of an INI file (`[name]`, `key = value`), in order; lines before any section
/// under the name `""`.
pub fn ini_sections(text: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            out.push((name.trim().to_string(), Vec::new()));
        } else if let Some((k, v)) = line.split_once('=') {
            if out.is_empty() {
                out.push((String::new(), Vec::new()));
            }
            if let Some((_, kv)) = out.last_mut() {
                kv.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
    }
    out
}

/// Whether a section name is a Bluetooth device address (`aa:bb:cc:dd:ee:ff`).
fn is_bd_addr(s: &str) -> bool {
    let parts: Vec<&str> = s.split(':').collect();
    parts.len() == 6
        && parts
            .iter()
            .all(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether a `bt_config.conf` key holds key material (link keys, LE keys, local keys, the
/// metrics salt): never copied.
fn bt_secret(key: &str) -> bool {
    (key.contains("KEY") || key == "LinkKey" || key.starts_with("Salt")) && key != "LinkKeyType"
}

/// Major device classes of the Bluetooth Class of Device (bits 8–12).
fn major_class(cod: &str) -> Option<&'static str> {
    let v: u32 = cod.trim().parse().ok()?;
    Some(match (v >> 8) & 0x1f {
        0 => "miscellaneous",
        1 => "computer",
        2 => "phone",
        3 => "network access point",
        4 => "audio/video",
        5 => "peripheral (keyboard, mouse)",
        6 => "imaging",
        7 => "wearable",
        8 => "toy",
        9 => "health",
        _ => "uncategorised",
    })
}

/// Remote device fields reported, with fact type and name.
const BT_FIELDS: &[(&str, FactType, &str)] = &[
    ("Name", FactType::Name, "name"),
    ("Alias", FactType::Name, "alias given on the phone"),
    ("DevClass", FactType::Text, "class of device"),
    ("DevType", FactType::Text, "type (1 BR/EDR, 2 LE, 3 dual)"),
    ("AddrType", FactType::Text, "address type"),
    ("Manufacturer", FactType::Text, "manufacturer id"),
    ("LinkKeyType", FactType::Text, "link key type"),
    ("Service", FactType::Text, "services"),
];

/// `bt_config.conf`: the adapter and one phenomenon per remote device.
pub fn bluetooth(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let sections = ini_sections(&inv.output.text);
    let adapter = sections.iter().find(|(s, _)| s == "Adapter");
    let devices: Vec<_> = sections.iter().filter(|(s, _)| is_bd_addr(s)).collect();
    if adapter.is_none() && devices.is_empty() {
        ctx.unparsed(
            &name,
            "no [Adapter] section and no device section ([aa:bb:cc:dd:ee:ff]): not a Bluetooth configuration",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let get = |kv: &[(String, String)], k: &str| -> Option<String> {
        kv.iter()
            .find(|(key, v)| key == k && !v.is_empty())
            .map(|(_, v)| v.clone())
    };
    if let Some((_, kv)) = adapter {
        let address = get(kv, "Address");
        let dev_name = get(kv, "Name");
        let mut d = Draft::new(
            "bluetooth",
            format!(
                "Bluetooth adapter {} ({})",
                dev_name.as_deref().unwrap_or("?"),
                address.as_deref().unwrap_or("address not given")
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, address.as_deref(), &inv);
        d.fact(FactType::Name, dev_name.as_deref(), &inv);
        let info = sections
            .iter()
            .find(|(s, _)| s == "Info")
            .map(|(_, kv)| kv.as_slice())
            .unwrap_or_default();
        let created = get(info, "TimeCreated");
        d.time(
            created.as_deref(),
            created.as_ref().map(|_| TimeEncoding::LocalText),
            "Bluetooth configuration created",
            &inv,
        );
        let keys: Vec<&str> = kv
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| bt_secret(k))
            .collect();
        d.interpretation = format!(
            "{name}: the device's own Bluetooth adapter has the address {} and the name {}{}{}.",
            address.as_deref().unwrap_or("(not given)"),
            dev_name.as_deref().unwrap_or("(not given)"),
            created
                .as_deref()
                .map(|c| format!(
                    "; the file was created {c} (device-local time, [Info] TimeCreated)"
                ))
                .unwrap_or_default(),
            if keys.is_empty() {
                String::new()
            } else {
                format!("; local keys stored, values not read: {}", keys.join(", "))
            }
        );
        record_draft(ctx, d)?;
        if let Some(n) = &dev_name {
            observe(
                ctx,
                "device",
                EntityKind::Device,
                "Android device",
                IdType::DeviceName,
                n,
                &inv,
                format!("The device's Bluetooth name ({name}, [Adapter] Name)."),
            )?;
        }
        if let Some(a) = &address {
            observe(
                ctx,
                "device",
                EntityKind::Device,
                "Android device",
                IdType::BluetoothAddress,
                a,
                &inv,
                format!("The device's own Bluetooth address ({name}, [Adapter] Address)."),
            )?;
        }
    }
    for (addr, kv) in devices.iter().take(MAX_ROWS as usize) {
        let dev_name = get(kv, "Name").or_else(|| get(kv, "Alias"));
        let mut d = Draft::new(
            "bluetooth",
            format!(
                "Bluetooth device {} ({addr})",
                dev_name.as_deref().unwrap_or("unnamed")
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(addr), &inv);
        let mut said = Vec::new();
        for (k, ft, what) in BT_FIELDS {
            if let Some(v) = get(kv, k) {
                d.fact(*ft, Some(&v), &inv);
                let extra = match *k {
                    "DevClass" => major_class(&v).map(|c| format!(" ({c})")),
                    _ => None,
                }
                .unwrap_or_default();
                said.push(format!("{what} {v}{extra}"));
            }
        }
        let ts = get(kv, "Timestamp");
        d.time(
            ts.as_deref(),
            unix_seconds(ts.as_deref()),
            "Bluetooth device entry stamped",
            &inv,
        );
        let keys: Vec<&str> = kv
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| bt_secret(k))
            .collect();
        let bonded = if keys.is_empty() {
            "no link key stored: seen or connected, not bonded".to_string()
        } else {
            format!(
                "bonded (paired): keys stored, values not read: {}",
                keys.join(", ")
            )
        };
        d.interpretation = format!(
            "{name} knows the Bluetooth device {addr}, {bonded}; {}{}.",
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join("; ")
            },
            ts.as_deref()
                .map(|t| format!(
                    "; Timestamp {t} (Unix seconds: when the stack last wrote the entry)"
                ))
                .unwrap_or_default()
        );
        record_draft(ctx, d)?;
        // the peer as a device of its own, by its address: another examined device whose
        // adapter has it, or the same car or headset in another phone's pairings, meets it
        observe(
            ctx,
            &format!("bluetooth:{}", addr.to_ascii_uppercase()),
            EntityKind::Device,
            dev_name.as_deref().unwrap_or("Bluetooth device"),
            IdType::BluetoothAddress,
            addr,
            &inv,
            format!("{name} knows the Bluetooth device {addr}."),
        )?;
    }
    if devices.len() > MAX_ROWS as usize {
        ctx.unparsed(
            &name,
            &format!(
                "{} device sections; the first {MAX_ROWS} were recorded",
                devices.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SQLite helpers

/// The columns of `table` (`pragma_table_info`); `None` (noted) when the query fails.
fn columns(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
) -> Result<Option<(Invoked, BTreeSet<String>)>, RuntimeError> {
    crate::identity::columns_on(ctx, &l.tree, &l.path, table)
}

/// Notes `l` unparsed when `table` lacks one of `needed`; returns whether all are there.
fn require(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: &Invoked,
    table: &str,
    cols: &BTreeSet<String>,
    needed: &[&str],
) -> Result<bool, RuntimeError> {
    super::require_all(
        ctx,
        l,
        Some(inv),
        needed,
        |c| cols.contains(c),
        |missing| format!("unexpected schema: {table} has no column {missing}"),
    )
}

/// A `SELECT` list of `wanted` columns of `cols` (a missing one as `NULL AS` it) with
/// `prefix` (`e.`).
fn select(cols: &BTreeSet<String>, prefix: &str, wanted: &[&str]) -> String {
    wanted
        .iter()
        .map(|c| column_or_null(cols, prefix, c, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One summary phenomenon for the rows of `from` beyond the first [`ROW_CAP`]: count, first
/// and last `time_col` (in `encoding`).
#[allow(clippy::too_many_arguments)]
fn summarise_rest(
    ctx: &AgentCtx<'_>,
    l: &Located,
    from: &str,
    time_col: &str,
    encoding: TimeEncoding,
    category: &'static str,
    what: &str,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT COUNT(*) AS n, MIN(t) AS first, MAX(t) AS last FROM (SELECT {time_col} AS t {from} LIMIT -1 OFFSET {ROW_CAP})"
    );
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, 1)? else {
        return Ok(());
    };
    let Some(row) = t.rows.first() else {
        return Ok(());
    };
    let Some(n) = t.get(row, "n").filter(|n| *n != "0") else {
        return Ok(());
    };
    let mut d = Draft::new(category, format!("{n} more {what} summarised"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Count, Some(n), &inv);
    for (col, desc) in [("first", "first"), ("last", "last")] {
        let v = t.get(row, col);
        let enc = v
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| *v > 0.0)
            .map(|_| encoding);
        d.time(v, enc, &format!("{what}: {desc} of the rest"), &inv);
    }
    d.interpretation = format!(
        "{} holds {n} {what} beyond the first {ROW_CAP}, which are recorded one by one; these are summarised by count and first/last {time_col} only.",
        artefact_name(&l.tree, &l.path)
    );
    record_draft(ctx, d)
}

/// Observes an e-mail as a person `handle:<e-mail>` (with `display` as their display name),
/// unless it is one of the `own` accounts or a Google group calendar's address.
#[allow(clippy::too_many_arguments)]
fn observe_email_person(
    ctx: &AgentCtx<'_>,
    email: &str,
    display: Option<&str>,
    own: &[String],
    inv: &Invoked,
    why: &str,
) -> Result<(), RuntimeError> {
    let Some(norm) = normalized(ctx, IdType::Email, email) else {
        return Ok(());
    };
    if own.iter().any(|o| o.eq_ignore_ascii_case(email)) || group_calendar(email) {
        return Ok(());
    }
    let context = format!("handle:{norm}");
    observe(
        ctx,
        &context,
        EntityKind::Person,
        display.unwrap_or(email),
        IdType::Email,
        email,
        inv,
        format!("{email} is {why}."),
    )?;
    if let Some(name) = display.filter(|n| !n.eq_ignore_ascii_case(email)) {
        observe(
            ctx,
            &context,
            EntityKind::Person,
            name,
            IdType::DisplayName,
            name,
            inv,
            format!("The name shown for {email}, {why}."),
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Calendar

/// `Attendees.attendeeStatus` (AOSP `CalendarContract.Attendees`).
fn attendee_status(s: &str) -> &'static str {
    match s {
        "0" => "no response",
        "1" => "accepted",
        "2" => "declined",
        "3" => "invited",
        "4" => "tentative",
        _ => "status unknown",
    }
}

/// Domains of Google calendars that are no person's (group, holiday, imported calendars).
fn group_calendar(owner: &str) -> bool {
    owner.ends_with("calendar.google.com")
}

/// The calendar provider's `calendar.db`.
pub fn calendar(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["Events", "Calendars"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some((cinv, ccols)) = columns(ctx, l, "Calendars")? else {
        return Ok(());
    };
    if !require(ctx, l, &cinv, "Calendars", &ccols, &["_id"])? {
        return Ok(());
    }
    let Some((einv, ecols)) = columns(ctx, l, "Events")? else {
        return Ok(());
    };
    if !require(ctx, l, &einv, "Events", &ecols, &["_id", "dtstart"])? {
        return Ok(());
    }
    // The calendars and their accounts.
    let sql = format!(
        "SELECT _id, {} FROM Calendars ORDER BY _id",
        select(
            &ccols,
            "",
            &[
                "account_name",
                "account_type",
                "calendar_displayName",
                "name",
                "ownerAccount",
                "deleted"
            ]
        )
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let mut own: Vec<String> = Vec::new();
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let account = t.get(row, "account_name");
        let kind = t.get(row, "account_type").unwrap_or("");
        let display = t
            .get(row, "calendar_displayName")
            .or_else(|| t.get(row, "name"));
        let owner_account = t.get(row, "ownerAccount");
        let mut d = Draft::new(
            "calendar",
            format!(
                "Calendar {} ({})",
                display.unwrap_or("unnamed"),
                account.unwrap_or("no account")
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Account,
            raw(t, row, "account_name").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "account_type").as_deref(), inv);
        d.fact(
            FactType::Name,
            raw(t, row, "calendar_displayName").as_deref(),
            inv,
        );
        d.fact(
            FactType::Account,
            raw(t, row, "ownerAccount").as_deref(),
            inv,
        );
        let shared = owner_account.filter(|o| Some(*o) != account);
        d.interpretation = format!(
            "Calendar {id} of {name}: {} of the account {} (type {}){}{}.",
            display.unwrap_or("unnamed"),
            account.unwrap_or("not given"),
            if kind.is_empty() { "not given" } else { kind },
            match shared {
                Some(o) if group_calendar(o) =>
                    format!(", a group or public calendar ({o}) the account follows"),
                Some(o) => format!(", owned by {o} and shared with the account"),
                None => String::new(),
            },
            if t.get(row, "deleted") == Some("1") {
                ", deleted (kept until synced)"
            } else {
                ""
            }
        );
        record_draft(ctx, d)?;
        if let Some(a) = account
            && kind != "LOCAL"
        {
            let id_type =
                if kind == "com.google" && normalized(ctx, IdType::GoogleAccount, a).is_some() {
                    Some(IdType::GoogleAccount)
                } else if normalized(ctx, IdType::Email, a).is_some() {
                    Some(IdType::Email)
                } else {
                    None
                };
            if let Some(id_type) = id_type {
                if !own.iter().any(|o| o.eq_ignore_ascii_case(a)) {
                    own.push(a.to_string());
                }
                observe(
                    ctx,
                    "owner",
                    EntityKind::Person,
                    "device owner",
                    id_type,
                    a,
                    inv,
                    format!(
                        "The account {a} ({kind}) the device's calendars sync with ({}, Calendars.account_name).",
                        l.name()
                    ),
                )?;
            }
        }
        if let Some(o) = shared.filter(|o| !group_calendar(o)) {
            observe_email_person(
                ctx,
                o,
                None,
                &own,
                inv,
                &format!(
                    "the owner of the calendar {} shared with the device's user ({name}, Calendars.ownerAccount)",
                    display.unwrap_or("unnamed")
                ),
            )?;
        }
    }
    // The attendees, by event.
    let mut atable = None;
    if tables.iter().any(|t| t == "Attendees")
        && let Some((_, acols)) = columns(ctx, l, "Attendees")?
        && acols.contains("event_id")
    {
        let sql = format!(
            "SELECT _id, event_id, {} FROM Attendees ORDER BY event_id, _id",
            select(
                &acols,
                "",
                &[
                    "attendeeName",
                    "attendeeEmail",
                    "attendeeStatus",
                    "attendeeRelationship"
                ]
            )
        );
        if let Some(at_pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            crate::calls::note_pages_cap(ctx, &name, &at_pages, "attendees")?;
            atable = Some(at_pages);
        }
    }
    let mut attendees: std::collections::BTreeMap<&str, Vec<crate::calls::PagedRow>> =
        Default::default();
    for (ainv, at, row) in atable.iter().flat_map(|p| p.rows()) {
        if let Some(e) = at.get(row, "event_id") {
            attendees.entry(e).or_default().push((ainv, at, row));
        }
    }
    // The events.
    let from = if ecols.contains("calendar_id") && ccols.contains("_id") {
        "FROM Events e LEFT JOIN Calendars c ON c._id = e.calendar_id ORDER BY e._id"
    } else {
        "FROM Events e ORDER BY e._id"
    };
    let cal_cols = if from.contains("JOIN") {
        format!(
            "{}, {}",
            column_or_null(&ccols, "c.", "calendar_displayName", "calendar"),
            column_or_null(&ccols, "c.", "account_name", "calendar_account")
        )
    } else {
        "NULL AS calendar, NULL AS calendar_account".to_string()
    };
    let sql = format!(
        "SELECT e._id AS _id, {}, {cal_cols} {from}",
        select(
            &ecols,
            "e.",
            &[
                "title",
                "description",
                "eventLocation",
                "dtstart",
                "dtend",
                "eventTimezone",
                "allDay",
                "rrule",
                "organizer",
                "deleted"
            ]
        )
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let title = t.get(row, "title");
        let mut d = Draft::new(
            "calendar",
            format!("Calendar event {}", title.unwrap_or("(no title)")),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, raw(t, row, "title").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "description").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "eventLocation").as_deref(), inv);
        let all_day = t.get(row, "allDay") == Some("1");
        for (col, desc) in [
            ("dtstart", "Calendar event starts"),
            ("dtend", "Calendar event ends"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_millis(v), desc, inv);
        }
        d.fact(FactType::Text, raw(t, row, "rrule").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "organizer").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "calendar").as_deref(), inv);
        let mut people = Vec::new();
        for &(ainv, at, arow) in attendees.get(id).into_iter().flatten() {
            let email = at.get(arow, "attendeeEmail");
            let aname = at.get(arow, "attendeeName");
            d.fact(
                FactType::Email,
                raw(at, arow, "attendeeEmail").as_deref(),
                ainv,
            );
            d.fact(
                FactType::Name,
                raw(at, arow, "attendeeName").as_deref(),
                ainv,
            );
            let role = if at.get(arow, "attendeeRelationship") == Some("2") {
                ", organizer"
            } else {
                ""
            };
            people.push(format!(
                "{}{} ({}{role})",
                aname.unwrap_or(""),
                email.map(|e| format!(" <{e}>")).unwrap_or_default(),
                attendee_status(at.get(arow, "attendeeStatus").unwrap_or(""))
            ));
            if let Some(e) = email {
                observe_email_person(
                    ctx,
                    e,
                    aname,
                    &own,
                    ainv,
                    &format!(
                        "an attendee of the calendar event {:?} ({name}, Attendees)",
                        title.unwrap_or("(no title)")
                    ),
                )?;
            }
        }
        if let Some(o) = t.get(row, "organizer") {
            observe_email_person(
                ctx,
                o,
                None,
                &own,
                inv,
                &format!(
                    "the organizer of the calendar event {:?} ({name}, Events.organizer)",
                    title.unwrap_or("(no title)")
                ),
            )?;
        }
        let mut said = Vec::new();
        for (col, what) in [
            ("eventLocation", "at"),
            ("eventTimezone", "time zone"),
            ("rrule", "repeating"),
            ("organizer", "organised by"),
            ("calendar", "in the calendar"),
            ("calendar_account", "of the account"),
        ] {
            if let Some(v) = t.get(row, col) {
                said.push(format!("{what} {v}"));
            }
        }
        if !people.is_empty() {
            said.push(format!("attendees: {}", people.join(", ")));
        }
        d.interpretation = format!(
            "Event {id} of {name}, {:?}{}{}: {}; dtstart/dtend are Unix ms{}.",
            title.unwrap_or("(no title)"),
            if all_day { ", all day" } else { "" },
            if t.get(row, "deleted") == Some("1") {
                ", deleted (kept until synced)"
            } else {
                ""
            },
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join("; ")
            },
            if all_day {
                " (an all-day event's are midnight UTC of its dates)"
            } else {
                ""
            }
        );
        record_draft(ctx, d)?;
    }
    if pages.truncated {
        summarise_rest(
            ctx,
            l,
            "FROM Events ORDER BY _id",
            "dtstart",
            TimeEncoding::UnixMillis,
            "calendar",
            "calendar events",
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Media store

/// Columns of `files` read when present, with fact type and how they are named.
const MEDIA_FIELDS: &[(&str, FactType, &str)] = &[
    ("_display_name", FactType::Name, "name"),
    ("mime_type", FactType::Text, "type"),
    ("_size", FactType::Count, "size (bytes)"),
    ("width", FactType::Count, "width"),
    ("height", FactType::Count, "height"),
    ("relative_path", FactType::Path, "relative path"),
    ("bucket_display_name", FactType::Name, "album"),
    (
        "owner_package_name",
        FactType::Identifier,
        "owned by the app",
    ),
    ("is_download", FactType::Text, "downloaded"),
    ("is_trashed", FactType::Text, "in the trash"),
];

/// The media provider's `external.db`: one phenomenon per photo or video of `files`.
pub fn media_store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(_) = tables_with(ctx, l, &["files"])? else {
        return Ok(());
    };
    let Some((cinv, cols)) = columns(ctx, l, "files")? else {
        return Ok(());
    };
    if !require(
        ctx,
        l,
        &cinv,
        "files",
        &cols,
        &["_id", "_data", "mime_type"],
    )? {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let filter = if cols.contains("media_type") {
        "WHERE media_type IN (1, 3)"
    } else {
        "WHERE mime_type LIKE 'image/%' OR mime_type LIKE 'video/%'"
    };
    let mut wanted: Vec<&str> = vec![
        "_data",
        "date_added",
        "date_modified",
        "datetaken",
        "latitude",
        "longitude",
        "media_type",
    ];
    wanted.extend(MEDIA_FIELDS.iter().map(|(c, _, _)| *c));
    let from = format!("FROM files {filter} ORDER BY _id");
    let sql = format!("SELECT _id, {} {from}", select(&cols, "", &wanted));
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let path = t.get(row, "_data");
        let video = t.get(row, "media_type") == Some("3")
            || t.get(row, "mime_type")
                .is_some_and(|m| m.starts_with("video/"));
        let what = if video { "Video" } else { "Photo" };
        let mut d = Draft::new(
            "media",
            format!(
                "{what} {}",
                t.get(row, "_display_name")
                    .or(path.and_then(|p| p.rsplit('/').next()))
                    .unwrap_or(id)
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Path, raw(t, row, "_data").as_deref(), inv);
        let mut said = Vec::new();
        for (c, ft, w) in MEDIA_FIELDS {
            if let Some(v) = t.get(row, c) {
                d.fact(*ft, raw(t, row, c).as_deref(), inv);
                said.push(format!("{w} {v}"));
            }
        }
        let (lat, lon) = (t.get(row, "latitude"), t.get(row, "longitude"));
        let place = match (lat, lon) {
            (Some(a), Some(b))
                if a.parse::<f64>().is_ok_and(|v| v != 0.0)
                    || b.parse::<f64>().is_ok_and(|v| v != 0.0) =>
            {
                d.fact(FactType::Text, Some(a), inv);
                d.fact(FactType::Text, Some(b), inv);
                format!(
                    "; taken at latitude {a}, longitude {b} (as the media scanner read the file's location)"
                )
            }
            _ => String::new(),
        };
        let taken = t.get(row, "datetaken");
        d.time(
            taken,
            unix_millis(taken),
            if video {
                "Video recorded"
            } else {
                "Photo taken"
            },
            inv,
        );
        for (col, desc) in [
            ("date_added", "Media added to the media store"),
            ("date_modified", "Media file modified"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_seconds(v), desc, inv);
        }
        d.interpretation = format!(
            "files _id {id} of {name}: the {} {}{place}; {}; datetaken is Unix ms, date_added and date_modified Unix seconds.",
            what.to_lowercase(),
            path.unwrap_or("(no path)"),
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join("; ")
            }
        );
        record_draft(ctx, d)?;
    }
    if pages.truncated {
        let time_col = if cols.contains("date_added") {
            "date_added"
        } else {
            "_id"
        };
        summarise_rest(
            ctx,
            l,
            &from,
            time_col,
            TimeEncoding::UnixSeconds,
            "media",
            "photos and videos",
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_management_bits() {
        assert_eq!(key_mgmt_names("02"), ["WPA_PSK"]);
        assert_eq!(key_mgmt_names("01"), ["NONE"]);
        assert_eq!(key_mgmt_names("0001"), ["SAE"]);
        assert!(key_mgmt_names("zz").is_empty());
    }

    #[test]
    fn wifi_store_values_raw_and_secrets_only_flagged() {
        let xml = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<WifiConfigStoreData>\n<int name=\"Version\" value=\"3\" />\n<NetworkList>\n<Network>\n<WifiConfiguration>\n<string name=\"ConfigKey\">&quot;A&amp;B&quot;WPA_PSK</string>\n<string name=\"SSID\">&quot;A&amp;B&quot;</string>\n<string name=\"PreSharedKey\">&quot;hunter22&quot;</string>\n<null name=\"WEPKeys\" />\n<boolean name=\"HiddenSSID\" value=\"true\" />\n</WifiConfiguration>\n<NetworkStatus>\n<long name=\"ConnectChoiceTimeStamp\" value=\"1700000000000\" />\n</NetworkStatus>\n</Network>\n</NetworkList>\n</WifiConfigStoreData>\n";
        let n = parse_wifi_store(xml).unwrap();
        assert_eq!(n.len(), 1);
        assert_eq!(n[0].get("SSID"), Some("&quot;A&amp;B&quot;"));
        assert_eq!(n[0].get("HiddenSSID"), Some("true"));
        assert_eq!(n[0].psk, Some(true));
        assert!(n[0].secrets.is_empty());
        assert!(n[0].values.iter().all(|v| !v.raw.contains("hunter22")));
        assert_eq!(
            ssid_of("&quot;A&amp;B&quot;"),
            ("A&amp;B".into(), "A&B".into())
        );
        let cut = &xml[..xml.find("<NetworkStatus>").unwrap()];
        assert!(parse_wifi_store(cut).unwrap_err().contains("cut short"));
        assert!(
            parse_wifi_store("<a><b></a>")
                .unwrap_err()
                .starts_with("not readable XML")
        );
        assert!(
            parse_wifi_store("<Other/>")
                .unwrap_err()
                .contains("<Other>")
        );
    }

    #[test]
    fn ini_and_addresses() {
        let s = ini_sections(
            "[Adapter]\nAddress = 22:22:aa:bb:cc:dd\n\n[00:1a:7d:da:71:13]\nName = JBL\nLinkKey = 00ff\n",
        );
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].1[0], ("Name".into(), "JBL".into()));
        assert!(is_bd_addr("00:1a:7d:da:71:13"));
        assert!(!is_bd_addr("Adapter"));
        assert!(bt_secret("LinkKey") && bt_secret("LE_KEY_PENC") && bt_secret("LE_LOCAL_KEY_IRK"));
        assert!(!bt_secret("LinkKeyType") && !bt_secret("Name"));
        assert_eq!(major_class("2360324"), Some("audio/video"));
    }

    #[test]
    fn wpa_blocks() {
        let n = wpa_networks(
            "ctrl_interface=wlan0\nnetwork={\n\tssid=\"Cafe\"\n\tpsk=\"x\"\n\tkey_mgmt=WPA-PSK\n}\n",
        );
        assert_eq!(n.len(), 1);
        assert_eq!(n[0][0], ("ssid".into(), "\"Cafe\"".into()));
    }
}
