//! AirDrop's settings (`mobile/Library/Preferences/com.apple.sharingd.plist`), as iLEAPP's
//! `airdropId` reads them: one `device` phenomenon with the device's AirDrop ID (the identifier
//! it announces to nearby devices; the receiving Mac or phone logs it) and its discoverable mode
//! (`Off`, `Contacts Only`, `Everyone`), with the other values the file keeps.
//!
//! Identities: none observed (no identifier type for an AirDrop ID yet): the ID is a fact of
//! the finding, for the examiner to search the other sources for.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::plists::parse;
use super::{Draft, Run, file_name};
use crate::outputs::{json_leaves, json_scalar};

/// Triage of every `com.apple.sharingd.plist` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.apple.sharingd.plist", |find, path| {
        one(run, find, path)
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(o) = v.as_object() else {
        return Ok(());
    };
    let id = json_scalar(o.get("AirDropID"));
    let mode = json_scalar(o.get("DiscoverableMode"));
    let mut d = Draft::new(
        "device",
        format!("AirDrop ID {}", id.as_deref().unwrap_or("not kept")),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, id.as_deref(), &inv);
    d.fact(FactType::Text, mode.as_deref(), &inv);
    let mut others = Vec::new();
    for (k, x) in o {
        if k == "AirDropID" || k == "DiscoverableMode" {
            continue;
        }
        let mut leaves = Vec::new();
        json_leaves(x, k, &mut leaves);
        for (key, val) in leaves {
            d.fact(FactType::Text, Some(&val), &inv);
            others.push(format!("{key} {val}"));
        }
    }
    d.interpretation = format!(
        "{}: this device's AirDrop ID is {} (the identifier it announces to nearby devices when sharing; a receiving device logs it), discoverable mode {}{}.",
        file_name(path),
        id.as_deref().unwrap_or("not kept"),
        mode.as_deref().unwrap_or("not kept"),
        if others.is_empty() {
            String::new()
        } else {
            format!("; also {}", others.join(", "))
        }
    );
    run.record(d)
}
