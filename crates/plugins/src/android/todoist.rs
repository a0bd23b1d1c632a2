//! Todoist (`com.todoist/databases/database.db`), ALEAPP's `Todoist` (`get_Todoist`,
//! `get_Todoist_notes`, `get_Todoist_projects`): the user's projects, tasks and the comments on
//! them, and the people the projects are shared with.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `projects` | one `notes` per project ("Todoist project <name>") | name, id, colour, view style, type (the inbox or a project), shared, favourite, collapsed, order, parent, archived, deleted as stored |
//! | `items` (with `projects`, `item_labels`, `collaborators`) | one `notes` per task ("Todoist task: <content>") | the task's text and description, id, project, labels, who added it and who it is assigned to (user ids, and names where `collaborators` has them), due date (a date, or a date and time when Unix-less text: a local time of `due_timezone` when it names one), due string as typed, recurring, priority, completed, deleted; when added (Unix ms) |
//! | `notes` (with `note_file_attachments`, `items`, `collaborators`) | one `notes` per comment ("Todoist comment: <content>") | the comment's text and id, the task it is on, who posted it (user id, name), the attached file's name, URL, type, size, title and description, and when posted (Unix ms) |
//! | `collaborators` | one `contacts` per collaborator ("Todoist collaborator <name>") | user id, e-mail, full name, time zone, image id |
//!
//! Tables and columns are taken by name (absent ones NULL: older stores lack `description`,
//! `due_timezone`, `due_string`, the attachments and the collaborators); a table without its
//! text (`projects.name`, `items.content`, `notes.content`) or `collaborators` without `_id` is
//! noted, a store with none of `projects`, `items`, `notes` too. A date-only due date keeps no
//! time of day: it is a fact (`due on`), not a time.
//!
//! Identities: each collaborator is a `todoist:<user id>` person with their e-mail address and
//! name — someone a project is shared with, or the user themself (not told apart: the store
//! does not say which user is signed in). The signed-in account's own e-mail is not in this
//! store as it is read here: no `owner` is observed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use std::collections::BTreeSet;

use super::Located;
use crate::calls::{column_or_null, qualified_or_null, require_columns};
use crate::drafts::{RowPhenomena, date_text, headline, unix_millis};
use crate::identity::{artefact_name, table_columns};
use crate::outputs::raw;

/// What the notes name the store as.
const STORE: &str = "Todoist's database.db";

/// Whether `l` is Todoist's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "database.db" && l.path.contains("/com.todoist/databases/")
}

/// The columns of `table` when the store has it, else none.
fn columns_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &[String],
    table: &str,
) -> Result<BTreeSet<String>, RuntimeError> {
    if tables.iter().any(|t| t == table) {
        table_columns(ctx, &l.tree, &l.path, table)
    } else {
        Ok(BTreeSet::new())
    }
}

