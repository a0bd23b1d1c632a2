//! The identity-services lookup cache (`mobile/Library/Preferences/com.apple.identityservices.idstatuscache.plist`;
//! `mobile/Library/IdentityServices/idstatuscache.plist` since iOS 14), read with
//! `parse_plist`: for each service (`com.apple.madrid` iMessage, `com.apple.ess` FaceTime,
//! `com.apple.private.alloy.*` the other IDS services) each destination the device looked up
//! (`tel:+…`, `mailto:…`, `urn:ds:<DSID>`), with its status (1 registered with the service,
//! 2 not registered) and the lookup time (Apple seconds since 2001); `ValidExpiry` (seconds the
//! answer stays valid) where kept. One phenomenon per destination and service, the fields
//! iLEAPP's `idstatuscache` reports.
//!
//! Identities: a phone number or e-mail looked up for iMessage, FaceTime or Find My is a
//! person the user could reach, observed as a counterpart (`handle:<normalised>`, or the
//! address-book card holding it); never as the owner's. The other services (device pairing,
//! continuity, Apple Watch, nearby sharing, bulletin board) look up the user's own account
//! and devices, so their destinations are recorded and not observed.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run, core_data_encoding};
use crate::outputs::{in_json, json_scalar};

/// The file names of the cache.
pub const NAMES: [&str; 2] = [
    "com.apple.identityservices.idstatuscache.plist",
    "idstatuscache.plist",
];

/// Services whose lookups are of other people (service key → what it is).
pub const COUNTERPART_SERVICES: [(&str, &str); 5] = [
    ("com.apple.madrid", "iMessage"),
    ("com.apple.ess", "FaceTime"),
    ("com.apple.private.alloy.facetime.audio", "FaceTime audio"),
    ("com.apple.private.alloy.facetime.video", "FaceTime video"),
    ("com.apple.private.alloy.fmf", "Find My Friends"),
];

/// What an `IDStatus` value says.
fn status(v: Option<&Value>) -> &'static str {
    match v.and_then(Value::as_i64) {
        Some(1) => "registered with the service",
        Some(2) => "not registered with the service",
        Some(0) => "status unknown",
        _ => "no recorded status",
    }
}

/// Triage of every identity-services lookup cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for name in NAMES {
        let Some((find, paths)) = run.find(name)? else {
            continue;
        };
        for path in &paths {
            if super::file_name(path) != name
                || (name == "idstatuscache.plist" && !path.contains("/IdentityServices/"))
            {
                continue;
            }
            one(run, &find, path)?;
        }
    }
    Ok(())
}

fn one(run: &Run<'_, '_>, find: &masf_tools::Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let services: Vec<(&String, &serde_json::Map<String, Value>)> = v
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, x)| Some((k, x.as_object()?)))
        .collect();
    if services.is_empty() {
        run.ctx.unparsed(
            path,
            "unexpected content: no dictionary of services with looked-up destinations",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let mut count = 0u64;
    for (service, lookups) in services {
        let counterpart = COUNTERPART_SERVICES
            .iter()
            .find(|(k, _)| k == service)
            .map(|(_, w)| *w);
        for (dest, entry) in lookups {
            if count >= ENTRY_CAP {
                run.ctx.unparsed(
                    path,
                    &format!("more than {ENTRY_CAP} lookups; the first {ENTRY_CAP} were recorded"),
                    Some(&inv.record.invocation_id),
                )?;
                return Ok(());
            }
            count += 1;
            let (kind, value) = if let Some(n) = dest.strip_prefix("tel:") {
                (FactType::Phone, n)
            } else if let Some(m) = dest.strip_prefix("mailto:") {
                (FactType::Email, m)
            } else if let Some(d) = dest.strip_prefix("urn:ds:") {
                (FactType::Identifier, d)
            } else {
                (FactType::Identifier, dest.as_str())
            };
            let mut d = Draft::new("accounts", format!("IDS lookup of {dest} for {service}"));
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Identifier, Some(&in_json(service)), &inv);
            d.fact(kind, Some(&in_json(value)), &inv);
            let st = entry.get("IDStatus");
            d.fact(FactType::Count, json_scalar(st).as_deref(), &inv);
            let expiry = json_scalar(entry.get("ValidExpiry"));
            d.fact(FactType::Count, expiry.as_deref(), &inv);
            let date = json_scalar(entry.get("LookupDate"));
            d.time(
                date.as_deref(),
                core_data_encoding(date.as_deref()),
                "Identity-services lookup",
                &inv,
            );
            d.interpretation = format!(
                "{path} records that the device looked up {dest} for {service}{}: IDStatus {} ({}){}{}.",
                counterpart.map(|w| format!(" ({w})")).unwrap_or_default(),
                json_scalar(st).as_deref().unwrap_or("absent"),
                status(st),
                date.as_deref()
                    .map(|t| format!(", at Apple time {t}"))
                    .unwrap_or_default(),
                expiry
                    .as_deref()
                    .map(|e| format!(", the answer valid for {e} s"))
                    .unwrap_or_default(),
            );
            if counterpart.is_none() {
                d.interpretation.push_str(
                    " This service looks up the user's own account and devices, so the destination is not taken as another person.",
                );
            }
            run.record(d)?;
            if let (Some(what), FactType::Phone | FactType::Email) = (counterpart, kind) {
                run.observe_handle(value, &inv, &format!("a {what} lookup ({service})"))?;
            }
        }
    }
    Ok(())
}
