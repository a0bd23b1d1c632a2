//! Zepp Life, formerly Mi Fit (`com.xiaomi.hm.health/databases/origin_db`, also kept as
//! `origin_db_<n>`), ALEAPP's `zepplife` (`extract_zepplife_heartrate`): the heart rate the
//! band measured — a reading every few minutes while it was worn, so when and on which days the
//! band was on someone's wrist.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `HEART_RATE` | one `health` per day (UTC) ("Zepp Life heart rate of <day>") | the day, how many samples, how many readings (values 1–250), the lowest, average and highest reading; the first and last sample's time |
//!
//! The samples are summarised per day, never one phenomenon per sample (they stay in the store,
//! one `sqlite_query` away). `TIME` is Unix seconds as ALEAPP reads it (a value from 10¹² on is
//! taken as milliseconds); a sample outside 1–250 (the band's "no reading") is counted but left
//! out of the lowest, average and highest. No identity: the store names no account (a number
//! after `origin_db_` is not read as one). Other tables of the store are not read. A store
//! without `HEART_RATE`, or whose `HEART_RATE` lacks `TIME` or `HR`, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::Tables;
use crate::drafts::{RowPhenomena, unix_by_magnitude};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is Zepp Life's `origin_db` (or `origin_db_<n>`; not a `-journal`, `-wal`, `-shm`).
pub fn is_store(l: &Located) -> bool {
    let n = l.name();
    l.path.contains("/com.xiaomi.hm.health/databases/")
        && (n == "origin_db" || n.starts_with("origin_db_"))
        && !["-wal", "-shm", "-journal"].iter().any(|s| n.ends_with(s))
}

/// One `origin_db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Zepp Life's origin_db",
        &schema,
        &["HEART_RATE"],
    )?
    else {
        return Ok(());
    };
    if tables.need("HEART_RATE", &["TIME", "HR"])?.is_none() {
        return Ok(());
    }
    let secs = "CASE WHEN TIME >= 1000000000000 THEN TIME / 1000 ELSE TIME END";
    let valid = "CASE WHEN HR BETWEEN 1 AND 250 THEN HR END";
    let sql = format!(
        "SELECT day AS rid, day, count(*) AS samples, count({valid}) AS readings, min({valid}) AS min_hr, round(avg({valid}), 1) AS avg_hr, max({valid}) AS max_hr, min(TIME) AS first_time, max(TIME) AS last_time FROM (SELECT date({secs}, 'unixepoch') AS day, TIME, HR FROM HEART_RATE WHERE TIME > 0) GROUP BY day ORDER BY day"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "HEART_RATE",
            category: "health",
            what: "a day (UTC) of the heart rate the Zepp Life band measured, summarised: the samples, the readings among them (values 1 to 250) with their lowest, average and highest, and the first and last sample's time (Unix seconds as stored)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Zepp Life heart rate of {}",
                    raw(t, row, "day").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("day", FactType::Text, "day (UTC)"),
                ("samples", FactType::Count, "samples"),
                ("readings", FactType::Count, "readings"),
                ("min_hr", FactType::Count, "lowest heart rate"),
                ("avg_hr", FactType::Text, "average heart rate"),
                ("max_hr", FactType::Count, "highest heart rate"),
            ],
            times: &[
                (
                    "first_time",
                    "First Zepp Life heart-rate sample of the day",
                    unix_by_magnitude,
                ),
                (
                    "last_time",
                    "Last Zepp Life heart-rate sample of the day",
                    unix_by_magnitude,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}
