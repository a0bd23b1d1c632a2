//! The device's advertising identifier and per-vendor identifiers
//! (`containers/Shared/SystemGroup/<UUID>/Library/Caches/com.apple.lsdidentifiers.plist`),
//! read with `parse_plist`, as iLEAPP's `advertisingID` reports the first: one phenomenon with
//! `LSAdvertiserIdentifier` (IDFA: resettable, one per device) and each vendor's
//! `LSVendorIdentifier` (IDFV) with how many of its apps share it. Identifiers that apps send
//! to their servers: for the examiner to match against provider returns; no identity is
//! observed (no identifier type is shared by other artefacts yet).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run};

/// Triage of every `com.apple.lsdidentifiers.plist` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("com.apple.lsdidentifiers.plist")? else {
        return Ok(());
    };
    for path in &paths {
        let Some((inv, v)) = parse(run, path)? else {
            continue;
        };
        let idfa = v.get("LSAdvertiserIdentifier").and_then(Value::as_str);
        let mut d = Draft::new(
            "device",
            format!("Advertising identifier {}", idfa.unwrap_or("(none)")),
        );
        d.fact(FactType::Path, Some(path), &find);
        d.fact(FactType::Identifier, idfa, &inv);
        let mut vendors = Vec::new();
        for (vendor, entry) in v
            .get("LSVendors")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let idfv = entry.get("LSVendorIdentifier").and_then(Value::as_str);
            let apps = entry
                .get("LSApplications")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            d.fact(FactType::Name, Some(vendor), &inv);
            d.fact(FactType::Identifier, idfv, &inv);
            vendors.push(format!("{vendor} {} ({apps} app(s))", idfv.unwrap_or("?")));
        }
        d.interpretation = format!(
            "{path}: the device's advertising identifier (IDFA) is {}; vendor identifiers (IDFV): {}.",
            idfa.unwrap_or("not recorded"),
            if vendors.is_empty() {
                "none".to_string()
            } else {
                vendors.join("; ")
            }
        );
        run.record(d)?;
    }
    Ok(())
}
