//! Microsoft Teams on iOS: the Core Data store `SkypeSpacesDogfood/<account>/Skype*.sqlite` of
//! its app group, with the fields of iLEAPP's `teamsMessages`, `teamsContacts`, `teamsUser`,
//! `teamsCalls` and `teamsLocations`:
//!
//! - one `messages` phenomenon per `ZSMESSAGE` row: arrival and compose times, sent by the
//!   device's user (`ZTS_ISSENTBYME`), the sender's display name and MRI (`ZFROM`), the content as
//!   stored (Teams' HTML), the thread's id, type, topic and `ZTSID` (`ZTHREAD`), base and content
//!   types, the message's `ZTSID`;
//! - one `contacts` per `ZDEVICECONTACTHASH` row (the address-book entries Teams matched: name,
//!   e-mail, the number as stored and with iLEAPP's cleaning — `( ) - . ` and spaces removed —
//!   done in the query) and one per `ZUSER` row (last synced, display name, telephone number,
//!   and MRI, e-mail, user principal name, given name and surname where stored);
//! - one `calls` per message whose `ZMESSAGEPROPERTIES.ZPROPERTIES` (an archived dictionary read
//!   through `sqlite_query`'s `plists`, its JSON texts by `decode_nested`) holds a `call-log`: start, connect and end
//!   (ISO 8601), direction, type, state, originator and target MRIs and names;
//! - one `locations` per message whose properties hold `cards` with a shared location (the
//!   first card's body: action URL and title, text, URL, and the latitude, longitude, expiry —
//!   Unix ms — and device id of its `id` JSON).
//!
//! Identities: every MRI of a `ZUSER` or `ZSMESSAGE` row is `teams:<MRI>` (qualified in the
//! query), the id Android's Teams store keeps; a call party is the person of its MRI, qualified
//! by `sqlite_query`'s `qualify` in the call log `decode_nested` decodes; a message sent by the device's user names
//! its sender (`ZFROM`) as the device's user (`owner`). Schema drift: each table is read when it
//! has `Z_PK` and its key column, its other columns where present.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::photos::{fields, times};
use super::{Draft, Run, Schema, raw};
use crate::calls::select_columns as select;
use crate::drafts::date_text;
use crate::outputs::plist_cell;

/// Triage of every Teams store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Skype*.sqlite", |find, path| {
        if path.contains("/Containers/Shared/AppGroup/") && path.contains("/SkypeSpacesDogfood/") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZSMESSAGE",
        "ZTHREAD",
        "ZDEVICECONTACTHASH",
        "ZUSER",
        "ZMESSAGEPROPERTIES",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if ["ZSMESSAGE", "ZDEVICECONTACTHASH", "ZUSER"]
        .iter()
        .all(|t| schema.columns(t).is_empty())
    {
        run.ctx.unparsed(
            path,
            "could not parse Microsoft Teams' store because it has none of the tables ZSMESSAGE, ZDEVICECONTACTHASH, ZUSER",
            None,
        )?;
        return Ok(());
    }
    let has = |t: &str| !schema.columns(t).is_empty();
    if has("ZSMESSAGE") && schema.require(run, "ZSMESSAGE", &["Z_PK", "ZARRIVALTIME"])? {
        messages(run, find, path, &schema)?;
        if has("ZMESSAGEPROPERTIES")
            && schema.require(run, "ZMESSAGEPROPERTIES", &["ZTSID", "ZPROPERTIES"])?
            && schema.columns("ZSMESSAGE").contains("ZTSID")
        {
            properties(run, find, path, &schema)?;
        }
    }
    if has("ZDEVICECONTACTHASH") && schema.require(run, "ZDEVICECONTACTHASH", &["Z_PK"])? {
        contacts(run, find, path, &schema)?;
    }
    if has("ZUSER") && schema.require(run, "ZUSER", &["Z_PK", "ZDISPLAYNAME"])? {
        users(run, find, path, &schema)?;
    }
    Ok(())
}

