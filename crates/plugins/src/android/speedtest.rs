//! Ookla's Speedtest on Android (`org.zwanoo.android.speedtest/databases/speedtest`), ALEAPP's
//! `speedtest_tests`, `speedtest_reports_location` and `speedtest_reports_wifi`:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `UnivSpeedTestResult` | one `locations` per test | when (`date`, Unix s or ms by magnitude), connection type, SSID, the user's latitude and longitude, the external and internal IP addresses, download and upload speeds (kbps) |
//! | `REPORT` (`DATA`, JSON) | one `locations` per report with a position | when (`start.timestamp`, ISO 8601), latitude, longitude, altitude, accuracy; and every Wi-Fi network of its scan (`start.extended.wifi.scanResults`: BSSID, SSID, signal level) |
//!
//! A test's external address is the network the phone was on then (a home's, a workplace's, a
//! hotel's), its position where it was. Columns are taken by name (absent ones NULL); a store
//! with neither table is noted; a report that is no JSON is counted and noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::Value;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, date_text, record_draft, unix_by_magnitude};
use crate::identity::{artefact_name, pages_on, table_columns};
use crate::outputs::{in_json_cell, raw, unescape};

/// Whether `l` is Speedtest's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "speedtest" && l.path.contains("/org.zwanoo.android.speedtest/databases/")
}

/// A JSON scalar as the tool shows it inside `cell` (string escapes kept, then the cell's own
/// escaping), with its plain text; `None` when the cell does not show it so (a number JSON
/// writes otherwise).
fn scalar(v: Option<&Value>, cell: &str) -> Option<(String, String)> {
    let (shown, plain) = match v? {
        Value::String(s) if !s.is_empty() => (in_json_cell(s), s.clone()),
        Value::Number(n) => (n.to_string(), n.to_string()),
        _ => return None,
    };
    cell.contains(&shown).then_some((shown, plain))
}

/// One `speedtest` store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let tests = table_columns(ctx, &l.tree, &l.path, "UnivSpeedTestResult")?;
    let reports = table_columns(ctx, &l.tree, &l.path, "REPORT")?;
    if tests.is_empty() && !reports.contains("DATA") {
        ctx.unparsed(
            &name,
            "could not parse Speedtest's store because it has neither UnivSpeedTestResult nor REPORT with DATA",
            None,
        )?;
        return Ok(());
    }
    if !tests.is_empty() {
        let col = |c: &str| column_or_null(&tests, "", c, c);
        let sql = format!(
            "SELECT rowid AS rowid, {} FROM UnivSpeedTestResult ORDER BY rowid",
            [
                "date",
                "connectionType",
                "ssid",
                "userLatitude",
                "userLongitude",
                "externalIp",
                "internalIp",
                "downloadKbps",
                "uploadKbps",
            ]
            .map(col)
            .join(", ")
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_pages_cap(ctx, &name, &pages, "Speedtest results")?;
            for (inv, t, row) in pages.rows() {
                let ip = raw(t, row, "externalIp");
                let mut d = Draft::new(
                    "locations",
                    format!(
                        "Speedtest result{}",
                        ip.as_deref()
                            .map(|i| format!(" from {i}"))
                            .unwrap_or_default()
                    ),
                );
                d.fact(FactType::Path, Some(&l.path), &l.found);
                let said = d.fields(
                    t,
                    row,
                    inv,
                    &[
                        ("connectionType", FactType::Text, "connection type"),
                        ("ssid", FactType::Name, "Wi-Fi SSID"),
                        ("userLatitude", FactType::Text, "latitude"),
                        ("userLongitude", FactType::Text, "longitude"),
                        ("externalIp", FactType::Identifier, "external IP address"),
                        ("internalIp", FactType::Identifier, "internal IP address"),
                        ("downloadKbps", FactType::Count, "download kbps"),
                        ("uploadKbps", FactType::Count, "upload kbps"),
                    ],
                );
                let at = t.get(row, "date");
                d.time(at, unix_by_magnitude(at), "Speedtest run", inv);
                d.interpretation = format!(
                    "UnivSpeedTestResult row {} of {name}: a speed test the device's user ran; the external address is the network the phone was on then, the position where it was; {}.",
                    raw(t, row, "rowid").unwrap_or_default(),
                    said.join("; ")
                );
                record_draft(ctx, d)?;
            }
        }
    }
    if reports.contains("DATA") {
        let sql = "SELECT rowid AS rowid, DATA FROM REPORT ORDER BY rowid";
        let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
            return Ok(());
        };
        note_pages_cap(ctx, &name, &pages, "Speedtest reports")?;
        let mut bad = 0usize;
        for (inv, t, row) in pages.rows() {
            let cell = raw(t, row, "DATA").unwrap_or_default();
            let Ok(doc) = serde_json::from_str::<Value>(&unescape(&cell)) else {
                bad += 1;
                continue;
            };
            let start = &doc["start"];
            let loc = &start["location"];
            let when = scalar(start.get("timestamp"), &cell);
            let mut said = Vec::new();
            let mut d = Draft::new("locations", "Speedtest report position");
            d.fact(FactType::Path, Some(&l.path), &l.found);
            for (k, label) in [
                ("latitude", "latitude"),
                ("longitude", "longitude"),
                ("altitude", "altitude"),
                ("accuracy", "accuracy (m)"),
            ] {
                if let Some((shown, plain)) = scalar(loc.get(k), &cell) {
                    d.fact(FactType::Text, Some(&shown), inv);
                    said.push(format!("{label} {plain}"));
                }
            }
            let scans: Vec<&Value> = start["extended"]["wifi"]["scanResults"]
                .as_array()
                .map(|a| a.iter().collect())
                .unwrap_or_default();
            for s in &scans {
                let mut one = Vec::new();
                for (k, label, ft) in [
                    ("BSSID", "BSSID", FactType::Identifier),
                    ("SSID", "SSID", FactType::Name),
                    ("level", "level", FactType::Text),
                ] {
                    if let Some((shown, plain)) = scalar(s.get(k), &cell) {
                        d.fact(ft, Some(&shown), inv);
                        one.push(format!("{label} {plain}"));
                    }
                }
                if !one.is_empty() {
                    said.push(format!("Wi-Fi seen: {}", one.join(", ")));
                }
            }
            if said.is_empty() {
                continue;
            }
            if let Some((shown, _)) = &when {
                d.time(Some(shown), date_text(Some(shown)), "Speedtest report", inv);
            }
            d.interpretation = format!(
                "REPORT row {} of {name}: a report Speedtest kept{}; {}.",
                raw(t, row, "rowid").unwrap_or_default(),
                when.as_ref()
                    .map(|(_, w)| format!(" at {w}"))
                    .unwrap_or_default(),
                said.join("; ")
            );
            record_draft(ctx, d)?;
        }
        if bad > 0 {
            ctx.unparsed(
                &name,
                &format!("{bad} REPORT rows hold no JSON that parses: not read"),
                None,
            )?;
        }
    }
    Ok(())
}
