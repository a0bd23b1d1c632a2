//! PUMATRAC (`com.pumapumatrac/databases/pumatrac-db`), ALEAPP's `PumaActivities` and
//! `PumaUsers`: the workouts the app recorded — when, how long, how far and fast, in which city,
//! where each route began and ended — and the users it keeps, the account signed in among them.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `completed_exercises` | one `health` per exercise ("PUMATRAC exercise <id>") | id, duration, score, calories, city, country, distance, max and mean altitude, max and mean speed, average time per km, run location type, current pace (as stored); started, ended (Unix ms) |
//! | `positions` | one `locations` per exercise with positions ("PUMATRAC route of exercise <id>") | exercise id, points, the first and last latitude and longitude; the first and last point's time (Unix ms) |
//! | `users` | one `accounts` per user ("PUMATRAC user <name>") | user id, e-mail, name, sex, date of birth (the UTC day, computed in the query), weight, height, country, location, interests, profile image URL, total score, following and followers, goal, preferred workout time of day and duration (as stored), why it is held as the owner's; born (Unix ms, when after 1970) |
//!
//! The route is summarised in one pass (a window numbering each exercise's positions by time,
//! then row), never one phenomenon per point: the points stay in the store, one `sqlite_query`
//! away; a `positions` table without `timestamp` gives the ends by row order and no time. The
//! values are the app's, units as stored (ALEAPP shows them so too). A date of birth before
//! 1970 is a negative number: its day is written in the query, no time is made of it.
//!
//! Identities: the user held on the phone — the only row of `users`, or the only row with an
//! e-mail address (the app receives other athletes' profiles without theirs; the reason is a
//! fact) — is the device's user's (`owner`: e-mail, `pumatrac:<id>` qualified in the query,
//! name); any other row (an athlete followed or seen in the app) is a person `pumatrac:<id>`
//! with their name. Columns are taken by name (an older layout without score, pace or
//! preferences is read with those NULL); a store with none of the three tables, or a table
//! without its key columns (`completed_exercises`: `id`; `positions`: `completedExerciseId`,
//! `lat`, `lng`; `users`: `id`), is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, observe_columns, observe_row_person, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is PUMATRAC's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "pumatrac-db" && l.path.contains("/com.pumapumatrac/databases/")
}

/// One `pumatrac-db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "PUMATRAC's pumatrac-db",
        &schema,
        &["completed_exercises", "positions", "users"],
    )?
    else {
        return Ok(());
    };
    if tables.need("completed_exercises", &["id"])?.is_some() {
        exercises(ctx, l, &schema)?;
    }
    if let Some(cols) = tables.need("positions", &["completedExerciseId", "lat", "lng"])? {
        routes(ctx, l, cols.contains("timestamp"))?;
    }
    if let Some(cols) = tables.need("users", &["id"])? {
        users(ctx, l, cols)?;
    }
    Ok(())
}

