//! TikTok on iOS, with the fields iLEAPP's `tiktok_messages` and `tiktok_contacts` report:
//!
//! - `AwemeIM.db`: one phenomenon per row of each `AwemeContacts…` table (the version suffix
//!   changes with the app: `AwemeContactsV3`, `V5`, …): uid, custom id (the @handle), nickname,
//!   profile picture URL, latest chat time; a `tiktok:<uid>` person with
//!   `tiktok-user:<custom id>` and the nickname, the same ids the Android app's users get
//!   (`android::tiktok`), so one user resolves across the platforms;
//! - `Library/Application Support/ChatFiles/<account uid>/db.sqlite`: the account (the uid its
//!   folder is named after, the `owner`) and one phenomenon per `TIMMessageORM` row: local and
//!   server time (Unix seconds), sender, conversation, the content JSON's text, tips (the app's
//!   own notice), GIF or link name and URL; direction: the sender is the account or not;
//!   wallet addresses in a text are claims of its writer.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, file_name, raw};
use crate::calls::column_or_null;
use crate::drafts::unix_seconds;

/// Triage of every TikTok store of the source: contacts first (their names label messages).
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut accounts: BTreeSet<String> = BTreeSet::new();
    let chats: Vec<(Invoked, String)> = match run.find("db.sqlite")? {
        Some((find, paths)) => paths
            .into_iter()
            .filter(|p| account_of(p).is_some())
            .map(|p| (find.clone(), p))
            .collect(),
        None => Vec::new(),
    };
    for (_, p) in &chats {
        accounts.extend(account_of(p).map(str::to_string));
    }
    run.each("AwemeIM.db", |find, path| {
        contacts(run, find, path, &accounts, &mut names)
    })?;
    for (find, path) in &chats {
        messages(run, find, path, &names)?;
    }
    Ok(())
}

/// The account uid of `…/ChatFiles/<uid>/db.sqlite` (shared with [`super::tiktokim`]).
pub(super) fn account_of(path: &str) -> Option<&str> {
    let rest = path.strip_suffix("/db.sqlite")?;
    let (parent, uid) = rest.rsplit_once('/')?;
    (parent.ends_with("/ChatFiles") && !uid.is_empty() && uid.bytes().all(|b| b.is_ascii_digit()))
        .then_some(uid)
}

/// The `AwemeContacts…` tables of an `AwemeIM.db` (names of letters, digits and `_` only: they
/// go into SQL), in name order; `None` when the query failed (noted). Shared with
/// [`super::tiktokim`].
pub(super) fn contact_tables(
    run: &Run<'_, '_>,
    path: &str,
) -> Result<Option<Vec<String>>, RuntimeError> {
    let Some((_, t)) = run.query(
        path,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'AwemeContacts%' ORDER BY name",
        100,
    )?
    else {
        return Ok(None);
    };
    Ok(Some(
        t.rows
            .iter()
            .filter_map(|r| t.get(r, "name"))
            .filter(|n| n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
            .map(str::to_string)
            .collect(),
    ))
}

/// The contacts of every `AwemeContacts…` table of an `AwemeIM.db`.
fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    accounts: &BTreeSet<String>,
    names: &mut BTreeMap<String, String>,
) -> Result<(), RuntimeError> {
    let Some(tables) = contact_tables(run, path)? else {
        return Ok(());
    };
    if tables.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse TikTok's AwemeIM.db because it has no AwemeContacts table (unexpected schema)",
            None,
        )?;
        return Ok(());
    }
    let Some(schema) = run.schema(path, &tables.iter().map(String::as_str).collect::<Vec<_>>())?
    else {
        return Ok(());
    };
    for table in &tables {
        if !schema.require(run, table, &["uid"])? {
            continue;
        }
        let cols = schema.columns(table);
        let c = |col: &str| column_or_null(&cols, "", col, col);
        let handle = if cols.contains("customID") {
            "CASE WHEN customID != '' THEN 'tiktok-user:' || customID END AS handle"
        } else {
            "NULL AS handle"
        };
        let sql = format!(
            "SELECT rowid AS rid, uid, 'tiktok:' || uid AS account, {}, {}, {}, {}, {handle} FROM {table}",
            c("customID"),
            c("nickname"),
            c("url1"),
            c("latestChatTimestamp"),
        );
        let Some(paged) = run.paged(path, &sql, "rowid")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let Some(uid) = t.get(row, "uid").filter(|u| !u.is_empty()) else {
                continue;
            };
            let nick = t.get(row, "nickname").filter(|s| !s.is_empty());
            let label = nick
                .or(t.get(row, "customID").filter(|s| !s.is_empty()))
                .unwrap_or(uid)
                .to_string();
            names
                .entry(uid.to_string())
                .or_insert_with(|| label.clone());
            let own = accounts.contains(uid);
            let mut d = Draft::new(
                if own { "accounts" } else { "contacts" },
                if own {
                    format!("TikTok account {label} (the device's user)")
                } else {
                    format!("TikTok user {label}")
                },
            );
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Account, raw(t, row, "uid").as_deref(), inv);
            d.fact(FactType::Account, raw(t, row, "customID").as_deref(), inv);
            d.fact(FactType::Name, raw(t, row, "nickname").as_deref(), inv);
            d.fact(FactType::Url, raw(t, row, "url1").as_deref(), inv);
            let latest = t.get(row, "latestChatTimestamp");
            d.time(latest, unix_seconds(latest), "Latest chat", inv);
            d.interpretation = format!(
                "{table} row {} of {}: {} uid {uid}{}.",
                t.get(row, "rid").unwrap_or("?"),
                file_name(path),
                if own {
                    "the TikTok account signed in on the device (its ChatFiles folder is named after it),"
                } else {
                    "a TikTok user the account knows,"
                },
                t.get(row, "customID")
                    .filter(|s| !s.is_empty())
                    .map(|u| format!(", @{u}"))
                    .unwrap_or_default(),
            );
            run.record(d)?;
            let context = if own {
                "owner".to_string()
            } else {
                format!("tiktok:{uid}")
            };
            let why = |what: &str| format!("{what} of the TikTok user {label} ({table}).");
            run.observe_person(
                &context,
                if own { "device owner" } else { &label },
                inv,
                &why,
                &[
                    (IdType::AccountId, t.get(row, "account"), "The uid"),
                    (
                        IdType::AccountId,
                        t.get(row, "handle"),
                        "The custom id (@handle)",
                    ),
                    (IdType::DisplayName, nick, "The nickname"),
                ],
            )?;
        }
    }
    Ok(())
}

