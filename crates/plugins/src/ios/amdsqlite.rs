//! The App Store's own records of apps and accounts: its analytics store
//! (`mobile/Containers/Data/PluginKitPlugin/<id>/Documents/AMDSQLite.db.0`, the
//! AppleMediaDiscovery engagement extension's) and its user cache
//! (`mobile/Library/Caches/com.apple.appstored/storeUser.db`), with the fields iLEAPP's
//! `AMDSQLiteDB` ("App Usage Events", "Device Storage Capacity") and `storeUser` ("Installed
//! Apps", "Purchased Apps History") report.
//!
//! | store / table | phenomenon | fields |
//! |---|---|---|
//! | storeUser.db `account_events` | one `accounts` per row ("App Store account <Apple ID>") | DSID (`account_id`), Apple ID, altDSID, event type (as stored), active from and until, recorded (`active_start_time`, `active_end_time`, `timestamp`: Cocoa seconds) |
//! | storeUser.db `current_apps` | one `apps` per row ("App Store current app <name> (<bundle id>)") | bundle id, name, developer (`vendor_name`), version, bundle version, App Store id (`item_id`), storefront, system app (`is_system_app` labelled in the query), installed (`timestamp`) and deleted (`deletion_date`), Cocoa seconds |
//! | storeUser.db `purchase_history_apps` | one `apps` per row ("App Store purchase history: <title> (<bundle id>)") | App Store id, title, long title, bundle id, developer, product URL, genre, required capabilities (JSON as text), purchaser DSID and the Apple ID `account_events` gives it, hidden from the home screen and family shared (labelled), purchased (`date_purchased`, Cocoa seconds) |
//! | AMDSQLite.db.0 `AMDAppStoreUsageEvents` | one `app_usage` per event ("App Store usage event: <action> <app>") | time and creation time (Unix, milliseconds on the devices iLEAPP reads; read by size), type and its action (0 install or update, 1 uninstall, 2 open, labelled in the query; others as stored), App Store id (`adamId`), app version, foreground duration (as stored), user id; the app's name, bundle id and developer from `current_apps` (else `purchase_history_apps`) by App Store id, and the Apple ID of the user id from `account_events`, as iLEAPP joins them |
//! | AMDSQLite.db.0 `DeviceStorageUsage` | one `device` per row ("Device storage: <available> GB available of <total> GB") | time, creation time, device id, total and available capacity in GB |
//!
//! The usage events are the App Store extension's engagement log: an app installed, updated,
//! removed, or brought to the foreground for a time (Schramp, NFI; Pagano), for the user id the
//! App Store knew; they are not a complete record of app use. `current_apps` lists the apps
//! the App Store saw installed (a deletion date when removed); `purchase_history_apps` is the
//! account's purchase history, which keeps apps never or no longer installed on this device and
//! purchases shared by a family member: a row does not prove the app was on this phone. The
//! DeviceStorageUsage rows are the capacity the phone reported at those times. The names of an
//! event come from the same source's storeUser.db (a fact citing the `current_apps` or
//! `purchase_history_apps` query); an event whose App Store id neither table holds is named by
//! the id alone. The purchase token and artwork tokens of `purchase_history_apps` are never
//! selected.
//!
//! Schema drift: columns are taken by name (absent ones NULL: older storeUser.db stores have no
//! `is_system_app`, `vendor_name`, `alt_dsid`, some no `purchase_history_apps`; older analytics
//! stores no `creationTime` nor `DeviceStorageUsage`); a table a store lacks is not read; a
//! store with none of its tables, or whose table lacks its key columns, is noted, as is one that
//! is no database. Every table is read in pages.
//!
//! Identities: the Apple ID and DSID of each `account_events` row are the device owner's (the
//! account signed in to the App Store on this device). A purchaser DSID and an event's user id
//! are facts only (a purchase may be a family member's; a user id no account row names is not
//! known to be a DSID).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::select_columns;
use crate::drafts::{apple_seconds, unix_by_magnitude};

