//! Oura (the ring's app), its preferences in `Containers/Data/Application/<id>/Library/
//! Preferences/`, iLEAPP's `Oura` ("Oura - Account & Identifiers", "Ring Hardware & Status",
//! "Find My Ring Last Known Location"): the account signed in, the ring paired, where the phone
//! last saw the ring.
//!
//! | file / key | phenomenon | fields |
//! |---|---|---|
//! | `com.ouraring.oura.plist`, the account suite (the `<UUID>.plist` beside it holding `deviceUid`), `com.segment.storage.<key>.plist` | one `accounts` ("Oura account <e-mail>") | e-mail (`accountEmail` of the suite and of the app's plist, Braze's `userEmail`, Segment's trait `email`), account UID (`accountUid`), device UID (`deviceUid`), Segment's user and anonymous ids (`segment.userId`, `segment.anonymousId`); the app's last launch, sync, foreground sync, background and token refresh (numbers 5·10⁸–10⁹ Cocoa seconds, larger Unix seconds or ms, dates as written, as iLEAPP reads them) |
//! | the suite's per-ring blobs (`batteryLevelRecords`, `ringLowBatteryNotifications`, `ringParametersDict`, `latestRingTimeMappingsRingEventParser(V2)`), Braze's attributes (`brazeUserAttributesV2`) and Segment's traits (`segment.traits`) | one `device` per ring ("Oura ring <Bluetooth id>"; "Oura ring" when none is kept) | the ring's Bluetooth id (the blobs' keys, twelve hex digits), model (`ringModel`, `currentRing`), colour, design, size, firmware version, charging case; its last battery level (`lastUpdated`, Cocoa seconds) and low-battery notification (level, hours to empty, type, `ringNotificationDate`); firmware updated (`lastUpdatedFirmwareDate`), ring last seen (`findMyRingLastKnownRingSeenDate`) |
//! | the suite's `findMyRingLastKnownLocation` | one `locations` ("Oura ring last known location") | latitude, longitude, altitude, accuracies, speed, course, `timestamp` (Cocoa seconds) |
//!
//! As iLEAPP, only the files beside `com.ouraring.oura.plist` are read: Segment's storage plist
//! and UUID-named plists are written by the same SDKs into other apps' containers, and those
//! are passed over. Every plist is read with `parse_plist` (`decode_data`: a blob holding JSON
//! text or a property list is decoded); a member holding JSON as a string is parsed here, and
//! its values are quoted as the output holds them (escaped once more), a value the output does
//! not hold as such (a number written otherwise) left out. The profile's model, colour, design,
//! size and firmware are the current ring's: with several ring ids they go to the first, as
//! iLEAPP's report does. The last known location is where the phone was when it last heard the
//! ring (Find My Ring), said. A plist that does not parse is noted (`parse_plist`), as is a file
//! that is no dictionary; the others of the folder are still read.
//!
//! Identities: the account is the device user's (`owner`): each e-mail address and
//! `oura:<accountUid>` (qualified by `parse_plist`'s `qualify`, so it grounds). The ring's id is
//! a Bluetooth address written without separators, which the graph's Bluetooth type does not
//! read, and Segment's ids are analytics ids: facts only.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse_with;
use super::{Draft, Run, file_name};
use crate::drafts::{apple_seconds, date_text, unix_by_magnitude};
use crate::outputs::{in_json, json_scalar};

/// The app's own preferences, the anchor of the folder read.
const BUNDLE: &str = "com.ouraring.oura.plist";
/// Segment's storage.
const SEGMENT: &str = "com.segment.storage.*.plist";
/// The account suite's name (a UUID).
const SUITE: &str = "????????-????-????-????-????????????.plist";

/// The suite's blobs whose keys are ring ids.
const RING_BLOBS: [&str; 5] = [
    "batteryLevelRecords",
    "ringLowBatteryNotifications",
    "ringParametersDict",
    "latestRingTimeMappingsRingEventParser",
    "latestRingTimeMappingsRingEventParserV2",
];

