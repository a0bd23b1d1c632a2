//! MeteoSwiss (the Swiss weather service's app), iLEAPP's `swissmeteo` ("Swissmeteo -
//! Interaction with places", "App opening with geolocation"): whose forecasts the user looked
//! at, and where the phone was when the app was opened.
//!
//! | store / table | phenomenon | fields |
//! |---|---|---|
//! | `Library/Application Support/databases/favorites_prediction_db.sqlite` `plz_interaction` | one `locations` per forecast looked at ("MeteoSwiss forecast viewed for <postal code> <place>") | when (`timestamp`, Unix ms), the postal code (`plz`), the latitude and longitude stored with it (`lat`, `lon`); from `Documents/localdata.sqlite` of the same container (`plz`: `plz_pk`, `primary_name`, `altitude`, `x`, `y`), the place's name, altitude and centre (Swiss LV03 grid coordinates turned into latitude and longitude in the query, by swisstopo's approximate formulas as iLEAPP turns them) |
//! | the same store's `app_open` | one `locations` per opening ("MeteoSwiss app opened at <lat>, <lon>") | when (`timestamp`, Unix ms), latitude, longitude |
//!
//! A forecast looked at is a place the user was interested in (a home, a destination, where
//! someone is), not where the phone was; the app keeps these to predict the user's favourite
//! places. An opening's position is where the phone was when the app was opened (the app's
//! location for the local forecast). `localdata.sqlite` is the app's list of Swiss postal codes,
//! not the user's: it is read only for the postal codes the interactions name (an LV95
//! coordinate, from 2,000,000 east, is taken back to LV03 first). Tables and columns are taken
//! by name; a `favorites_prediction_db.sqlite` holding neither table, or whose tables lack
//! `timestamp`, is noted, as is a store that is no database. Identities: none.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::select_columns;
use crate::drafts::unix_millis;
use crate::outputs::raw;

const INTERACTION: &str = "plz_interaction";
const OPEN: &str = "app_open";
const PLACES: &str = "plz";

/// Where the store sits in the app's container.
const DATABASES: &str = "/Library/Application Support/databases/";

/// Postal codes asked of `localdata.sqlite` per query.
const CHUNK: usize = 500;

/// Triage of every MeteoSwiss store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("favorites_prediction_db.sqlite")? else {
        return Ok(());
    };
    let lists = run.find("localdata.sqlite")?;
    for path in paths.iter().filter(|p| p.contains(DATABASES)) {
        let container = &path[..path.find(DATABASES).unwrap_or(0)];
        let list = lists.as_ref().and_then(|(f, ps)| {
            ps.iter()
                .find(|p| **p == format!("{container}/Documents/localdata.sqlite"))
                .map(|p| (f, p.as_str()))
        });
        let Some(schema) = run.schema(path, &[INTERACTION, OPEN])? else {
            continue;
        };
        let (i, o) = (schema.columns(INTERACTION), schema.columns(OPEN));
        if i.is_empty() && o.is_empty() {
            run.ctx.unparsed(
                path,
                "unexpected schema: the database has neither plz_interaction nor app_open",
                None,
            )?;
            continue;
        }
        if !i.is_empty() && schema.require(run, INTERACTION, &["timestamp", "plz"])? {
            interactions(run, &find, path, &schema, list)?;
        }
        if !o.is_empty() && schema.require(run, OPEN, &["timestamp"])? {
            openings(run, &find, path, &schema)?;
        }
    }
    Ok(())
}

/// swisstopo's approximate LV03 → WGS84 formulas as SQL over `p.x` (east) and `p.y` (north):
/// `(latitude, longitude)` in degrees, rounded to six places. An LV95 value (from 2,000,000
/// east, 1,000,000 north) is taken back to LV03 first. Shared with Android's reader of the same
/// app.
pub(crate) fn wgs84() -> (String, String) {
    let e = "(CASE WHEN p.x >= 2000000 THEN p.x - 2000000 ELSE p.x END)";
    let n = "(CASE WHEN p.y >= 1000000 THEN p.y - 1000000 ELSE p.y END)";
    let y = format!("(({e} - 600000) / 1000000.0)");
    let x = format!("(({n} - 200000) / 1000000.0)");
    let lat = format!(
        "round((16.9023892 + 3.238272 * {x} - 0.270978 * {y} * {y} - 0.002528 * {x} * {x} - 0.0447 * {y} * {y} * {x} - 0.0140 * {x} * {x} * {x}) * 100 / 36, 6)"
    );
    let lon = format!(
        "round((2.6779094 + 4.728982 * {y} + 0.791484 * {y} * {x} + 0.1306 * {y} * {x} * {x} - 0.0436 * {y} * {y} * {y}) * 100 / 36, 6)"
    );
    (lat, lon)
}

/// A place of the postal-code list: the row's call and values (shared with Android's reader).
pub(crate) struct Place {
    pub(crate) inv: Invoked,
    pub(crate) name: Option<String>,
    pub(crate) altitude: Option<String>,
    pub(crate) latitude: Option<String>,
    pub(crate) longitude: Option<String>,
}

/// What a forecast interaction's interpretation says of a place found in the list.
pub(crate) const PLACE_NOTE: &str = " The place's name and centre are those of its postal code in the app's list (localdata.sqlite); the centre is its LV03 grid position turned into latitude and longitude by swisstopo's approximate formulas, in the query.";

