//! The AppConduit log (`Library/Logs/AppConduit/AppConduit.log.<n>`), iLEAPP's `appConduit`
//! ("App Conduit"): AppConduit is the iPhone's daemon that keeps the apps of a paired Apple Watch
//! in step with the phone's (installs them on the watch, removes them), and its log records each
//! time a paired watch came within reach of the phone and left it.
//!
//! | line | phenomenon | fields |
//! |---|---|---|
//! | `… devicesAreNowConnected:]: Device device:<id> (pairing ID <id>) <product type> <size> <version> (<build>) …` | one `device` per connection ("Paired Apple Watch connected (AppConduit log)") | the line's time as written (C's ctime layout, local, no zone), the watch's IDS device id, its pairing id, product type (`Watch6,2`), OS build, the line's message |
//! | `… devicesAreNoLongerConnected:]: Device device:<id> (pairing ID <id>) …` | one `device` per disconnection ("Paired Apple Watch disconnected (AppConduit log)") | the same; product type and build from the first connection line of that pairing id (as iLEAPP), cited there |
//!
//! The fields after the device id are taken by position, as iLEAPP takes them (the fourth word
//! the pairing id without its closing bracket, the fifth the product type, the eighth the build
//! in brackets), and only when the words read `(pairing ID <id>)`; a line of another layout keeps
//! its time, event and device id. Other lines (app installs, syncs, reachability) are not read,
//! as iLEAPP. The times are the device's local time without a zone, read in the source's zone
//! (`local_text`; iLEAPP converts them with the examiner's offset). Read with `read_text` in
//! 1 MiB pieces cut at line ends ([`super::installlog::each_line`]); at most [`ENTRY_CAP`]
//! events a source (noted beyond).
//!
//! Identities: none. The watch is named by its IDS device id and pairing id, both UUIDs that no
//! identifier type of the graph holds (a watch's UDID or serial would be one): they are facts of
//! every event, so the events of one watch, and the watch in other evidence (a sysdiagnose, the
//! watch's own extraction), meet by them.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, ENTRY_CAP, Run, file_name};

/// The two events iLEAPP reads: (the method's name in the line, connected).
const EVENTS: [(&str, bool); 2] = [
    ("devicesAreNowConnected", true),
    ("devicesAreNoLongerConnected", false),
];

/// Whether `path` is one of AppConduit's logs.
pub fn is_log(path: &str) -> bool {
    file_name(path).starts_with("AppConduit.log.") && path.contains("/Logs/AppConduit/")
}

/// What one connection or disconnection line says.
#[derive(Debug, PartialEq)]
struct Event<'a> {
    connected: bool,
    device: &'a str,
    pairing: Option<&'a str>,
    product: Option<&'a str>,
    build: Option<&'a str>,
}

/// The event of a log line's message, if it is one iLEAPP reads.
fn event(message: &str) -> Option<Event<'_>> {
    let (at, connected) = EVENTS
        .iter()
        .find_map(|(m, c)| message.find(m).map(|i| (i, *c)))?;
    let rest = &message[at..];
    let start = rest.find("device:")? + "device:".len();
    let rest = &rest[start..];
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(rest.len());
    let device = &rest[..len];
    let parts: Vec<&str> = device.split('-').collect();
    if parts.len() != 5 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    // iLEAPP's words: the text after the id split at single spaces (the first word empty)
    let words: Vec<&str> = rest[len..].split(' ').collect();
    let pairing = match words.as_slice() {
        &[_, "(pairing", "ID", id, ..] if id.len() > 1 && id.ends_with(')') => {
            Some(&id[..id.len() - 1])
        }
        _ => None,
    };
    let (product, build) = match (pairing, connected) {
        (Some(_), true) => (
            words.get(4).copied().filter(|p| !p.is_empty()),
            words
                .get(7)
                .and_then(|b| b.strip_prefix('('))
                .and_then(|b| b.strip_suffix(')'))
                .filter(|b| !b.is_empty()),
        ),
        _ => (None, None),
    };
    Some(Event {
        connected,
        device,
        pairing,
        product,
        build,
    })
}

/// One event read, with the line's time and message and the read citing them.
struct Read {
    file: String,
    path: String,
    time: String,
    message: String,
    connected: bool,
    device: String,
    pairing: Option<String>,
    product: Option<String>,
    build: Option<String>,
    inv: Invoked,
}

