//! Location Services' per-client configuration (`root/Library/Caches/locationd/clients.plist`),
//! iLEAPP's `locServicesconfig` (`locServicesConfigClients`, which reads only the Routine
//! bundle's entry; every client is read here), with `parse_plist`:
//!
//! | key | phenomenon | fields |
//! |---|---|---|
//! | each top-level key (a client: an app's bundle id, or `com.apple.locationd.bundle-<path>` / `com.apple.locationd.executable-<path>` for a system bundle or daemon) | one `locations` per client ("Location Services client <key>") | the client key, `BundleId`, `BundlePath`, `Executable`, `Authorization` (a code, as stored), `SupportedAuthorizationMask`, `Registered`, `Whitelisted`, `AuthorizationUpgradeAvailable`, `IncidentalUseMode`; every time the entry keeps (`LocationTimeStarted`, `LocationTimeStopped`, `ReceivingLocationInformationTimeStopped`, `SignificantTimeStopped`, `FenceTimeStarted`, `FenceTimeStopped`, `ConsumptionPeriodBegin`, and any other member whose name ends in `Time`, `TimeStarted`, `TimeStopped` or `PeriodBegin`): Cocoa seconds when a number, a plist date (RFC 3339) when one |
//!
//! An entry says the client asked Location Services for the device's position and what
//! locationd keeps of its permission and use: `LocationTimeStopped` and
//! `ReceivingLocationInformationTimeStopped` are when it last stopped getting locations (said;
//! the names are Apple's, their reading iLEAPP's and the community's). `Authorization` is kept
//! as the stored code: its mapping to "always", "while using" or "denied" is not documented by
//! the file and is not asserted. A member that is not a dictionary is skipped (counted in no
//! phenomenon); a file that is no dictionary is noted; one that does not parse is noted by the
//! call.
//!
//! Identities: none (a client is an app, not a person).

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run};
use crate::outputs::in_json;

/// The scalar fields of a client: `(key, type, label)`.
const FIELDS: [(&str, FactType, &str); 9] = [
    ("BundleId", FactType::Identifier, "bundle id"),
    ("BundlePath", FactType::Text, "bundle path"),
    ("Executable", FactType::Text, "executable"),
    ("Authorization", FactType::Text, "Authorization code"),
    (
        "SupportedAuthorizationMask",
        FactType::Text,
        "supported authorization mask",
    ),
    ("Registered", FactType::Text, "registered"),
    ("Whitelisted", FactType::Text, "whitelisted"),
    (
        "AuthorizationUpgradeAvailable",
        FactType::Text,
        "authorization upgrade available",
    ),
    ("IncidentalUseMode", FactType::Text, "incidental use mode"),
];

/// Whether `path` is locationd's client list.
pub fn is_store(path: &str) -> bool {
    path.ends_with("/Library/Caches/locationd/clients.plist")
}

/// Whether a member of a client's entry is a time (by its name).
fn is_time(key: &str) -> bool {
    ["Time", "TimeStarted", "TimeStopped", "PeriodBegin"]
        .iter()
        .any(|s| key.ends_with(s))
}

/// Triage of every locationd client list of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("clients.plist", |find, path| {
        if !is_store(path) {
            return Ok(());
        }
        let Some((inv, doc)) = parse(run, path)? else {
            return Ok(());
        };
        let Some(clients) = doc.as_object() else {
            run.ctx.unparsed(
                path,
                "could not read the Location Services clients because clients.plist is no dictionary",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        };
        for (key, entry) in clients.iter().filter(|(_, v)| v.is_object()) {
            one(run, find, path, &inv, key, entry)?;
        }
        Ok(())
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    key: &str,
    entry: &Value,
) -> Result<(), RuntimeError> {
    let client = in_json(key);
    let mut d = Draft::new("locations", format!("Location Services client {client}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, Some(client.as_str()), inv);
    let mut said = d.json_fields(entry, inv, &FIELDS);
    let Some(members) = entry.as_object() else {
        return Ok(());
    };
    let mut timed = Vec::new();
    for (k, v) in members.iter().filter(|(k, _)| is_time(k)) {
        let (value, encoding) = match v {
            Value::Number(n) => {
                let n = n.to_string();
                let enc = crate::drafts::apple_seconds(Some(n.as_str()));
                (n, enc)
            }
            Value::String(s) => (in_json(s), crate::drafts::date_text(Some(s.as_str()))),
            _ => continue,
        };
        if let Some(enc) = encoding {
            let cocoa = matches!(enc, TimeEncoding::AppleSeconds);
            d.time(
                Some(value.as_str()),
                Some(enc),
                &format!("Location Services {k}"),
                inv,
            );
            timed.push(format!(
                "{k} {value}{}",
                if cocoa { " (Cocoa seconds)" } else { "" }
            ));
        } else {
            // zero, negative or no time: as stored, said
            said.push(format!("{k} {value} (no time)"));
        }
    }
    said.extend(timed);
    let stopped = members.contains_key("LocationTimeStopped")
        || members.contains_key("ReceivingLocationInformationTimeStopped");
    d.interpretation = format!(
        "Client {client} of {path} (locationd's Location Services clients): {}. {}The Authorization code is kept as stored (its meaning — always, while using, denied — is not documented by the file). An entry says the client asked Location Services for the device's position at some time; it is not a position.",
        if said.is_empty() {
            "no other member".to_string()
        } else {
            said.join("; ")
        },
        if stopped {
            "LocationTimeStopped and ReceivingLocationInformationTimeStopped are read as when the client last stopped getting locations (Apple's names; iLEAPP's reading, to be corroborated). "
        } else {
            ""
        },
    );
    run.record(d)
}
