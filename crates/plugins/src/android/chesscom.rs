//! Chess.com (`com.chess`), ALEAPP's `ChessComAccount`, `ChessComFriends`, `ChessComGames` and
//! `ChessComMessages`: the account signed in, its friends, its daily (correspondence) games and
//! its messages.
//!
//! | file, table | phenomenon | fields |
//! |---|---|---|
//! | `shared_prefs/com.chess.app.session_preferences.xml` | one `accounts` ("Chess.com account <user name>") | user name, e-mail, member since (Unix s) |
//! | `shared_prefs/com.chess.app.login_credentials.xml` | one `accounts` ("Chess.com saved sign-in <user name or e-mail>") | the user name or e-mail signed in with; that a password is stored (never its value) |
//! | `databases/chess-database`, `friends` | one `contacts` per friend ("Chess.com friend <user name>") | id, user name, first and last name, last login (Unix s) |
//! | `daily_games` | one `app_usage` per game ("Chess.com daily game <white> vs <black>") | game id, white and black players, whether the opponent is a friend, result, first and last move (Unix s) |
//! | `messages` | one `messages` per message ("Chess.com message from <sender>[ to <the conversation's other senders>]") | text, sender, conversation, the conversation's other senders, sent (Unix s) |
//!
//! Identities: the session's e-mail, its user name (`chesscom:<user name>`, qualified by
//! `read_xml`'s `qualify`) and the saved sign-in's e-mail or user name are the device's user's
//! (`owner`); each friend, opponent and correspondent is a `chesscom:<user name>` person with the
//! user name and a friend's name (the qualified id written by the query, so it grounds). The
//! store names no account itself: with the session's user name (passed in by the dispatch, read
//! from the preferences beside it) a message is the user's when its sender is that name, a game
//! is the user's when one side is, and the user's side is observed as the owner's; without it
//! no direction is said and every sender is a person (ALEAPP shows only the games the session's
//! user played; a game of two others is kept here, said to be so). Wallet addresses in a text
//! are claims by its direction. A store with none of the three tables is noted, and so is a
//! table without the columns it is read by (`friends.username`; `daily_games.white_username`,
//! `black_username`; `messages.sender_username`, `content`).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, qualified_or_null, require_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_seconds};
use crate::identity::{artefact_name, observe_columns, observe_owner_ids, pages_on, schema_on};

/// The app's folder.
const APP: &str = "/com.chess/";

/// Whether `l` is the app's database.
pub fn is_store(l: &Located) -> bool {
    l.name() == "chess-database" && l.path.contains("/com.chess/databases/")
}

/// Whether `l` is the app's session preferences (the account signed in).
pub fn is_session(l: &Located) -> bool {
    l.path
        .ends_with("/com.chess/shared_prefs/com.chess.app.session_preferences.xml")
}

/// Whether `l` is the app's saved sign-in.
pub fn is_credentials(l: &Located) -> bool {
    l.path
        .ends_with("/com.chess/shared_prefs/com.chess.app.login_credentials.xml")
}

/// The app's data folder a file of it lies in (`…/com.chess`), to pair the database with the
/// session preferences of the same Android user.
pub fn app_folder(path: &str) -> Option<&str> {
    path.find(APP).and_then(|at| path.get(..at + APP.len() - 1))
}

