//! Verizon's RDD diagnostics service (`com.verizon.mips.services/databases/`), ALEAPP's
//! `VerizonRDDAnalytics` (`get_rdd_analytics`) and `VerizonRDDWIFI` (`get_rdd_wifi`): the
//! battery history the carrier's service sampled (level, charging, screen on, GPS, brightness,
//! temperature) and the Wi-Fi events it logged (the network's BSSID and SSID, the IP address the
//! phone was given, the session's duration and traffic, the cell).
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `RDD_ANALYTICS_DATABASE`: `TableBatteryHistory` | one `device` per sample ("Verizon RDD battery sample <formatted time>") | the formatted time as stored, battery level, GPS, charging, screen on, brightness, battery temperature (all as stored); sampled (Unix ms) |
//! | `RDD_WIFI_DATA_DATABASE`: `TABLERDDWIFIDATA` | one `wifi` per event ("Verizon RDD Wi-Fi <event> <timestamp>") | event id, event, and from `data` (JSON) the BSSID, SSID, the IP address returned, the session's total time, bytes sent and received, the cell id; when (Unix ms) |
//!
//! A battery sample says what the service recorded of the phone's state at that moment (the
//! screen on, the phone charging), not who used it; the units of brightness and temperature and
//! the meaning of the GPS flag are not established and are reported as stored. The JSON members
//! are read by SQLite's JSON functions in the query (`json_valid` guarding each cell: a cut
//! document yields NULLs and the row is still read). A Wi-Fi event's BSSID and SSID name the
//! access point the phone was on, a place lead (the SSID as Android writes it, in quotes). Both
//! tables can be long: they are read in pages, a read stopped at the row cap noted. Columns are
//! taken by name (absent ones NULL: older releases keep fewer); a store without its table, or a
//! table without its time column, is noted. Identities: none (an access point is no person).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_expr, column_or_null, json_at};
use crate::drafts::{RowPhenomena, no_identity, title_of, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// The RDD service's folder.
const DIR: &str = "/com.verizon.mips.services/databases/";

/// The stores read, by file name.
const STORES: &[&str] = &["RDD_ANALYTICS_DATABASE", "RDD_WIFI_DATA_DATABASE"];

/// Whether `path` is one of the RDD stores read.
pub fn is_store_path(path: &str) -> bool {
    STORES
        .iter()
        .any(|name| path.ends_with(&format!("{DIR}{name}")))
}

/// Whether `l` is one of the RDD stores read.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// One RDD store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if l.name() == "RDD_ANALYTICS_DATABASE" {
        if Tables::one(
            ctx,
            &name,
            "Verizon RDD's RDD_ANALYTICS_DATABASE",
            &schema,
            "TableBatteryHistory",
            &["ActualTime"],
        )?
        .is_none()
        {
            return Ok(());
        }
        return super::record_table(
            ctx,
            l,
            &schema,
            "ActualTime",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "TableBatteryHistory",
                category: "device",
                what: "a sample of the phone's battery and screen state taken by Verizon's RDD service (values as stored: the units of brightness and temperature and the meaning of GPS are not established; ActualTime is Unix milliseconds, FormattedTime the service's own text)",
                title: &title_of(
                    "Verizon RDD battery sample",
                    &["FormattedTime", "ActualTime"],
                ),
                fields: &[
                    ("FormattedTime", FactType::Text, "formatted time"),
                    ("BatteryLevel", FactType::Count, "battery level"),
                    ("GPS", FactType::Text, "GPS"),
                    ("Charging", FactType::Text, "charging"),
                    ("ScreenOn", FactType::Text, "screen on"),
                    ("Brightness", FactType::Text, "brightness"),
                    ("BatteryTemp", FactType::Text, "battery temperature"),
                ],
                times: &[("ActualTime", "Verizon RDD battery sampled", unix_millis)],
            },
            &mut no_identity,
        );
    }
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Verizon RDD's RDD_WIFI_DATA_DATABASE",
        &schema,
        "TABLERDDWIFIDATA",
        &["timestamp"],
    )?
    else {
        return Ok(());
    };
    let data = column_expr(cols, "", "data");
    let js = |path: &str, alias: &str| format!("{} AS {alias}", json_at(&data, path));
    let sql = format!(
        "SELECT rowid AS rid, timestamp, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM TABLERDDWIFIDATA ORDER BY rowid",
        column_or_null(cols, "", "eventid", "eventid"),
        column_or_null(cols, "", "event", "event"),
        js("$.wifiinfo.bssid", "bssid"),
        js("$.wifiinfo.ssid", "ssid"),
        js("$.returnedIP", "ip"),
        js("$.totalSessionTime", "session_time"),
        js("$.sessionWifiTx", "sent"),
        js("$.sessionWifiRx", "received"),
        js("$.cellId", "cell"),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        format!(
            "Verizon RDD Wi-Fi {} {}",
            raw(t, row, "event").unwrap_or_else(|| "event".into()),
            t.get(row, "timestamp").unwrap_or("?")
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "TABLERDDWIFIDATA",
            category: "wifi",
            what: "a Wi-Fi event Verizon's RDD service logged: the access point the phone was on (BSSID, SSID as Android writes it), the IP address it was given, the session's time and traffic as stored, the cell (timestamp Unix milliseconds)",
            title: &title,
            fields: &[
                ("eventid", FactType::Identifier, "event id"),
                ("event", FactType::Text, "event"),
                ("bssid", FactType::Identifier, "BSSID"),
                ("ssid", FactType::Name, "SSID"),
                ("ip", FactType::Identifier, "IP address"),
                ("session_time", FactType::Text, "session time"),
                ("sent", FactType::Count, "bytes sent"),
                ("received", FactType::Count, "bytes received"),
                ("cell", FactType::Identifier, "cell id"),
            ],
            times: &[("timestamp", "Verizon RDD Wi-Fi event", unix_millis)],
        },
        &mut no_identity,
    )
}
