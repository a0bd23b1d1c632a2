//! WebKit's cached geoposition (`<package>/app_geolocation/CachedGeoposition.db`), ALEAPP's
//! `browserlocation`: the last position the AOSP Browser (`com.android.browser`) handed a web
//! page that asked for the device's location. The WebKit WebView of Android 4.3 and earlier
//! keeps the same cache for an app that gives it that folder, read alike and named by its
//! package.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `CachedPosition` | one `locations` per row ("Cached geoposition <latitude>, <longitude> (<package>)") | latitude and longitude (degrees), accuracy (m), altitude and its accuracy (m), heading (degrees), speed (m/s); when the position was acquired (`timestamp`, Unix ms) |
//!
//! WebKit keeps one position and replaces it with each new one, so the row says where the
//! device was (within the accuracy's radius, as the location provider reported it) the last
//! time a page was given its location — not a history, and not which page asked. Altitude,
//! heading and speed are NULL where the provider gave none.
//!
//! Schema drift: columns are taken by name (absent optional ones read as NULL); a store without
//! `CachedPosition`, or whose table lacks `latitude` or `longitude`, is noted. No identity is
//! observed (a position names no one).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::Tables;
use crate::drafts::{RowPhenomena, no_identity, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is a WebKit geolocation cache.
pub fn is_store(l: &Located) -> bool {
    l.path.ends_with("/app_geolocation/CachedGeoposition.db")
}

/// The package whose data folder holds the cache (`<package>/app_geolocation/…`).
fn package_of(path: &str) -> &str {
    path.rsplit('/').nth(2).unwrap_or("?")
}

/// One `CachedGeoposition.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if Tables::one(
        ctx,
        &name,
        "the WebKit geolocation cache",
        &schema,
        "CachedPosition",
        &["latitude", "longitude"],
    )?
    .is_none()
    {
        return Ok(());
    }
    let package = package_of(&l.path);
    let what = format!(
        "the last position WebKit in {package} gave a web page that asked for the device's location (one position, replaced by each new one; degrees, metres, metres per second; the time Unix milliseconds)"
    );
    super::record_table(
        ctx,
        l,
        &schema,
        "latitude",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "CachedPosition",
            category: "locations",
            what: &what,
            title: &|t, row| {
                format!(
                    "Cached geoposition {}, {} ({package})",
                    raw(t, row, "latitude").unwrap_or_else(|| "?".into()),
                    raw(t, row, "longitude").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("accuracy", FactType::Text, "accuracy (m)"),
                ("altitude", FactType::Text, "altitude (m)"),
                ("altitudeAccuracy", FactType::Text, "altitude accuracy (m)"),
                ("heading", FactType::Text, "heading (degrees)"),
                ("speed", FactType::Text, "speed (m/s)"),
            ],
            times: &[("timestamp", "Cached geoposition acquired", unix_millis)],
        },
        &mut no_identity,
    )
}
