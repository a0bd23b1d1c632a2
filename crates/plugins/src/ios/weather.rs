//! The Weather app's locations (`Containers/Shared/AppGroup/<id>/Library/Preferences/
//! group.com.apple.weather.plist`), iLEAPP's `weatherAppLocations`:
//!
//! | key | phenomenon | fields |
//! |---|---|---|
//! | `Cities` (each) | one `locations` per saved city ("Weather app saved city <name>") | name, country, time zone or seconds from GMT, latitude, longitude; its update time (`UpateTime`, a date, as the app spells it), the time-zone update (`CityTimeZoneUpdateDateKey`, Unix seconds), the list's `LastUpdated` (a date) |
//! | `LocalWeather` | one `locations` ("Weather app local weather at <name>") | the same fields; the last location update (`LastLocationUpdateTime`, Unix seconds) |
//!
//! Both layouts iLEAPP knows are read by their keys (`PrefsVersion` 2.1 and the older one); a
//! key a file lacks is left out. A saved city is a place the user chose to follow (a home, a
//! destination, where someone lives), not where the phone was; the local weather entry is where
//! Location Services put the phone when the app last updated it (both said). A file that is no
//! dictionary, or holds neither `Cities` nor `LocalWeather` (as the app keeps it from iOS 16 on,
//! when iLEAPP reads no rows either), is noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run};
use crate::drafts::{date_text, unix_seconds};
use crate::outputs::json_scalar;

/// The fields of a city or of the local weather: `(key, type, label)`.
const FIELDS: [(&str, FactType, &str); 6] = [
    ("Name", FactType::Name, "name"),
    ("Country", FactType::Text, "country"),
    ("TimeZone", FactType::Text, "time zone"),
    ("SecondsFromGMT", FactType::Text, "seconds from GMT"),
    ("Lat", FactType::Text, "latitude"),
    ("Lon", FactType::Text, "longitude"),
];

/// Triage of every Weather app preferences file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("group.com.apple.weather.plist", |find, path| {
        if !path.contains("/Containers/Shared/AppGroup/")
            || !path.ends_with("/Library/Preferences/group.com.apple.weather.plist")
        {
            return Ok(());
        }
        let Some((inv, doc)) = parse(run, path)? else {
            return Ok(());
        };
        if !doc.is_object() {
            run.ctx.unparsed(
                path,
                "could not read the Weather app's locations because the preferences file is no dictionary",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
        let cities = doc.get("Cities").and_then(Value::as_array);
        let local = doc.get("LocalWeather").filter(|l| l.is_object());
        if cities.is_none() && local.is_none() {
            run.ctx.unparsed(
                path,
                "the Weather app's preferences hold neither Cities nor LocalWeather (no saved location read, as iLEAPP)",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
        let version = json_scalar(doc.get("PrefsVersion"));
        for city in cities.into_iter().flatten().filter(|c| c.is_object()) {
            one(run, find, path, &inv, &doc, city, false, version.as_deref())?;
        }
        if let Some(l) = local {
            one(run, find, path, &inv, &doc, l, true, version.as_deref())?;
        }
        Ok(())
    })
}

#[allow(clippy::too_many_arguments)]
fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    doc: &Value,
    city: &Value,
    local: bool,
    version: Option<&str>,
) -> Result<(), RuntimeError> {
    let name = json_scalar(city.get("Name"));
    let shown = name.clone().unwrap_or_else(|| "an unnamed place".into());
    let mut d = Draft::new(
        "locations",
        if local {
            format!("Weather app local weather at {shown}")
        } else {
            format!("Weather app saved city {shown}")
        },
    );
    d.fact(FactType::Path, Some(path), find);
    let said = d.json_fields(city, inv, &FIELDS);
    // a date member prints as RFC 3339 text; the time-zone and location updates are Unix seconds
    let date = |v: &Option<String>| date_text(v.as_deref());
    let updated = json_scalar(city.get("UpateTime"));
    d.time(
        updated.as_deref(),
        date(&updated),
        if local {
            "Weather app local weather updated"
        } else {
            "Weather app saved city updated"
        },
        inv,
    );
    let zone = json_scalar(city.get("CityTimeZoneUpdateDateKey"));
    d.time(
        zone.as_deref(),
        unix_seconds(zone.as_deref()),
        "Weather app city time zone updated",
        inv,
    );
    if local {
        let at = json_scalar(doc.get("LastLocationUpdateTime"));
        d.time(
            at.as_deref(),
            unix_seconds(at.as_deref()),
            "Weather app last updated the device's location",
            inv,
        );
    } else {
        let at = json_scalar(doc.get("LastUpdated"));
        d.time(
            at.as_deref(),
            date(&at),
            "Weather app last updated its cities",
            inv,
        );
    }
    d.fact(FactType::Text, version, inv);
    d.interpretation = format!(
        "{} of the Weather app's preferences ({}): {}; {}.",
        if local {
            "LocalWeather"
        } else {
            "A city of Cities"
        },
        version
            .map(|v| format!("PrefsVersion {v}"))
            .unwrap_or_else(|| "the layout without PrefsVersion".into()),
        said.join(", "),
        if local {
            "the app's own location entry: where Location Services put the phone when the Weather app last updated it"
        } else {
            "a city the user added to the Weather app, a place they chose to follow (a home, a destination, where someone lives), not where the phone was"
        },
    );
    run.record(d)
}
