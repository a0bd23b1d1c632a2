//! Runkeeper (`com.fitnesskeeper.runkeeper.pro`: `databases/RunKeeper.sqlite` and
//! `shared_prefs/com.fitnesskeeper.runkeeper.pro_preferences.xml`), ALEAPP's
//! `RunkeeperActivities` and `RunkeeperUser`: the activities the app recorded or was given —
//! when, how long, how far, where each route began and ended — and the account signed in.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `RunKeeper.sqlite`: `trips` | one `health` per activity ("Runkeeper activity <id>") | id, UUID, activity type, distance, elapsed time, calories, heart rate, total climb, name (as stored); started, synced (Unix ms) |
//! | `RunKeeper.sqlite`: `points` | one `locations` per activity with points ("Runkeeper route of activity <id>") | activity id, points, the first and last latitude and longitude; the first and last point's time (Unix ms) |
//! | the preferences | one `accounts` ("Runkeeper account <name or id>") | user id, ASICS id, name, gender, height, weight, profile privacy, lifetime distance, server locale, profile picture URL, e-mail preference, Fitbit, Garmin and Google Fit connected (when stored as flags), the birthday as stored when before 1970; created (Unix s), last active, weight last synced, born (Unix ms) |
//!
//! The route is summarised in one pass (a window numbering each activity's points by time, then
//! row), never one phenomenon per point: the points stay in the store, one `sqlite_query` away.
//! Points whose activity the `trips` table no longer holds still make a route (the activity id
//! says which). Values and units as the app stores them (ALEAPP shows them so too).
//!
//! Identities: the preferences are the app's own of the account signed in on the phone: its
//! user id (`runkeeper:<id>`) and ASICS id (`asics:<id>`), qualified by `read_xml`'s `qualify`,
//! and its name are the device's user's (`owner`). The activities name no account. The
//! services' authorisation keys (`fitbitAuth`, `garminAuth`, `googleFitnessAuth`) are copied
//! only when they hold a flag (`true`, `false`); any other value — a token — is said to be
//! stored, never copied (`read_xml`'s output is the file, as for every preferences reader).
//! Columns are taken by name (an older `trips` without name, climb, heart rate or sync time is
//! read with those NULL; `points` without `time_at_point` gives the ends by row order); a store
//! with neither table, or a table without its key columns (`trips`: `_id`; `points`: `trip_id`,
//! `latitude`, `longitude`), is noted, as are preferences whose XML is malformed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::Tables;
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, observe_owner_ids, schema_on};
use crate::outputs::{Table, raw};

const APP: &str = "/com.fitnesskeeper.runkeeper.pro/";

/// The preferences' file name.
const PREFS_NAME: &str = "com.fitnesskeeper.runkeeper.pro_preferences.xml";

/// Whether `l` is Runkeeper's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "RunKeeper.sqlite"
        && l.path
            .contains("/com.fitnesskeeper.runkeeper.pro/databases/")
}

/// Whether `l` is Runkeeper's preferences (the account signed in).
pub fn is_prefs(l: &Located) -> bool {
    l.path.ends_with(&format!("{APP}shared_prefs/{PREFS_NAME}"))
}

/// One `RunKeeper.sqlite`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Runkeeper's RunKeeper.sqlite",
        &schema,
        &["trips", "points"],
    )?
    else {
        return Ok(());
    };
    if tables.need("trips", &["_id"])?.is_some() {
        trips(ctx, l, &schema)?;
    }
    if let Some(cols) = tables.need("points", &["trip_id", "latitude", "longitude"])? {
        routes(ctx, l, cols.contains("time_at_point"))?;
    }
    Ok(())
}

