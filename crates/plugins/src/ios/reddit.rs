//! Reddit on iOS (`com.reddit.Reddit`), the fields of iLEAPP's `reddit_chats`,
//! `reddit_chat_users` and `reddit_users`, under `Library/Caches/MatrixChat/` of its container:
//!
//! | store | phenomenon | fields |
//! |---|---|---|
//! | `roomsAccount/<account>/Account-*/Account.db` (Core Data) `ZACCOUNTSTORAGETIMELINEITEM` | one `messages` per message, reaction and deletion | time (Core Data seconds), event id and room (of `ZITEMIDFIELD` `room\|event`), the sender's Matrix id and display name (its `m.room.member` event's), the room's other joined members, the event's kind, the message type (`MESSAGE DELETED` for a message whose content was removed: no `msgtype`), the text or the reaction's key, the deleted event, the media URL and the cached file's name (`Downloads-*/ContentService.db` beside it, by that URL); direction by the account's own Matrix id |
//! | the same, `ZACCOUNTSTORAGEACCOUNTDATAITEM` `m.push_rules` | — | the account's own Matrix id: the `state_key` pattern of its `.m.rule.invite_for_me` rule (set by the server), computed in the query |
//! | `roomsAccount/<account>/MatrixUsers-*/RoomsUsersService.db` (key-value: `0x01` + JSON) | one `contacts` per chat user | display name, Matrix user id, the current app user flag, updated (Unix ms), the store's access and update dates (Core Data) |
//! | `redditAccount/<account>/RedditUsers-*/RedditUsersStore.db` (key-value) | one `contacts` per cached account | display name, Reddit id, total karma and from posts and comments, verified, NSFW profile, blocked, accepting chats and private messages, profile created (Unix s), the store's dates |
//!
//! Identities: as on Android ([`crate::reddit`]): `reddit:t2_<id>` from a Matrix id or a
//! Reddit id, `reddit-user:<name>`; the account's own Matrix id, and the chat user flagged
//! current, are the device's user's (`owner`). Wallet addresses in a message are claims by
//! direction.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run};
use crate::drafts::{unix_millis, unix_seconds};
use crate::identity::{TreeRef, artefact_name, observe_columns, pages_on, schema_on};
use crate::reddit::{matrix_id, reddit_id};

/// Triage of Reddit's chat and user stores.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = TreeRef {
        partition: None,
        label: "/".into(),
    };
    let contents = run.find("ContentService.db")?;
    run.each("Account.db", |find, path| {
        if !path.contains("/MatrixChat/roomsAccount/") {
            return Ok(());
        }
        // the cached media of this account: Downloads-*/ContentService.db beside Account-*/
        let account = path.rsplitn(3, '/').nth(2).unwrap_or("");
        let media = contents.as_ref().and_then(|(inv, paths)| {
            paths
                .iter()
                .find(|p| {
                    p.starts_with(&format!("{account}/Downloads-"))
                        && p.ends_with("/ContentService.db")
                })
                .map(|p| (p.clone(), inv.clone()))
        });
        run.ctx.artefact(&artefact_name(&tree, path), || {
            chats(run, &tree, find, path, media.as_ref())
        })?;
        Ok(())
    })?;
    run.each("RoomsUsersService.db", |find, path| {
        if !path.contains("/MatrixChat/") {
            return Ok(());
        }
        run.ctx.artefact(&artefact_name(&tree, path), || {
            chat_users(run, &tree, find, path)
        })?;
        Ok(())
    })?;
    run.each("RedditUsersStore.db", |find, path| {
        if !path.contains("/MatrixChat/") {
            return Ok(());
        }
        run.ctx.artefact(&artefact_name(&tree, path), || {
            users(run, &tree, find, path)
        })?;
        Ok(())
    })
}