/// App activity times: (file, key, description).
const TIMES: [(File, &str, &str); 6] = [
    (File::Suite, "lastAppLaunchDate", "Oura app last launched"),
    (File::Suite, "lastSyncDate", "Oura ring last synced"),
    (
        File::Suite,
        "lastForegroundSyncDate",
        "Oura ring last synced in the foreground",
    ),
    (
        File::Bundle,
        "lastBackgroundDate",
        "Oura app last sent to the background",
    ),
    (
        File::Bundle,
        "lastTokenRefreshTime",
        "Oura sign-in token last refreshed",
    ),
    (
        File::Suite,
        "lastTokenRefreshTime",
        "Oura sign-in token last refreshed",
    ),
];

/// The three files of the folder.
#[derive(Clone, Copy, PartialEq)]
enum File {
    Bundle,
    Suite,
    Segment,
}

/// A plist read: its path, the call and the document.
pub(super) struct Src {
    pub path: String,
    pub inv: Invoked,
    pub doc: Value,
}

/// A JSON object or array held by a plist member: itself, data `parse_plist` decoded
/// (`$data_json`, `$data_plist`), or a string that is JSON text (parsed here: its strings are
/// escaped twice in the output, `twice`).
pub(super) fn nested(v: Option<&Value>) -> Option<(Value, bool)> {
    match v? {
        Value::Object(o) => {
            for k in ["$data_json", "$data_plist"] {
                if let Some(x) = o.get(k) {
                    return (x.is_object() || x.is_array()).then(|| (x.clone(), false));
                }
            }
            (!o.contains_key("$data_hex")).then(|| (Value::Object(o.clone()), false))
        }
        a @ Value::Array(_) => Some((a.clone(), false)),
        Value::String(s) if s.trim_start().starts_with(['{', '[']) => {
            serde_json::from_str::<Value>(s)
                .ok()
                .filter(|x| x.is_object() || x.is_array())
                .map(|x| (x, true))
        }
        _ => None,
    }
}

/// A scalar as the output of `inv` holds it (`twice`: inside JSON text held in a string, so a
/// string is escaped once more), when the output holds it so; `None` for anything else.
pub(super) fn cited(inv: &Invoked, v: Option<&Value>, twice: bool) -> Option<String> {
    let v = v?;
    let s = json_scalar(Some(v))?;
    let s = if twice && v.is_string() {
        in_json(&s)
    } else {
        s
    };
    (!s.trim().is_empty() && inv.output.text.contains(&s)).then_some(s)
}

/// Reads a plist of the folder; `None` when it does not parse (noted by the call) or is no
/// dictionary (noted here).
pub(super) fn load(
    run: &Run<'_, '_>,
    path: &str,
    options: Value,
) -> Result<Option<Src>, RuntimeError> {
    let Some((inv, doc)) = parse_with(run, path, options)? else {
        return Ok(None);
    };
    if !doc.is_object() {
        run.ctx.unparsed(
            path,
            "could not read the preferences because the plist is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    }
    Ok(Some(Src {
        path: path.to_string(),
        inv,
        doc,
    }))
}

/// Triage of every Oura preferences folder of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find(BUNDLE)? else {
        return Ok(());
    };
    let segments = run.find(SEGMENT)?.map(|(_, p)| p).unwrap_or_default();
    let suites = run.find(SUITE)?.map(|(_, p)| p).unwrap_or_default();
    let options = json!({"decode_data": true, "qualify": {"accountUid": "oura"}});
    for path in paths
        .iter()
        .filter(|p| p.ends_with(&format!("/Library/Preferences/{BUNDLE}")))
    {
        let dir = &path[..path.len() - BUNDLE.len()];
        let here = |p: &&String| p.starts_with(dir) && !p[dir.len()..].contains('/');
        let bundle = load(run, path, options.clone())?;
        let mut suite = None;
        for p in suites.iter().filter(here) {
            if let Some(s) = load(run, p, options.clone())?
                && s.doc.get("deviceUid").is_some()
            {
                suite = Some(s);
                break;
            }
        }
        let mut segment = None;
        for p in segments.iter().filter(here) {
            if let Some(s) = load(run, p, json!({"decode_data": true}))? {
                segment = Some(s);
                break;
            }
        }
        let f = Folder {
            find: &find,
            bundle,
            suite,
            segment,
        };
        account(run, &f)?;
        rings(run, &f)?;
        location(run, &f)?;
    }
    Ok(())
}

