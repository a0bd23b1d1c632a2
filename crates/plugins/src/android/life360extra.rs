//! Life360's smaller stores (`com.life360.android.safetymapd/databases/`), ALEAPP's
//! `L360circlesettings` (`Life360_CircleSettings`), `L360noshowalerts`
//! (`Life360_NoShowAlerts`) and `L360petprofile` (`Life360_PetProfile`): the plan and features
//! each circle has, the "no-show" alerts set on a member's arrival at a place, and the pets the
//! circle tracks.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `L360LocalStoreRoomDatabase`: `Premium` (`circleFeatureSetInfo`, one member per circle, read with `json_each`) | one `accounts` per circle ("Life360 circle <id> features (<plan>)") | circle id, feature set and its reference id, plan, collision alerts (push, SMS), customer support, data breach detection, driver reports, location history, place alerts, SOS alerts (push, SMS), Tile GPS activation, Uber One, as stored (`1`/`0` for JSON true/false) |
//! | `NoShowAlertRoomDatabase`: `no_show_alerts` | one `locations` per alert ("Life360 no-show alert <id> for member <observed user id>") | alert id, type, trigger condition, critical, daily, place id, circle id, the observed member's and the creator's user ids and their `life360:` forms; last updated (`last_updated`, Unix ms), due (`run_at`, Unix ns as ALEAPP reads it) |
//! | `PetProfileRoomDatabase`: `pet_profile` | one `contacts` per pet ("Life360 pet <name>") | pet id, name, type, pet type, breed, colour, weight in kg, gender, birth date (`birthdate`, days since 1970-01-01, and the date the query computes from it), Tile tracker id, circle id, avatar URL; created and updated (`createdAt`, `lastUpdated`, Unix ms) |
//!
//! Already read elsewhere, not again here: the circles' members and their circles
//! (`MembersEngineRoomDatabase`, ALEAPP's `L360memberscircles`) and the analytics store's keys
//! with the signed-in user's id (`com.amplitude.api`, ALEAPP's `L360user`) are
//! [`super::life360`]'s; the places and place alerts of `L360LocalStoreRoomDatabase` too (this
//! reader takes only its `Premium` table, and a store without one is left to
//! [`super::life360`]). Not read: ALEAPP's carving of deleted no-show alerts out of
//! `NoShowAlertRoomDatabase-wal` frames (no tool carves WAL cells; the live rows are read). A
//! no-show alert is a setting (tell me when this member has not arrived at this place by this
//! time), not a record that the member failed to arrive; a pet profile says the circle tracks a
//! pet (with a Tile tracker when it names one), not where it was.
//!
//! Schema drift: columns are taken by name (absent ones NULL); a `Premium` table without
//! `circleFeatureSetInfo`, a `NoShowAlertRoomDatabase` without `no_show_alerts(id)` and a
//! `PetProfileRoomDatabase` without `pet_profile(name)` are noted; a `circleFeatureSetInfo`
//! that is not a JSON object gives no row.
//!
//! Identities: the observed member and the creator of an alert are `life360:<user id>` (the id
//! the circle's members carry in [`super::life360`], computed in the query), observed as those
//! members; neither is said to be the device's user (the account signed in is known from the
//! analytics store, [`super::life360`]). A pet and its tracker are no person.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, unix_millis, unix_nanos};
use crate::identity::{artefact_name, observe_columns, schema_on};
use crate::outputs::raw;

const PACKAGE: &str = "/com.life360.android.safetymapd/databases/";

/// The store names this reader reads.
pub const STORES: &[&str] = &[
    "L360LocalStoreRoomDatabase",
    "NoShowAlertRoomDatabase",
    "PetProfileRoomDatabase",
];

/// Whether `l` is one of the Life360 stores read here.
pub fn is_store(l: &Located) -> bool {
    l.path.contains(PACKAGE) && STORES.contains(&l.name())
}

/// `x.<col> AS <alias>` or `NULL AS <alias>`.
fn pick(cols: &std::collections::BTreeSet<String>, col: &str, alias: &str) -> String {
    column_or_null(cols, "x.", col, alias)
}

/// `'life360:' || x.<col>` when the table has the column and the row a value, else NULL.
fn qualified(cols: &std::collections::BTreeSet<String>, col: &str, alias: &str) -> String {
    if cols.contains(col) {
        format!(
            "CASE WHEN x.{col} IS NOT NULL AND x.{col} != '' THEN 'life360:' || x.{col} END AS {alias}"
        )
    } else {
        format!("NULL AS {alias}")
    }
}

