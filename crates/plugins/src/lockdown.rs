//! The Apple devices a computer knows, for the file-tree triage ([`crate::tree`]) of disks,
//! archives and folders:
//!
//! - **lockdown pairing records**: `<UDID>.plist` in a folder named `Lockdown` (Windows
//!   `ProgramData/Apple/Lockdown/`, macOS `/private/var/db/lockdown/`, usbmuxd on Linux
//!   `/var/lib/lockdown/`), written when an iPhone or iPad trusted the computer. One phenomenon
//!   per record: the device's UDID (the file's name), the record's `HostID`, `SystemBUID` and
//!   `WiFiMACAddress`. The keys, certificates and escrow bag it also holds are never copied
//!   into a finding.
//! - **iTunes/Finder backups kept on the computer**: `MobileSync/Backup/<UDID>/Info.plist`,
//!   the phone's IMEI, MEID, serial, ICCID, phone number, name, model and iOS version as it
//!   was backed up, and the backup's date.
//!
//! The device is observed as `ios-device:<UDID>` (a device with its UDID, IMEI, serial and name),
//! so resolution proposes it `same_as` the phone whose extraction or backup names the same
//! UDID or IMEI; a backup's phone number as `ios-user:<UDID>`, the phone's user. The record's
//! `HostID` is this computer's: observed as `pairing-host:<HostID>` (`pairing_host`), which the
//! phone's own copy of the pairing (`…/Lockdown/pair_records/<HostID>.plist`, read by the iOS
//! plugin) also names, so a full-file-system extraction without a UDID still meets the
//! computer.

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::{EntityKind, FactClaim, FactType, IdType, TimeEncoding, TimeMark};
use masf_tools::Invoked;
use serde_json::Value;

use crate::drafts::fact;
use crate::identity::{TreeRef, args_on, artefact_name, observe, record};
use crate::outputs::in_json;

/// What a path of a computer's tree is, when it is one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A lockdown pairing record.
    Pairing,
    /// The `Info.plist` of an iTunes/Finder backup folder.
    BackupInfo,
}

/// The UDID a path names and what the file is, for a pairing record or a backup's
/// `Info.plist`; `None` for any other path.
pub fn classify(path: &str) -> Option<(Kind, String)> {
    let mut parts = path.rsplit('/');
    let name = parts.next()?;
    let parent = parts.next()?;
    let udid = |s: &str| masf_graph::identifiers::normalize(IdType::Udid, s, None).ok();
    if parent.eq_ignore_ascii_case("lockdown") {
        let stem = name.strip_suffix(".plist")?;
        return udid(stem).map(|u| (Kind::Pairing, u));
    }
    if name == "Info.plist" && parts.next() == Some("Backup") && parts.next() == Some("MobileSync")
    {
        return udid(parent).map(|u| (Kind::BackupInfo, u));
    }
    None
}

/// Pairing record members kept (member → what it is); everything else in a record (keys,
/// certificates, the escrow bag) is left out.
const PAIRING: [(&str, &str); 3] = [
    ("HostID", "host id"),
    ("SystemBUID", "system BUID"),
    ("WiFiMACAddress", "Wi-Fi MAC address"),
];