/// The session preferences: the account, observed as the owner's; returns its user name.
pub fn session(ctx: &AgentCtx<'_>, l: &Located) -> Result<Option<String>, RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(
        ctx,
        l,
        "Chess.com",
        Some(serde_json::json!({ "pref_username": "chesscom" })),
    )?
    else {
        return Ok(None);
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    let (user, email, since) = (
        get("pref_username"),
        get("pref_email"),
        get("pref_member_since"),
    );
    if user.is_none() && email.is_none() {
        return Ok(None);
    }
    let mut d = Draft::new(
        "accounts",
        format!(
            "Chess.com account {}",
            user.as_deref().or(email.as_deref()).unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, user.as_deref(), &inv);
    d.fact(FactType::Email, email.as_deref(), &inv);
    d.time(
        since.as_deref(),
        unix_seconds(since.as_deref()),
        "Chess.com member since",
        &inv,
    );
    d.interpretation = format!(
        "{}: the Chess.com account signed in on the phone: user name {}, e-mail {}, member since {} (Unix seconds).",
        l.name(),
        user.as_deref().unwrap_or("not stored"),
        email.as_deref().unwrap_or("not stored"),
        since.as_deref().unwrap_or("not stored"),
    );
    record_draft(ctx, d)?;
    let qualified = inv
        .output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("# qualified pref_username: "))
        .map(str::to_string);
    observe_owner_ids(
        ctx,
        &inv,
        vec![
            (email, IdType::Email, "e-mail"),
            (qualified, IdType::AccountId, "user name (qualified)"),
            (user.clone(), IdType::Nickname, "user name"),
        ],
        &|what| {
            format!(
                "The Chess.com {what} of the account signed in on the device ({}), the device's user.",
                l.name()
            )
        },
    )?;
    Ok(user)
}

/// The saved sign-in: the user name or e-mail, observed as the owner's; the password is said to
/// be stored, never copied.
pub fn credentials(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(
        ctx,
        l,
        "Chess.com",
        Some(serde_json::json!({ "pref_username_or_email": "chesscom" })),
    )?
    else {
        return Ok(());
    };
    let login = super::prefs::pref(&prefs, "pref_username_or_email");
    let password = super::prefs::pref(&prefs, "pref_password").is_some();
    let Some(login) = login else {
        return Ok(());
    };
    let email = login.contains('@');
    let mut d = Draft::new("accounts", format!("Chess.com saved sign-in {login}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(
        if email {
            FactType::Email
        } else {
            FactType::Account
        },
        Some(&login),
        &inv,
    );
    d.interpretation = format!(
        "{}: the Chess.com sign-in the app saved: {login} ({}); {}.",
        l.name(),
        if email { "an e-mail" } else { "a user name" },
        if password {
            "a password is stored with it (pref_password, not copied here)"
        } else {
            "no password is stored with it"
        },
    );
    record_draft(ctx, d)?;
    let ids = if email {
        vec![(Some(login), IdType::Email, "e-mail")]
    } else {
        let qualified = inv
            .output
            .text
            .lines()
            .find_map(|line| line.strip_prefix("# qualified pref_username_or_email: "))
            .map(str::to_string);
        vec![
            (qualified, IdType::AccountId, "user name (qualified)"),
            (Some(login), IdType::Nickname, "user name"),
        ]
    };
    observe_owner_ids(ctx, &inv, ids, &|what| {
        format!(
            "The Chess.com {what} the app saved to sign in with ({}), the device's user's.",
            l.name()
        )
    })
}

/// One `chess-database`; `me` is the user name of the session preferences beside it.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, me: Option<&str>) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let (friends, games, messages) = (
        schema.get("friends"),
        schema.get("daily_games"),
        schema.get("messages"),
    );
    if friends.is_none() && games.is_none() && messages.is_none() {
        ctx.unparsed(
            &name,
            "not Chess.com's chess-database: none of friends, daily_games, messages",
            None,
        )?;
        return Ok(());
    }
    let what = "Chess.com's chess-database";
    if let Some(cols) = friends
        && require_columns(ctx, &name, what, "friends", cols, &["username"])?
    {
        friends_of(ctx, l, cols)?;
    }
    if let Some(cols) = games
        && require_columns(
            ctx,
            &name,
            what,
            "daily_games",
            cols,
            &["white_username", "black_username"],
        )?
    {
        games_of(ctx, l, cols, me)?;
    }
    if let Some(cols) = messages
        && require_columns(
            ctx,
            &name,
            what,
            "messages",
            cols,
            &["sender_username", "content"],
        )?
    {
        messages_of(ctx, l, cols, me)?;
    }
    Ok(())
}

