//! Google Tasks (`com.google.android.apps.tasks/files/tasks-<account>/data.db`: one store per
//! signed-in Google account), ALEAPP's `googleTasks` (`get_googleTasks`): the user's to-do lists
//! and every task on them.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `Tasks` | one `notes` per task ("Google Tasks task: <title>") | from the `EffectiveTask` message (decoded by `sqlite_query`'s `protobuf` option): the title (2 › 2), the details (2 › 3), the time zone (9 › 1 › 4), when created (11 › 1), last modified (3 › 1) and completed (2 › 5 › 1), Unix seconds; the task, list and recurrence ids, completed and not-yet-synced flags and the due date as stored (`DueDate`, not converted, as ALEAPP leaves it); the account the folder is named after |
//! | `TaskLists` (else the lists the tasks name) | one `notes` per list ("Google Tasks list <id>") | the list id, how many tasks it holds, and every text of its `EffectiveTaskList` message (the list's name among them: that message's layout is not known, so its texts are quoted, none named) |
//!
//! A task whose message does not decode keeps its ids and flags (said). Columns are taken by
//! name (absent ones NULL: older stores lack `TaskRecurrenceId`, `HasDirtyState`, `DueDate`); a
//! store without `Tasks`, or whose `Tasks` lacks `TaskId` or `EffectiveTask`, is noted.
//!
//! Identities: the folder is named `tasks-<account>`; when that account is an e-mail address it
//! is the Google account of the device's user the tasks were kept for (`owner`), grounded in the
//! listing that found the file (as the Google app's recent searches are, [`super::googlesearch`]).
//! Another name (a number) is a fact of each task, no identity.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::Value;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, headline, record_draft, unix_seconds};
use crate::identity::{artefact_name, pages_on_with, required_columns, table_columns};
use crate::outputs::{in_json_cell, proto_text, protobuf_cell, raw};

/// The folders' common part: `tasks-<account>` in the app's files.
const DIR: &str = "/com.google.android.apps.tasks/files/tasks-";

/// Whether `l` is a Google Tasks store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "data.db" && l.path.contains(DIR)
}

/// The account the store's folder is named after (`tasks-<account>`).
fn account(l: &Located) -> Option<&str> {
    l.path
        .rsplit('/')
        .nth(1)?
        .strip_prefix("tasks-")
        .filter(|a| !a.is_empty())
}

/// The number at `path` of a decoded message (each field an array, its first value taken).
fn number(m: &Value, path: &[&str]) -> Option<i64> {
    let mut node = m;
    for f in path {
        node = node.get(f)?.get(0)?;
    }
    node.as_i64()
}

/// Whether a decoded value is bytes left undecoded (`x'…'`).
fn is_bytes(s: &str) -> bool {
    s.starts_with("x'") && s.ends_with('\'')
}

/// Every text of a decoded message as the cell holds it ([`in_json_cell`]), bytes left
/// undecoded (`x'…'`) passed over.
fn texts(v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) if !s.is_empty() && !is_bytes(s) => {
            out.push((s.clone(), in_json_cell(s)));
        }
        Value::Array(a) => a.iter().for_each(|x| texts(x, out)),
        Value::Object(o) => o.values().for_each(|x| texts(x, out)),
        _ => {}
    }
}