/// The files of one folder.
struct Folder<'a> {
    find: &'a Invoked,
    bundle: Option<Src>,
    suite: Option<Src>,
    segment: Option<Src>,
}

impl Folder<'_> {
    fn src(&self, f: File) -> Option<&Src> {
        match f {
            File::Bundle => self.bundle.as_ref(),
            File::Suite => self.suite.as_ref(),
            File::Segment => self.segment.as_ref(),
        }
    }

    /// A top-level scalar of one file with its call.
    fn top(&self, f: File, key: &str) -> Option<(String, &Src)> {
        let s = self.src(f)?;
        cited(&s.inv, s.doc.get(key), false).map(|v| (v, s))
    }

    /// Braze's cached attributes (the suite's `brazeUserAttributesV2`).
    fn braze(&self) -> Option<(Value, bool, &Src)> {
        let s = self.suite.as_ref()?;
        let (v, twice) = nested(s.doc.get("brazeUserAttributesV2"))?;
        Some((v, twice, s))
    }

    /// Segment's traits (`segment.traits`).
    fn traits(&self) -> Option<(Value, bool, &Src)> {
        let s = self.segment.as_ref()?;
        let (v, twice) = nested(s.doc.get("segment.traits"))?;
        Some((v, twice, s))
    }

    /// The path facts of the files read, cited by the search that found them.
    fn paths(&self, d: &mut Draft, files: &[File]) {
        for f in files {
            if let Some(s) = self.src(*f) {
                d.fact(FactType::Path, Some(&s.path), self.find);
            }
        }
    }
}

/// A member of a nested object as its call holds it.
fn member(obj: &(Value, bool, &Src), key: &str) -> Option<(String, Invoked)> {
    cited(&obj.2.inv, obj.0.get(key), obj.1).map(|v| (v, obj.2.inv.clone()))
}

/// The time encoding of a value iLEAPP reads "by its look": a date written as text, a number
/// from 5·10⁸ to 10⁹ Cocoa seconds, a larger one Unix seconds or milliseconds.
fn auto(v: &str) -> Option<TimeEncoding> {
    match v.parse::<f64>() {
        Ok(x) if x > 5e8 && x < 1e9 => apple_seconds(Some(v)),
        Ok(x) if (1e9..1e13).contains(&x) => unix_by_magnitude(Some(v)),
        Ok(_) => None,
        Err(_) => date_text(Some(v)),
    }
}

