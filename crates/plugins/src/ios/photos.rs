//! The Photos library (`Media/PhotoData/Photos.sqlite`): one phenomenon per asset with the
//! fields of iLEAPP's Photos.sqlite modules (`Ph1` basic asset data, `Ph3` trashed, `Ph4`
//! hidden, `Ph5` locations, `Ph6` viewed): file (directory and name in the library), original
//! file name and size, kind, type, dimensions, duration, times (created, added, modified,
//! trashed, last viewed, last shared), GPS latitude/longitude, time zone, EXIF time stamp,
//! importing and editing app, title, view/play/share counts, hidden/favourite/trashed flags, the
//! cloud master's original file name, GUID and import session (`ZCLOUDMASTER` by `ZMASTER`,
//! where the library has it; iLEAPP notes the session as a possible AirDrop marker), and
//! from `ZEXTENDEDATTRIBUTES` (iOS 15 and later) camera make, model, lens, ISO, aperture,
//! shutter speed, focal length, flash.
//!
//! Schema drift is keyed on the tables and columns found, not on a version: the asset table is
//! `ZGENERICASSET` (iOS 11–13) or `ZASSET` (iOS 14+); the additional attributes are joined by
//! the asset's `ZADDITIONALATTRIBUTES` when it has that column, else by their own `ZASSET`; the
//! importing app is `ZCREATORBUNDLEID` (to iOS 13) or `ZIMPORTEDBYBUNDLEIDENTIFIER`; every other
//! column is read when present. A library with neither asset table, or one lacking `Z_PK`,
//! `ZDATECREATED`, `ZDIRECTORY` or `ZFILENAME`, is noted as unparsed, naming what is missing.
//!
//! Where Photos reverse-geocoded an asset (`ZADDITIONALASSETATTRIBUTES.ZREVERSELOCATIONDATA`,
//! an archived `PLRevGeoLocationInfo`, read with `sqlite_query`'s `plists` option): the postal
//! address it holds (`_street`, `_subLocality`, `_city`, `_subAdministrativeArea`, `_state`,
//! `_postalCode`, `_country`, `_ISOCountryCode`, as iLEAPP's Photos modules report them) and
//! whether Photos marks the place as home (`isHome`).
//!
//! `ZLATITUDE`/`ZLONGITUDE` of -180 is Apple's "no location" value: kept in the row's
//! interpretation, never recorded as a coordinate. Times are Core Data seconds since 2001.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, raw, summarise};
use crate::calls::column_or_null;
use crate::outputs::Table;

