//! privacyaccountingd's access streams (`Library/PrivacyAccounting/Biome/
//! com.apple.privacy.accounting.stream.<name>/local/`: `tcc`, `location` and `oop` on the
//! releases seen), iLEAPP's `privacyAccounting` (`privacyAccountingAccess`, "Privacy Accounting -
//! Resource Accesses"): the records behind the App Privacy Report of Settings, each an app's use
//! of a protected resource. The files are SEGB (Biome's format, kept outside the Biome folder),
//! read by `read_segb` — one call per stream folder, with `biome::segb_stream`'s notes of the
//! problems it names —, each record's payload a Protocol Buffers message the tool decodes without
//! its schema.
//!
//! | stream | phenomenon | fields (iLEAPP's field numbers) |
//! |---|---|---|
//! | `tcc` | one `usage` per record ("Privacy accounting tcc access by <app> to <service> (kind <k>)") | the app (1.1.2, a bundle id) and its identifier type (1.1.1, as stored), the TCC service (2: `kTCCServiceCamera`, `…Microphone`, `…AddressBook`, `…Photos` …), the access identifier (1.2: 16 bytes, cited as the tool's hex and read as a UUID in the interpretation), the kind (1.3, as stored), the record's time |
//! | `location` | the same ("… access by <app> (kind <k>)") | the same but the service: the stream is the location one and names none |
//! | `oop` | the same ("… access by <app> to <n> (kind <k>)") | the same, field 2 a number (the out-of-process picker's type, as stored) |
//! | any | one `usage` per deleted record whose payload is gone ("Privacy accounting <stream> record deleted (payload gone)") | its time and where it is: an access happened then, by whom is not kept (iLEAPP's notes found such payloads zeroed, reaching back before the oldest written record) |
//!
//! Times are the SEGB record's, Cocoa seconds. The kind's values are not documented: iLEAPP's
//! sample held each access identifier twice, kind 2 then kind 3, and privacyaccountingd logs
//! accesses as intervals — a pair likely marks an access's begin and end; said as stored. The
//! App Privacy Report's export (`App_Privacy_Report*.ndjson`, [`super::privacyreport`]) shows
//! the same accesses when the user saved one; the streams are written only while the report is
//! turned on (iLEAPP: the daemon drops accesses when its logging setting is off), so stream
//! folders with no record are common. A record marked deleted whose data is still there is read
//! the same way and said deleted; a CRC that does not match is said; a written record that is no
//! message holding an access (field 1) is noted and the others read; a file the tool cannot read
//! (cut, no SEGB) is noted by `read_segb`'s problems, the rest read.
//!
//! Not read: the `tombstone` folders (iLEAPP's `privacyAccountingTombstones`: entries naming
//! pruned segment files and the pruning process, no access; `read_segb` leaves them out of a
//! stream folder) and dot files. A folder of the same name outside `PrivacyAccounting/Biome/` is
//! not read.
//!
//! Identities: none (the records name apps, not people).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::biome::{decoded, segb_stream, values_at};
use super::{Draft, Run, apple_encoding};
use crate::outputs::Table;

/// The stream folders, searched by name (`com.apple.privacy.accounting.stream.tcc`, …).
pub const FOLDER: &str = "com.apple.privacy.accounting.stream*";

/// The common beginning of the streams' names.
const PREFIX: &str = "com.apple.privacy.accounting.stream.";

/// Whether `dir` is one of privacyaccountingd's stream folders (under `PrivacyAccounting/Biome/`).
pub fn is_stream(dir: &str) -> bool {
    dir.contains("/Library/PrivacyAccounting/Biome/") && super::file_name(dir).starts_with(PREFIX)
}

/// What shows the catalogue that the streams were read: a `read_segb` call on one of them.
pub fn detectors() -> Vec<String> {
    vec!["/PrivacyAccounting/Biome/com.apple.privacy.accounting.stream".to_string()]
}

/// Triage of every privacy accounting stream folder the one search found.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, dirs)) = run.find_dirs(FOLDER)? else {
        return Ok(());
    };
    for dir in dirs.iter().filter(|d| is_stream(d)) {
        run.ctx.artefact(dir, || stream(run, &find, dir))?;
    }
    Ok(())
}

/// One record being read: where it is and how it was read.
struct Rec<'a> {
    find: &'a Invoked,
    inv: &'a Invoked,
    dir: &'a str,
    /// The stream's short name (`tcc`, `location`, `oop`).
    short: &'a str,
    t: &'a Table,
    row: &'a [Option<String>],
}