/// The account's friends, each a `chesscom:<user name>` person.
fn friends_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let full = if cols.contains("first_name") && cols.contains("last_name") {
        "trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) AS full_name"
    } else {
        "NULL AS full_name"
    };
    let sql = format!(
        "SELECT rowid AS rid, {}, username, {}, {}, {}, {full}, {} FROM friends ORDER BY rowid",
        c("id"),
        qualified_or_null(cols, "", "username", "chesscom", "qualified"),
        c("first_name"),
        c("last_name"),
        c("last_login_date"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Chess.com friend {}",
            t.get(row, "username").unwrap_or_default()
        )
    };
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "friends",
            category: "contacts",
            what: "a friend of the Chess.com account (last login Unix seconds)",
            title: &title,
            fields: &[
                ("username", FactType::Account, "user name"),
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("id", FactType::Identifier, "id"),
            ],
            times: &[(
                "last_login_date",
                "Last logged in to Chess.com",
                unix_seconds,
            )],
        },
        &mut |inv, t, row| {
            let Some(q) = t.get(row, "qualified") else {
                return Ok(());
            };
            let who = t.get(row, "username").unwrap_or(q);
            observe_columns(
                ctx,
                q,
                who,
                t,
                row,
                inv,
                &[
                    (
                        "qualified",
                        IdType::AccountId,
                        "The Chess.com user name (qualified)",
                    ),
                    ("username", IdType::Nickname, "The Chess.com user name"),
                    ("full_name", IdType::DisplayName, "The name"),
                ],
                &|what| {
                    format!(
                        "{what} of {who}, a friend of the Chess.com account (friends of {file})."
                    )
                },
            )
        },
    )
}

