//! Reddit on Android (`com.reddit.frontpage`), the fields of ALEAPP's nine `reddit` artefacts,
//! its stores found by listing the app's `databases/` (their names carry account and session
//! ids) and read by the tables each holds:
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `reddit_db_<account>` `account` | one `accounts` | created and premium since (Unix s), name, account id, e-mail, e-mail verified, phone country code and masked number as stored, link / comment / total karma, premium, moderator, employee, suspended, coins, accepts chats and private messages |
//! | `reddit_db_<account>` `subreddit` | one `contacts` per community the app cached | created (Unix s), name, title, type, subscribers, accounts active, public description, ids |
//! | `matrix_auth` `session_params` | one `accounts` per chat session | date (Unix ms), the signed-in Matrix user id, session id, home server, token valid |
//! | `matrix-users-db` `RedditUserEntity` | one `contacts` per user the chat cached | inserted (Unix ms), cake day (Unix s), name, Reddit id, Matrix id, total karma, NSFW, blocked, accepting chats, icon URL |
//! | `matrix_session_<id>` `event` with `timeline_event`, `room_member_summary` | one `messages` per event (messages, reactions, redactions, membership and room events; ALEAPP's chat messages are the `m.room.message` ones) | time (Unix ms), type, sender's Matrix id and display name, body, message type, media URL, blurred URL, dimensions, MIME type, reaction key, redacted event, state key, room, event id; direction by the session's user |
//! | `matrix_session_<id>` `room_summary`, `room_member_summary` | one `contacts` per room and per member | a room's last activity (Unix ms), name, type, direct, direct user, joined and invited counts, topic, unread; a member's display name, user id, membership, direct, reason, room |
//!
//! Identities: a Reddit account is `reddit:t2_<id>` (computed in the query from the account id,
//! a user's Reddit id or a Matrix id `@t2_<id>:reddit.com`), with `reddit-user:<name>` and its
//! name; the account's, with its e-mail, is the device's user's (`owner`), and so is the
//! session's Matrix user. Wallet addresses in a message are claims by direction.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, record_query};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{RowPhenomena, unix_millis, unix_seconds};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::reddit::{matrix_id, reddit_id, user_name};

/// The app's data folder name.
pub const PACKAGE: &str = "com.reddit.frontpage";

/// Lists the app's `databases/` and reads each store by its tables.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((listing, paths)) = crate::identity::stores_in(
        ctx,
        &l.tree,
        &l.path,
        &format!("{}/databases", l.path),
        &[
            "reddit_db_*",
            "matrix_auth*",
            "matrix-users-db*",
            "matrix_session_*",
        ],
    )?
    else {
        return Ok(());
    };
    // the stores of the account and the chat session first: they say who the device's user is
    let rank = |p: &str| {
        let n = p.rsplit('/').next().unwrap_or(p);
        [
            "reddit_db_",
            "matrix_auth",
            "matrix-users-db",
            "matrix_session_",
        ]
        .iter()
        .position(|x| n.starts_with(x))
        .unwrap_or(4)
    };
    let mut paths = paths;
    paths.sort_by_key(|p| rank(p));
    let mut own = BTreeSet::new();
    for path in paths {
        let db = Located {
            tree: l.tree.clone(),
            path,
            found: listing.clone(),
        };
        ctx.artefact(&artefact_name(&db.tree, &db.path), || {
            store(ctx, &db, &mut own)
        })?;
    }
    Ok(())
}

