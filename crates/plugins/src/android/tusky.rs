//! Tusky (`com.keylesspalace.tusky`), an Android client of Mastodon, the fields of ALEAPP's
//! `tusky` artefacts (timeline, account details) and more, from its Room store `tuskyDB`, each
//! table read where present with the columns it has (the per-account column is
//! `timelineUserId` before schema 50-odd, `tuskyAccountId` after):
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `AccountEntity` | one `accounts` per signed-in account | account id, user name, domain, display name, picture, active, every notification setting; its access token, client secret and push keys are never selected |
//! | `TimelineAccountEntity` | one `contacts` per account the timelines hold | server id, handle, user name, display name, profile URL, avatar, bio, bot |
//! | `TimelineStatusEntity` with its author | one `social` per status, a `direct` one (visibility 4) a `messages` with its direction | created and edited (Unix ms), author, URL, text (HTML flattened in the query), attachments' URLs, boosts, favourites, replies, boosted / bookmarked / favourited by the user, sensitive, content warning, visibility, application, language, reply ids |
//! | `ConversationEntity` | one `messages` per direct conversation's last status | created (Unix ms), its author and the conversation's members (JSON, read in the query), text, unread, conversation id |
//! | `NotificationEntity` (later schemas) | one `social` per notification | type, from whom, the status it is about |
//!
//! Identities: a Mastodon user is `mastodon:user@domain`, as the Mastodon readers name them
//! (a local handle gets its profile URL's host, in the query): the signed-in accounts
//! (`username@domain` of `AccountEntity`) are the device's user's (`owner`); every other
//! account a person with display name. A direct status's wallet addresses are claims by
//! direction.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::mastodon::{Statuses, handle_expr, status};
use super::{Located, record_query};
use crate::calls::{Tables, column_or_null, select_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_millis};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::ios::mastodon::html_text;

/// The store's file name.
pub const STORE: &str = "tuskyDB";

/// Whether `l` is Tusky's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == STORE && l.path.contains("/com.keylesspalace.tusky/")
}

/// The tables read.
const TABLES: [&str; 5] = [
    "AccountEntity",
    "TimelineAccountEntity",
    "TimelineStatusEntity",
    "ConversationEntity",
    "NotificationEntity",
];

/// Reads the store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(ctx, &name, "Tusky's tuskyDB", &schema, &TABLES)? else {
        return Ok(());
    };
    let need = |t: &str, c: &[&str]| tables.need(t, c);
    // the signed-in accounts, the device's user's
    let mut own = BTreeSet::new();
    if let Some(c) = need("AccountEntity", &["id", "accountId", "username", "domain"])? {
        accounts(ctx, l, c, &mut own)?;
    }
    let accts = need("TimelineAccountEntity", &["serverId", "username", "url"])?;
    if let Some(c) = accts {
        timeline_accounts(ctx, l, c)?;
    }
    if let Some(c) = need(
        "TimelineStatusEntity",
        &["serverId", "createdAt", "visibility"],
    )? {
        statuses(ctx, l, c, accts, &own)?;
    }
    if let Some(c) = need(
        "ConversationEntity",
        &["id", "s_account", "s_content", "s_createdAt"],
    )? {
        conversations(ctx, l, c, &own)?;
    }
    if let (Some(c), Some(a)) = (need("NotificationEntity", &["id", "accountId"])?, accts) {
        notifications(ctx, l, c, a)?;
    }
    Ok(())
}

/// The per-account column of a timeline table (`tuskyAccountId`, earlier `timelineUserId`).
fn user_col(cols: &BTreeSet<String>) -> Option<&'static str> {
    ["tuskyAccountId", "timelineUserId"]
        .into_iter()
        .find(|c| cols.contains(*c))
}

