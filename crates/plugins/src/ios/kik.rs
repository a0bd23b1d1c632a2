//! Kik Messenger (`kik.sqlite`, Core Data): every user the app knows (`ZKIKUSER`: user name,
//! display name, first and last name, e-mail, JID, profile picture time and URL) and every
//! message (`ZKIKMESSAGE`: sent and received times, type — 1 received, 2 sent, 3 and 4 group
//! housekeeping —, state, body, the user it was exchanged with, its attachment's content id),
//! the fields of iLEAPP's `kikMessages`/`kikUsers` and plaso's `kik_ios`.
//!
//! Messages are joined to their user on `ZKIKMESSAGE.ZUSER = ZKIKUSER.Z_PK` (iLEAPP's join;
//! plaso joins on `ZKIKUSER.ZEXTRA`, which differs for some rows and credits the welcome
//! message of `kikteam` to another user). Identities: each user's JID (`…@talk.kik.com`, a
//! global account id) with its user name and display name, as `kik:<Z_PK>`; group JIDs
//! (`…@groups.kik.com`) are no person. Wallet addresses in a sent message are the owner's
//! claims; a received one is its user's. Times are Core Data seconds since 2001 (`apple_seconds`);
//! `ZPPTIMESTAMP` is Unix milliseconds as text (`unix_millis`).

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, apple_encoding, file_name, raw, summarise};
use crate::calls::column_or_null;
use crate::drafts::unix_millis;

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(ZTIMESTAMP, 0)) AS first_time, max(ZTIMESTAMP) AS last_time FROM ZKIKMESSAGE";

/// Triage of every `kik.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("kik.sqlite", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZKIKUSER", "ZKIKMESSAGE", "ZKIKATTACHMENT"])? else {
        return Ok(());
    };
    if !schema.require(run, "ZKIKUSER", &["ZUSERNAME", "ZDISPLAYNAME", "ZJID"])?
        || !schema.require(
            run,
            "ZKIKMESSAGE",
            &[
                "ZUSER",
                "ZTYPE",
                "ZBODY",
                "ZTIMESTAMP",
                "ZRECEIVEDTIMESTAMP",
            ],
        )?
    {
        return Ok(());
    }
    let users = schema.columns("ZKIKUSER");
    let u = |c: &str, alias: &str| column_or_null(&users, "u.", c, alias);
    let user_sql = format!(
        "SELECT u.Z_PK AS pk, u.ZUSERNAME AS username, u.ZDISPLAYNAME AS display, u.ZJID AS jid, {}, {}, {}, {}, {} FROM ZKIKUSER u",
        u("ZFIRSTNAME", "first"),
        u("ZLASTNAME", "last"),
        u("ZEMAIL", "email"),
        u("ZPPTIMESTAMP", "pic_time"),
        u("ZPPURL", "pic_url"),
    );
    let where_ = format!("Kik ({})", file_name(path));
    if let Some(paged) = run.paged(path, &user_sql, "u.Z_PK")? {
        for (inv, t, row) in paged.rows() {
            let pk = raw(t, row, "pk").unwrap_or_default();
            let jid = raw(t, row, "jid");
            let username = raw(t, row, "username");
            let display = raw(t, row, "display");
            let group = jid
                .as_deref()
                .is_some_and(|j| j.ends_with("@groups.kik.com"));
            let mut d = Draft::new(
                "contacts",
                format!(
                    "Kik {} {}",
                    if group { "group" } else { "user" },
                    username.as_deref().or(display.as_deref()).unwrap_or(&pk)
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Account, username.as_deref(), inv);
            d.fact(FactType::Name, display.as_deref(), inv);
            d.fact(FactType::Name, raw(t, row, "first").as_deref(), inv);
            d.fact(FactType::Name, raw(t, row, "last").as_deref(), inv);
            d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
            d.fact(FactType::Identifier, jid.as_deref(), inv);
            d.fact(FactType::Url, raw(t, row, "pic_url").as_deref(), inv);
            let pic = raw(t, row, "pic_time");
            d.time(
                pic.as_deref(),
                unix_millis(pic.as_deref()),
                "Profile picture set",
                inv,
            );
            d.interpretation = format!(
                "ZKIKUSER Z_PK {pk} of {path}: a Kik {} known to the app, user name {}, display name {}, JID {}.",
                if group { "group" } else { "user" },
                username.as_deref().unwrap_or("(none)"),
                display.as_deref().unwrap_or("(none)"),
                jid.as_deref().unwrap_or("(none)"),
            );
            run.record(d)?;
            let (Some(jid), false) = (jid.as_deref(), group) else {
                continue;
            };
            let context = format!("kik:{pk}");
            let label = display.as_deref().or(username.as_deref()).unwrap_or(jid);
            let why = |what: &str| format!("{what} of the Kik user {label} ({where_}).");
            run.observe(
                &context,
                EntityKind::Person,
                label,
                IdType::AccountId,
                jid,
                inv,
                why("The Kik JID"),
            )?;
            if let Some(n) = &username {
                run.observe(
                    &context,
                    EntityKind::Person,
                    label,
                    IdType::Nickname,
                    n,
                    inv,
                    why("The Kik user name"),
                )?;
            }
            if let Some(n) = &display {
                run.observe(
                    &context,
                    EntityKind::Person,
                    label,
                    IdType::DisplayName,
                    n,
                    inv,
                    why("The display name"),
                )?;
            }
        }
    }

    let messages = schema.columns("ZKIKMESSAGE");
    let attachment = if schema.columns("ZKIKATTACHMENT").is_empty() {
        "NULL".to_string()
    } else {
        "(SELECT group_concat(a.ZCONTENT, ' | ') FROM ZKIKATTACHMENT a WHERE a.ZMESSAGE = m.Z_PK)"
            .to_string()
    };
    let message_sql = format!(
        "SELECT m.Z_PK AS pk, m.ZTYPE AS type, {}, m.ZTIMESTAMP AS ts, m.ZRECEIVEDTIMESTAMP AS received, \
m.ZBODY AS body, m.ZUSER AS user, u.ZUSERNAME AS username, u.ZDISPLAYNAME AS display, \
{attachment} AS attachment FROM ZKIKMESSAGE m LEFT JOIN ZKIKUSER u ON u.Z_PK = m.ZUSER",
        column_or_null(&messages, "m.", "ZSTATE", "state"),
    );
    let Some(paged) = run.paged(path, &message_sql, "m.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let kind = t.get(row, "type").unwrap_or("?");
        let (label, sent) = match kind {
            "1" => ("received", false),
            "2" => ("sent", true),
            "3" => ("group housekeeping (admin)", true),
            "4" => ("group housekeeping", false),
            _ => ("of an unknown type", false),
        };
        let who = raw(t, row, "username").or_else(|| raw(t, row, "display"));
        let mut d = Draft::new(
            "messages",
            format!(
                "Kik message {pk} {label} {} {}",
                if sent { "with" } else { "from" },
                who.as_deref().unwrap_or("an unknown user")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, who.as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "display").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "body").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "attachment").as_deref(),
            inv,
        );
        d.fact(FactType::Count, raw(t, row, "state").as_deref(), inv);
        let ts = raw(t, row, "ts");
        d.time(
            ts.as_deref(),
            apple_encoding(ts.as_deref()),
            "Message time",
            inv,
        );
        let received = raw(t, row, "received");
        d.time(
            received.as_deref(),
            apple_encoding(received.as_deref()),
            "Message received by the server or device",
            inv,
        );
        d.interpretation = format!(
            "ZKIKMESSAGE Z_PK {pk} of {path}: a message {label} (ZTYPE {kind}, ZSTATE {}) exchanged with the Kik user {} (ZUSER {}); times are Core Data seconds since the Apple epoch (apple_seconds).",
            t.get(row, "state").unwrap_or("?"),
            who.as_deref().unwrap_or("?"),
            t.get(row, "user").unwrap_or("?"),
        );
        run.record(d)?;
        if let Some(text) = t.get(row, "body").filter(|_| kind == "1" || kind == "2") {
            let other = raw(t, row, "user").map(|u| {
                (
                    format!("kik:{u}"),
                    format!("the Kik user {}", who.as_deref().unwrap_or("?")),
                )
            });
            run.message_claims(
                inv,
                text,
                &format!("Kik message {pk} ({})", file_name(path)),
                sent,
                other,
                "ZTYPE 2",
                "ZTYPE 1",
            )?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "messages",
            path,
            find,
            "Kik messages",
            SUMMARY_SQL,
            apple_encoding,
            "First message",
            "Last message",
        )?;
    }
    recovered(run, find, path)
}

