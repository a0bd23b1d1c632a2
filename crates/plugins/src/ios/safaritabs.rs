//! Safari's tabs: those open on this device (`…/Safari/BrowserState.db`, table `tabs`: iLEAPP's
//! `safariTabs`) and those open on the user's other devices signed in to the same Apple
//! account (`…/Safari/CloudTabs.db`: iCloud Tabs — `cloud_tab_devices`, `cloud_tabs`,
//! `cloud_tab_close_requests`: iLEAPP's `safariCloudTabs`).
//!
//! iCloud Tabs name the account's other devices — "Mia's MacBook Pro" — with the tabs open
//! on each: one phenomenon per device (name, UUID, type, ephemeral, last modified), per tab
//! (title, URL, the device, pinned, reader, last viewed) and per close request (the URL a device
//! was asked to close, which device); each device is a `cloud-device:<uuid>` device entity with
//! its name (a weak key, so a device of the case with the same name is suggested, not merged).
//! Local tabs: one phenomenon per tab (title, URL, the URL shown, last viewed, private,
//! opened from a link, window). Times are Core Data seconds since 2001 (`apple_seconds`);
//! columns are read by name (older Safaris lack the later ones), `url` required.
//!
//! Since iOS 15 Safari keeps its tabs in `…/Safari/SafariTabs.db` (iLEAPP's
//! `safariTabsDatabase`): the `bookmarks` rows with a URL that are not deleted, one phenomenon
//! each: title, URL, id, parent id and the parent's title (a tab group, or the `Public`,
//! `LocalProfile` or `Private` root), private browsing (the tab or an ancestor is a `Private`
//! root, found by a recursive query as iLEAPP finds it), last modified and closed (iLEAPP's
//! reading: seconds since 1970 when above 978307200, else Core Data seconds), the tab's UUID,
//! and from its attribute property lists (read through `sqlite_query`'s `plists`) last visit,
//! last viewed, opened from a link, tab index, muted, showing reader.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::callhistory::optional;
use super::{Draft, Run, core_data_encoding, raw};