fn accounts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    own: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    // every notification setting by name, never the token, the client secret or the push keys
    let flags: Vec<&str> = cols
        .iter()
        .map(String::as_str)
        .filter(|c| c.starts_with("notification") && *c != "notificationsFilter")
        .collect();
    let spec: Vec<(&str, &str)> = [
        ("displayName", "displayName"),
        ("profilePictureUrl", "picture"),
        ("isActive", "isActive"),
        ("defaultPostPrivacy", "postPrivacy"),
        ("tabPreferences", "tabs"),
    ]
    .into_iter()
    .chain(flags.iter().map(|f| (*f, *f)))
    .collect();
    let sql = format!(
        "SELECT a.id AS rid, a.accountId AS accountId, a.username AS username, a.domain AS domain, 'mastodon:' || a.username || '@' || a.domain AS qualified, {} FROM AccountEntity a ORDER BY a.id",
        select_columns(cols, "a.", &spec)
    );
    let mut fields: Vec<(&str, FactType, &str)> = vec![
        ("username", FactType::Account, "user name"),
        ("domain", FactType::Text, "domain"),
        ("qualified", FactType::Account, "account"),
        ("accountId", FactType::Identifier, "account id"),
        ("displayName", FactType::Name, "display name"),
        ("picture", FactType::Url, "picture"),
        ("isActive", FactType::Count, "active"),
        ("postPrivacy", FactType::Count, "default post privacy"),
        ("tabs", FactType::Text, "tabs"),
    ];
    fields.extend(flags.iter().map(|f| (*f, FactType::Count, *f)));
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "AccountEntity",
            category: "accounts",
            what: "a Mastodon account signed in to Tusky (its access token, client secret and push keys are not copied)",
            title: &|t, row| {
                format!(
                    "Tusky account {}@{}",
                    t.get(row, "username").unwrap_or("?"),
                    t.get(row, "domain").unwrap_or("?")
                )
            },
            fields: &fields,
            times: &[],
        },
        &mut |inv, t, row| {
            if let Some(id) = t.get(row, "accountId") {
                own.insert(id.to_string());
            }
            observe_columns(
                ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Mastodon handle"),
                    ("displayName", IdType::DisplayName, "The display name"),
                ],
                &|what| {
                    format!(
                        "{what} of the Mastodon account signed in to Tusky (AccountEntity of {file}: its user name at its domain)."
                    )
                },
            )
        },
    )
}

fn timeline_accounts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT a.rowid AS rid, a.serverId AS serverId, a.username AS username, {} AS qualified, {} FROM TimelineAccountEntity a ORDER BY a.rowid",
        handle_expr("a.username", "a.url"),
        select_columns(
            cols,
            "a.",
            &[
                ("localUsername", "localUsername"),
                ("displayName", "displayName"),
                ("url", "url"),
                ("avatar", "avatar"),
                ("note", "note"),
                ("bot", "bot"),
            ]
        ),
    );
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "TimelineAccountEntity",
            category: "contacts",
            what: "a Mastodon account Tusky's timelines hold",
            title: &|t, row| format!("Tusky user @{}", t.get(row, "username").unwrap_or("?")),
            fields: &[
                ("username", FactType::Account, "handle"),
                ("qualified", FactType::Account, "account"),
                ("localUsername", FactType::Account, "user name"),
                ("displayName", FactType::Name, "display name"),
                ("url", FactType::Url, "profile"),
                ("avatar", FactType::Url, "avatar"),
                ("note", FactType::Text, "bio"),
                ("bot", FactType::Count, "bot"),
                ("serverId", FactType::Identifier, "server id"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "displayName",
                &[
                    ("qualified", IdType::AccountId, "The Mastodon handle"),
                    ("displayName", IdType::DisplayName, "The display name"),
                ],
                &|what, _| {
                    format!(
                        "{what} of a Mastodon account Tusky's timelines hold (TimelineAccountEntity row {} of {file}).",
                        t.get(row, "rid").unwrap_or("?")
                    )
                },
            )
        },
    )
}