impl Rec<'_> {
    fn get(&self, col: &str) -> Option<&str> {
        self.t.get(self.row, col)
    }

    fn written(&self) -> bool {
        self.get("state") == Some("written")
    }

    /// A draft with the stream's path (cited by the search) and the record's time.
    fn draft(&self, title: String) -> Draft {
        let mut d = Draft::new("usage", title);
        d.fact(FactType::Path, Some(self.dir), self.find);
        let time = self.get("time");
        d.time(
            time,
            apple_encoding(time),
            "Protected resource access recorded (privacy accounting)",
            self.inv,
        );
        d
    }

    /// How the record was found, leading the interpretation.
    fn header(&self) -> String {
        format!(
            "Privacy accounting {} record at offset {} of {} ({}{}; its time {} Cocoa seconds)",
            self.short,
            self.get("offset").unwrap_or("?"),
            self.get("file").unwrap_or("?"),
            self.get("state").unwrap_or("?"),
            if self.get("crc") == Some("bad") {
                ", its data does not match its stored CRC-32"
            } else {
                ""
            },
            self.get("time").unwrap_or("?"),
        )
    }
}

/// One stream folder read by `read_segb`.
fn stream(run: &Run<'_, '_>, find: &Invoked, dir: &str) -> Result<(), RuntimeError> {
    let name = super::file_name(dir);
    let short = name.strip_prefix(PREFIX).unwrap_or(name);
    let what = format!("privacyaccountingd's {short} stream");
    let Some((inv, t)) = segb_stream(run, dir, &what)? else {
        return Ok(());
    };
    for row in &t.rows {
        if t.get(row, "state").unwrap_or("?") == "empty" {
            continue;
        }
        let rec = Rec {
            find,
            inv: &inv,
            dir,
            short,
            t: &t,
            row,
        };
        // an access record: a message with its field 1
        match decoded(&t, row, "protobuf:").filter(|m| m.get("1").is_some()) {
            Some(m) => access(run, &rec, &m)?,
            None if rec.written() => {
                // noted on its file: the folder's own note (a file the tool could not read) is
                // another artefact's
                run.ctx.unparsed(
                    &format!("{dir}/{}", rec.get("file").unwrap_or("?")),
                    &format!(
                        "could not parse the record at offset {} of {} of {what} because its data is not a Protocol Buffers message holding an access (field 1)",
                        rec.get("offset").unwrap_or("?"),
                        rec.get("file").unwrap_or("?"),
                    ),
                    Some(&inv.record.invocation_id),
                )?;
            }
            None => gone(run, &rec)?,
        }
    }
    Ok(())
}

/// The first value at `path` (shown, cited).
fn first(m: &Value, path: &[&str]) -> Option<(String, String)> {
    values_at(m, path).into_iter().next()
}

/// The access identifier's hex digits as the tool prints them (`x'<hex>'`), when its 16 bytes
/// were printed so (bytes that happen to parse as a message are printed as one).
fn access_hex(m: &Value) -> Option<String> {
    let (_, cited) = first(m, &["1", "2"])?;
    let hex = cited.strip_prefix("x'")?.strip_suffix('\'')?;
    (!hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| hex.to_string())
}

/// 32 hex digits as a UUID (8-4-4-4-12, upper case), for the interpretation.
fn as_uuid(hex: &str) -> Option<String> {
    if hex.len() != 32 {
        return None;
    }
    let h = hex.to_ascii_uppercase();
    Some(format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    ))
}