fn account(run: &Run<'_, '_>, f: &Folder<'_>) -> Result<(), RuntimeError> {
    let braze = f.braze();
    let traits = f.traits();
    let mut emails: Vec<(String, Invoked, &str)> = Vec::new();
    for (file, what) in [
        (File::Suite, "accountEmail of the account suite"),
        (File::Bundle, "accountEmail of com.ouraring.oura.plist"),
    ] {
        if let Some((v, s)) = f.top(file, "accountEmail") {
            emails.push((v, s.inv.clone(), what));
        }
    }
    if let Some((v, inv)) = braze.as_ref().and_then(|b| member(b, "userEmail")) {
        emails.push((v, inv, "Braze's userEmail"));
    }
    if let Some((v, inv)) = traits.as_ref().and_then(|t| member(t, "email")) {
        emails.push((v, inv, "Segment's trait email"));
    }
    let uids: Vec<(String, &Src)> = [File::Suite, File::Bundle]
        .into_iter()
        .filter_map(|file| f.top(file, "accountUid"))
        .collect();
    let user_id = f.top(File::Segment, "segment.userId");
    let Some(label) = emails
        .first()
        .map(|e| e.0.clone())
        .or_else(|| uids.first().map(|u| u.0.clone()))
        .or_else(|| user_id.as_ref().map(|u| u.0.clone()))
    else {
        return Ok(());
    };
    let mut d = Draft::new("accounts", format!("Oura account {label}"));
    f.paths(&mut d, &[File::Bundle, File::Suite, File::Segment]);
    let mut said = Vec::new();
    for (v, inv, what) in &emails {
        d.fact(FactType::Email, Some(v), inv);
        said.push(format!("{what} {v}"));
    }
    for (v, s) in &uids {
        d.fact(FactType::Account, Some(v), &s.inv);
        said.push(format!("account UID {v} ({})", file_name(&s.path)));
    }
    for (file, key, ft, what) in [
        (File::Suite, "deviceUid", FactType::Identifier, "device UID"),
        (
            File::Segment,
            "segment.userId",
            FactType::Account,
            "Segment user id",
        ),
        (
            File::Segment,
            "segment.anonymousId",
            FactType::Identifier,
            "Segment anonymous id",
        ),
    ] {
        if let Some((v, s)) = f.top(file, key) {
            d.fact(ft, Some(&v), &s.inv);
            said.push(format!("{what} {v}"));
        }
    }
    for (file, key, what) in TIMES {
        if let Some((v, s)) = f.top(file, key) {
            d.time(Some(&v), auto(&v), what, &s.inv);
        }
    }
    d.interpretation = format!(
        "The Oura account signed in on the device, the device user's: {}. The e-mail and account UID are the Oura account's; the device UID is the app installation's; Segment's ids are the analytics SDK's (as iLEAPP reads them).",
        said.join("; ")
    );
    run.record(d)?;
    let why = |what: &str| format!("{what} of the Oura account signed in on the device.");
    for (v, inv, what) in &emails {
        let what = format!("The {what}");
        let ids: Vec<(IdType, Option<&str>, &str)> =
            vec![(IdType::Email, Some(v.as_str()), what.as_str())];
        run.observe_person("owner", "device owner", inv, &why, &ids)?;
    }
    for (_, s) in &uids {
        let q = cited(&s.inv, s.doc.get("accountUid.qualified"), false);
        let what = format!("The account UID (accountUid of {})", file_name(&s.path));
        let ids: Vec<(IdType, Option<&str>, &str)> =
            vec![(IdType::AccountId, q.as_deref(), what.as_str())];
        run.observe_person("owner", "device owner", &s.inv, &why, &ids)?;
    }
    Ok(())
}

/// Whether `k` is a ring id: twelve hex digits (a Bluetooth address without separators).
fn ring_id(k: &str) -> bool {
    k.len() == 12 && k.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The per-ring object of the blob `name` (its `records` or `notifications`, else itself),
/// with whether its strings are escaped twice.
fn per_ring<'b>(
    blobs: &'b [(&str, Value, bool)],
    name: &str,
) -> Option<(&'b serde_json::Map<String, Value>, bool)> {
    let (_, v, twice) = blobs.iter().find(|(k, ..)| *k == name)?;
    let inner = v
        .get("records")
        .or_else(|| v.get("notifications"))
        .unwrap_or(v);
    inner.as_object().map(|o| (o, *twice))
}

