//! Per-app network usage: CommCenter's `wireless/Library/Databases/DataUsage.sqlite` and
//! networkd's `networkd/netusage.sqlite` (the same Core Data model family), with the fields
//! iLEAPP's `DataUsage` and `netusage` modules report:
//!
//! - one phenomenon per `ZLIVEUSAGE` row joined with its `ZPROCESS` (`ZHASPROCESS`): process
//!   and bundle name, kind, Wi-Fi, cellular (WWAN) and wired bytes in and out, the usage
//!   row's time and the process's first and last times (Core Data seconds since 2001). Unlike
//!   iLEAPP's `DataUsage`, rows of kind 257 are kept (their kind is stated);
//! - one per `ZNETWORKATTACHMENT` (netusage only): the network (Wi-Fi `name-BSSID` or
//!   `Carrier-<id>`), its kind (1 Wi-Fi, 2 cellular), first and last times, and the totals of
//!   the route-performance rows that point at it (`ZLIVEROUTEPERF.ZHASNETWORKATTACHMENT`):
//!   bytes and packets in and out, connection attempts and successes.
//!
//! Columns are taken by name: a database without the traffic columns of a later iOS still
//! gives the rows it has; one without `ZLIVEUSAGE`'s keys or `ZPROCESS`'s process name is
//! noted as unparsed, naming the missing columns. No identity is observed.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, raw, summarise};
use crate::calls::column_or_null;

/// The databases read, with what keeps them.
pub const DATABASES: [(&str, &str); 2] = [
    ("DataUsage.sqlite", "CommCenter's data usage"),
    ("netusage.sqlite", "networkd's network usage"),
];

/// Traffic columns of `ZLIVEUSAGE` (column, alias, what).
const TRAFFIC: [(&str, &str, &str); 6] = [
    ("ZWIFIIN", "wifi_in", "Wi-Fi in"),
    ("ZWIFIOUT", "wifi_out", "Wi-Fi out"),
    ("ZWWANIN", "wwan_in", "cellular in"),
    ("ZWWANOUT", "wwan_out", "cellular out"),
    ("ZWIREDIN", "wired_in", "wired in"),
    ("ZWIREDOUT", "wired_out", "wired out"),
];

/// Totals of `ZLIVEROUTEPERF` per network attachment (column, alias, what).
const ROUTE: [(&str, &str, &str); 6] = [
    ("ZBYTESIN", "bytes_in", "bytes in"),
    ("ZBYTESOUT", "bytes_out", "bytes out"),
    ("ZPACKETSIN", "packets_in", "packets in"),
    ("ZPACKETSOUT", "packets_out", "packets out"),
    ("ZCONNATTEMPTS", "attempts", "connection attempts"),
    ("ZCONNSUCCESSES", "successes", "connection successes"),
];

/// Triage of every `DataUsage.sqlite` and `netusage.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for (name, what) in DATABASES {
        run.each(name, |find, path| one(run, find, path, what))?;
    }
    Ok(())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str, what: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            "ZLIVEUSAGE",
            "ZPROCESS",
            "ZNETWORKATTACHMENT",
            "ZLIVEROUTEPERF",
        ],
    )?
    else {
        return Ok(());
    };
    if !schema.require(run, "ZLIVEUSAGE", &["Z_PK", "ZTIMESTAMP", "ZHASPROCESS"])?
        || !schema.require(run, "ZPROCESS", &["Z_PK", "ZPROCNAME"])?
    {
        return Ok(());
    }
    usage(run, find, path, what, &schema)?;
    let att = schema.columns("ZNETWORKATTACHMENT");
    if ["Z_PK", "ZIDENTIFIER"].iter().all(|c| att.contains(*c)) {
        attachments(run, find, path, what, &schema)?;
    }
    Ok(())
}