/// Messages `ZKIKMESSAGE` no longer shows that earlier page versions hold (deleted since the
/// last checkpoint, or changed): one phenomenon each, the user named from the live `ZKIKUSER`.
fn recovered(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, t)) = run.wal_rows(path, "ZKIKMESSAGE", &[])? else {
        return Ok(());
    };
    let users = match crate::recovered::lookup_sql(
        &t,
        "ZUSER",
        "ZKIKUSER",
        "Z_PK",
        "Z_PK AS pk, ZUSERNAME AS username, ZDISPLAYNAME AS display",
    ) {
        Some(sql) => run.query(path, &sql, 10_000)?,
        None => None,
    };
    for row in &t.rows {
        let pk = crate::recovered::key(&t, row, "Z_PK");
        let kind = t.get(row, "ZTYPE").unwrap_or("?");
        let (label, sent) = match kind {
            "1" => ("received", false),
            "2" => ("sent", true),
            "3" => ("group housekeeping (admin)", true),
            "4" => ("group housekeeping", false),
            _ => ("of an unknown type", false),
        };
        let user = t.get(row, "ZUSER").and_then(|z| {
            users.as_ref().and_then(|(uinv, u)| {
                u.rows
                    .iter()
                    .find(|r| u.get(r, "pk") == Some(z))
                    .and_then(|r| raw(u, r, "username").or_else(|| raw(u, r, "display")))
                    .map(|n| (uinv, n))
            })
        });
        let mut d = Draft::new(
            "messages",
            format!(
                "{} Kik message {pk} {label} {} {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                if sent { "with" } else { "from" },
                user.as_ref()
                    .map(|(_, n)| n.as_str())
                    .unwrap_or("an unknown user")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        if let Some((uinv, n)) = &user {
            d.fact(FactType::Account, Some(n), uinv);
        }
        d.fact(FactType::Text, raw(&t, row, "ZBODY").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "ZSTANZAID").as_deref(),
            &inv,
        );
        let ts = raw(&t, row, "ZTIMESTAMP");
        d.time(
            ts.as_deref(),
            apple_encoding(ts.as_deref()),
            "Message time",
            &inv,
        );
        d.interpretation = format!(
            "ZKIKMESSAGE Z_PK {pk} of {path}: a message {label} (ZTYPE {kind}): {}; times are Core Data seconds since the Apple epoch (apple_seconds).",
            crate::recovered::provenance(&t, row)
        );
        run.record(d)?;
    }
    Ok(())
}
