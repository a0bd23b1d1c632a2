//! Slack on iOS, both stores iLEAPP's `slack` module reads:
//!
//! - `ModelDatabase/db.sqlite` of Slack's app group (the newer Core Data store, `ZCOREDATA*`):
//!   one `contacts` per `ZCOREDATAUSER` row (server version, real, first, last and user name,
//!   e-mail, phone, team and workspace ids, user id, the is-me, owner, admin and bot flags, time
//!   zone, its title and offset, avatar hash, colour), one `messages` per `ZCOREDATAMESSAGE` row
//!   (time — Unix seconds —, direction from the sender's is-me flag, sender id and name, the
//!   conversation's id, name and team, text) and one per `ZCOREDATACONVERSATION` row (created,
//!   first message, creator id and name, name, id, the DM's user id, purpose, type: 0 channel,
//!   2 direct message, as iLEAPP reads it);
//! - `Library/Application Support/Slack/<team>/<user>/main_db` of the app's container (`ZSLK*`,
//!   or `ZSLKDEPRECATED*` in older copies): one `contacts` per `…COREDATAUSER` row (admin, owner,
//!   real, first, last, display and user name, phone, time zone, offset and title, title, user
//!   id, team id), one `messages` per `…MESSAGE` row (time, sender id and name, channel name and
//!   ids, text, the first shared file's id and that file's mode, title, type, time, preview,
//!   size, download and permalink URLs), one per `…BASECHANNEL` row (created, purpose and topic
//!   set, latest, name, ids, the DM's user, creator, purpose and topic with their creators) and
//!   one `accounts` per `…TEAM` row (name, domain, the signed-in user id, team id).
//!
//! Identities: every user id is `slack:<id>` (qualified in the query; the id Android's Slack
//! store keeps) with the e-mail, phone and names; the device's user (`owner`) is the user whose
//! is-me flag is set, or a team's signed-in user (`ZAUTHUSERID`). iLEAPP's inner joins drop a
//! message whose sender or channel row is missing; such messages are read here with what they
//! have. Schema drift: each table is read when it has `Z_PK` and its id column, its other
//! columns where present.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::photos::fields;
use super::{Draft, Run, Schema, raw};
use crate::calls::column_expr;
use crate::calls::select_columns as select;
use crate::drafts::unix_seconds;

