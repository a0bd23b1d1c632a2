//! The system configuration's preferences (`/private/var/preferences/SystemConfiguration/
//! preferences.plist`), iLEAPP's `preferencesPlist` ("Preferences PList": model, local host
//! name, computer name, host name), read with `parse_plist`:
//!
//! | key | phenomenon | fields |
//! |---|---|---|
//! | the file's top level and `System` | one `device` ("System configuration of <computer name>") | `Model`; `System > System > ComputerName` (the device's name), `HostName`; `System > Network > HostNames > LocalHostName` (its Bonjour name); the current set (`CurrentSet`, a `/Sets/<id>` path) and that set's `UserDefinedName`; `__VERSION__` |
//! | `NetworkServices` (each) | one `device` per network service ("Network service <name> <BSD name>") | the service id, its `UserDefinedName`; its interface's `DeviceName` (BSD name), `Hardware`, `Type`, `SubType`, `UserDefinedName`; `IPv4` `ConfigMethod`, `Addresses`, `Router`; `IPv6` `ConfigMethod`; `DNS` `ServerAddresses` and `DomainName`; `Proxies` `HTTPProxy`/`HTTPPort`, `HTTPSProxy`/`HTTPSPort`, `ProxyAutoConfigURLString`; whether the current set lists it (its `Network > Service` members, said) |
//!
//! The computer name is the name the user gave the device (Settings > General > About > Name,
//! `-DeviceName` in lockdown's `data_ark.plist`): the name other devices saw over AirDrop,
//! Bluetooth, Personal Hotspot and a computer's Finder; the local host name is the Bonjour
//! name (`<name>.local`) derived from it. A manual address, router or DNS server of a service is
//! one the user or a profile set; a proxy is where the service's web traffic went. No time is
//! kept in the file.
//!
//! Not read: anything else of a service (`PPP`, `IPSec`, `VPN` and the like: their passwords
//! are keychain references, and nothing of them is selected), the sets' other members and the
//! file's other keys (`System > Network > Interface`, …). Values are taken as `parse_plist`
//! prints them (data as hex). A file that is no dictionary or holds none of `Model`, `System`
//! and `NetworkServices` is noted; one that does not parse is noted by the call.
//!
//! Only `…/SystemConfiguration/preferences.plist` is read: an app's own `preferences.plist`
//! elsewhere is neither read nor noted.
//!
//! Identities: the computer name is observed as the examined device's name (`device`, weak);
//! host names and addresses are facts.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run};
use crate::outputs::json_scalar;

/// The tail that tells the system's copy of `preferences.plist` from any app's.
const TAIL: &str = "/SystemConfiguration/preferences.plist";

/// The device's fields: `(key path, type, label)`.
const SYSTEM_FIELDS: [(&[&str], FactType, &str); 6] = [
    (&["Model"], FactType::Text, "model"),
    (
        &["System", "System", "ComputerName"],
        FactType::Name,
        "computer name (the device's name)",
    ),
    (
        &["System", "System", "HostName"],
        FactType::Name,
        "host name",
    ),
    (
        &["System", "Network", "HostNames", "LocalHostName"],
        FactType::Name,
        "local host name (Bonjour)",
    ),
    (&["CurrentSet"], FactType::Text, "current set"),
    (&["__VERSION__"], FactType::Text, "file version"),
];

/// A service's scalar fields: `(section, key, type, label)` (`""`: the service itself).
const SERVICE_FIELDS: [(&str, &str, FactType, &str); 13] = [
    ("", "UserDefinedName", FactType::Name, "name"),
    ("Interface", "DeviceName", FactType::Name, "BSD name"),
    ("Interface", "Hardware", FactType::Text, "hardware"),
    ("Interface", "Type", FactType::Text, "interface type"),
    ("Interface", "SubType", FactType::Text, "interface subtype"),
    (
        "Interface",
        "UserDefinedName",
        FactType::Name,
        "interface name",
    ),
    ("IPv4", "ConfigMethod", FactType::Text, "IPv4 configuration"),
    ("IPv4", "Router", FactType::Identifier, "IPv4 router"),
    ("IPv6", "ConfigMethod", FactType::Text, "IPv6 configuration"),
    ("DNS", "DomainName", FactType::Text, "DNS domain"),
    ("Proxies", "HTTPProxy", FactType::Identifier, "HTTP proxy"),
    ("Proxies", "HTTPSProxy", FactType::Identifier, "HTTPS proxy"),
    (
        "Proxies",
        "ProxyAutoConfigURLString",
        FactType::Url,
        "proxy auto-configuration URL",
    ),
];

/// A service's ports and lists: `(section, key, type, label)`; a list's items each a fact.
const SERVICE_MORE: [(&str, &str, FactType, &str); 4] = [
    ("Proxies", "HTTPPort", FactType::Count, "HTTP proxy port"),
    ("Proxies", "HTTPSPort", FactType::Count, "HTTPS proxy port"),
    ("IPv4", "Addresses", FactType::Identifier, "IPv4 address"),
    ("DNS", "ServerAddresses", FactType::Identifier, "DNS server"),
];