/// `teams:<col>` as `alias`, or NULL when the column is missing or empty.
fn qualified(
    cols: &std::collections::BTreeSet<String>,
    prefix: &str,
    col: &str,
    alias: &str,
) -> String {
    crate::calls::qualified_or_null(cols, prefix, col, "teams", alias)
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let m = schema.columns("ZSMESSAGE");
    let th = schema.columns("ZTHREAD");
    let thread = |col: &str| {
        if th.contains("ZTSID") && th.contains(col) && m.contains("ZTHREADID") {
            format!("(SELECT t.{col} FROM ZTHREAD t WHERE t.ZTSID = m.ZTHREADID LIMIT 1)")
        } else {
            "NULL".into()
        }
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, m.ZARRIVALTIME AS arrival, {}, {} AS topic, {} AS thread_tsid, {} FROM ZSMESSAGE m)",
        select(
            &m,
            "m.",
            &[
                ("ZCOMPOSETIME", "compose"),
                ("ZIMDISPLAYNAME", "name"),
                ("ZCONTENT", "content"),
                ("ZFROM", "sender"),
                ("ZTHREADID", "thread"),
                ("ZTHREADTYPE", "thread_type"),
                ("ZTS_MESSAGEBASETYPE", "base_type"),
                ("ZTS_MESSAGECONTENTTYPE", "content_type"),
                ("ZTS_ISSENTBYME", "sent_by_me"),
                ("ZTSID", "id"),
            ],
        ),
        thread("ZTHREADTOPIC"),
        thread("ZTSID"),
        qualified(&m, "m.", "ZFROM", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let sender = t.get(row, "sender");
        let who = t
            .get(row, "name")
            .or(sender)
            .unwrap_or("an unnamed sender")
            .to_string();
        let chat = t
            .get(row, "topic")
            .or(t.get(row, "thread"))
            .unwrap_or("an unknown thread")
            .to_string();
        let sent = crate::drafts::stored_flag(t.get(row, "sent_by_me"));
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Teams message sent in {chat}"),
                _ => format!("Teams message from {who} in {chat}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "sender name"),
                ("sender", FactType::Account, "sender"),
                ("thread", FactType::Identifier, "thread"),
                ("thread_type", FactType::Text, "thread type"),
                ("topic", FactType::Name, "topic"),
                ("thread_tsid", FactType::Identifier, "thread ZTSID"),
                ("base_type", FactType::Text, "base type"),
                ("content_type", FactType::Text, "content type"),
                ("sent_by_me", FactType::Count, "sent by me"),
                ("id", FactType::Identifier, "message ZTSID"),
                ("content", FactType::Text, "content"),
            ],
        );
        let arrival = raw(t, row, "arrival");
        let enc = super::core_data_encoding(arrival.as_deref());
        match sent {
            Some(s) => d.message_time(arrival.as_deref(), enc, s, inv),
            None => d.time(arrival.as_deref(), enc, "Teams message arrived", inv),
        };
        let compose = raw(t, row, "compose");
        let enc = super::core_data_encoding(compose.as_deref()).or(date_text(compose.as_deref()));
        d.time(compose.as_deref(), enc, "Teams message composed", inv);
        d.interpretation = format!(
            "ZSMESSAGE Z_PK {} of {path}: a Microsoft Teams message by {who} in {chat}, {}; ZARRIVALTIME is Core Data seconds; the content is Teams' HTML as stored{}.",
            t.get(row, "pk").unwrap_or("?"),
            match sent {
                Some(true) => "sent by the device's user (ZTS_ISSENTBYME 1)",
                Some(false) => "received (ZTS_ISSENTBYME 0)",
                None => "direction not stored",
            },
            t.get(row, "thread_type")
                .map(|k| format!("; thread type {k}"))
                .unwrap_or_default(),
        );
        run.record(d)?;
        let Some(mri) = sender.filter(|_| t.get(row, "qualified").is_some()) else {
            continue;
        };
        let (context, label) = if sent == Some(true) {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (format!("teams:{mri}"), who.clone())
        };
        crate::identity::observe_columns(
            run.ctx,
            &context,
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Teams user id (MRI)"),
                ("name", IdType::DisplayName, "The display name"),
            ],
            &|what| {
                format!(
                    "{what} of the sender of a Teams message in {chat}{}.",
                    if sent == Some(true) {
                        ", sent by the device's user (ZTS_ISSENTBYME 1)"
                    } else {
                        ""
                    }
                )
            },
        )?;
    }
    Ok(())
}

fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let c = schema.columns("ZDEVICECONTACTHASH");
    let cleaned = if c.contains("ZPHONENUMBER") {
        "replace(replace(replace(replace(replace(ZPHONENUMBER, '(', ''), ')', ''), '-', ''), ' ', ''), '.', '')"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT Z_PK AS pk, {}, {cleaned} AS cleaned FROM ZDEVICECONTACTHASH",
        select(
            &c,
            "",
            &[
                ("ZDISPLAYNAME", "name"),
                ("ZEMAIL", "email"),
                ("ZPHONENUMBER", "phone"),
            ]
        ),
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let label = t
            .get(row, "name")
            .or(t.get(row, "email"))
            .or(t.get(row, "phone"))
            .unwrap_or("an unnamed contact")
            .to_string();
        let mut d = Draft::new("contacts", format!("Teams device contact {label}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("email", FactType::Email, "e-mail"),
                ("phone", FactType::Phone, "number"),
            ],
        );
        if t.get(row, "cleaned") != t.get(row, "phone") {
            d.fact(FactType::Phone, raw(t, row, "cleaned").as_deref(), inv);
        }
        d.interpretation = format!(
            "ZDEVICECONTACTHASH Z_PK {} of {path}: an address-book entry Microsoft Teams matched against its directory: {}.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        let Some(key) = t.get(row, "email").or(t.get(row, "cleaned")) else {
            continue;
        };
        crate::identity::observe_columns(
            run.ctx,
            &format!("teams-contact:{key}"),
            &label,
            t,
            row,
            inv,
            &[
                ("email", IdType::Email, "The e-mail"),
                ("phone", IdType::Phone, "The number"),
                ("name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of {label}, an address-book entry Teams matched."),
        )?;
    }
    Ok(())
}

fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let u = schema.columns("ZUSER");
    let sql = format!(
        "SELECT Z_PK AS pk, ZDISPLAYNAME AS name, {}, {} FROM ZUSER",
        select(
            &u,
            "",
            &[
                ("ZTS_LASTSYNCEDAT", "synced"),
                ("ZTELEPHONENUMBER", "phone"),
                ("ZMRI", "mri"),
                ("ZEMAIL", "email"),
                ("ZUSERPRINCIPALNAME", "upn"),
                ("ZGIVENNAME", "given"),
                ("ZSURNAME", "surname"),
            ]
        ),
        qualified(&u, "", "ZMRI", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let label = t
            .get(row, "name")
            .or(t.get(row, "email"))
            .or(t.get(row, "mri"))
            .unwrap_or("an unnamed user")
            .to_string();
        let mut d = Draft::new("contacts", format!("Teams user {label}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "display name"),
                ("given", FactType::Name, "given name"),
                ("surname", FactType::Name, "surname"),
                ("phone", FactType::Phone, "telephone number"),
                ("mri", FactType::Account, "MRI"),
                ("email", FactType::Email, "e-mail"),
                ("upn", FactType::Account, "user principal name"),
            ],
        );
        times(&mut d, t, row, inv, &[("synced", "Teams user last synced")]);
        d.interpretation = format!(
            "ZUSER Z_PK {} of {path}: {label}, a user Microsoft Teams cached: {}; ZTS_LASTSYNCEDAT is Core Data seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        let Some(key) = t.get(row, "mri").or(t.get(row, "email")) else {
            continue;
        };
        crate::identity::observe_columns(
            run.ctx,
            &format!("teams:{key}"),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Teams user id (MRI)"),
                ("email", IdType::Email, "The e-mail"),
                ("phone", IdType::Phone, "The telephone number"),
                ("name", IdType::DisplayName, "The display name"),
            ],
            &|what| format!("{what} of {label}, a user Microsoft Teams cached."),
        )?;
    }
    Ok(())
}

