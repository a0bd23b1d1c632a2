//! iCloud backup state (`mobile/Library/Preferences/com.apple.MobileBackup.plist`) and the
//! CarPlay app history (`mobile/Library/Preferences/com.apple.CarPlayApp.plist`), read with
//! `parse_plist`:
//!
//! - MobileBackup: one phenomenon with the backup account's state (`AccountEnabledDate`, the
//!   last state's `date`, `state`, `isCloud`, `isBackground`, `progress`, the remote
//!   configuration's expiry); one per result in `BackupStateInfo.errors` (date, code, domain,
//!   description: "Backup succeeded" or the failure); one per `LastOnConditionEvents` entry
//!   (the time the backup conditions — power, Wi-Fi, lock — were last met, with the rest of
//!   the record as written); one per `PreflightSizing` domain (`AppDomain-<bundle>`,
//!   `AppDomainGroup-…`, `HomeDomain`, …: the bytes it would back up; `_TotalSize` goes to the
//!   state): which apps held data.
//! - CarPlayApp: one phenomenon per app of `CARRecentAppHistory` (bundle and the Unix time it
//!   was last shown in CarPlay) and one for the app CarPlay starts with
//!   (`CARStartApplicationBundleID`, `CARStartPageIndex`): the device was used in a car.
//!
//! No identity is observed.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run};
use crate::drafts::unix_seconds;
use crate::outputs::{in_json, json_scalar};

/// Triage of the backup and CarPlay preference plists of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.apple.MobileBackup.plist", |find, path| {
        mobile_backup(run, find, path)
    })?;
    run.each("com.apple.CarPlayApp.plist", |find, path| {
        carplay(run, find, path)
    })
}

/// An RFC 3339 date string of the plist (as `parse_plist` writes dates).
fn date(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(in_json)
}