/// Triage of every Slack store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("db.sqlite", |find, path| {
        if path.contains("/Containers/Shared/AppGroup/")
            && path.ends_with("/ModelDatabase/db.sqlite")
        {
            model(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("main_db", |find, path| {
        if path.contains("/Library/Application Support/Slack/") {
            main_db(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// `slack:<col>` as `alias`, or NULL when the column is missing or empty.
fn qualified(
    cols: &std::collections::BTreeSet<String>,
    prefix: &str,
    col: &str,
    alias: &str,
) -> String {
    crate::calls::qualified_or_null(cols, prefix, col, "slack", alias)
}

/// Whether `table` can be read: present with `Z_PK` and `id` (noted when it lacks them).
fn readable(
    run: &Run<'_, '_>,
    schema: &Schema,
    table: &str,
    id: &str,
) -> Result<bool, RuntimeError> {
    Ok(!schema.columns(table).is_empty() && schema.require(run, table, &["Z_PK", id])?)
}

/// Observes the user of a row: `owner` when `own`, else `slack:<id>`.
#[allow(clippy::too_many_arguments)]
fn observe_user(
    run: &Run<'_, '_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    id: &str,
    own: bool,
    label: &str,
    why: &str,
) -> Result<(), RuntimeError> {
    let (context, entity) = if own {
        ("owner".to_string(), "device owner".to_string())
    } else {
        (format!("slack:{id}"), label.to_string())
    };
    crate::identity::observe_columns(
        run.ctx,
        &context,
        &entity,
        t,
        row,
        inv,
        &[
            ("qualified", IdType::AccountId, "The Slack user id"),
            ("email", IdType::Email, "The e-mail"),
            ("phone", IdType::Phone, "The phone"),
            ("real_name", IdType::DisplayName, "The real name"),
            ("display_name", IdType::DisplayName, "The display name"),
            ("name", IdType::DisplayName, "The user name"),
        ],
        &|what| format!("{what} of the Slack user {label}{why}."),
    )?;
    Ok(())
}

// --- ModelDatabase/db.sqlite -------------------------------------------------------------

fn model(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = ["ZCOREDATAUSER", "ZCOREDATAMESSAGE", "ZCOREDATACONVERSATION"];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if tables.iter().all(|t| schema.columns(t).is_empty()) {
        run.ctx.unparsed(
            path,
            "could not parse Slack's ModelDatabase because it has none of the tables ZCOREDATAUSER, ZCOREDATAMESSAGE, ZCOREDATACONVERSATION",
            None,
        )?;
        return Ok(());
    }
    if readable(run, &schema, "ZCOREDATAUSER", "ZTSID")? {
        let spec = Users {
            table: "ZCOREDATAUSER",
            select: MODEL_USER,
            nulls: "NULL AS display_name",
            facts: &[
                ("real_name", FactType::Name, "real name"),
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("name", FactType::Account, "user name"),
                ("email", FactType::Email, "e-mail"),
                ("phone", FactType::Phone, "phone"),
                ("team", FactType::Identifier, "team"),
                ("workspace", FactType::Identifier, "workspace or enterprise"),
                ("is_me", FactType::Count, "is me"),
                ("is_owner", FactType::Count, "owner"),
                ("is_admin", FactType::Count, "admin"),
                ("is_bot", FactType::Count, "bot"),
                ("tz", FactType::Text, "time zone"),
                ("tz_title", FactType::Text, "time zone title"),
                ("tz_offset", FactType::Count, "time zone offset (s)"),
                ("server_version", FactType::Count, "server version"),
                ("avatar", FactType::Identifier, "avatar hash"),
                ("color", FactType::Text, "colour"),
            ],
            own_why: ", the device's user (ZISME 1)",
            store: " in Slack's ModelDatabase",
        };
        users(run, find, path, &schema, &spec, Own::IsMe)?;
    }
    if readable(run, &schema, "ZCOREDATAMESSAGE", "ZUSERID")? {
        model_messages(run, find, path, &schema)?;
    }
    if readable(run, &schema, "ZCOREDATACONVERSATION", "ZTSID")? {
        model_conversations(run, find, path, &schema)?;
    }
    Ok(())
}

const MODEL_USER: &[(&str, &str)] = &[
    ("ZSERVERVERSION", "server_version"),
    ("ZREALNAME", "real_name"),
    ("ZFIRSTNAME", "first_name"),
    ("ZLASTNAME", "last_name"),
    ("ZNAME", "name"),
    ("ZEMAIL", "email"),
    ("ZPHONE", "phone"),
    ("ZTEAMID", "team"),
    ("ZWORKSPACEORENTERPRISEID", "workspace"),
    ("ZISME", "is_me"),
    ("ZISOWNER", "is_owner"),
    ("ZISADMIN", "is_admin"),
    ("ZISBOT", "is_bot"),
    ("ZTIMEZONE", "tz"),
    ("ZTIMEZONETITLE", "tz_title"),
    ("ZTIMEZONEOFFSET", "tz_offset"),
    ("ZAVATARHASH", "avatar"),
    ("ZCOLORSTRING", "color"),
];

/// How one store keeps its users: the table, the `(column, alias)` pairs read (beside
/// `Z_PK`, `ZTSID` and the qualified id), the aliases it lacks (`NULL AS …`), the facts of a row,
/// what makes a row the device's user, and the store's name in the observations.
struct Users<'a> {
    table: &'a str,
    select: &'a [(&'a str, &'a str)],
    nulls: &'a str,
    facts: &'a [(&'a str, FactType, &'a str)],
    own_why: &'a str,
    store: &'a str,
}

/// What makes a user row the device's user: its is-me flag, or its id being the signed-in one.
#[derive(Clone, Copy)]
enum Own<'a> {
    IsMe,
    SignedIn(Option<&'a str>),
}

/// One `contacts` phenomenon per user row (`accounts` for the device's user, as `own` says),
/// and the user observed.
fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    spec: &Users<'_>,
    own: Own<'_>,
) -> Result<(), RuntimeError> {
    let table = spec.table;
    let c = schema.columns(table);
    let sql = format!(
        "SELECT Z_PK AS pk, ZTSID AS id, {}, {}, {} FROM {table}",
        qualified(&c, "", "ZTSID", "qualified"),
        spec.nulls,
        select(&c, "", spec.select)
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let label = t
            .get(row, "real_name")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "display_name").filter(|n| !n.is_empty()))
            .or(t.get(row, "name"))
            .unwrap_or(id)
            .to_string();
        let own = match own {
            Own::IsMe => t.get(row, "is_me") == Some("1"),
            Own::SignedIn(me) => Some(id) == me,
        };
        let mut d = Draft::new(
            if own { "accounts" } else { "contacts" },
            format!("Slack user {label}"),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, raw(t, row, "id").as_deref(), inv);
        let said = fields(&mut d, t, row, inv, spec.facts);
        d.interpretation = format!(
            "{table} Z_PK {} of {path}: the Slack user {label} ({id}){}: {}.",
            t.get(row, "pk").unwrap_or("?"),
            if own { spec.own_why } else { "" },
            said.join(", ")
        );
        run.record(d)?;
        observe_user(run, t, row, inv, id, own, &label, spec.store)?;
    }
    Ok(())
}

/// The sender of a message that is not the device's user's, observed as `slack:<id>`.
#[allow(clippy::too_many_arguments)]
fn observe_sender(
    run: &Run<'_, '_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    sender: &str,
    who: &str,
    chat: &str,
    sent: Option<bool>,
) -> Result<(), RuntimeError> {
    if sent == Some(true) || t.get(row, "qualified").is_none() {
        return Ok(());
    }
    crate::identity::observe_columns(
        run.ctx,
        &format!("slack:{sender}"),
        who,
        t,
        row,
        inv,
        &[("qualified", IdType::AccountId, "The Slack user id")],
        &|what| format!("{what} of the sender of a Slack message in {chat}."),
    )?;
    Ok(())
}

fn model_messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let m = schema.columns("ZCOREDATAMESSAGE");
    let u = schema.columns("ZCOREDATAUSER");
    let v = schema.columns("ZCOREDATACONVERSATION");
    let user = |col: &str| {
        if u.contains("ZTSID") && u.contains(col) {
            format!("(SELECT x.{col} FROM ZCOREDATAUSER x WHERE x.ZTSID = m.ZUSERID LIMIT 1)")
        } else {
            "NULL".into()
        }
    };
    let conv = |col: &str| {
        if v.contains("ZTSID") && v.contains(col) && m.contains("ZCONVERSATIONID") {
            format!(
                "(SELECT y.{col} FROM ZCOREDATACONVERSATION y WHERE y.ZTSID = m.ZCONVERSATIONID LIMIT 1)"
            )
        } else {
            "NULL".into()
        }
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, {} AS time, m.ZUSERID AS sender, {} AS is_me, {} AS sender_name, {} AS conversation, {} AS conversation_name, {} AS team, {} AS text, {} FROM ZCOREDATAMESSAGE m)",
        column_expr(&m, "m.", "ZTIMESTAMP"),
        user("ZISME"),
        user("ZREALNAME"),
        column_expr(&m, "m.", "ZCONVERSATIONID"),
        conv("ZNAME"),
        conv("ZCONTEXTTEAMID"),
        column_expr(&m, "m.", "ZTEXT"),
        qualified(&m, "m.", "ZUSERID", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let sender = t.get(row, "sender").unwrap_or("?");
        let who = t
            .get(row, "sender_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(sender);
        let chat = t
            .get(row, "conversation_name")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "conversation"))
            .unwrap_or("?");
        let sent = crate::drafts::stored_flag(t.get(row, "is_me"));
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Slack message sent in {chat}"),
                _ => format!("Slack message from {who} in {chat}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("sender", FactType::Account, "sender"),
                ("sender_name", FactType::Name, "sender name"),
                ("conversation", FactType::Identifier, "conversation"),
                ("conversation_name", FactType::Name, "conversation name"),
                ("team", FactType::Identifier, "team"),
                ("text", FactType::Text, "text"),
            ],
        );
        let time = t.get(row, "time");
        match sent {
            Some(s) => d.message_time(time, unix_seconds(time), s, inv),
            None => d.time(time, unix_seconds(time), "Slack message posted", inv),
        };
        d.interpretation = format!(
            "ZCOREDATAMESSAGE Z_PK {} of {path}: a Slack message by {who} ({sender}) in {chat}, {}; ZTIMESTAMP is Unix seconds.",
            t.get(row, "pk").unwrap_or("?"),
            match sent {
                Some(true) => "sent by the device's user (the sender's ZISME is 1)",
                Some(false) => "received (the sender's ZISME is 0)",
                None => "direction not given (the sender has no user row)",
            }
        );
        run.record(d)?;
        observe_sender(run, t, row, inv, sender, who, chat, sent)?;
    }
    Ok(())
}