/// The key-value stores' JSON value (stored after one `0x01` byte), as SQL text.
const VALUE: &str = "CAST(CASE WHEN substr(e.ZVALUE, 1, 1) = x'01' THEN substr(e.ZVALUE, 2) ELSE e.ZVALUE END AS TEXT)";

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn chats(
    run: &Run<'_, '_>,
    tree: &TreeRef,
    find: &Invoked,
    path: &str,
    media: Option<&(String, Invoked)>,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(run.ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let Some(cols) = schema
        .get("ZACCOUNTSTORAGETIMELINEITEM")
        .filter(|c| !c.is_empty())
    else {
        run.ctx.unparsed(
            &name,
            "could not parse Reddit's Account.db because it has no table ZACCOUNTSTORAGETIMELINEITEM",
            None,
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        run.ctx,
        &name,
        "Reddit's Account.db",
        "ZACCOUNTSTORAGETIMELINEITEM",
        cols,
        &["ZITEMIDFIELD", "ZSENDERFIELD", "ZEVENTTYPEFIELD", "ZDATA"],
    )? {
        return Ok(());
    }
    let data = "CAST(m.ZDATA AS TEXT)";
    let j = |p: &str| format!("CASE WHEN json_valid({data}) THEN json_extract({data}, '{p}') END");
    // the account's own Matrix id, from its push rules (as iLEAPP reads it)
    let own = if schema
        .get("ZACCOUNTSTORAGEACCOUNTDATAITEM")
        .is_some_and(|c| c.contains("ZDATA") && c.contains("ZEVENTTYPEFIELD"))
    {
        "(SELECT json_extract(c.value, '$.pattern') FROM ZACCOUNTSTORAGEACCOUNTDATAITEM a, json_tree(CAST(a.ZDATA AS TEXT), '$.content.global') r, json_each(json_extract(r.value, '$.conditions')) c WHERE a.ZEVENTTYPEFIELD = 'm.push_rules' AND json_valid(CAST(a.ZDATA AS TEXT)) AND r.type = 'object' AND json_extract(r.value, '$.rule_id') = '.m.rule.invite_for_me' AND json_extract(c.value, '$.key') = 'state_key' LIMIT 1)"
    } else {
        "NULL"
    };
    let member_name = |who: &str| {
        format!(
            "(SELECT json_extract(CAST(u.ZDATA AS TEXT), '$.content.displayname') FROM ZACCOUNTSTORAGETIMELINEITEM u WHERE u.ZSTATEKEYFIELD = {who} AND u.ZEVENTTYPEFIELD = 'm.room.member' AND json_valid(CAST(u.ZDATA AS TEXT)) LIMIT 1)"
        )
    };
    let room = "substr(m.ZITEMIDFIELD, 1, instr(m.ZITEMIDFIELD, '|') - 1)";
    let recipients = if cols.contains("ZSTATEKEYFIELD") {
        format!(
            "(SELECT group_concat(n, char(10)) FROM (SELECT DISTINCT json_extract(CAST(r.ZDATA AS TEXT), '$.content.displayname') AS n FROM ZACCOUNTSTORAGETIMELINEITEM r WHERE substr(r.ZITEMIDFIELD, 1, instr(r.ZITEMIDFIELD, '|') - 1) = {room} AND r.ZEVENTTYPEFIELD = 'm.room.member' AND r.ZSTATEKEYFIELD != m.ZSENDERFIELD AND json_valid(CAST(r.ZDATA AS TEXT)) AND json_extract(CAST(r.ZDATA AS TEXT), '$.content.membership') = 'join'))"
        )
    } else {
        "NULL".into()
    };
    let sql = format!(
        "WITH o AS (SELECT {own} AS own) SELECT m.Z_PK AS rid, {} AS at, substr(m.ZITEMIDFIELD, instr(m.ZITEMIDFIELD, '|') + 1) AS event_id, {room} AS room, m.ZSENDERFIELD AS sender, {} AS qualified, {} AS sender_name, {recipients} AS recipients, m.ZEVENTTYPEFIELD AS kind, CASE WHEN m.ZEVENTTYPEFIELD = 'm.room.message' AND {} IS NULL THEN 'MESSAGE DELETED' ELSE {} END AS msgtype, CASE WHEN m.ZEVENTTYPEFIELD = 'm.reaction' THEN {} ELSE {} END AS text, {} AS redacts, {} AS media_url, o.own AS own, {} AS own_qualified FROM ZACCOUNTSTORAGETIMELINEITEM m, o WHERE m.ZEVENTTYPEFIELD IN ('m.room.message', 'm.reaction', 'm.room.redaction') ORDER BY m.Z_PK",
        crate::calls::column_expr(cols, "m.", "ZORIGINSERVERDATE"),
        matrix_id("m.ZSENDERFIELD"),
        member_name("m.ZSENDERFIELD"),
        j("$.content.msgtype"),
        j("$.content.msgtype"),
        j("$.content.\"m.relates_to\".key"),
        j("$.content.body"),
        j("$.redacts"),
        j("$.content.url"),
        matrix_id("o.own"),
    );
    let Some(pages) = pages_on(run.ctx, tree, path, &sql)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, &name, &pages, "Reddit chat events")?;
    // the cached media files by their content URL
    let mut files: BTreeMap<String, (String, Invoked)> = BTreeMap::new();
    if let Some((db, _)) = media
        && let Some((inv, t)) = crate::identity::query_on(
            run.ctx,
            tree,
            db,
            "SELECT ZKEY AS url, ZFILENAME AS file FROM ZKEYVALUESTORAGEBASEELEMENT WHERE ZFILENAME IS NOT NULL",
            10_000,
        )?
    {
        for row in &t.rows {
            if let (Some(u), Some(f)) = (t.get(row, "url"), t.get(row, "file")) {
                files.insert(u.to_string(), (crate::outputs::escape(f), inv.clone()));
            }
        }
    }
    let mut owner_said = false;
    for (inv, t, row) in pages.rows() {
        let kind = t.get(row, "kind").unwrap_or("?");
        let own = t.get(row, "own");
        let sender = t.get(row, "sender");
        let sent = match (own, sender) {
            (Some(o), Some(s)) => Some(o == s),
            _ => None,
        };
        let who = t
            .get(row, "sender_name")
            .or(sender)
            .unwrap_or("an unknown sender")
            .to_string();
        let noun = match kind {
            "m.room.message" => "message",
            "m.reaction" => "reaction",
            _ => "deletion",
        };
        let title = match (kind, sent) {
            ("m.room.message", Some(true)) => "Reddit chat message sent".to_string(),
            ("m.room.message", _) => format!("Reddit chat message from {who}"),
            _ => format!("Reddit chat {noun} ({kind}) by {who}"),
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("kind", FactType::Text, "type"),
                ("sender", FactType::Account, "sender"),
                ("sender_name", FactType::Name, "sender's display name"),
                ("msgtype", FactType::Text, "message type"),
                ("text", FactType::Text, "text"),
                ("redacts", FactType::Identifier, "deleted event"),
                ("media_url", FactType::Url, "media"),
                ("room", FactType::Identifier, "room"),
                ("event_id", FactType::Identifier, "event id"),
            ],
        );
        for line in t.get(row, "recipients").unwrap_or_default().lines() {
            d.fact(FactType::Name, Some(&crate::outputs::escape(line)), inv);
        }
        let cached = t.get(row, "media_url").and_then(|u| files.get(u));
        if let Some((f, cited)) = cached {
            d.fact(FactType::Text, Some(f), cited);
        }
        let at = t.get(row, "at");
        let enc = super::core_data_encoding(at);
        match sent {
            Some(s) if kind == "m.room.message" => {
                d.message_time(at, enc, s, inv);
            }
            _ => {
                d.time(at, enc, "Reddit chat event", inv);
            }
        }
        d.interpretation = format!(
            "ZACCOUNTSTORAGETIMELINEITEM row {} of {}: a Reddit chat {noun}{}: {}{}{}; the time is Core Data seconds.",
            t.get(row, "rid").unwrap_or("?"),
            file_name(path),
            match sent {
                Some(true) =>
                    " sent by the device's user (its sender is the account's own Matrix id)",
                Some(false) => " received by the device's user",
                None => "",
            },
            said.join(", "),
            t.get(row, "recipients")
                .map(|r| format!("; the room's other members: {}", r.replace('\n', ", ")))
                .unwrap_or_default(),
            cached
                .map(|(f, _)| format!("; its media is cached as {f} (ContentService.db)"))
                .unwrap_or_default(),
        );
        run.record(d)?;
        if let (false, Some(o)) = (owner_said, own) {
            owner_said = true;
            observe_columns(
                run.ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[("own_qualified", IdType::AccountId, "The Reddit account id")],
                &|what| {
                    format!(
                        "{what} of the device's user: its own Matrix id, {o}, as the account's push rules name it (the .m.rule.invite_for_me rule of Account.db)."
                    )
                },
            )?;
        }
        let other = match (sent, t.get(row, "qualified")) {
            (Some(false), Some(q)) => {
                observe_columns(
                    run.ctx,
                    q,
                    &who,
                    t,
                    row,
                    inv,
                    &[
                        ("qualified", IdType::AccountId, "The Reddit account id"),
                        ("sender_name", IdType::DisplayName, "The display name"),
                    ],
                    &|what| format!("{what} of {who}, who sent a Reddit chat {noun} (Account.db)."),
                )?;
                Some((q, who.as_str()))
            }
            _ => None,
        };
        if let (Some(text), "m.room.message", Some(s)) = (t.get(row, "text"), kind, sent) {
            crate::identity::claims_by_direction(
                run.ctx,
                inv,
                text,
                &format!(
                    "Reddit chat message (ZACCOUNTSTORAGETIMELINEITEM row {} of Account.db)",
                    t.get(row, "rid").unwrap_or("?")
                ),
                s,
                other,
            )?;
        }
    }
    Ok(())
}