/// The messages of one `ChatFiles/<uid>/db.sqlite`.
fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    names: &BTreeMap<String, String>,
) -> Result<(), RuntimeError> {
    let Some(me) = account_of(path) else {
        return Ok(());
    };
    let mut d = Draft::new(
        "accounts",
        format!("TikTok account {me} (its ChatFiles folder)"),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, Some(me), find);
    d.interpretation = format!(
        "{path}: TikTok keeps one chat store per signed-in account in a ChatFiles folder named after its uid ({me})."
    );
    run.record(d)?;
    let Some(schema) = run.schema(path, &["TIMMessageORM"])? else {
        return Ok(());
    };
    if !schema.require(run, "TIMMessageORM", &["sender", "content"])? {
        return Ok(());
    }
    let cols = schema.columns("TIMMessageORM");
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let j = |p: &str, alias: &str| {
        format!("CASE WHEN json_valid(content) THEN json_extract(content, '{p}') END AS {alias}")
    };
    let sql = format!(
        "SELECT rowid AS rid, sender, 'tiktok:' || sender AS sender_account, {}, {}, {}, {}, {}, {}, {}",
        c("localCreatedAt"),
        c("serverCreatedAt"),
        c("belongingConversationIdentifier"),
        j("$.text", "text"),
        j("$.tips", "tips"),
        j("$.display_name", "display_name"),
        j("$.url.url_list[0]", "url"),
    );
    let sql = format!("{sql} FROM TIMMessageORM");
    let Some(paged) = run.paged(path, &sql, "rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let sender = t.get(row, "sender").unwrap_or("?");
        let sent = sender == me;
        let who = names.get(sender).map_or(sender, String::as_str);
        let conversation = t.get(row, "belongingConversationIdentifier").unwrap_or("?");
        let other = crate::identity::tiktok_one_to_one_other(conversation, me);
        let mut d = Draft::new(
            "messages",
            if sent {
                format!(
                    "TikTok message sent to {}",
                    other.map_or(conversation, |o| names.get(o).map_or(o, String::as_str))
                )
            } else {
                format!("TikTok message from {who}")
            },
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(
            FactType::Identifier,
            raw(t, row, "belongingConversationIdentifier").as_deref(),
            inv,
        );
        d.fact(FactType::Account, raw(t, row, "sender").as_deref(), inv);
        for col in ["text", "tips"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Name, raw(t, row, "display_name").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        let local = t.get(row, "localCreatedAt");
        d.message_time(local, unix_seconds(local), sent, inv);
        let server = t.get(row, "serverCreatedAt");
        d.time(
            server,
            unix_seconds(server),
            "Message stored by the server",
            inv,
        );
        d.interpretation = format!(
            "TIMMessageORM row {rid} of {path}: a TikTok message in the conversation {conversation} {}; localCreatedAt and serverCreatedAt are Unix seconds.",
            if sent {
                format!(
                    "sent by the account's user (sender {me}, the uid its ChatFiles folder is named after)"
                )
            } else {
                format!("from {who} (uid {sender})")
            },
        );
        run.record(d)?;
        if let Some(a) = t.get(row, "sender_account") {
            run.observe(
                &if sent {
                    "owner".to_string()
                } else {
                    format!("tiktok:{sender}")
                },
                EntityKind::Person,
                if sent { "device owner" } else { who },
                IdType::AccountId,
                a,
                inv,
                format!("The uid of a TikTok message's sender ({who})."),
            )?;
        }
        if let Some(text) = t.get(row, "text").filter(|s| !s.is_empty()) {
            let party = if sent {
                other.map(|o| {
                    (
                        format!("tiktok:{o}"),
                        names.get(o).cloned().unwrap_or_else(|| o.to_string()),
                    )
                })
            } else {
                Some((format!("tiktok:{sender}"), who.to_string()))
            };
            run.message_claims(
                inv,
                text,
                &format!("TikTok message {rid} ({})", file_name(path)),
                sent,
                party,
                &format!("sender {me}, the account"),
                &format!("sender {sender}"),
            )?;
        }
    }
    Ok(())
}
