//! Zynga's "With Friends" games — Chess With Friends
//! (`com.zynga.chess.googleplay/databases/wf_database.sqlite`, or `…/db/`) and Words With Friends
//! (`com.zynga.words/db/wf_database.sqlite`) — ALEAPP's `ChessWithFriends` and `WordsWithFriends`
//! (their in-game chat reports): the players the app knows, the chat messages with their senders,
//! and the games. Both apps keep one store of the same family, read by one reader; the app is
//! named from the package folder the store lies in.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `users` | one `contacts` per player ("<app> player <name>") | name, With Friends user id, Zynga account id, e-mail, phone number, Facebook id and name |
//! | `chat_messages` (Chess, older Words releases) | one `messages` per message ("<app> message from <sender>: <text>") | text, the sender's name, user id, Zynga account id, e-mail and phone (the `users` row of its `user_id`), game, message id; written |
//! | `messages` (newer Words releases) | one `messages` per message (the same title) | text, the sender (`user_zynga_id`, with the name and e-mail of the `users` row of that Zynga account id), conversation; written |
//! | `games` (with `moves`, `chat_messages`) | one `app_usage` per game ("<app> game <id>") | game id, who created it and whose move it is (user ids, with their names from `users`), the move count and matchmaking flag as stored, the moves kept and who made them, the chat messages kept; created, the last move kept |
//!
//! Times are read as stored: a number by its size (Unix milliseconds from 10¹², else seconds —
//! the newer Words `messages.created_at` is milliseconds), a text as a date text (ISO 8601 with
//! its zone, else local time — the older releases wrote `created_at` as text). ALEAPP reads only
//! the chat; the players and games are read here from the same store, with the columns the
//! older Words With Friends store and Zynga's game records name (`games`: `created_by_user_id`,
//! `current_move_user_id`, `move_count`, `is_matchmaking`; `moves`: `game_id`, `user_id`,
//! `created_at`), each taken only where the table has it. Whose move it is stands for a game's
//! state: the store marks no finished game in a column this reader knows.
//!
//! What it proves: the players, messages and games the app had synchronised to the phone. It does
//! not say which player is the device's user: the user's own account is one of the `users` rows,
//! and no column this reader knows marks it, so no message is said sent or received and no
//! player is observed as the owner (the examiner links the owner through another source — the
//! owner's e-mail among the players, say).
//!
//! Identities: each player is a person whose entity context is `zynga:<Zynga account id>` where
//! the row has one, else `zyngawf:<With Friends user id>` (both qualified in the query, both
//! observed as account ids, so a player seen with either id on another phone meets), with the
//! e-mail address, phone number and names; a message's sender the same way (the `users` row
//! joined by the message's id). Facebook ids stay facts (apps are given app-scoped ids, not the
//! user's own). Schema drift: columns are taken by name, absent ones NULL; `users` without either
//! id, `chat_messages` without `message`, `messages` without `text`, `games` without `game_id`
//! are noted; a store with none of the four tables is noted.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType, TimeEncoding};

use super::{Located, Schema};
use crate::calls::{column_expr, column_or_null, require_columns, select_columns};
use crate::drafts::{RowPhenomena, date_text, headline, no_identity, unix_by_magnitude};
use crate::identity::{artefact_name, observe_row_person, schema_on};
use crate::outputs::Table;

/// The tables read.
const TABLES: &[&str] = &["users", "chat_messages", "messages", "games"];

/// Whether `path` is a Zynga With Friends store.
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/wf_database.sqlite") && path.contains("/com.zynga.")
}

/// Whether `l` is a Zynga With Friends store.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// The app whose store `path` is, by its package folder.
fn app_of(path: &str) -> &'static str {
    if path.contains("/com.zynga.chess") {
        "Chess With Friends"
    } else if path.contains("/com.zynga.words") {
        "Words With Friends"
    } else {
        "Zynga With Friends"
    }
}

/// A stored time: a number by its size (Unix milliseconds from 10¹², else seconds), a text as a
/// date text.
fn stamp(value: Option<&str>) -> Option<TimeEncoding> {
    match value.map(str::trim) {
        Some(v) if v.parse::<f64>().is_ok() => unix_by_magnitude(Some(v)),
        other => date_text(other),
    }
}

