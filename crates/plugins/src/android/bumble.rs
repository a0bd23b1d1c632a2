//! Bumble and Badoo on Android: MagicLab's two dating apps share one chat platform and its store
//! `databases/ChatComDatabase` (`com.bumble.app`, `com.badoo.mobile`). The fields of ALEAPP's
//! `get_bumble_messages`, `get_bumble_matches`, `get_badoo_messages` and `get_badoo_chat`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `message` (with `conversation_info`) | one `messages` per message | created and modified (Unix ms), direction (`is_incoming`, where stored), sender and recipient ids, the text, URL and a question game's two answers of the JSON `payload` (read with `json_extract` in the query), payload type, conversation and message ids, the match's user name (the `conversation_info` row whose user id is the conversation's, or whose encrypted id is the sender's or recipient's, as ALEAPP's Badoo maps it) |
//! | `conversation_info` | one `contacts` per match | user name, age, gender, mode (Bumble: 0 Bumble Date, 1 Bumble Friends, 5 Bumble Bizz, as ALEAPP words them), profile image URL, the photo URLs of `user_photos` (JSON), work, education, user id, encrypted user id; a `<app>:<user id>` person with the name (Badoo: its encrypted id too, the id Badoo's messages carry) |
//!
//! Badoo's `databases/CombinedConnectionsDatabase` (ALEAPP's `get_badoo_conn`): one `contacts`
//! per `connection` row (id, name, gender, origin, sort time — Unix ms —, avatar URL, the last
//! message shown), a `badoo:<id>` person.
//!
//! The device's user is the one sender of the outgoing messages (`owner`, `<app>:<user id>`,
//! the id iOS's Bumble keeps); Bumble's settings file `files/c2V0dGluZ3M=` names the user
//! (below). Schema drift: each table is read when it has its key columns, the others where
//! present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

/// One of MagicLab's apps that keep their chats in `ChatComDatabase`.
pub struct App {
    /// The app's name as the examiner knows it.
    pub name: &'static str,
    /// The service prefix of its user ids (`bumble:<id>`).
    pub service: &'static str,
    package: &'static str,
    /// Whether a match's encrypted user id is an id of the person too (Badoo's messages carry
    /// it as sender and recipient).
    encrypted_ids: bool,
    /// ALEAPP's words for the stored `game_mode` values.
    modes: &'static [(&'static str, &'static str)],
    /// ALEAPP's words for the stored `gender` values.
    genders: &'static [(&'static str, &'static str)],
}

const APPS: [App; 2] = [
    App {
        name: "Bumble",
        service: "bumble",
        package: "com.bumble.app",
        encrypted_ids: false,
        modes: &[
            ("0", "Bumble Date"),
            ("1", "Bumble Friends"),
            ("5", "Bumble Bizz"),
        ],
        genders: &[],
    },
    App {
        name: "Badoo",
        service: "badoo",
        package: "com.badoo.mobile",
        encrypted_ids: true,
        modes: &[],
        genders: &[("0", "male"), ("1", "female")],
    },
];

/// The app whose chat store `l` is (`<package>/databases/ChatComDatabase`).
pub fn chat_app(l: &Located) -> Option<&'static App> {
    if l.name() != "ChatComDatabase" {
        return None;
    }
    APPS.iter()
        .find(|a| l.path.contains(&format!("/{}/databases/", a.package)))
}

/// Whether `l` is Badoo's connections store.
pub fn is_badoo_connections(l: &Located) -> bool {
    l.name() == "CombinedConnectionsDatabase" && l.path.contains("/com.badoo.mobile/databases/")
}

/// Whether `l` is Bumble's settings file (`files/c2V0dGluZ3M=`, "settings" in base64).
pub fn is_settings(l: &Located) -> bool {
    l.path.ends_with("/com.bumble.app/files/c2V0dGluZ3M=")
}

