//! The Pixel Launcher's icon cache (`com.google.android.apps.nexuslauncher/databases/app_icons.db`,
//! Launcher3's `IconDB`), ALEAPP's `appicons` (`appIcons`): which apps and activities the home
//! screen cached an icon and label for, in which user, at which version and last update.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `icons` | one `apps` per row ("Pixel Launcher icon cache: <component>[ (user serial <n>)]") | the component (`componentName`, `<package>/<class>`), the package and class split from it in the query, the entry (`package`: the app's own entry, class `<package>.`; `activity`: one of its activities), label, user serial (`profileId`: 0 the primary user, another a work profile or other user), version code, system state (the locales and API level the launcher ran with), keywords, the size of the cached icon in bytes (`length(icon)`, never the image); last updated (`lastUpdated`, Unix ms: the package's last install or update as the launcher read it; 0 is no time) |
//!
//! A row says the launcher loaded that app or activity for the user it names — the app was
//! installed then, with a launcher entry or a package icon — not that anyone opened it; the
//! launcher deletes a package's rows when it learns the package is gone, so a row of an app no
//! longer installed is one the launcher had not yet cleaned. The system state shows the
//! languages the phone was set to when the icon was cached. The icon blobs (`icon`,
//! `icon_low_res`) are never selected: only their length is. Identities: none. A store without
//! `icons`, or an `icons` without `componentName`, is noted; other columns are taken by name
//! (absent ones NULL: older releases have no `keywords`). Another launcher's `app_icons.db` is
//! not read.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, select_columns};
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is the Pixel Launcher's icon cache.
pub fn is_store(l: &Located) -> bool {
    l.name() == "app_icons.db" && is_store_path(&l.path)
}

/// Whether `path` is the Pixel Launcher's icon cache (for `categorise`).
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/com.google.android.apps.nexuslauncher/databases/app_icons.db")
}

/// The package, class and kind of entry of `componentName` (`<package>/<class>`), computed in
/// the query so the output holds them.
const SPLIT: &str = "CASE WHEN instr(componentName, '/') > 0 THEN substr(componentName, 1, instr(componentName, '/') - 1) ELSE componentName END AS package, \
CASE WHEN instr(componentName, '/') > 0 THEN substr(componentName, instr(componentName, '/') + 1) END AS activity_class, \
CASE WHEN instr(componentName, '/') = 0 THEN NULL WHEN substr(componentName, instr(componentName, '/') + 1) = substr(componentName, 1, instr(componentName, '/') - 1) || '.' THEN 'package' ELSE 'activity' END AS entry";

/// One `app_icons.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "the Pixel Launcher's app_icons.db",
        &schema,
        "icons",
        &["componentName"],
    )?
    else {
        return Ok(());
    };
    let icon = if cols.contains("icon") {
        "CASE WHEN icon IS NOT NULL THEN length(icon) END AS icon_bytes"
    } else {
        "NULL AS icon_bytes"
    };
    let sql = format!(
        "SELECT rowid AS rid, componentName AS component, {SPLIT}, {}, {icon} FROM icons ORDER BY rowid",
        select_columns(
            cols,
            "",
            &[
                ("label", "label"),
                ("profileId", "profile"),
                ("version", "version"),
                ("lastUpdated", "last_updated"),
                ("system_state", "system_state"),
                ("keywords", "keywords"),
            ]
        ),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "icons",
            category: "apps",
            what: "an app or activity the Pixel Launcher cached an icon and label for (the app was installed for that user then, with a launcher entry or a package icon; not proof it was opened or is still installed); entry package is the app's own entry, activity one of its activities; user serial 0 is the primary user; system state the locales and API level the launcher ran with; the icon's size only, never the image; last updated Unix milliseconds (the package's last install or update)",
            title: &|t: &Table, row: &[Option<String>]| {
                let component = raw(t, row, "component").unwrap_or_else(|| "?".into());
                match t.get(row, "profile").filter(|p| *p != "0") {
                    Some(p) => format!("Pixel Launcher icon cache: {component} (user serial {p})"),
                    None => format!("Pixel Launcher icon cache: {component}"),
                }
            },
            fields: &[
                ("component", FactType::Identifier, "component"),
                ("package", FactType::Identifier, "package"),
                ("activity_class", FactType::Identifier, "class"),
                ("entry", FactType::Text, "entry"),
                ("label", FactType::Text, "label"),
                ("profile", FactType::Text, "user serial"),
                ("version", FactType::Text, "version code"),
                ("system_state", FactType::Text, "system state"),
                ("keywords", FactType::Text, "keywords"),
                ("icon_bytes", FactType::Count, "icon bytes"),
            ],
            times: &[(
                "last_updated",
                "App package last updated (Pixel Launcher icon cache)",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}