fn trips(ctx: &AgentCtx<'_>, l: &Located, schema: &super::Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "_id",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "trips",
            category: "health",
            what: "an activity Runkeeper recorded or was given (values and units as the app stores them; started and synced Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Runkeeper activity {}",
                    raw(t, row, "_id").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("_id", FactType::Identifier, "id"),
                ("uuid", FactType::Identifier, "UUID"),
                ("activity_type", FactType::Text, "activity type"),
                ("distance", FactType::Text, "distance"),
                ("elapsed_time", FactType::Text, "elapsed time"),
                ("calories", FactType::Text, "calories"),
                ("heart_rate", FactType::Text, "heart rate"),
                ("totalClimb", FactType::Text, "total climb"),
                ("nickname", FactType::Text, "name"),
            ],
            times: &[
                ("start_date", "Runkeeper activity started", unix_millis),
                ("device_sync_time", "Runkeeper activity synced", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn routes(ctx: &AgentCtx<'_>, l: &Located, timed: bool) -> Result<(), RuntimeError> {
    let sql = super::mapmywalk::route_summary_sql(
        "points",
        "trip_id",
        "latitude",
        "longitude",
        timed.then_some("time_at_point"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "points",
            category: "locations",
            what: "the route of a Runkeeper activity, its points summarised in the query: how many, where the first and the last were (decimal degrees as stored) and when (Unix milliseconds; by row order, without times, where the table keeps none); the points themselves stay in the store",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Runkeeper route of activity {}",
                    raw(t, row, "activity").unwrap_or_else(|| "?".into())
                )
            },
            fields: super::mapmywalk::ROUTE_FIELDS,
            times: &[
                ("first_time", "First Runkeeper route point", unix_millis),
                ("last_time", "Last Runkeeper route point", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The preferences read as facts (ALEAPP's `RunkeeperUser` keys but the times, the birthday and
/// the services' authorisations, read below).
const PREFS: &[(&str, FactType, &str)] = &[
    ("id", FactType::Account, "user id"),
    ("asicsId", FactType::Account, "ASICS id"),
    ("name", FactType::Name, "name"),
    ("gender", FactType::Text, "gender"),
    ("height", FactType::Text, "height"),
    ("userWeight", FactType::Text, "weight"),
    ("profilePrivacy", FactType::Text, "profile privacy"),
    (
        "lifetimeTotalDistance",
        FactType::Text,
        "lifetime total distance",
    ),
    ("server_locale", FactType::Text, "server locale"),
    ("profilePictureUrl", FactType::Url, "profile picture"),
    ("email_preference", FactType::Text, "e-mail preference"),
];

/// The services' authorisations: copied only as a flag.
const AUTHS: &[(&str, &str)] = &[
    ("fitbitAuth", "Fitbit connected"),
    ("garminAuth", "Garmin connected"),
    ("googleFitnessAuth", "Google Fit connected"),
];

/// The preferences' times: key, description, encoding.
const TIMES: &[(&str, &str, crate::drafts::Encoding)] = &[
    (
        "creationTime",
        "Runkeeper account created",
        unix_by_magnitude,
    ),
    ("lastActive", "Runkeeper account last active", unix_millis),
    (
        "lastWeightSyncTime",
        "Runkeeper weight last synced",
        unix_millis,
    ),
    ("birthday", "Date of birth (Runkeeper user)", unix_millis),
];

/// The preferences: the account signed in, observed as the owner's.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(
        ctx,
        l,
        "Runkeeper",
        Some(serde_json::json!({ "id": "runkeeper", "asicsId": "asics" })),
    )?
    else {
        return Ok(());
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    let name = get("name");
    let Some(shown) = name.clone().or_else(|| get("id")) else {
        return Ok(());
    };
    let mut d = Draft::new("accounts", format!("Runkeeper account {shown}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (key, ft, label) in PREFS {
        if let Some(v) = get(key) {
            d.fact(*ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (key, label) in AUTHS {
        match get(key) {
            Some(v) if v == "true" || v == "false" => {
                d.fact(FactType::Text, Some(&v), &inv);
                said.push(format!("{label} {v}"));
            }
            Some(_) => said.push(format!(
                "{key} holds a value that is not a flag (stored, not copied)"
            )),
            None => {}
        }
    }
    for (key, what, encoding) in TIMES {
        let v = get(key);
        match encoding(v.as_deref()) {
            Some(enc) => {
                d.time(v.as_deref(), Some(enc), what, &inv);
                said.push(format!("{key} {}", v.as_deref().unwrap_or_default()));
            }
            // a birthday before 1970 is negative: kept as stored, no time
            None if *key == "birthday" => {
                if let Some(b) = v.as_deref() {
                    d.fact(FactType::Text, Some(b), &inv);
                    said.push(format!("birthday {b} (Unix ms as stored, before 1970)"));
                }
            }
            None => {}
        }
    }
    d.interpretation = format!(
        "{}: the Runkeeper account signed in on the phone: {} (values as stored; creationTime Unix seconds, the other times Unix milliseconds).",
        l.name(),
        said.join(", "),
    );
    record_draft(ctx, d)?;
    let qualified = |key: &str| {
        let prefix = format!("# qualified {key}: ");
        inv.output
            .text
            .lines()
            .find_map(|line| line.strip_prefix(prefix.as_str()))
            .map(str::to_string)
    };
    observe_owner_ids(
        ctx,
        &inv,
        vec![
            (qualified("id"), IdType::AccountId, "user id (qualified)"),
            (
                qualified("asicsId"),
                IdType::AccountId,
                "ASICS id (qualified)",
            ),
            (name, IdType::DisplayName, "name"),
        ],
        &|what| {
            format!(
                "The Runkeeper {what} of the account signed in on the device ({}), the device's user.",
                l.name()
            )
        },
    )
}
