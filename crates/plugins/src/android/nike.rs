//! Nike Run Club (`com.nike.plusgps/databases/com.nike.nrc.room…` and `ns_inbox.db`), ALEAPP's
//! `NikeActivities`, `NikeAMoments`, `NikePolyline` and `NikeNotifications`: the runs the app
//! recorded or synced — when, how far and fast, where the route began and ended — and the
//! notifications its inbox kept.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `activity` (with `activity_tag`, `activity_summary`, `activity_moment`) | one `health` per activity ("Nike Run Club activity <id>") | activity id, platform id, app id, type, user category, deleted, active duration (ms); its tags — name, location, temperature, weather, recording app version; its summary — total distance, calories, steps, ascent, descent, mean and max speed, mean pace, cadence and heart rate; how many moments it kept, how many pauses and GPS-signal losses; started, ended, last modified (Unix ms) |
//! | `activity_polyline` | one `locations` per route ("Nike Run Club route of activity <id>") | activity id, polyline type, source, how many points, the first and last latitude and longitude (decoded from the encoded polyline in the query); the activity's start and end |
//! | `ns_inbox.db`: `inbox` | one `notifications` per notification ("Nike Run Club notification: <message>") | sender user and app ids, type, message, read, deleted; when (Unix ms) |
//!
//! The route is summarised, never one phenomenon per GPS point: the polyline is decoded inside
//! the `sqlite_query` (see `super::polyline`), so the first and last positions and the point
//! count are in the cited output. The per-second metrics (`activity_raw_metric`) and the single
//! moments are left in the store (one `sqlite_query` away); the moments are counted per activity.
//! Tags, summary and moment tables are taken where the store has them with the columns read
//! (an older store without them keeps its activities). No identity is observed: the store names
//! no account, and a notification's sender id is the service's, of no stated person. A store
//! without `activity` (or `inbox`), or whose table lacks its id and start columns, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, headline, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

const DIR: &str = "/com.nike.plusgps/databases/";

/// Whether `l` is Nike Run Club's activity store (`com.nike.nrc.room…`, not its `-wal`, `-shm`
/// or `-journal`).
pub fn is_store(l: &Located) -> bool {
    let n = l.name();
    l.path.contains(DIR)
        && n.starts_with("com.nike.nrc.room")
        && !["-wal", "-shm", "-journal"].iter().any(|s| n.ends_with(s))
}

/// Whether `l` is Nike Run Club's notification inbox.
pub fn is_inbox(l: &Located) -> bool {
    l.name() == "ns_inbox.db" && l.path.contains(DIR)
}

/// The tag types read from `activity_tag`, with their aliases.
const TAGS: &[(&str, &str)] = &[
    ("com.nike.name", "name"),
    ("location", "location"),
    ("com.nike.temperature", "temperature"),
    ("com.nike.weather", "weather"),
    ("com.nike.running.recordingappversion", "app_version"),
];

/// The summaries read from `activity_summary` (metric, summary type, alias).
const SUMMARIES: &[(&str, &str, &str)] = &[
    ("distance", "total", "distance"),
    ("calories", "total", "calories"),
    ("steps", "total", "steps"),
    ("ascent", "total", "ascent"),
    ("descent", "total", "descent"),
    ("speed", "mean", "speed_mean"),
    ("speed", "max", "speed_max"),
    ("pace", "mean", "pace"),
    ("cadence", "mean", "cadence"),
    ("heart_rate", "mean", "heart_rate"),
];

/// The first `value` of `table` whose `link` is the activity's id and which meets `cond`, as
/// `alias` (a correlated subquery on the activity `a`).
fn first_of(table: &str, value: &str, link: &str, cond: &str, alias: &str) -> String {
    format!(
        "(SELECT x.{value} FROM {table} x WHERE x.{link} = a.as2_sa_id AND {cond} ORDER BY x.rowid LIMIT 1) AS {alias}"
    )
}