/// Triage of every AppConduit log of the source: every event first, then each recorded with
/// the product type and build of its pairing id's first connection.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut events: Vec<(Invoked, Read)> = Vec::new();
    run.each("AppConduit.log.*", |find, path| {
        if !is_log(path) {
            return Ok(());
        }
        super::installlog::each_line(run, path, "watch connection events", |inv, line| {
            let Some(t) = super::installlog::stamp(line) else {
                return Ok(true);
            };
            let message = line[t.len()..].trim();
            let Some(e) = event(message) else {
                return Ok(true);
            };
            if events.len() >= ENTRY_CAP as usize {
                return Ok(false);
            }
            let own = |v: Option<&str>| v.map(str::to_string);
            events.push((
                find.clone(),
                Read {
                    file: file_name(path).to_string(),
                    path: path.to_string(),
                    time: t.to_string(),
                    message: message.to_string(),
                    connected: e.connected,
                    device: e.device.to_string(),
                    pairing: own(e.pairing),
                    product: own(e.product),
                    build: own(e.build),
                    inv: inv.clone(),
                },
            ));
            Ok(true)
        })
    })?;
    // the first connection of each pairing id: its product type and build
    let mut known: BTreeMap<String, usize> = BTreeMap::new();
    for (i, (_, r)) in events.iter().enumerate() {
        if let (true, Some(p)) = (r.connected, &r.pairing) {
            known.entry(p.clone()).or_insert(i);
        }
    }
    for (find, r) in &events {
        let first = r
            .pairing
            .as_ref()
            .and_then(|p| known.get(p))
            .map(|&i| &events[i].1);
        record(run, find, r, first)?;
    }
    Ok(())
}

fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    r: &Read,
    first: Option<&Read>,
) -> Result<(), RuntimeError> {
    let what = if r.connected {
        "Paired Apple Watch connected"
    } else {
        "Paired Apple Watch disconnected"
    };
    let mut d = Draft::new("device", format!("{what} (AppConduit log)"));
    d.fact(FactType::Path, Some(&r.path), find);
    d.time(
        Some(&r.time),
        Some(TimeEncoding::LocalText),
        &format!("{what} (AppConduit log)"),
        &r.inv,
    );
    d.fact(FactType::Identifier, Some(&r.device), &r.inv);
    d.fact(FactType::Identifier, r.pairing.as_deref(), &r.inv);
    let mut said = vec![format!("IDS device id {}", r.device)];
    if let Some(p) = &r.pairing {
        said.push(format!("pairing id {p}"));
    }
    // the product type and build: the line's own, or those of the pairing id's first
    // connection line (cited there)
    let (from, note) = match (r.connected, first) {
        (true, _) => (Some(r), ""),
        (false, Some(f)) => (
            Some(f),
            " (from the pairing id's first connection line, as iLEAPP)",
        ),
        (false, None) => (None, ""),
    };
    if let Some(f) = from {
        d.fact(FactType::Identifier, f.product.as_deref(), &f.inv);
        d.fact(FactType::Identifier, f.build.as_deref(), &f.inv);
        if let Some(p) = &f.product {
            said.push(format!("product type {p}{note}"));
        }
        if let Some(b) = &f.build {
            said.push(format!("OS build {b}{note}"));
        }
    }
    d.fact(FactType::Text, Some(&r.message), &r.inv);
    d.interpretation = format!(
        "{}: at {} (the device's local time, as AppConduit wrote it, without a zone) a paired Apple Watch {} the iPhone ({}). AppConduit keeps the watch's apps in step with the phone's; a connection means the watch was within reach of the phone (Bluetooth or the same Wi-Fi), not that it was worn. The product type and build are Apple's identifiers (the model and version each names is Apple's list, not read here).",
        r.file,
        r.time,
        if r.connected {
            "connected to"
        } else {
            "disconnected from"
        },
        said.join("; "),
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        assert!(is_log(
            "/private/var/mobile/Library/Logs/AppConduit/AppConduit.log.0"
        ));
        assert!(!is_log("/private/var/mobile/Library/Logs/AppConduit.log.0"));
        let on = "[312] <notice> (0x16b2a7000) -[ACXCompanionSyncConnectionManager devicesAreNowConnected:]: Device device:6F1C2B3A-0D4E-4F5A-8B6C-7D8E9F0A1B2C (pairing ID 9A8B7C6D-5E4F-4A3B-2C1D-0E9F8A7B6C5D) Watch6,2 44 10.5 (21T576) standalone YES";
        assert_eq!(
            event(on),
            Some(Event {
                connected: true,
                device: "6F1C2B3A-0D4E-4F5A-8B6C-7D8E9F0A1B2C",
                pairing: Some("9A8B7C6D-5E4F-4A3B-2C1D-0E9F8A7B6C5D"),
                product: Some("Watch6,2"),
                build: Some("21T576"),
            })
        );
        let off = "[312] <notice> (0x16b2a7000) -[ACXCompanionSyncConnectionManager devicesAreNoLongerConnected:]: Device device:6F1C2B3A-0D4E-4F5A-8B6C-7D8E9F0A1B2C (pairing ID 9A8B7C6D-5E4F-4A3B-2C1D-0E9F8A7B6C5D) active YES";
        let e = event(off).unwrap();
        assert!(!e.connected && e.product.is_none() && e.pairing.is_some());
        // another layout keeps the device id only
        let other = "-[X devicesAreNowConnected:]: device:AA-BB-CC-DD-EE now";
        let e = event(other).unwrap();
        assert_eq!((e.device, e.pairing), ("AA-BB-CC-DD-EE", None));
        assert_eq!(event("-[X devicesAreNowConnected:]: device:nope"), None);
        assert_eq!(event("Resuming because device:AA-BB-CC-DD-EE"), None);
    }
}
