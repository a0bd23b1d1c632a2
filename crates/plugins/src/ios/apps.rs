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
use super::{Draft, Run, Schema, core_data_encoding, raw};
use crate::outputs::in_json_cell;
use crate::outputs::plist_cell;

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

/// Columns of `app_package` (iLEAPP's `storeSystemAppPackages`), recorded as stored (the
/// integer codes too: 0 is a value there, not an absent flag).
const PACKAGE_COLUMNS: &[(&str, FactType, &str)] = &[
    ("package_type", FactType::Text, "package type"),
    ("bytes_total", FactType::Count, "bytes total"),
    ("disk_usage", FactType::Count, "disk usage (bytes)"),
    (
        "extracted_content_size",
        FactType::Count,
        "extracted content size (bytes)",
    ),
    ("variant_id", FactType::Identifier, "variant"),
    ("compression", FactType::Text, "compression"),
    ("delta_algorithm", FactType::Text, "delta algorithm"),
    ("archive_type", FactType::Text, "archive type"),
    ("request_count", FactType::Count, "request count"),
    ("package_url", FactType::Url, "package URL"),
];

/// Columns of `mapi_app_update` (iLEAPP's `storeSystemAppUpdates`) besides its times and the
/// catalog `metadata`.
const UPDATE_COLUMNS: &[(&str, FactType, &str)] = &[
    ("item_id", FactType::Identifier, "item id"),
    (
        "store_software_version_id",
        FactType::Identifier,
        "store software version id",
    ),
    ("update_state", FactType::Text, "update state"),
    ("package_type", FactType::Text, "package type"),
    (
        "installer_packaging_type",
        FactType::Text,
        "installer packaging type",
    ),
];

/// Triage of every `storeSystem.db` of the source: installs, their download packages and the
/// App Store's update records.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("storeSystem.db", |find, path| {
        let Some(schema) = run.schema(path, &["app_install", "app_package", "mapi_app_update"])?
        else {
            return Ok(());
        };
        // a database with packages or update records but no install table: those are read
        // (one unparsed note per file: the first reason found is the one kept)
        let others = !schema.columns("app_package").is_empty()
            || !schema.columns("mapi_app_update").is_empty();
        if !schema.columns("app_install").is_empty() || !others {
            one(run, find, path, &schema)?;
        }
        packages(run, find, path, &schema)?;
        updates(run, find, path, &schema)
    })
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str, schema: &Schema) -> Result<(), RuntimeError> {
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
        observe_purchaser(
            run,
            inv,
            apple_id.as_deref(),
            dsid.as_deref(),
            &bundle,
            "storeSystem.db",
        )?;
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

/// One phenomenon per `app_package` row: a download package of an install (the app itself,
/// on-demand resources), joined to its `app_install` row by `parent_id` (which holds the
/// install's `pid` though declared `UUID`).
fn packages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("app_package");
    if cols.is_empty() {
        return Ok(());
    }
    if !schema.require(run, "app_package", &["pid"])? {
        return Ok(());
    }
    let mut select = vec!["p.pid AS pid".to_string()];
    select.push(crate::calls::column_or_null(
        &cols,
        "p.",
        "timestamp",
        "timestamp",
    ));
    select.extend(
        PACKAGE_COLUMNS
            .iter()
            .map(|(c, _, _)| crate::calls::column_or_null(&cols, "p.", c, c)),
    );
    let install = schema.columns("app_install");
    let join = if cols.contains("parent_id") && install.contains("pid") {
        select.push(crate::calls::column_or_null(
            &install,
            "i.",
            "bundle_id",
            "bundle_id",
        ));
        select.push(crate::calls::column_or_null(
            &install,
            "i.",
            "bundle_name",
            "bundle_name",
        ));
        " LEFT JOIN app_install i ON i.pid = p.parent_id"
    } else {
        select.push("NULL AS bundle_id".into());
        select.push("NULL AS bundle_name".into());
        ""
    };
    let sql = format!("SELECT {} FROM app_package p{join}", select.join(", "));
    let Some(paged) = run.paged(path, &sql, "p.pid")? else {
        return Ok(());
    };
    let mut count = 0usize;
    for (inv, t, row) in paged.rows() {
        count += 1;
        let bundle = raw(t, row, "bundle_id");
        let name = raw(t, row, "bundle_name");
        let of = match (&name, &bundle) {
            (Some(n), Some(b)) => format!(" of {n} ({b})"),
            (None, Some(b)) => format!(" of {b}"),
            _ => String::new(),
        };
        let mut d = Draft::new("apps", format!("App download package{of}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, bundle.as_deref(), inv);
        d.fact(FactType::Name, name.as_deref(), inv);
        let mut said = Vec::new();
        for (col, ft, what) in PACKAGE_COLUMNS {
            if let Some(v) = raw(t, row, col) {
                d.fact(*ft, Some(&v), inv);
                said.push(format!("{what} {v}"));
            }
        }
        let stamp = raw(t, row, "timestamp");
        d.time(
            stamp.as_deref(),
            core_data_encoding(stamp.as_deref()),
            "App package recorded",
            inv,
        );
        d.interpretation = format!(
            "app_package pid {} of {path} is a download package{of}: {}. timestamp is Apple \
             absolute seconds (since 2001 UTC); package type, compression and archive type are \
             undocumented integer codes, reported as stored.",
            raw(t, row, "pid").unwrap_or_default(),
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join(", ")
            }
        );
        run.record(d)?;
    }
    if paged.truncated {
        run.ctx.unparsed(
            path,
            &format!("more than {count} app_package rows; the first {count} were recorded"),
            None,
        )?;
    }
    Ok(())
}

/// The value at a `/`-separated path of a JSON object.
fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('/').try_fold(v, |v, k| v.get(k))
}

