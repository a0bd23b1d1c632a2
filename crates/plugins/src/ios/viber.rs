//! Viber on iOS (the `group.viber.share.container` app group's `com.viber/` folder), the
//! identity half of iLEAPP's `viber` module:
//!
//! - `settings/Settings.data` (`Data` key/value): the account — user name, e-mail, phone number
//!   as typed, canonized (international digits) and formatted, country, Viber uid, device id,
//!   registration and last backup dates (iLEAPP's `viber_settings`); the `owner` by the
//!   canonized number (`+` and its digits, written by the query so that it grounds), the user
//!   name and the e-mail;
//! - `database/Contacts.data` (Core Data): one phenomenon per `ZABCONTACT` with its
//!   `ZABCONTACTNUMBER`s (main, prefix and suffix name, phone as typed and canonized, contact
//!   id: iLEAPP's `viber_contacts`), each number observed as that person's phone — under the
//!   address-book card that holds it when there is one, else `handle:<number>`;
//! - the same database's chats (iLEAPP's `viber_chats`): one phenomenon per `ZVIBERMESSAGE` —
//!   creation and state-change times (Core Data seconds), direction from `ZSTATE` (`send` and
//!   `delivered` out, `received` in), the conversation and its name, the sender member
//!   (`ZPHONENUMINDEX` → `ZMEMBER`, its names and `ZPHONENUMBER`s), text, system type, metadata,
//!   deleted, likes, disappearing-message timer, the attachment (name, type, size), the location
//!   (latitude, longitude) and, for a call, its `ZRECENT` log (date, type, duration); a
//!   received message's sender is observed by number; wallet addresses in a text are claims of
//!   its writer;
//! - the messages the table no longer shows that the write-ahead log, the file's replaced pages
//!   or its free space still hold (`sqlite_wal_history` on `ZVIBERMESSAGE`): deleted messages
//!   and earlier texts of edited ones, recorded as recovered with their conversation and sender
//!   named from the live `ZCONVERSATION` and `ZMEMBER`.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, file_name, raw};
use crate::calls::column_or_null;

/// The settings iLEAPP reports, with what each is.
const SETTINGS: &[(&str, &str)] = &[
    ("_myUserName", "user name"),
    ("_currentEmail", "e-mail"),
    ("_myPhoneNumber", "phone number"),
    ("_myCanonizedPhoneNumber", "canonized phone number"),
    ("_myFormattedPhoneNumber", "formatted phone number"),
    ("_myCountryPhoneCode", "country calling code"),
    ("_myCountryCode", "country"),
    ("_myLanguageCode", "language"),
    ("_uid", "Viber user id"),
    ("_appVersion", "app version"),
    ("_savedDeviceId", "device id"),
    ("_registrationDate", "registration date (Unix seconds)"),
    ("_lastBackupStartDate", "last backup start (Unix seconds)"),
    (
        "_autoBackupLastRunTime",
        "last automatic backup (Unix seconds)",
    ),
];

/// SQL writing the canonized number in `col` (international digits, no plus) as `+<digits>`
/// when `cond` holds and it is digits only, so that the international form grounds.
fn international(col: &str, cond: &str) -> String {
    format!(
        "CASE WHEN {cond}CAST({col} AS TEXT) GLOB '[1-9]*' AND NOT CAST({col} AS TEXT) GLOB '*[^0-9]*' THEN '+' || {col} END"
    )
}

/// Whether `path` is in Viber's folder.
fn is_viber(path: &str) -> bool {
    path.contains("/com.viber/")
}

/// Triage of Viber's settings and contacts.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Settings.data", |find, path| {
        if is_viber(path) {
            settings(run, find, path)?;
        }
        Ok(())
    })?;
    run.each("Contacts.data", |find, path| {
        if is_viber(path) {
            contacts(run, find, path)?;
            messages(run, find, path)?;
            recovered(run, find, path)?;
        }
        Ok(())
    })
}

