//! Likee (`video.like`), ALEAPP's `likee` (`get_likee`, `get_likee_users`,
//! `get_likee_messages`): the users searched for, the messages of the app's chat store, and the
//! address text of its location files.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/like_pub.db`: `user_search_history` | one `social` per user searched ("Likee user searched <name>") | name, Likee ID (`history_user_bigo_id`), user id (`likee:<uid>`) |
//! | `databases/message_u*.db`: `messages` | one `messages` per message ("Likee message, user <uid>") | text, the row's user id; when (`time`, Unix, its unit by its size: ALEAPP reads milliseconds) |
//! | `files/*/*location.kv` | one `locations` per file whose text has a line holding `address` ("Likee location text <file>") | each printable run of those lines, as written (the key, the address, the city …) |
//!
//! The location files are the app's own binary key-value format, undocumented, for which the
//! catalogue has no reader (nor for MMKV-like key-value files at all): they are read with
//! `read_text` (UTF-8, invalid bytes as U+FFFD, the first MiB; the rest noted), as ALEAPP reads
//! them, and the lines holding `address` are split at control characters and U+FFFD into the
//! runs quoted — each verbatim in the output. What the text records (the phone's position, a
//! place searched, the account's region) the file does not say; the binary coordinates beside
//! it are not decoded. A file with no such line is noted.
//!
//! A message row's `uid` is ALEAPP's "User ID": the store does not say whether it is the
//! sender's or the chat's other party, so the message has no direction and the uid stays a
//! fact. Identities: each user searched is a `likee:<uid>` person with their name and Likee ID.
//! A store without its table is noted; columns are taken by name (absent ones NULL: older
//! releases keep fewer).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::json;

use super::Located;
use crate::calls::{column_or_null, qualified_or_null, require_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_by_magnitude};
use crate::identity::{args_on, artefact_name, schema_on};

/// Most bytes of a location file read (`read_text`'s limit).
const KV_MAX: u64 = 1 << 20;

/// Whether `name` is the name of a file read (other apps' files may share it: see
/// [`is_store_path`]).
pub fn is_name(name: &str) -> bool {
    name.ends_with("location.kv")
        || name == "like_pub.db"
        || (name.starts_with("message_u") && name.ends_with(".db"))
}

/// Whether `path` is one of Likee's stores or location files.
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.ends_with("location.kv") {
        return path.contains("/video.like/files/");
    }
    is_name(name) && path.contains("/video.like/databases/")
}

/// Whether `l` is one of Likee's stores or location files.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// One Likee store or location file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if l.name().ends_with("location.kv") {
        return location(ctx, l);
    }
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let searches = l.name() == "like_pub.db";
    let table = if searches {
        "user_search_history"
    } else {
        "messages"
    };
    let Some(cols) = schema.get(table) else {
        ctx.unparsed(
            &name,
            &format!("not Likee's {}: no table {table}", l.name()),
            None,
        )?;
        return Ok(());
    };
    let file = l.name().to_string();
    if searches {
        if !require_columns(
            ctx,
            &name,
            "Likee's like_pub.db",
            table,
            cols,
            &["history_user_uid"],
        )? {
            return Ok(());
        }
        let sql = format!(
            "SELECT rowid AS rid, history_user_uid AS uid, {}, {}, {} FROM {table} ORDER BY rowid",
            column_or_null(cols, "", "history_user_name", "user_name"),
            column_or_null(cols, "", "history_user_bigo_id", "likee_id"),
            qualified_or_null(cols, "", "history_user_uid", "likee", "qualified"),
        );
        return super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table,
                category: "social",
                what: "a Likee user the phone's user searched for, as the app's search history keeps them (name, Likee ID and user id as stored)",
                title: &|t, row| {
                    let shown = ["user_name", "likee_id", "uid"]
                        .iter()
                        .find_map(|c| t.get(row, c))
                        .unwrap_or("?");
                    format!("Likee user searched {shown}")
                },
                fields: &[
                    ("user_name", FactType::Name, "name"),
                    ("likee_id", FactType::Account, "Likee ID"),
                    ("uid", FactType::Account, "user id"),
                    ("qualified", FactType::Account, "account"),
                ],
                times: &[],
            },
            &mut |inv, t, row| {
                crate::identity::observe_row_person(
                    ctx,
                    t,
                    row,
                    inv,
                    "user_name",
                    &[
                        ("qualified", IdType::AccountId, "The Likee user id"),
                        ("likee_id", IdType::Nickname, "The Likee ID"),
                        ("user_name", IdType::DisplayName, "The name"),
                    ],
                    &|what, _| {
                        format!(
                            "{what} of a user searched for in Likee (user_search_history of {file})."
                        )
                    },
                )
            },
        );
    }
    if !require_columns(
        ctx,
        &name,
        "Likee's message store",
        table,
        cols,
        &["content"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, content, {}, {} FROM {table} ORDER BY rowid",
        column_or_null(cols, "", "uid", "uid"),
        column_or_null(cols, "", "time", "time"),
    );
    let what = format!(
        "a message of Likee's chat store {file} (the row's uid is the one ALEAPP reports as the user id: the store does not say whether the sender's or the other party's, so no direction is said; the time Unix, its unit by its size)"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "messages",
            what: &what,
            title: &|t, row| {
                format!(
                    "Likee message, user {}",
                    t.get(row, "uid").unwrap_or("unknown")
                )
            },
            fields: &[
                ("content", FactType::Text, "text"),
                ("uid", FactType::Account, "user id"),
            ],
            times: &[("time", "Likee message", unix_by_magnitude)],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The printable runs of `line` (split at control characters and U+FFFD, trimmed), those with a
/// letter or digit.
fn runs(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| c.is_control() || c == '\u{FFFD}')
        .map(str::trim)
        .filter(|r| r.chars().any(char::is_alphanumeric))
}

/// `files/*/*location.kv`: the printable runs of the lines holding `address`.
fn location(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_text",
        args_on(&l.tree, json!({"path": l.path, "length": KV_MAX})),
    )?
    else {
        return Ok(());
    };
    crate::calls::note_unread_rest(ctx, &name, &inv, "read as Likee's location text")?;
    let mut found: Vec<&str> = Vec::new();
    for line in inv.output.text.split('\n') {
        if !line.contains("address") {
            continue;
        }
        for r in runs(line) {
            if !found.contains(&r) {
                found.push(r);
            }
        }
    }
    if found.is_empty() {
        ctx.unparsed(
            &name,
            "no line of the Likee location file holds \"address\" (the only text read from the app's binary key-value format, which no tool decodes)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let file = l.name();
    let mut d = Draft::new("locations", format!("Likee location text {file}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    for r in &found {
        d.fact(FactType::Text, Some(*r), &inv);
    }
    d.interpretation = format!(
        "{file}, a Likee key-value file of its own binary format (no tool decodes it: read as UTF-8 text, as ALEAPP reads it): the printable runs of its lines holding \"address\", as written — {}. What the text records (the phone's position, a place searched, the account's region) the file does not say; the binary values beside it are not decoded.",
        found.join(" | ")
    );
    record_draft(ctx, d)
}