fn usage(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    what: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let u = schema.columns("ZLIVEUSAGE");
    let p = schema.columns("ZPROCESS");
    let traffic: Vec<String> = TRAFFIC
        .iter()
        .map(|(c, a, _)| column_or_null(&u, "u.", c, a))
        .collect();
    let sql = format!(
        "SELECT u.Z_PK AS pk, u.ZTIMESTAMP AS ts, {}, {}, p.ZPROCNAME AS proc, {}, {}, {} \
FROM ZLIVEUSAGE u LEFT JOIN ZPROCESS p ON p.Z_PK = u.ZHASPROCESS",
        column_or_null(&u, "u.", "ZKIND", "kind"),
        traffic.join(", "),
        column_or_null(&p, "p.", "ZBUNDLENAME", "bundle"),
        column_or_null(&p, "p.", "ZFIRSTTIMESTAMP", "first"),
        column_or_null(&p, "p.", "ZTIMESTAMP", "last"),
    );
    let Some(paged) = run.paged(path, &sql, "u.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let process = raw(t, row, "proc");
        let bundle = raw(t, row, "bundle");
        let kind = raw(t, row, "kind");
        let shown = bundle
            .as_deref()
            .or(process.as_deref())
            .unwrap_or("no recorded process");
        let mut d = Draft::new("usage", format!("Network usage {pk} of {shown}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, process.as_deref(), inv);
        d.fact(FactType::Identifier, bundle.as_deref(), inv);
        d.fact(FactType::Count, kind.as_deref(), inv);
        let mut said = Vec::new();
        for (_, alias, label) in TRAFFIC {
            if let Some(v) = raw(t, row, alias) {
                d.fact(FactType::Count, Some(&v), inv);
                said.push(format!("{label} {v} bytes"));
            }
        }
        for (col, mark) in [
            ("ts", "Network usage recorded"),
            ("first", "Process first used the network"),
            ("last", "Process last used the network"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), mark, inv);
        }
        d.interpretation = format!(
            "ZLIVEUSAGE row {pk} of {path} ({what}): process {} (bundle {}), kind {}: {}. Times are Core Data seconds since 2001: the row's, and the process's first and last.",
            process.as_deref().unwrap_or("(none)"),
            bundle.as_deref().unwrap_or("(none)"),
            kind.as_deref().unwrap_or("(not recorded)"),
            if said.is_empty() {
                "no traffic column".to_string()
            } else {
                said.join(", ")
            },
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "usage",
            path,
            find,
            "network usage rows",
            "SELECT count(*) AS total, min(NULLIF(ZTIMESTAMP, 0)) AS first_time, max(ZTIMESTAMP) AS last_time FROM ZLIVEUSAGE",
            core_data_encoding,
            "First network usage",
            "Last network usage",
        )?;
    }
    Ok(())
}

fn attachments(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    what: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let a = schema.columns("ZNETWORKATTACHMENT");
    let r = schema.columns("ZLIVEROUTEPERF");
    let linked = r.contains("ZHASNETWORKATTACHMENT");
    let totals: Vec<String> = ROUTE
        .iter()
        .map(|(c, alias, _)| {
            if linked && r.contains(*c) {
                format!(
                    "(SELECT total(r.{c}) FROM ZLIVEROUTEPERF r WHERE r.ZHASNETWORKATTACHMENT = a.Z_PK) AS {alias}"
                )
            } else {
                format!("NULL AS {alias}")
            }
        })
        .collect();
    let routes = if linked {
        "(SELECT count(*) FROM ZLIVEROUTEPERF r WHERE r.ZHASNETWORKATTACHMENT = a.Z_PK)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT a.Z_PK AS pk, a.ZIDENTIFIER AS ident, {}, {}, {}, {routes} AS routes, {} FROM ZNETWORKATTACHMENT a",
        column_or_null(&a, "a.", "ZKIND", "kind"),
        column_or_null(&a, "a.", "ZFIRSTTIMESTAMP", "first"),
        column_or_null(&a, "a.", "ZTIMESTAMP", "last"),
        totals.join(", "),
    );
    let Some(paged) = run.paged(path, &sql, "a.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let ident = raw(t, row, "ident");
        let kind = raw(t, row, "kind");
        let kind_name = match kind.as_deref() {
            Some("1") => "Wi-Fi",
            Some("2") => "cellular",
            _ => "network",
        };
        let mut d = Draft::new(
            "usage",
            format!(
                "{kind_name} attachment {pk}: {}",
                ident.as_deref().unwrap_or("(no identifier)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, ident.as_deref(), inv);
        d.fact(FactType::Count, kind.as_deref(), inv);
        let routes = raw(t, row, "routes");
        d.fact(FactType::Count, routes.as_deref(), inv);
        let mut said = Vec::new();
        for (_, alias, label) in ROUTE {
            if let Some(v) = raw(t, row, alias).filter(|_| routes.as_deref() != Some("0")) {
                d.fact(FactType::Count, Some(&v), inv);
                said.push(format!("{label} {v}"));
            }
        }
        for (col, mark) in [
            ("first", "Network first attached"),
            ("last", "Network last attached"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), mark, inv);
        }
        d.interpretation = format!(
            "ZNETWORKATTACHMENT row {pk} of {path} ({what}): the device attached to the {kind_name} network {} (kind {}); {} route-performance rows point at it{}. Times are Core Data seconds since 2001.",
            ident.as_deref().unwrap_or("(no identifier)"),
            kind.as_deref().unwrap_or("not recorded"),
            routes.as_deref().unwrap_or("no"),
            if said.is_empty() {
                String::new()
            } else {
                format!(", their totals: {}", said.join(", "))
            },
        );
        run.record(d)?;
    }
    Ok(())
}
