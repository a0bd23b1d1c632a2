//! The Wi-Fi network store of iOS 12 to 14 (`root/Library/Application Support/
//! WiFiNetworkStoreModel.sqlite`, or under `com.apple.wifianalyticsd/`; a Core Data store of the
//! `WiFiNetworkStoreModel` model), iLEAPP's `wifiNetworkStoreModel` (`get_wifiNetworkStoreModel`,
//! "Wifi Known Networks", and in later versions its geotags too):
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZNETWORK` | one `wifi` per network record ("Wi-Fi network store network <SSID>") | SSID, `Z_PK`, the Core Data entity's name (`Z_PRIMARYKEY.Z_NAME` of its `Z_ENT`, looked up in the query), `ZAUTHFLAG` as stored (undocumented: never decoded), and how many geotags link to it through each of the geotag's two relationships (counted in the query) |
//! | `ZGEOTAG` (with the `ZNETWORK` rows its `ZHIGHERBANDNETWORK` and `ZLOWERBANDNETWORK` name) | one `locations` per geotag ("Wi-Fi network store geotag <SSID> (<BSSID>)") | latitude, longitude, BSSID, `Z_PK`, tagged count (`ZTAGGEDCOUNT`, iOS 13 and later), each linked network's `Z_PK` and SSID; the geotag's date (`ZDATE`, Cocoa seconds) |
//!
//! The geotag's two links are Core Data relationships to a network record, named
//! `higherBandNetwork` and `lowerBandNetwork` by the model: they are said by those names, not
//! read as a band (the store defines none; on the phones iLEAPP's authors checked, the first
//! went with 5 GHz channels and the second with 2.4 GHz ones). Earlier iLEAPP versions paired a
//! network with the geotag of the same `Z_PK` and read the two columns as 5 GHz / 2.4 GHz flags:
//! the store records no such pairing, and this reader follows only the links the store keeps. A
//! geotag with neither link is recorded without a network. What event a geotag's date marks the
//! store does not say: it is put on the timeline as "Wi-Fi network store geotag dated", and the
//! position is where the device was tagged near that access point, to be corroborated; 0/0 is no
//! position (said).
//!
//! Not read: the `ZSCORE` records (switch counts and flags whose meaning the store does not
//! document) and blacklisted networks (no record seen in tested stores). The store keeps no join
//! time, password or security type of a network: the known networks' plist
//! ([`super::wifi`]) holds those. An SSID here need not be among the device's known networks.
//!
//! Columns are taken by name: `ZNETWORK` must have `Z_PK` and `ZSSID`, `ZGEOTAG` `Z_PK`,
//! `ZLATITUDE` and `ZLONGITUDE` (else noted, the other table still read); a store with neither
//! table is noted, and one that does not open is noted by the call. Older stores (iOS 12) lack
//! `ZTAGGEDCOUNT` (NULL). Both tables are read in pages by `Z_PK` up to the row cap, the rest
//! noted.
//!
//! Identities: none (a network names no one).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::select_columns;
use crate::drafts::apple_seconds;
use crate::outputs::{Table, raw};

const NETWORK: &str = "ZNETWORK";
const GEOTAG: &str = "ZGEOTAG";
const KEYS: &str = "Z_PRIMARYKEY";

/// Triage of every Wi-Fi network store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("WiFiNetworkStoreModel.sqlite", |find, path| {
        store(run, find, path)
    })
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[NETWORK, GEOTAG, KEYS])? else {
        return Ok(());
    };
    let (networks_held, geotags_held) = (
        !schema.columns(NETWORK).is_empty(),
        !schema.columns(GEOTAG).is_empty(),
    );
    if !networks_held && !geotags_held {
        run.ctx.unparsed(
            path,
            "could not parse the Wi-Fi network store WiFiNetworkStoreModel.sqlite because it has none of the tables ZNETWORK, ZGEOTAG",
            None,
        )?;
        return Ok(());
    }
    if networks_held && schema.require(run, NETWORK, &["Z_PK", "ZSSID"])? {
        networks(run, find, path, &schema)?;
    }
    if geotags_held && schema.require(run, GEOTAG, &["Z_PK", "ZLATITUDE", "ZLONGITUDE"])? {
        geotags(run, find, path, &schema)?;
    }
    Ok(())
}

/// The network records, each with its entity's name and the geotags linking to it.
fn networks(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let n = schema.columns(NETWORK);
    let g = schema.columns(GEOTAG);
    let k = schema.columns(KEYS);
    let entity = if n.contains("Z_ENT") && k.contains("Z_ENT") && k.contains("Z_NAME") {
        format!("(SELECT k.Z_NAME FROM {KEYS} k WHERE k.Z_ENT = n.Z_ENT) AS entity")
    } else {
        "NULL AS entity".to_string()
    };
    let count = |col: &str, alias: &str| {
        if g.contains(col) {
            format!("(SELECT count(*) FROM {GEOTAG} g WHERE g.{col} = n.Z_PK) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT n.Z_PK AS pk, n.ZSSID AS ssid, {entity}, {}, {}, {} FROM {NETWORK} n",
        select_columns(&n, "n.", &[("ZAUTHFLAG", "auth_flag")]),
        count("ZHIGHERBANDNETWORK", "geotags_higher"),
        count("ZLOWERBANDNETWORK", "geotags_lower"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let pk = get("pk").unwrap_or_default();
        let ssid = get("ssid");
        let mut d = Draft::new(
            "wifi",
            format!(
                "Wi-Fi network store network {}",
                ssid.clone().unwrap_or_else(|| format!("Z_PK {pk}"))
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("ssid", FactType::Name, "SSID"),
                ("pk", FactType::Identifier, "Z_PK"),
                ("entity", FactType::Text, "entity"),
                ("auth_flag", FactType::Text, "ZAUTHFLAG (as stored)"),
                (
                    "geotags_higher",
                    FactType::Count,
                    "geotags linking it as their higherBandNetwork",
                ),
                (
                    "geotags_lower",
                    FactType::Count,
                    "geotags linking it as their lowerBandNetwork",
                ),
            ],
        );
        d.interpretation = format!(
            "{NETWORK} Z_PK {pk} of {file}: a Wi-Fi network the device's Wi-Fi network store kept ({}). The store keeps no join time or password of it (the known networks' plist does); its authFlag is as stored (undocumented, not decoded); the geotags linking to it are recorded one by one.",
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Wi-Fi network store networks")
}

/// The geotag select: its own columns and, where the store has the link and the network's SSID,
/// each linked network's SSID (NULL otherwise).
fn geotag_select(g: &BTreeSet<String>, n: &BTreeSet<String>) -> String {
    let joinable = n.contains("Z_PK") && n.contains("ZSSID");
    let mut from = format!("{GEOTAG} g");
    let mut linked = Vec::new();
    for (col, alias, pk, ssid) in [
        ("ZHIGHERBANDNETWORK", "h", "higher_pk", "higher_ssid"),
        ("ZLOWERBANDNETWORK", "l", "lower_pk", "lower_ssid"),
    ] {
        if g.contains(col) {
            linked.push(format!("g.{col} AS {pk}"));
            if joinable {
                from.push_str(&format!(
                    " LEFT JOIN {NETWORK} {alias} ON {alias}.Z_PK = g.{col}"
                ));
                linked.push(format!("{alias}.ZSSID AS {ssid}"));
            } else {
                linked.push(format!("NULL AS {ssid}"));
            }
        } else {
            linked.push(format!("NULL AS {pk}, NULL AS {ssid}"));
        }
    }
    format!(
        "SELECT g.Z_PK AS pk, g.ZLATITUDE AS latitude, g.ZLONGITUDE AS longitude, {}, {} FROM {from}",
        select_columns(
            g,
            "g.",
            &[
                ("ZBSSID", "bssid"),
                ("ZDATE", "date"),
                ("ZTAGGEDCOUNT", "tagged_count"),
            ],
        ),
        linked.join(", "),
    )
}

fn geotags(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = geotag_select(&schema.columns(GEOTAG), &schema.columns(NETWORK));
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        geotag(run, find, path, inv, t, row)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Wi-Fi network store geotags")
}

fn geotag(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
    let pk = get("pk").unwrap_or_default();
    let ssid = get("higher_ssid").or_else(|| get("lower_ssid"));
    let bssid = get("bssid");
    let title = match (&ssid, &bssid) {
        (Some(s), Some(b)) => format!("Wi-Fi network store geotag {s} ({b})"),
        (Some(s), None) => format!("Wi-Fi network store geotag {s}"),
        (None, Some(b)) => format!("Wi-Fi network store geotag {b}"),
        (None, None) => format!("Wi-Fi network store geotag Z_PK {pk}"),
    };
    let mut d = Draft::new("locations", title);
    d.fact(FactType::Path, Some(path), find);
    let said = d.fields(
        t,
        row,
        inv,
        &[
            ("latitude", FactType::Text, "latitude"),
            ("longitude", FactType::Text, "longitude"),
            ("bssid", FactType::Identifier, "BSSID"),
            ("pk", FactType::Identifier, "geotag Z_PK"),
            ("tagged_count", FactType::Count, "tagged count"),
            (
                "higher_pk",
                FactType::Identifier,
                "higherBandNetwork (network Z_PK)",
            ),
            ("higher_ssid", FactType::Name, "higherBandNetwork's SSID"),
            (
                "lower_pk",
                FactType::Identifier,
                "lowerBandNetwork (network Z_PK)",
            ),
            ("lower_ssid", FactType::Name, "lowerBandNetwork's SSID"),
        ],
    );
    d.times_of(
        t,
        row,
        inv,
        apple_seconds,
        &[("date", "Wi-Fi network store geotag dated")],
    );
    let zero = |c: &str| {
        get(c)
            .and_then(|v| v.parse::<f64>().ok())
            .is_some_and(|v| v == 0.0)
    };
    let linked = get("higher_pk").is_some() || get("lower_pk").is_some();
    d.interpretation = format!(
        "{GEOTAG} Z_PK {pk} of {} (the Wi-Fi network store): {}. {} {} ZDATE is Cocoa seconds (since 2001); what event it marks the store does not say. higherBandNetwork and lowerBandNetwork are the model's names of the geotag's links to a network record, not a band the store records.",
        file_name(path),
        said.join("; "),
        if zero("latitude") && zero("longitude") {
            "The position is 0/0: no position recorded."
        } else {
            "The position the store tagged the access point with: where the device was while near that network (to be corroborated; the store keeps no accuracy)."
        },
        if linked {
            "The network is the one the store links the geotag to."
        } else {
            "The geotag links to no network record."
        },
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cols: &[&str]) -> BTreeSet<String> {
        cols.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn geotag_select_follows_the_links_the_store_has() {
        let g = set(&[
            "Z_PK",
            "ZLATITUDE",
            "ZLONGITUDE",
            "ZBSSID",
            "ZDATE",
            "ZHIGHERBANDNETWORK",
        ]);
        let n = set(&["Z_PK", "ZSSID"]);
        let sql = geotag_select(&g, &n);
        assert!(sql.contains("LEFT JOIN ZNETWORK h ON h.Z_PK = g.ZHIGHERBANDNETWORK"));
        assert!(sql.contains("NULL AS lower_pk, NULL AS lower_ssid"));
        assert!(sql.contains("NULL AS tagged_count"));
        let alone = geotag_select(&g, &BTreeSet::new());
        assert!(!alone.contains("JOIN"));
        assert!(alone.contains("NULL AS higher_ssid"));
    }
}
