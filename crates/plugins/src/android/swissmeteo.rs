//! MeteoSwiss for Android (the Swiss weather service's app, `ch.admin.meteoswiss`), ALEAPP's
//! `swissmeteo` (`plz_interaction`, `swissmeteo_plz`): whose forecasts the user looked at, and
//! where the phone was when the app was opened.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/favorites_prediction_db.sqlite`: `plz_interaction` | one `locations` per forecast looked at ("MeteoSwiss forecast viewed for <postal code> <place>") | the postal code (`plz`), the latitude and longitude stored with it (`lat`, `lon`); from `files/db/localdata.sqlite` of the same app folder (`plz`: `plz_pk`, `primary_name`, `altitude`, `x`, `y`), the place's name, altitude and centre (Swiss LV03 grid coordinates turned into latitude and longitude in the query, by swisstopo's approximate formulas as ALEAPP turns them); when (`timestamp`, Unix ms) |
//! | the same store's `app_open` | one `locations` per opening ("MeteoSwiss app opened at <lat>, <lon>") | latitude, longitude; when (`timestamp`, Unix ms) |
//!
//! A forecast looked at is a place the user was interested in (a home, a destination, where
//! someone is), not where the phone was; the app keeps these to predict the user's favourite
//! places. An opening's position is where the phone was when the app was opened (the location
//! the app took for the local forecast). `localdata.sqlite` is the app's list of Swiss postal
//! codes, not the user's: it is read only for the postal codes the interactions name (an LV95
//! coordinate, from 2,000,000 east, is taken back to LV03 first); which of `x` and `y` is the
//! easting is as ALEAPP reads them (`x` east). Tables and columns are taken by name; a
//! `favorites_prediction_db.sqlite` holding neither table, or whose tables lack `timestamp` (and
//! `plz`), is noted, as is a list without `plz.plz_pk`. Identities: none.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, note_pages_cap, select_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, query_on, schema_on};
use crate::ios::swissmeteo::{PLACE_NOTE, Place, place_facts};
use crate::outputs::{Table, raw};

const INTERACTION: &str = "plz_interaction";
const OPEN: &str = "app_open";
const PLACES: &str = "plz";

/// The app's data folder, as it appears in a path.
const PACKAGE: &str = "/ch.admin.meteoswiss/";

/// Postal codes asked of `localdata.sqlite` per query.
const CHUNK: usize = 500;

/// Whether `l` is MeteoSwiss' prediction store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "favorites_prediction_db.sqlite" && is_path(&l.path)
}

/// Whether `l` is MeteoSwiss' list of postal codes.
pub fn is_list(l: &Located) -> bool {
    l.name() == "localdata.sqlite" && is_path(&l.path)
}

/// Whether `path` is one of the MeteoSwiss files read (for `categorise`).
pub fn is_path(path: &str) -> bool {
    (path.ends_with("/databases/favorites_prediction_db.sqlite")
        || path.ends_with("/files/db/localdata.sqlite"))
        && path.contains(PACKAGE)
}

/// The postal-code list of the same app folder as the store `l`, among `lists`.
fn list_of<'a>(l: &Located, lists: &[&'a Located]) -> Option<&'a Located> {
    let container = &l.path[..l.path.rfind("/databases/")?];
    let want = format!("{container}/files/db/localdata.sqlite");
    lists
        .iter()
        .copied()
        .find(|x| x.tree == l.tree && x.path == want)
}

/// One `favorites_prediction_db.sqlite`, named from the postal-code lists `lists` (those of
/// the source, [`is_list`]).
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, lists: &[&Located]) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "MeteoSwiss' favorites_prediction_db.sqlite",
        &schema,
        &[INTERACTION, OPEN],
    )?
    else {
        return Ok(());
    };
    if let Some(cols) = tables.need(INTERACTION, &["timestamp", "plz"])? {
        interactions(ctx, l, cols, list_of(l, lists))?;
    }
    if tables.need(OPEN, &["timestamp"])?.is_some() {
        openings(ctx, l, &schema)?;
    }
    Ok(())
}

/// The places of `codes` (digits only) in the postal-code list `list`.
fn places(
    ctx: &AgentCtx<'_>,
    list: &Located,
    codes: &[String],
) -> Result<BTreeMap<String, Place>, RuntimeError> {
    let mut out = BTreeMap::new();
    if codes.is_empty() {
        return Ok(out);
    }
    let Some(schema) = schema_on(ctx, &list.tree, &list.path)? else {
        return Ok(out);
    };
    let list_name = artefact_name(&list.tree, &list.path);
    let Some(c) = Tables::one(
        ctx,
        &list_name,
        "MeteoSwiss' localdata.sqlite",
        &schema,
        PLACES,
        &["plz_pk"],
    )?
    else {
        return Ok(out);
    };
    let (lat, lon) = if c.contains("x") && c.contains("y") {
        let (a, b) = crate::ios::swissmeteo::wgs84();
        (format!("{a} AS latitude"), format!("{b} AS longitude"))
    } else {
        ("NULL AS latitude".into(), "NULL AS longitude".into())
    };
    for chunk in codes.chunks(CHUNK) {
        let sql = format!(
            "SELECT p.plz_pk AS code, {}, {lat}, {lon} FROM {PLACES} p WHERE p.plz_pk IN ({}) ORDER BY p.plz_pk",
            select_columns(
                c,
                "p.",
                &[("primary_name", "name"), ("altitude", "altitude")]
            ),
            chunk.join(", ")
        );
        let Some((inv, t)) = query_on(ctx, &list.tree, &list.path, &sql, (CHUNK * 4) as u64)?
        else {
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

/// `plz_interaction`: each forecast looked at, named from the postal-code list.
fn interactions(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &std::collections::BTreeSet<String>,
    list: Option<&Located>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT i.rowid AS rid, i.timestamp AS at, i.plz AS plz, {} FROM {INTERACTION} i ORDER BY i.rowid",
        select_columns(cols, "i.", &[("lat", "latitude"), ("lon", "longitude")]),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &pages,
        "MeteoSwiss forecast interactions",
    )?;
    let mut codes: Vec<String> = pages
        .rows()
        .filter_map(|(_, t, row)| t.get(row, "plz"))
        .filter(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    codes.sort();
    codes.dedup();
    let known = match list {
        Some(list) => places(ctx, list, &codes)?,
        None => BTreeMap::new(),
    };
    let file = l.name();
    for (inv, t, row) in pages.rows() {
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
        d.fact(FactType::Path, Some(&l.path), &l.found);
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
        if let (Some(p), Some(list)) = (place, list) {
            place_facts(&mut d, p, &list.path, &list.found, &mut said);
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
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `app_open`: where the phone was each time the app was opened.
fn openings(ctx: &AgentCtx<'_>, l: &Located, schema: &super::Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "timestamp",
        &|_| Vec::new(),
        &RowPhenomena {
            table: OPEN,
            category: "locations",
            what: "the MeteoSwiss app was opened; the position is where the phone was then (the location the app took for its local forecast), the time Unix milliseconds",
            title: &|t: &Table, row: &[Option<String>]| match (
                raw(t, row, "lat").filter(|v| !v.is_empty()),
                raw(t, row, "lon").filter(|v| !v.is_empty()),
            ) {
                (Some(a), Some(o)) => format!("MeteoSwiss app opened at {a}, {o}"),
                _ => "MeteoSwiss app opened".to_string(),
            },
            fields: &[
                ("lat", FactType::Text, "latitude"),
                ("lon", FactType::Text, "longitude"),
            ],
            times: &[("timestamp", "MeteoSwiss app opened", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}