/// Triage of every `Photos.sqlite` of the source (the camera roll's and any other library's).
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Photos.sqlite", |find, path| {
        if path.contains("/PhotoData/") || path.contains(".photoslibrary/") {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// Adds a fact per present `(alias, type, label)` of `spec` and returns `"label value"` of
/// each, for the interpretation ([`Draft::fields`]).
pub(super) fn fields(
    d: &mut Draft,
    t: &Table,
    row: &[Option<String>],
    inv: &Invoked,
    spec: &[(&str, FactType, &str)],
) -> Vec<String> {
    d.fields(t, row, inv, spec)
}

/// Adds the Core Data times of `spec` (`(alias, description)`).
pub(super) fn times(
    d: &mut Draft,
    t: &Table,
    row: &[Option<String>],
    inv: &Invoked,
    spec: &[(&str, &str)],
) {
    for (alias, desc) in spec {
        let v = raw(t, row, alias);
        d.time(v.as_deref(), core_data_encoding(v.as_deref()), desc, inv);
    }
}

/// Whether a raw coordinate is a real one (not missing, not Apple's -180 "no location").
pub(super) fn coordinate(v: Option<&str>) -> Option<f64> {
    let f: f64 = v?.trim().parse().ok()?;
    (f.is_finite() && f != -180.0 && (-180.0..=180.0).contains(&f)).then_some(f)
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZASSET",
        "ZGENERICASSET",
        "ZADDITIONALASSETATTRIBUTES",
        "ZEXTENDEDATTRIBUTES",
        "ZCLOUDMASTER",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    let asset_table = if !schema.columns("ZASSET").is_empty() {
        "ZASSET"
    } else if !schema.columns("ZGENERICASSET").is_empty() {
        "ZGENERICASSET"
    } else {
        run.ctx.unparsed(
            path,
            "could not parse the Photos library because it has neither a ZASSET (iOS 14+) nor a ZGENERICASSET (iOS 11-13) table",
            None,
        )?;
        return Ok(());
    };
    if !schema.require(
        run,
        asset_table,
        &["Z_PK", "ZDATECREATED", "ZDIRECTORY", "ZFILENAME"],
    )? {
        return Ok(());
    }
    let a = schema.columns(asset_table);
    let x = schema.columns("ZADDITIONALASSETATTRIBUTES");
    let e = schema.columns("ZEXTENDEDATTRIBUTES");
    let cm = schema.columns("ZCLOUDMASTER");
    let ac = |c: &str, alias: &str| column_or_null(&a, "a.", c, alias);
    let xc = |c: &str, alias: &str| column_or_null(&x, "x.", c, alias);
    let ec = |c: &str, alias: &str| column_or_null(&e, "e.", c, alias);
    let mut cols = vec![
        "a.Z_PK AS pk".to_string(),
        "a.ZDIRECTORY || '/' || a.ZFILENAME AS file".to_string(),
        "a.ZDATECREATED AS created".to_string(),
    ];
    for (c, alias) in [
        ("ZUUID", "uuid"),
        ("ZKIND", "kind"),
        ("ZKINDSUBTYPE", "subtype"),
        ("ZUNIFORMTYPEIDENTIFIER", "uti"),
        ("ZADDEDDATE", "added"),
        ("ZMODIFICATIONDATE", "modified"),
        ("ZTRASHEDDATE", "trashed_date"),
        ("ZLASTSHAREDDATE", "shared_date"),
        ("ZTRASHEDSTATE", "trashed"),
        ("ZHIDDEN", "hidden"),
        ("ZFAVORITE", "favorite"),
        ("ZLATITUDE", "latitude"),
        ("ZLONGITUDE", "longitude"),
        ("ZWIDTH", "width"),
        ("ZHEIGHT", "height"),
        ("ZDURATION", "duration"),
    ] {
        cols.push(ac(c, alias));
    }
    let importer = if x.contains("ZIMPORTEDBYBUNDLEIDENTIFIER") {
        "ZIMPORTEDBYBUNDLEIDENTIFIER"
    } else {
        "ZCREATORBUNDLEID"
    };
    for (c, alias) in [
        ("ZORIGINALFILENAME", "original_name"),
        ("ZORIGINALFILESIZE", "original_size"),
        ("ZTIMEZONENAME", "tz_name"),
        ("ZTIMEZONEOFFSET", "tz_offset"),
        ("ZEXIFTIMESTAMPSTRING", "exif_time"),
        (importer, "imported_by"),
        ("ZEDITORBUNDLEID", "edited_by"),
        ("ZTITLE", "title"),
        ("ZVIEWCOUNT", "views"),
        ("ZPLAYCOUNT", "plays"),
        ("ZSHARECOUNT", "shares"),
        ("ZLASTVIEWEDDATE", "viewed"),
        ("ZREVERSELOCATIONDATA", "revgeo"),
    ] {
        cols.push(xc(c, alias));
    }
    for (c, alias) in [
        ("ZCAMERAMAKE", "make"),
        ("ZCAMERAMODEL", "model"),
        ("ZLENSMODEL", "lens"),
        ("ZISO", "iso"),
        ("ZAPERTURE", "aperture"),
        ("ZSHUTTERSPEED", "shutter"),
        ("ZFOCALLENGTH", "focal"),
        ("ZFLASHFIRED", "flash"),
    ] {
        cols.push(ec(c, alias));
    }
    let cloud = cm.contains("Z_PK") && a.contains("ZMASTER");
    for (c, alias) in [
        ("ZORIGINALFILENAME", "cloud_name"),
        ("ZIMPORTSESSIONID", "import_session"),
        ("ZCLOUDMASTERGUID", "cloud_guid"),
    ] {
        cols.push(if cloud {
            column_or_null(&cm, "cm.", c, alias)
        } else {
            format!("NULL AS {alias}")
        });
    }
    let mut from = format!("FROM {asset_table} a");
    if cloud {
        from.push_str(" LEFT JOIN ZCLOUDMASTER cm ON cm.Z_PK = a.ZMASTER");
    }
    let has = |set: &BTreeSet<String>, c: &str| set.contains(c);
    if has(&x, "Z_PK") && has(&a, "ZADDITIONALATTRIBUTES") {
        from.push_str(
            " LEFT JOIN ZADDITIONALASSETATTRIBUTES x ON x.Z_PK = a.ZADDITIONALATTRIBUTES",
        );
    } else if has(&x, "ZASSET") {
        from.push_str(" LEFT JOIN ZADDITIONALASSETATTRIBUTES x ON x.ZASSET = a.Z_PK");
    } else {
        // no additional attributes: every x. column is NULL already
    }
    if has(&e, "ZASSET") {
        from.push_str(" LEFT JOIN ZEXTENDEDATTRIBUTES e ON e.ZASSET = a.Z_PK");
    }
    let select = format!("SELECT {} {from}", cols.join(", "));
    let Some(paged) = run.paged_with(path, &select, "a.Z_PK", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        record(run, find, path, asset_table, inv, t, row)?;
    }
    if paged.truncated {
        summarise(
            run,
            "media",
            path,
            find,
            "photo library assets",
            &format!(
                "SELECT count(*) AS total, min(NULLIF(ZDATECREATED, 0)) AS first_time, max(ZDATECREATED) AS last_time FROM {asset_table}"
            ),
            core_data_encoding,
            "First asset created",
            "Last asset created",
        )?;
    }
    Ok(())
}

fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    table: &str,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let pk = raw(t, row, "pk").unwrap_or_default();
    let file = raw(t, row, "file");
    let flag = |alias: &str| raw(t, row, alias).is_some_and(|v| v != "0");
    let kind = match raw(t, row, "kind").as_deref() {
        Some("0") => "photo",
        Some("1") => "video",
        _ => "asset",
    };
    let mut d = Draft::new(
        "media",
        format!(
            "Photos library {kind} {pk}: {}",
            file.as_deref().unwrap_or("(no file name)")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Path, file.as_deref(), inv);
    let mut said = fields(
        &mut d,
        t,
        row,
        inv,
        &[
            ("original_name", FactType::Name, "original file name"),
            ("original_size", FactType::Count, "original size (bytes)"),
            (
                "cloud_name",
                FactType::Name,
                "cloud master original file name",
            ),
            ("import_session", FactType::Identifier, "import session"),
            ("cloud_guid", FactType::Identifier, "cloud master GUID"),
            ("uuid", FactType::Identifier, "UUID"),
            ("uti", FactType::Identifier, "type"),
            ("width", FactType::Count, "width"),
            ("height", FactType::Count, "height"),
            ("duration", FactType::Text, "duration (s)"),
            ("tz_name", FactType::Text, "time zone"),
            ("tz_offset", FactType::Count, "time zone offset (s)"),
            ("exif_time", FactType::Text, "EXIF time stamp"),
            ("imported_by", FactType::Identifier, "imported by"),
            ("edited_by", FactType::Identifier, "edited by"),
            ("title", FactType::Text, "title"),
            ("views", FactType::Count, "view count"),
            ("plays", FactType::Count, "play count"),
            ("shares", FactType::Count, "share count"),
            ("make", FactType::Name, "camera make"),
            ("model", FactType::Name, "camera model"),
            ("lens", FactType::Text, "lens"),
            ("iso", FactType::Count, "ISO"),
            ("aperture", FactType::Text, "aperture"),
            ("shutter", FactType::Text, "shutter speed (s)"),
            ("focal", FactType::Text, "focal length (mm)"),
            ("flash", FactType::Count, "flash fired"),
        ],
    );
    let lat = raw(t, row, "latitude");
    let lon = raw(t, row, "longitude");
    match (coordinate(lat.as_deref()), coordinate(lon.as_deref())) {
        (Some(_), Some(_)) => {
            d.fact(FactType::Text, lat.as_deref(), inv);
            d.fact(FactType::Text, lon.as_deref(), inv);
            said.push(format!(
                "GPS latitude {} longitude {}",
                lat.as_deref().unwrap_or_default(),
                lon.as_deref().unwrap_or_default()
            ));
        }
        _ => said.push(format!(
            "no location (ZLATITUDE {}, ZLONGITUDE {}: -180 is Apple's no-location value)",
            lat.as_deref().unwrap_or("NULL"),
            lon.as_deref().unwrap_or("NULL")
        )),
    }
    if let Some(place) = t
        .get(row, "revgeo")
        .and_then(|c| c.strip_prefix("plist:"))
        .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok())
    {
        let address = postal_address(&place);
        for (_, v) in &address {
            d.fact(FactType::Text, Some(&crate::outputs::in_json_cell(v)), inv);
        }
        if !address.is_empty() {
            said.push(format!(
                "Photos reverse-geocoded it to {}",
                address
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if find_key(&place, "isHome").and_then(serde_json::Value::as_bool) == Some(true) {
            said.push("a place Photos marks as home (isHome)".to_string());
        }
    }
    times(
        &mut d,
        t,
        row,
        inv,
        &[
            ("created", "Photo created"),
            ("added", "Photo added to the library"),
            ("modified", "Photo modified"),
            ("trashed_date", "Photo trashed"),
            ("viewed", "Photo last viewed"),
            ("shared_date", "Photo last shared"),
        ],
    );
    let mut flags = Vec::new();
    if flag("hidden") {
        flags.push("hidden (ZHIDDEN 1)");
    }
    if flag("trashed") {
        flags.push("in Recently Deleted (ZTRASHEDSTATE 1)");
    }
    if flag("favorite") {
        flags.push("a favourite (ZFAVORITE 1)");
    }
    d.interpretation = format!(
        "{table} Z_PK {pk} of {path}: a {kind} stored as {} under the Media folder, {}; {}. Times are Core Data seconds since 2001.",
        file.as_deref().unwrap_or("(no file name)"),
        if flags.is_empty() {
            "not hidden, not trashed".to_string()
        } else {
            flags.join(", ")
        },
        said.join("; "),
    );
    run.record(d)
}

/// The members of a reverse-geocoded postal address, in the order an address is written.
const POSTAL: [(&str, &str); 8] = [
    ("_street", "street"),
    ("_subLocality", "sub-locality"),
    ("_city", "city"),
    ("_subAdministrativeArea", "sub-administrative area"),
    ("_state", "state"),
    ("_postalCode", "postal code"),
    ("_country", "country"),
    ("_ISOCountryCode", "ISO country code"),
];

/// The first value of `key` anywhere in `v` (depth first).
fn find_key<'v>(v: &'v serde_json::Value, key: &str) -> Option<&'v serde_json::Value> {
    match v {
        serde_json::Value::Object(m) => m
            .get(key)
            .or_else(|| m.values().find_map(|x| find_key(x, key))),
        serde_json::Value::Array(a) => a.iter().find_map(|x| find_key(x, key)),
        _ => None,
    }
}

/// The postal address of an archived `PLRevGeoLocationInfo`: (what, value) of each member
/// written, wherever the archive nests it.
fn postal_address(place: &serde_json::Value) -> Vec<(&'static str, String)> {
    POSTAL
        .iter()
        .filter_map(|(k, what)| {
            find_key(place, k)
                .and_then(serde_json::Value::as_str)
                .filter(|v| !v.trim().is_empty())
                .map(|v| (*what, v.to_string()))
        })
        .collect()
}