/// One `com.nike.nrc.room…` store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Nike Run Club's activity store",
        &schema,
        &["activity"],
    )?
    else {
        return Ok(());
    };
    let Some(act) = tables.need("activity", &["as2_sa_id", "as2_sa_start_utc_ms"])? else {
        return Ok(());
    };
    let has = |t: &str, cols: &[&str]| {
        tables
            .get(t)
            .is_some_and(|c| cols.iter().all(|x| c.contains(*x)))
    };
    let a = |c: &str, alias: &str| column_or_null(act, "a.", c, alias);
    let mut select = vec![
        "a.rowid AS rid".to_string(),
        "a.as2_sa_id AS id".to_string(),
        a("as2_sa_platform_id", "platform_id"),
        a("as2_sa_app_id", "app_id"),
        a("as2_sa_type", "type"),
        a("as2_sa_user_category", "user_category"),
        a("as2_sa_is_deleted", "deleted"),
        a("as2_sa_active_duration_ms", "active_ms"),
        "a.as2_sa_start_utc_ms AS start_ms".to_string(),
        a("as2_sa_end_utc_ms", "end_ms"),
        a("as2_sa_last_modified_ms", "modified_ms"),
    ];
    let tags = has(
        "activity_tag",
        &["as2_t_activity_id", "as2_t_type", "as2_t_value"],
    );
    for (tag, alias) in TAGS {
        select.push(if tags {
            first_of(
                "activity_tag",
                "as2_t_value",
                "as2_t_activity_id",
                &format!("x.as2_t_type = '{tag}'"),
                alias,
            )
        } else {
            format!("NULL AS {alias}")
        });
    }
    let summary = has(
        "activity_summary",
        &[
            "as2_s_activity_id",
            "as2_s_metric_type",
            "as2_s_type",
            "as2_s_value",
        ],
    );
    for (metric, kind, alias) in SUMMARIES {
        select.push(if summary {
            first_of(
                "activity_summary",
                "as2_s_value",
                "as2_s_activity_id",
                &format!("x.as2_s_metric_type = '{metric}' AND x.as2_s_type = '{kind}'"),
                alias,
            )
        } else {
            format!("NULL AS {alias}")
        });
    }
    if has(
        "activity_moment",
        &["as2_m_activity_id", "as2_m_type", "as2_m_value"],
    ) {
        let count = |cond: &str, alias: &str| {
            format!(
                "(SELECT count(*) FROM activity_moment m WHERE m.as2_m_activity_id = a.as2_sa_id{cond}) AS {alias}"
            )
        };
        select.push(count("", "moments"));
        select.push(count(
            " AND m.as2_m_type = 'halt' AND m.as2_m_value IN ('pause', 'auto_pause')",
            "pauses",
        ));
        select.push(count(
            " AND m.as2_m_type = 'gps_signal' AND m.as2_m_value = 'lost'",
            "gps_lost",
        ));
    } else {
        select.extend(["NULL AS moments", "NULL AS pauses", "NULL AS gps_lost"].map(String::from));
    }
    let sql = format!(
        "SELECT {} FROM activity a ORDER BY a.rowid",
        select.join(", ")
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "activity",
            category: "health",
            what: "an activity Nike Run Club recorded or synced, with its tags and summary (values and units as the app stores them; durations and times Unix milliseconds; deleted as stored)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Nike Run Club activity {}",
                    raw(t, row, "id").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("id", FactType::Identifier, "activity id"),
                ("platform_id", FactType::Identifier, "platform id"),
                ("app_id", FactType::Text, "app id"),
                ("type", FactType::Text, "type"),
                ("user_category", FactType::Text, "user category"),
                ("deleted", FactType::Text, "deleted"),
                ("active_ms", FactType::Count, "active duration (ms)"),
                ("name", FactType::Text, "name"),
                ("location", FactType::Text, "location"),
                ("temperature", FactType::Text, "temperature"),
                ("weather", FactType::Text, "weather"),
                ("app_version", FactType::Text, "recording app version"),
                ("distance", FactType::Text, "distance"),
                ("calories", FactType::Text, "calories"),
                ("steps", FactType::Count, "steps"),
                ("ascent", FactType::Text, "ascent"),
                ("descent", FactType::Text, "descent"),
                ("speed_mean", FactType::Text, "mean speed"),
                ("speed_max", FactType::Text, "max speed"),
                ("pace", FactType::Text, "mean pace"),
                ("cadence", FactType::Text, "mean cadence"),
                ("heart_rate", FactType::Text, "mean heart rate"),
                ("moments", FactType::Count, "moments"),
                ("pauses", FactType::Count, "pauses"),
                ("gps_lost", FactType::Count, "GPS signal lost"),
            ],
            times: &[
                ("start_ms", "Nike Run Club activity started", unix_millis),
                ("end_ms", "Nike Run Club activity ended", unix_millis),
                (
                    "modified_ms",
                    "Nike Run Club activity modified",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )?;
    let Some(poly) = tables.need(
        "activity_polyline",
        &["as2_p_activity_id", "as2_p_encoded_polyline"],
    )?
    else {
        return Ok(());
    };
    let times = if act.contains("as2_sa_end_utc_ms") {
        "a.as2_sa_start_utc_ms AS start_ms, a.as2_sa_end_utc_ms AS end_ms"
    } else {
        "a.as2_sa_start_utc_ms AS start_ms, NULL AS end_ms"
    };
    let sql = format!(
        "WITH RECURSIVE {} SELECT p.rowid AS rid, p.as2_p_activity_id AS activity, {}, {}, g.points AS points, g.first_lat AS first_lat, g.first_lon AS first_lon, g.last_lat AS last_lat, g.last_lon AS last_lon, {times} FROM activity_polyline p LEFT JOIN pl g ON g.rid = p.rowid LEFT JOIN activity a ON a.as2_sa_id = p.as2_p_activity_id ORDER BY p.rowid",
        super::polyline::summary_ctes("activity_polyline", "as2_p_encoded_polyline"),
        column_or_null(poly, "p.", "as2_p_type", "kind"),
        column_or_null(poly, "p.", "as2_p_source", "source"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "activity_polyline",
            category: "locations",
            what: "the route of a Nike Run Club activity, its encoded polyline decoded in the query: how many points, where it began and where it ended (decimal degrees), the activity's start and end (Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Nike Run Club route of activity {}",
                    raw(t, row, "activity").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("activity", FactType::Identifier, "activity id"),
                ("kind", FactType::Text, "polyline type"),
                ("source", FactType::Text, "source"),
                ("points", FactType::Count, "points"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
            times: &[
                (
                    "start_ms",
                    "Nike Run Club route's activity started",
                    unix_millis,
                ),
                (
                    "end_ms",
                    "Nike Run Club route's activity ended",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// One `ns_inbox.db`.
pub fn inbox(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if Tables::of(
        ctx,
        &name,
        "Nike Run Club's notification inbox",
        &schema,
        &["inbox"],
    )?
    .is_none()
    {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "notification_timestamp",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "inbox",
            category: "notifications",
            what: "a notification Nike Run Club's inbox kept (read and deleted as stored; when Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| match raw(t, row, "message") {
                Some(m) => format!("Nike Run Club notification: {}", headline(&m)),
                None => format!(
                    "Nike Run Club notification {}",
                    t.get(row, "rid").unwrap_or("?")
                ),
            },
            fields: &[
                ("sender_user_id", FactType::Identifier, "sender user id"),
                ("sender_app_id", FactType::Text, "sender app id"),
                ("notification_type", FactType::Text, "type"),
                ("message", FactType::Text, "message"),
                ("read", FactType::Text, "read"),
                ("deleted", FactType::Text, "deleted"),
            ],
            times: &[(
                "notification_timestamp",
                "Nike Run Club notification",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}
