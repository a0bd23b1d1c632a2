//! Find My's items (`Library/Caches/com.apple.findmy.fmipcore/Items.data`: AirTags and other
//! Find My network accessories the device's Apple Account tracks, or that were shared with it),
//! the fields of iLEAPP's four `findMyItems` artefacts, read by `read_json`:
//!
//! - one `device` phenomenon per item: name, serial number, identifier, role (name, emoji,
//!   identifier), product type, manufacturer, product and vendor ids, antenna power, group id,
//!   owner, battery status, lost-mode metadata (every value), capabilities, system version;
//! - one `locations` phenomenon per position: the item's last `location` (time, position type,
//!   latitude, longitude, altitude, accuracies, floor, inaccurate, old, finished) with its
//!   reverse-geocoded `address` (every line), its `crowdSourcedLocation` (the position other
//!   people's Apple devices reported), and each of its `safeLocations` (the places it does not
//!   alert away from: name, type, identifier, position, address).
//!
//! Times are Unix milliseconds (seconds where the value is that small). Identities: an item is
//! a device `findmy-item:<identifier>` with its serial number, so the same AirTag in two
//! people's extractions is one accessory; an owner or lost-mode contact given as an e-mail
//! address or a phone number is that person's (`handle:<address>`). From iOS 17.5 the file is a
//! property list holding `encryptedData` (the key is in the keychain): it is named, noted, not
//! read.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run};
use crate::drafts::unix_by_magnitude;
use crate::outputs::json_scalar;

/// Triage of Find My's items.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Items.data", |find, path| {
        if !path.ends_with("/com.apple.findmy.fmipcore/Items.data") {
            return Ok(());
        }
        items(run, find, path)
    })
}

fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |node, k| node.get(k))
}

