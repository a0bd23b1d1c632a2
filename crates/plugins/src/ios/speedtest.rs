//! Ookla's Speedtest on iOS (`speedtest.sqlite` in the app's container, a Core Data store),
//! iLEAPP's `ooklaSpeedtestData`: one `locations` phenomenon per `ZSPEEDTESTRESULT` row — when
//! (`ZDATE`, Cocoa seconds), the external and internal IP addresses, carrier, ISP, Wi-Fi SSID, WAN
//! type, the device model, latitude, longitude and horizontal accuracy, download and upload
//! speeds where the store has them. A test's external address is the network the phone was on
//! then, its position where it was. Columns are taken by name (absent ones NULL); a store
//! without the table or `ZDATE` is noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::{Draft, Run};
use crate::drafts::apple_seconds;

const TABLE: &str = "ZSPEEDTESTRESULT";

/// Triage of every Speedtest store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("speedtest.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[TABLE])? else {
            continue;
        };
        if !schema.require(run, TABLE, &["ZDATE"])? {
            continue;
        }
        let cols = [
            ("ZEXTERNALIP", FactType::Identifier, "external IP address"),
            ("ZINTERNALIP", FactType::Identifier, "internal IP address"),
            ("ZCARRIERNAME", FactType::Name, "carrier"),
            ("ZISP", FactType::Name, "ISP"),
            ("ZWIFISSID", FactType::Name, "Wi-Fi SSID"),
            ("ZWANTYPE", FactType::Text, "WAN type"),
            ("ZDEVICEMODEL", FactType::Text, "device model"),
            ("ZLATITUDE", FactType::Text, "latitude"),
            ("ZLONGITUDE", FactType::Text, "longitude"),
            (
                "ZHORIZONTALACCURACY",
                FactType::Text,
                "horizontal accuracy (m)",
            ),
            ("ZDOWNLOADKBPS", FactType::Count, "download kbps"),
            ("ZUPLOADKBPS", FactType::Count, "upload kbps"),
        ];
        let sql = format!(
            "SELECT r.Z_PK AS z_pk, r.ZDATE AS ZDATE, {} FROM {TABLE} r",
            cols.iter()
                .map(|(c, _, _)| format!("{} AS {c}", schema.col("r", TABLE, c)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let Some(paged) = run.paged(path, &sql, "z_pk")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let get = |c: &str| crate::outputs::raw(t, row, c);
            let ip = get("ZEXTERNALIP");
            let mut d = Draft::new(
                "locations",
                format!(
                    "Speedtest result{}",
                    ip.as_deref()
                        .map(|i| format!(" from {i}"))
                        .unwrap_or_default()
                ),
            );
            d.fact(FactType::Path, Some(path), &find);
            let mut said = Vec::new();
            for (c, ft, label) in cols {
                if let Some(v) = get(c).filter(|v| !v.is_empty()) {
                    d.fact(ft, Some(&v), inv);
                    said.push(format!("{label} {v}"));
                }
            }
            let at = get("ZDATE");
            d.time(
                at.as_deref(),
                apple_seconds(at.as_deref()),
                "Speedtest run",
                inv,
            );
            d.interpretation = format!(
                "A speed test the device's user ran with Ookla's Speedtest; the external address is the network the phone was on then, the position where it was; {}.",
                said.join("; ")
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "Speedtest results")?;
    }
    Ok(())
}