/// An access record (iLEAPP's field numbers).
fn access(run: &Run<'_, '_>, rec: &Rec<'_>, m: &Value) -> Result<(), RuntimeError> {
    let client = first(m, &["1", "1", "2"]);
    let id_type = first(m, &["1", "1", "1"]);
    let kind = first(m, &["1", "3"]);
    let service = first(m, &["2"]);
    let hex = access_hex(m);
    // bytes the tool read as a nested message: the identifier is there but not as its bytes
    let as_message = hex.is_none()
        && m.get("1")
            .and_then(|a| a.get(0))
            .and_then(|a| a.get("2"))
            .and_then(|v| v.get(0))
            .is_some_and(Value::is_object);
    let deleted = if rec.written() {
        ""
    } else {
        " (a deleted record)"
    };
    let mut d = rec.draft(format!(
        "Privacy accounting {} access by {}{}{}{deleted}",
        rec.short,
        client
            .as_ref()
            .map_or("an unnamed client", |(c, _)| c.as_str()),
        service
            .as_ref()
            .map(|(s, _)| format!(" to {s}"))
            .unwrap_or_default(),
        kind.as_ref()
            .map(|(k, _)| format!(" (kind {k})"))
            .unwrap_or_default(),
    ));
    d.fact(
        FactType::Identifier,
        client.as_ref().map(|(_, c)| c.as_str()),
        rec.inv,
    );
    d.fact(
        FactType::Text,
        id_type.as_ref().map(|(_, c)| c.as_str()),
        rec.inv,
    );
    d.fact(
        FactType::Text,
        service.as_ref().map(|(_, c)| c.as_str()),
        rec.inv,
    );
    d.fact(
        FactType::Text,
        kind.as_ref().map(|(_, c)| c.as_str()),
        rec.inv,
    );
    d.fact(FactType::Identifier, hex.as_deref(), rec.inv);
    let resource = match (rec.short, &service) {
        ("tcc", Some((s, _))) => format!("the TCC-protected resource {s}"),
        ("oop", Some((s, _))) => format!(
            "an out-of-process picker (the system's photo or contact picker that hands the app only what the user picks; picker type {s} as stored)"
        ),
        ("location", None) => "the device's location (the location stream names no service)".into(),
        (_, Some((s, _))) => format!("{s} (field 2 as stored)"),
        (_, None) => "a protected resource (no service kept)".into(),
    };
    d.interpretation = format!(
        "{}: privacyaccountingd, which feeds the App Privacy Report, recorded that {} (identifier type {} as stored) used {resource}{}{}; the time is the record's (Cocoa seconds). The kind's values are not documented: iLEAPP's sample held each access identifier twice, kind 2 then kind 3, which with the daemon's interval logging likely marks an access's begin and end.",
        rec.header(),
        client
            .as_ref()
            .map_or("an unnamed client", |(c, _)| c.as_str()),
        id_type.as_ref().map_or("?", |(t, _)| t.as_str()),
        match (&hex, as_message) {
            (Some(h), _) => format!(
                "; access identifier {h} (16 bytes{})",
                as_uuid(h)
                    .map(|u| format!(", as a UUID {u}"))
                    .unwrap_or_default()
            ),
            (None, true) => {
                "; its access identifier's bytes were decoded by the tool as a message, not shown as bytes"
                    .to_string()
            }
            (None, false) => "; no access identifier kept".to_string(),
        },
        kind.as_ref()
            .map(|(k, _)| format!(", kind {k}"))
            .unwrap_or_else(|| ", no kind kept".into()),
    );
    run.record(d)
}

/// A record (deleted, or of another state) whose payload is gone: its time and where it is.
fn gone(run: &Run<'_, '_>, rec: &Rec<'_>) -> Result<(), RuntimeError> {
    let mut d = rec.draft(format!(
        "Privacy accounting {} record {} (payload gone)",
        rec.short,
        rec.get("state").unwrap_or("?")
    ));
    d.interpretation = format!(
        "{}: its payload is no longer readable (iLEAPP's notes found deleted records zeroed while their times survive), so an access was recorded at that time but not by which app nor to what.",
        rec.header()
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_and_access_fields() {
        assert!(is_stream(
            "/private/var/mobile/Library/PrivacyAccounting/Biome/com.apple.privacy.accounting.stream.tcc"
        ));
        assert!(!is_stream(
            "/private/var/mobile/Library/Backup/com.apple.privacy.accounting.stream.tcc"
        ));
        let m: Value = serde_json::from_str(
            r#"{"1":[{"1":[{"1":[1],"2":["com.burbn.instagram"]}],"2":["x'03a1b2c3d4e5f60718293a4b5c6d7e8f'"],"3":[2]}],"2":["kTCCServiceCamera"]}"#,
        )
        .unwrap();
        assert_eq!(
            first(&m, &["1", "1", "2"]).unwrap().0,
            "com.burbn.instagram"
        );
        assert_eq!(first(&m, &["1", "3"]).unwrap().0, "2");
        assert_eq!(first(&m, &["2"]).unwrap().0, "kTCCServiceCamera");
        let hex = access_hex(&m).unwrap();
        assert_eq!(hex, "03a1b2c3d4e5f60718293a4b5c6d7e8f");
        assert_eq!(
            as_uuid(&hex).unwrap(),
            "03A1B2C3-D4E5-F607-1829-3A4B5C6D7E8F"
        );
    }
}