fn store(ctx: &AgentCtx<'_>, l: &Located, own: &mut BTreeSet<String>) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let what = format!("Reddit's {}", l.name());
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    let mut known = false;
    if let Some(c) = table("account") {
        known = true;
        if require_columns(ctx, &name, &what, "account", c, &["accountId"])? {
            account(ctx, l, c)?;
        }
    }
    if let Some(c) = table("subreddit") {
        known = true;
        if require_columns(ctx, &name, &what, "subreddit", c, &["displayNamePrefixed"])? {
            subreddits(ctx, l, c)?;
        }
    }
    if let Some(c) = table("session_params") {
        known = true;
        if require_columns(ctx, &name, &what, "session_params", c, &["userId"])? {
            session(ctx, l, c, own)?;
        }
    }
    if let Some(c) = table("RedditUserEntity") {
        known = true;
        if require_columns(ctx, &name, &what, "RedditUserEntity", c, &["redditId"])? {
            users(ctx, l, c)?;
        }
    }
    if let Some(c) = table("event") {
        known = true;
        if require_columns(
            ctx,
            &name,
            &what,
            "event",
            c,
            &["eventId", "type", "sender"],
        )? {
            events(ctx, l, &name, c, schema.get("room_member_summary"), own)?;
        }
    }
    if let Some(c) = table("room_summary") {
        known = true;
        if require_columns(ctx, &name, &what, "room_summary", c, &["roomId"])? {
            rooms(ctx, l, c)?;
        }
    }
    if let Some(c) = table("room_member_summary") {
        known = true;
        if require_columns(
            ctx,
            &name,
            &what,
            "room_member_summary",
            c,
            &["roomId", "userId"],
        )? {
            members(ctx, l, c)?;
        }
    }
    if !known {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {what} because it has none of the tables account, subreddit, session_params, RedditUserEntity, event, room_summary"
            ),
            None,
        )?;
    }
    Ok(())
}

/// The columns `names` (each aliased as itself; NULL where missing).
fn select(cols: &BTreeSet<String>, prefix: &str, names: &[&str]) -> String {
    let spec: Vec<(&str, &str)> = names.iter().map(|c| (*c, *c)).collect();
    crate::calls::select_columns(cols, prefix, &spec)
}

fn account(ctx: &AgentCtx<'_>, l: &Located, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
    let fields = [
        ("name", FactType::Account, "name"),
        ("accountId", FactType::Account, "account id"),
        ("email", FactType::Email, "e-mail"),
        ("hasVerifiedEmail", FactType::Count, "e-mail verified"),
        ("phoneCountryCode", FactType::Text, "phone country code"),
        (
            "phoneMaskedNumber",
            FactType::Text,
            "phone (masked, as stored)",
        ),
        ("linkKarma", FactType::Count, "link karma"),
        ("commentKarma", FactType::Count, "comment karma"),
        ("totalKarma", FactType::Count, "total karma"),
        ("isPremiumSubscriber", FactType::Count, "premium"),
        ("isMod", FactType::Count, "moderator"),
        ("isEmployee", FactType::Count, "employee"),
        ("isSuspended", FactType::Count, "suspended"),
        ("coins", FactType::Count, "coins"),
        ("acceptChats", FactType::Count, "accepts chats"),
        (
            "acceptPrivateMessages",
            FactType::Count,
            "accepts private messages",
        ),
    ];
    let names: Vec<&str> = fields
        .iter()
        .map(|(c, ..)| *c)
        .chain(["createdUtc", "premiumSinceUtc"])
        .collect();
    let sql = format!(
        "SELECT a.rowid AS rid, {}, {} AS qualified, {} AS qualified_name FROM account a ORDER BY a.rowid",
        select(cols, "a.", &names),
        reddit_id("a.accountId"),
        if cols.contains("name") {
            user_name("a.name")
        } else {
            "NULL".into()
        },
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Reddit account u/{}",
            t.get(row, "name")
                .or(t.get(row, "accountId"))
                .unwrap_or("?")
        )
    };
    let spec = RowPhenomena {
        table: "account",
        category: "accounts",
        what: "the Reddit account signed in to the app",
        title: &title,
        fields: &fields,
        times: &[
            ("createdUtc", "Reddit account created", unix_seconds),
            ("premiumSinceUtc", "Reddit Premium since", unix_seconds),
        ],
    };
    let file = l.name().to_string();
    record_query(ctx, l, &sql, &spec, &mut |inv, t, row| {
        observe_columns(
            ctx,
            "owner",
            "device owner",
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Reddit account id"),
                ("qualified_name", IdType::AccountId, "The Reddit user name"),
                ("email", IdType::Email, "The e-mail address"),
            ],
            &|what| {
                format!(
                    "{what} of the Reddit account signed in to the app on the device (account of {file})."
                )
            },
        )
    })
}

