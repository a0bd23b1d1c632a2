//! LINE (`jp.naver.line`): `Line.sqlite` (Core Data) — every user the app knows (`ZUSER`:
//! `ZMID`, `ZNAME`, `ZCUSTOMNAME` the name the owner gave, `ZADDRESSBOOKNAME`,
//! `ZSTATUSMESSAGE`, each where the layout has it), every chat (`ZCHAT`: the other user's or the
//! group's `ZMID`, `ZTYPE` 0 one to one, 1 room, 2 group) and every message (`ZMESSAGE`: chat,
//! sender — none when the owner sent it —, server id `ZID`, time, text, type), the fields the
//! public LINE readers report.
//!
//! `ZTIMESTAMP` is the server time in Unix milliseconds (a value below 10^11 is read as Core
//! Data seconds, as older copies keep). Identities: each user as `line:<mid>` (an account id,
//! namespaced by the query, `'line:' || ZMID`, so it is grounded) with its names. Wallets in a
//! text are claims of its writer: the owner when there is no sender, else the sender.
//!
//! The messages `ZMESSAGE` no longer shows that the write-ahead log, the file's replaced pages
//! or its free space still hold (`sqlite_wal_history`) are recorded as recovered — deleted
//! messages, earlier texts of edited ones — with the sender's and the chat's mid named from the
//! live `ZUSER` and `ZCHAT`.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, Run, file_name, raw, summarise};
use crate::calls::column_or_null;

/// The encoding of a LINE iOS time: Unix milliseconds, or Core Data seconds when small.
pub fn line_time(raw: Option<&str>) -> Option<TimeEncoding> {
    let v: f64 = raw?.trim().parse().ok()?;
    if !v.is_finite() || v <= 0.0 {
        return None;
    }
    Some(if v >= 1e11 {
        TimeEncoding::UnixMillis
    } else {
        TimeEncoding::AppleSeconds
    })
}

/// Triage of every `Line.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Line.sqlite", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZUSER", "ZCHAT", "ZMESSAGE"])? else {
        return Ok(());
    };
    if !schema.require(run, "ZUSER", &["Z_PK", "ZMID", "ZNAME"])?
        || !schema.require(run, "ZCHAT", &["Z_PK", "ZMID"])?
        || !schema.require(
            run,
            "ZMESSAGE",
            &["Z_PK", "ZCHAT", "ZSENDER", "ZTIMESTAMP", "ZTEXT"],
        )?
    {
        return Ok(());
    }
    let where_ = file_name(path);
    let users = schema.columns("ZUSER");
    let u = |c: &str, a: &str| column_or_null(&users, "u.", c, a);
    let sql = format!(
        "SELECT u.Z_PK AS pk, u.ZMID AS mid, 'line:' || u.ZMID AS account, u.ZNAME AS name, {}, {}, {} FROM ZUSER u",
        u("ZCUSTOMNAME", "custom"),
        u("ZADDRESSBOOKNAME", "book"),
        u("ZSTATUSMESSAGE", "status"),
    );
    if let Some(paged) = run.paged(path, &sql, "u.Z_PK")? {
        for (inv, t, row) in paged.rows() {
            let Some(mid) = raw(t, row, "mid") else {
                continue;
            };
            let name = raw(t, row, "name");
            let custom = raw(t, row, "custom");
            let book = raw(t, row, "book");
            let label = custom.clone().or(name.clone()).unwrap_or(mid.clone());
            let mut d = Draft::new("contacts", format!("LINE user {label}"));
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Account, Some(&mid), inv);
            d.fact(FactType::Name, name.as_deref(), inv);
            d.fact(FactType::Name, custom.as_deref(), inv);
            d.fact(FactType::Name, book.as_deref(), inv);
            d.fact(FactType::Text, raw(t, row, "status").as_deref(), inv);
            d.interpretation = format!(
                "ZUSER Z_PK {} of {where_}: the LINE user {mid}, named {} by LINE{}{}.",
                t.get(row, "pk").unwrap_or("?"),
                name.as_deref().unwrap_or("(none)"),
                custom
                    .as_deref()
                    .map(|c| format!(", {c} by the account's user"))
                    .unwrap_or_default(),
                book.as_deref()
                    .map(|b| format!(", {b} in the address book"))
                    .unwrap_or_default(),
            );
            run.record(d)?;
            let account = raw(t, row, "account");
            let why = |what: &str| format!("{what} of the LINE user {label} ({where_}).");
            run.observe_person(
                &format!("line:{mid}"),
                &label,
                inv,
                &why,
                &[
                    (IdType::AccountId, account.as_deref(), "The LINE mid"),
                    (IdType::DisplayName, name.as_deref(), "The LINE name"),
                    (
                        IdType::Nickname,
                        custom.as_deref(),
                        "The name the owner gave",
                    ),
                    (
                        IdType::DisplayName,
                        book.as_deref(),
                        "The address-book name",
                    ),
                ],
            )?;
        }
    }

    let chats = schema.columns("ZCHAT");
    let messages = schema.columns("ZMESSAGE");
    let sql = format!(
        "SELECT m.Z_PK AS pk, m.ZTIMESTAMP AS ts, m.ZSENDER AS sender, s.ZMID AS sender_mid, s.ZNAME AS sender_name, \
c.ZMID AS chat_mid, {}, {}, {}, m.ZTEXT AS text FROM ZMESSAGE m LEFT JOIN ZCHAT c ON c.Z_PK = m.ZCHAT \
LEFT JOIN ZUSER s ON s.Z_PK = m.ZSENDER",
        column_or_null(&chats, "c.", "ZTYPE", "chat_type"),
        column_or_null(&messages, "m.", "ZID", "server_id"),
        column_or_null(&messages, "m.", "ZMESSAGETYPE", "kind"),
    );
    let Some(paged) = run.paged(path, &sql, "m.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let sent = t.get(row, "sender").is_none();
        let chat = raw(t, row, "chat_mid");
        let sender = raw(t, row, "sender_mid");
        let one_to_one = t.get(row, "chat_type").is_none_or(|c| c == "0");
        let title = if sent {
            format!(
                "LINE message {pk} sent to {}",
                chat.as_deref().unwrap_or("an unknown chat")
            )
        } else {
            format!(
                "LINE message {pk} from {}",
                raw(t, row, "sender_name")
                    .or(sender.clone())
                    .unwrap_or_else(|| "?".into())
            )
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, chat.as_deref(), inv);
        d.fact(FactType::Account, sender.as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "server_id").as_deref(),
            inv,
        );
        let ts = raw(t, row, "ts");
        d.message_time(ts.as_deref(), line_time(ts.as_deref()), sent, inv);
        d.interpretation = format!(
            "ZMESSAGE Z_PK {pk} of {where_}: a LINE message {} in the chat {} (ZCHAT ZTYPE {}); ZTIMESTAMP is Unix milliseconds.",
            if sent {
                "sent by the account's user (no ZSENDER)".to_string()
            } else {
                format!("from {}", sender.as_deref().unwrap_or("?"))
            },
            chat.as_deref().unwrap_or("?"),
            t.get(row, "chat_type").unwrap_or("?"),
        );
        run.record(d)?;
        let Some(text) = t.get(row, "text") else {
            continue;
        };
        // the other side: the sender of a received message, the peer of a one-to-one chat
        let other = if sent {
            chat.filter(|_| one_to_one)
        } else {
            sender
        }
        .map(|m| (format!("line:{m}"), m));
        run.message_claims(
            inv,
            text,
            &format!("LINE message {pk} ({where_})"),
            sent,
            other,
            "no ZSENDER",
            "ZSENDER set",
        )?;
    }
    recovered(run, find, path)?;
    if paged.truncated {
        summarise(
            run,
            "messages",
            path,
            find,
            "LINE messages",
            "SELECT count(*) AS total, min(NULLIF(ZTIMESTAMP, 0)) AS first_time, max(ZTIMESTAMP) AS last_time FROM ZMESSAGE",
            line_time,
            "First message",
            "Last message",
        )?;
    }
    Ok(())
}