fn mobile_backup(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let state = v.get("BackupStateInfo");
    if !v.is_object()
        || (state.is_none()
            && v.get("AccountEnabledDate").is_none()
            && v.get("PreflightSizing").is_none())
    {
        run.ctx.unparsed(
            path,
            "unexpected content: no BackupStateInfo, AccountEnabledDate or PreflightSizing",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    // the account's state
    let mut d = Draft::new("device", "iCloud backup state");
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (key, what) in [
        ("state", "state"),
        ("isCloud", "to iCloud"),
        ("isBackground", "in the background"),
        ("progress", "progress"),
    ] {
        if let Some(x) = json_scalar(state.and_then(|s| s.get(key))) {
            d.fact(FactType::Text, Some(&x), &inv);
            said.push(format!("{what} {x}"));
        }
    }
    if let Some(total) = json_scalar(v.get("PreflightSizing").and_then(|p| p.get("_TotalSize"))) {
        d.fact(FactType::Count, Some(&total), &inv);
        said.push(format!("total size {total} bytes"));
    }
    for (value, mark) in [
        (
            date(v.get("AccountEnabledDate")),
            "iCloud backup enabled for the account",
        ),
        (
            date(state.and_then(|s| s.get("date"))),
            "iCloud backup state recorded",
        ),
        (
            date(v.get("RemoteConfigurationExpiration")),
            "Backup configuration expires",
        ),
    ] {
        if let Some(t) = &value {
            said.push(format!("{} {t}", mark.to_lowercase()));
        }
        d.time(
            value.as_deref(),
            value.as_ref().map(|_| TimeEncoding::Iso8601),
            mark,
            &inv,
        );
    }
    d.interpretation = format!(
        "{path} holds the device's iCloud backup state: {}.",
        if said.is_empty() {
            "no field".to_string()
        } else {
            said.join("; ")
        }
    );
    run.record(d)?;

    let mut count = 0u64;
    let mut capped = |run: &Run<'_, '_>| -> Result<bool, RuntimeError> {
        count += 1;
        if count > ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!("more than {ENTRY_CAP} entries; the first {ENTRY_CAP} were recorded"),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(true);
        }
        Ok(false)
    };
    // each backup result
    for e in state
        .and_then(|s| s.get("errors"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if capped(run)? {
            return Ok(());
        }
        let desc = json_scalar(e.get("localizedDescription"));
        let when = date(e.get("date"));
        let mut d = Draft::new(
            "device",
            format!(
                "iCloud backup result: {}",
                desc.as_deref().unwrap_or("(no description)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, desc.as_deref(), &inv);
        let code = json_scalar(e.get("code"));
        d.fact(FactType::Count, code.as_deref(), &inv);
        let domain = json_scalar(e.get("domain"));
        d.fact(FactType::Identifier, domain.as_deref(), &inv);
        d.time(
            when.as_deref(),
            when.as_ref().map(|_| TimeEncoding::Iso8601),
            "iCloud backup result",
            &inv,
        );
        d.interpretation = format!(
            "{path} records an iCloud backup result{}: {} (code {} in {}).",
            when.as_deref()
                .map(|t| format!(" at {t}"))
                .unwrap_or_default(),
            desc.as_deref().unwrap_or("(no description)"),
            code.as_deref().unwrap_or("?"),
            domain.as_deref().unwrap_or("?"),
        );
        run.record(d)?;
    }
    // each time the backup conditions were met
    for e in v
        .get("LastOnConditionEvents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if capped(run)? {
            return Ok(());
        }
        let record = in_json(e);
        let when = e.split('|').next().filter(|t| t.contains('T'));
        let mut d = Draft::new("device", "iCloud backup conditions met");
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, Some(&record), &inv);
        d.time(
            when,
            when.map(|_| TimeEncoding::Iso8601),
            "iCloud backup conditions met",
            &inv,
        );
        d.interpretation = format!(
            "{path} lists among LastOnConditionEvents a time the conditions for an iCloud backup were met (the record's first field; its other fields as written)."
        );
        run.record(d)?;
    }
    // the bytes each domain would back up
    for (domain, size) in v
        .get("PreflightSizing")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(k, _)| !k.starts_with('_'))
    {
        if capped(run)? {
            return Ok(());
        }
        let size = json_scalar(Some(size));
        let bundle = domain
            .strip_prefix("AppDomain-")
            .or_else(|| domain.strip_prefix("AppDomainGroup-"))
            .or_else(|| domain.strip_prefix("AppDomainPlugin-"))
            .or_else(|| domain.strip_prefix("AppDomainPlaceholder-"));
        let mut d = Draft::new("apps", format!("iCloud backup domain {domain}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&in_json(domain)), &inv);
        d.fact(FactType::Count, size.as_deref(), &inv);
        d.interpretation = format!(
            "{path} sized the iCloud backup domain {domain} at {} bytes{}.",
            size.as_deref().unwrap_or("?"),
            bundle
                .map(|b| format!(": data of {b} on the device"))
                .unwrap_or_default(),
        );
        run.record(d)?;
    }
    Ok(())
}

fn carplay(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let history = v.get("CARRecentAppHistory").and_then(Value::as_object);
    let start = json_scalar(v.get("CARStartApplicationBundleID"));
    if history.is_none() && start.is_none() {
        run.ctx.unparsed(
            path,
            "unexpected content: no CARRecentAppHistory or CARStartApplicationBundleID",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    for (bundle, time) in history.into_iter().flatten().take(ENTRY_CAP as usize) {
        let t = json_scalar(Some(time));
        let mut d = Draft::new("apps", format!("CarPlay app {bundle}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&in_json(bundle)), &inv);
        d.time(
            t.as_deref(),
            unix_seconds(t.as_deref()),
            "App last shown in CarPlay",
            &inv,
        );
        d.interpretation = format!(
            "{path} lists {bundle} in CARRecentAppHistory: the app was last shown on a car's CarPlay screen at Unix time {}.",
            t.as_deref().unwrap_or("?")
        );
        run.record(d)?;
    }
    if let Some(s) = &start {
        let page = json_scalar(v.get("CARStartPageIndex"));
        let mut d = Draft::new("apps", format!("CarPlay start app {s}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(s), &inv);
        d.fact(FactType::Count, page.as_deref(), &inv);
        d.interpretation = format!(
            "{path}: CarPlay opens with {s} (CARStartApplicationBundleID), start page index {}.",
            page.as_deref().unwrap_or("not recorded")
        );
        run.record(d)?;
    }
    Ok(())
}