/// `'<service>:' || <expr>` where `expr` holds a value (`NULL` when the expression is).
fn qualify(expr: &str, service: &str) -> String {
    if expr == "NULL" {
        return "NULL".to_string();
    }
    format!("CASE WHEN {expr} IS NOT NULL AND {expr} != '' THEN '{service}:' || {expr} END")
}

/// The first non-NULL of the expressions (`NULL` when none is a column).
fn first(exprs: &[String]) -> String {
    let present: Vec<&str> = exprs
        .iter()
        .map(String::as_str)
        .filter(|e| *e != "NULL")
        .collect();
    match present.as_slice() {
        [] => "NULL".to_string(),
        [one] => one.to_string(),
        many => format!("coalesce({})", many.join(", ")),
    }
}

/// The qualified ids of a player whose Zynga account id is `zid` and user id `uid` (SQL
/// expressions): `zynga_q`, `wf_q` and the entity context `qualified` (the Zynga account first).
fn player_ids(zid: &str, uid: &str) -> String {
    let (zq, wq) = (qualify(zid, "zynga"), qualify(uid, "zyngawf"));
    format!(
        "{zq} AS zynga_q, {wq} AS wf_q, {} AS qualified",
        first(&[zq.clone(), wq.clone()])
    )
}

/// The identifiers of a player row (the columns both the players' and the messages' queries
/// select).
const PLAYER_IDS: &[(&str, IdType, &str)] = &[
    (
        "zynga_q",
        IdType::AccountId,
        "The Zynga account id (qualified)",
    ),
    (
        "wf_q",
        IdType::AccountId,
        "The With Friends user id (qualified)",
    ),
    ("email_address", IdType::Email, "The e-mail address"),
    ("phone_number", IdType::Phone, "The phone number"),
    ("name", IdType::DisplayName, "The name"),
    ("facebook_name", IdType::DisplayName, "The Facebook name"),
];

/// One `wf_database.sqlite`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !TABLES.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &name,
            &format!(
                "not a Zynga With Friends wf_database.sqlite: none of {}",
                TABLES.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let app = app_of(&l.path);
    let what = format!("{app}'s wf_database.sqlite");
    if let Some(cols) = schema.get("users") {
        if cols.contains("user_id") || cols.contains("zynga_account_id") {
            players(ctx, l, cols, app)?;
        } else {
            ctx.unparsed(
                &name,
                &format!(
                    "could not parse {what} because table users lacks user_id and zynga_account_id (unexpected schema)"
                ),
                None,
            )?;
        }
    }
    for chat in [&CHAT_MESSAGES, &MESSAGES] {
        if let Some(cols) = schema.get(chat.table)
            && require_columns(ctx, &name, &what, chat.table, cols, &[chat.text])?
        {
            messages(ctx, l, &schema, cols, chat, app)?;
        }
    }
    if let Some(cols) = schema.get("games")
        && require_columns(ctx, &name, &what, "games", cols, &["game_id"])?
    {
        games(ctx, l, &schema, cols, app)?;
    }
    Ok(())
}

/// The players the app knows, each a person.
fn players(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    app: &'static str,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, {}, {} FROM users ORDER BY rowid",
        select_columns(
            cols,
            "",
            &[
                ("user_id", "user_id"),
                ("zynga_account_id", "zynga_account_id"),
                ("name", "name"),
                ("email_address", "email_address"),
                ("phone_number", "phone_number"),
                ("facebook_id", "facebook_id"),
                ("facebook_name", "facebook_name"),
            ],
        ),
        player_ids(
            &column_expr(cols, "", "zynga_account_id"),
            &column_expr(cols, "", "user_id"),
        ),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        format!(
            "{app} player {}",
            t.get(row, "name")
                .or_else(|| t.get(row, "qualified"))
                .or_else(|| t.get(row, "rid"))
                .unwrap_or("?")
        )
    };
    let what = format!(
        "a player {app} kept (the device's user's own account is one of them; the store does not mark which)"
    );
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "users",
            category: "contacts",
            what: &what,
            title: &title,
            fields: &[
                ("name", FactType::Name, "name"),
                ("user_id", FactType::Account, "With Friends user id"),
                ("zynga_account_id", FactType::Account, "Zynga account id"),
                ("email_address", FactType::Email, "e-mail"),
                ("phone_number", FactType::Phone, "phone number"),
                ("facebook_id", FactType::Identifier, "Facebook id"),
                ("facebook_name", FactType::Name, "Facebook name"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            observe_row_person(ctx, t, row, inv, "name", PLAYER_IDS, &|what, who| {
                format!("{what} of {who}, a player {app} kept (users of {file}).")
            })
        },
    )
}

