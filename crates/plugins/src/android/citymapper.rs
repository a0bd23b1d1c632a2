//! Citymapper (`com.citymapper.app.release`), ALEAPP's `citymapper`
//! (`get_citymapperLocationHistory`, `get_citymapperSavedTrips`, `get_citymapperAppPreferences`):
//! the places the user looked up, chose or saved in the journey planner (home and work among
//! them), the commutes saved between home and work, and the app's own state — the last position
//! it had for the phone, the IP address it recorded, when it was last used.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/citymapper.db`: `locationhistoryentry` | one `locations` per entry ("Citymapper place <name> (<role>)") | entry id, name, address, latitude, longitude, role as stored (`home`, `work`; none for another place); dated (`date`: ORMLite's local date text, or Unix by its size when digits) |
//! | `databases/citymapper.db`: `savedtripentry` | one `locations` per saved commute ("Citymapper saved trip <id> (<commute type>)") | trip id, commute type, region code, the home and the work latitude and longitude; created (as `date`) |
//! | `shared_prefs/preferences.xml`, `Session.xml`, `superProperties.xml`, `no_backup_preferences.xml` | one per file holding the keys read ("Citymapper preferences <file>"; `locations` when it holds `LAST_LOCATION`, else `app_usage`) | device id, device IP address, the last location as stored ("latitude,longitude") and its two parts, last and earliest version seen, sessions, language, app installed, region, connectivity state, OS API level, build flavour; last used and terms accepted (Unix, unit by size) |
//!
//! A history entry is a place the user searched for, set as a start or destination, or saved
//! (its role says home or work): the place's coordinates, not where the phone was; the date is
//! the one the app stored with the entry. A saved trip's coordinates are the home and work the
//! user gave the app. `LAST_LOCATION` is the last position the app had for the phone; `deviceIp`
//! is the address as the app stored it (whether the phone's public address is not said). The
//! route of a saved trip (`tripData`, the app's JSON) is not read; other preferences are not read.
//! Identities: none — home and work are places (facts), the device id is the app's own install
//! id. Tables and columns are taken by name (absent ones NULL: older releases keep fewer, and no
//! role); a `citymapper.db` with neither table, or a table without its coordinates, is noted, as
//! is a preferences file that holds no `<map>`.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};

use super::Located;
use crate::calls::Tables;
use crate::drafts::{Draft, RowPhenomena, date_text, record_draft, unix_by_magnitude};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// The package's data folder, as it appears in a path.
const PACKAGE: &str = "/com.citymapper.app.release/";

/// The preferences files read (ALEAPP's).
pub const PREFS: [&str; 4] = [
    "preferences.xml",
    "Session.xml",
    "superProperties.xml",
    "no_backup_preferences.xml",
];

/// Whether `l` is Citymapper's database.
pub fn is_store(l: &Located) -> bool {
    l.name() == "citymapper.db" && l.path.contains(&format!("{PACKAGE}databases/"))
}

/// Whether `l` is one of Citymapper's preferences files read.
pub fn is_prefs(l: &Located) -> bool {
    PREFS.contains(&l.name()) && l.path.contains(&format!("{PACKAGE}shared_prefs/"))
}

/// Whether `path` is one of Citymapper's files read (for `categorise`).
pub fn is_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    (name == "citymapper.db" && path.contains(&format!("{PACKAGE}databases/")))
        || (PREFS.contains(&name) && path.contains(&format!("{PACKAGE}shared_prefs/")))
}

/// A stored date: Unix (seconds or milliseconds, by magnitude) when it is digits, else date text
/// (ORMLite's `yyyy-MM-dd HH:mm:ss.SSSSSS`, local, no zone).
fn stamp(value: Option<&str>) -> Option<TimeEncoding> {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            unix_by_magnitude(value)
        }
        _ => date_text(value),
    }
}

/// One of Citymapper's files.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if is_prefs(l) {
        prefs(ctx, l)
    } else {
        store(ctx, l)
    }
}

