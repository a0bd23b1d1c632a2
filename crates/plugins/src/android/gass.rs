//! Google Play services' `gass.db` (`com.google.android.gms/databases/gass.db`), ALEAPP's
//! `installedappsGass` (`get_installedappsGass`): the apps Play services recorded on the phone
//! (its `app_info` table), each with its version code and the SHA-256 digest of its package.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `app_info` | one `apps` per row ("Play services app record <package>") | the package, version code, SHA-256 digest as stored |
//!
//! A row says Play services knew the app (at that version) on the phone, not that it is still
//! installed; the digest identifies the package's build (the same APK on two phones has the
//! same digest), so it is kept as a hash. The Android user the store belongs to is in its path
//! (`data/user/<n>/`). The store keeps no time. Identities: none. A store without `app_info` is
//! noted, as is an `app_info` without `package_name`; other columns are taken by name (absent
//! ones NULL).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::RowPhenomena;
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is Play services' `gass.db`.
pub fn is_store(l: &Located) -> bool {
    l.name() == "gass.db" && l.path.contains("/com.google.android.gms/")
}

/// One `gass.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if !schema.contains_key("app_info") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not Play services' gass.db: no table app_info",
            None,
        )?;
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "package_name",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "app_info",
            category: "apps",
            what: "an app Play services recorded on the phone with its version and the SHA-256 digest of its package (known to Play services, not proof it is still installed)",
            title: &|t, row| {
                format!(
                    "Play services app record {}",
                    raw(t, row, "package_name").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("package_name", FactType::Identifier, "package"),
                ("version_code", FactType::Text, "version code"),
                ("digest_sha256", FactType::Hash, "SHA-256 digest"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}
