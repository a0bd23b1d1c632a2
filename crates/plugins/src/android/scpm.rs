//! Samsung's SCPM client (`com.samsung.android.scpm/databases/scpmv2.db`, the service that fetches
//! Samsung's configuration policies for the phone's apps), ALEAPP's `samsungScpm`
//! (`samsungScpmDevices`): the device as it registered with the service — the name the user gave
//! it, model, Android version, country, SIM and sales codes — and when it registered and last
//! reached the service.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `devices` | one `device` per row ("Samsung SCPM device <alias>", else the model name, else the id) | device id, alias, type, model name and code, OS type and version, platform version, country code, SIM MCC and MNC, CSC (sales code); registered, last access (Unix ms or s by magnitude, as ALEAPP reads them) |
//!
//! A row is a device the service registered (on the images ALEAPP checked, one row: the phone
//! itself); the alias is the device name set on the phone, the SIM codes those of the SIM it
//! registered with, not necessarily the SIM in it now. Registration is when the service first
//! registered the device (after setup or a reset), not when the phone was made or bought.
//! The policy documents the store also keeps are opaque configuration for Samsung's apps and not
//! read. Columns are taken by name (absent ones NULL: older builds lack `platform_version` and
//! `csc`); a `devices` without `id` is noted, and so is a store without `devices` (some One UI
//! builds ship none). Identities: none (the device id is the service's, not a person's).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::Tables;
use crate::drafts::{RowPhenomena, no_identity, unix_by_magnitude};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is the SCPM client's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "scpmv2.db" && l.path.contains("/com.samsung.android.scpm/")
}

/// One `scpmv2.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if Tables::one(
        ctx,
        &name,
        "Samsung SCPM's scpmv2.db",
        &schema,
        "devices",
        &["id"],
    )?
    .is_none()
    {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "id",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "devices",
            category: "device",
            what: "a device registered with Samsung's SCPM policy service (the alias the device name set on it; SIM and sales codes as registered; times Unix ms or s by magnitude)",
            title: &|t, row| {
                format!(
                    "Samsung SCPM device {}",
                    raw(t, row, "alias")
                        .or_else(|| raw(t, row, "model_name"))
                        .or_else(|| raw(t, row, "id"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("id", FactType::Identifier, "device id"),
                ("alias", FactType::Name, "alias"),
                ("type", FactType::Text, "type"),
                ("model_name", FactType::Text, "model"),
                ("model_code", FactType::Identifier, "model code"),
                ("os_type", FactType::Text, "OS"),
                ("os_version", FactType::Text, "OS version"),
                ("platform_version", FactType::Text, "platform version"),
                ("country_code", FactType::Text, "country"),
                ("sim_mcc", FactType::Identifier, "SIM MCC"),
                ("sim_mnc", FactType::Identifier, "SIM MNC"),
                ("csc", FactType::Identifier, "CSC"),
            ],
            times: &[
                (
                    "registration_time",
                    "Device registered with Samsung SCPM",
                    unix_by_magnitude,
                ),
                (
                    "last_access_time",
                    "Device last reached Samsung SCPM",
                    unix_by_magnitude,
                ),
            ],
        },
        &mut no_identity,
    )
}
