//! One UI Home, Samsung's launcher (`com.sec.android.app.launcher/databases/OneUI.db` and
//! `Icon.db`), ALEAPP's `samsungLauncher` (`samsungLauncherItems`, `samsungLauncherIcons`): the
//! apps, folders, widgets and shortcuts laid out on the home screen, in the hotseat and on the
//! apps screen, which folder each lies in and which are hidden, and the apps whose icon and
//! label the launcher cached.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `OneUI.db`: `item` (⋈ `item` for the folder, ⋈ `item_group` twice) | one `apps` per item ("One UI Home <type> <title> (item <id>)", ", hidden" when hidden) | item id, type as stored (`app`, `folder`, `widget`, `deepshortcut` …), title, component and, computed in the query, the package before its `/`, the referenced package, hidden as stored and, computed, `hidden` or `shown`, restored, user profile id, rank, position (`item_position`, x, y); the container computed from `container_type` (0 an item group, 1 a folder, 2 a stacked widget) with its id, the folder's title (the `item` of that id), or the group's type and rank and the type of the group that holds it; for a folder, how many items lie in it |
//! | `Icon.db`: `icon` | one `apps` per cached icon ("One UI Home icon cache <label> (<component>)") | label, component and, computed, its package, user profile id, version; last updated (Unix ms) |
//!
//! An item is what the launcher's layout held when the store was last written: the user (or the
//! phone's setup) put the app on that screen or in that folder; it is no proof the app was ever
//! opened. A hidden item (`hidden` other than 0, the launcher's reason flags, not decoded) is
//! one the user or the carrier's setup hid from the apps screen — an app hidden this way is still
//! installed. The group types are the launcher's own words, kept as stored; a group's rank is its
//! place among its siblings (a page's number on the home or apps screen), not decoded further.
//! A profile id other than 0 is another Android user profile (work profile, Secure Folder). The
//! icon cache lists apps the launcher has shown, with the time it recorded for the entry (AOSP's
//! launcher stores the package's last update there): it can outlive an app's removal until the
//! launcher prunes it.
//!
//! Columns are taken by name (absent ones NULL: older releases lack `reference_package_name`,
//! `restored`, the `item_group` table, `icon.version`); an `item` without `id` or `type`, or an
//! `icon` without `component_name`, is noted, as is a store with neither table (another app's
//! `Icon.db`). The icon images and intents are not read. Identities: none (packages and
//! components name apps, not persons).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, no_identity, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// The launcher's database folder.
const DIR: &str = "/com.sec.android.app.launcher/databases/";

/// Whether `l` is One UI Home's layout (`OneUI.db`) or icon cache (`Icon.db`).
pub fn is_store(l: &Located) -> bool {
    matches!(l.name(), "OneUI.db" | "Icon.db") && l.path.contains(DIR)
}

/// The category of the launcher store at `path` (`None` for another app's file of the name).
pub fn category(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    (matches!(name, "OneUI.db" | "Icon.db") && path.contains(DIR)).then_some("apps")
}

/// `CASE` of the package of a component `<package>/<activity>` in `col`, as `alias`; NULL where
/// the table lacks the column or the value has no `/` after a package.
fn package_of(
    cols: &std::collections::BTreeSet<String>,
    prefix: &str,
    col: &str,
    alias: &str,
) -> String {
    if cols.contains(col) {
        let c = format!("{prefix}{col}");
        format!(
            "CASE WHEN instr({c}, '/') > 1 THEN substr({c}, 1, instr({c}, '/') - 1) END AS {alias}"
        )
    } else {
        format!("NULL AS {alias}")
    }
}

/// One `OneUI.db` or `Icon.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if !is_store(l) {
        return Ok(());
    }
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if l.name() == "Icon.db" {
        let Some(c) = Tables::one(
            ctx,
            &name,
            "One UI Home's Icon.db",
            &schema,
            "icon",
            &["component_name"],
        )?
        else {
            return Ok(());
        };
        return icons(ctx, l, c);
    }
    let Some(tables) = Tables::of(ctx, &name, "One UI Home's OneUI.db", &schema, &["item"])? else {
        return Ok(());
    };
    let Some(c) = tables.need("item", &["id", "type"])? else {
        return Ok(());
    };
    items(ctx, l, c, tables.get("item_group"))
}

