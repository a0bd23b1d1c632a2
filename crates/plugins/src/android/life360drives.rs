//! Life360's drive detection (`com.life360.android.safetymapd/databases/DriveBladeDB`),
//! ALEAPP's `L360driveblade` (`Life360_Drives`, `_DriveEvents`, `_DriveWaypoints`): every drive
//! the app recorded for a circle member, the events of each (hard braking, speeding, phone use,
//! crash: where and how fast), and the waypoints of its route.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `Drives` | one `locations` per drive ("Life360 drive <id>") | drive id, the member's user id, top and average speed and distance as stored (metres per second and metres, ALEAPP reads), duration, speeding, hard braking, rapid acceleration, distracted and crash counts, score; start, end and updated (Unix ms) |
//! | `DriveEvents` | one `locations` per event ("Life360 drive event <type>") | event id, drive, member, type as stored, latitude, longitude, speed, accuracy, when (Unix ms) |
//! | `DriveWaypoints` | one `locations` per waypoint ("Life360 drive waypoint") | drive, member, latitude, longitude, speed, accuracy, when (Unix ms) |
//!
//! A drive is the app's reading of the phone's motion: it says the phone travelled by car,
//! not who drove (said). The member's user id is the id Life360's circle members carry
//! (`life360:<id>` persons of [`super::life360`]). Columns are taken by name (absent ones NULL);
//! a store without `Drives` is noted. Identities: none observed here.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use super::databases::tables_with;
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::table_columns;

/// Whether `l` is Life360's drive store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "DriveBladeDB"
        && l.path
            .contains("/com.life360.android.safetymapd/databases/")
}

/// `col AS col` of the table alias `x`, NULL where the table lacks it.
fn pick(cols: &std::collections::BTreeSet<String>, spec: &[&str]) -> String {
    spec.iter()
        .map(|c| crate::calls::column_or_null(cols, "x.", c, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One `DriveBladeDB`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["Drives"])? else {
        return Ok(());
    };
    let drives = table_columns(ctx, &l.tree, &l.path, "Drives")?;
    if !crate::calls::require_columns(
        ctx,
        &crate::identity::artefact_name(&l.tree, &l.path),
        "Life360's DriveBladeDB",
        "Drives",
        &drives,
        &["driveId"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT x.rowid AS rid, x.driveId AS driveId, {} FROM Drives x ORDER BY x.rowid",
        pick(
            &drives,
            &[
                "userId",
                "startTime",
                "endTime",
                "topSpeed",
                "averageSpeed",
                "distance",
                "duration",
                "speedingCount",
                "hardBrakingCount",
                "rapidAccelerationCount",
                "distractedCount",
                "crashCount",
                "score",
                "updatedAt",
            ]
        ),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!("Life360 drive {}", t.get(row, "driveId").unwrap_or("?"))
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "Drives",
            category: "locations",
            what: "a drive Life360 detected from the phone's motion (it says the phone travelled by car, not who drove; speeds and distance as stored, metres per second and metres as ALEAPP reads them)",
            title: &title,
            fields: &[
                ("driveId", FactType::Identifier, "drive id"),
                ("userId", FactType::Account, "member's user id"),
                ("topSpeed", FactType::Text, "top speed"),
                ("averageSpeed", FactType::Text, "average speed"),
                ("distance", FactType::Text, "distance"),
                ("duration", FactType::Text, "duration"),
                ("speedingCount", FactType::Count, "speeding events"),
                ("hardBrakingCount", FactType::Count, "hard braking events"),
                (
                    "rapidAccelerationCount",
                    FactType::Count,
                    "rapid accelerations",
                ),
                ("distractedCount", FactType::Count, "phone use events"),
                ("crashCount", FactType::Count, "crashes"),
                ("score", FactType::Text, "score"),
            ],
            times: &[
                ("startTime", "Drive started", unix_millis),
                ("endTime", "Drive ended", unix_millis),
                ("updatedAt", "Drive record updated", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )?;
    for (table, time, what, kind) in [
        (
            "DriveEvents",
            "eventTime",
            "an event of a Life360 drive (hard braking, speeding, phone use, a crash: its type as stored), where and how fast",
            "event",
        ),
        (
            "DriveWaypoints",
            "timestamp",
            "a waypoint of a Life360 drive's route",
            "waypoint",
        ),
    ] {
        if !tables.iter().any(|t| t == table) {
            continue;
        }
        let cols = table_columns(ctx, &l.tree, &l.path, table)?;
        let user = if cols.contains("driveId") && drives.contains("userId") {
            "(SELECT d.userId FROM Drives d WHERE d.driveId = x.driveId) AS userId"
        } else {
            "NULL AS userId"
        };
        let sql = format!(
            "SELECT x.rowid AS rid, {user}, {} FROM {table} x ORDER BY x.rowid",
            pick(
                &cols,
                &[
                    "eventId",
                    "driveId",
                    "eventType",
                    time,
                    "lat",
                    "lon",
                    "speed",
                    "accuracy"
                ]
            ),
        );
        let title = move |t: &crate::outputs::Table, row: &[Option<String>]| {
            if kind == "event" {
                format!(
                    "Life360 drive event {}",
                    t.get(row, "eventType").unwrap_or("?")
                )
            } else {
                "Life360 drive waypoint".to_string()
            }
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table,
                category: "locations",
                what,
                title: &title,
                fields: &[
                    ("eventId", FactType::Identifier, "event id"),
                    ("driveId", FactType::Identifier, "drive"),
                    ("userId", FactType::Account, "member's user id"),
                    ("eventType", FactType::Text, "type"),
                    ("lat", FactType::Text, "latitude"),
                    ("lon", FactType::Text, "longitude"),
                    ("speed", FactType::Text, "speed"),
                    ("accuracy", FactType::Text, "accuracy"),
                ],
                times: &[(time, "Drive point recorded", unix_millis)],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}