fn rings(run: &Run<'_, '_>, f: &Folder<'_>) -> Result<(), RuntimeError> {
    let suite = f.suite.as_ref();
    // each blob decoded once: (key, object, twice)
    let blobs: Vec<(&str, Value, bool)> = RING_BLOBS
        .iter()
        .filter_map(|k| {
            let (v, twice) = nested(suite?.doc.get(*k))?;
            Some((*k, v, twice))
        })
        .collect();
    let mut ids: Vec<String> = Vec::new();
    for (name, ..) in &blobs {
        if let Some((o, _)) = per_ring(&blobs, name) {
            for k in o.keys().filter(|k| ring_id(k)) {
                if !ids.contains(k) {
                    ids.push(k.clone());
                }
            }
        }
    }
    // the profile's ring: Braze's attributes first, then Segment's traits (as iLEAPP)
    let braze = f.braze();
    let traits = f.traits();
    let pick = |key: &str| -> Option<(String, Invoked)> {
        braze
            .as_ref()
            .and_then(|b| member(b, key))
            .or_else(|| traits.as_ref().and_then(|t| member(t, key)))
    };
    let mut profile: Vec<(String, Invoked, FactType, &str)> = Vec::new();
    let models: Vec<(String, Invoked)> = match braze.as_ref().and_then(|b| {
        b.0.get("ringModel")
            .and_then(Value::as_array)
            .map(|a| (a.clone(), b))
    }) {
        Some((list, b)) => list
            .iter()
            .filter_map(|m| cited(&b.2.inv, Some(m), b.1).map(|v| (v, b.2.inv.clone())))
            .collect(),
        None => pick("ringModel")
            .or_else(|| pick("currentRing"))
            .into_iter()
            .collect(),
    };
    for (v, inv) in models {
        profile.push((v, inv, FactType::Name, "model"));
    }
    for (key, what) in [("ringColor", "colour"), ("ringDesign", "design")] {
        if let Some((v, inv)) = pick(key) {
            profile.push((v, inv, FactType::Text, what));
        }
    }
    for (key, what) in [
        ("ringSize", "size"),
        ("ringFirmwareVersion", "firmware version"),
        ("chargingCaseModel", "charging case"),
    ] {
        if let Some((v, inv)) = traits.as_ref().and_then(|t| member(t, key)) {
            profile.push((v, inv, FactType::Text, what));
        }
    }
    let dates: Vec<(String, &Src, &str)> = [
        ("lastUpdatedFirmwareDate", "Oura ring firmware updated"),
        ("findMyRingLastKnownRingSeenDate", "Oura ring last seen"),
    ]
    .into_iter()
    .filter_map(|(k, what)| f.top(File::Suite, k).map(|(v, s)| (v, s, what)))
    .collect();
    if ids.is_empty() && profile.is_empty() && dates.is_empty() {
        return Ok(());
    }
    let slots: Vec<Option<&String>> = if ids.is_empty() {
        vec![None]
    } else {
        ids.iter().map(Some).collect()
    };
    for (n, id) in slots.into_iter().enumerate() {
        let mut d = Draft::new(
            "device",
            match id {
                Some(id) => format!("Oura ring {id}"),
                None => "Oura ring".to_string(),
            },
        );
        f.paths(&mut d, &[File::Suite, File::Segment]);
        let mut said = Vec::new();
        if let (Some(id), Some(s)) = (id, suite) {
            d.fact(FactType::Identifier, Some(id), &s.inv);
            said.push(format!("Bluetooth id {id}"));
        }
        if n == 0 {
            for (v, inv, ft, what) in &profile {
                d.fact(*ft, Some(v), inv);
                said.push(format!("{what} {v}"));
            }
            for (v, s, what) in &dates {
                d.time(Some(v), date_text(Some(v)), what, &s.inv);
            }
        }
        if let (Some(id), Some(s)) = (id, suite) {
            if let Some((o, twice)) = per_ring(&blobs, "batteryLevelRecords")
                && let Some(rec) = o.get(id.as_str())
            {
                if let Some(level) = cited(&s.inv, rec.get("batteryLevel"), twice) {
                    d.fact(FactType::Text, Some(&level), &s.inv);
                    said.push(format!("battery level {level} %"));
                }
                let t = cited(&s.inv, rec.get("lastUpdated"), twice);
                d.time(
                    t.as_deref(),
                    apple_seconds(t.as_deref()),
                    "Oura ring battery level recorded",
                    &s.inv,
                );
            }
            if let Some((o, twice)) = per_ring(&blobs, "ringLowBatteryNotifications")
                && let Some(note) = o.get(id.as_str())
            {
                for (k, what) in [
                    ("batteryLevel", "low-battery notification at level"),
                    ("hoursToEmpty", "hours to empty"),
                    ("type", "notification type"),
                ] {
                    if let Some(v) = cited(&s.inv, note.get(k), twice) {
                        d.fact(FactType::Text, Some(&v), &s.inv);
                        said.push(format!("{what} {v}"));
                    }
                }
                let t = cited(&s.inv, note.get("ringNotificationDate"), twice);
                d.time(
                    t.as_deref(),
                    apple_seconds(t.as_deref()),
                    "Oura ring low-battery notification",
                    &s.inv,
                );
            }
        }
        d.interpretation = format!(
            "A ring paired with the Oura app on the device ({}).{}",
            if said.is_empty() {
                "no attribute kept".to_string()
            } else {
                said.join("; ")
            },
            match (n, ids.len() > 1) {
                (0, true) =>
                    " The model, colour, design, size and firmware are the profile's current ring, given to the first ring id as iLEAPP does.",
                _ => "",
            }
        );
        run.record(d)?;
    }
    Ok(())
}