/// `OneUI.db`'s `item`, each with its folder (`container_type` 1: the `item` whose id is
/// `container_id`) or its item group (`container_type` 0) and the group holding that group.
fn items(
    ctx: &AgentCtx<'_>,
    l: &Located,
    c: &std::collections::BTreeSet<String>,
    groups: Option<&std::collections::BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let i = |col: &str| column_or_null(c, "i.", col, col);
    let contained = c.contains("container_type") && c.contains("container_id");
    let (container, folder_title, folder_join) = match (contained, c.contains("title")) {
        (true, true) => (
            "CASE i.container_type WHEN 0 THEN 'item group' WHEN 1 THEN 'folder' WHEN 2 THEN 'stacked widget' END AS container",
            "f.title AS folder_title",
            " LEFT JOIN item f ON i.container_type = 1 AND f.id = i.container_id",
        ),
        (true, false) => (
            "CASE i.container_type WHEN 0 THEN 'item group' WHEN 1 THEN 'folder' WHEN 2 THEN 'stacked widget' END AS container",
            "NULL AS folder_title",
            "",
        ),
        _ => ("NULL AS container", "NULL AS folder_title", ""),
    };
    let folder_items = if contained {
        "CASE WHEN i.type = 'folder' THEN (SELECT count(*) FROM item m WHERE m.container_type = 1 AND m.container_id = i.id) END AS folder_items"
    } else {
        "NULL AS folder_items"
    };
    // the group an item lies in, and the group that group lies in
    let (group_cols, group_join) = match groups.filter(|g| contained && g.contains("id")) {
        Some(g) => {
            let parent = g.contains("container_id");
            (
                format!(
                    "{}, {}, {}",
                    column_or_null(g, "g.", "type", "group_type"),
                    column_or_null(g, "g.", "rank", "group_rank"),
                    if parent && g.contains("type") {
                        "p.type AS parent_group_type"
                    } else {
                        "NULL AS parent_group_type"
                    }
                ),
                format!(
                    " LEFT JOIN item_group g ON i.container_type = 0 AND g.id = i.container_id{}",
                    if parent {
                        " LEFT JOIN item_group p ON p.id = g.container_id"
                    } else {
                        ""
                    }
                ),
            )
        }
        None => (
            "NULL AS group_type, NULL AS group_rank, NULL AS parent_group_type".to_string(),
            String::new(),
        ),
    };
    let hidden_state = if c.contains("hidden") {
        "CASE WHEN i.hidden = 0 THEN 'shown' WHEN i.hidden IS NOT NULL THEN 'hidden' END AS hidden_state"
    } else {
        "NULL AS hidden_state"
    };
    let sql = format!(
        "SELECT i.rowid AS rid, i.id AS id, i.type AS type, {title}, {component}, {package}, {reference}, \
         {hidden}, {hidden_state}, {restored}, {profile}, {rank}, {position}, {x}, {y}, {container_type}, \
         {container_id}, {container}, {folder_title}, {group_cols}, {folder_items} \
         FROM item i{folder_join}{group_join} ORDER BY i.rowid",
        title = i("title"),
        component = i("component"),
        package = package_of(c, "i.", "component", "package"),
        reference = i("reference_package_name"),
        hidden = i("hidden"),
        restored = i("restored"),
        profile = i("profile_id"),
        rank = i("rank"),
        position = i("item_position"),
        x = i("position_x"),
        y = i("position_y"),
        container_type = i("container_type"),
        container_id = i("container_id"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "item",
            category: "apps",
            what: "an item of One UI Home's layout when the store was last written (the type as stored; container 'folder' with the folder's title, or 'item group' with the group's type and rank and the type of the group holding it, as stored; hidden as stored, 0 shown, other values the launcher's reason flags; profile id 0 the main user)",
            title: &|t, row| {
                let shown = raw(t, row, "title")
                    .or_else(|| raw(t, row, "component"))
                    .unwrap_or_else(|| "?".into());
                format!(
                    "One UI Home {} {shown} (item {}{})",
                    t.get(row, "type").unwrap_or("item"),
                    t.get(row, "id").unwrap_or("?"),
                    if t.get(row, "hidden_state") == Some("hidden") {
                        ", hidden"
                    } else {
                        ""
                    }
                )
            },
            fields: &[
                ("id", FactType::Identifier, "item id"),
                ("type", FactType::Text, "type"),
                ("title", FactType::Name, "title"),
                ("component", FactType::Identifier, "component"),
                ("package", FactType::Identifier, "app"),
                (
                    "reference_package_name",
                    FactType::Identifier,
                    "referenced app",
                ),
                ("hidden", FactType::Text, "hidden (as stored)"),
                ("hidden_state", FactType::Text, "hidden or shown"),
                ("restored", FactType::Text, "restored"),
                ("profile_id", FactType::Identifier, "user profile id"),
                ("rank", FactType::Text, "rank"),
                ("item_position", FactType::Text, "position"),
                ("position_x", FactType::Text, "x"),
                ("position_y", FactType::Text, "y"),
                ("container", FactType::Text, "container"),
                ("container_id", FactType::Identifier, "container id"),
                ("folder_title", FactType::Name, "in folder"),
                ("group_type", FactType::Text, "in group"),
                ("group_rank", FactType::Text, "group rank"),
                ("parent_group_type", FactType::Text, "group held by"),
                ("folder_items", FactType::Count, "items in the folder"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}

/// `Icon.db`'s `icon`.
fn icons(
    ctx: &AgentCtx<'_>,
    l: &Located,
    c: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let col = |n: &str| column_or_null(c, "", n, n);
    let sql = format!(
        "SELECT rowid AS rid, component_name, {package}, {label}, {profile}, {version}, {updated} \
         FROM icon ORDER BY rowid",
        package = package_of(c, "", "component_name", "package"),
        label = col("label"),
        profile = col("profile_id"),
        version = col("version"),
        updated = col("last_updated"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "icon",
            category: "apps",
            what: "an app whose icon and label One UI Home cached (last_updated Unix ms, the time the launcher recorded for the entry; profile id 0 the main user)",
            title: &|t, row| {
                format!(
                    "One UI Home icon cache {} ({})",
                    raw(t, row, "label").unwrap_or_else(|| "?".into()),
                    raw(t, row, "component_name").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("label", FactType::Name, "label"),
                ("component_name", FactType::Identifier, "component"),
                ("package", FactType::Identifier, "app"),
                ("profile_id", FactType::Identifier, "user profile id"),
                ("version", FactType::Text, "version"),
            ],
            times: &[(
                "last_updated",
                "One UI Home icon cache entry updated",
                unix_millis,
            )],
        },
        &mut no_identity,
    )
}
