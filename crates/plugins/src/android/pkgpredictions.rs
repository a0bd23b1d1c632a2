//! Samsung's package predictions (`/data/system/PkgPredictions.db`), ALEAPP's `pkgPredictions`
//! (`get_pkgPredictions`): the samples Samsung's app prediction keeps of each app launch — which
//! app was opened, the three opened before it, the phone's state then — to suggest the next app.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `tbl_Sample` | one `app_usage` per launch sample ("App launched: <package> (Samsung package predictions)") | the package (`running_pkg`), its version, the activity, the three packages launched before (`previous_one`, `_two`, `_three`), screen orientation, Wi-Fi and Bluetooth status, hour of day and day of week as stored, the prediction and its time as stored, the Android user, the sample id; launched (`launch_time`, Unix ms) |
//!
//! Orientation (0 portrait, 1 landscape as ALEAPP reads it), day of week (1 Sunday … 7
//! Saturday), Wi-Fi and Bluetooth status, the hour (the phone's local hour) and the prediction
//! (the predicted packages, `;`-separated, each after a `0_&_` prefix) are kept as stored;
//! `predict_time`'s unit is not documented, so it is a fact, not a time. Identities: none. A
//! store without `tbl_Sample` is noted, as is a `tbl_Sample` without `running_pkg`; other
//! columns are taken by name (absent ones NULL: older releases keep fewer). At most
//! [`crate::calls::ROW_CAP`] samples.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is Samsung's package predictions store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "PkgPredictions.db"
}

/// One `PkgPredictions.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if !schema.contains_key("tbl_Sample") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not Samsung's PkgPredictions.db: no table tbl_Sample",
            None,
        )?;
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "running_pkg",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "tbl_Sample",
            category: "app_usage",
            what: "an app launch Samsung's app prediction sampled, with the three apps launched before it and the phone's state then (orientation, Wi-Fi, Bluetooth, hour and day of week, prediction and its time as stored; launched Unix milliseconds)",
            title: &|t, row| {
                format!(
                    "App launched: {} (Samsung package predictions)",
                    raw(t, row, "running_pkg").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("running_pkg", FactType::Identifier, "package"),
                ("apk_version", FactType::Text, "version"),
                ("activity_name", FactType::Text, "activity"),
                ("previous_one", FactType::Identifier, "launched before"),
                ("previous_two", FactType::Identifier, "launched two before"),
                (
                    "previous_three",
                    FactType::Identifier,
                    "launched three before",
                ),
                ("screen_orientation", FactType::Text, "screen orientation"),
                ("wifi_status", FactType::Text, "Wi-Fi status"),
                ("bt_status", FactType::Text, "Bluetooth status"),
                ("hour_of_day", FactType::Text, "hour of day"),
                ("day_of_week", FactType::Text, "day of week"),
                ("prediction", FactType::Text, "prediction"),
                ("predict_time", FactType::Text, "prediction time"),
                ("user_id", FactType::Identifier, "Android user"),
                ("id", FactType::Identifier, "sample id"),
            ],
            times: &[(
                "launch_time",
                "App launched (Samsung package predictions)",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}