/// One `data.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = super::databases::tables_with(ctx, l, &["Tasks"])? else {
        return Ok(());
    };
    let Some(cols) = required_columns(
        ctx,
        &l.tree,
        &l.path,
        "Google Tasks' data.db",
        "Tasks",
        &["TaskId", "EffectiveTask"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let account = account(l);
    let of_account = account
        .map(|a| format!(", the store of the account {a}"))
        .unwrap_or_default();
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, TaskId, EffectiveTask, {}, {}, {}, {}, {} FROM Tasks ORDER BY rowid",
        c("TaskListId"),
        c("TaskRecurrenceId"),
        c("Completed"),
        c("HasDirtyState"),
        c("DueDate"),
    );
    if let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? {
        note_pages_cap(ctx, &name, &pages, "Google Tasks tasks")?;
        for (inv, t, row) in pages.rows() {
            let task: Option<Value> = t.get(row, "EffectiveTask").and_then(protobuf_cell);
            let text = |path: &[&str]| task.as_ref().and_then(|m| proto_text(m, path));
            let title = text(&["2", "2"]);
            let mut d = Draft::new(
                "notes",
                match &title {
                    Some((plain, _)) => format!("Google Tasks task: {}", headline(plain)),
                    None => format!(
                        "Google Tasks task {}",
                        raw(t, row, "TaskId").unwrap_or_default()
                    ),
                },
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Account, account, &l.found);
            let mut said = d.fields(
                t,
                row,
                inv,
                &[
                    ("TaskId", FactType::Identifier, "task id"),
                    ("TaskListId", FactType::Identifier, "list id"),
                    ("TaskRecurrenceId", FactType::Identifier, "recurrence id"),
                    ("Completed", FactType::Text, "completed"),
                    ("HasDirtyState", FactType::Text, "changes not yet synced"),
                    ("DueDate", FactType::Text, "due (as stored)"),
                ],
            );
            for (label, path) in [
                ("title", &["2", "2"][..]),
                ("details", &["2", "3"][..]),
                ("time zone", &["9", "1", "4"][..]),
            ] {
                if let Some((plain, cited)) = text(path) {
                    d.fact(FactType::Text, Some(cited.as_str()), inv);
                    said.push(format!("{label} {plain}"));
                }
            }
            for (path, what) in [
                (&["11", "1"][..], "Google Tasks task created"),
                (&["3", "1"][..], "Google Tasks task last modified"),
                (&["2", "5", "1"][..], "Google Tasks task completed"),
            ] {
                if let Some(n) = task.as_ref().and_then(|m| number(m, path)) {
                    let v = n.to_string();
                    d.time(Some(v.as_str()), unix_seconds(Some(v.as_str())), what, inv);
                }
            }
            d.interpretation = format!(
                "Tasks row {} of {name}{of_account}: a task the user kept in Google Tasks ({}); {}",
                raw(t, row, "rid").unwrap_or_default(),
                said.join("; "),
                if task.is_some() {
                    "its title, details and times are fields of its EffectiveTask message (2 › 2, 2 › 3; created 11 › 1, modified 3 › 1, completed 2 › 5 › 1, Unix seconds); DueDate is quoted as stored."
                } else {
                    "its EffectiveTask is no Protocol Buffers message: not decoded, its ids and flags only."
                },
            );
            record_draft(ctx, d)?;
        }
    }
    lists(ctx, l, &tables, &cols, &name)?;
    if let Some(a) = account.filter(|a| a.contains('@')) {
        crate::identity::observe_owner_ids(
            ctx,
            &l.found,
            vec![(Some(a.to_string()), IdType::GoogleAccount, "Google account")],
            &|w| {
                format!(
                    "The {w} Google Tasks keeps this store for, the device's user's: its folder is named after it ({}).",
                    l.path
                )
            },
        )?;
    }
    Ok(())
}

/// The task lists: `TaskLists` where the store has it, else the lists the tasks name.
fn lists(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &[String],
    cols: &std::collections::BTreeSet<String>,
    name: &str,
) -> Result<(), RuntimeError> {
    let lcols = if tables.iter().any(|t| t == "TaskLists") {
        table_columns(ctx, &l.tree, &l.path, "TaskLists")?
    } else {
        Default::default()
    };
    let (sql, table) = if lcols.contains("TaskListId") {
        (
            format!(
                "SELECT l.rowid AS rid, l.TaskListId AS list_id, {}, {} FROM TaskLists l ORDER BY l.rowid",
                column_or_null(&lcols, "l.", "EffectiveTaskList", "list"),
                if cols.contains("TaskListId") {
                    "(SELECT count(*) FROM Tasks t WHERE t.TaskListId = l.TaskListId) AS tasks"
                } else {
                    "NULL AS tasks"
                },
            ),
            "TaskLists",
        )
    } else if cols.contains("TaskListId") {
        (
            "SELECT TaskListId AS list_id, NULL AS list, count(*) AS tasks FROM Tasks WHERE TaskListId IS NOT NULL GROUP BY TaskListId ORDER BY TaskListId".to_string(),
            "Tasks",
        )
    } else {
        return Ok(());
    };
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Google Tasks lists")?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = raw(t, row, "list_id") else {
            continue;
        };
        let mut d = Draft::new("notes", format!("Google Tasks list {id}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("list_id", FactType::Identifier, "list id"),
                ("tasks", FactType::Count, "tasks"),
            ],
        );
        let mut found = Vec::new();
        if let Some(m) = t.get(row, "list").and_then(protobuf_cell) {
            texts(&m, &mut found);
        }
        for (plain, cited) in found
            .iter()
            .filter(|(p, _)| t.get(row, "list_id") != Some(p.as_str()))
        {
            d.fact(FactType::Text, Some(cited.as_str()), inv);
            said.push(format!("text {plain}"));
        }
        d.interpretation = format!(
            "{} of {name}: a list of Google Tasks ({}){}.",
            if table == "TaskLists" {
                format!("TaskLists row {}", raw(t, row, "rid").unwrap_or_default())
            } else {
                "Tasks grouped by TaskListId".to_string()
            },
            said.join("; "),
            if table == "TaskLists" {
                "; the texts are those of its EffectiveTaskList message (its name among them; the message's fields are not named here)"
            } else {
                "; the store keeps no TaskLists table: the list is known by the tasks on it"
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
