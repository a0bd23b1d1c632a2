//! Installed apps: the App Store daemon's `storeSystem.db` (iOS 15 and later,
//! `/private/var/containers/Data/System/<UUID>/Documents/Persistence/`), one phenomenon per
//! `app_install` row with every field iLEAPP's `storeSystemAppInstalls` reports — the row's
//! columns and the `store_metadata` property list (app name, developer, genre, rating, the Apple
//! ID and DSID that bought it, purchase and release dates) — and the purchasing account as the
//! device owner's identities (`apple_id`, `dsid`: the DSID is the account's number, the same on
//! every device signed in to it).
//!
//! The columns are read by name (`pragma_table_info` first): a missing optional column is
//! `NULL`, a missing required one a recorded "unexpected schema" reason.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::callhistory::optional;
use super::{Draft, Run, core_data_encoding, raw};
use crate::util::plist_cell;

/// Columns of `app_install` besides `pid`, `bundle_id` and `store_metadata`, each with the
/// fact type it is recorded as and how the interpretation names it.
const COLUMNS: &[(&str, FactType, &str)] = &[
    ("bundle_version", FactType::Text, "bundle version"),
    ("apple_id", FactType::Account, "Apple ID"),
    ("account_id", FactType::Account, "account DSID"),
    ("alt_dsid", FactType::Identifier, "altDSID"),
    ("item_id", FactType::Identifier, "item id"),
    ("evid", FactType::Identifier, "external version id"),
    ("storefront", FactType::Identifier, "storefront"),
    ("client_id", FactType::Text, "client"),
    ("bundle_url", FactType::Path, "install path"),
    ("transaction_id", FactType::Identifier, "transaction id"),
    ("phase", FactType::Text, "phase"),
    ("update_type", FactType::Text, "update type"),
    ("source_type", FactType::Text, "source type"),
    ("redownload", FactType::Text, "redownload"),
];

/// Keys of the `store_metadata` plist (an NSKeyedArchiver `MIStoreMetadata`).
const METADATA: &[(&str, FactType, &str)] = &[
    ("itemName", FactType::Name, "app name"),
    ("artistName", FactType::Name, "developer"),
    ("bundleShortVersionString", FactType::Text, "version"),
    ("genre", FactType::Text, "genre"),
    ("ratingLabel", FactType::Text, "rating"),
    ("appleID", FactType::Account, "bought with Apple ID"),
    ("DSPersonID", FactType::Account, "DSID"),
    ("altDSID", FactType::Identifier, "altDSID"),
    ("itemID", FactType::Identifier, "item id"),
    (
        "softwareVersionExternalIdentifier",
        FactType::Identifier,
        "external version id",
    ),
    ("storefront", FactType::Identifier, "storefront"),
    ("sourceApp", FactType::Text, "installed from"),
    ("kind", FactType::Text, "kind"),
];

/// Triage of every `storeSystem.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("storeSystem.db", |find, path| one(run, find, path))
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["app_install"])? else {
        return Ok(());
    };
    if !schema.require(run, "app_install", &["pid", "bundle_id"])? {
        return Ok(());
    }
    let cols = schema.columns("app_install");
    let mut select = vec!["pid".to_string(), "bundle_id".to_string()];
    select.extend(COLUMNS.iter().map(|(c, _, _)| optional(&cols, c, c)));
    for t in ["timestamp", "last_start_date", "store_metadata"] {
        select.push(optional(&cols, t, t));
    }
    let sql = format!("SELECT {} FROM app_install", select.join(", "));
    let Some(paged) = run.paged_with(path, &sql, "pid", &["plists"])? else {
        return Ok(());
    };
    let mut count = 0usize;
    for (inv, t, row) in paged.rows() {
        count += 1;
        let bundle = raw(t, row, "bundle_id").unwrap_or_default();
        // an NSKeyedArchiver plist: its object under its `$top` key `root`
        let meta = t
            .get(row, "store_metadata")
            .and_then(plist_cell)
            .map(|v| v.get("root").cloned().unwrap_or(v))
            .unwrap_or(Value::Null);
        let name = meta.get("itemName").and_then(text);
        let version = meta
            .get("bundleShortVersionString")
            .and_then(text)
            .or_else(|| raw(t, row, "bundle_version"));
        let ver = version
            .as_deref()
            .map(|v| format!(" {v}"))
            .unwrap_or_default();
        let mut d = Draft::new(
            "apps",
            match &name {
                Some(n) => format!("App {n} ({bundle}){ver}"),
                None => format!("App {bundle}{ver}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&bundle), inv);
        let mut said = Vec::new();
        for (key, ft, what) in METADATA {
            if let Some(v) = meta.get(*key).and_then(text) {
                d.fact(*ft, Some(&v), inv);
                said.push(format!("{what} {v}"));
            }
        }
        for (col, ft, what) in COLUMNS {
            if let Some(v) = raw(t, row, col).filter(|v| v != "0" || *col == "phase") {
                d.fact(*ft, Some(&v), inv);
                said.push(format!("{what} {v}"));
            }
        }
        let stamp = raw(t, row, "timestamp");
        d.time(
            stamp.as_deref(),
            core_data_encoding(stamp.as_deref()),
            "App install recorded",
            inv,
        );
        let started = raw(t, row, "last_start_date");
        d.time(
            started.as_deref(),
            core_data_encoding(started.as_deref()),
            "App last started",
            inv,
        );
        for (key, what) in [
            ("purchaseDate", "App purchased"),
            ("releaseDate", "App released"),
        ] {
            if let Some(v) = meta.get(key).and_then(text) {
                d.time(Some(&v), Some(TimeEncoding::Iso8601), what, inv);
            }
        }
        d.interpretation = format!(
            "app_install pid {} of {path}: {}{bundle} is installed or being installed; {}. \
             timestamp and last_start_date are Apple absolute seconds (since 2001 UTC).",
            raw(t, row, "pid").unwrap_or_default(),
            name.as_deref()
                .map(|n| format!("{n}, "))
                .unwrap_or_default(),
            if said.is_empty() {
                "no store metadata".to_string()
            } else {
                said.join(", ")
            }
        );
        run.record(d)?;
        // the purchasing account: the device's user signed in to the App Store with it
        let apple_id = meta
            .get("appleID")
            .and_then(text)
            .or_else(|| raw(t, row, "apple_id"));
        let dsid = meta
            .get("DSPersonID")
            .and_then(text)
            .or_else(|| raw(t, row, "account_id"));
        if let Some(a) = &apple_id {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::AppleId,
                a,
                inv,
                format!("{a} is the Apple ID the App Store installed {bundle} with on this device (storeSystem.db)."),
            )?;
        }
        if let Some(n) = &dsid {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Dsid,
                n,
                inv,
                format!(
                    "{n} is the DSID (the Apple account's number) the App Store installed {bundle} with on this device{} (storeSystem.db).",
                    apple_id.as_deref().map(|a| format!(", the account {a}")).unwrap_or_default()
                ),
            )?;
        }
    }
    if paged.truncated {
        run.ctx.unparsed(
            path,
            &format!("more than {count} app_install rows; the first {count} were recorded"),
            None,
        )?;
    }
    Ok(())
}