/// `citymapper.db`: the location history and the saved trips.
fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Citymapper's citymapper.db",
        &schema,
        &["locationhistoryentry", "savedtripentry"],
    )?
    else {
        return Ok(());
    };
    if tables
        .need("locationhistoryentry", &["lat", "lng"])?
        .is_some()
    {
        super::record_table(
            ctx,
            l,
            &schema,
            "lat",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "locationhistoryentry",
                category: "locations",
                what: "a place in Citymapper's location history — one the user searched for, chose as a start or destination, or saved (role as stored: home, work); the place's coordinates, not where the phone was; dated as the app stored it",
                title: &|t: &Table, row: &[Option<String>]| {
                    let shown = raw(t, row, "name")
                        .filter(|v| !v.trim().is_empty())
                        .or_else(|| raw(t, row, "address"))
                        .or_else(|| {
                            Some(format!(
                                "{}, {}",
                                t.get(row, "lat").unwrap_or("?"),
                                t.get(row, "lng").unwrap_or("?")
                            ))
                        })
                        .unwrap_or_default();
                    match raw(t, row, "role").filter(|r| !r.trim().is_empty()) {
                        Some(role) => format!("Citymapper place {shown} ({role})"),
                        None => format!("Citymapper place {shown}"),
                    }
                },
                fields: &[
                    ("id", FactType::Identifier, "entry id"),
                    ("name", FactType::Text, "name"),
                    ("address", FactType::Text, "address"),
                    ("lat", FactType::Text, "latitude"),
                    ("lng", FactType::Text, "longitude"),
                    ("role", FactType::Text, "role"),
                ],
                times: &[("date", "Citymapper location history entry dated", stamp)],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if tables.need("savedtripentry", &["id"])?.is_some() {
        super::record_table(
            ctx,
            l,
            &schema,
            "id",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "savedtripentry",
                category: "locations",
                what: "a commute saved in Citymapper between the home and the work the user gave the app (commute type as stored; the route itself, tripData, not read)",
                title: &|t: &Table, row: &[Option<String>]| {
                    let id = t.get(row, "id").unwrap_or("?");
                    match raw(t, row, "commuteType").filter(|c| !c.trim().is_empty()) {
                        Some(c) => format!("Citymapper saved trip {id} ({c})"),
                        None => format!("Citymapper saved trip {id}"),
                    }
                },
                fields: &[
                    ("id", FactType::Identifier, "trip id"),
                    ("commuteType", FactType::Text, "commute type"),
                    ("regionCode", FactType::Text, "region"),
                    ("homeLat", FactType::Text, "home latitude"),
                    ("homeLng", FactType::Text, "home longitude"),
                    ("workLat", FactType::Text, "work latitude"),
                    ("workLng", FactType::Text, "work longitude"),
                ],
                times: &[("created", "Citymapper commute saved", stamp)],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}

/// The preferences read: `(key, type, label)`.
const KEYS: &[(&str, FactType, &str)] = &[
    ("deviceID", FactType::Identifier, "device id"),
    ("deviceIp", FactType::Text, "device IP address"),
    ("LAST_LOCATION", FactType::Text, "last location"),
    ("lastSeenVersion", FactType::Text, "last version seen"),
    (
        "earliestSeenVersion",
        FactType::Text,
        "earliest version seen",
    ),
    ("SessionCount", FactType::Count, "sessions"),
    ("Language", FactType::Text, "language"),
    ("App Installed", FactType::Text, "app installed"),
    ("CM Region", FactType::Text, "region"),
    ("Connectivity State", FactType::Text, "connectivity state"),
    ("OS API Level", FactType::Text, "OS API level"),
    ("Build Flavor", FactType::Text, "build flavour"),
];

/// The times read: `(key, description)`.
const TIMES: &[(&str, &str)] = &[
    ("LastUsedDate", "Citymapper last used"),
    (
        "onboarding_terms_accepted_date",
        "Citymapper terms accepted",
    ),
];

/// One preferences file: the keys ALEAPP reads, one phenomenon when it holds any.
fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    if entries.is_empty() && !inv.output.text.contains("<map") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse Citymapper's preferences because they hold no <map> of preferences",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let get = |k: &str| -> Option<String> {
        entries
            .iter()
            .find(|(n, _)| n.as_str() == k)
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let read = KEYS.iter().any(|&(k, ..)| get(k).is_some())
        || TIMES.iter().any(|&(k, _)| get(k).is_some());
    if !read {
        return Ok(());
    }
    let file = l.name().to_string();
    let located = get("LAST_LOCATION");
    let mut d = Draft::new(
        if located.is_some() {
            "locations"
        } else {
            "app_usage"
        },
        format!("Citymapper preferences {file}"),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for &(k, t, label) in KEYS {
        if let Some(v) = get(k) {
            d.fact(t, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    // "latitude,longitude": each part as it is written in the file
    if let Some((lat, lon)) = located.as_deref().and_then(|v| v.split_once(',')) {
        let (lat, lon) = (lat.trim(), lon.trim());
        if lat.parse::<f64>().is_ok() && lon.parse::<f64>().is_ok() {
            d.fact(FactType::Text, Some(lat), &inv);
            d.fact(FactType::Text, Some(lon), &inv);
            said.push(format!("last latitude {lat}, last longitude {lon}"));
        }
    }
    for &(k, what) in TIMES {
        let v = get(k);
        d.time(v.as_deref(), unix_by_magnitude(v.as_deref()), what, &inv);
        if let Some(v) = v {
            said.push(format!("{k} {v}"));
        }
    }
    d.interpretation = format!(
        "{file} of Citymapper's shared preferences ({}): the app's own state — {}. LAST_LOCATION is the last position the app had for the phone (latitude,longitude); deviceIp the IP address as the app stored it; times Unix, their unit by their size.",
        l.path,
        said.join(", ")
    );
    record_draft(ctx, d)
}