/// One Life360 store read here.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let (table, needed): (&str, &[&str]) = match l.name() {
        "L360LocalStoreRoomDatabase" => ("Premium", &["circleFeatureSetInfo"]),
        "NoShowAlertRoomDatabase" => ("no_show_alerts", &["id"]),
        _ => ("pet_profile", &["name"]),
    };
    let Some(cols) = schema.get(table).filter(|c| !c.is_empty()) else {
        // the places store without a Premium table is super::life360's alone
        if l.name() != "L360LocalStoreRoomDatabase" {
            ctx.unparsed(
                &name,
                &format!(
                    "could not parse Life360's {} because it has no {table} table",
                    l.name()
                ),
                None,
            )?;
        }
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        &format!("Life360's {}", l.name()),
        table,
        cols,
        needed,
    )? {
        return Ok(());
    }
    match l.name() {
        "L360LocalStoreRoomDatabase" => circle_settings(ctx, l),
        "NoShowAlertRoomDatabase" => no_show_alerts(ctx, l, cols),
        _ => pets(ctx, l, cols),
    }
}

/// The features of `circleFeatureSetInfo`: `(JSON path under the circle's object, alias,
/// label)`.
const FEATURES: &[(&str, &str, &str)] = &[
    ("featureSetId", "feature_set", "feature set"),
    (
        "featureSetRefId",
        "feature_set_ref",
        "feature set reference",
    ),
    ("features.plan", "plan", "plan"),
    (
        "features.collision_alerts_push",
        "collision_push",
        "collision alerts (push)",
    ),
    (
        "features.collision_alerts_sms",
        "collision_sms",
        "collision alerts (SMS)",
    ),
    ("features.customer_support", "support", "customer support"),
    (
        "features.data_breach_detection",
        "breach",
        "data breach detection",
    ),
    (
        "features.driver_reports",
        "driver_reports",
        "driver reports",
    ),
    (
        "features.location_history",
        "location_history",
        "location history",
    ),
    ("features.place_alerts", "place_alerts", "place alerts"),
    ("features.sos_alerts_push", "sos_push", "SOS alerts (push)"),
    ("features.sos_alerts_sms", "sos_sms", "SOS alerts (SMS)"),
    (
        "features.tilegps_activation",
        "tile_gps",
        "Tile GPS activation",
    ),
    ("features.uber_one", "uber_one", "Uber One"),
];

/// The circle-settings query: one row per member (circle) of each `Premium` row's
/// `circleFeatureSetInfo` object.
pub(crate) fn circle_settings_sql() -> String {
    let cols: Vec<String> = FEATURES
        .iter()
        .map(|(path, alias, _)| format!("json_extract(je.value, '$.{path}') AS {alias}"))
        .collect();
    format!(
        "SELECT x.rowid AS rid, je.key AS circle_id, {} FROM Premium x, json_each(CASE WHEN json_valid(x.circleFeatureSetInfo) THEN CASE json_type(x.circleFeatureSetInfo) WHEN 'object' THEN x.circleFeatureSetInfo ELSE '{{}}' END ELSE '{{}}' END) je WHERE je.type = 'object' ORDER BY x.rowid, je.key",
        cols.join(", ")
    )
}