/// A chat table: its name, its text, message id and thread columns, and what the thread is (its
/// sender is named by `user_id` or `user_zynga_id`, whichever it has).
struct Chat {
    table: &'static str,
    text: &'static str,
    id: &'static str,
    thread: &'static str,
    thread_is: &'static str,
}

/// Chess With Friends' and the older Words With Friends' chat.
const CHAT_MESSAGES: Chat = Chat {
    table: "chat_messages",
    text: "message",
    id: "chat_message_id",
    thread: "game_id",
    thread_is: "game",
};

/// The newer Words With Friends' chat.
const MESSAGES: Chat = Chat {
    table: "messages",
    text: "text",
    id: "id",
    thread: "conv_id",
    thread_is: "conversation",
};

/// The chat messages, each sender a person (the `users` row of its id).
fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    cols: &BTreeSet<String>,
    chat: &Chat,
    app: &'static str,
) -> Result<(), RuntimeError> {
    let m = |c: &str| column_expr(cols, "m.", c);
    let users = schema.get("users");
    // whether the message's column `mc` can be matched with the users column `uc`
    let by = |mc: &str, uc: &str| cols.contains(mc) && users.is_some_and(|u| u.contains(uc));
    // the sender's users row, by user id, else by Zynga account id (the first row of that id)
    let join = if by("user_id", "user_id") {
        " LEFT JOIN users u ON u.rowid = (SELECT min(x.rowid) FROM users x WHERE x.user_id = m.user_id)"
    } else if by("user_zynga_id", "zynga_account_id") {
        " LEFT JOIN users u ON u.rowid = (SELECT min(x.rowid) FROM users x WHERE x.zynga_account_id = m.user_zynga_id)"
    } else {
        ""
    };
    let empty = BTreeSet::new();
    let ucols = if join.is_empty() {
        &empty
    } else {
        users.unwrap_or(&empty)
    };
    let u = |c: &str| column_expr(ucols, "u.", c);
    let uid = first(&[m("user_id"), u("user_id")]);
    let zid = first(&[m("user_zynga_id"), u("zynga_account_id")]);
    let sql = format!(
        "SELECT m.rowid AS rid, {} AS msg_id, {} AS thread, m.{} AS text, {} AS created_at, {uid} AS user_id, {zid} AS zynga_account_id, {} AS name, {} AS email_address, {} AS phone_number, {} AS facebook_name, {} FROM {} m{join} ORDER BY m.rowid",
        m(chat.id),
        m(chat.thread),
        chat.text,
        m("created_at"),
        u("name"),
        u("email_address"),
        u("phone_number"),
        u("facebook_name"),
        player_ids(&zid, &uid),
        chat.table,
    );
    let title = |t: &Table, row: &[Option<String>]| {
        format!(
            "{app} message from {}: {}",
            t.get(row, "name")
                .or_else(|| t.get(row, "qualified"))
                .unwrap_or("an unknown player"),
            headline(t.get(row, "text").unwrap_or_default())
        )
    };
    let what = format!(
        "a chat message in {app}, by the player named (whether the device's user wrote or received it the store does not say; the time as stored: Unix time by its size or date text)"
    );
    let written = format!("{app} chat message written");
    let file = l.name();
    let table = chat.table;
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: chat.table,
            category: "messages",
            what: &what,
            title: &title,
            fields: &[
                ("text", FactType::Text, "text"),
                ("name", FactType::Name, "sender"),
                (
                    "user_id",
                    FactType::Account,
                    "sender's With Friends user id",
                ),
                (
                    "zynga_account_id",
                    FactType::Account,
                    "sender's Zynga account id",
                ),
                ("email_address", FactType::Email, "sender's e-mail"),
                ("phone_number", FactType::Phone, "sender's phone number"),
                ("thread", FactType::Identifier, chat.thread_is),
                ("msg_id", FactType::Identifier, "message id"),
            ],
            times: &[("created_at", written.as_str(), stamp)],
        },
        &mut |inv, t, row| {
            observe_row_person(ctx, t, row, inv, "name", PLAYER_IDS, &|what, who| {
                format!("{what} of {who}, who wrote a chat message in {app} ({table} of {file}).")
            })
        },
    )
}