fn items(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let inv = run.ctx.call("read_json", json!({"path": path}))?;
    if !crate::calls::succeeded(&inv) {
        // iOS 17.5 and later: a property list holding the items encrypted
        let head = run
            .ctx
            .call("hexdump", json!({"path": path, "offset": 0, "length": 8}))?;
        let hex = head
            .output
            .structured
            .as_ref()
            .and_then(|s| s.get("hex"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_ascii_lowercase();
        // "bplist00": a property list; iOS 17.5 and later hold the items in its encryptedData
        let reason = if hex.starts_with("62706c6973743030") {
            let plist = run.ctx.call("parse_plist", json!({"path": path}))?;
            if crate::calls::succeeded(&plist) && plist.output.text.contains("encryptedData") {
                "could not parse Find My's Items.data because it is encrypted: a property list holding encryptedData (iOS 17.5 and later), whose key is in the keychain".to_string()
            } else {
                "could not parse Find My's Items.data because it is a property list, not the JSON array of items".to_string()
            }
        } else {
            crate::calls::failure_reason(&inv)
        };
        run.ctx
            .unparsed(path, &reason, Some(&inv.record.invocation_id))?;
        return Ok(());
    }
    let Some(Value::Array(list)) = crate::outputs::json_document(&inv.output.text) else {
        run.ctx.unparsed(
            path,
            "could not parse Find My's Items.data because it is not a JSON array of items",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for (i, x) in list.iter().enumerate() {
        item(run, find, path, &inv, i, x)?;
    }
    Ok(())
}

fn item(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    i: usize,
    x: &Value,
) -> Result<(), RuntimeError> {
    let s = |p: &[&str]| json_scalar(at(x, p));
    let name = s(&["name"]).unwrap_or_else(|| format!("item {}", i + 1));
    let mut d = Draft::new("device", format!("Find My item {name}"));
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (p, ft, what) in [
        (&["name"][..], FactType::Name, "name"),
        (&["serialNumber"], FactType::Serial, "serial number"),
        (&["identifier"], FactType::Identifier, "identifier"),
        (&["role", "name"], FactType::Text, "role"),
        (&["role", "emoji"], FactType::Text, "emoji"),
        (&["role", "identifier"], FactType::Identifier, "role id"),
        (&["productType", "type"], FactType::Text, "product type"),
        (
            &["productType", "productInformation", "manufacturerName"],
            FactType::Name,
            "manufacturer",
        ),
        (
            &["productType", "productInformation", "productIdentifier"],
            FactType::Identifier,
            "product id",
        ),
        (
            &["productType", "productInformation", "vendorIdentifier"],
            FactType::Identifier,
            "vendor id",
        ),
        (
            &["productType", "productInformation", "antennaPower"],
            FactType::Count,
            "antenna power",
        ),
        (&["groupIdentifier"], FactType::Identifier, "group id"),
        (&["batteryStatus"], FactType::Count, "battery status"),
        (&["systemVersion"], FactType::Text, "system version"),
    ] {
        if let Some(v) = s(p) {
            d.fact(ft, Some(&v), inv);
            said.push(format!("{what} {v}"));
        }
    }
    // the owner, the lost-mode metadata and the capabilities: every value they hold
    let mut contacts = Vec::new();
    for (key, what) in [
        ("owner", "owner"),
        ("lostModeMetadata", "lost mode"),
        ("capabilities", "capabilities"),
    ] {
        let mut out = Vec::new();
        if let Some(v) = x.get(key) {
            crate::outputs::json_leaves(v, "", &mut out);
        }
        for (k, v) in out {
            d.fact(FactType::Text, Some(&v), inv);
            said.push(if k.is_empty() {
                format!("{what} {v}")
            } else {
                format!("{what} {k} {v}")
            });
            if key != "capabilities" {
                contacts.push((what, v));
            }
        }
    }
    d.interpretation = format!(
        "item {} of {}: an accessory of the Find My network the device's Apple Account tracks or was shared: {}.",
        i + 1,
        path.rsplit('/').next().unwrap_or(path),
        said.join(", ")
    );
    run.record(d)?;
    let ident = at(x, &["identifier"]).and_then(|v| v.as_str());
    if let (Some(id), Some(serial)) = (ident, s(&["serialNumber"])) {
        run.observe(
            &format!("findmy-item:{id}"),
            EntityKind::Device,
            &name,
            IdType::Serial,
            &serial,
            inv,
            format!(
                "The serial number of {name}, a Find My accessory of the device's Apple Account (Items.data item {}).",
                i + 1
            ),
        )?;
    }
    // an owner or lost-mode contact named by e-mail or phone: that person's
    for (what, v) in contacts {
        for (written, address) in crate::identity::email_addresses(&v) {
            run.observe(
                &format!("handle:{address}"),
                EntityKind::Person,
                &written,
                IdType::Email,
                &written,
                inv,
                format!(
                    "{written} is the {what} contact of {name}, a Find My accessory (Items.data)."
                ),
            )?;
        }
    }
    // its positions
    if let Some(loc) = x.get("location").filter(|l| l.is_object()) {
        position(
            run,
            find,
            path,
            inv,
            &name,
            "last location",
            loc,
            x.get("address"),
            &[],
        )?;
    }
    if let Some(loc) = x.get("crowdSourcedLocation").filter(|l| l.is_object()) {
        position(
            run,
            find,
            path,
            inv,
            &name,
            "crowd-sourced location",
            loc,
            None,
            &[],
        )?;
    }
    for safe in x
        .get("safeLocations")
        .and_then(|v| v.as_array())
        .into_iter()
        .flatten()
    {
        let place = json_scalar(safe.get("name"));
        let title = format!(
            "safe location{}",
            place.map(|p| format!(" {p}")).unwrap_or_default()
        );
        let mut extra = Vec::new();
        for (k, what, ft) in [
            ("name", "name", FactType::Name),
            ("type", "type", FactType::Text),
            ("identifier", "identifier", FactType::Identifier),
        ] {
            if let Some(v) = json_scalar(safe.get(k)) {
                extra.push((what, ft, v));
            }
        }
        if let Some(loc) = safe.get("location").filter(|l| l.is_object()) {
            position(
                run,
                find,
                path,
                inv,
                &name,
                &title,
                loc,
                safe.get("address"),
                &extra,
            )?;
        }
    }
    Ok(())
}

/// One `locations` phenomenon: the item's position `loc` (with its `address`), `what` it is.
#[allow(clippy::too_many_arguments)]
fn position(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    name: &str,
    what: &str,
    loc: &Value,
    address: Option<&Value>,
    extra: &[(&str, FactType, String)],
) -> Result<(), RuntimeError> {
    let mut d = Draft::new("locations", format!("Find My {what} of {name}"));
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (what, ft, v) in extra {
        d.fact(*ft, Some(v), inv);
        said.push(format!("{what} {v}"));
    }
    for (k, label) in [
        ("latitude", "latitude"),
        ("longitude", "longitude"),
        ("altitude", "altitude"),
        ("horizontalAccuracy", "horizontal accuracy"),
        ("verticalAccuracy", "vertical accuracy"),
        ("floorLevel", "floor"),
        ("positionType", "position type"),
        ("isInaccurate", "inaccurate"),
        ("isOld", "old"),
        ("locationFinished", "finished"),
    ] {
        if let Some(v) = json_scalar(loc.get(k)) {
            d.fact(FactType::Text, Some(&v), inv);
            said.push(format!("{label} {v}"));
        }
    }
    let mut lines = Vec::new();
    if let Some(a) = address {
        crate::outputs::json_leaves(a, "", &mut lines);
    }
    for (k, v) in &lines {
        d.fact(FactType::Text, Some(v), inv);
        said.push(format!("{k} {v}"));
    }
    let t = json_scalar(loc.get("timeStamp"));
    d.time(
        t.as_deref(),
        unix_by_magnitude(t.as_deref()),
        &format!("Find My item {what} reported"),
        inv,
    );
    d.interpretation = format!(
        "the {what} of {name}, a Find My accessory, as {} keeps it: {}; the time is Unix milliseconds (seconds where that small).",
        path.rsplit('/').next().unwrap_or(path),
        said.join(", ")
    );
    run.record(d)
}