fn settings(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["Data"])? else {
        return Ok(());
    };
    if !schema.require(run, "Data", &["key", "value"])? {
        return Ok(());
    }
    let keys = SETTINGS
        .iter()
        .map(|(k, _)| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ");
    // the canonized number is international digits without the plus: the query writes it
    let sql = format!(
        "SELECT key, value, {} AS international, CASE WHEN key = '_uid' AND CAST(value AS TEXT) != '' THEN 'viber:' || value END AS account FROM Data WHERE key IN ({keys}) ORDER BY key",
        international("value", "key = '_myCanonizedPhoneNumber' AND "),
    );
    let Some((inv, t)) = run.query(path, &sql, 100)? else {
        return Ok(());
    };
    if t.rows.is_empty() {
        return Ok(());
    }
    let mut d = Draft::new("accounts", "Viber account (Settings.data)");
    d.fact(FactType::Path, Some(path), find);
    let mut listed = Vec::new();
    for row in &t.rows {
        let (Some(key), Some(value)) = (t.get(row, "key"), raw(&t, row, "value")) else {
            continue;
        };
        let what = SETTINGS
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(key, |(_, w)| *w);
        let fact_type = match key {
            "_myPhoneNumber" | "_myFormattedPhoneNumber" => FactType::Phone,
            "_currentEmail" => FactType::Email,
            "_myUserName" => FactType::Name,
            "_uid" => FactType::Account,
            "_savedDeviceId" => FactType::Identifier,
            _ => FactType::Text,
        };
        if key.ends_with("Date") || key.ends_with("RunTime") {
            let seconds = t.get(row, "value");
            let encoding = seconds
                .filter(|v| !v.starts_with('-'))
                .and_then(|v| crate::drafts::unix_seconds(Some(v)));
            d.time(seconds, encoding, what, &inv);
        } else {
            d.fact(fact_type, Some(&value), &inv);
        }
        d.fact(
            FactType::Phone,
            raw(&t, row, "international").as_deref(),
            &inv,
        );
        listed.push(format!("{what} {value}"));
    }
    d.interpretation = format!(
        "Data rows of {}: the Viber account signed in on the device — {}.",
        file_name(path),
        listed.join("; ")
    );
    run.record(d)?;
    for row in &t.rows {
        let key = t.get(row, "key").unwrap_or("");
        let (id_type, value, what) = match key {
            "_myCanonizedPhoneNumber" => {
                (IdType::Phone, t.get(row, "international"), "phone number")
            }
            "_myUserName" => (IdType::DisplayName, t.get(row, "value"), "user name"),
            "_currentEmail" => (IdType::Email, t.get(row, "value"), "e-mail"),
            "_uid" => (IdType::AccountId, t.get(row, "account"), "user id"),
            _ => continue,
        };
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                id_type,
                v,
                &inv,
                format!("The Viber account's {what} ({key} of Settings.data)."),
            )?;
        }
    }
    Ok(())
}

fn contacts(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZABCONTACT", "ZABCONTACTNUMBER"])? else {
        return Ok(());
    };
    if !schema.require(run, "ZABCONTACT", &["Z_PK"])?
        || !schema.require(run, "ZABCONTACTNUMBER", &["ZCONTACT"])?
    {
        return Ok(());
    }
    let c = schema.columns("ZABCONTACT");
    let n = schema.columns("ZABCONTACTNUMBER");
    let digits = if n.contains("ZCANONIZEDPHONENUM") {
        international("n.ZCANONIZEDPHONENUM", "")
    } else {
        "NULL".to_string()
    };
    let sql = format!(
        "SELECT c.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {digits} AS international FROM ZABCONTACT c LEFT JOIN ZABCONTACTNUMBER n ON n.ZCONTACT = c.Z_PK",
        column_or_null(&c, "c.", "ZMAINNAME", "main"),
        column_or_null(&c, "c.", "ZPREFIXNAME", "prefix"),
        column_or_null(&c, "c.", "ZSUFFIXNAME", "suffix"),
        column_or_null(&c, "c.", "ZCONTACTID", "contact_id"),
        column_or_null(&n, "n.", "ZPHONE", "phone"),
        column_or_null(&n, "n.", "ZCANONIZEDPHONENUM", "canonized"),
    );
    let Some(paged) = run.paged(path, &sql, "c.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let name = t.get(row, "main").filter(|s| !s.is_empty());
        let number = t.get(row, "international").or(t.get(row, "phone"));
        let label = name.or(number).unwrap_or(pk).to_string();
        let mut d = Draft::new("contacts", format!("Viber contact {label}"));
        d.fact(FactType::Path, Some(path), find);
        for col in ["main", "prefix", "suffix"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(
            FactType::Identifier,
            raw(t, row, "contact_id").as_deref(),
            inv,
        );
        d.fact(FactType::Phone, raw(t, row, "phone").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "canonized").as_deref(), inv);
        d.fact(
            FactType::Phone,
            raw(t, row, "international").as_deref(),
            inv,
        );
        d.interpretation = format!(
            "ZABCONTACT Z_PK {pk} of {}: a contact Viber took from the phone book, {label}{}.",
            file_name(path),
            number
                .map(|p| format!(", number {p}"))
                .unwrap_or_else(|| ", with no number".to_string()),
        );
        run.record(d)?;
        let Some(p) = t.get(row, "international").filter(|p| !p.is_empty()) else {
            continue;
        };
        let Some(context) = run.handle_context(p) else {
            continue;
        };
        let why = |what: &str| format!("{what} of the Viber contact {label} (Contacts.data).");
        run.observe_person(
            &context,
            &label,
            inv,
            &why,
            &[
                (IdType::Phone, Some(p), "The phone number"),
                (IdType::DisplayName, name, "The name"),
            ],
        )?;
    }
    Ok(())
}

