//! The Wi-Fi analytics daemon's geotags (`root/Library/Application Support/com.apple.wifianalyticsd/
//! DeviceAnalyticsModel.sqlite`, a Core Data store), iLEAPP's `wifiAnalytics`
//! (`wifiAnalyticsGeotags`):
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZGEOTAG` (with its `ZBSS` row and that one's `ZNETWORK` row) | one `locations` per geotag ("Wi-Fi geotag <SSID> (<BSSID>)") | the geotag's date (`ZDATE`, Cocoa seconds), latitude, longitude, `Z_PK` and entity number; the access point's BSSID and when it was last seen (`ZBSS.ZLASTSEEN`, Cocoa seconds); the network's SSID |
//!
//! A geotag is a position wifianalyticsd tagged an access point with: where Location Services
//! put the device while it was on (or saw) that network — said, and to be corroborated, as
//! iLEAPP says. A geotag at 0/0 is recorded as stored and said to be no position. Columns are
//! taken by name: `ZGEOTAG` must have `ZLATITUDE` and `ZLONGITUDE` (else noted); the access
//! point and the network are joined when the store has their tables and link columns (older
//! stores: NULL where absent). Read in pages by `Z_PK` up to the row cap, the rest noted.
//!
//! Identities: none (a network names no one).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run};
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const GEOTAG: &str = "ZGEOTAG";
const BSS: &str = "ZBSS";
const NETWORK: &str = "ZNETWORK";

/// Whether `path` is wifianalyticsd's store.
pub fn is_store(path: &str) -> bool {
    path.ends_with("/com.apple.wifianalyticsd/DeviceAnalyticsModel.sqlite")
}

/// Triage of every wifianalyticsd store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("DeviceAnalyticsModel.sqlite")? else {
        return Ok(());
    };
    for path in paths.iter().filter(|p| is_store(p)) {
        let Some(schema) = run.schema(path, &[GEOTAG, BSS, NETWORK])? else {
            continue;
        };
        if !schema.require(run, GEOTAG, &["Z_PK", "ZLATITUDE", "ZLONGITUDE"])? {
            continue;
        }
        let sql = select(
            &schema.columns(GEOTAG),
            &schema.columns(BSS),
            &schema.columns(NETWORK),
        );
        let Some(paged) = run.paged(path, &sql, "pk")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            one(run, &find, path, inv, t, row)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "wifianalyticsd geotags")?;
    }
    Ok(())
}

/// The geotags with their access point and network, each column NULL where the store's version
/// lacks it (or the table linking it).
fn select(
    g: &std::collections::BTreeSet<String>,
    b: &std::collections::BTreeSet<String>,
    n: &std::collections::BTreeSet<String>,
) -> String {
    let col = |set: &std::collections::BTreeSet<String>, alias: &str, c: &str, name: &str| {
        if set.contains(c) {
            format!("{alias}.{c} AS {name}")
        } else {
            format!("NULL AS {name}")
        }
    };
    let with_bss = g.contains("ZBSS") && b.contains("Z_PK");
    let with_network = with_bss && b.contains("ZNETWORK") && n.contains("Z_PK");
    let none = std::collections::BTreeSet::new();
    let (b, n) = (
        if with_bss { b } else { &none },
        if with_network { n } else { &none },
    );
    let mut from = format!("{GEOTAG} g");
    if with_bss {
        from.push_str(&format!(" LEFT JOIN {BSS} b ON b.Z_PK = g.ZBSS"));
    }
    if with_network {
        from.push_str(&format!(" LEFT JOIN {NETWORK} n ON n.Z_PK = b.ZNETWORK"));
    }
    format!(
        "SELECT g.Z_PK AS pk, {}, {}, g.ZLATITUDE AS latitude, g.ZLONGITUDE AS longitude, {}, {}, {} FROM {from}",
        col(g, "g", "Z_ENT", "entity"),
        col(g, "g", "ZDATE", "date"),
        col(b, "b", "ZBSSID", "bssid"),
        col(b, "b", "ZLASTSEEN", "last_seen"),
        col(n, "n", "ZSSID", "ssid"),
    )
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
    let (ssid, bssid) = (get("ssid"), get("bssid"));
    let title = match (&ssid, &bssid) {
        (Some(s), Some(b)) => format!("Wi-Fi geotag {s} ({b})"),
        (Some(s), None) => format!("Wi-Fi geotag {s}"),
        (None, Some(b)) => format!("Wi-Fi geotag {b}"),
        (None, None) => format!("Wi-Fi geotag {}", get("pk").unwrap_or_default()),
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
            ("ssid", FactType::Name, "SSID"),
            ("bssid", FactType::Identifier, "BSSID"),
            ("pk", FactType::Identifier, "geotag Z_PK"),
            ("entity", FactType::Text, "entity"),
        ],
    );
    d.times_of(
        t,
        row,
        inv,
        apple_seconds,
        &[
            ("date", "Wi-Fi network geotagged"),
            ("last_seen", "Wi-Fi access point last seen"),
        ],
    );
    let zero = |c: &str| {
        get(c)
            .and_then(|v| v.parse::<f64>().ok())
            .is_some_and(|v| v == 0.0)
    };
    d.interpretation = format!(
        "ZGEOTAG Z_PK {} of {path} (wifianalyticsd): {}. {} ZDATE and ZLASTSEEN are Cocoa seconds (since 2001).",
        get("pk").unwrap_or_default(),
        said.join("; "),
        if zero("latitude") && zero("longitude") {
            "The position is 0/0: no position recorded."
        } else {
            "The position wifianalyticsd tagged the access point with, where Location Services put the device while it was on or saw that network (to be corroborated: a geotag is not a fix the device logged for itself)."
        },
    );
    run.record(d)
}