/// The settings file: the signed-in user (see the module documentation).
pub fn settings(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    use crate::outputs::json_scalar;
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_protobuf",
        crate::identity::args_on(&l.tree, serde_json::json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let doc = crate::outputs::protobuf_document(&inv.output.text);
    // ALEAPP's path: 2 > 1 (third entry) > 2 > 2
    let user = doc.as_ref().and_then(|d| {
        d.get("2")?
            .get(0)?
            .get("1")?
            .get(2)?
            .get("2")?
            .get(0)?
            .get("2")?
            .get(0)
    });
    let Some(user) = user.filter(|u| u.is_object()) else {
        ctx.unparsed(
            &name,
            "could not parse Bumble's settings because no user is at 2 > 1 (third entry) > 2 > 2, where ALEAPP reads it",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let at = |path: &[&str]| {
        path.iter()
            .try_fold(user, |node, field| node.get(field)?.get(0))
            .and_then(|v| json_scalar(Some(v)))
    };
    let section = |i: usize| {
        user.get("490")
            .and_then(|s| s.get(i))
            .and_then(|s| json_scalar(s.get("4")?.get(0)))
    };
    let mut d = Draft::new("accounts", "Bumble account (settings)");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    let mut owner = Vec::new();
    for (path, ft, what, id) in [
        (&["1"][..], FactType::Account, "user id", None),
        (
            &["200"][..],
            FactType::Name,
            "name",
            Some(IdType::DisplayName),
        ),
        (&["11"][..], FactType::Email, "e-mail", Some(IdType::Email)),
        (
            &["100", "2", "4"][..],
            FactType::Phone,
            "phone",
            Some(IdType::Phone),
        ),
        (&["210"][..], FactType::Count, "age", None),
        (&["220"][..], FactType::Text, "birth date", None),
        (&["91", "2"][..], FactType::Text, "country", None),
        (&["93", "2"][..], FactType::Text, "city", None),
    ] {
        if let Some(v) = at(path) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{what} {v}"));
            if let Some(id) = id {
                owner.push((id, v, what));
            }
        }
    }
    for (i, what) in [(0, "occupation"), (1, "education"), (3, "about")] {
        if let Some(v) = section(i) {
            d.fact(FactType::Text, Some(&v), &inv);
            said.push(format!("{what} {v}"));
        }
    }
    d.interpretation = format!(
        "Bumble's settings file {} (read raw as Protocol Buffers, at the field paths ALEAPP reads): the signed-in user: {}.",
        l.name(),
        said.join(", ")
    );
    record_draft(ctx, d)?;
    for (id_type, value, what) in owner {
        crate::identity::observe(
            ctx,
            "owner",
            masf_graph::EntityKind::Person,
            "device owner",
            id_type,
            &value,
            &inv,
            format!(
                "The {what} of the Bumble account signed in on the device (its settings file), the device's user."
            ),
        )?;
    }
    Ok(())
}

/// One `ChatComDatabase` of `app`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, app: &App) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("{}'s ChatComDatabase", app.name);
    if !schema.contains_key("message") && !schema.contains_key("conversation_info") {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {store} because it has neither message nor conversation_info"
            ),
            None,
        )?;
        return Ok(());
    }
    let matches = schema
        .get("conversation_info")
        .filter(|c| !c.is_empty())
        .cloned()
        .unwrap_or_default();
    let has_matches = !matches.is_empty()
        && require_columns(
            ctx,
            &name,
            &store,
            "conversation_info",
            &matches,
            &["user_id"],
        )?;
    if let Some(cols) = schema.get("message")
        && require_columns(
            ctx,
            &name,
            &store,
            "message",
            cols,
            &["created_timestamp", "sender_id"],
        )?
    {
        if cols.contains("is_incoming") {
            owner(ctx, l, app)?;
        }
        let names = has_matches && matches.contains("user_name");
        let by_encrypted = names && matches.contains("encrypted_user_id");
        messages(ctx, l, app, &name, cols, names, by_encrypted)?;
    }
    if has_matches {
        conversations(ctx, l, app, &name, &matches)?;
    }
    Ok(())
}