fn location(run: &Run<'_, '_>, f: &Folder<'_>) -> Result<(), RuntimeError> {
    let Some(s) = f.suite.as_ref() else {
        return Ok(());
    };
    let Some((loc, twice)) = nested(s.doc.get("findMyRingLastKnownLocation")) else {
        return Ok(());
    };
    let lat = cited(&s.inv, loc.get("latitude"), twice);
    let lon = cited(&s.inv, loc.get("longitude"), twice);
    let (Some(lat), Some(lon)) = (lat, lon) else {
        return Ok(());
    };
    let mut d = Draft::new("locations", "Oura ring last known location");
    f.paths(&mut d, &[File::Suite]);
    let mut said = vec![format!("latitude {lat}"), format!("longitude {lon}")];
    d.fact(FactType::Text, Some(&lat), &s.inv);
    d.fact(FactType::Text, Some(&lon), &s.inv);
    for (k, what) in [
        ("altitude", "altitude (m)"),
        ("horizontalAccuracy", "horizontal accuracy (m)"),
        ("verticalAccuracy", "vertical accuracy (m)"),
        ("speed", "speed (m/s)"),
        ("course", "course (°)"),
    ] {
        if let Some(v) = cited(&s.inv, loc.get(k), twice) {
            d.fact(FactType::Text, Some(&v), &s.inv);
            said.push(format!("{what} {v}"));
        }
    }
    let t = cited(&s.inv, loc.get("timestamp"), twice);
    d.time(
        t.as_deref(),
        apple_seconds(t.as_deref()),
        "Oura ring last located",
        &s.inv,
    );
    d.interpretation = format!(
        "findMyRingLastKnownLocation of the Oura account suite: where the phone was (its own position fix) when the app last heard the ring, Find My Ring's last known position of the ring: {}; the time is Cocoa seconds.",
        said.join(", ")
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_members_and_times() {
        let (v, twice) = nested(Some(&json!("{\"a\": 1}"))).unwrap();
        assert!(twice && v["a"] == 1);
        let (v, twice) = nested(Some(&json!({"$data_json": {"b": "x"}}))).unwrap();
        assert!(!twice && v["b"] == "x");
        assert!(nested(Some(&json!({"$data_hex": "00"}))).is_none());
        assert!(nested(Some(&json!("plain"))).is_none());
        assert!(ring_id("A038F8C6B6AB") && !ring_id("A0:38:F8:C6:B6:AB"));
        assert_eq!(auto("739290000.25"), Some(TimeEncoding::AppleSeconds));
        assert_eq!(auto("1717500000"), Some(TimeEncoding::UnixSeconds));
        assert_eq!(auto("1717500000123"), Some(TimeEncoding::UnixMillis));
        assert_eq!(auto("2024-06-06T08:00:00Z"), Some(TimeEncoding::Iso8601));
        assert_eq!(auto("12"), None);
    }
}