fn statuses(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    accts: Option<&BTreeSet<String>>,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    // the author: the timeline account of the same Tusky account
    let join = match (accts, user_col(cols), accts.and_then(user_col)) {
        (Some(_), Some(su), Some(au)) if cols.contains("authorServerId") => {
            format!(
                " LEFT JOIN TimelineAccountEntity a ON a.serverId = s.authorServerId AND a.{au} = s.{su}"
            )
        }
        _ => String::new(),
    };
    let a = |c: &str| {
        if join.is_empty() || !accts.is_some_and(|x| x.contains(c)) {
            "NULL".to_string()
        } else {
            format!("a.{c}")
        }
    };
    let attachments = if cols.contains("attachments") {
        "(SELECT group_concat(json_extract(m.value, '$.url'), ' ') FROM json_each(CASE WHEN json_valid(s.attachments) THEN s.attachments ELSE '[]' END) m)"
    } else {
        "NULL"
    };
    let application = if cols.contains("application") {
        "CASE WHEN json_valid(s.application) THEN json_extract(s.application, '$.name') END"
    } else {
        "NULL"
    };
    let text = if cols.contains("content") {
        html_text("s.content")
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT s.rowid AS rid, s.serverId AS serverId, s.createdAt AS createdAt, s.visibility AS visibility_code, CASE s.visibility WHEN 0 THEN 'Unknown' WHEN 1 THEN 'Public' WHEN 2 THEN 'Unlisted' WHEN 3 THEN 'Private' WHEN 4 THEN 'Direct' END AS visibility, {} AS username, {} AS displayName, {} AS author_id, {} AS qualified, {text} AS text, {attachments} AS attachments, {application} AS application, {} FROM TimelineStatusEntity s{join} WHERE s.createdAt > 0 ORDER BY s.createdAt, s.rowid",
        a("username"),
        a("displayName"),
        if cols.contains("authorServerId") {
            "s.authorServerId"
        } else {
            "NULL"
        },
        if join.is_empty() {
            "NULL".to_string()
        } else {
            handle_expr("a.username", "a.url")
        },
        select_columns(
            cols,
            "s.",
            &[
                ("url", "url"),
                ("editedAt", "editedAt"),
                ("reblogsCount", "boosts"),
                ("favouritesCount", "favourites"),
                ("repliesCount", "replies"),
                ("reblogged", "reblogged"),
                ("bookmarked", "bookmarked"),
                ("favourited", "favourited"),
                ("sensitive", "sensitive"),
                ("spoilerText", "spoiler"),
                ("language", "language"),
                ("inReplyToId", "reply_to"),
                ("inReplyToAccountId", "reply_to_account"),
            ]
        ),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &pages,
        "Tusky statuses",
    )?;
    let spec = Statuses {
        app: "Tusky",
        table: "TimelineStatusEntity",
        fields: &[
            ("text", FactType::Text, "text"),
            ("username", FactType::Account, "author"),
            ("qualified", FactType::Account, "author account"),
            ("displayName", FactType::Name, "author name"),
            ("url", FactType::Url, "URL"),
            ("attachments", FactType::Url, "attachments"),
            ("boosts", FactType::Count, "boosts"),
            ("favourites", FactType::Count, "favourites"),
            ("replies", FactType::Count, "replies"),
            ("reblogged", FactType::Count, "boosted by the user"),
            ("bookmarked", FactType::Count, "bookmarked by the user"),
            ("favourited", FactType::Count, "favourited by the user"),
            ("sensitive", FactType::Count, "sensitive"),
            ("spoiler", FactType::Text, "content warning"),
            ("visibility", FactType::Text, "visibility"),
            ("application", FactType::Text, "application"),
            ("language", FactType::Text, "language"),
            ("reply_to", FactType::Identifier, "in reply to"),
            ("serverId", FactType::Identifier, "id"),
        ],
        created: ("createdAt", unix_millis),
        times: &[("editedAt", "Mastodon status edited", unix_millis)],
        written: "Unix milliseconds",
    };
    for (inv, t, row) in pages.rows() {
        let direct = t.get(row, "visibility_code") == Some("4");
        let mine = t.get(row, "author_id").is_some_and(|x| own.contains(x));
        let who = t.get(row, "username").unwrap_or("?");
        status(
            ctx,
            l,
            &spec,
            inv,
            t,
            row,
            who,
            (direct, mine, !own.is_empty()),
        )?;
    }
    Ok(())
}