/// Messages of `ZMESSAGE` that only earlier page versions or the free space hold.
fn recovered(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, t)) = run.wal_rows(path, "ZMESSAGE", &[])? else {
        return Ok(());
    };
    let lookup = |col: &str, table: &str, names: &str| -> Result<_, RuntimeError> {
        let select = format!("Z_PK AS pk, ZMID AS mid, {names}");
        match crate::recovered::lookup_sql(&t, col, table, "Z_PK", &select) {
            Some(sql) => run.query(path, &sql, 10_000),
            None => Ok(None),
        }
    };
    let users = lookup("ZSENDER", "ZUSER", "ZNAME AS name")?;
    let chats = lookup("ZCHAT", "ZCHAT", "NULL AS name")?;
    let where_ = file_name(path);
    for row in &t.rows {
        let pk = crate::recovered::key(&t, row, "Z_PK");
        let sent = t.get(row, "ZSENDER").is_none();
        let find_in = |q: &Option<(Invoked, crate::outputs::Table)>, key: Option<&str>| {
            q.as_ref().and_then(|(qinv, q)| {
                let r = q.rows.iter().find(|r| q.get(r, "pk") == key)?;
                Some((qinv.clone(), raw(q, r, "mid")?, raw(q, r, "name")))
            })
        };
        let sender = find_in(&users, t.get(row, "ZSENDER")).filter(|_| !sent);
        let chat = find_in(&chats, t.get(row, "ZCHAT"));
        let title = if sent {
            format!(
                "{} LINE message {pk} sent to {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                chat.as_ref().map_or("an unknown chat", |c| c.1.as_str())
            )
        } else {
            format!(
                "{} LINE message {pk} from {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                sender
                    .as_ref()
                    .map_or("an unknown user", |s| s.2.as_deref().unwrap_or(&s.1))
            )
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        if let Some((cinv, mid, _)) = &chat {
            d.fact(FactType::Account, Some(mid), cinv);
        }
        if let Some((sinv, mid, name)) = &sender {
            d.fact(FactType::Account, Some(mid), sinv);
            d.fact(FactType::Name, name.as_deref(), sinv);
        }
        d.fact(FactType::Text, raw(&t, row, "ZTEXT").as_deref(), &inv);
        d.fact(FactType::Identifier, raw(&t, row, "ZID").as_deref(), &inv);
        let ts = raw(&t, row, "ZTIMESTAMP");
        d.message_time(ts.as_deref(), line_time(ts.as_deref()), sent, &inv);
        d.interpretation = format!(
            "ZMESSAGE Z_PK {pk} of {where_}: a LINE message {} in the chat {}: {}; ZTIMESTAMP is Unix milliseconds.",
            if sent {
                "sent by the account's user (no ZSENDER)".to_string()
            } else {
                format!(
                    "from {}",
                    sender
                        .as_ref()
                        .map_or("a user no longer listed", |s| s.1.as_str())
                )
            },
            chat.as_ref().map_or("?", |c| c.1.as_str()),
            crate::recovered::provenance(&t, row)
        );
        run.record(d)?;
    }
    Ok(())
}