/// The device's user: the one sender of the outgoing messages, observed as `owner`.
fn owner(ctx: &AgentCtx<'_>, l: &Located, app: &App) -> Result<(), RuntimeError> {
    crate::identity::sole_owner(
        ctx,
        &l.tree,
        &l.path,
        &format!(
            "SELECT DISTINCT sender_id, '{}:' || sender_id AS qualified FROM message WHERE is_incoming = 0 AND sender_id IS NOT NULL AND sender_id != '' LIMIT 2",
            app.service
        ),
        &format!("The {} user id", app.name),
        &format!("the one sender of the outgoing messages in {}", l.name()),
    )
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    app: &App,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    names: bool,
    by_encrypted: bool,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let payload = |path: &str| {
        if cols.contains("payload") {
            format!("CASE WHEN json_valid(m.payload) THEN json_extract(m.payload, '{path}') END")
        } else {
            "NULL".into()
        }
    };
    // the match: the conversation's user (Bumble), or the user whose encrypted id is the
    // sender's or recipient's (ALEAPP's Badoo mapping)
    let mut keys = Vec::new();
    if cols.contains("conversation_id") {
        keys.push("i.user_id = m.conversation_id");
    }
    if by_encrypted {
        keys.push("i.encrypted_user_id = m.sender_id");
        if cols.contains("recipient_id") {
            keys.push("i.encrypted_user_id = m.recipient_id");
        }
    }
    let other = if names && !keys.is_empty() {
        format!(
            "(SELECT i.user_name FROM conversation_info i WHERE {} LIMIT 1)",
            keys.join(" OR ")
        )
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.created_timestamp AS created, m.sender_id AS sender_id, {}, {}, {}, {}, {}, {}, {} AS text, {} AS url, {} AS answer_own, {} AS answer_other, {other} AS match_name, \
CASE WHEN m.sender_id IS NOT NULL AND m.sender_id != '' THEN '{svc}:' || m.sender_id END AS qualified FROM message m ORDER BY m.created_timestamp, m.rowid",
        c("is_incoming"),
        c("modified_timestamp"),
        c("recipient_id"),
        c("payload_type"),
        c("conversation_id"),
        c("id"),
        payload("$.text"),
        payload("$.url"),
        payload("$.answer_own"),
        payload("$.answer_other"),
        svc = app.service,
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, &format!("{} messages", app.name))?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let with = t
            .get(row, "match_name")
            .or(t.get(row, "conversation_id"))
            .unwrap_or("an unknown match")
            .to_string();
        let sent = crate::drafts::stored_flag(t.get(row, "is_incoming")).map(|incoming| !incoming);
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("{} message sent to {with}", app.name),
                Some(false) => format!("{} message from {with}", app.name),
                None => format!("{} message with {with}", app.name),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["sender_id", "recipient_id"] {
            d.fact(FactType::Account, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Name, raw(t, row, "match_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        for col in ["answer_own", "answer_other", "payload_type"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        for col in ["conversation_id", "id"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        let created = t.get(row, "created");
        match sent {
            Some(s) => d.message_time(created, unix_millis(created), s, inv),
            None => d.time(
                created,
                unix_millis(created),
                &format!("{} message created", app.name),
                inv,
            ),
        };
        let modified = t.get(row, "modified_timestamp");
        d.time(modified, unix_millis(modified), "Message modified", inv);
        d.interpretation = format!(
            "message row {rid} of {}: a {} message in the conversation with {with}, {}{}; times are Unix milliseconds.",
            l.name(),
            app.name,
            match sent {
                Some(true) => "sent by the device's user (is_incoming 0)",
                Some(false) => "received (is_incoming 1)",
                None => "direction not stored",
            },
            match (t.get(row, "answer_own"), t.get(row, "answer_other")) {
                (None, None) => String::new(),
                (own, other) => format!(
                    "; a question game: the device's user answered {}, the match {}",
                    own.unwrap_or("nothing"),
                    other.unwrap_or("nothing")
                ),
            },
        );
        record_draft(ctx, d)?;
        let sender = t.get(row, "sender_id");
        if sent == Some(false)
            && let Some(id) = sender
        {
            observe_columns(
                ctx,
                &format!("{}:{id}", app.service),
                &with,
                t,
                row,
                inv,
                &[
                    (
                        "qualified",
                        IdType::AccountId,
                        &format!("The {} user id", app.name),
                    ),
                    ("match_name", IdType::DisplayName, "The user name"),
                ],
                &|what| {
                    format!(
                        "{what} of the sender of a {} message ({}).",
                        app.name,
                        l.name()
                    )
                },
            )?;
        }
        let (Some(text), Some(s)) = (t.get(row, "text"), sent) else {
            continue;
        };
        let context = if s {
            t.get(row, "recipient_id")
        } else {
            sender
        }
        .map(|id| format!("{}:{id}", app.service));
        crate::identity::claims_by_direction(
            ctx,
            inv,
            text,
            &format!("{} message row {rid} ({})", app.name, l.name()),
            s,
            context.as_deref().map(|c| (c, with.as_str())),
        )?;
    }
    Ok(())
}

fn conversations(
    ctx: &AgentCtx<'_>,
    l: &Located,
    app: &App,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    // the photo URLs of the JSON list user_photos, one a line, as ALEAPP lists them
    let photos = if cols.contains("user_photos") {
        "CASE WHEN json_valid(user_photos) AND json_type(user_photos) = 'array' THEN (SELECT group_concat(json_extract(p.value, '$.url'), char(10)) FROM json_each(user_photos) p WHERE p.type = 'object' AND json_extract(p.value, '$.url') IS NOT NULL) END"
    } else {
        "NULL"
    };
    let encrypted = if app.encrypted_ids && cols.contains("encrypted_user_id") {
        format!(
            "CASE WHEN encrypted_user_id IS NOT NULL AND encrypted_user_id != '' THEN '{}:' || encrypted_user_id END",
            app.service
        )
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT rowid AS rid, user_id, {}, {}, {}, {}, {}, {}, {}, {}, {photos} AS photos, '{svc}:' || user_id AS qualified, {encrypted} AS encrypted_qualified FROM conversation_info WHERE user_id IS NOT NULL AND user_id != '' ORDER BY user_id",
        c("user_name"),
        c("age"),
        c("gender"),
        c("game_mode"),
        c("user_image_url"),
        c("encrypted_user_id"),
        c("work"),
        c("education"),
        svc = app.service,
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, &format!("{} matches", app.name))?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "user_id") else {
            continue;
        };
        let label = t.get(row, "user_name").unwrap_or(id).to_string();
        let word = |words: &[(&str, &'static str)], v: &str| {
            words.iter().find(|(k, _)| *k == v).map(|(_, w)| *w)
        };
        let mode = match t.get(row, "game_mode") {
            Some(v) => match word(app.modes, v) {
                Some(w) => format!(" ({w})"),
                None => format!(" (mode {v})"),
            },
            None => String::new(),
        };
        let gender = match t.get(row, "gender") {
            // ALEAPP's words where it has them
            Some(v) => match word(app.genders, v) {
                Some(w) => format!("{v}, {w}"),
                None => v.to_string(),
            },
            None => "not stored".to_string(),
        };
        let mut d = Draft::new("contacts", format!("{} match {label}", app.name));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "user_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "user_name").as_deref(), inv);
        for col in ["age", "gender", "game_mode"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Url, raw(t, row, "user_image_url").as_deref(), inv);
        for url in t.get(row, "photos").unwrap_or_default().split('\n') {
            let url = (!url.is_empty()).then(|| crate::outputs::escape(url));
            d.fact(FactType::Url, url.as_deref(), inv);
        }
        for col in ["work", "education"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(
            FactType::Identifier,
            raw(t, row, "encrypted_user_id").as_deref(),
            inv,
        );
        d.interpretation = format!(
            "conversation_info row {} of {}: {label} (user {id}), a person the device's user matched with on {}{mode}; age {}, gender {gender} (as stored).",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            app.name,
            t.get(row, "age").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        let user_id = format!("The {} user id", app.name);
        let encrypted = format!(
            "The {} encrypted user id (the id its messages carry)",
            app.name
        );
        observe_columns(
            ctx,
            &format!("{}:{id}", app.service),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, &user_id),
                ("encrypted_qualified", IdType::AccountId, &encrypted),
                ("user_name", IdType::DisplayName, "The user name"),
            ],
            &|what| format!("{what} of {label}, a {} match ({}).", app.name, l.name()),
        )?;
    }
    Ok(())
}

/// Badoo's `CombinedConnectionsDatabase`: one `contacts` per `connection` row, ALEAPP's
/// `get_badoo_conn`.
pub fn connections(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = "Badoo's CombinedConnectionsDatabase";
    let Some(cols) = schema.get("connection").filter(|c| !c.is_empty()) else {
        ctx.unparsed(
            &name,
            &format!("could not parse {store} because it has no connection table"),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(ctx, &name, store, "connection", cols, &["id"])? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, id, {}, {}, {}, {}, {}, {}, 'badoo:' || id AS qualified FROM connection WHERE id IS NOT NULL AND id != '' ORDER BY id",
        c("name"),
        c("gender"),
        c("origin"),
        c("sort_timestamp"),
        c("avatar_url"),
        c("display_message"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Badoo connections")?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "id") else {
            continue;
        };
        let label = t.get(row, "name").unwrap_or(id).to_string();
        let mut d = Draft::new("contacts", format!("Badoo connection {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        for col in ["gender", "origin", "display_message"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Url, raw(t, row, "avatar_url").as_deref(), inv);
        let sort = t.get(row, "sort_timestamp");
        d.time(sort, unix_millis(sort), "Badoo connection last active", inv);
        d.interpretation = format!(
            "connection row {} of {}: {label} (user {id}), a Badoo user the device's user is connected with (messages, views, likes: origin {}), gender {}, last shown {}; the sort time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "origin").unwrap_or("not stored"),
            t.get(row, "gender").unwrap_or("not stored"),
            t.get(row, "display_message")
                .map(|m| format!("\"{m}\""))
                .unwrap_or("nothing".into()),
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            &format!("badoo:{id}"),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Badoo user id"),
                ("name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of {label}, a Badoo connection ({}).", l.name()),
        )?;
    }
    Ok(())
}