fn subreddits(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let fields = [
        ("displayNamePrefixed", FactType::Name, "community"),
        ("title", FactType::Text, "title"),
        ("subredditType", FactType::Text, "type"),
        ("subscribers", FactType::Count, "subscribers"),
        ("accountsActive", FactType::Count, "accounts active"),
        ("publicDescription", FactType::Text, "public description"),
        ("subredditId", FactType::Identifier, "id"),
        ("subredditKindWithId", FactType::Identifier, "kind with id"),
    ];
    let names: Vec<&str> = fields
        .iter()
        .map(|(c, ..)| *c)
        .chain(["createdUtc"])
        .collect();
    let sql = format!(
        "SELECT s.rowid AS rid, {} FROM subreddit s ORDER BY s.rowid",
        select(cols, "s.", &names)
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Reddit community {}",
            t.get(row, "displayNamePrefixed").unwrap_or("?")
        )
    };
    let spec = RowPhenomena {
        table: "subreddit",
        category: "contacts",
        what: "a Reddit community the app cached for the account",
        title: &title,
        fields: &fields,
        times: &[("createdUtc", "Reddit community created", unix_seconds)],
    };
    record_query(ctx, l, &sql, &spec, &mut |_, _, _| Ok(()))
}

fn session(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    own: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let home = if cols.contains("homeServerConnectionConfigJson") {
        "CASE WHEN json_valid(p.homeServerConnectionConfigJson) THEN json_extract(p.homeServerConnectionConfigJson, '$.homeServerUri') END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT p.rowid AS rid, p.userId AS userId, {} AS qualified, {}, {home} AS home_server FROM session_params p ORDER BY p.rowid",
        matrix_id("p.userId"),
        select(cols, "p.", &["date", "sessionId", "isTokenValid"]),
    );
    let fields = [
        ("userId", FactType::Account, "signed-in Matrix user id"),
        ("sessionId", FactType::Identifier, "session id"),
        ("home_server", FactType::Url, "home server"),
        ("isTokenValid", FactType::Count, "token valid"),
    ];
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Reddit chat session of {}",
            t.get(row, "userId").unwrap_or("?")
        )
    };
    let spec = RowPhenomena {
        table: "session_params",
        category: "accounts",
        what: "the Reddit chat (Matrix) session of the device's user",
        title: &title,
        fields: &fields,
        times: &[("date", "Reddit chat session started", unix_millis)],
    };
    let file = l.name().to_string();
    record_query(ctx, l, &sql, &spec, &mut |inv, t, row| {
        if let Some(u) = t.get(row, "userId") {
            own.insert(u.to_string());
        }
        observe_columns(
            ctx,
            "owner",
            "device owner",
            t,
            row,
            inv,
            &[("qualified", IdType::AccountId, "The Reddit account id")],
            &|what| {
                format!(
                    "{what} of the Reddit chat session signed in on the device (session_params of {file}: its Matrix user id)."
                )
            },
        )
    })
}