fn circle_settings(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let mut fields: Vec<(&str, FactType, &str)> =
        vec![("circle_id", FactType::Identifier, "circle id")];
    for &(_, alias, label) in FEATURES {
        let ft = if alias.starts_with("feature_set") {
            FactType::Identifier
        } else {
            FactType::Text
        };
        fields.push((alias, ft, label));
    }
    super::record_query(
        ctx,
        l,
        &circle_settings_sql(),
        &RowPhenomena {
            table: "Premium (circleFeatureSetInfo)",
            category: "accounts",
            what: "the Life360 plan and features of a circle the account belongs to, as the app cached them (1 on, 0 off; a feature set the subscription gives, not a use of it)",
            title: &|t, row| {
                format!(
                    "Life360 circle {} features ({})",
                    t.get(row, "circle_id").unwrap_or("?"),
                    raw(t, row, "plan").unwrap_or_else(|| "plan not stored".into())
                )
            },
            fields: &fields,
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The no-show alerts query.
pub(crate) fn no_show_sql(cols: &std::collections::BTreeSet<String>) -> String {
    format!(
        "SELECT x.rowid AS rid, x.id AS alert_id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM no_show_alerts x ORDER BY x.rowid",
        pick(cols, "type", "type"),
        pick(cols, "trigger_condition", "trigger_condition"),
        pick(cols, "critical_alert", "critical"),
        pick(cols, "daily", "daily"),
        pick(cols, "place_id", "place_id"),
        pick(cols, "circle_id", "circle_id"),
        pick(cols, "observed_user_id", "observed"),
        qualified(cols, "observed_user_id", "observed_q"),
        pick(cols, "creator_id", "creator"),
        qualified(cols, "creator_id", "creator_q"),
        pick(cols, "last_updated", "updated"),
        pick(cols, "run_at", "run_at"),
    )
}

fn no_show_alerts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &no_show_sql(cols),
        &RowPhenomena {
            table: "no_show_alerts",
            category: "locations",
            what: "a Life360 no-show alert: the app is to warn when the observed member has not arrived at the place by the time set (a setting, not a missed arrival; last_updated Unix ms, run_at Unix ns)",
            title: &|t, row| {
                format!(
                    "Life360 no-show alert {} for member {}",
                    t.get(row, "alert_id").unwrap_or("?"),
                    t.get(row, "observed").unwrap_or("?")
                )
            },
            fields: &[
                ("alert_id", FactType::Identifier, "alert id"),
                ("type", FactType::Text, "type"),
                ("trigger_condition", FactType::Text, "trigger condition"),
                ("critical", FactType::Text, "critical"),
                ("daily", FactType::Text, "daily"),
                ("place_id", FactType::Identifier, "place id"),
                ("circle_id", FactType::Identifier, "circle id"),
                ("observed", FactType::Account, "observed member's user id"),
                ("observed_q", FactType::Account, "observed member"),
                ("creator", FactType::Account, "creator's user id"),
                ("creator_q", FactType::Account, "creator"),
            ],
            times: &[
                ("updated", "Life360 no-show alert updated", unix_millis),
                ("run_at", "Life360 no-show alert due", unix_nanos),
            ],
        },
        &mut |inv, t, row| {
            let id = t.get(row, "alert_id").unwrap_or("?").to_string();
            for (col, role) in [
                ("observed_q", "the member a no-show alert watches"),
                ("creator_q", "the member who set a no-show alert"),
            ] {
                let Some(q) = t.get(row, col) else {
                    continue;
                };
                let q = q.to_string();
                observe_columns(
                    ctx,
                    &q,
                    &q,
                    t,
                    row,
                    inv,
                    &[(col, IdType::AccountId, "The Life360 user id")],
                    &|what| {
                        format!(
                            "{what} of {role} (alert {id} of {file}): a member of a Life360 circle."
                        )
                    },
                )?;
            }
            Ok(())
        },
    )
}

/// The pet profiles query (the birth date computed from its days since 1970).
pub(crate) fn pets_sql(cols: &std::collections::BTreeSet<String>) -> String {
    let birth = if cols.contains("birthdate") {
        "CASE WHEN typeof(x.birthdate) IN ('integer', 'real') THEN date(x.birthdate * 86400, 'unixepoch') END AS birth_date"
    } else {
        "NULL AS birth_date"
    };
    let spec = [
        ("id", "pet_id"),
        ("name", "name"),
        ("type", "type"),
        ("petType", "pet_type"),
        ("breed", "breed"),
        ("color", "color"),
        ("weightInKg", "weight"),
        ("gender", "gender"),
        ("birthdate", "birthdate"),
        ("trackerId", "tracker"),
        ("primaryCircleId", "circle_id"),
        ("avatarBaseUrl", "avatar"),
        ("createdAt", "created"),
        ("lastUpdated", "updated"),
    ];
    let picked: Vec<String> = spec.iter().map(|(c, a)| pick(cols, c, a)).collect();
    format!(
        "SELECT x.rowid AS rid, {}, {birth} FROM pet_profile x ORDER BY x.rowid",
        picked.join(", ")
    )
}

fn pets(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    super::record_query(
        ctx,
        l,
        &pets_sql(cols),
        &RowPhenomena {
            table: "pet_profile",
            category: "contacts",
            what: "a pet the Life360 circle tracks (with a Tile tracker when one is named; weight in kg and gender as stored; birthdate days since 1970-01-01, the date computed from it; createdAt and lastUpdated Unix ms)",
            title: &|t, row| {
                format!(
                    "Life360 pet {}",
                    raw(t, row, "name")
                        .or_else(|| raw(t, row, "pet_id"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("pet_id", FactType::Identifier, "pet id"),
                ("name", FactType::Name, "name"),
                ("type", FactType::Text, "type"),
                ("pet_type", FactType::Text, "pet type"),
                ("breed", FactType::Text, "breed"),
                ("color", FactType::Text, "colour"),
                ("weight", FactType::Text, "weight (kg)"),
                ("gender", FactType::Text, "gender"),
                ("birthdate", FactType::Text, "birthdate (days since 1970)"),
                ("birth_date", FactType::Text, "birth date"),
                ("tracker", FactType::Identifier, "tracker id"),
                ("circle_id", FactType::Identifier, "circle id"),
                ("avatar", FactType::Url, "avatar"),
            ],
            times: &[
                ("created", "Life360 pet profile created", unix_millis),
                ("updated", "Life360 pet profile updated", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}
