//! Airbnb (`Containers/Data/Application/<id>/Library/Application Support/
//! user_<user id>_messaging_core.sqlite3`), iLEAPP's `Airbnb` (`airbnb_messages`): the messages
//! between the user and hosts, guests and Airbnb itself, by thread.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `users` | one `contacts` per user ("Airbnb user <name> (<id>)") | user id, display name, how many messages of the store are theirs; the account's own said |
//! | `messages` (with `users` by `messages__user_id`) | one `messages` per message ("Airbnb message sent in thread <t>: …", "Airbnb message from <name> in thread <t>: …") | thread id, sender's user id, name and type (`host`, `guest`, … as stored), message type, the text (`messages__content`: JSON `body`, or every `sub_messages[].content.body` of a multipart, joined by ` \| `), the translation (`messages__trasnlated_content`, the store's spelling), the content as stored when it holds no text (a picture, a card); created, updated and fetched (Unix ms, or seconds: read by size, as iLEAPP) |
//! | `messages` grouped by thread | one `messages` per thread ("Airbnb conversation <t>: <participants>") | thread id, message count, participants (name and user id of each sender), messages sent by the account; first and last message |
//!
//! The account's own user id is the one the file name carries (`user_<id>_…`, as iLEAPP takes
//! it): a message whose `messages__user_id` is that id was sent from the device (iLEAPP's
//! `Sent`). Where iLEAPP takes the first part of a multipart message, every part is read.
//! Columns are taken by name (older stores have no `messages__type` or `messages__fetched_at`;
//! the text is read from the JSON whatever the type says); a store whose `messages` lacks the
//! thread, user, content or creation column is noted.
//!
//! Identities: each user as `airbnb:<user id>` (computed in the query) with their display name;
//! the account's own (the file name's id) as `owner`: so a host met in Airbnb meets the same
//! `airbnb:` user on another phone. Wallet addresses in a message are claims of its writer.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::column_or_null;
use crate::drafts::{headline, unix_by_magnitude};
use crate::outputs::raw;

const MESSAGES: &str = "messages";
const USERS: &str = "users";

/// The account's user id of an Airbnb messaging store, from its file name
/// (`user_<digits>_messaging_core.sqlite3`).
pub fn own_id(path: &str) -> Option<&str> {
    let id = file_name(path)
        .strip_prefix("user_")?
        .strip_suffix("_messaging_core.sqlite3")?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some(id)
}

/// Whether `path` is an Airbnb messaging store (its name, in an app's `Application Support`).
pub fn is_store(path: &str) -> bool {
    own_id(path).is_some() && path.contains("/Library/Application Support/")
}

/// Triage of every Airbnb messaging store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("user_*_messaging_core.sqlite3", |find, path| {
        if is_store(path) {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[MESSAGES, USERS])? else {
        return Ok(());
    };
    if !schema.require(
        run,
        MESSAGES,
        &[
            "messages__thread_id",
            "messages__user_id",
            "messages__content",
            "messages__created_at",
        ],
    )? {
        return Ok(());
    }
    let own = own_id(path).unwrap_or("");
    let u = schema.columns(USERS);
    let join = u.contains("users__user_id") && u.contains("users__display_name");
    if join {
        users(run, find, path, own)?;
    }
    messages(run, find, path, &schema, own, join)?;
    threads(run, find, path, own, join)
}

/// The text of a message content column: its JSON `body`, else every part of a multipart
/// message (`sub_messages[].content.body`) joined by ` | `; NULL for anything else.
fn text_of(cell: &str) -> String {
    format!(
        "CASE WHEN json_valid({cell}) THEN coalesce(json_extract({cell}, '$.body'), (SELECT group_concat(json_extract(s.value, '$.content.body'), ' | ') FROM json_each({cell}, '$.sub_messages') s)) END"
    )
}

/// `1` where the user id is the account's own (the file name's), else `0`.
fn is_own(col: &str, own: &str) -> String {
    format!("CASE WHEN CAST({col} AS TEXT) = '{own}' THEN 1 ELSE 0 END")
}

/// The service-qualified id of a user id column (NULL for none).
fn qualified(col: &str) -> String {
    format!("CASE WHEN {col} IS NOT NULL AND {col} != '' THEN 'airbnb:' || {col} END")
}