/// A scalar member of `v` as the output `cell` holds it (a string JSON-escaped inside the
/// `plist:` cell's one line, then cell-escaped); `None` when absent, empty, or not in the cell
/// (it would not ground).
fn member(v: &Value, key: &str, cell: &str) -> Option<String> {
    let written = match v.get(key)? {
        Value::String(s) if !s.is_empty() => crate::outputs::in_json_cell(s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => return None,
    };
    cell.contains(&written).then_some(written)
}

fn properties(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let m = schema.columns("ZSMESSAGE");
    let sql = format!(
        "SELECT * FROM (SELECT p.Z_PK AS pk, p.ZPROPERTIES AS props, {} FROM ZMESSAGEPROPERTIES p JOIN ZSMESSAGE m ON m.ZTSID = p.ZTSID WHERE p.ZPROPERTIES IS NOT NULL)",
        select(
            &m,
            "m.",
            &[
                ("ZCOMPOSETIME", "compose"),
                ("ZFROM", "sender"),
                ("ZIMDISPLAYNAME", "name"),
                ("ZCONTENT", "content"),
            ]
        ),
    );
    // the call log and cards are JSON text inside the archived dictionary (and a card's id
    // JSON text inside that): decoded by the tool, so their values print once, unescaped, and
    // the call parties' MRIs are qualified there
    let mut options = crate::calls::flags(&["plists", "decode_nested"]);
    options.insert(
        "qualify".into(),
        serde_json::json!({"originator": "teams", "target": "teams"}),
    );
    let Some(paged) = run.paged_args(path, &sql, "pk", &options)? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let Some(props) = t.get(row, "props").and_then(plist_cell) else {
            continue;
        };
        // an archived dictionary is unwrapped under its $top key
        let props = match props.get("root") {
            Some(root) if root.is_object() => root.clone(),
            _ => props,
        };
        let pk = t.get(row, "pk").unwrap_or("?");
        let cell = raw(t, row, "props").unwrap_or_default();
        if let Some(log) = props.get("call-log").filter(|v| v.is_object()) {
            call(run, find, path, inv, pk, log, &cell)?;
        }
        if let Some(cards) = props.get("cards").filter(|v| v.is_array()) {
            location(run, find, path, inv, t, row, cards, &cell)?;
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn call(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    pk: &str,
    log: &Value,
    cell: &str,
) -> Result<(), RuntimeError> {
    let s = |k: &str| member(log, k, cell);
    let participant = |k: &str| {
        log.get(k)
            .filter(|p| p.is_object())
            .and_then(|p| member(p, "displayName", cell))
    };
    let (from, to) = (
        participant("originatorParticipant"),
        participant("targetParticipant"),
    );
    let (originator, target) = (s("originator"), s("target"));
    let caller = from
        .clone()
        .or(originator.clone())
        .unwrap_or("an unknown caller".into());
    let callee = to
        .clone()
        .or(target.clone())
        .unwrap_or("an unknown participant".into());
    let mut d = Draft::new("calls", format!("Teams call from {caller} to {callee}"));
    d.fact(FactType::Path, Some(path), find);
    for v in [&from, &to] {
        d.fact(FactType::Name, v.as_deref(), inv);
    }
    for v in [&originator, &target] {
        d.fact(FactType::Account, v.as_deref(), inv);
    }
    for k in ["callDirection", "callType", "callState", "callId"] {
        d.fact(FactType::Text, s(k).as_deref(), inv);
    }
    for (k, what) in [
        ("startTime", "Call started"),
        ("connectTime", "Call connected"),
        ("endTime", "Call ended"),
    ] {
        let v = s(k);
        d.time(v.as_deref(), date_text(v.as_deref()), what, inv);
    }
    d.interpretation = format!(
        "ZMESSAGEPROPERTIES Z_PK {pk} of {path}: the call log (call-log JSON in the archived properties) of a Microsoft Teams {} call, direction {}, state {}, from {caller} to {callee}; times are ISO 8601.",
        s("callType").unwrap_or("(type not stored)".into()),
        s("callDirection").unwrap_or("not stored".into()),
        s("callState").unwrap_or("not stored".into()),
    );
    run.record(d)?;
    // the parties are persons by their MRIs, qualified by the tool in the decoded call log
    for (key, name, who) in [
        ("originator", &from, "the caller"),
        ("target", &to, "the called participant"),
    ] {
        let Some(id) = member(log, &format!("{key}.qualified"), cell) else {
            continue;
        };
        let why = |what: &str| {
            format!(
                "{what} of {who} of a Teams call (the call-log of ZMESSAGEPROPERTIES Z_PK {pk}, its {key} qualified by the tool)."
            )
        };
        let label = name.as_deref().unwrap_or(&id);
        crate::identity::observe(
            run.ctx,
            &id,
            masf_graph::EntityKind::Person,
            label,
            IdType::AccountId,
            &id,
            inv,
            why("The Teams user id (MRI)"),
        )?;
        if let Some(name) = name {
            crate::identity::observe(
                run.ctx,
                &id,
                masf_graph::EntityKind::Person,
                name,
                IdType::DisplayName,
                name,
                inv,
                why("The name"),
            )?;
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn location(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    cards: &Value,
    cell: &str,
) -> Result<(), RuntimeError> {
    let body = cards
        .get(0)
        .and_then(|c| c.get("content"))
        .and_then(|c| c.get("body"))
        .and_then(Value::as_array);
    let Some(card) = body.and_then(|b| b.first()) else {
        return Ok(());
    };
    let action = card.get("selectAction").filter(|a| a.is_object());
    let id = card.get("id").filter(|i| i.is_object());
    let at = |k: &str| id.and_then(|i| member(i, k, cell));
    let (lat, lon) = (at("latitude"), at("longitude"));
    let pk = t.get(row, "pk").unwrap_or("?");
    let who = t
        .get(row, "name")
        .or(t.get(row, "sender"))
        .unwrap_or("an unnamed sender")
        .to_string();
    let mut d = Draft::new(
        "locations",
        match (&lat, &lon) {
            (Some(a), Some(o)) => format!("Teams location {a}, {o} shared by {who}"),
            _ => format!("Teams card shared by {who}"),
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
            ("name", FactType::Name, "sender name"),
            ("content", FactType::Text, "content"),
        ],
    );
    let compose = raw(t, row, "compose");
    let enc = super::core_data_encoding(compose.as_deref()).or(date_text(compose.as_deref()));
    d.time(compose.as_deref(), enc, "Teams message composed", inv);
    d.fact(
        FactType::Url,
        action.and_then(|a| member(a, "url", cell)).as_deref(),
        inv,
    );
    d.fact(
        FactType::Text,
        action.and_then(|a| member(a, "title", cell)).as_deref(),
        inv,
    );
    d.fact(
        FactType::Text,
        body.and_then(|b| b.get(1))
            .and_then(|c| member(c, "text", cell))
            .as_deref(),
        inv,
    );
    d.fact(FactType::Url, member(card, "url", cell).as_deref(), inv);
    d.fact(FactType::Text, lat.as_deref(), inv);
    d.fact(FactType::Text, lon.as_deref(), inv);
    d.fact(FactType::Identifier, at("deviceId").as_deref(), inv);
    let expires = at("expiresAt");
    d.time(
        expires.as_deref(),
        crate::drafts::unix_millis(expires.as_deref()),
        "Shared location expires",
        inv,
    );
    d.interpretation = format!(
        "ZMESSAGEPROPERTIES Z_PK {pk} of {path}: a card {who} shared in a Microsoft Teams message{}{}; the card's id holds the position, its expiry (Unix milliseconds) and the sharing device's id{}.",
        match (&lat, &lon) {
            (Some(a), Some(o)) => format!(", a live location at {a}, {o}"),
            _ => String::new(),
        },
        action
            .and_then(|a| a.get("url"))
            .and_then(Value::as_str)
            .map(|u| format!(" (its action opens {u})"))
            .unwrap_or_default(),
        at("deviceId")
            .map(|d| format!(" ({d})"))
            .unwrap_or_default(),
    );
    run.record(d)?;
    Ok(())
}