/// The daily games, each player a `chesscom:<user name>` person (the session's user the owner).
fn games_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let c = |col: &str| column_or_null(cols, "", col, col);
    let order = if cols.contains("timestamp") {
        "timestamp, rowid"
    } else {
        "rowid"
    };
    let sql = format!(
        "SELECT rowid AS rid, {}, white_username, black_username, {}, {}, {}, {}, {}, {} FROM daily_games ORDER BY {order}",
        c("game_id"),
        qualified_or_null(cols, "", "white_username", "chesscom", "white_q"),
        qualified_or_null(cols, "", "black_username", "chesscom", "black_q"),
        c("is_opponent_friend"),
        c("result_message"),
        c("game_start_time"),
        c("timestamp"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Chess.com daily games")?;
    for (inv, t, row) in pages.rows() {
        let (white, black) = (
            t.get(row, "white_username").unwrap_or("?"),
            t.get(row, "black_username").unwrap_or("?"),
        );
        // the user's side, where the session names the user: (own column, opponent's columns)
        let side = match me {
            Some(m) if m == white => Some(("white_q", "black_q", "black_username")),
            Some(m) if m == black => Some(("black_q", "white_q", "white_username")),
            _ => None,
        };
        let mut d = Draft::new(
            "app_usage",
            format!("Chess.com daily game {white} vs {black}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("game_id", FactType::Identifier, "game"),
                ("white_username", FactType::Account, "white"),
                ("black_username", FactType::Account, "black"),
                ("is_opponent_friend", FactType::Text, "opponent a friend"),
                ("result_message", FactType::Text, "result"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("game_start_time", "Chess.com game's first move"),
                ("timestamp", "Chess.com game's last move"),
            ],
        );
        d.interpretation = format!(
            "daily_games row {} of {name}: a Chess.com daily game ({}); {}. Times are Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
            match (me, side) {
                (Some(m), Some(_)) => format!("the device's user {m} (the session's user name) played it"),
                (Some(m), None) => format!("a game of two other players: the session's user {m} is neither side"),
                (None, _) => "which side is the device's user is not known (no session preferences beside the store)".to_string(),
            },
        );
        record_draft(ctx, d)?;
        let Some((own, other_q, other)) = side else {
            continue;
        };
        observe_columns(
            ctx,
            "owner",
            "device owner",
            t,
            row,
            inv,
            &[(
                own,
                IdType::AccountId,
                "The Chess.com user name (qualified)",
            )],
            &|what| {
                format!(
                    "{what} of the side of a daily game the session's user played ({name}), the device's user."
                )
            },
        )?;
        if let Some(q) = t.get(row, other_q) {
            let who = t.get(row, other).unwrap_or(q);
            observe_columns(
                ctx,
                q,
                who,
                t,
                row,
                inv,
                &[
                    (
                        other_q,
                        IdType::AccountId,
                        "The Chess.com user name (qualified)",
                    ),
                    (other, IdType::Nickname, "The Chess.com user name"),
                ],
                &|what| {
                    format!(
                        "{what} of {who}, the device's user's opponent in a daily game ({name})."
                    )
                },
            )?;
        }
    }
    Ok(())
}

/// The messages, each sender a `chesscom:<user name>` person (the session's user the owner).
fn messages_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let (conversation, others) = if cols.contains("conversation_id") {
        (
            "m.conversation_id AS conversation_id",
            "(SELECT group_concat(DISTINCT o.sender_username) FROM messages o WHERE o.conversation_id = m.conversation_id AND o.sender_username != m.sender_username) AS others",
        )
    } else {
        ("NULL AS conversation_id", "NULL AS others")
    };
    let order = if cols.contains("created_at") {
        "m.created_at, m.rowid"
    } else {
        "m.rowid"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, {conversation}, m.sender_username AS sender, {}, m.content AS content, {}, {others} FROM messages m ORDER BY {order}",
        qualified_or_null(cols, "m.", "sender_username", "chesscom", "qualified"),
        column_or_null(cols, "m.", "created_at", "created_at"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Chess.com messages")?;
    for (inv, t, row) in pages.rows() {
        let sender = t.get(row, "sender");
        let others = t.get(row, "others");
        // known only where the session preferences name the user
        let sent = me.map(|m| sender == Some(m));
        let mut d = Draft::new(
            "messages",
            format!(
                "Chess.com message from {}{}",
                sender.unwrap_or("?"),
                others.map(|o| format!(" to {o}")).unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("content", FactType::Text, "text"),
                ("sender", FactType::Account, "sender"),
                ("conversation_id", FactType::Identifier, "conversation"),
                ("others", FactType::Text, "the conversation's other senders"),
            ],
        );
        let at = t.get(row, "created_at");
        match sent {
            Some(s) => d.message_time(at, unix_seconds(at), s, inv),
            None => d.time(at, unix_seconds(at), "Chess.com message", inv),
        };
        d.interpretation = format!(
            "messages row {} of {name}: a Chess.com message ({}); {}. The time is Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
            match (sent, me) {
                (Some(true), Some(m)) => format!("sent by the device's user: its sender is {m}, the session's user name"),
                (Some(false), Some(m)) => format!("received: its sender is not {m}, the session's user name"),
                _ => "who wrote it is not known to be the device's user (no session preferences beside the store)".to_string(),
            },
        );
        record_draft(ctx, d)?;
        let Some(q) = t.get(row, "qualified") else {
            continue;
        };
        let who = sender.unwrap_or(q);
        if sent == Some(true) {
            observe_columns(
                ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[(
                    "qualified",
                    IdType::AccountId,
                    "The Chess.com user name (qualified)",
                )],
                &|what| {
                    format!(
                        "{what} of the sender of a message the session's user wrote ({name}), the device's user."
                    )
                },
            )?;
        } else {
            observe_columns(
                ctx,
                q,
                who,
                t,
                row,
                inv,
                &[
                    (
                        "qualified",
                        IdType::AccountId,
                        "The Chess.com user name (qualified)",
                    ),
                    ("sender", IdType::Nickname, "The Chess.com user name"),
                ],
                &|what| format!("{what} of {who}, who wrote a Chess.com message ({name})."),
            )?;
        }
        if let (Some(text), Some(s)) = (t.get(row, "content"), sent) {
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!("Chess.com message ({name})"),
                s,
                (!s).then_some((q, who)),
            )?;
        }
    }
    Ok(())
}
