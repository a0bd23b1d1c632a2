//! The device's network interfaces (`/private/var/preferences/SystemConfiguration/
//! NetworkInterfaces.plist`), iLEAPP's `wifiIdentifiers`, read with `parse_plist`:
//!
//! | key | phenomenon | fields |
//! |---|---|---|
//! | `Interfaces` (each) | one `device` per interface ("Network interface <name> <BSD name>") | the hardware (MAC) address (`IOMACAddress`, data: its hex as `parse_plist` prints it), the name Settings shows (`SCNetworkInterfaceInfo.UserDefinedName`), the BSD name (`en0`, `pdp_ip0`, …), the interface type (`SCNetworkInterfaceType`), built-in, the I/O Kit interface type, unit and name prefix, the I/O Kit path; the file's `Model` |
//!
//! The Wi-Fi interface's address is the device's own hardware address (not the private,
//! per-network address it shows to networks since iOS 14, which `com.apple.wifi-private-mac-
//! networks.plist` keeps): the address a router, a DHCP server or a Wi-Fi scanner logged for
//! the device before private addresses, or for networks where they are off (said). An
//! interface without `IOMACAddress` (a cellular one) is recorded without it, as iLEAPP writes
//! N/A; an address that is not six bytes is recorded as stored and said so. A file that is no
//! dictionary or has no `Interfaces` array is noted; one that does not parse is noted by the
//! call.
//!
//! Identities: none observed (no identifier type names a hardware address as written here:
//! hex without separators); the addresses are facts for the examiner to match.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run};
use crate::outputs::json_scalar;

/// The fields of an interface: `(key, type, label)`.
const FIELDS: [(&str, FactType, &str); 7] = [
    ("BSD Name", FactType::Name, "BSD name"),
    ("SCNetworkInterfaceType", FactType::Text, "interface type"),
    ("IOBuiltin", FactType::Text, "built in"),
    ("IOInterfaceType", FactType::Text, "I/O Kit interface type"),
    ("IOInterfaceUnit", FactType::Text, "unit"),
    ("IOInterfaceNamePrefix", FactType::Text, "name prefix"),
    ("IOPathMatch", FactType::Text, "I/O Kit path"),
];

/// Whether `path` is the system configuration's interface list.
pub fn is_store(path: &str) -> bool {
    path.ends_with("/SystemConfiguration/NetworkInterfaces.plist")
}

/// Triage of every network interface list of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("NetworkInterfaces.plist", |find, path| {
        if !is_store(path) {
            return Ok(());
        }
        let Some((inv, doc)) = parse(run, path)? else {
            return Ok(());
        };
        let Some(interfaces) = doc.get("Interfaces").and_then(Value::as_array) else {
            run.ctx.unparsed(
                path,
                "could not read the network interfaces because the file has no Interfaces array",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        };
        let model = json_scalar(doc.get("Model"));
        for i in interfaces.iter().filter(|i| i.is_object()) {
            one(run, find, path, &inv, i, model.as_deref())?;
        }
        Ok(())
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    i: &Value,
    model: Option<&str>,
) -> Result<(), RuntimeError> {
    let info = i.get("SCNetworkInterfaceInfo").filter(|v| v.is_object());
    let shown = info.and_then(|v| json_scalar(v.get("UserDefinedName")));
    let bsd = json_scalar(i.get("BSD Name"));
    let mac = i
        .get("IOMACAddress")
        .and_then(|m| m.get("$data_hex"))
        .and_then(Value::as_str)
        .filter(|h| !h.is_empty());
    let mut d = Draft::new(
        "device",
        format!(
            "Network interface {}{}",
            shown.as_deref().unwrap_or("(unnamed)"),
            bsd.as_deref().map(|b| format!(" {b}")).unwrap_or_default(),
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    if let Some(m) = mac {
        d.fact(FactType::Identifier, Some(m), inv);
        said.push(format!(
            "hardware address {m}{}",
            if m.len() == 12 {
                ""
            } else {
                " (not six bytes: as stored)"
            }
        ));
    }
    if let Some(s) = &shown {
        d.fact(FactType::Name, Some(s), inv);
        said.push(format!("shown as {s}"));
    }
    said.extend(d.json_fields(i, inv, &FIELDS));
    if let Some(m) = model {
        d.fact(FactType::Text, Some(m), inv);
        said.push(format!("model {m}"));
    }
    let wifi = json_scalar(i.get("SCNetworkInterfaceType")).as_deref() == Some("IEEE80211");
    d.interpretation = format!(
        "An interface of NetworkInterfaces.plist: {}. {}",
        said.join("; "),
        match (mac, wifi) {
            (Some(_), true) => {
                "The Wi-Fi interface's own hardware address: the one routers, DHCP servers and Wi-Fi scanners logged for the device where it did not use a private (per-network) address."
            }
            (Some(_), false) =>
                "The interface's hardware address as the system configuration keeps it.",
            (None, _) => "No hardware address is kept for this interface.",
        }
    );
    run.record(d)
}
