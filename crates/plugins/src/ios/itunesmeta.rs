//! Apps' store metadata in their bundle containers (`containers/Bundle/Application/<id>/
//! iTunesMetadata.plist`, with `BundleMetadata.plist` beside it), iLEAPP's `appItunesmeta`: one
//! `apps` phenomenon per app installed from the App Store (or an enterprise or VPP source) — the
//! bundle id, name, developer, version, genre, release date, factory install, source app,
//! side-loaded (device-based VPP), variant id, the purchase date and the Apple ID and DSID of the
//! account that downloaded it (`com.apple.iTunesStore.downloadInfo` › `accountInfo`), and the
//! install date (`BundleMetadata.plist` › `installDate`). Plist dates are RFC 3339 text.
//!
//! Identities: the downloading account's Apple ID and DSID as the device owner's (`owner`), as
//! `storeSystem.db`'s purchaser is read ([`super::apps`]): the account the device's user signed
//! in to the App Store with. A plist that is no dictionary is noted.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run, file_name};
use crate::outputs::json_scalar;

/// Triage of every app's iTunesMetadata.plist of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let installs: Vec<String> = run
        .find("BundleMetadata.plist")?
        .map(|(_, p)| p)
        .unwrap_or_default();
    run.each("iTunesMetadata.plist", |find, path| {
        one(run, find, path, &installs)
    })
}

/// A plist date or text as the tool prints it, with the encoding to read it by.
fn date(v: Option<&Value>) -> Option<String> {
    json_scalar(v).filter(|s| s.len() >= 10)
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    installs: &[String],
) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse(run, path)? else {
        return Ok(());
    };
    if !doc.is_object() {
        run.ctx.unparsed(
            path,
            "could not parse the app's store metadata because iTunesMetadata.plist is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let s = |k: &str| json_scalar(doc.get(k));
    let bundle = s("softwareVersionBundleId");
    let name = s("itemName");
    let download = &doc["com.apple.iTunesStore.downloadInfo"];
    let account = &download["accountInfo"];
    let apple_id = json_scalar(account.get("AppleID"));
    let dsid = json_scalar(account.get("DSPersonID"));
    let mut d = Draft::new(
        "apps",
        format!(
            "App from the App Store: {}",
            name.as_deref()
                .or(bundle.as_deref())
                .unwrap_or("unnamed app")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (key, ft, label) in [
        ("softwareVersionBundleId", FactType::Identifier, "bundle id"),
        ("itemName", FactType::Name, "name"),
        ("artistName", FactType::Name, "developer"),
        ("bundleShortVersionString", FactType::Text, "version"),
        ("genre", FactType::Text, "genre"),
        ("isFactoryInstall", FactType::Text, "factory install"),
        ("sourceApp", FactType::Identifier, "source app"),
        (
            "sideLoadedDeviceBasedVPP",
            FactType::Text,
            "side-loaded (device-based VPP)",
        ),
        ("variantID", FactType::Identifier, "variant id"),
        ("itemId", FactType::Identifier, "item id"),
    ] {
        if let Some(v) = s(key) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (v, ft, label) in [
        (&apple_id, FactType::Account, "downloaded by the Apple ID"),
        (&dsid, FactType::Account, "the account's DSID"),
    ] {
        if let Some(v) = v {
            d.fact(ft, Some(v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (v, what) in [
        (date(download.get("purchaseDate")), "App purchased"),
        (date(doc.get("releaseDate")), "App released"),
    ] {
        d.time(
            v.as_deref(),
            v.as_ref().map(|_| TimeEncoding::Iso8601),
            what,
            &inv,
        );
    }
    // the install date of BundleMetadata.plist beside it
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let beside = format!("{dir}/BundleMetadata.plist");
    if installs.contains(&beside)
        && let Some((binv, bdoc)) = parse(run, &beside)?
    {
        let v = date(bdoc.get("installDate"));
        d.time(
            v.as_deref(),
            v.as_ref().map(|_| TimeEncoding::Iso8601),
            "App installed",
            &binv,
        );
        if let Some(v) = v {
            said.push(format!("installed {v}"));
        }
    }
    let shown = bundle.as_deref().unwrap_or_else(|| file_name(dir));
    d.interpretation = format!(
        "{path}: the App Store's record of {shown} in its bundle container; {}.",
        said.join("; ")
    );
    run.record(d)?;
    super::apps::observe_purchaser(
        run,
        &inv,
        apple_id.as_deref(),
        dsid.as_deref(),
        shown,
        "iTunesMetadata.plist",
    )?;
    Ok(())
}
