//! The Google Services Framework's settings (`com.google.android.gsf/databases/googlesettings.db`),
//! ALEAPP's `pSettings` (`get_pSettings`): the partner settings the framework serves to Google's
//! apps.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `partner` | one `device` per setting ("Google Services Framework setting <name>") | name, value as stored |
//!
//! What they say: which partner build the phone is (`client_id` and the per-app
//! `*_client_id` values: `android-google`, `android-samsung`, a carrier's), the location consent
//! flags (`network_location_opt_in`, `use_location_for_services`: 1 given, 0 not) and such ids
//! as the framework keeps there (`logging_id2`); a value is the setting as last written, with
//! no time. No identity is observed: these ids are the framework's own (a logging id, a
//! partner's client id), none of them `Settings.Secure.ANDROID_ID` or another identifier type
//! the graph knows — they stay facts (an `android_id` row would hold Google's decimal check-in
//! id, which is not the settings provider's hexadecimal Android id). Schema drift: columns are
//! taken by name (the table's `_id` is not needed); a `partner` table without `name` or
//! `value` is noted, a store without `partner` too.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{RowPhenomena, no_identity};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is the Google Services Framework's settings store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "googlesettings.db" && l.path.contains("/com.google.android.gsf/")
}

/// One `googlesettings.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = schema.get("partner") else {
        ctx.unparsed(
            &name,
            "not the Google Services Framework's googlesettings.db: no partner table",
            None,
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "the Google Services Framework's googlesettings.db",
        "partner",
        cols,
        &["name", "value"],
    )? {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "name",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "partner",
            category: "device",
            what: "a partner setting the Google Services Framework serves to Google's apps (the value as last written, no time kept; client ids name the phone's partner build, the location flags are 1 when consent was given)",
            title: &|t, row| {
                format!(
                    "Google Services Framework setting {}",
                    raw(t, row, "name").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("name", FactType::Text, "setting"),
                ("value", FactType::Text, "value"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}