/// Triage of every Safari `CloudTabs.db` and `BrowserState.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("CloudTabs.db", |find, path| {
        if path.contains("/Safari/") {
            cloud_tabs(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("BrowserState.db", |find, path| {
        if path.contains("/Safari/") {
            local_tabs(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("SafariTabs.db", |find, path| {
        if path.contains("/Safari/") {
            tabs_db(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// A flag column as words: `1` yes, `0` no, else not stored.
fn flag(v: Option<&str>) -> &'static str {
    match v {
        Some("1") => "yes",
        Some("0") => "no",
        _ => "not stored",
    }
}

fn cloud_tabs(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "cloud_tab_devices",
        "cloud_tabs",
        "cloud_tab_close_requests",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if !schema.require(run, "cloud_tab_devices", &["device_uuid"])?
        || !schema.require(run, "cloud_tabs", &["device_uuid", "url"])?
    {
        return Ok(());
    }
    let dc = schema.columns("cloud_tab_devices");
    let sql = format!(
        "SELECT device_uuid AS uuid, {}, {}, {}, {}, {} FROM cloud_tab_devices ORDER BY device_uuid",
        optional(&dc, "device_name", "name"),
        optional(&dc, "device_type_identifier", "kind"),
        optional(&dc, "is_ephemeral_device", "ephemeral"),
        optional(&dc, "has_duplicate_device_name", "duplicate"),
        optional(&dc, "last_modified", "modified"),
    );
    let Some((dinv, dt)) = run.query(path, &sql, 10_000)? else {
        return Ok(());
    };
    for row in &dt.rows {
        let Some(uuid) = raw(&dt, row, "uuid") else {
            continue;
        };
        let name = raw(&dt, row, "name");
        let label = name.clone().unwrap_or_else(|| uuid.clone());
        let mut d = Draft::new("device", format!("iCloud Tabs device {label}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&uuid), &dinv);
        d.fact(FactType::Name, name.as_deref(), &dinv);
        d.fact(
            FactType::Identifier,
            raw(&dt, row, "kind").as_deref(),
            &dinv,
        );
        let modified = raw(&dt, row, "modified");
        d.time(
            modified.as_deref(),
            core_data_encoding(modified.as_deref()),
            "iCloud Tabs device record last modified",
            &dinv,
        );
        d.interpretation = format!(
            "cloud_tab_devices of {path}: {label} (UUID {uuid}{}) is another device signed in to the same Apple account with Safari's iCloud Tabs on (ephemeral: {}); last_modified is Core Data seconds.",
            raw(&dt, row, "kind")
                .map(|k| format!(", type {k}"))
                .unwrap_or_default(),
            flag(dt.get(row, "ephemeral")),
        );
        run.record(d)?;
        if let Some(n) = &name {
            run.observe(
                &format!("cloud-device:{uuid}"),
                EntityKind::Device,
                n,
                IdType::DeviceName,
                n,
                &dinv,
                format!(
                    "The name of a device of the same Apple account, as Safari's iCloud Tabs list it ({uuid})."
                ),
            )?;
        }
    }

    let tc = schema.columns("cloud_tabs");
    let c = |col: &str, a: &str| crate::calls::column_or_null(&tc, "t.", col, a);
    let device_name = if dc.contains("device_name") {
        "d.device_name AS device"
    } else {
        "NULL AS device"
    };
    let sql = format!(
        "SELECT t.rowid AS id, t.device_uuid AS device_uuid, {device_name}, t.url AS url, {}, {}, {}, {}, {}, {} \
FROM cloud_tabs t LEFT JOIN cloud_tab_devices d ON d.device_uuid = t.device_uuid ORDER BY t.device_uuid, t.rowid",
        c("tab_uuid", "tab_uuid"),
        c("title", "title"),
        c("is_pinned", "pinned"),
        c("is_showing_reader", "reader"),
        c("last_viewed_time", "viewed"),
        c("scene_id", "scene"),
    );
    let Some((tinv, tt)) = run.query(path, &sql, 100_000)? else {
        return Ok(());
    };
    for row in &tt.rows {
        let Some(url) = raw(&tt, row, "url") else {
            continue;
        };
        let device = raw(&tt, row, "device")
            .or_else(|| raw(&tt, row, "device_uuid"))
            .unwrap_or_else(|| "an unknown device".into());
        let title = raw(&tt, row, "title");
        let mut d = Draft::new(
            "web",
            format!(
                "iCloud tab on {device}: {}",
                title.clone().unwrap_or_else(|| url.clone())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Url, Some(&url), &tinv);
        d.fact(FactType::Name, title.as_deref(), &tinv);
        d.fact(FactType::Name, raw(&tt, row, "device").as_deref(), &tinv);
        d.fact(
            FactType::Identifier,
            raw(&tt, row, "device_uuid").as_deref(),
            &tinv,
        );
        d.fact(
            FactType::Identifier,
            raw(&tt, row, "tab_uuid").as_deref(),
            &tinv,
        );
        let viewed = raw(&tt, row, "viewed");
        d.time(
            viewed.as_deref(),
            core_data_encoding(viewed.as_deref()),
            "Tab last viewed",
            &tinv,
        );
        d.interpretation = format!(
            "cloud_tabs row {} of {path}: a Safari tab open on {device}, another device of the same Apple account (pinned: {}, reader: {}); last_viewed_time is Core Data seconds.",
            tt.get(row, "id").unwrap_or("?"),
            flag(tt.get(row, "pinned")),
            flag(tt.get(row, "reader")),
        );
        run.record(d)?;
    }

    let rc = schema.columns("cloud_tab_close_requests");
    if rc.contains("url") && rc.contains("destination_device_uuid") {
        let sql = format!(
            "SELECT r.rowid AS id, r.url AS url, r.destination_device_uuid AS device_uuid, {device_name}, {} \
FROM cloud_tab_close_requests r LEFT JOIN cloud_tab_devices d ON d.device_uuid = r.destination_device_uuid ORDER BY r.rowid",
            crate::calls::column_or_null(&rc, "r.", "tab_uuid", "tab_uuid"),
        );
        if let Some((rinv, rt)) = run.query(path, &sql, 100_000)? {
            for row in &rt.rows {
                let Some(url) = raw(&rt, row, "url") else {
                    continue;
                };
                let device = raw(&rt, row, "device")
                    .or_else(|| raw(&rt, row, "device_uuid"))
                    .unwrap_or_else(|| "an unknown device".into());
                let mut d = Draft::new(
                    "web",
                    format!("iCloud tab close request to {device}: {url}"),
                );
                d.fact(FactType::Path, Some(path), find);
                d.fact(FactType::Url, Some(&url), &rinv);
                d.fact(FactType::Name, raw(&rt, row, "device").as_deref(), &rinv);
                d.fact(
                    FactType::Identifier,
                    raw(&rt, row, "device_uuid").as_deref(),
                    &rinv,
                );
                d.fact(
                    FactType::Identifier,
                    raw(&rt, row, "tab_uuid").as_deref(),
                    &rinv,
                );
                d.interpretation = format!(
                    "cloud_tab_close_requests row {} of {path}: {device} was asked, through iCloud Tabs, to close its tab of {url}.",
                    rt.get(row, "id").unwrap_or("?"),
                );
                run.record(d)?;
            }
        }
    }
    Ok(())
}

fn local_tabs(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["tabs"])? else {
        return Ok(());
    };
    if !schema.require(run, "tabs", &["url"])? {
        return Ok(());
    }
    let c = schema.columns("tabs");
    let sql = format!(
        "SELECT rowid AS id, url, {}, {}, {}, {}, {}, {}, {} FROM tabs ORDER BY rowid",
        optional(&c, "title", "title"),
        optional(&c, "user_visible_url", "shown"),
        optional(&c, "last_viewed_time", "viewed"),
        optional(&c, "private_browsing", "private"),
        optional(&c, "opened_from_link", "from_link"),
        optional(&c, "uuid", "uuid"),
        optional(&c, "browser_window_uuid", "window"),
    );
    let Some((inv, t)) = run.query(path, &sql, 100_000)? else {
        return Ok(());
    };
    for row in &t.rows {
        let Some(url) = raw(&t, row, "url").filter(|u| !u.is_empty()) else {
            continue;
        };
        let title = raw(&t, row, "title").filter(|s| !s.is_empty());
        let private = t.get(row, "private") == Some("1");
        let mut d = Draft::new(
            "web",
            format!(
                "Safari {}tab: {}",
                if private { "private " } else { "" },
                title.clone().unwrap_or_else(|| url.clone())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Url, Some(&url), &inv);
        d.fact(FactType::Name, title.as_deref(), &inv);
        d.fact(
            FactType::Url,
            raw(&t, row, "shown").filter(|s| *s != url).as_deref(),
            &inv,
        );
        d.fact(FactType::Identifier, raw(&t, row, "uuid").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "window").as_deref(),
            &inv,
        );
        let viewed = raw(&t, row, "viewed");
        d.time(
            viewed.as_deref(),
            core_data_encoding(viewed.as_deref()),
            "Tab last viewed",
            &inv,
        );
        d.interpretation = format!(
            "tabs row {} of {path}: a Safari tab open on this device (private browsing: {}, opened from a link: {}); last_viewed_time is Core Data seconds.",
            t.get(row, "id").unwrap_or("?"),
            flag(t.get(row, "private")),
            flag(t.get(row, "from_link")),
        );
        run.record(d)?;
    }
    Ok(())
}

/// The `bookmarks` tabs of iOS 15+'s `SafariTabs.db` (see the module documentation).
fn tabs_db(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["bookmarks"])? else {
        return Ok(());
    };
    if !schema.require(run, "bookmarks", &["id", "url", "parent"])? {
        return Ok(());
    }
    let c = schema.columns("bookmarks");
    let col = |name: &str, alias: &str| crate::calls::column_or_null(&c, "tab.", name, alias);
    let deleted = if c.contains("deleted") {
        "COALESCE(deleted, 0) = 0"
    } else {
        "1"
    };
    let tab_deleted = deleted.replace("deleted", "tab.deleted");
    // iLEAPP's reading of last_modified and date_closed: Unix seconds above 978307200, else
    // Core Data seconds (both the stored value, said in the interpretation)
    let sql = format!(
        "SELECT * FROM (WITH RECURSIVE ancestry(tab_id, ancestor_id, parent_id, ancestor_title, depth) AS (\
SELECT id, id, parent, title, 0 FROM bookmarks WHERE url IS NOT NULL AND trim(url) != '' AND {deleted} \
UNION ALL SELECT ancestry.tab_id, parent.id, parent.parent, parent.title, ancestry.depth + 1 FROM ancestry JOIN bookmarks AS parent ON parent.id = ancestry.parent_id WHERE ancestry.depth < 20), \
private AS (SELECT tab_id, MAX(CASE WHEN lower(ancestor_title) IN ('private', 'privatepinned') THEN 1 ELSE 0 END) AS is_private FROM ancestry GROUP BY tab_id) \
SELECT tab.id AS id, tab.url AS url, {}, tab.parent AS parent, COALESCE(parent.title, CAST(tab.parent AS TEXT)) AS parent_title, \
CASE WHEN lower(CAST(tab.parent AS TEXT)) = 'private' OR private.is_private = 1 THEN 1 ELSE 0 END AS private, {}, {}, {}, {}, {}, {} \
FROM bookmarks AS tab LEFT JOIN bookmarks AS parent ON parent.id = tab.parent LEFT JOIN private ON private.tab_id = tab.id \
WHERE tab.url IS NOT NULL AND trim(tab.url) != '' AND {tab_deleted})",
        col("title", "title"),
        col("last_modified", "modified"),
        col("date_closed", "closed"),
        col("external_uuid", "uuid"),
        col("order_index", "order_index"),
        col("extra_attributes", "extra"),
        col("local_attributes", "local"),
    );
    let Some(paged) = run.paged_with(path, &sql, "id", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let Some(url) = raw(t, row, "url") else {
            continue;
        };
        let title = raw(t, row, "title");
        let private = t.get(row, "private") == Some("1");
        let mut d = Draft::new(
            "web",
            format!(
                "Safari {}tab: {}",
                if private { "private " } else { "" },
                title.clone().unwrap_or_else(|| url.clone())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Url, Some(&url), inv);
        d.fact(FactType::Name, title.as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "parent").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "parent_title").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "uuid").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "private").as_deref(), inv);
        for (col, what) in [("modified", "Tab last modified"), ("closed", "Tab closed")] {
            let v = raw(t, row, col);
            let enc = v
                .as_deref()
                .and_then(|x| x.parse::<f64>().ok())
                .filter(|x| x.is_finite() && *x > 0.0)
                .map(|x| {
                    if x > 978_307_200.0 {
                        masf_graph::TimeEncoding::UnixSeconds
                    } else {
                        masf_graph::TimeEncoding::AppleSeconds
                    }
                });
            d.time(v.as_deref(), enc, what, inv);
        }
        // the attribute property lists
        let attrs = |col: &str| t.get(row, col).and_then(crate::outputs::plist_cell);
        let (extra, local) = (attrs("extra"), attrs("local"));
        let value = |v: &Option<serde_json::Value>, key: &str| {
            crate::outputs::json_cell_scalar(v.as_ref().and_then(|v| v.get(key)))
        };
        let mut said = Vec::new();
        for (v, key, what) in [
            (&local, "OpenedFromLink", "opened from a link"),
            (&local, "TabIndex", "tab index"),
            (&local, "IsMuted", "muted"),
            (&local, "ShowingReader", "showing reader"),
        ] {
            if let Some(x) = value(v, key) {
                d.fact(FactType::Text, Some(&x), inv);
                said.push(format!("{what} {x}"));
            }
        }
        for (v, key, what) in [
            (&local, "LastVisitTime", "Tab last visited"),
            (&extra, "DateLastViewed", "Tab last viewed"),
        ] {
            let x = value(v, key);
            d.time(
                x.as_deref(),
                x.as_ref().map(|_| masf_graph::TimeEncoding::Iso8601),
                what,
                inv,
            );
        }
        d.interpretation = format!(
            "bookmarks row {} of {path}: a Safari tab in {} (private browsing: {}){}; last_modified and date_closed are read as iLEAPP reads them (Unix seconds above 978307200, else Core Data seconds).",
            t.get(row, "id").unwrap_or("?"),
            t.get(row, "parent_title").unwrap_or("no parent"),
            if private { "yes" } else { "no" },
            if said.is_empty() {
                String::new()
            } else {
                format!("; {}", said.join(", "))
            },
        );
        run.record(d)?;
    }
    Ok(())
}