/// Adds the place `p` of the postal-code list at `path` (listed by `found`) to `d`: the list's
/// path, the place's name, altitude and centre, each said in `said`.
pub(crate) fn place_facts(
    d: &mut Draft,
    p: &Place,
    path: &str,
    found: &Invoked,
    said: &mut Vec<String>,
) {
    d.fact(FactType::Path, Some(path), found);
    for (v, ft, what) in [
        (&p.name, FactType::Name, "the place"),
        (&p.altitude, FactType::Text, "its altitude (m)"),
        (&p.latitude, FactType::Text, "its centre's latitude"),
        (&p.longitude, FactType::Text, "its centre's longitude"),
    ] {
        if let Some(v) = v {
            d.fact(ft, Some(v), &p.inv);
            said.push(format!("{what} {v}"));
        }
    }
}

/// The places of `codes` (digits only) in the postal-code list at `path`.
fn places(
    run: &Run<'_, '_>,
    path: &str,
    codes: &[String],
) -> Result<BTreeMap<String, Place>, RuntimeError> {
    let mut out = BTreeMap::new();
    if codes.is_empty() {
        return Ok(out);
    }
    let Some(schema) = run.schema(path, &[PLACES])? else {
        return Ok(out);
    };
    if !schema.require(run, PLACES, &["plz_pk"])? {
        return Ok(out);
    }
    let c = schema.columns(PLACES);
    let (lat, lon) = if c.contains("x") && c.contains("y") {
        let (a, b) = wgs84();
        (format!("{a} AS latitude"), format!("{b} AS longitude"))
    } else {
        ("NULL AS latitude".into(), "NULL AS longitude".into())
    };
    for chunk in codes.chunks(CHUNK) {
        let sql = format!(
            "SELECT p.plz_pk AS code, {}, {lat}, {lon} FROM {PLACES} p WHERE p.plz_pk IN ({}) ORDER BY p.plz_pk",
            select_columns(
                &c,
                "p.",
                &[("primary_name", "name"), ("altitude", "altitude")]
            ),
            chunk.join(", ")
        );
        let Some((inv, t)) = run.query(path, &sql, (CHUNK * 4) as u64)? else {
            return Ok(out);
        };
        for row in &t.rows {
            let get = |c: &str| raw(&t, row, c).filter(|v| !v.is_empty());
            let Some(code) = get("code") else {
                continue;
            };
            out.entry(code).or_insert(Place {
                inv: inv.clone(),
                name: get("name"),
                altitude: get("altitude"),
                latitude: get("latitude"),
                longitude: get("longitude"),
            });
        }
    }
    Ok(out)
}

fn interactions(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    list: Option<(&Invoked, &str)>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT i.rowid AS rid, i.timestamp AS at, i.plz AS plz, {} FROM {INTERACTION} i",
        select_columns(
            &schema.columns(INTERACTION),
            "i.",
            &[("lat", "latitude"), ("lon", "longitude")]
        ),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let mut codes: Vec<String> = paged
        .rows()
        .filter_map(|(_, t, row)| t.get(row, "plz"))
        .filter(|c| c.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    codes.sort();
    codes.dedup();
    let known = match list {
        Some((_, l)) => places(run, l, &codes)?,
        None => BTreeMap::new(),
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let code = t.get(row, "plz");
        let place = code.and_then(|c| known.get(c));
        let name = place.and_then(|p| p.name.as_deref());
        let mut d = Draft::new(
            "locations",
            format!(
                "MeteoSwiss forecast viewed for {}{}",
                code.unwrap_or("?"),
                name.map(|n| format!(" {n}")).unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("plz", FactType::Text, "postal code"),
                ("latitude", FactType::Text, "latitude stored with it"),
                ("longitude", FactType::Text, "longitude stored with it"),
            ],
        );
        if let (Some(p), Some((lfind, l))) = (place, list) {
            place_facts(&mut d, p, l, lfind, &mut said);
        }
        let at = t.get(row, "at");
        d.time(at, unix_millis(at), "MeteoSwiss forecast viewed", inv);
        d.interpretation = format!(
            "{INTERACTION} row {} of {file}: the user looked at the MeteoSwiss forecast of a place ({}){}; a place they were interested in (a home, a destination, where someone is), not necessarily where the phone was.{}",
            t.get(row, "rid").unwrap_or("?"),
            said.join(", "),
            at.map(|a| format!(" at {a} (Unix ms)")).unwrap_or_default(),
            if place.is_some() { PLACE_NOTE } else { "" }
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "MeteoSwiss forecast interactions")
}

fn openings(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT o.rowid AS rid, o.timestamp AS at, {} FROM {OPEN} o",
        select_columns(
            &schema.columns(OPEN),
            "o.",
            &[("lat", "latitude"), ("lon", "longitude")]
        ),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let (lat, lon) = (t.get(row, "latitude"), t.get(row, "longitude"));
        let mut d = Draft::new(
            "locations",
            match (lat, lon) {
                (Some(a), Some(o)) => format!("MeteoSwiss app opened at {a}, {o}"),
                _ => "MeteoSwiss app opened".to_string(),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
            ],
        );
        let at = t.get(row, "at");
        d.time(at, unix_millis(at), "MeteoSwiss app opened", inv);
        d.interpretation = format!(
            "{OPEN} row {} of {file}: the MeteoSwiss app was opened{}{}; the position is where the phone was then (the location the app took for its local forecast).",
            t.get(row, "rid").unwrap_or("?"),
            at.map(|a| format!(" at {a} (Unix ms)")).unwrap_or_default(),
            if said.is_empty() {
                " (no position kept)".to_string()
            } else {
                format!(" ({})", said.join(", "))
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "MeteoSwiss app openings")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_name_the_grid_columns() {
        let (lat, lon) = wgs84();
        assert!(lat.starts_with("round((16.9023892 + 3.238272 * ") && lat.ends_with(", 6)"));
        assert!(lon.contains("p.x - 2000000") && lon.contains("p.y - 1000000"));
    }
}
