//! CoreDuet's DuetExpertCenter streams (`Library/DuetExpertCenter/streams/<stream>/local/`),
//! iLEAPP's `duetLocations` ("Duet Locations") and `notificationsDuet` ("Notification Duet"):
//! where the phone was and which notifications it showed, as CoreDuet's proactive experts
//! logged them. The files are SEGB (v1 on iOS 16, v2 on iOS 17+), read by `read_segb` — one call
//! per stream folder, with `biome::segb_stream`'s notes of the problems it names —,
//! each record's payload decoded by the tool: a binary property list as `plist:` JSON (a keyed
//! archive unwrapped), a Protocol Buffers message as `protobuf:` JSON without its schema.
//!
//! | stream | phenomenon | fields |
//! |---|---|---|
//! | `location` | one `locations` per record ("CoreDuet location <latitude>, <longitude>") | the CLLocation archive's `kCLLocationCodingKey*` members iLEAPP reads — latitude, longitude, horizontal accuracy, altitude, speed — and its vertical accuracy and course where kept; the fix's time (`kCLLocationCodingKeyTimestamp`), the record's |
//! | `userNotificationEvents` | one `apps` per record ("CoreDuet notification from <app>: <title>") | by iLEAPP's field numbers: the app (1.8) and second bundle id (1.12), title (1.3), subtitle (1.4), body (1.5), GUID (1.2) and second GUID (4), optional data (1.10), person identifier (1.13) and every person info value (1.20); the notification's time (1.1) and second time (3), the record's |
//!
//! Times are Cocoa seconds (iLEAPP reads them so). A location is a position of the phone Core
//! Location gave (CLLocation's speed and course of -1: not known, said as stored); a
//! notification is one the device showed, its texts as delivered — fields whose meaning beyond
//! iLEAPP's names is not public (the person identifier and info) are said as stored. A record
//! marked deleted whose data is still in the file is read the same way and said deleted; a CRC
//! that does not match is said; a written record whose data is not what the stream keeps (no
//! property list, no message, no coordinates) is noted and the others read; a file the tool
//! cannot read (cut, no SEGB) is noted by `read_segb`'s problems, the rest read. Dot files and
//! `tombstone` folders are not read (the tool leaves them out).
//!
//! Identities: none. A notification's person fields may name its sender, but whose handle they
//! are (sender, group, the device's user) the stream does not say.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::biome::{decoded, segb_stream, values_at};
use super::{Draft, Run, apple_encoding};
use crate::outputs::Table;

/// What a stream holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    /// `location`: NSKeyedArchiver CLLocations.
    Location,
    /// `userNotificationEvents`: Protocol Buffers messages.
    Notification,
}

/// The streams read, by their folder's name (under `DuetExpertCenter/streams/`).
const STREAMS: [(&str, Stream); 2] = [
    ("location", Stream::Location),
    ("userNotificationEvents", Stream::Notification),
];

/// The members of a CLLocation archive read: (key, label).
const FIX: [(&str, &str); 7] = [
    ("kCLLocationCodingKeyCoordinateLatitude", "latitude"),
    ("kCLLocationCodingKeyCoordinateLongitude", "longitude"),
    (
        "kCLLocationCodingKeyHorizontalAccuracy",
        "horizontal accuracy (m)",
    ),
    (
        "kCLLocationCodingKeyVerticalAccuracy",
        "vertical accuracy (m)",
    ),
    ("kCLLocationCodingKeyAltitude", "altitude (m)"),
    ("kCLLocationCodingKeySpeed", "speed (m/s)"),
    ("kCLLocationCodingKeyCourse", "course (°)"),
];

/// The fields of a notification event read: (path, fact, label), in iLEAPP's order.
const NOTIFICATION: [(&[&str], FactType, &str); 10] = [
    (&["1", "8"], FactType::Identifier, "app"),
    (&["1", "12"], FactType::Identifier, "second bundle id"),
    (&["1", "3"], FactType::Text, "title"),
    (&["1", "4"], FactType::Text, "subtitle"),
    (&["1", "5"], FactType::Text, "body"),
    (&["1", "2"], FactType::Identifier, "GUID"),
    (&["4"], FactType::Identifier, "second GUID"),
    (&["1", "10"], FactType::Text, "optional data"),
    (&["1", "13"], FactType::Identifier, "person identifier"),
    (&["1", "20"], FactType::Text, "person info"),
];

/// The stream folders read, for the one search.
pub fn folders() -> impl Iterator<Item = &'static str> {
    STREAMS.iter().map(|(f, _)| *f)
}