fn conversations(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let j = |col: &str, p: &str| {
        format!("CASE WHEN json_valid(c.{col}) THEN json_extract(c.{col}, '{p}') END")
    };
    let members = "(SELECT group_concat(json_extract(m.value, '$.username'), ' ') FROM json_each(CASE WHEN json_valid(c.accounts) THEN c.accounts ELSE '[]' END) m)";
    let sql = format!(
        "SELECT c.rowid AS rid, c.id AS id, {} AS author, {} AS author_name, {} AS author_id, {} AS qualified, {members} AS members, {} AS text, c.s_createdAt AS createdAt, {} FROM ConversationEntity c ORDER BY c.s_createdAt, c.rowid",
        j("s_account", "$.username"),
        j("s_account", "$.displayName"),
        j("s_account", "$.id"),
        handle_expr(&j("s_account", "$.username"), &j("s_account", "$.url")),
        html_text("c.s_content"),
        select_columns(
            cols,
            "c.",
            &[
                ("unread", "unread"),
                ("s_id", "status_id"),
                ("s_url", "url")
            ]
        ),
    );
    let file = l.name().to_string();
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &pages,
        "Tusky conversations",
    )?;
    for (inv, t, row) in pages.rows() {
        let mine = t.get(row, "author_id").is_some_and(|x| own.contains(x));
        let mut d = Draft::new(
            "messages",
            if mine {
                format!(
                    "Tusky conversation's last message sent to {}",
                    t.get(row, "members").unwrap_or("?")
                )
            } else {
                format!(
                    "Tusky conversation's last message from @{}",
                    t.get(row, "author").unwrap_or("?")
                )
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("text", FactType::Text, "text"),
                ("author", FactType::Account, "author"),
                ("qualified", FactType::Account, "author account"),
                ("author_name", FactType::Name, "author name"),
                ("members", FactType::Text, "members"),
                ("unread", FactType::Count, "unread"),
                ("url", FactType::Url, "URL"),
                ("status_id", FactType::Identifier, "status id"),
                ("id", FactType::Identifier, "conversation id"),
            ],
        );
        let at = t.get(row, "createdAt");
        if own.is_empty() {
            d.time(at, unix_millis(at), "Mastodon status created", inv);
        } else {
            d.message_time(at, unix_millis(at), mine, inv);
        }
        d.interpretation = format!(
            "ConversationEntity row {} of {file}: the last status of a Mastodon direct conversation{}: {}; the time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            if mine {
                ", written by the device's user"
            } else {
                ""
            },
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn notifications(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    accts: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let (Some(nu), Some(au)) = (user_col(cols), user_col(accts)) else {
        return Ok(());
    };
    let status = if cols.contains("statusId") {
        format!(
            "(SELECT {} FROM TimelineStatusEntity s WHERE s.serverId = n.statusId AND s.{nu} = n.{nu} LIMIT 1)",
            html_text("s.content")
        )
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT n.rowid AS rid, n.id AS id, {}, {} AS status_id, a.username AS username, a.displayName AS displayName, {} AS qualified, {status} AS text FROM NotificationEntity n LEFT JOIN TimelineAccountEntity a ON a.serverId = n.accountId AND a.{au} = n.{nu} ORDER BY n.rowid",
        column_or_null(cols, "n.", "type", "type"),
        if cols.contains("statusId") {
            "n.statusId"
        } else {
            "NULL"
        },
        handle_expr("a.username", "a.url"),
    );
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "NotificationEntity",
            category: "social",
            what: "a notification Tusky received",
            title: &|t, row| {
                format!(
                    "Tusky notification {} from @{}",
                    t.get(row, "type").unwrap_or("?"),
                    t.get(row, "username").unwrap_or("?")
                )
            },
            fields: &[
                ("type", FactType::Text, "type"),
                ("username", FactType::Account, "from"),
                ("qualified", FactType::Account, "from account"),
                ("displayName", FactType::Name, "from name"),
                ("text", FactType::Text, "status text"),
                ("status_id", FactType::Identifier, "status id"),
                ("id", FactType::Identifier, "id"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}