fn model_conversations(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let v = schema.columns("ZCOREDATACONVERSATION");
    let u = schema.columns("ZCOREDATAUSER");
    let creator = if u.contains("ZTSID") && u.contains("ZREALNAME") && v.contains("ZCREATORID") {
        "(SELECT x.ZREALNAME FROM ZCOREDATAUSER x WHERE x.ZTSID = c.ZCREATORID LIMIT 1)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT * FROM (SELECT c.Z_PK AS pk, c.ZTSID AS id, {}, {creator} AS creator_name FROM ZCOREDATACONVERSATION c)",
        select(
            &v,
            "c.",
            &[
                ("ZCREATED", "created"),
                ("ZFIRSTMESSAGETIMESTAMP", "first_message"),
                ("ZCREATORID", "creator"),
                ("ZNAME", "name"),
                ("ZIMUSERID", "dm_user"),
                ("ZPURPOSETEXT", "purpose"),
                ("ZTYPE", "type"),
            ]
        )
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let name = t.get(row, "name").filter(|n| !n.is_empty()).unwrap_or(id);
        let kind = match t.get(row, "type") {
            Some("0") => "channel".to_string(),
            Some("2") => "direct message".to_string(),
            Some(v) => format!("conversation of type {v}"),
            None => "conversation".to_string(),
        };
        let mut d = Draft::new("messages", format!("Slack {kind} {name}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("creator", FactType::Account, "creator"),
                ("creator_name", FactType::Name, "creator name"),
                ("dm_user", FactType::Account, "DM user"),
                ("purpose", FactType::Text, "purpose"),
                ("type", FactType::Count, "type"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("created", "Slack conversation created"),
                ("first_message", "First message in conversation"),
            ],
        );
        d.interpretation = format!(
            "ZCOREDATACONVERSATION Z_PK {} of {path}: the Slack {kind} {name} ({id}; ZTYPE 0 channel, 2 direct message, as iLEAPP reads it): {}; times are Unix seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
    }
    Ok(())
}

// --- main_db (ZSLK* / ZSLKDEPRECATED*) ---------------------------------------------------

fn main_db(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let mut tables = Vec::new();
    for p in ["ZSLK", "ZSLKDEPRECATED"] {
        for t in ["MESSAGE", "BASECHANNEL", "COREDATAUSER", "FILE", "TEAM"] {
            tables.push(format!("{p}{t}"));
        }
    }
    let names: Vec<&str> = tables.iter().map(String::as_str).collect();
    let Some(schema) = run.schema(path, &names)? else {
        return Ok(());
    };
    // older copies: ZSLKDEPRECATED*, as iLEAPP picks it
    let p = if !schema.columns("ZSLKDEPRECATEDMESSAGE").is_empty() {
        "ZSLKDEPRECATED"
    } else if !schema.columns("ZSLKMESSAGE").is_empty() {
        "ZSLK"
    } else {
        run.ctx.unparsed(
            path,
            "could not parse Slack's main_db because it has neither ZSLKMESSAGE nor ZSLKDEPRECATEDMESSAGE",
            None,
        )?;
        return Ok(());
    };
    let me = teams(run, find, path, &schema, p)?;
    if readable(run, &schema, &format!("{p}COREDATAUSER"), "ZTSID")? {
        main_users(run, find, path, &schema, p, me.as_deref())?;
    }
    if readable(run, &schema, &format!("{p}MESSAGE"), "ZUSERID")? {
        main_messages(run, find, path, &schema, p, me.as_deref())?;
    }
    if readable(run, &schema, &format!("{p}BASECHANNEL"), "ZTSID")? {
        channels(run, find, path, &schema, p)?;
    }
    Ok(())
}

/// `…TEAM`: one phenomenon per team; the signed-in user id of the first.
fn teams(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    p: &str,
) -> Result<Option<String>, RuntimeError> {
    let table = format!("{p}TEAM");
    if !readable(run, schema, &table, "ZTSID")? {
        return Ok(None);
    }
    let c = schema.columns(&table);
    let sql = format!(
        "SELECT Z_PK AS pk, ZTSID AS id, {}, {} FROM {table}",
        select(
            &c,
            "",
            &[
                ("ZNAME", "name"),
                ("ZDOMAIN", "domain"),
                ("ZAUTHUSERID", "auth_user")
            ]
        ),
        qualified(&c, "", "ZAUTHUSERID", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(None);
    };
    let mut me = None;
    for (inv, t, row) in paged.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let name = t.get(row, "name").filter(|n| !n.is_empty()).unwrap_or(id);
        let mut d = Draft::new("accounts", format!("Slack workspace {name}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("domain", FactType::Text, "domain"),
                ("auth_user", FactType::Account, "signed-in user"),
            ],
        );
        d.interpretation = format!(
            "{table} Z_PK {} of {path}: the Slack workspace {name} ({id}) the app is signed in to: {}.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        if let Some(user) = t.get(row, "auth_user").filter(|u| !u.is_empty()) {
            crate::identity::observe_columns(
                run.ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[("qualified", IdType::AccountId, "The Slack user id")],
                &|what| {
                    format!(
                        "{what} of the device's user: the user signed in to the Slack workspace {name} (ZAUTHUSERID)."
                    )
                },
            )?;
            me = me.or(Some(user.to_string()));
        }
    }
    Ok(me)
}

/// The users of a main_db (`…COREDATAUSER`); the device's user is the team's signed-in `me`.
fn main_users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    p: &str,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let table = format!("{p}COREDATAUSER");
    let spec = Users {
        table: &table,
        select: &[
            ("ZADMIN", "admin"),
            ("ZOWNER", "owner"),
            ("ZREALNAME", "real_name"),
            ("ZFIRSTNAME", "first_name"),
            ("ZLASTNAME", "last_name"),
            ("ZDISPLAYNAME", "display_name"),
            ("ZNAME", "name"),
            ("ZPHONE", "phone"),
            ("ZTIMEZONE", "tz"),
            ("ZTIMEZONEOFFSET", "tz_offset"),
            ("ZTIMEZONETITLE", "tz_title"),
            ("ZTITLE", "title"),
            ("ZTEAMID", "team"),
        ],
        nulls: "NULL AS email",
        facts: &[
            ("real_name", FactType::Name, "real name"),
            ("first_name", FactType::Name, "first name"),
            ("last_name", FactType::Name, "last name"),
            ("display_name", FactType::Name, "display name"),
            ("name", FactType::Account, "user name"),
            ("phone", FactType::Phone, "phone"),
            ("title", FactType::Text, "title"),
            ("team", FactType::Identifier, "team"),
            ("admin", FactType::Count, "admin"),
            ("owner", FactType::Count, "owner"),
            ("tz", FactType::Text, "time zone"),
            ("tz_offset", FactType::Count, "time zone offset"),
            ("tz_title", FactType::Text, "time zone title"),
        ],
        own_why: ", the device's user (the team's signed-in user)",
        store: " in Slack's main_db",
    };
    users(run, find, path, schema, &spec, Own::SignedIn(me))
}

fn main_messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    p: &str,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let table = format!("{p}MESSAGE");
    let m = schema.columns(&table);
    let users = format!("{p}COREDATAUSER");
    let u = schema.columns(&users);
    let chans = format!("{p}BASECHANNEL");
    let ch = schema.columns(&chans);
    let files = format!("{p}FILE");
    let f = schema.columns(&files);
    let sender_name = if u.contains("ZTSID") && u.contains("ZREALNAME") {
        format!("(SELECT x.ZREALNAME FROM {users} x WHERE x.ZTSID = m.ZUSERID LIMIT 1)")
    } else {
        "NULL".into()
    };
    let channel = |col: &str| {
        if m.contains("ZCHANNELID") && ch.contains(col) && ch.contains("ZTSID") {
            let either = if ch.contains("ZTSID1") {
                "(y.ZTSID = m.ZCHANNELID OR y.ZTSID1 = m.ZCHANNELID)"
            } else {
                "y.ZTSID = m.ZCHANNELID"
            };
            format!("(SELECT y.{col} FROM {chans} y WHERE {either} LIMIT 1)")
        } else {
            "NULL".into()
        }
    };
    let shared = if m.contains("ZFILEIDS") {
        "CASE WHEN json_valid(m.ZFILEIDS) THEN json_extract(m.ZFILEIDS, '$[0]') END"
    } else {
        "NULL"
    };
    let file_time = if f.contains("ZTIMESTAMPNUMBER") {
        "ZTIMESTAMPNUMBER"
    } else {
        "ZTIMESTAMP"
    };
    let file = |col: &str, alias: &str| {
        if f.contains("ZTSID") && f.contains(col) {
            format!("(SELECT z.{col} FROM {files} z WHERE z.ZTSID = {shared} LIMIT 1) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, {} AS time, m.ZUSERID AS sender, {sender_name} AS sender_name, {} AS channel, {} AS channel_name, {} AS channel_sid, {} AS channel_sid1, {} AS text, {shared} AS shared_file, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM {table} m)",
        column_expr(&m, "m.", "ZTIMESTAMP"),
        column_expr(&m, "m.", "ZCHANNELID"),
        channel("ZNAME"),
        channel("ZTSID"),
        channel("ZTSID1"),
        column_expr(&m, "m.", "ZTEXT"),
        file("ZMODESTRING", "file_mode"),
        file("ZTITLE", "file_title"),
        file("ZTYPESTRING", "file_type"),
        file(file_time, "file_time"),
        file("ZPREVIEW", "file_preview"),
        file("ZSIZE", "file_size"),
        file("ZPRIVATEDOWNLOADURL", "file_url"),
        file("ZPERMALINKURL", "file_permalink"),
        qualified(&m, "m.", "ZUSERID", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let sender = t.get(row, "sender").unwrap_or("?");
        let who = t
            .get(row, "sender_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(sender);
        let chat = t
            .get(row, "channel_name")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "channel_sid"))
            .or(t.get(row, "channel"))
            .unwrap_or("?");
        let sent = me.map(|me| me == sender);
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Slack message sent in {chat}"),
                _ => format!("Slack message from {who} in {chat}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("sender", FactType::Account, "sender"),
                ("sender_name", FactType::Name, "sender name"),
                ("channel", FactType::Identifier, "channel"),
                ("channel_name", FactType::Name, "channel name"),
                ("channel_sid", FactType::Identifier, "channel id"),
                ("channel_sid1", FactType::Identifier, "channel id 1"),
                ("text", FactType::Text, "text"),
                ("shared_file", FactType::Identifier, "shared file"),
                ("file_mode", FactType::Text, "file mode"),
                ("file_title", FactType::Name, "file title"),
                ("file_type", FactType::Text, "file type"),
                ("file_preview", FactType::Text, "file preview"),
                ("file_size", FactType::Count, "file size"),
                ("file_url", FactType::Url, "file download URL"),
                ("file_permalink", FactType::Url, "file permalink"),
            ],
        );
        let time = t.get(row, "time");
        match sent {
            Some(s) => d.message_time(time, unix_seconds(time), s, inv),
            None => d.time(time, unix_seconds(time), "Slack message posted", inv),
        };
        let ft = t.get(row, "file_time");
        d.time(ft, unix_seconds(ft), "Slack file shared", inv);
        d.interpretation = format!(
            "{table} Z_PK {} of {path}: a Slack message by {who} ({sender}) in {chat}, {}: {}; times are Unix seconds.",
            t.get(row, "pk").unwrap_or("?"),
            match sent {
                Some(true) => "sent by the device's user (the team's signed-in user)",
                Some(false) => "received",
                None => "direction not given (no signed-in user stored)",
            },
            said.join(", ")
        );
        run.record(d)?;
        observe_sender(run, t, row, inv, sender, who, chat, sent)?;
    }
    Ok(())
}

fn channels(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    p: &str,
) -> Result<(), RuntimeError> {
    let table = format!("{p}BASECHANNEL");
    let c = schema.columns(&table);
    let sql = format!(
        "SELECT Z_PK AS pk, ZTSID AS id, {} FROM {table}",
        select(
            &c,
            "",
            &[
                ("ZCREATED", "created"),
                ("ZPURPOSELASTSET", "purpose_set"),
                ("ZTOPICLASTSET", "topic_set"),
                ("ZLATEST", "latest"),
                ("ZNAME", "name"),
                ("ZTSID1", "sid1"),
                ("ZUSERID", "user"),
                ("ZCREATORID", "creator"),
                ("ZPURPOSECREATORID", "purpose_creator"),
                ("ZPURPOSETEXT", "purpose"),
                ("ZTOPICCREATORID", "topic_creator"),
                ("ZTOPICTEXT", "topic"),
            ]
        )
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let name = t.get(row, "name").filter(|n| !n.is_empty()).unwrap_or(id);
        let mut d = Draft::new("messages", format!("Slack channel {name}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("sid1", FactType::Identifier, "id 1"),
                ("user", FactType::Account, "DM user"),
                ("creator", FactType::Account, "creator"),
                ("purpose_creator", FactType::Account, "purpose set by"),
                ("purpose", FactType::Text, "purpose"),
                ("topic_creator", FactType::Account, "topic set by"),
                ("topic", FactType::Text, "topic"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("created", "Slack channel created"),
                ("purpose_set", "Channel purpose set"),
                ("topic_set", "Channel topic set"),
                ("latest", "Latest message in channel"),
            ],
        );
        d.interpretation = format!(
            "{table} Z_PK {} of {path}: the Slack channel or DM {name} ({id}): {}; times are Unix seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
    }
    Ok(())
}
