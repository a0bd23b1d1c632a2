//! Xiaohongshu (RED, Little Red Book: `com.xingin.xhs/databases/PlayHistoryRecordDB`), ALEAPP's
//! `xiaohongshu` (`xiaohongshu_play_history`): the notes in the app's play history, with their
//! authors, and the account the history is filed under.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `PlayHistoryRecordDB`: `historyRecord` | one `media` per entry ("Xiaohongshu note <title or note id>") | note id, title and description as stored (hashtags included), the note author's display name and author id (`xiaohongshu:<id>`; an empty string on some rows, kept as no value), the account the row is filed under; recorded (`timestamp`, Unix ms) |
//! | `PlayHistoryRecordDB`: `historyRecord` | one `accounts` per account the history is filed under ("Xiaohongshu account <user id>") | user id (`xiaohongshu:<id>`), entries |
//! | `msgDB`, `localRelationDB` | — | noted: the messages and contact relations, which ALEAPP found encrypted page by page (no SQLite header, no key on the phone); one that opens as plain SQLite is noted with its tables, not read |
//!
//! The table is the app's play history: an entry says the note was recorded there, not how
//! much of it was played or that the user saw any part of it. Identities: the user id a row is
//! filed under is the local account, the device's user's (`owner`: `xiaohongshu:<user id>`);
//! each note's author with an id is a `xiaohongshu:<author id>` person with their display name
//! (a row without one keeps the name as a fact). A store without `historyRecord` is noted;
//! columns are taken by name (absent ones NULL: older releases keep fewer). Not read:
//! `cg.db`, `dim.db` (base64 SDK configuration in ALEAPP's corpus) and the demotion cache
//! (encrypted).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::json;

use super::Located;
use crate::calls::{qualified_or_null, require_columns, select_columns};
use crate::drafts::{RowPhenomena, title_of, unix_millis};
use crate::identity::{args_on, artefact_name, schema_on};

/// Whether `l` is one of Xiaohongshu's stores (the play history, the encrypted messages and
/// relations).
pub fn is_store(l: &Located) -> bool {
    matches!(
        l.name(),
        "PlayHistoryRecordDB" | "msgDB" | "localRelationDB"
    ) && l.path.contains("/com.xingin.xhs/databases/")
}

/// One Xiaohongshu store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if l.name() != "PlayHistoryRecordDB" {
        return sealed(ctx, l);
    }
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let table = "historyRecord";
    let Some(cols) = schema.get(table) else {
        ctx.unparsed(
            &name,
            "not Xiaohongshu's PlayHistoryRecordDB: no table historyRecord",
            None,
        )?;
        return Ok(());
    };
    if !require_columns(
        ctx,
        &name,
        "Xiaohongshu's PlayHistoryRecordDB",
        table,
        cols,
        &["note_id"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, note_id, {}, {} FROM {table} ORDER BY rowid",
        select_columns(
            cols,
            "",
            &[
                ("note_title", "note_title"),
                ("note_desc", "note_desc"),
                ("user_name", "user_name"),
                ("author_id", "author_id"),
                ("user_id", "user_id"),
                ("timestamp", "timestamp"),
            ]
        ),
        qualified_or_null(cols, "", "author_id", "xiaohongshu", "qualified"),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "media",
            what: "a note in Xiaohongshu's play history (the note's title and description as stored; the author's display name and id are the note author's, the user id the account the row is filed under; recorded Unix milliseconds; not proof of how much was played)",
            title: &title_of("Xiaohongshu note", &["note_title", "note_id"]),
            fields: &[
                ("note_title", FactType::Text, "title"),
                ("note_desc", FactType::Text, "description"),
                ("user_name", FactType::Name, "author"),
                ("author_id", FactType::Account, "author id"),
                ("qualified", FactType::Account, "author account"),
                ("note_id", FactType::Identifier, "note id"),
                ("user_id", FactType::Account, "filed under account"),
            ],
            times: &[(
                "timestamp",
                "Xiaohongshu note recorded in the play history",
                unix_millis,
            )],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "user_name",
                &[
                    ("qualified", IdType::AccountId, "The Xiaohongshu user id"),
                    ("user_name", IdType::DisplayName, "The display name"),
                ],
                &|what, _| {
                    format!(
                        "{what} of the author of a note in Xiaohongshu's play history (note {} in {table} of {file}).",
                        t.get(row, "note_id").unwrap_or("?")
                    )
                },
            )
        },
    )?;
    if !cols.contains("user_id") {
        return Ok(());
    }
    let sql = format!(
        "SELECT user_id AS uid, 'xiaohongshu:' || user_id AS qualified, count(*) AS entries FROM {table} WHERE user_id IS NOT NULL AND user_id != '' GROUP BY user_id ORDER BY user_id"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "accounts",
            what: "the Xiaohongshu account signed in on the phone: the user id the play history files its rows under, with the count of its entries",
            title: &title_of("Xiaohongshu account", &["uid"]),
            fields: &[
                ("uid", FactType::Account, "user id"),
                ("qualified", FactType::Account, "account"),
                ("entries", FactType::Count, "play-history entries"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            crate::identity::observe_columns(
                ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[("qualified", IdType::AccountId, "The Xiaohongshu user id")],
                &|what| {
                    format!(
                        "{what} the play history ({table} of {file}) files its rows under: the local account signed in on the device, the device's user's."
                    )
                },
            )
        },
    )
}

/// `msgDB`, `localRelationDB`: noted, with whether the file opens as SQLite at all.
fn sealed(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let holds = if l.name() == "msgDB" {
        "its messages"
    } else {
        "its contact relations"
    };
    let invoked = ctx.call("sqlite_tables", args_on(&l.tree, json!({"path": l.path})))?;
    let why = if crate::calls::succeeded(&invoked) {
        let tables: Vec<&str> = invoked
            .output
            .text
            .lines()
            .filter_map(|x| x.strip_prefix("table\t"))
            .map(|x| x.split('\t').next().unwrap_or_default())
            .collect();
        format!(
            "Xiaohongshu's {} ({holds}) opens as plain SQLite (tables: {}), a layout this reader does not know: not read",
            l.name(),
            if tables.is_empty() {
                "none".to_string()
            } else {
                tables.join(", ")
            }
        )
    } else {
        format!(
            "Xiaohongshu's {} ({holds}) does not open as SQLite ({}): the app encrypts it page by page in the releases ALEAPP examined, with no key found on the phone; not read",
            l.name(),
            crate::calls::failure_reason(&invoked)
        )
    };
    ctx.unparsed(&name, &why, Some(&invoked.record.invocation_id))
}