const ACCOUNTS: &str = "account_events";
const CURRENT: &str = "current_apps";
const PURCHASES: &str = "purchase_history_apps";
const EVENTS: &str = "AMDAppStoreUsageEvents";
const STORAGE: &str = "DeviceStorageUsage";

/// What storeUser.db said of an app: its name, bundle id and developer, with the call.
struct App {
    name: Option<String>,
    bundle: Option<String>,
    developer: Option<String>,
    inv: Invoked,
}

/// What the source's storeUser.db stores said, for the analytics events.
#[derive(Default)]
struct Known {
    /// `current_apps` by App Store id.
    installed: BTreeMap<String, App>,
    /// `purchase_history_apps` by App Store id.
    bought: BTreeMap<String, App>,
    /// The Apple ID of each DSID (`account_events`), with the call.
    accounts: BTreeMap<String, (String, Invoked)>,
}

/// Triage of the source's storeUser.db stores, then of its App Store analytics stores.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut known = Known::default();
    run.each("storeUser.db", |find, path| {
        if !path.ends_with("/com.apple.appstored/storeUser.db") {
            return Ok(());
        }
        store_user(run, find, path, &mut known)
    })?;
    run.each("AMDSQLite.db.0*", |find, path| {
        if !is_analytics(path) {
            return Ok(());
        }
        analytics(run, find, path, &known)
    })
}

/// Whether `path` is an App Store analytics store (`…/PluginKitPlugin/<id>/Documents/
/// AMDSQLite.db.0…`), not its write-ahead log or journal.
fn is_analytics(path: &str) -> bool {
    let name = file_name(path);
    path.contains("/Containers/Data/PluginKitPlugin/")
        && path.contains("/Documents/")
        && name.starts_with("AMDSQLite.db.0")
        && !["-wal", "-shm", "-journal"]
            .iter()
            .any(|s| name.ends_with(s))
}