/// The chat users of `RoomsUsersService.db` (the value's `exists._0`).
fn chat_users(
    run: &Run<'_, '_>,
    tree: &TreeRef,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let Some(schema) = kv_schema(run, tree, path, "RoomsUsersService.db")? else {
        return Ok(());
    };
    let v = |p: &str| {
        format!("CASE WHEN json_valid({VALUE}) THEN json_extract({VALUE}, '$.exists._0.{p}') END")
    };
    let user = format!("COALESCE({}, e.ZKEY)", v("user_id"));
    let sql = format!(
        "SELECT e.Z_PK AS rid, e.ZKEY AS store_key, {} AS display_name, {user} AS user_id, {} AS qualified, {} AS is_current, {} AS updated, {}, {} FROM ZKEYVALUESTORAGEBASEELEMENT e ORDER BY e.Z_PK",
        v("display_name"),
        matrix_id(&user),
        v("is_current"),
        v("updated_date"),
        crate::calls::column_or_null(&schema, "e.", "ZACCESSDATE", "accessed"),
        crate::calls::column_or_null(&schema, "e.", "ZUPDATEDATE", "store_updated"),
    );
    let Some(pages) = pages_on(run.ctx, tree, path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    crate::calls::note_pages_cap(run.ctx, &name, &pages, "Reddit chat users")?;
    for (inv, t, row) in pages.rows() {
        let who = t
            .get(row, "display_name")
            .or(t.get(row, "user_id"))
            .unwrap_or("?")
            .to_string();
        let current = matches!(t.get(row, "is_current"), Some("1" | "true"));
        let mut d = Draft::new("contacts", format!("Reddit chat user {who}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("display_name", FactType::Name, "display name"),
                ("user_id", FactType::Account, "Matrix user id"),
                ("is_current", FactType::Count, "current app user"),
                ("store_key", FactType::Identifier, "store key"),
            ],
        );
        let updated = t.get(row, "updated");
        d.time(
            updated,
            unix_millis(updated),
            "Reddit chat user updated",
            inv,
        );
        for (col, what) in [
            ("accessed", "Reddit chat user cache read"),
            ("store_updated", "Reddit chat user cache written"),
        ] {
            let at = t.get(row, col);
            d.time(at, super::core_data_encoding(at), what, inv);
        }
        d.interpretation = format!(
            "ZKEYVALUESTORAGEBASEELEMENT row {} of {}: a Reddit chat user the app cached{}: {}; updated is Unix milliseconds, the store's dates Core Data seconds.",
            t.get(row, "rid").unwrap_or("?"),
            file_name(path),
            if current {
                ", flagged as the app's current user (the device's user)"
            } else {
                ""
            },
            said.join(", ")
        );
        run.record(d)?;
        let context = if current {
            "owner".to_string()
        } else {
            match t.get(row, "qualified") {
                Some(q) => q.to_string(),
                None => continue,
            }
        };
        observe_columns(
            run.ctx,
            &context,
            if current { "device owner" } else { &who },
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Reddit account id"),
                ("display_name", IdType::DisplayName, "The display name"),
            ],
            &|what| {
                format!(
                    "{what} of {who}, a Reddit chat user {}(RoomsUsersService.db).",
                    if current {
                        "flagged as the app's current user "
                    } else {
                        ""
                    }
                )
            },
        )?;
    }
    Ok(())
}