/// What shows the catalogue that the streams were read: a `read_segb` call on one of them.
pub fn detectors() -> Vec<String> {
    folders()
        .map(|f| format!("/DuetExpertCenter/streams/{f}\""))
        .collect()
}

/// Triage of every DuetExpertCenter stream folder the one search found.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for (glob, kind) in STREAMS {
        let Some((find, dirs)) = run.find_dirs(glob)? else {
            continue;
        };
        for dir in dirs
            .iter()
            .filter(|d| d.contains("/DuetExpertCenter/streams/"))
        {
            run.ctx
                .artefact(dir, || stream(run, &find, dir, glob, kind))?;
        }
    }
    Ok(())
}

/// One record being read: where it is and how it was read.
struct Rec<'a> {
    find: &'a Invoked,
    inv: &'a Invoked,
    dir: &'a str,
    name: &'a str,
    t: &'a Table,
    row: &'a [Option<String>],
}

impl Rec<'_> {
    fn get(&self, col: &str) -> Option<&str> {
        self.t.get(self.row, col)
    }

    /// ` (a deleted record)` when it is one.
    fn deleted(&self) -> &'static str {
        if self.get("state") == Some("written") {
            ""
        } else {
            " (a deleted record)"
        }
    }

    /// A draft with the stream's path (cited by the search) and the record's time.
    fn draft(&self, category: &'static str, title: String) -> Draft {
        let mut d = Draft::new(category, title);
        d.fact(FactType::Path, Some(self.dir), self.find);
        let time = self.get("time");
        d.time(
            time,
            apple_encoding(time),
            "CoreDuet record written",
            self.inv,
        );
        d
    }

    /// How the record was found, leading the interpretation.
    fn header(&self) -> String {
        format!(
            "CoreDuet {} record at offset {} of {} ({}{})",
            self.name,
            self.get("offset").unwrap_or("?"),
            self.get("file").unwrap_or("?"),
            self.get("state").unwrap_or("?"),
            if self.get("crc") == Some("bad") {
                ", its data does not match its stored CRC-32"
            } else {
                ""
            },
        )
    }
}

/// One stream folder read by `read_segb`.
fn stream(
    run: &Run<'_, '_>,
    find: &Invoked,
    dir: &str,
    name: &str,
    kind: Stream,
) -> Result<(), RuntimeError> {
    let what = format!("CoreDuet's {name} stream");
    let Some((inv, t)) = segb_stream(run, dir, &what)? else {
        return Ok(());
    };
    let (prefix, holds) = match kind {
        Stream::Location => ("plist:", "a property list"),
        Stream::Notification => ("protobuf:", "a Protocol Buffers message"),
    };
    for row in &t.rows {
        let state = t.get(row, "state").unwrap_or("?");
        if state == "empty" {
            continue;
        }
        let rec = Rec {
            find,
            inv: &inv,
            dir,
            name,
            t: &t,
            row,
        };
        let read = match decoded(&t, row, prefix) {
            Some(m) => match kind {
                Stream::Location => location(run, &rec, &m)?,
                Stream::Notification => notification(run, &rec, &m)?,
            },
            None => false,
        };
        if !read && state == "written" {
            // noted on its file: the folder's own note (a file the tool could not read) is
            // another artefact's
            run.ctx.unparsed(
                &format!("{dir}/{}", rec.get("file").unwrap_or("?")),
                &format!(
                    "could not parse the record at offset {} of {} of {what} because its data is not {holds}{}",
                    rec.get("offset").unwrap_or("?"),
                    rec.get("file").unwrap_or("?"),
                    if kind == Stream::Location {
                        " holding a position"
                    } else {
                        ""
                    },
                ),
                Some(&inv.record.invocation_id),
            )?;
        }
    }
    Ok(())
}

/// A location record (a CLLocation archive: its members under `root` once unwrapped, or at the
/// top of a plain property list); `false` when it holds no coordinates.
fn location(run: &Run<'_, '_>, rec: &Rec<'_>, m: &Value) -> Result<bool, RuntimeError> {
    let fix = m.get("root").filter(|r| r.is_object()).unwrap_or(m);
    let member = |key: &str| values_at(fix, &[key]).into_iter().next();
    let (Some((lat, _)), Some((lon, _))) = (member(FIX[0].0), member(FIX[1].0)) else {
        return Ok(false);
    };
    let mut d = rec.draft(
        "locations",
        format!("CoreDuet location {lat}, {lon}{}", rec.deleted()),
    );
    let mut said = Vec::new();
    for (key, label) in FIX {
        if let Some((v, cited)) = member(key) {
            d.fact(FactType::Text, Some(cited.as_str()), rec.inv);
            said.push(format!("{label} {v}"));
        }
    }
    let at = member("kCLLocationCodingKeyTimestamp").map(|(_, c)| c);
    d.time(
        at.as_deref(),
        apple_encoding(at.as_deref()),
        "Location fix (CoreDuet)",
        rec.inv,
    );
    d.interpretation = format!(
        "{}: a position of the phone Core Location gave and CoreDuet's DuetExpertCenter kept (a CLLocation archive): {}{}; the fix's time (kCLLocationCodingKeyTimestamp) and the record's are Cocoa seconds. A speed or course of -1 is CLLocation's 'not known', as stored.",
        rec.header(),
        said.join(", "),
        at.map(|a| format!(", fixed at {a}")).unwrap_or_default(),
    );
    run.record(d)?;
    Ok(true)
}

