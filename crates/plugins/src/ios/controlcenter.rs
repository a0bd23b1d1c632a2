//! The Control Center layout (`mobile/Library/ControlCenter/ModuleConfiguration.plist`), read
//! with `parse_plist`, as iLEAPP's `controlCenter` reports it: one phenomenon per configured
//! module with its position, bundle identifier and list — `module-identifiers` (active, in
//! the order shown), `disabled-module-identifiers` (disabled), `userenabled-fixed-module-identifiers`
//! (fixed modules the user turned on). What the user chose to reach from the lock screen
//! (camera, flashlight, NFC reader, screen recording, …).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run};

/// The lists of the plist, each with the control type iLEAPP names it by.
pub const LISTS: [(&str, &str); 3] = [
    ("module-identifiers", "Active"),
    ("disabled-module-identifiers", "Disabled"),
    ("userenabled-fixed-module-identifiers", "User Toggled"),
];

/// Triage of every `ModuleConfiguration.plist` of a `ControlCenter` directory of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("ModuleConfiguration.plist")? else {
        return Ok(());
    };
    for path in paths.iter().filter(|p| p.contains("/ControlCenter/")) {
        let Some((inv, v)) = parse(run, path)? else {
            continue;
        };
        let lists: Vec<(&str, &str, &Vec<Value>)> = LISTS
            .iter()
            .filter_map(|(key, kind)| Some((*key, *kind, v.get(*key)?.as_array()?)))
            .collect();
        if !v.is_object() || lists.is_empty() {
            run.ctx.unparsed(
                path,
                "unexpected content: no module-identifiers, disabled-module-identifiers or userenabled-fixed-module-identifiers list",
                Some(&inv.record.invocation_id),
            )?;
            continue;
        }
        let version = v.get("version").map(Value::to_string);
        for (key, kind, items) in lists {
            for (i, item) in items.iter().enumerate() {
                let Some(bundle) = item.as_str() else {
                    continue;
                };
                let position = i + 1;
                let mut d = Draft::new(
                    "device",
                    format!("Control Center module {position} ({kind}): {bundle}"),
                );
                d.fact(FactType::Path, Some(path), &find);
                d.fact(
                    FactType::Identifier,
                    Some(&crate::outputs::in_json(bundle)),
                    &inv,
                );
                d.fact(FactType::Name, Some(key), &inv);
                d.interpretation = format!(
                    "{path} lists {bundle} at position {position} of {key} ({kind}: {}; configuration version {}).",
                    match kind {
                        "Active" => "shown in Control Center, in this order",
                        "Disabled" => "removed from Control Center by the user",
                        _ => "a fixed module the user turned on",
                    },
                    version.as_deref().unwrap_or("not recorded"),
                );
                run.record(d)?;
            }
        }
    }
    Ok(())
}