/// Observes the user of `qualified` (`owner` when `own`) with their display name.
fn observe_user(
    run: &Run<'_, '_>,
    inv: &Invoked,
    qualified: &str,
    name: Option<&str>,
    own: bool,
    file: &str,
) -> Result<(), RuntimeError> {
    let (context, label) = if own {
        ("owner".to_string(), "device owner".to_string())
    } else {
        (qualified.to_string(), name.unwrap_or(qualified).to_string())
    };
    let whose = if own {
        "the Airbnb account signed in on the device (the store's file name carries its id)"
    } else {
        "an Airbnb user the app's messages name"
    };
    let why = |what: &str| format!("{what} of {whose} ({file}).");
    run.observe_person(
        &context,
        &label,
        inv,
        &why,
        &[
            (IdType::AccountId, Some(qualified), "The Airbnb user id"),
            (IdType::DisplayName, name, "The display name"),
        ],
    )
}

fn users(run: &Run<'_, '_>, find: &Invoked, path: &str, own: &str) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT u.users__user_id AS user_id, u.users__display_name AS name, {} AS qualified, {} AS own, (SELECT count(*) FROM {MESSAGES} m WHERE m.messages__user_id = u.users__user_id) AS messages FROM {USERS} u ORDER BY u.users__user_id",
        qualified("u.users__user_id"),
        is_own("u.users__user_id", own),
    );
    let Some(pages) = crate::identity::pages_on(run.ctx, &root(), path, &sql)? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let Some(id) = get("user_id") else {
            continue;
        };
        let name = get("name");
        let mine = t.get(row, "own") == Some("1");
        let mut d = Draft::new(
            "contacts",
            format!(
                "Airbnb user {} ({id})",
                name.as_deref().unwrap_or("without a name")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("user_id", FactType::Account, "user id"),
                ("name", FactType::Name, "display name"),
                ("messages", FactType::Count, "messages in the store"),
            ],
        );
        d.interpretation = format!(
            "users row of {path}: {} ({}).",
            if mine {
                "the Airbnb account signed in on the device (its user id is the one the file name carries)"
            } else {
                "an Airbnb user the app's messages name (a host, a guest, Airbnb's own service)"
            },
            said.join("; ")
        );
        run.record(d)?;
        if let Some(q) = get("qualified") {
            observe_user(run, inv, &q, name.as_deref(), mine, file)?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Airbnb users")
}

