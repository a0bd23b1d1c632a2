//! Samsung's weather widget (`com.sec.android.daemonapp/databases/WeatherClock`), ALEAPP's
//! `get_samsungWeatherClockInfo`: the places the weather was shown for — the phone's current
//! location, refreshed as it moves, and the cities the user added. One `locations` phenomenon per
//! `TABLE_WEATHER_INFO` row: the place (city, state, country), its time zone and daylight saving,
//! the conditions (current, feels-like, high and low temperatures, text), the provider and its
//! link, and its times (`COL_WEATHER_TIME`, `COL_WEATHER_UPDATE_TIME`, sunrise and sunset: Unix
//! ms), with every other `COL_WEATHER_*` column as stored (coordinates, the current-location
//! flag where the release keeps them). The forecasts (`TABLE_DAILY_INFO`, `TABLE_HOURLY_INFO`)
//! say nothing of the phone and are not read.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::note_pages_cap;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, required_columns};
use crate::outputs::raw;

/// The table read.
const TABLE: &str = "TABLE_WEATHER_INFO";

/// The time columns, with what each time is.
const TIMES: [(&str, &str); 4] = [
    ("COL_WEATHER_TIME", "Weather observed"),
    ("COL_WEATHER_UPDATE_TIME", "Weather updated"),
    ("COL_WEATHER_SUNRISE_TIME", "Sunrise"),
    ("COL_WEATHER_SUNSET_TIME", "Sunset"),
];

/// Whether `l` is the weather widget's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "WeatherClock" && l.path.contains("/com.sec.android.daemonapp/")
}

/// One `WeatherClock`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = required_columns(
        ctx,
        &l.tree,
        &l.path,
        "Samsung's WeatherClock",
        TABLE,
        &["COL_WEATHER_NAME"],
    )?
    else {
        return Ok(());
    };
    // every COL_WEATHER_* column, in the table's order as pragma gives it sorted
    let weather: Vec<&String> = cols
        .iter()
        .filter(|c| c.starts_with("COL_WEATHER_"))
        .collect();
    let sql = format!(
        "SELECT rowid AS rowid, {} FROM {TABLE} ORDER BY rowid",
        weather
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "weather places")?;
    for (inv, t, row) in pages.rows() {
        let place: Vec<String> = [
            "COL_WEATHER_NAME",
            "COL_WEATHER_STATE",
            "COL_WEATHER_COUNTRY",
        ]
        .iter()
        .filter_map(|c| raw(t, row, c).filter(|v| !v.is_empty()))
        .collect();
        let mut d = Draft::new("locations", format!("Weather place: {}", place.join(", ")));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = Vec::new();
        for c in &weather {
            if TIMES.iter().any(|(t, _)| t == c) {
                continue;
            }
            if let Some(v) = raw(t, row, c).filter(|v| !v.is_empty()) {
                let ft = if c.as_str() == "COL_WEATHER_NAME" {
                    FactType::Name
                } else {
                    FactType::Text
                };
                d.fact(ft, Some(&v), inv);
                said.push(format!(
                    "{} {v}",
                    c.trim_start_matches("COL_WEATHER_").to_ascii_lowercase()
                ));
            }
        }
        for (c, what) in TIMES {
            let v = t.get(row, c);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "{TABLE} row {} of {name}: Samsung's weather widget showed the weather of {} — the phone's current location when the widget follows it, or a city the user added; {}. Times are Unix milliseconds.",
            raw(t, row, "rowid").unwrap_or_default(),
            place.join(", "),
            said.join("; ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
