//! The Play Store's frosting store (`com.android.vending/databases/frosting.db`), ALEAPP's
//! `frosting`: the apps whose packages the Play Store recorded with the path of their APK and
//! when it last updated the record — "frosting" is the metadata the Play Store stamps into the
//! APKs it delivers, so a row says the Play Store handled that app's install or update on the
//! phone. (The store's other databases are read by [`super::playstore`].)
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `frosting` | one `apps` per package ("Play Store frosting <package>") | the package (`pk`), the APK's path as stored; last updated (`last_updated`, Unix ms) |
//!
//! A row stays after its app is removed from the phone: it says the app was there, not that it
//! still is (the APK's path says where it was installed). Identities: none. A store without
//! `frosting` is noted, as is a `frosting` without `pk`; other columns are taken by name (absent
//! ones NULL).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is the Play Store's `frosting.db`.
pub fn is_store(l: &Located) -> bool {
    l.name() == "frosting.db" && l.path.contains("/com.android.vending/")
}

/// One `frosting.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if !schema.contains_key("frosting") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not the Play Store's frosting.db: no table frosting",
            None,
        )?;
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "pk",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "frosting",
            category: "apps",
            what: "an app whose package the Play Store recorded (its install or update handled by the Play Store; the row stays after the app is removed), with the path of its APK; last updated Unix milliseconds",
            title: &|t, row| {
                format!(
                    "Play Store frosting {}",
                    raw(t, row, "pk").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("pk", FactType::Identifier, "package"),
                ("apk_path", FactType::Path, "APK path"),
            ],
            times: &[(
                "last_updated",
                "Play Store frosting record updated",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}