/// One `database.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = super::databases::tables_with(ctx, l, &[])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let has = |t: &str| tables.iter().any(|x| x == t);
    if !has("projects") && !has("items") && !has("notes") {
        ctx.unparsed(
            &name,
            "not Todoist's database.db: none of projects, items, notes",
            None,
        )?;
        return Ok(());
    }
    let projects = columns_of(ctx, l, &tables, "projects")?;
    let items = columns_of(ctx, l, &tables, "items")?;
    let collab = columns_of(ctx, l, &tables, "collaborators")?;
    // a user id's name, where the collaborators have it
    let who = |uid: &str, alias: &str| {
        if collab.contains("_id") && collab.contains("full_name") {
            format!("(SELECT c.full_name FROM collaborators c WHERE c._id = {uid}) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    if has("projects") && require_columns(ctx, &name, STORE, "projects", &projects, &["name"])? {
        read_projects(ctx, l, &projects)?;
    }
    if has("items") && require_columns(ctx, &name, STORE, "items", &items, &["content"])? {
        let c = |col: &str| column_or_null(&items, "i.", col, col);
        let project = if items.contains("project_id")
            && projects.contains("_id")
            && projects.contains("name")
        {
            "(SELECT p.name FROM projects p WHERE p._id = i.project_id) AS project"
        } else {
            "NULL AS project"
        };
        let labels = columns_of(ctx, l, &tables, "item_labels")?;
        let labels = if items.contains("_id")
            && labels.contains("item_id")
            && labels.contains("label_name")
        {
            "(SELECT group_concat(il.label_name, ', ') FROM item_labels il WHERE il.item_id = i._id) AS labels"
        } else {
            "NULL AS labels"
        };
        let (added_by, responsible) = (
            if items.contains("added_by_uid") {
                who("i.added_by_uid", "added_by")
            } else {
                "NULL AS added_by".to_string()
            },
            if items.contains("responsible_uid") {
                who("i.responsible_uid", "responsible")
            } else {
                "NULL AS responsible".to_string()
            },
        );
        let due_day = if items.contains("due_date") {
            "CASE WHEN length(i.due_date) <= 10 THEN i.due_date END AS due_day"
        } else {
            "NULL AS due_day"
        };
        let sql = format!(
            "SELECT i.rowid AS rid, i.content AS content, {}, {}, {}, {}, {added_by}, {}, {responsible}, {}, {due_day}, {}, {}, {}, {}, {}, {}, {project}, {labels} FROM items i ORDER BY i.rowid",
            column_or_null(&items, "i.", "_id", "item_id"),
            c("description"),
            c("date_added"),
            c("added_by_uid"),
            c("responsible_uid"),
            c("due_date"),
            c("due_timezone"),
            c("due_string"),
            c("due_is_recurring"),
            c("priority"),
            c("checked"),
            c("is_deleted"),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Todoist task: {}",
                headline(&raw(t, row, "content").unwrap_or_default())
            )
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "items",
                category: "notes",
                what: "a task the user kept in Todoist (date_added Unix milliseconds; due_date a date, or a local date and time of due_timezone where it names one; user ids are Todoist's, named where collaborators has them)",
                title: &title,
                fields: &[
                    ("content", FactType::Text, "task"),
                    ("item_id", FactType::Identifier, "task id"),
                    ("description", FactType::Text, "description"),
                    ("project", FactType::Name, "project"),
                    ("labels", FactType::Text, "labels"),
                    ("added_by_uid", FactType::Account, "added by user"),
                    ("added_by", FactType::Name, "added by"),
                    ("responsible_uid", FactType::Account, "assigned to user"),
                    ("responsible", FactType::Name, "assigned to"),
                    ("due_day", FactType::Text, "due on"),
                    ("due_timezone", FactType::Text, "due time zone"),
                    ("due_string", FactType::Text, "due as typed"),
                    ("due_is_recurring", FactType::Text, "recurring"),
                    ("priority", FactType::Text, "priority"),
                    ("checked", FactType::Text, "completed"),
                    ("is_deleted", FactType::Text, "deleted"),
                ],
                times: &[
                    ("date_added", "Todoist task added", unix_millis),
                    ("due_date", "Todoist task due", date_text),
                ],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if has("notes") {
        read_notes(ctx, l, &tables, &items, &who)?;
    }
    if has("collaborators")
        && require_columns(ctx, &name, STORE, "collaborators", &collab, &["_id"])?
    {
        read_collaborators(ctx, l, &collab)?;
    }
    Ok(())
}

/// `projects`: one phenomenon per project.
fn read_projects(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, name, {} FROM projects ORDER BY rowid",
        [
            ("_id", "project_id"),
            ("color", "color"),
            ("view_style", "view_style"),
            ("type", "type"),
            ("shared", "shared"),
            ("favorite", "favorite"),
            ("collapsed", "collapsed"),
            ("child_order", "child_order"),
            ("parent_id", "parent_id"),
            ("is_archived", "is_archived"),
            ("is_deleted", "is_deleted"),
        ]
        .iter()
        .map(|(c, a)| column_or_null(cols, "", c, a))
        .collect::<Vec<_>>()
        .join(", ")
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Todoist project {}",
            raw(t, row, "name").unwrap_or_default()
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "projects",
            category: "notes",
            what: "a Todoist project (the inbox or one the user made; shared when shared with collaborators)",
            title: &title,
            fields: &[
                ("name", FactType::Name, "name"),
                ("project_id", FactType::Identifier, "project id"),
                ("color", FactType::Text, "colour"),
                ("view_style", FactType::Text, "view"),
                ("type", FactType::Text, "type"),
                ("shared", FactType::Text, "shared"),
                ("favorite", FactType::Text, "favourite"),
                ("collapsed", FactType::Text, "collapsed"),
                ("child_order", FactType::Count, "order"),
                ("parent_id", FactType::Identifier, "parent project"),
                ("is_archived", FactType::Text, "archived"),
                ("is_deleted", FactType::Text, "deleted"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `notes` (comments), with their attachment, task and poster where the store has them.
fn read_notes(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &[String],
    items: &BTreeSet<String>,
    who: &dyn Fn(&str, &str) -> String,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "notes")?;
    if !require_columns(ctx, &name, STORE, "notes", &cols, &["content"])? {
        return Ok(());
    }
    let acols = columns_of(ctx, l, tables, "note_file_attachments")?;
    let joined = cols.contains("_id") && acols.contains("note_id");
    let a = |col: &str, alias: &str| {
        if joined {
            column_or_null(&acols, "a.", col, alias)
        } else {
            format!("NULL AS {alias}")
        }
    };
    let task = if cols.contains("item_id") && items.contains("_id") && items.contains("content") {
        "(SELECT i.content FROM items i WHERE i._id = n.item_id) AS task"
    } else {
        "NULL AS task"
    };
    let poster = if cols.contains("posted_uid") {
        who("n.posted_uid", "poster")
    } else {
        "NULL AS poster".to_string()
    };
    let sql = format!(
        "SELECT n.rowid AS rid, n.content AS content, {}, {}, {}, {poster}, {}, {task}, {}, {}, {}, {}, {}, {}, {}, {} FROM notes n{} ORDER BY n.rowid{}",
        column_or_null(&cols, "n.", "_id", "note_id"),
        column_or_null(&cols, "n.", "posted", "posted"),
        column_or_null(&cols, "n.", "posted_uid", "posted_uid"),
        column_or_null(&cols, "n.", "item_id", "item_id"),
        a("resource_type", "resource_type"),
        a("file_name", "file_name"),
        a("file_url", "file_url"),
        a("file_type", "file_type"),
        a("file_size", "file_size"),
        a("image", "image"),
        a("title", "file_title"),
        a("description", "file_description"),
        if joined {
            " LEFT JOIN note_file_attachments a ON a.note_id = n._id"
        } else {
            ""
        },
        if joined { ", a.rowid" } else { "" },
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Todoist comment: {}",
            headline(&raw(t, row, "content").unwrap_or_default())
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "notes",
            category: "notes",
            what: "a comment on a Todoist task or project, with the file attached to it (posted Unix milliseconds; user ids are Todoist's, named where collaborators has them)",
            title: &title,
            fields: &[
                ("content", FactType::Text, "comment"),
                ("note_id", FactType::Identifier, "comment id"),
                ("task", FactType::Text, "on task"),
                ("item_id", FactType::Identifier, "task id"),
                ("posted_uid", FactType::Account, "posted by user"),
                ("poster", FactType::Name, "posted by"),
                ("resource_type", FactType::Text, "attachment type"),
                ("file_name", FactType::Name, "file"),
                ("file_url", FactType::Url, "file URL"),
                ("file_type", FactType::Text, "file type"),
                ("file_size", FactType::Count, "file size"),
                ("image", FactType::Url, "image"),
                ("file_title", FactType::Text, "attachment title"),
                ("file_description", FactType::Text, "attachment description"),
            ],
            times: &[("posted", "Todoist comment posted", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `collaborators`: one person per collaborator.
fn read_collaborators(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, _id AS user_id, {}, {}, {}, {}, {}, {} FROM collaborators ORDER BY rowid",
        column_or_null(cols, "", "email", "email"),
        column_or_null(cols, "", "full_name", "full_name"),
        column_or_null(cols, "", "timezone", "timezone"),
        column_or_null(cols, "", "time_zone", "time_zone"),
        column_or_null(cols, "", "image_id", "image_id"),
        qualified_or_null(cols, "", "_id", "todoist", "qualified"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Todoist collaborator {}",
            raw(t, row, "full_name")
                .or_else(|| raw(t, row, "email"))
                .or_else(|| raw(t, row, "user_id"))
                .unwrap_or_default()
        )
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "collaborators",
            category: "contacts",
            what: "a Todoist user a project of the account is shared with (or the account's user: the store does not tell them apart)",
            title: &title,
            fields: &[
                ("user_id", FactType::Account, "user id"),
                ("email", FactType::Email, "e-mail"),
                ("full_name", FactType::Name, "name"),
                ("timezone", FactType::Text, "time zone"),
                ("time_zone", FactType::Text, "time zone"),
                ("image_id", FactType::Identifier, "image"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "full_name",
                &[
                    ("qualified", IdType::AccountId, "The Todoist user id"),
                    ("email", IdType::Email, "The e-mail address"),
                    ("full_name", IdType::DisplayName, "The name"),
                ],
                &|what, who| {
                    format!(
                        "{what} of {who}, a collaborator of the Todoist account's shared projects ({file})."
                    )
                },
            )
        },
    )
}