/// `CASE <prefix><col> WHEN 1 THEN '<yes>' WHEN 0 THEN '<no>' END AS <alias>` where the table
/// has `col`, else `NULL AS <alias>`: a stored flag labelled in the query.
fn flag(
    cols: &BTreeSet<String>,
    prefix: &str,
    col: &str,
    (yes, no): (&str, &str),
    alias: &str,
) -> String {
    if cols.contains(col) {
        format!("CASE {prefix}{col} WHEN 1 THEN '{yes}' WHEN 0 THEN '{no}' END AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

fn store_user(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    known: &mut Known,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[ACCOUNTS, CURRENT, PURCHASES])? else {
        return Ok(());
    };
    let has = |t: &str| !schema.columns(t).is_empty();
    if !has(ACCOUNTS) && !has(CURRENT) && !has(PURCHASES) {
        run.ctx.unparsed(
            path,
            "could not parse the App Store's storeUser.db because it has none of the account_events, current_apps, purchase_history_apps tables (unexpected schema)",
            None,
        )?;
        return Ok(());
    }
    if has(ACCOUNTS) && schema.require(run, ACCOUNTS, &["account_id"])? {
        accounts(run, find, path, &schema, known)?;
    }
    if has(CURRENT) && schema.require(run, CURRENT, &["bundle_id"])? {
        current(run, find, path, &schema, known)?;
    }
    if has(PURCHASES) && schema.require(run, PURCHASES, &["store_item_id"])? {
        purchases(run, find, path, &schema, known)?;
    }
    Ok(())
}

fn accounts_sql(c: &BTreeSet<String>) -> String {
    format!(
        "SELECT a.rowid AS rk, a.account_id AS dsid, {} FROM {ACCOUNTS} a",
        select_columns(
            c,
            "a.",
            &[
                ("apple_id", "apple_id"),
                ("alt_dsid", "alt_dsid"),
                ("event_type", "event_type"),
                ("active_start_time", "active_start"),
                ("active_end_time", "active_end"),
                ("timestamp", "recorded"),
            ],
        )
    )
}

fn accounts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    known: &mut Known,
) -> Result<(), RuntimeError> {
    let sql = accounts_sql(&schema.columns(ACCOUNTS));
    let Some(paged) = run.paged(path, &sql, "rk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let dsid = t.get(row, "dsid");
        let apple_id = t.get(row, "apple_id");
        let Some(shown) = apple_id.or(dsid) else {
            continue;
        };
        let mut d = Draft::new("accounts", format!("App Store account {shown}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("apple_id", FactType::Account, "Apple ID"),
                ("dsid", FactType::Account, "DSID"),
                ("alt_dsid", FactType::Identifier, "altDSID"),
                ("event_type", FactType::Text, "event type"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("active_start", "App Store account active from"),
                ("active_end", "App Store account active until"),
                ("recorded", "App Store account event recorded"),
            ],
        );
        d.interpretation = format!(
            "{ACCOUNTS} row {} of storeUser.db: the App Store on this device was signed in to this Apple account ({}); the times are Cocoa seconds as stored, the event type Apple's number.",
            t.get(row, "rk").unwrap_or("?"),
            said.join(", "),
        );
        run.record(d)?;
        if let (Some(n), Some(a)) = (dsid, apple_id) {
            known
                .accounts
                .entry(n.to_string())
                .or_insert_with(|| (a.to_string(), inv.clone()));
        }
        if let Some(a) = apple_id {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::AppleId,
                a,
                inv,
                format!("{a} is the Apple ID signed in to the App Store on this device (account_events of storeUser.db)."),
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
                    "{n} is the DSID (the Apple account's number) signed in to the App Store on this device{} (account_events of storeUser.db).",
                    apple_id.map(|a| format!(", the account {a}")).unwrap_or_default()
                ),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "App Store account events")
}

fn current_sql(c: &BTreeSet<String>) -> String {
    format!(
        "SELECT c.rowid AS rk, c.bundle_id AS bundle_id, {}, {} FROM {CURRENT} c",
        select_columns(
            c,
            "c.",
            &[
                ("item_name", "item_name"),
                ("vendor_name", "vendor_name"),
                ("short_version", "short_version"),
                ("bundle_version", "bundle_version"),
                ("item_id", "item_id"),
                ("storefront", "storefront"),
                ("timestamp", "installed"),
                ("deletion_date", "deleted"),
            ],
        ),
        flag(
            c,
            "c.",
            "is_system_app",
            ("a system app", "not a system app"),
            "system"
        ),
    )
}

fn current(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    known: &mut Known,
) -> Result<(), RuntimeError> {
    let sql = current_sql(&schema.columns(CURRENT));
    let Some(paged) = run.paged(path, &sql, "rk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let bundle = t.get(row, "bundle_id");
        let name = t.get(row, "item_name");
        let title = match (name, bundle) {
            (Some(n), Some(b)) => format!("App Store current app {n} ({b})"),
            (Some(n), None) => format!("App Store current app {n}"),
            (None, b) => format!("App Store current app {}", b.unwrap_or("?")),
        };
        let mut d = Draft::new("apps", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("item_name", FactType::Name, "name"),
                ("bundle_id", FactType::Identifier, "bundle id"),
                ("vendor_name", FactType::Name, "developer"),
                ("short_version", FactType::Text, "version"),
                ("bundle_version", FactType::Text, "bundle version"),
                ("item_id", FactType::Identifier, "App Store id"),
                ("storefront", FactType::Identifier, "storefront"),
                ("system", FactType::Text, "is"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("installed", "App Store app installed (current_apps)"),
                ("deleted", "App Store app deleted (current_apps)"),
            ],
        );
        d.interpretation = format!(
            "{CURRENT} row {} of storeUser.db: an app the App Store saw installed on this device ({}){}; the times are Cocoa seconds as stored (timestamp, which iLEAPP reads as the install time{}).",
            t.get(row, "rk").unwrap_or("?"),
            said.join(", "),
            if t.get(row, "deleted").is_some() {
                "; it has a deletion date: it was removed"
            } else {
                ""
            },
            if t.get(row, "deleted").is_some() {
                ", and deletion_date"
            } else {
                ""
            },
        );
        run.record(d)?;
        if let Some(id) = t.get(row, "item_id") {
            known
                .installed
                .entry(id.to_string())
                .or_insert_with(|| App {
                    name: name.map(str::to_string),
                    bundle: bundle.map(str::to_string),
                    developer: t.get(row, "vendor_name").map(str::to_string),
                    inv: inv.clone(),
                });
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "App Store current apps")
}

fn purchases_sql(c: &BTreeSet<String>) -> String {
    let capabilities = if c.contains("required_capabilities") {
        "CAST(p.required_capabilities AS TEXT) AS capabilities"
    } else {
        "NULL AS capabilities"
    };
    format!(
        "SELECT p.rowid AS rk, p.store_item_id AS item_id, {}, {capabilities}, {}, {} FROM {PURCHASES} p",
        select_columns(
            c,
            "p.",
            &[
                ("title", "title"),
                ("long_title", "long_title"),
                ("bundle_id", "bundle_id"),
                ("developer_name", "developer"),
                ("product_url", "product_url"),
                ("genre_name", "genre"),
                ("purchaser_dsid", "purchaser_dsid"),
                ("date_purchased", "purchased"),
            ],
        ),
        flag(
            c,
            "p.",
            "hidden_from_springboard",
            ("hidden from the home screen", "shown on the home screen"),
            "hidden",
        ),
        flag(
            c,
            "p.",
            "family_shared",
            ("family shared", "not family shared"),
            "family",
        ),
    )
}

fn purchases(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    known: &mut Known,
) -> Result<(), RuntimeError> {
    let sql = purchases_sql(&schema.columns(PURCHASES));
    let Some(paged) = run.paged(path, &sql, "rk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let title = t.get(row, "title");
        let bundle = t.get(row, "bundle_id");
        let shown = match (title, bundle) {
            (Some(n), Some(b)) => format!("{n} ({b})"),
            (Some(n), None) => n.to_string(),
            (None, b) => b.or(t.get(row, "item_id")).unwrap_or("?").to_string(),
        };
        let mut d = Draft::new("apps", format!("App Store purchase history: {shown}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("title", FactType::Name, "title"),
                ("long_title", FactType::Name, "long title"),
                ("bundle_id", FactType::Identifier, "bundle id"),
                ("item_id", FactType::Identifier, "App Store id"),
                ("developer", FactType::Name, "developer"),
                ("product_url", FactType::Url, "App Store page"),
                ("genre", FactType::Text, "genre"),
                ("capabilities", FactType::Text, "required capabilities"),
                ("purchaser_dsid", FactType::Account, "purchaser DSID"),
                ("hidden", FactType::Text, "is"),
                ("family", FactType::Text, "is"),
            ],
        );
        let purchaser = t
            .get(row, "purchaser_dsid")
            .and_then(|n| known.accounts.get(n));
        if let Some((apple_id, ainv)) = purchaser {
            d.fact(FactType::Account, Some(apple_id.as_str()), ainv);
        }
        let at = t.get(row, "purchased");
        d.time(at, apple_seconds(at), "App Store purchase", inv);
        d.interpretation = format!(
            "{PURCHASES} row {} of storeUser.db: an app in the App Store account's purchase history ({}){}; the history keeps apps never or no longer installed on this device and purchases a family member shared, so it does not by itself put the app on this phone; date_purchased is Cocoa seconds.",
            t.get(row, "rk").unwrap_or("?"),
            said.join(", "),
            purchaser
                .map(|(a, _)| format!(", bought by the Apple ID {a} (account_events)"))
                .unwrap_or_default(),
        );
        run.record(d)?;
        if let Some(id) = t.get(row, "item_id") {
            known.bought.entry(id.to_string()).or_insert_with(|| App {
                name: title.map(str::to_string),
                bundle: bundle.map(str::to_string),
                developer: t.get(row, "developer").map(str::to_string),
                inv: inv.clone(),
            });
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "App Store purchase history rows")
}

fn analytics(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    known: &Known,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[EVENTS, STORAGE])? else {
        return Ok(());
    };
    let has = |t: &str| !schema.columns(t).is_empty();
    if !has(EVENTS) && !has(STORAGE) {
        run.ctx.unparsed(
            path,
            "could not parse the App Store analytics store because it has neither AMDAppStoreUsageEvents nor DeviceStorageUsage (unexpected schema)",
            None,
        )?;
        return Ok(());
    }
    if has(EVENTS) && schema.require(run, EVENTS, &["time", "type", "adamId"])? {
        events(run, find, path, &schema, known)?;
    }
    if has(STORAGE) && schema.require(run, STORAGE, &["time"])? {
        storage(run, find, path, &schema)?;
    }
    Ok(())
}

fn events_sql(c: &BTreeSet<String>) -> String {
    format!(
        "SELECT e.rowid AS rk, e.time AS event_time, e.type AS type, CASE CAST(e.type AS TEXT) WHEN '0' THEN 'install or update' WHEN '1' THEN 'uninstall' WHEN '2' THEN 'open' END AS action, e.adamId AS adam_id, {} FROM {EVENTS} e",
        select_columns(
            c,
            "e.",
            &[
                ("creationTime", "created"),
                ("appVersion", "version"),
                ("foregroundDuration", "foreground"),
                ("userId", "user_id"),
            ],
        )
    )
}

fn events(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    known: &Known,
) -> Result<(), RuntimeError> {
    let sql = events_sql(&schema.columns(EVENTS));
    let Some(paged) = run.paged(path, &sql, "rk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let adam = t.get(row, "adam_id");
        let app = adam.and_then(|a| known.installed.get(a).or_else(|| known.bought.get(a)));
        let action = t
            .get(row, "action")
            .map(str::to_string)
            .unwrap_or_else(|| format!("type {}", t.get(row, "type").unwrap_or("?")));
        let name = app
            .and_then(|a| a.name.clone().or_else(|| a.bundle.clone()))
            .unwrap_or_else(|| format!("app {}", adam.unwrap_or("?")));
        let mut d = Draft::new(
            "app_usage",
            format!("App Store usage event: {action} {name}"),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("type", FactType::Text, "type"),
                ("action", FactType::Text, "action"),
                ("adam_id", FactType::Identifier, "App Store id (adamId)"),
                ("version", FactType::Text, "app version"),
                (
                    "foreground",
                    FactType::Text,
                    "foreground duration (as stored)",
                ),
                ("user_id", FactType::Account, "user id"),
            ],
        );
        if let Some(a) = app {
            d.fact(FactType::Name, a.name.as_deref(), &a.inv);
            d.fact(FactType::Identifier, a.bundle.as_deref(), &a.inv);
            d.fact(FactType::Name, a.developer.as_deref(), &a.inv);
        }
        let account = t.get(row, "user_id").and_then(|u| known.accounts.get(u));
        if let Some((apple_id, ainv)) = account {
            d.fact(FactType::Account, Some(apple_id.as_str()), ainv);
        }
        d.times_of(
            t,
            row,
            inv,
            unix_by_magnitude,
            &[
                ("event_time", "App Store usage event"),
                ("created", "App Store usage event created"),
            ],
        );
        d.interpretation = format!(
            "{EVENTS} row {} of {}: the App Store's engagement extension logged {action} of {} ({}); time and creationTime are Unix times read by their size (milliseconds on the devices iLEAPP reads). {}{}",
            t.get(row, "rk").unwrap_or("?"),
            file_name(path),
            match app {
                Some(a) => format!(
                    "{}{}",
                    a.name.as_deref().or(a.bundle.as_deref()).unwrap_or("?"),
                    a.bundle
                        .as_deref()
                        .filter(|_| a.name.is_some())
                        .map(|b| format!(" ({b})"))
                        .unwrap_or_default()
                ),
                None => format!("the app with App Store id {}", adam.unwrap_or("?")),
            },
            said.join(", "),
            match app {
                Some(_) =>
                    "The app's name, bundle id and developer are storeUser.db's for that App Store id (current_apps, else purchase_history_apps). ",
                None =>
                    "Neither current_apps nor purchase_history_apps of storeUser.db holds that App Store id: the id alone names the app. ",
            },
            match account {
                Some((a, _)) =>
                    format!("The user id is the DSID of the Apple ID {a} (account_events)."),
                None => "No account_events row has the user id.".to_string(),
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "App Store usage events")
}

fn storage_sql(c: &BTreeSet<String>) -> String {
    format!(
        "SELECT d.rowid AS rk, d.time AS recorded, {} FROM {STORAGE} d",
        select_columns(
            c,
            "d.",
            &[
                ("creationTime", "created"),
                ("deviceId", "device_id"),
                ("totalDeviceCapacityGB", "total_gb"),
                ("availableDeviceCapacityGB", "available_gb"),
            ],
        )
    )
}

fn storage(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = storage_sql(&schema.columns(STORAGE));
    let Some(paged) = run.paged(path, &sql, "rk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let mut d = Draft::new(
            "device",
            format!(
                "Device storage: {} GB available of {} GB",
                t.get(row, "available_gb").unwrap_or("?"),
                t.get(row, "total_gb").unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("available_gb", FactType::Text, "available GB"),
                ("total_gb", FactType::Text, "total GB"),
                ("device_id", FactType::Identifier, "device id"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_by_magnitude,
            &[
                ("recorded", "Device storage capacity recorded"),
                ("created", "Device storage capacity row created"),
            ],
        );
        d.interpretation = format!(
            "{STORAGE} row {} of {}: the storage the phone reported to the App Store's analytics at that time ({}); Unix times read by their size.",
            t.get(row, "rk").unwrap_or("?"),
            file_name(path),
            said.join(", "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "device storage rows")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn analytics_stores_are_told_from_their_logs() {
        let p = "/private/var/mobile/Containers/Data/PluginKitPlugin/X/Documents/AMDSQLite.db.0";
        assert!(is_analytics(p));
        assert!(!is_analytics(&format!("{p}-wal")));
        assert!(!is_analytics("/private/var/mobile/Library/AMDSQLite.db.0"));
    }

    #[test]
    fn queries_follow_the_schema() {
        let old = cols(&["pid", "bundle_id", "item_id", "item_name", "timestamp"]);
        let q = current_sql(&old);
        assert!(q.contains("NULL AS vendor_name"), "{q}");
        assert!(q.contains("NULL AS system"), "{q}");
        assert!(q.contains("c.timestamp AS installed"), "{q}");
        let new = cols(&["bundle_id", "is_system_app"]);
        assert!(current_sql(&new).contains("CASE c.is_system_app WHEN 1 THEN 'a system app'"));
        let p = purchases_sql(&cols(&["store_item_id", "purchase_token", "title"]));
        assert!(!p.contains("purchase_token"), "{p}");
        assert!(p.contains("NULL AS capabilities"), "{p}");
        let e = events_sql(&cols(&["time", "type", "adamId", "appVersion"]));
        assert!(e.contains("NULL AS created"), "{e}");
        assert!(e.contains("e.appVersion AS version"), "{e}");
    }
}