/// Fields of the App Store catalog entry in `mapi_app_update.metadata` (JSON).
const CATALOG: &[(&str, FactType, &str)] = &[
    ("attributes/name", FactType::Name, "app name"),
    ("attributes/artistName", FactType::Name, "developer"),
    ("attributes/genreDisplayName", FactType::Text, "genre"),
    (
        "attributes/platformAttributes/ios/latestVersionInfo/versionDisplay",
        FactType::Text,
        "latest version",
    ),
    (
        "attributes/platformAttributes/ios/latestVersionInfo/releaseNotes",
        FactType::Text,
        "release notes",
    ),
    (
        "attributes/platformAttributes/ios/externalVersionId",
        FactType::Identifier,
        "external version id",
    ),
    ("attributes/url", FactType::Url, "App Store URL"),
];

/// One phenomenon per `mapi_app_update` row: the update state of an app with the App Store's
/// cached catalog entry (latest version, its release notes and date).
fn updates(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("mapi_app_update");
    if cols.is_empty() {
        return Ok(());
    }
    if !schema.require(run, "mapi_app_update", &["pid", "bundle_id"])? {
        return Ok(());
    }
    let mut select = vec!["pid".to_string(), "bundle_id".to_string()];
    for c in ["timestamp", "install_date"] {
        select.push(optional(&cols, c, c));
    }
    select.extend(UPDATE_COLUMNS.iter().map(|(c, _, _)| optional(&cols, c, c)));
    select.push(if cols.contains("metadata") {
        "CAST(metadata AS TEXT) AS metadata".to_string()
    } else {
        "NULL AS metadata".to_string()
    });
    let sql = format!("SELECT {} FROM mapi_app_update", select.join(", "));
    let Some(paged) = run.paged(path, &sql, "pid")? else {
        return Ok(());
    };
    let mut count = 0usize;
    for (inv, t, row) in paged.rows() {
        count += 1;
        let bundle = raw(t, row, "bundle_id").unwrap_or_default();
        let catalog: Value = t
            .get(row, "metadata")
            .and_then(|m| serde_json::from_str(m).ok())
            .unwrap_or(Value::Null);
        let mut d = Draft::new("apps", format!("App update record {bundle}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&bundle), inv);
        let mut said = Vec::new();
        for (col, ft, what) in UPDATE_COLUMNS {
            if let Some(v) = raw(t, row, col) {
                d.fact(*ft, Some(&v), inv);
                said.push(format!("{what} {v}"));
            }
        }
        for (key, ft, what) in CATALOG {
            if let Some(v) = at(&catalog, key).and_then(text) {
                d.fact(*ft, Some(&in_json_cell(&v)), inv);
                if *key != "attributes/platformAttributes/ios/latestVersionInfo/releaseNotes" {
                    said.push(format!("{what} {}", in_json_cell(&v)));
                }
            }
        }
        for (col, what) in [
            ("timestamp", "App update recorded"),
            ("install_date", "App update installed"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        for (key, what) in [
            (
                "attributes/platformAttributes/ios/latestVersionInfo/releaseTimestamp",
                "App latest version released",
            ),
            (
                "attributes/platformAttributes/ios/releaseDate",
                "App first released",
            ),
        ] {
            match at(&catalog, key).and_then(text) {
                // a full ISO 8601 time
                Some(v) if v.contains('T') => {
                    d.time(
                        Some(&in_json_cell(&v)),
                        Some(TimeEncoding::Iso8601),
                        what,
                        inv,
                    );
                }
                // a bare date (`2009-05-04`): a day, not an instant
                Some(v) => {
                    d.fact(FactType::Text, Some(&in_json_cell(&v)), inv);
                    said.push(format!("{} on {}", what.to_lowercase(), in_json_cell(&v)));
                }
                None => {}
            }
        }
        d.interpretation = format!(
            "mapi_app_update pid {} of {path}: the App Store's update record of {bundle}{}. \
             The catalog entry is the store's cached listing (latest version offered, not \
             necessarily installed); timestamp and install_date are Apple absolute seconds.",
            raw(t, row, "pid").unwrap_or_default(),
            if said.is_empty() {
                String::new()
            } else {
                format!(": {}", said.join(", "))
            }
        );
        run.record(d)?;
    }
    if paged.truncated {
        run.ctx.unparsed(
            path,
            &format!("more than {count} mapi_app_update rows; the first {count} were recorded"),
            None,
        )?;
    }
    Ok(())
}

/// The App Store account an app was installed with — its Apple ID and DSID — observed as the
/// device owner's: the account the device's user signed in to the App Store with (`source`: the
/// file that says so).
pub(super) fn observe_purchaser(
    run: &Run<'_, '_>,
    inv: &Invoked,
    apple_id: Option<&str>,
    dsid: Option<&str>,
    app: &str,
    source: &str,
) -> Result<(), RuntimeError> {
    if let Some(a) = apple_id {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AppleId,
            a,
            inv,
            format!(
                "{a} is the Apple ID the App Store installed {app} with on this device ({source})."
            ),
        )?;
    }
    if let Some(n) = dsid {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Dsid,
            n,
            inv,
            format!(
                "{n} is the DSID (the Apple account's number) the App Store installed {app} with on this device{} ({source}).",
                apple_id.map(|a| format!(", the account {a}")).unwrap_or_default()
            ),
        )?;
    }
    Ok(())
}
