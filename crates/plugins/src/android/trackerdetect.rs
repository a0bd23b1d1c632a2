//! Apple's Tracker Detect for Android (`com.apple.trackerdetect/shared_prefs/
//! com.apple.trackerdetect_preferences.xml`), ALEAPP's `atrackerdetect`
//! (`get_atrackerdetect`): the Find My trackers (AirTags and the like) the app found near the
//! phone when its user scanned, and the app's settings.
//!
//! | preferences | phenomenon | fields |
//! |---|---|---|
//! | `device_<address>_<what>` | one `device` per tracker found ("Apple Tracker Detect tracker <address>") | the tracker's Bluetooth address, each preference's name and `<what>` with its value (milliseconds since the phone's last boot, as ALEAPP reads them) |
//! | every other preference | one `apps` for the settings ("Apple Tracker Detect settings") | each preference's name and value |
//!
//! A tracker's values are kept as stored: they count from the phone's last boot, which the file
//! does not give, so they are no times. A tracker's address rotates (an AirTag changes it every
//! few minutes to a day), so it is a fact, not an identifier observed. Identities: none. A file
//! that is not XML is noted, as is one holding no preference.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// One preference of a tracker: `(key, what, value)`.
type Pref<'a> = (&'a str, &'a str, &'a str);

/// Whether `l` is Tracker Detect's preferences.
pub fn is_store(l: &Located) -> bool {
    l.name() == "com.apple.trackerdetect_preferences.xml"
        && l.path.contains("/com.apple.trackerdetect/")
}

/// `device_<address>_<what>`: the address and what the value is.
fn tracker_key(key: &str) -> Option<(&str, &str)> {
    let rest = key.strip_prefix("device_")?;
    let (address, what) = rest.split_once('_')?;
    (!address.is_empty() && !what.is_empty()).then_some((address, what))
}

/// One preferences file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "Apple Tracker Detect", None)? else {
        return Ok(());
    };
    if prefs.is_empty() {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "Apple Tracker Detect's preferences hold no preference",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    // the trackers in the order the file first names them, each with its preferences
    let mut trackers: Vec<(&str, Vec<Pref<'_>>)> = Vec::new();
    let mut settings: Vec<(&str, &str)> = Vec::new();
    for (key, value) in &prefs {
        match tracker_key(key) {
            Some((address, what)) => {
                let entry = (key.as_str(), what, value.as_str());
                match trackers.iter().position(|(a, _)| *a == address) {
                    Some(i) => trackers[i].1.push(entry),
                    None => trackers.push((address, vec![entry])),
                }
            }
            None => settings.push((key.as_str(), value.as_str())),
        }
    }
    for (address, entries) in &trackers {
        let mut d = Draft::new("device", format!("Apple Tracker Detect tracker {address}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(*address), &inv);
        let mut said = Vec::new();
        for (key, what, value) in entries {
            d.fact(FactType::Text, Some(*key), &inv);
            d.fact(FactType::Text, Some(*value), &inv);
            said.push(format!("{what} {value}"));
        }
        d.interpretation = format!(
            "{}: Apple's Tracker Detect found the tracker with Bluetooth address {address} near the phone when its user scanned ({}; values as stored: milliseconds since the phone's last boot as ALEAPP reads them, not times). The address rotates: it names no tracker for long.",
            l.path,
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    if !settings.is_empty() {
        let mut d = Draft::new("apps", "Apple Tracker Detect settings");
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = Vec::new();
        for (key, value) in &settings {
            d.fact(FactType::Text, Some(*key), &inv);
            d.fact(FactType::Text, Some(*value), &inv);
            said.push(format!("{key} {value}"));
        }
        d.interpretation = format!(
            "{}: the settings of Apple's Tracker Detect on the phone (the app was installed, and set up as they say): {}.",
            l.path,
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::tracker_key;

    #[test]
    fn tracker_keys() {
        assert_eq!(
            tracker_key("device_C4:B3:01:AA:BB:CC_firstSeen"),
            Some(("C4:B3:01:AA:BB:CC", "firstSeen"))
        );
        assert_eq!(
            tracker_key("device_C4:B3:01:AA:BB:CC_last_seen"),
            Some(("C4:B3:01:AA:BB:CC", "last_seen"))
        );
        assert_eq!(tracker_key("device_only"), None);
        assert_eq!(tracker_key("onboarding_done"), None);
    }
}