/// `ZVIBERMESSAGE` with its conversation, sender, attachment, location and call log.
fn messages(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZVIBERMESSAGE",
        "ZCONVERSATION",
        "ZMEMBER",
        "ZPHONENUMBER",
        "ZATTACHMENT",
        "ZVIBERLOCATION",
        "ZRECENT",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    let m = schema.columns("ZVIBERMESSAGE");
    if m.is_empty() {
        // an older store without chats: the contacts were read
        return Ok(());
    }
    if !schema.require(run, "ZVIBERMESSAGE", &["Z_PK", "ZCONVERSATION", "ZSTATE"])? {
        return Ok(());
    }
    let has = |t: &str, c: &str| schema.columns(t).contains(c);
    let col = |t: &str, alias_t: &str, c: &str, alias: &str| {
        if has(t, c) {
            format!("{alias_t}.{c} AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    // joins only where the linked table and its keys exist
    let mut joins = String::new();
    let conv = has("ZCONVERSATION", "Z_PK");
    if conv {
        joins.push_str(" LEFT JOIN ZCONVERSATION c ON c.Z_PK = m.ZCONVERSATION");
    }
    let member = has("ZMEMBER", "Z_PK") && m.contains("ZPHONENUMINDEX");
    if member {
        joins.push_str(" LEFT JOIN ZMEMBER s ON s.Z_PK = m.ZPHONENUMINDEX");
    }
    let number = member && has("ZPHONENUMBER", "ZMEMBER");
    if number {
        joins.push_str(" LEFT JOIN ZPHONENUMBER n ON n.Z_PK = (SELECT min(Z_PK) FROM ZPHONENUMBER WHERE ZMEMBER = m.ZPHONENUMINDEX)");
    }
    let attachment = has("ZATTACHMENT", "Z_PK") && m.contains("ZATTACHMENT");
    if attachment {
        joins.push_str(" LEFT JOIN ZATTACHMENT a ON a.Z_PK = m.ZATTACHMENT");
    }
    let location = has("ZVIBERLOCATION", "Z_PK") && m.contains("ZLOCATION");
    if location {
        joins.push_str(" LEFT JOIN ZVIBERLOCATION l ON l.Z_PK = m.ZLOCATION");
    }
    let recent = has("ZRECENT", "ZCALLLOGMESSAGE");
    if recent {
        joins.push_str(" LEFT JOIN ZRECENT r ON r.Z_PK = (SELECT min(Z_PK) FROM ZRECENT WHERE ZCALLLOGMESSAGE = m.Z_PK)");
    }
    let on = |ok: bool, t: &str, a: &str, c: &str, alias: &str| {
        if ok {
            col(t, a, c, alias)
        } else {
            format!("NULL AS {alias}")
        }
    };
    let canonized = if number && has("ZPHONENUMBER", "ZCANONIZEDPHONENUM") {
        international("n.ZCANONIZEDPHONENUM", "")
    } else {
        "NULL".to_string()
    };
    let select = [
        "m.Z_PK AS pk".to_string(),
        "m.ZCONVERSATION AS conversation".to_string(),
        "m.ZSTATE AS state".to_string(),
        col("ZVIBERMESSAGE", "m", "ZSTATEDATE", "created"),
        col("ZVIBERMESSAGE", "m", "ZDATE", "changed"),
        col("ZVIBERMESSAGE", "m", "ZTEXT", "text"),
        col("ZVIBERMESSAGE", "m", "ZSYSTEMTYPE", "system_type"),
        col("ZVIBERMESSAGE", "m", "ZMETADATA", "metadata"),
        col("ZVIBERMESSAGE", "m", "ZBEINGDELETED", "deleted"),
        col("ZVIBERMESSAGE", "m", "ZLIKESCOUNT", "likes"),
        col("ZVIBERMESSAGE", "m", "ZTIMEBOMBDURATION", "timer"),
        on(conv, "ZCONVERSATION", "c", "ZNAME", "chat_name"),
        on(member, "ZMEMBER", "s", "ZDISPLAYFULLNAME", "sender_name"),
        on(member, "ZMEMBER", "s", "ZDISPLAYSHORTNAME", "sender_short"),
        on(number, "ZPHONENUMBER", "n", "ZPHONE", "sender_phone"),
        format!("{canonized} AS sender_number"),
        on(attachment, "ZATTACHMENT", "a", "ZNAME", "attachment"),
        on(attachment, "ZATTACHMENT", "a", "ZTYPE", "attachment_type"),
        on(
            attachment,
            "ZATTACHMENT",
            "a",
            "ZFILESIZE",
            "attachment_size",
        ),
        on(location, "ZVIBERLOCATION", "l", "ZLATITUDE", "latitude"),
        on(location, "ZVIBERLOCATION", "l", "ZLONGITUDE", "longitude"),
        on(recent, "ZRECENT", "r", "ZDATE", "call_date"),
        on(recent, "ZRECENT", "r", "ZCALLTYPE", "call_type"),
        on(recent, "ZRECENT", "r", "ZDURATION", "call_duration"),
    ]
    .join(", ");
    let sql = format!("SELECT {select} FROM ZVIBERMESSAGE m{joins}");
    let Some(paged) = run.paged(path, &sql, "m.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let sent = matches!(t.get(row, "state"), Some("send") | Some("delivered"));
        let received = t.get(row, "state") == Some("received");
        let who = t
            .get(row, "sender_name")
            .or(t.get(row, "sender_number"))
            .or(t.get(row, "sender_phone"))
            .unwrap_or("an unnamed member");
        let chat = t
            .get(row, "chat_name")
            .map(str::to_string)
            .unwrap_or_else(|| {
                format!("conversation {}", t.get(row, "conversation").unwrap_or("?"))
            });
        let call = t.get(row, "call_type").is_some();
        let mut d = Draft::new(
            if call { "calls" } else { "messages" },
            match (call, sent) {
                (true, _) => format!(
                    "Viber call ({}) in {chat}",
                    t.get(row, "call_type").unwrap_or("?")
                ),
                (false, true) => format!("Viber message sent in {chat}"),
                (false, false) => format!("Viber message from {who}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, raw(t, row, "chat_name").as_deref(), inv);
        for col in ["sender_name", "sender_short"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Phone, raw(t, row, "sender_phone").as_deref(), inv);
        d.fact(
            FactType::Phone,
            raw(t, row, "sender_number").as_deref(),
            inv,
        );
        for col in [
            "text",
            "system_type",
            "metadata",
            "attachment_type",
            "latitude",
            "longitude",
            "call_type",
        ] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Name, raw(t, row, "attachment").as_deref(), inv);
        d.fact(FactType::Count, t.get(row, "attachment_size"), inv);
        d.fact(FactType::Count, t.get(row, "call_duration"), inv);
        for (col, what) in [
            (
                "created",
                if sent {
                    "Message sent"
                } else {
                    "Message received"
                },
            ),
            ("changed", "Message state changed"),
            ("call_date", "Call"),
        ] {
            let v = t.get(row, col);
            d.time(v, super::apple_encoding(v), what, inv);
        }
        d.interpretation = format!(
            "ZVIBERMESSAGE Z_PK {pk} of {}: a Viber {} in {chat}, {} (ZSTATE {}){}{}{}; times are Core Data seconds since 2001.",
            file_name(path),
            if call { "call" } else { "message" },
            if sent {
                "sent by the account's user".to_string()
            } else {
                format!("from {who}")
            },
            t.get(row, "state").unwrap_or("?"),
            if t.get(row, "deleted") == Some("1") {
                ", marked deleted"
            } else {
                ""
            },
            t.get(row, "timer")
                .filter(|v| *v != "0")
                .map(|v| format!(", disappearing after {v} s"))
                .unwrap_or_default(),
            if call {
                format!(", lasting {} s", t.get(row, "call_duration").unwrap_or("?"))
            } else {
                String::new()
            },
        );
        run.record(d)?;
        if sent && let Some(text) = t.get(row, "text") {
            run.message_claims(
                inv,
                text,
                &format!("Viber message {pk} ({})", file_name(path)),
                true,
                None,
                "ZSTATE send",
                "ZSTATE received",
            )?;
        }
        let Some(number) = t.get(row, "sender_number").filter(|_| received) else {
            continue;
        };
        let Some(context) = run.handle_context(number) else {
            continue;
        };
        run.observe_person(
            &context,
            who,
            inv,
            &|what| {
                format!("{what} of {who}, who sent a Viber message (ZMEMBER of ZPHONENUMINDEX).")
            },
            &[
                (IdType::Phone, Some(number), "The phone number"),
                (IdType::DisplayName, t.get(row, "sender_name"), "The name"),
            ],
        )?;
        if let Some(text) = t.get(row, "text") {
            run.message_claims(
                inv,
                text,
                &format!("Viber message {pk} ({})", file_name(path)),
                false,
                Some((context.clone(), who.to_string())),
                "ZSTATE send",
                "ZSTATE received",
            )?;
        }
    }
    Ok(())
}

/// Messages of `ZVIBERMESSAGE` that only earlier page versions or the free space hold.
fn recovered(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, t)) = run.wal_rows(path, "ZVIBERMESSAGE", &[])? else {
        return Ok(());
    };
    let lookup = |col: &str, table: &str, name: &str| -> Result<_, RuntimeError> {
        let select = format!("Z_PK AS pk, {name} AS name");
        match crate::recovered::lookup_sql(&t, col, table, "Z_PK", &select) {
            Some(sql) => run.query(path, &sql, 10_000),
            None => Ok(None),
        }
    };
    let chats = lookup("ZCONVERSATION", "ZCONVERSATION", "ZNAME")?;
    let members = lookup("ZPHONENUMINDEX", "ZMEMBER", "ZDISPLAYFULLNAME")?;
    fn named<'q>(
        q: &'q Option<(Invoked, crate::outputs::Table)>,
        key: Option<&str>,
    ) -> Option<(&'q Invoked, String)> {
        let (qinv, q) = q.as_ref()?;
        let key = key?;
        q.rows
            .iter()
            .find(|r| q.get(r, "pk") == Some(key))
            .and_then(|r| raw(q, r, "name"))
            .map(|n| (qinv, n))
    }
    for row in &t.rows {
        let pk = crate::recovered::key(&t, row, "Z_PK");
        let sent = matches!(t.get(row, "ZSTATE"), Some("send") | Some("delivered"));
        let chat = named(&chats, t.get(row, "ZCONVERSATION"));
        let sender = named(&members, t.get(row, "ZPHONENUMINDEX"));
        let chat_label = chat.as_ref().map(|(_, n)| n.clone()).unwrap_or_else(|| {
            format!(
                "conversation {}",
                t.get(row, "ZCONVERSATION").unwrap_or("?")
            )
        });
        let from = format!(
            "from {}",
            sender
                .as_ref()
                .map_or("an unnamed member", |(_, n)| n.as_str())
        );
        let mut d = Draft::new(
            "messages",
            format!(
                "{} Viber message {pk} {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                if sent {
                    format!("sent in {chat_label}")
                } else {
                    from.clone()
                }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        if let Some((cinv, n)) = &chat {
            d.fact(FactType::Name, Some(n), cinv);
        }
        if let Some((minv, n)) = &sender {
            d.fact(FactType::Name, Some(n), minv);
        }
        for col in ["ZTEXT", "ZSTATE", "ZSYSTEMTYPE", "ZMETADATA"] {
            d.fact(FactType::Text, raw(&t, row, col).as_deref(), &inv);
        }
        for (col, what) in [
            (
                "ZSTATEDATE",
                if sent {
                    "Message sent"
                } else {
                    "Message received"
                },
            ),
            ("ZDATE", "Message state changed"),
        ] {
            let v = t.get(row, col);
            d.time(v, super::apple_encoding(v), what, &inv);
        }
        d.interpretation = format!(
            "ZVIBERMESSAGE Z_PK {pk} of {}: a Viber message in {chat_label}, {} (ZSTATE {}): {}; times are Core Data seconds since 2001.",
            file_name(path),
            if sent {
                "sent by the account's user".to_string()
            } else {
                from
            },
            t.get(row, "ZSTATE").unwrap_or("?"),
            crate::recovered::provenance(&t, row)
        );
        run.record(d)?;
    }
    Ok(())
}