/// The file system an iOS reader reads from (the source's one tree).
fn root() -> crate::identity::TreeRef {
    crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    }
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    own: &str,
    join: bool,
) -> Result<(), RuntimeError> {
    let c = schema.columns(MESSAGES);
    let m = |col: &str, alias: &str| column_or_null(&c, "m.", col, alias);
    let translated = if c.contains("messages__trasnlated_content") {
        format!(
            "{} AS translated",
            text_of("m.messages__trasnlated_content")
        )
    } else {
        "NULL AS translated".into()
    };
    let (name, users_join) = if join {
        (
            "u.users__display_name AS name",
            format!(" LEFT JOIN {USERS} u ON u.users__user_id = m.messages__user_id"),
        )
    } else {
        ("NULL AS name", String::new())
    };
    let sql = format!(
        "SELECT m.messages__thread_id AS thread, m.messages__user_id AS user_id, {} AS qualified, {name}, {}, {}, {} AS sent, {} AS body, {translated}, CASE WHEN {} IS NULL THEN m.messages__content END AS content, m.messages__created_at AS created, {}, {} FROM {MESSAGES} m{users_join} ORDER BY m.messages__created_at, m.messages__thread_id, m.messages__user_id",
        qualified("m.messages__user_id"),
        m("messages__user_type", "user_type"),
        m("messages__type", "type"),
        is_own("m.messages__user_id", own),
        text_of("m.messages__content"),
        text_of("m.messages__content"),
        m("messages__updated_at", "updated"),
        m("messages__fetched_at", "fetched"),
    );
    let Some(pages) = crate::identity::pages_on(run.ctx, &root(), path, &sql)? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let sent = t.get(row, "sent") == Some("1");
        let thread = get("thread").unwrap_or_else(|| "?".into());
        let who = get("name")
            .or_else(|| get("user_id"))
            .unwrap_or_else(|| "an unrecorded user".into());
        let body = t.get(row, "body").filter(|b| !b.trim().is_empty());
        let what = match (body, t.get(row, "type")) {
            (Some(b), _) => headline(b),
            (None, Some(ty)) => format!("({ty} content)"),
            (None, None) => "(content without text)".into(),
        };
        let title = if sent {
            format!("Airbnb message sent in thread {thread}: {what}")
        } else {
            format!("Airbnb message from {who} in thread {thread}: {what}")
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("thread", FactType::Identifier, "thread"),
                ("user_id", FactType::Account, "sender's user id"),
                ("name", FactType::Name, "sender's name"),
                ("user_type", FactType::Text, "sender's type"),
                ("type", FactType::Text, "message type"),
                ("body", FactType::Text, "text"),
                ("translated", FactType::Text, "translation"),
                ("content", FactType::Text, "content as stored"),
            ],
        );
        let created = t.get(row, "created");
        d.message_time(created, unix_by_magnitude(created), sent, inv);
        d.times_of(
            t,
            row,
            inv,
            unix_by_magnitude,
            &[
                ("updated", "Airbnb message updated"),
                ("fetched", "Airbnb message fetched by the app"),
            ],
        );
        d.interpretation = format!(
            "messages row of {path}: an Airbnb message {} ({}); the text is the JSON body (every part of a multipart message); times are Unix milliseconds (read by size, as iLEAPP).",
            if sent {
                "sent from the device: its sender is the account the file name names"
            } else {
                "received: its sender is another user"
            },
            said.join("; ")
        );
        run.record(d)?;
        let q = get("qualified");
        if let Some(q) = &q {
            observe_user(run, inv, q, get("name").as_deref(), sent, file)?;
        }
        if let Some(text) = body {
            let other = q
                .filter(|_| !sent)
                .map(|q| (q, format!("the Airbnb user {who}")));
            run.message_claims(
                inv,
                text,
                &format!("an Airbnb message of thread {thread} ({file})"),
                sent,
                other,
                "messages__user_id is the account's",
                "messages__user_id is another user's",
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Airbnb messages")
}

fn threads(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    own: &str,
    join: bool,
) -> Result<(), RuntimeError> {
    let (who, users_join) = if join {
        (
            "coalesce(u.users__display_name, '?') || ' (' || m.messages__user_id || ')'",
            format!(" LEFT JOIN {USERS} u ON u.users__user_id = m.messages__user_id"),
        )
    } else {
        ("m.messages__user_id", String::new())
    };
    let sql = format!(
        "SELECT m.messages__thread_id AS thread, count(*) AS messages, group_concat(DISTINCT {who}) AS participants, sum({}) AS sent, min(m.messages__created_at) AS first_time, max(m.messages__created_at) AS last_time FROM {MESSAGES} m{users_join} GROUP BY m.messages__thread_id ORDER BY m.messages__thread_id",
        is_own("m.messages__user_id", own),
    );
    let Some(pages) = crate::identity::pages_on(run.ctx, &root(), path, &sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let thread = get("thread").unwrap_or_else(|| "?".into());
        let mut d = Draft::new(
            "messages",
            format!(
                "Airbnb conversation {thread}: {}",
                get("participants").unwrap_or_else(|| "?".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("thread", FactType::Identifier, "thread"),
                ("messages", FactType::Count, "messages"),
                ("participants", FactType::Text, "participants"),
                ("sent", FactType::Count, "sent by the account"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_by_magnitude,
            &[
                ("first_time", "First Airbnb message of the thread"),
                ("last_time", "Last Airbnb message of the thread"),
            ],
        );
        d.interpretation = format!(
            "The messages of thread {thread} in {path}, grouped: an Airbnb conversation ({}); each participant is a sender with their display name and user id, the account's own among them when it wrote.",
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Airbnb threads")
}

#[cfg(test)]
mod tests {
    use super::{is_store, own_id};

    #[test]
    fn the_account_id_is_the_file_names() {
        let p = "/private/var/mobile/Containers/Data/Application/X/Library/Application Support/user_481516234_messaging_core.sqlite3";
        assert_eq!(own_id(p), Some("481516234"));
        assert!(is_store(p));
        assert_eq!(own_id("/x/user__messaging_core.sqlite3"), None);
        assert_eq!(own_id("/x/user_12a_messaging_core.sqlite3"), None);
        assert!(!is_store("/x/Documents/user_1_messaging_core.sqlite3"));
    }
}