/// Whether `path` is the system configuration's preferences file.
pub fn is_store(path: &str) -> bool {
    path.ends_with(TAIL)
}

/// Triage of every system configuration preferences file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("preferences.plist", |find, path| {
        if !is_store(path) {
            return Ok(());
        }
        let Some((inv, doc)) = parse(run, path)? else {
            return Ok(());
        };
        let held = doc
            .as_object()
            .is_some_and(|m| ["Model", "System", "NetworkServices"].iter().any(|k| m.contains_key(*k)));
        if !held {
            run.ctx.unparsed(
                path,
                "could not read the system configuration preferences because the file holds none of Model, System, NetworkServices",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
        system(run, find, path, &inv, &doc)?;
        services(run, find, path, &inv, &doc)
    })
}

/// The value at `keys` below `v`.
fn at<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().try_fold(v, |x, k| x.get(*k))
}

/// The set `CurrentSet` names (`/Sets/<id>`): its id and value.
fn current_set(doc: &Value) -> Option<(&str, &Value)> {
    let id = doc.get("CurrentSet")?.as_str()?.strip_prefix("/Sets/")?;
    Some((id, doc.get("Sets")?.get(id)?))
}

/// The device's names and model.
fn system(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    doc: &Value,
) -> Result<(), RuntimeError> {
    let computer = json_scalar(at(doc, &["System", "System", "ComputerName"]));
    let mut d = Draft::new(
        "device",
        format!(
            "System configuration of {}",
            computer.as_deref().unwrap_or("the device")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (keys, ft, label) in SYSTEM_FIELDS {
        if let Some(v) = json_scalar(at(doc, keys)) {
            d.fact(ft, Some(&v), inv);
            said.push(format!("{label} {v}"));
        }
    }
    if let Some(name) = current_set(doc).and_then(|(_, s)| json_scalar(s.get("UserDefinedName"))) {
        d.fact(FactType::Name, Some(&name), inv);
        said.push(format!("current set's name {name}"));
    }
    d.interpretation = format!(
        "The system configuration's preferences ({path}): {}. The computer name is the name the user gave the device, which other devices saw over AirDrop, Bluetooth, Personal Hotspot and a computer's Finder; the local host name is its Bonjour name (<name>.local).",
        if said.is_empty() {
            "no name or model".to_string()
        } else {
            said.join("; ")
        }
    );
    run.record(d)?;
    if let Some(name) = &computer
        && run.normalised(IdType::DeviceName, name).is_some()
    {
        run.observe(
            "device",
            EntityKind::Device,
            "examined device",
            IdType::DeviceName,
            name,
            inv,
            format!(
                "{path} records {name} as the device's computer name (System > System > ComputerName): the name the user gave the device."
            ),
        )?;
    }
    Ok(())
}

/// One phenomenon per network service.
fn services(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    doc: &Value,
) -> Result<(), RuntimeError> {
    let Some(services) = doc.get("NetworkServices").and_then(Value::as_object) else {
        return Ok(());
    };
    let listed: Vec<&str> = current_set(doc)
        .and_then(|(_, s)| at(s, &["Network", "Service"]))
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let in_set = current_set(doc).is_some();
    for (count, (id, s)) in services.iter().enumerate() {
        if count as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!(
                    "{} network services; the first {count} were recorded",
                    services.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        if !s.is_object() {
            continue;
        }
        let field = |section: &str, key: &str| {
            let holder = if section.is_empty() {
                Some(s)
            } else {
                s.get(section)
            };
            holder.and_then(|h| json_scalar(h.get(key)))
        };
        let name = field("", "UserDefinedName").or_else(|| field("Interface", "UserDefinedName"));
        let bsd = field("Interface", "DeviceName");
        let mut d = Draft::new(
            "device",
            format!(
                "Network service {}{}",
                name.as_deref().unwrap_or("(unnamed)"),
                bsd.as_deref().map(|b| format!(" {b}")).unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(id.as_str()), inv);
        let mut said = vec![format!("service {id}")];
        for (section, key, ft, label) in SERVICE_FIELDS {
            if let Some(v) = field(section, key) {
                d.fact(ft, Some(&v), inv);
                said.push(format!("{label} {v}"));
            }
        }
        for (section, key, ft, label) in SERVICE_MORE {
            let Some(v) = s.get(section).and_then(|h| h.get(key)) else {
                continue;
            };
            let items: Vec<String> = match v {
                Value::Array(a) => a.iter().filter_map(|x| json_scalar(Some(x))).collect(),
                other => json_scalar(Some(other)).into_iter().collect(),
            };
            for x in items {
                d.fact(ft, Some(&x), inv);
                said.push(format!("{label} {x}"));
            }
        }
        let membership = if !in_set {
            ""
        } else if listed.contains(&id.as_str()) {
            " It is a service of the current set (in use)."
        } else {
            " The current set does not list it."
        };
        d.interpretation = format!(
            "A network service of the system configuration ({path}): {}.{membership} A manual address, router or DNS server is one the user or a profile set; a proxy is where the service's web traffic was sent.",
            said.join("; ")
        );
        run.record(d)?;
    }
    Ok(())
}