/// `(SELECT name of the users row of user id <expr>)`, NULL where the store cannot say.
fn name_of(users: Option<&BTreeSet<String>>, expr: &str) -> String {
    match users {
        Some(u) if expr != "NULL" && u.contains("user_id") && u.contains("name") => format!(
            "(SELECT x.name FROM users x WHERE x.user_id = {expr} ORDER BY x.rowid LIMIT 1)"
        ),
        _ => "NULL".to_string(),
    }
}

/// The games, with the moves and chat messages kept for each.
fn games(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    cols: &BTreeSet<String>,
    app: &'static str,
) -> Result<(), RuntimeError> {
    let users = schema.get("users");
    let moves = schema.get("moves").filter(|c| c.contains("game_id"));
    let chats = schema
        .get("chat_messages")
        .filter(|c| c.contains("game_id"));
    let creator = column_expr(cols, "g.", "created_by_user_id");
    let mover = column_expr(cols, "g.", "current_move_user_id");
    let kept = match moves {
        Some(mv) => {
            let last = if mv.contains("created_at") {
                "(SELECT max(mv.created_at) FROM moves mv WHERE mv.game_id = g.game_id)".to_string()
            } else {
                "NULL".to_string()
            };
            let who = if mv.contains("user_id") {
                format!(
                    "(SELECT group_concat(who, ', ') FROM (SELECT DISTINCT coalesce({}, mv.user_id) AS who FROM moves mv WHERE mv.game_id = g.game_id ORDER BY who))",
                    name_of(users, "mv.user_id")
                )
            } else {
                "NULL".to_string()
            };
            format!(
                "(SELECT count(*) FROM moves mv WHERE mv.game_id = g.game_id) AS moves_kept, {last} AS last_move_at, {who} AS movers"
            )
        }
        None => "NULL AS moves_kept, NULL AS last_move_at, NULL AS movers".to_string(),
    };
    let talk = if chats.is_some() {
        "(SELECT count(*) FROM chat_messages c WHERE c.game_id = g.game_id) AS chats_kept"
    } else {
        "NULL AS chats_kept"
    };
    let sql = format!(
        "SELECT g.rowid AS rid, g.game_id AS game_id, {}, {creator} AS creator_id, {} AS creator_name, {mover} AS mover_id, {} AS mover_name, {}, {}, {kept}, {talk} FROM games g ORDER BY g.rowid",
        column_or_null(cols, "g.", "created_at", "created_at"),
        name_of(users, &creator),
        name_of(users, &mover),
        column_or_null(cols, "g.", "move_count", "move_count"),
        column_or_null(cols, "g.", "is_matchmaking", "is_matchmaking"),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        format!("{app} game {}", t.get(row, "game_id").unwrap_or("?"))
    };
    let what = format!(
        "a game of {app} the app kept (whose move it is stands for its state; the move count and matchmaking flag as stored; the moves and chat messages kept are those of the store; times as stored: Unix time by its size or date text)"
    );
    let (created, last) = (
        format!("{app} game created"),
        format!("{app} game's last move kept"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "games",
            category: "app_usage",
            what: &what,
            title: &title,
            fields: &[
                ("game_id", FactType::Identifier, "game"),
                ("creator_name", FactType::Name, "created by"),
                ("creator_id", FactType::Account, "creator's user id"),
                ("mover_name", FactType::Name, "to move"),
                ("mover_id", FactType::Account, "user id to move"),
                ("move_count", FactType::Count, "move count"),
                ("is_matchmaking", FactType::Text, "matchmaking"),
                ("moves_kept", FactType::Count, "moves kept"),
                ("movers", FactType::Text, "moves made by"),
                ("chats_kept", FactType::Count, "chat messages kept"),
            ],
            times: &[
                ("created_at", created.as_str(), stamp),
                ("last_move_at", last.as_str(), stamp),
            ],
        },
        &mut no_identity,
    )
}