fn users(ctx: &AgentCtx<'_>, l: &Located, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
    let fields = [
        ("name", FactType::Account, "name"),
        ("redditId", FactType::Account, "Reddit id"),
        ("matrixId", FactType::Account, "Matrix id"),
        ("totalKarma", FactType::Count, "total karma"),
        ("isNsfw", FactType::Count, "NSFW"),
        ("isBlocked", FactType::Count, "blocked"),
        ("isAcceptingChats", FactType::Count, "accepting chats"),
        ("profileIconUrl", FactType::Url, "icon"),
    ];
    let names: Vec<&str> = fields
        .iter()
        .map(|(c, ..)| *c)
        .chain(["insertTimestamp", "cakeday"])
        .collect();
    let sql = format!(
        "SELECT u.rowid AS rid, {}, {} AS qualified, {} AS qualified_name FROM RedditUserEntity u ORDER BY u.rowid",
        select(cols, "u.", &names),
        reddit_id("u.redditId"),
        if cols.contains("name") {
            user_name("u.name")
        } else {
            "NULL".into()
        },
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Reddit user u/{}",
            t.get(row, "name").or(t.get(row, "redditId")).unwrap_or("?")
        )
    };
    let spec = RowPhenomena {
        table: "RedditUserEntity",
        category: "contacts",
        what: "a Reddit user the chat cached",
        title: &title,
        fields: &fields,
        times: &[
            ("insertTimestamp", "Reddit user cached", unix_millis),
            ("cakeday", "Reddit user's cake day", unix_seconds),
        ],
    };
    let file = l.name().to_string();
    record_query(ctx, l, &sql, &spec, &mut |inv, t, row| {
        crate::identity::observe_row_person(
            ctx,
            t,
            row,
            inv,
            "name",
            &[
                ("qualified", IdType::AccountId, "The Reddit account id"),
                ("qualified_name", IdType::AccountId, "The Reddit user name"),
            ],
            &|what, who| format!("{what} of u/{who}, a Reddit user the chat cached ({file})."),
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn events(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &BTreeSet<String>,
    members: Option<&BTreeSet<String>>,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "e.", col, col);
    let display = if members.is_some_and(|m| {
        ["roomId", "userId", "displayName"]
            .iter()
            .all(|c| m.contains(*c))
    }) && cols.contains("roomId")
    {
        "(SELECT r.displayName FROM room_member_summary r WHERE r.userId = e.sender AND r.roomId = e.roomId LIMIT 1)"
    } else {
        "NULL"
    };
    let content = |path: &str, alias: &str| {
        if cols.contains("content") {
            format!(
                "CASE WHEN json_valid(e.content) THEN json_extract(e.content, '{path}') END AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT e.rowid AS rid, e.eventId AS eventId, e.type AS type, e.sender AS sender, {} AS qualified, {display} AS sender_name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM event e ORDER BY {}e.rowid",
        matrix_id("e.sender"),
        c("originServerTs"),
        c("roomId"),
        c("redacts"),
        c("stateKey"),
        content("$.body", "body"),
        content("$.msgtype", "msgtype"),
        content("$.url", "media_url"),
        content("$.\"com.reddit.blurred_url\"", "blurred_url"),
        content("$.info.w", "width"),
        content("$.info.h", "height"),
        content("$.info.mimetype", "mimetype"),
        content("$.\"m.relates_to\".key", "reaction"),
        if cols.contains("originServerTs") {
            "e.originServerTs, "
        } else {
            ""
        },
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Reddit chat events")?;
    for (inv, t, row) in pages.rows() {
        let kind = t.get(row, "type").unwrap_or("?");
        let sender = t.get(row, "sender");
        let sent = sender.map(|s| own.contains(s));
        let who = t
            .get(row, "sender_name")
            .or(sender)
            .unwrap_or("an unknown sender")
            .to_string();
        let noun = match kind {
            "m.room.message" => "message",
            "m.reaction" => "reaction",
            "m.room.redaction" => "deletion",
            _ => "chat event",
        };
        let title = match (kind, sent) {
            ("m.room.message", Some(true)) => "Reddit chat message sent".to_string(),
            ("m.room.message", _) => format!("Reddit chat message from {who}"),
            _ => format!("Reddit chat {noun} ({kind}) by {who}"),
        };
        let mut d = crate::drafts::Draft::new("messages", title);
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("type", FactType::Text, "type"),
                ("sender", FactType::Account, "sender"),
                ("sender_name", FactType::Name, "sender's display name"),
                ("body", FactType::Text, "body"),
                ("msgtype", FactType::Text, "message type"),
                ("media_url", FactType::Url, "media"),
                ("blurred_url", FactType::Url, "blurred media"),
                ("width", FactType::Count, "width"),
                ("height", FactType::Count, "height"),
                ("mimetype", FactType::Text, "MIME type"),
                ("reaction", FactType::Text, "reaction"),
                ("redacts", FactType::Identifier, "deleted event"),
                ("stateKey", FactType::Text, "state key"),
                ("roomId", FactType::Identifier, "room"),
                ("eventId", FactType::Identifier, "event id"),
            ],
        );
        let at = t.get(row, "originServerTs");
        if kind == "m.room.message" && sent.is_some() && !own.is_empty() {
            d.message_time(at, unix_millis(at), sent == Some(true), inv);
        } else {
            d.time(at, unix_millis(at), "Reddit chat event", inv);
        }
        let deleted = kind == "m.room.message" && t.get(row, "msgtype").is_none();
        d.interpretation = format!(
            "event row {} of {}: a Reddit chat {noun}{}{}: {}; the time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            match sent {
                _ if own.is_empty() => "",
                Some(true) => " sent by the device's user (its sender is the session's user)",
                _ => " received by the device's user",
            },
            if deleted {
                " whose content was removed (a redacted message keeps no msgtype)"
            } else {
                ""
            },
            said.join(", ")
        );
        crate::drafts::record_draft(ctx, d)?;
        let other = match (sent, t.get(row, "qualified")) {
            (Some(false), Some(q)) if !own.is_empty() => {
                observe_columns(
                    ctx,
                    q,
                    &who,
                    t,
                    row,
                    inv,
                    &[
                        ("qualified", IdType::AccountId, "The Reddit account id"),
                        ("sender_name", IdType::DisplayName, "The display name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of {who}, who sent a Reddit chat event (event row {} of {}).",
                            t.get(row, "rid").unwrap_or("?"),
                            l.name()
                        )
                    },
                )?;
                Some((q, who.as_str()))
            }
            _ => None,
        };
        if let (Some(body), "m.room.message", Some(s)) = (t.get(row, "body"), kind, sent)
            && !own.is_empty()
        {
            crate::identity::claims_by_direction(
                ctx,
                inv,
                body,
                &format!(
                    "Reddit chat message (event row {} of {})",
                    t.get(row, "rid").unwrap_or("?"),
                    l.name()
                ),
                s,
                other,
            )?;
        }
    }
    Ok(())
}

fn rooms(ctx: &AgentCtx<'_>, l: &Located, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
    let fields = [
        ("displayName", FactType::Name, "name"),
        ("roomType", FactType::Text, "type"),
        ("isDirect", FactType::Count, "direct"),
        ("directUserId", FactType::Account, "direct user"),
        ("joinedMembersCount", FactType::Count, "joined members"),
        ("invitedMembersCount", FactType::Count, "invited members"),
        ("topic", FactType::Text, "topic"),
        ("hasUnreadMessages", FactType::Count, "unread"),
        ("roomId", FactType::Identifier, "room id"),
    ];
    let names: Vec<&str> = fields
        .iter()
        .map(|(c, ..)| *c)
        .chain(["lastActivityTime"])
        .collect();
    let sql = format!(
        "SELECT s.rowid AS rid, {} FROM room_summary s ORDER BY s.rowid",
        select(cols, "s.", &names)
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Reddit chat room {}",
            t.get(row, "displayName")
                .or(t.get(row, "roomId"))
                .unwrap_or("?")
        )
    };
    let spec = RowPhenomena {
        table: "room_summary",
        category: "contacts",
        what: "a Reddit chat room of the account",
        title: &title,
        fields: &fields,
        times: &[(
            "lastActivityTime",
            "Reddit chat room last active",
            unix_millis,
        )],
    };
    record_query(ctx, l, &sql, &spec, &mut |_, _, _| Ok(()))
}

fn members(ctx: &AgentCtx<'_>, l: &Located, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
    let fields = [
        ("displayName", FactType::Name, "display name"),
        ("userId", FactType::Account, "user id"),
        ("membershipStr", FactType::Text, "membership"),
        ("isDirect", FactType::Count, "direct"),
        ("reason", FactType::Text, "reason"),
        ("roomId", FactType::Identifier, "room"),
    ];
    let names: Vec<&str> = fields.iter().map(|(c, ..)| *c).collect();
    let sql = format!(
        "SELECT m.rowid AS rid, {}, {} AS qualified FROM room_member_summary m ORDER BY m.rowid",
        select(cols, "m.", &names),
        matrix_id("m.userId"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Reddit chat member {}",
            t.get(row, "displayName")
                .or(t.get(row, "userId"))
                .unwrap_or("?")
        )
    };
    let spec = RowPhenomena {
        table: "room_member_summary",
        category: "contacts",
        what: "a member of a Reddit chat room",
        title: &title,
        fields: &fields,
        times: &[],
    };
    let file = l.name().to_string();
    record_query(ctx, l, &sql, &spec, &mut |inv, t, row| {
        crate::identity::observe_row_person(
            ctx,
            t,
            row,
            inv,
            "displayName",
            &[
                ("qualified", IdType::AccountId, "The Reddit account id"),
                ("displayName", IdType::DisplayName, "The display name"),
            ],
            &|what, who| format!("{what} of {who}, a member of a Reddit chat room ({file})."),
        )
    })
}