/// A backup `Info.plist` member read: (member, fact type, what it is, identifier type and
/// whose: `device` or `user`).
type Member = (
    &'static str,
    FactType,
    &'static str,
    Option<(IdType, &'static str)>,
);

/// Backup `Info.plist` members read.
const BACKUP: [Member; 10] = [
    (
        "IMEI",
        FactType::Imei,
        "IMEI",
        Some((IdType::Imei, "device")),
    ),
    (
        "IMEI 2",
        FactType::Imei,
        "second IMEI",
        Some((IdType::Imei, "device")),
    ),
    (
        "Serial Number",
        FactType::Serial,
        "serial",
        Some((IdType::Serial, "device")),
    ),
    (
        "Device Name",
        FactType::Name,
        "name",
        Some((IdType::DeviceName, "device")),
    ),
    (
        "Phone Number",
        FactType::Phone,
        "phone number",
        Some((IdType::Phone, "user")),
    ),
    (
        "ICCID",
        FactType::Iccid,
        "ICCID",
        Some((IdType::Iccid, "device")),
    ),
    ("MEID", FactType::Identifier, "MEID", None),
    ("Product Type", FactType::Text, "model", None),
    ("Product Version", FactType::Text, "iOS version", None),
    ("Build Version", FactType::Text, "iOS build", None),
];

/// Reads each `(path, UDID, kind)` found in `tree`, `listing` being the inventory page that
/// lists it.
pub fn triage(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    found: &[(String, String, Kind, Invoked)],
) -> Result<(), RuntimeError> {
    for (path, udid, kind, listing) in found {
        ctx.artefact(&artefact_name(tree, path), || match kind {
            Kind::Pairing => pairing(ctx, tree, path, udid, listing),
            Kind::BackupInfo => backup(ctx, tree, path, udid, listing),
        })?;
    }
    Ok(())
}

/// `parse_plist` of `path` as JSON (noted when the call fails or its output is no JSON).
fn parse(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
) -> Result<Option<(Invoked, Value)>, RuntimeError> {
    let name = artefact_name(tree, path);
    let args = args_on(tree, serde_json::json!({"path": path}));
    let Some(inv) = crate::calls::call_or_note(ctx, &name, "parse_plist", args)? else {
        return Ok(None);
    };
    match serde_json::from_str::<Value>(&inv.output.text) {
        Ok(v) => Ok(Some((inv, v))),
        Err(e) => {
            ctx.unparsed(
                &name,
                &format!("parse_plist output is not JSON: {e}"),
                Some(&inv.record.invocation_id),
            )?;
            Ok(None)
        }
    }
}

/// The device and its UDID: the path fact, the UDID fact (both cite the listing, whose path
/// holds the UDID as written) and the observation.
fn device(
    ctx: &AgentCtx<'_>,
    path: &str,
    udid: &str,
    listing: &Invoked,
    facts: &mut Vec<FactClaim>,
    why: String,
) -> Result<(), RuntimeError> {
    facts.push(fact(FactType::Path, path, listing));
    let written = path
        .rsplit('/')
        .find(|p| p.to_ascii_uppercase().starts_with(udid))
        .map(|p| p.trim_end_matches(".plist").to_string())
        .unwrap_or_else(|| udid.to_string());
    facts.push(fact(FactType::Identifier, written.as_str(), listing));
    observe(
        ctx,
        &format!("ios-device:{udid}"),
        EntityKind::Device,
        &format!("iOS device {udid}"),
        IdType::Udid,
        &written,
        listing,
        why,
    )?;
    Ok(())
}

fn pairing(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    udid: &str,
    listing: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(ctx, tree, path)? else {
        return Ok(());
    };
    let mut facts = Vec::new();
    device(
        ctx,
        path,
        udid,
        listing,
        &mut facts,
        format!("{path} is the pairing record this computer keeps for the iOS device {udid}."),
    )?;
    let mut said = Vec::new();
    for (member, what) in PAIRING {
        if let Some(s) = v[member].as_str().filter(|s| !s.is_empty()) {
            facts.push(fact(FactType::Identifier, in_json(s).as_str(), &inv));
            said.push(format!("{what} {s}"));
        }
    }
    if let Some(host) = v["HostID"].as_str().filter(|s| !s.is_empty()) {
        observe(
            ctx,
            &format!("pairing-host:{}", host.to_ascii_uppercase()),
            EntityKind::Device,
            "this computer (its lockdown pairing host id)",
            IdType::PairingHost,
            &in_json(host),
            &inv,
            format!(
                "The pairing record {} names this computer's lockdown host id {host}.",
                path.rsplit('/').next().unwrap_or(path)
            ),
        )?;
    }
    record(
        ctx,
        PhenomenonDraft {
            category: "device".into(),
            title: format!("iOS device {udid} paired with this computer"),
            facts,
            interpretation: format!(
                "{path} is a lockdown pairing record: the iOS device with UDID {udid} trusted this computer (iTunes, Finder or usbmuxd wrote the record when it did){}. The record's keys, certificates and escrow bag are not copied into this finding.",
                if said.is_empty() {
                    String::new()
                } else {
                    format!("; {}", said.join(", "))
                }
            ),
            times: vec![],
        },
    )?;
    Ok(())
}

fn backup(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    udid: &str,
    listing: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(ctx, tree, path)? else {
        return Ok(());
    };
    let mut facts = Vec::new();
    device(
        ctx,
        path,
        udid,
        listing,
        &mut facts,
        format!(
            "{path} belongs to an iTunes/Finder backup of the iOS device {udid} kept on this computer."
        ),
    )?;
    let mut said = Vec::new();
    for (member, fact_type, what, id) in BACKUP {
        let Some(s) = v[member].as_str().filter(|s| !s.trim().is_empty()) else {
            continue;
        };
        let written = in_json(s);
        facts.push(fact(fact_type, written.as_str(), &inv));
        said.push(format!("{what} {s}"));
        if let Some((id_type, whose)) = id {
            let (context, kind, label) = if whose == "device" {
                (
                    format!("ios-device:{udid}"),
                    EntityKind::Device,
                    format!("iOS device {udid}"),
                )
            } else {
                (
                    format!("ios-user:{udid}"),
                    EntityKind::Person,
                    format!("user of the iOS device {udid}"),
                )
            };
            observe(
                ctx,
                &context,
                kind,
                &label,
                id_type,
                &written,
                &inv,
                format!("The backup of {udid} on this computer records {what} {s} ({member})."),
            )?;
        }
    }
    let mut times = Vec::new();
    if let Some(date) = v["Last Backup Date"].as_str() {
        times.push(TimeMark {
            fact: facts.len(),
            encoding: TimeEncoding::Iso8601,
            description: "Last backup".into(),
        });
        facts.push(fact(FactType::Timestamp, date, &inv));
        said.push(format!("last backup {date}"));
    }
    record(
        ctx,
        PhenomenonDraft {
            category: "device".into(),
            title: format!("iTunes backup of iOS device {udid} on this computer"),
            facts,
            interpretation: format!(
                "{path} is the Info.plist of an iTunes/Finder backup of the iOS device with UDID {udid}, kept on this computer: {}.",
                if said.is_empty() {
                    "it records nothing more".to_string()
                } else {
                    said.join(", ")
                }
            ),
            times,
        },
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_records_and_backups_are_known_by_their_path() {
        assert_eq!(
            classify("/ProgramData/Apple/Lockdown/00008030-001a2b3c4d5e802e.plist"),
            Some((Kind::Pairing, "00008030-001A2B3C4D5E802E".into()))
        );
        assert_eq!(
            classify("/private/var/db/lockdown/2b6f0cc904d137be2e1730235f5664094b831186.plist")
                .map(|c| c.0),
            Some(Kind::Pairing)
        );
        assert_eq!(
            classify(
                "/Users/x/AppData/Roaming/Apple Computer/MobileSync/Backup/00008030-001A2B3C4D5E802E/Info.plist"
            ),
            Some((Kind::BackupInfo, "00008030-001A2B3C4D5E802E".into()))
        );
        for other in [
            "/ProgramData/Apple/Lockdown/SystemConfiguration.plist",
            "/ProgramData/Apple/Lockdown/00008030-001A2B3C4D5E802E.plist.bak",
            "/x/Lockdown",
            "/MobileSync/Backup/not-a-udid/Info.plist",
            "/Backup/00008030-001A2B3C4D5E802E/Info.plist",
            "Info.plist",
        ] {
            assert_eq!(classify(other), None, "{other}");
        }
    }
}