/// A notification event (iLEAPP's field numbers); `false` when it holds neither app nor text.
fn notification(run: &Run<'_, '_>, rec: &Rec<'_>, m: &Value) -> Result<bool, RuntimeError> {
    let first = |path: &[&str]| values_at(m, path).into_iter().next().map(|(v, _)| v);
    let app = first(&["1", "8"]).or_else(|| first(&["1", "12"]));
    let title = first(&["1", "3"]).or_else(|| first(&["1", "5"]));
    if app.is_none() && title.is_none() {
        return Ok(false);
    }
    let mut d = rec.draft(
        "apps",
        format!(
            "CoreDuet notification from {}: {}{}",
            app.as_deref().unwrap_or("?"),
            title.as_deref().unwrap_or("(no text)"),
            rec.deleted()
        ),
    );
    let mut said = Vec::new();
    for (path, fact, label) in NOTIFICATION {
        let values = values_at(m, path);
        if values.is_empty() {
            continue;
        }
        for (_, cited) in &values {
            d.fact(fact, Some(cited.as_str()), rec.inv);
        }
        said.push(format!(
            "{label} {}",
            values
                .iter()
                .map(|(v, _)| v.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    let mut times = Vec::new();
    for (path, what) in [
        (&["1", "1"][..], "Notification (CoreDuet)"),
        (&["3"][..], "Notification's second time (CoreDuet)"),
    ] {
        let v = first(path);
        d.time(v.as_deref(), apple_encoding(v.as_deref()), what, rec.inv);
        if let Some(v) = v {
            times.push(format!("{} {v}", path.join(".")));
        }
    }
    d.interpretation = format!(
        "{}: a notification the device showed, as CoreDuet's DuetExpertCenter logged it (fields by iLEAPP's numbers; their meaning beyond its names is not public, the person fields said as stored): {}; times (field {}) are Cocoa seconds.",
        rec.header(),
        said.join(", "),
        if times.is_empty() {
            "none kept".to_string()
        } else {
            times.join(", field ")
        },
    );
    run.record(d)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detectors_name_the_stream_folders() {
        assert_eq!(
            detectors(),
            vec![
                "/DuetExpertCenter/streams/location\"".to_string(),
                "/DuetExpertCenter/streams/userNotificationEvents\"".to_string(),
            ]
        );
    }

    #[test]
    fn fields_of_a_decoded_event() {
        let m: Value = serde_json::from_str(
            r#"{"1":[{"1":[{"double":739350200.5,"fixed64":1}],"3":["Ana \"A\""],"8":["com.apple.MobileSMS"],"20":["+351912345678","Ana"]}],"3":[{"double":739350201.0,"fixed64":2}]}"#,
        )
        .unwrap();
        assert_eq!(
            values_at(&m, &["1", "20"]),
            vec![
                ("+351912345678".to_string(), "+351912345678".to_string()),
                ("Ana".to_string(), "Ana".to_string())
            ]
        );
        // cited as read_segb's tab-separated line holds it: JSON-escaped, then cell-escaped
        assert_eq!(
            values_at(&m, &["1", "3"])[0].1,
            crate::outputs::in_json_cell("Ana \"A\"")
        );
        assert_eq!(values_at(&m, &["1", "3"])[0].1, "Ana \\\\\"A\\\\\"");
        assert_eq!(values_at(&m, &["1", "1"])[0].0, "739350200.5");
        let fix: Value = serde_json::from_str(
            r#"{"root":{"kCLLocationCodingKeyCoordinateLatitude":38.7223,"kCLLocationCodingKeySpeed":-1.0}}"#,
        )
        .unwrap();
        let root = fix.get("root").unwrap();
        assert_eq!(values_at(root, &[FIX[0].0])[0].0, "38.7223");
        assert_eq!(values_at(root, &["kCLLocationCodingKeySpeed"])[0].0, "-1.0");
    }
}
