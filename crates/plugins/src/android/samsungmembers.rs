//! Samsung Members (`com.samsung.oh`), whose diagnostics are kept by the PocketGeek SDK inside
//! the app: `com_pocketgeek_sdk_app_inventory.db` and `com_pocketgeek_sdk.db`, ALEAPP's
//! `smembersAppInv` and `smembersEvents`: the apps on the phone with when each was last used, and
//! the device events the SDK logged.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `com_pocketgeek_sdk_app_inventory.db`: `android_app` | one `apps` per app ("Samsung Members app inventory: <package>") | package, display name, system app (as stored), confidence hash, SHA-1, classification as stored; last used (Unix ms, 0 none) |
//! | `com_pocketgeek_sdk.db`: `device_events` | one `device` per event ("Samsung Members device event <type> (<created>)") | type and value as stored, in snapshot; created (Unix ms) |
//!
//! The inventory is the SDK's list of the installed apps when it last ran, with the time it
//! recorded as each app's last use (0 or none: none recorded) and the hash of the app's package
//! file it took (the SHA-1, a lead to match the APK elsewhere); an app missing from the phone
//! now but listed here was installed when the list was taken. An event is a state the SDK
//! recorded (the event types are the SDK's own, kept as stored). Columns are taken by name
//! (absent ones NULL: older releases lack `confidence_hash`, `classification`, `in_snapshot`); a
//! table without `package_name` or `type` is noted, and so is a store without its table. Only
//! Samsung Members' copies are read (the SDK is embedded in other apps too). Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::Tables;
use crate::drafts::{RowPhenomena, no_identity, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is one of Samsung Members' PocketGeek stores.
pub fn is_store(l: &Located) -> bool {
    matches!(
        l.name(),
        "com_pocketgeek_sdk_app_inventory.db" | "com_pocketgeek_sdk.db"
    ) && l.path.contains("/com.samsung.oh/")
}

/// One of the PocketGeek stores.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if !is_store(l) {
        return Ok(());
    }
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if l.name() == "com_pocketgeek_sdk_app_inventory.db" {
        if Tables::one(
            ctx,
            &name,
            "Samsung Members' com_pocketgeek_sdk_app_inventory.db",
            &schema,
            "android_app",
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
                table: "android_app",
                category: "apps",
                what: "an app in the inventory Samsung Members' diagnostics SDK took of the phone (system app and classification as stored; last used Unix ms, 0 none recorded)",
                title: &|t, row| {
                    format!(
                        "Samsung Members app inventory: {}",
                        raw(t, row, "package_name").unwrap_or_else(|| "?".into())
                    )
                },
                fields: &[
                    ("package_name", FactType::Identifier, "app"),
                    ("display_name", FactType::Name, "name"),
                    ("system_app", FactType::Text, "system app"),
                    ("confidence_hash", FactType::Text, "confidence hash"),
                    ("sha1", FactType::Hash, "SHA-1"),
                    ("classification", FactType::Text, "classification"),
                ],
                times: &[(
                    "last_used",
                    "App last used (Samsung Members inventory)",
                    unix_millis,
                )],
            },
            &mut no_identity,
        );
    }
    if Tables::one(
        ctx,
        &name,
        "Samsung Members' com_pocketgeek_sdk.db",
        &schema,
        "device_events",
        &["type"],
    )?
    .is_none()
    {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "type",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "device_events",
            category: "device",
            what: "a device event Samsung Members' diagnostics SDK logged (type and value as stored; created Unix ms)",
            title: &|t, row| {
                format!(
                    "Samsung Members device event {} ({})",
                    raw(t, row, "type").unwrap_or_else(|| "?".into()),
                    t.get(row, "created_at").unwrap_or("?")
                )
            },
            fields: &[
                ("type", FactType::Text, "event"),
                ("value", FactType::Text, "value"),
                ("in_snapshot", FactType::Text, "in snapshot"),
            ],
            times: &[(
                "created_at",
                "Device event logged (Samsung Members)",
                unix_millis,
            )],
        },
        &mut no_identity,
    )
}