/// The accounts of `RedditUsersStore.db`.
fn users(
    run: &Run<'_, '_>,
    tree: &TreeRef,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let Some(schema) = kv_schema(run, tree, path, "RedditUsersStore.db")? else {
        return Ok(());
    };
    let v =
        |p: &str| format!("CASE WHEN json_valid({VALUE}) THEN json_extract({VALUE}, '$.{p}') END");
    let id = format!("COALESCE({}, e.ZKEY)", v("id"));
    let sql = format!(
        "SELECT e.Z_PK AS rid, e.ZKEY AS store_key, {} AS display_name, {id} AS reddit_id, {} AS qualified, {} AS karma, {} AS karma_posts, {} AS karma_comments, {} AS verified, {} AS nsfw, {} AS blocked, {} AS accepting_chats, {} AS accepting_pms, {} AS created, {}, {} FROM ZKEYVALUESTORAGEBASEELEMENT e ORDER BY e.Z_PK",
        v("displayName"),
        reddit_id(&id),
        v("karma.total"),
        v("karma.fromPosts"),
        v("karma.fromComments"),
        v("isVerified"),
        v("profile.isNsfw"),
        v("isBlocked"),
        v("isAcceptingChats"),
        v("isAcceptingPMs"),
        v("profile.createdAt"),
        crate::calls::column_or_null(&schema, "e.", "ZACCESSDATE", "accessed"),
        crate::calls::column_or_null(&schema, "e.", "ZUPDATEDATE", "store_updated"),
    );
    let Some(pages) = pages_on(run.ctx, tree, path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    crate::calls::note_pages_cap(run.ctx, &name, &pages, "Reddit users")?;
    for (inv, t, row) in pages.rows() {
        let who = t
            .get(row, "display_name")
            .or(t.get(row, "reddit_id"))
            .unwrap_or("?")
            .to_string();
        let mut d = Draft::new("contacts", format!("Reddit user u/{who}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("display_name", FactType::Account, "name"),
                ("reddit_id", FactType::Account, "Reddit id"),
                ("karma", FactType::Count, "total karma"),
                ("karma_posts", FactType::Count, "karma from posts"),
                ("karma_comments", FactType::Count, "karma from comments"),
                ("verified", FactType::Count, "verified"),
                ("nsfw", FactType::Count, "NSFW profile"),
                ("blocked", FactType::Count, "blocked"),
                ("accepting_chats", FactType::Count, "accepting chats"),
                (
                    "accepting_pms",
                    FactType::Count,
                    "accepting private messages",
                ),
            ],
        );
        let created = t.get(row, "created");
        d.time(
            created,
            unix_seconds(created),
            "Reddit profile created",
            inv,
        );
        for (col, what) in [
            ("accessed", "Reddit user cache read"),
            ("store_updated", "Reddit user cache written"),
        ] {
            let at = t.get(row, col);
            d.time(at, super::core_data_encoding(at), what, inv);
        }
        d.interpretation = format!(
            "ZKEYVALUESTORAGEBASEELEMENT row {} of {}: a Reddit account the app cached: {}; the profile's creation is Unix seconds, the store's dates Core Data seconds.",
            t.get(row, "rid").unwrap_or("?"),
            file_name(path),
            said.join(", ")
        );
        run.record(d)?;
        if let Some(q) = t.get(row, "qualified") {
            observe_columns(
                run.ctx,
                q,
                &who,
                t,
                row,
                inv,
                &[("qualified", IdType::AccountId, "The Reddit account id")],
                &|what| {
                    format!(
                        "{what} of u/{who}, a Reddit account the app cached (RedditUsersStore.db)."
                    )
                },
            )?;
        }
    }
    Ok(())
}

/// The columns of a key-value store's `ZKEYVALUESTORAGEBASEELEMENT` (noted when it lacks the
/// key and value).
fn kv_schema(
    run: &Run<'_, '_>,
    tree: &TreeRef,
    path: &str,
    store: &str,
) -> Result<Option<std::collections::BTreeSet<String>>, RuntimeError> {
    let Some(schema) = schema_on(run.ctx, tree, path)? else {
        return Ok(None);
    };
    let name = artefact_name(tree, path);
    let Some(cols) = schema
        .get("ZKEYVALUESTORAGEBASEELEMENT")
        .filter(|c| !c.is_empty())
    else {
        run.ctx.unparsed(
            &name,
            &format!("could not parse Reddit's {store} because it has no table ZKEYVALUESTORAGEBASEELEMENT"),
            None,
        )?;
        return Ok(None);
    };
    if !crate::calls::require_columns(
        run.ctx,
        &name,
        &format!("Reddit's {store}"),
        "ZKEYVALUESTORAGEBASEELEMENT",
        cols,
        &["ZKEY", "ZVALUE"],
    )? {
        return Ok(None);
    }
    Ok(Some(cols.clone()))
}
