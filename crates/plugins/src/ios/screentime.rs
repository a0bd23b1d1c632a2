//! Screen Time (`com.apple.remotemanagementd/RMAdminStore-Local.sqlite`, and its
//! `-Cloud` twin), with the fields iLEAPP's `screentime` modules and plaso's `ios_screentime`
//! report:
//!
//! - one phenomenon per `ZUSAGETIMEDITEM` (an app or web domain's time in one usage block):
//!   bundle identifier, domain, seconds, the category (`ZUSAGECATEGORY.ZIDENTIFIER`, with the
//!   name iLEAPP gives the `DH…` codes), the block's start (Core Data seconds), its pickups
//!   without app usage, and the device and user of the block (`ZUSAGE` → `ZCOREDEVICE`,
//!   `ZCOREUSER`): device name, identifier, platform; user's given and family name, Apple ID,
//!   DSID;
//! - one per `ZCOREUSER` (given and family name, Apple ID, DSID, alt DSID, family member type,
//!   family organiser and parent flags) and one per `ZCOREDEVICE` (name, identifier,
//!   platform): the user's devices that report to Screen Time (an Apple Watch, a Mac).
//!
//! Identities: the `ZCOREUSER` whose `ZLOCALUSERDEVICESTATE` is set is this device's user
//! (`owner`: Apple ID, DSID, given and family name as display name); the others are family
//! members (`screentime:<DSID>`). Columns are taken by name; a database lacking the keys the
//! joins need is noted as unparsed with the missing columns.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, core_data_encoding, raw, summarise};
use crate::calls::column_or_null;

/// The database names.
pub const NAMES: [&str; 2] = ["RMAdminStore-Local.sqlite", "RMAdminStore-Cloud.sqlite"];

/// Screen Time's category codes with the names iLEAPP shows.
const CATEGORIES: [(&str, &str); 12] = [
    ("DH0011", "Unspecified1"),
    ("DH0012", "Unspecified2"),
    ("DH0013", "Unspecified3"),
    ("DH1001", "Games"),
    ("DH1002", "Social Networking"),
    ("DH1003", "Entertainment"),
    ("DH1004", "Creativity"),
    ("DH1005", "Productivity"),
    ("DH1006", "Education"),
    ("DH1007", "Reading & Reference"),
    ("DH1008", "Health & Fitness"),
    ("DH1009", "Other"),
];

/// A device's platform code.
fn platform(code: Option<&str>) -> &'static str {
    match code {
        Some("0") => "unknown platform",
        Some("1") => "macOS",
        Some("2") => "iOS",
        Some("4") => "watchOS",
        _ => "platform not recorded",
    }
}

/// Triage of every Screen Time store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for name in NAMES {
        run.each(name, |find, path| one(run, find, path))?;
    }
    Ok(())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZUSAGETIMEDITEM",
        "ZUSAGECATEGORY",
        "ZUSAGEBLOCK",
        "ZUSAGE",
        "ZCOREDEVICE",
        "ZCOREUSER",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    for (table, required) in [
        (
            "ZUSAGETIMEDITEM",
            &["Z_PK", "ZCATEGORY", "ZTOTALTIMEINSECONDS"][..],
        ),
        ("ZUSAGECATEGORY", &["Z_PK", "ZBLOCK"][..]),
        ("ZUSAGEBLOCK", &["Z_PK", "ZUSAGE", "ZSTARTDATE"][..]),
        ("ZUSAGE", &["Z_PK", "ZDEVICE", "ZUSER"][..]),
        ("ZCOREDEVICE", &["Z_PK"][..]),
        ("ZCOREUSER", &["Z_PK"][..]),
    ] {
        if !schema.require(run, table, required)? {
            return Ok(());
        }
    }
    users(run, find, path, &schema)?;
    devices(run, find, path, &schema)?;
    items(run, find, path, &schema)
}

fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let u = schema.columns("ZCOREUSER");
    let c = |col: &str, alias: &str| column_or_null(&u, "", col, alias);
    let sql = format!(
        "SELECT Z_PK AS pk, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM ZCOREUSER",
        c("ZGIVENNAME", "given"),
        c("ZFAMILYNAME", "family"),
        c("ZAPPLEID", "apple_id"),
        c("ZDSID", "dsid"),
        c("ZALTDSID", "alt_dsid"),
        c("ZFAMILYMEMBERTYPE", "member"),
        c("ZISFAMILYORGANIZER", "organizer"),
        c("ZISPARENT", "parent"),
        c("ZLOCALUSERDEVICESTATE", "local"),
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let given = raw(t, row, "given");
        let family = raw(t, row, "family");
        let apple_id = raw(t, row, "apple_id");
        let dsid = raw(t, row, "dsid");
        let local = raw(t, row, "local").is_some();
        let name = match (&given, &family) {
            (Some(g), Some(f)) => Some(format!("{g} {f}")),
            (Some(n), None) | (None, Some(n)) => Some(n.clone()),
            _ => None,
        };
        let shown = name
            .clone()
            .or(apple_id.clone())
            .or(dsid.clone())
            .unwrap_or_else(|| format!("user {pk}"));
        let mut d = Draft::new("accounts", format!("Screen Time user {shown}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, given.as_deref(), inv);
        d.fact(FactType::Name, family.as_deref(), inv);
        d.fact(FactType::Email, apple_id.as_deref(), inv);
        d.fact(FactType::Account, dsid.as_deref(), inv);
        let alt = raw(t, row, "alt_dsid");
        d.fact(FactType::Identifier, alt.as_deref(), inv);
        let member = raw(t, row, "member");
        d.fact(FactType::Text, member.as_deref(), inv);
        d.interpretation = format!(
            "ZCOREUSER row {pk} of {path}: given name {}, family name {}, Apple ID {}, DSID {}, alt DSID {}, family member type {}, family organiser {}, parent {}; {}.",
            given.as_deref().unwrap_or("(none)"),
            family.as_deref().unwrap_or("(none)"),
            apple_id.as_deref().unwrap_or("(none)"),
            dsid.as_deref().unwrap_or("(none)"),
            alt.as_deref().unwrap_or("(none)"),
            member.as_deref().unwrap_or("(none)"),
            raw(t, row, "organizer").as_deref().unwrap_or("?"),
            raw(t, row, "parent").as_deref().unwrap_or("?"),
            if local {
                "its ZLOCALUSERDEVICESTATE is set: the user of this device"
            } else {
                "no local device state: another member of the family"
            },
        );
        run.record(d)?;
        let context = if local {
            "owner".to_string()
        } else if let Some(n) = &dsid {
            format!("screentime:{n}")
        } else {
            continue;
        };
        let label = if local {
            "device owner".to_string()
        } else {
            shown.clone()
        };
        let why = |what: &str| {
            format!(
                "{what} of the Screen Time user {shown} (ZCOREUSER {pk}, {}).",
                if local {
                    "the user of this device"
                } else {
                    "a member of the device user's family"
                }
            )
        };
        run.observe_person(
            &context,
            &label,
            inv,
            &why,
            &[
                (IdType::AppleId, apple_id.as_deref(), "The Apple ID"),
                (IdType::Dsid, dsid.as_deref(), "The DSID"),
                (IdType::DisplayName, name.as_deref(), "The name"),
            ],
        )?;
    }
    Ok(())
}

fn devices(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZCOREDEVICE");
    let c = |col: &str, alias: &str| column_or_null(&cols, "", col, alias);
    let sql = format!(
        "SELECT Z_PK AS pk, {}, {}, {}, {} FROM ZCOREDEVICE",
        c("ZNAME", "name"),
        c("ZIDENTIFIER", "ident"),
        c("ZPLATFORM", "platform"),
        c("ZLOCALUSERDEVICESTATE", "local"),
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let name = raw(t, row, "name");
        let ident = raw(t, row, "ident");
        let code = raw(t, row, "platform");
        let mut d = Draft::new(
            "device",
            format!(
                "Screen Time device {}",
                name.as_deref().or(ident.as_deref()).unwrap_or(&pk)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, name.as_deref(), inv);
        d.fact(FactType::Identifier, ident.as_deref(), inv);
        d.fact(FactType::Count, code.as_deref(), inv);
        d.interpretation = format!(
            "ZCOREDEVICE row {pk} of {path}: a device reporting to the user's Screen Time, named {}, identifier {}, platform {} ({}){}.",
            name.as_deref().unwrap_or("(none)"),
            ident.as_deref().unwrap_or("(none)"),
            code.as_deref().unwrap_or("?"),
            platform(code.as_deref()),
            if raw(t, row, "local").is_some() {
                "; its ZLOCALUSERDEVICESTATE is set"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    Ok(())
}

fn items(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let it = schema.columns("ZUSAGETIMEDITEM");
    let cat = schema.columns("ZUSAGECATEGORY");
    let blk = schema.columns("ZUSAGEBLOCK");
    let dev = schema.columns("ZCOREDEVICE");
    let usr = schema.columns("ZCOREUSER");
    let sql = format!(
        "SELECT i.Z_PK AS pk, i.ZTOTALTIMEINSECONDS AS seconds, {}, {}, {}, b.ZSTARTDATE AS start, {}, {}, {}, {}, {}, {}, {}, {} \
FROM ZUSAGETIMEDITEM i LEFT JOIN ZUSAGECATEGORY c ON c.Z_PK = i.ZCATEGORY \
LEFT JOIN ZUSAGEBLOCK b ON b.Z_PK = c.ZBLOCK LEFT JOIN ZUSAGE u ON u.Z_PK = b.ZUSAGE \
LEFT JOIN ZCOREDEVICE d ON d.Z_PK = u.ZDEVICE LEFT JOIN ZCOREUSER p ON p.Z_PK = u.ZUSER",
        column_or_null(&it, "i.", "ZBUNDLEIDENTIFIER", "bundle"),
        column_or_null(&it, "i.", "ZDOMAIN", "domain"),
        column_or_null(&cat, "c.", "ZIDENTIFIER", "category"),
        column_or_null(
            &blk,
            "b.",
            "ZNUMBEROFPICKUPSWITHOUTAPPLICATIONUSAGE",
            "pickups"
        ),
        column_or_null(&dev, "d.", "ZNAME", "device"),
        column_or_null(&dev, "d.", "ZIDENTIFIER", "device_id"),
        column_or_null(&dev, "d.", "ZPLATFORM", "platform"),
        column_or_null(&usr, "p.", "ZGIVENNAME", "given"),
        column_or_null(&usr, "p.", "ZFAMILYNAME", "family"),
        column_or_null(&usr, "p.", "ZAPPLEID", "apple_id"),
        column_or_null(&usr, "p.", "ZDSID", "dsid"),
    );
    let Some(paged) = run.paged(path, &sql, "i.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let bundle = raw(t, row, "bundle");
        let domain = raw(t, row, "domain");
        let seconds = raw(t, row, "seconds");
        let category = raw(t, row, "category");
        let cat_name = category
            .as_deref()
            .and_then(|c| CATEGORIES.iter().find(|(k, _)| *k == c))
            .map(|(_, n)| *n);
        let what = domain
            .as_deref()
            .or(bundle.as_deref())
            .unwrap_or("an unnamed item");
        let mut d = Draft::new("usage", format!("Screen Time {pk}: {what}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, bundle.as_deref(), inv);
        d.fact(FactType::Url, domain.as_deref(), inv);
        d.fact(FactType::Count, seconds.as_deref(), inv);
        d.fact(FactType::Identifier, category.as_deref(), inv);
        let pickups = raw(t, row, "pickups");
        d.fact(FactType::Count, pickups.as_deref(), inv);
        let device = raw(t, row, "device");
        d.fact(FactType::Name, device.as_deref(), inv);
        let device_id = raw(t, row, "device_id");
        d.fact(FactType::Identifier, device_id.as_deref(), inv);
        let (given, family) = (raw(t, row, "given"), raw(t, row, "family"));
        d.fact(FactType::Name, given.as_deref(), inv);
        d.fact(FactType::Name, family.as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "apple_id").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "dsid").as_deref(), inv);
        let start = raw(t, row, "start");
        d.time(
            start.as_deref(),
            core_data_encoding(start.as_deref()),
            "Screen Time usage block",
            inv,
        );
        d.interpretation = format!(
            "ZUSAGETIMEDITEM row {pk} of {path}: {} {what} was used {} s in the usage block that starts at Core Data time {} (category {}{}; pickups without app usage in the block {}), on the device {} ({}, {}) of the user {} {}.",
            if domain.is_some() {
                "the web domain"
            } else {
                "the app"
            },
            seconds.as_deref().unwrap_or("?"),
            start.as_deref().unwrap_or("(none)"),
            category.as_deref().unwrap_or("(none)"),
            cat_name.map(|n| format!(", {n}")).unwrap_or_default(),
            pickups.as_deref().unwrap_or("?"),
            device.as_deref().unwrap_or("(none)"),
            device_id.as_deref().unwrap_or("no identifier"),
            platform(raw(t, row, "platform").as_deref()),
            given.as_deref().unwrap_or(""),
            family.as_deref().unwrap_or(""),
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "usage",
            path,
            find,
            "Screen Time usage items",
            "SELECT count(*) AS total, min(NULLIF(b.ZSTARTDATE, 0)) AS first_time, max(b.ZSTARTDATE) AS last_time FROM ZUSAGETIMEDITEM i LEFT JOIN ZUSAGECATEGORY c ON c.Z_PK = i.ZCATEGORY LEFT JOIN ZUSAGEBLOCK b ON b.Z_PK = c.ZBLOCK",
            core_data_encoding,
            "First Screen Time usage block",
            "Last Screen Time usage block",
        )?;
    }
    Ok(())
}
