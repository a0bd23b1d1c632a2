//! Samsung Device Care, formerly Smart Manager (`com.samsung.android.sm/databases/sm.db` and
//! `lowpowercontext-system-db`), ALEAPP's `smanagerCrash` and `smanagerLow`: which apps crashed
//! and when, and the app-use sessions its low-power context service logged.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `sm.db`: `crash_info` | one `apps` per crash ("App crashed (Samsung Device Care): <package> (<time>)") | package; crashed (Unix ms) |
//! | `lowpowercontext-system-db`: `usage_log` | one `app_usage` per session ("App used (Samsung Device Care): <package> (<start>)") | package, activity (`class_name`), id, uploaded (as stored); started, ended, record created and modified (Unix ms) |
//!
//! A crash is one Device Care recorded for the app (to offer fixing or putting it to sleep); a
//! session is an interval the app was in use as the low-power context service logged it (the
//! activity where kept), which says the app ran in the foreground, not who used it. Columns are
//! taken by name (absent ones NULL: older releases lack `class_name` and `uploaded`); a table
//! without `package_name` is noted, and so is a store without its table (`sm.db` keeping only
//! `excluded_app`, not read). `sm.db` is a common name: only Device Care's folder is read.
//! Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::Tables;
use crate::drafts::{RowPhenomena, no_identity, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Device Care's database folder.
const DIR: &str = "/com.samsung.android.sm/databases/";

/// The category of Device Care's store at `path` (`None` for another app's file of the name).
pub fn category(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if !path.contains(DIR) {
        return None;
    }
    match name {
        "sm.db" => Some("apps"),
        "lowpowercontext-system-db" => Some("app_usage"),
        _ => None,
    }
}

/// Whether `l` is one of Device Care's stores read here.
pub fn is_store(l: &Located) -> bool {
    category(&l.path).is_some()
}

/// One `sm.db` or `lowpowercontext-system-db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if !is_store(l) {
        return Ok(());
    }
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if l.name() == "sm.db" {
        if Tables::one(
            ctx,
            &name,
            "Samsung Device Care's sm.db",
            &schema,
            "crash_info",
            &["package_name"],
        )?
        .is_none()
        {
            return Ok(());
        }
        return super::record_table(
            ctx,
            l,
            &schema,
            "package_name",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "crash_info",
                category: "apps",
                what: "a crash of an app Samsung Device Care recorded (time Unix ms)",
                title: &|t, row| {
                    format!(
                        "App crashed (Samsung Device Care): {} ({})",
                        raw(t, row, "package_name").unwrap_or_else(|| "?".into()),
                        t.get(row, "crash_time").unwrap_or("?")
                    )
                },
                fields: &[("package_name", FactType::Identifier, "app")],
                times: &[(
                    "crash_time",
                    "App crashed (Samsung Device Care)",
                    unix_millis,
                )],
            },
            &mut no_identity,
        );
    }
    if Tables::one(
        ctx,
        &name,
        "Samsung Device Care's lowpowercontext-system-db",
        &schema,
        "usage_log",
        &["package_name"],
    )?
    .is_none()
    {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "package_name",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "usage_log",
            category: "app_usage",
            what: "a session of an app in use that Samsung Device Care's low-power context service logged (uploaded as stored; times Unix ms)",
            title: &|t, row| {
                format!(
                    "App used (Samsung Device Care): {} ({})",
                    raw(t, row, "package_name").unwrap_or_else(|| "?".into()),
                    t.get(row, "start_time").unwrap_or("?")
                )
            },
            fields: &[
                ("package_name", FactType::Identifier, "app"),
                ("class_name", FactType::Identifier, "activity"),
                ("id", FactType::Identifier, "id"),
                ("uploaded", FactType::Text, "uploaded"),
            ],
            times: &[
                (
                    "start_time",
                    "App use started (Samsung Device Care)",
                    unix_millis,
                ),
                (
                    "end_time",
                    "App use ended (Samsung Device Care)",
                    unix_millis,
                ),
                (
                    "created_at",
                    "Samsung Device Care usage record created",
                    unix_millis,
                ),
                (
                    "modified_at",
                    "Samsung Device Care usage record modified",
                    unix_millis,
                ),
            ],
        },
        &mut no_identity,
    )
}