fn exercises(ctx: &AgentCtx<'_>, l: &Located, schema: &super::Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "id",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "completed_exercises",
            category: "health",
            what: "a workout PUMATRAC recorded (values and units as the app stores them; started and ended Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "PUMATRAC exercise {}",
                    raw(t, row, "id").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("id", FactType::Identifier, "id"),
                ("duration", FactType::Text, "duration"),
                ("score", FactType::Text, "score"),
                ("calories", FactType::Text, "calories"),
                ("city", FactType::Text, "city"),
                ("country", FactType::Text, "country"),
                ("distance", FactType::Text, "distance"),
                ("maxAltitude", FactType::Text, "max altitude"),
                ("meanAltitude", FactType::Text, "mean altitude"),
                ("maxSpeed", FactType::Text, "max speed"),
                ("meanSpeed", FactType::Text, "mean speed"),
                ("averageTimePerKm", FactType::Text, "average time per km"),
                ("runLocationType", FactType::Text, "run location type"),
                ("currentPace", FactType::Text, "current pace"),
            ],
            times: &[
                ("startTime", "PUMATRAC exercise started", unix_millis),
                ("endTime", "PUMATRAC exercise ended", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn routes(ctx: &AgentCtx<'_>, l: &Located, timed: bool) -> Result<(), RuntimeError> {
    let sql = super::mapmywalk::route_summary_sql(
        "positions",
        "completedExerciseId",
        "lat",
        "lng",
        timed.then_some("timestamp"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "positions",
            category: "locations",
            what: "the route of a PUMATRAC exercise, its positions summarised in the query: how many, where the first and the last were (decimal degrees as stored) and when (Unix milliseconds; by row order, without times, where the table keeps none); the points themselves stay in the store",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "PUMATRAC route of exercise {}",
                    raw(t, row, "activity").unwrap_or_else(|| "?".into())
                )
            },
            fields: super::mapmywalk::ROUTE_FIELDS,
            times: &[
                ("first_time", "First PUMATRAC route point", unix_millis),
                ("last_time", "Last PUMATRAC route point", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn users(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let u = |col: &str| column_or_null(cols, "u.", col, col);
    let born = if cols.contains("dateOfBirth") {
        "CASE WHEN typeof(u.dateOfBirth) IN ('integer', 'real') THEN date(u.dateOfBirth / 1000.0, 'unixepoch') END AS born"
    } else {
        "NULL AS born"
    };
    let by_email = if cols.contains("email") {
        "WHEN u.email IS NOT NULL AND u.email != '' AND (SELECT count(*) FROM users WHERE email IS NOT NULL AND email != '') = 1 THEN 'the only user with an e-mail address' "
    } else {
        ""
    };
    let sql = format!(
        "SELECT u.rowid AS rid, u.id AS id, {}, {}, {}, {}, {born}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, CASE WHEN (SELECT count(*) FROM users) = 1 THEN 'the only user of the store' {by_email}END AS owner_reason FROM users u ORDER BY u.rowid",
        crate::calls::qualified_or_null(cols, "u.", "id", "pumatrac", "qualified"),
        u("email"),
        u("name"),
        u("sex"),
        u("dateOfBirth"),
        u("weight"),
        u("height"),
        u("country"),
        u("location"),
        u("interestsIds"),
        u("profileImageUrl"),
        u("totalScore"),
        u("followingCount"),
        u("followersCount"),
        u("goal_id"),
        u("preferences_workoutTimeOfDay"),
        u("preferences_workoutDuration"),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "users",
            category: "accounts",
            what: "a PUMATRAC user the app keeps — the account signed in, or an athlete it showed (values as stored; the date of birth's UTC day computed in the query from its Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                let shown = raw(t, row, "name")
                    .or_else(|| raw(t, row, "email"))
                    .or_else(|| raw(t, row, "id"))
                    .unwrap_or_else(|| "?".into());
                format!("PUMATRAC user {shown}")
            },
            fields: &[
                ("id", FactType::Account, "user id"),
                ("email", FactType::Email, "e-mail"),
                ("name", FactType::Name, "name"),
                ("sex", FactType::Text, "sex"),
                ("born", FactType::Text, "date of birth (UTC day)"),
                ("weight", FactType::Text, "weight"),
                ("height", FactType::Text, "height"),
                ("country", FactType::Text, "country"),
                ("location", FactType::Text, "location"),
                ("interestsIds", FactType::Text, "interests"),
                ("profileImageUrl", FactType::Url, "profile image"),
                ("totalScore", FactType::Text, "total score"),
                ("followingCount", FactType::Count, "following"),
                ("followersCount", FactType::Count, "followers"),
                ("goal_id", FactType::Identifier, "goal"),
                (
                    "preferences_workoutTimeOfDay",
                    FactType::Text,
                    "preferred workout time of day",
                ),
                (
                    "preferences_workoutDuration",
                    FactType::Text,
                    "preferred workout duration",
                ),
                ("owner_reason", FactType::Text, "held as"),
            ],
            times: &[("dateOfBirth", "Date of birth (PUMATRAC user)", unix_millis)],
        },
        &mut |inv, t, row| {
            let ids = [
                ("email", IdType::Email, "The e-mail address"),
                ("qualified", IdType::AccountId, "The PUMATRAC user id"),
                ("name", IdType::DisplayName, "The name"),
            ];
            if let Some(reason) = t.get(row, "owner_reason") {
                observe_columns(ctx, "owner", "device owner", t, row, inv, &ids, &|what| {
                    format!(
                        "{what} of the PUMATRAC account held on the device (users of {file}: {reason}), the device's user's."
                    )
                })
            } else {
                observe_row_person(ctx, t, row, inv, "name", &ids[1..], &|what, who| {
                    format!("{what} of the PUMATRAC user {who}, whom the app keeps ({file}).")
                })
            }
        },
    )
}
