//! Threema on iOS: the Core Data store `ThreemaData.sqlite` of its app group, with the fields of
//! iLEAPP's `threema_chats` and `threema_users`:
//!
//! - one `messages` phenomenon per `ZMESSAGE` row (its entity named by `Z_PRIMARYKEY`): time
//!   (Core Data seconds), sent by the device's user (`ZISOWN`), read, the entity (text, image,
//!   video, audio, file, location, ballot, system message), text or caption, the conversation
//!   (its `Z_PK`, group name, or the contact's name as iLEAPP builds it — computed in the query),
//!   the sender (a group member's contact, or a one-to-one conversation's contact for a received
//!   message) with its Threema ID and name, file name and MIME type, latitude, longitude and
//!   accuracy, and the attachment of an audio, video, image or file message: the name of its
//!   external file (`.ThreemaData_SUPPORT/_EXTERNAL_DATA/<uuid>`, data `0x02 uuid 0x00`) or the
//!   size of the bytes kept in the row (data `0x01 …`), both read in the query; delivered and
//!   read times where stored. iLEAPP leaves system messages out; they are read here, titled so;
//! - one `contacts` phenomenon per `ZCONTACT` row: Threema ID, first and last name, public
//!   nickname, address-book contact id (`ZCNCONTACTID`), verification level where stored.
//!
//! Identities: every contact is `threema:<Threema ID>` (qualified in the query) with its names
//! and its address-book contact id (`contact_guid`: the person the address book's card holds);
//! wallet addresses in a text are claims of its writer. The store does not name the device's
//! own Threema ID. Schema drift: each table is read when it has its key columns, the others
//! where present.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, Schema, raw};

/// Triage of every Threema store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("ThreemaData.sqlite", |find, path| {
        if path.contains("/Containers/Shared/AppGroup/") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZMESSAGE",
        "ZCONVERSATION",
        "ZCONTACT",
        "Z_PRIMARYKEY",
        "ZAUDIODATA",
        "ZVIDEODATA",
        "ZIMAGEDATA",
        "ZFILEDATA",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if schema.columns("ZMESSAGE").is_empty() && schema.columns("ZCONTACT").is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse Threema's ThreemaData.sqlite because it has neither ZMESSAGE nor ZCONTACT",
            None,
        )?;
        return Ok(());
    }
    if !schema.columns("ZCONTACT").is_empty()
        && schema.require(run, "ZCONTACT", &["Z_PK", "ZIDENTITY"])?
    {
        contacts(run, find, path, &schema)?;
    }
    if !schema.columns("ZMESSAGE").is_empty()
        && schema.require(run, "ZMESSAGE", &["Z_PK", "ZDATE", "ZCONVERSATION"])?
    {
        messages(run, find, path, &schema)?;
        recovered(run, find, path)?;
    }
    Ok(())
}

/// A contact's name as iLEAPP builds it (first and last name, else the public nickname).
fn name_of(schema: &Schema, alias: &str) -> String {
    let c = |x: &str| schema.col(alias, "ZCONTACT", x);
    let (first, last, nick) = (c("ZFIRSTNAME"), c("ZLASTNAME"), c("ZPUBLICNICKNAME"));
    format!(
        "CASE WHEN {first} IS NOT NULL AND {last} IS NULL THEN {first} WHEN {first} IS NOT NULL AND {last} IS NOT NULL THEN {first} || ' ' || {last} WHEN {first} IS NULL AND {last} IS NOT NULL THEN {last} ELSE {nick} END"
    )
}

fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let c = |x: &str| schema.col("c", "ZCONTACT", x);
    let sql = format!(
        "SELECT c.Z_PK AS pk, c.ZIDENTITY AS identity, {} AS first, {} AS last, {} AS nickname, {} AS cn_id, {} AS verification, {} AS name, \
CASE WHEN c.ZIDENTITY IS NOT NULL AND c.ZIDENTITY != '' THEN 'threema:' || c.ZIDENTITY END AS qualified FROM ZCONTACT c",
        c("ZFIRSTNAME"),
        c("ZLASTNAME"),
        c("ZPUBLICNICKNAME"),
        c("ZCNCONTACTID"),
        c("ZVERIFICATIONLEVEL"),
        name_of(schema, "c"),
    );
    let Some(paged) = run.paged(path, &sql, "c.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let Some(id) = t.get(row, "identity") else {
            continue;
        };
        let label = t.get(row, "name").unwrap_or(id).to_string();
        let mut d = Draft::new("contacts", format!("Threema contact {label} ({id})"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("identity", FactType::Account, "Threema ID"),
                ("first", FactType::Name, "first name"),
                ("last", FactType::Name, "last name"),
                ("nickname", FactType::Name, "public nickname"),
                ("cn_id", FactType::Identifier, "address-book contact id"),
                ("verification", FactType::Count, "verification level"),
            ],
        );
        d.interpretation = format!(
            "ZCONTACT Z_PK {} of {path}: a Threema contact: {}.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        crate::identity::observe_columns(
            run.ctx,
            &format!("threema:{id}"),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Threema ID"),
                ("name", IdType::DisplayName, "The name"),
                ("nickname", IdType::Nickname, "The public nickname"),
                ("cn_id", IdType::ContactGuid, "The address-book contact id"),
            ],
            &|what| format!("{what} of {label}, a Threema contact."),
        )?;
    }
    Ok(())
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let m = |x: &str| schema.col("m", "ZMESSAGE", x);
    let has = |t: &str, c: &str| schema.columns(t).contains(c);
    // the attachment data of an audio, video, image or file message, where the tables link it
    let mut joins = String::new();
    let mut data = Vec::new();
    for (alias, table, link) in [
        ("ad", "ZAUDIODATA", "ZAUDIO"),
        ("vd", "ZVIDEODATA", "ZVIDEO"),
        ("id", "ZIMAGEDATA", "ZIMAGE"),
    ] {
        if has(table, "ZDATA") && has(table, "Z_PK") && has("ZMESSAGE", link) {
            joins.push_str(&format!(
                " LEFT JOIN {table} {alias} ON {alias}.Z_PK = m.{link}"
            ));
            data.push(format!("{alias}.ZDATA"));
        }
    }
    if has("ZFILEDATA", "ZDATA") && has("ZFILEDATA", "ZMESSAGE") {
        joins.push_str(" LEFT JOIN ZFILEDATA fd ON fd.ZMESSAGE = m.Z_PK");
        data.push("fd.ZDATA".into());
    }
    let media = if data.is_empty() {
        "NULL".to_string()
    } else {
        format!("coalesce({}, NULL)", data.join(", "))
    };
    let (contact_join, contact) = if has("ZCONTACT", "Z_PK") && has("ZCONVERSATION", "ZCONTACT") {
        (
            " LEFT JOIN ZCONTACT cont ON cont.Z_PK = conv.ZCONTACT",
            schema.col("cont", "ZCONTACT", "ZIDENTITY"),
        )
    } else {
        ("", "NULL".to_string())
    };
    let sender_join = if has("ZCONTACT", "Z_PK") && has("ZMESSAGE", "ZSENDER") {
        " LEFT JOIN ZCONTACT sd ON sd.Z_PK = m.ZSENDER"
    } else {
        ""
    };
    let sender_id = if sender_join.is_empty() {
        "NULL".to_string()
    } else {
        schema.col("sd", "ZCONTACT", "ZIDENTITY")
    };
    let group = schema.col("conv", "ZCONVERSATION", "ZGROUPNAME");
    let group_id = schema.col("conv", "ZCONVERSATION", "ZGROUPID");
    let is_group = format!("({group} IS NOT NULL OR {group_id} IS NOT NULL)");
    let chat_name = if contact_join.is_empty() {
        group.clone()
    } else {
        format!(
            "CASE WHEN {group} IS NOT NULL THEN {group} ELSE {} END",
            name_of(schema, "cont")
        )
    };
    // iLEAPP's sender name: a group member's, else the conversation's (none for the device's
    // own messages: the store does not name its user)
    let sender_name = if sender_join.is_empty() {
        format!(
            "CASE WHEN {} = 1 THEN NULL ELSE {chat_name} END",
            m("ZISOWN")
        )
    } else {
        format!(
            "CASE WHEN {} = 1 THEN NULL WHEN m.ZSENDER IS NOT NULL THEN {} ELSE {chat_name} END",
            m("ZISOWN"),
            name_of(schema, "sd")
        )
    };
    let entity = if has("Z_PRIMARYKEY", "Z_NAME") && has("ZMESSAGE", "Z_ENT") {
        "(SELECT p.Z_NAME FROM Z_PRIMARYKEY p WHERE p.Z_ENT = m.Z_ENT)"
    } else {
        "NULL"
    };
    // the sender's Threema ID: a group member's contact, or a received one-to-one message's
    // conversation contact
    let sender = format!(
        "coalesce({sender_id}, CASE WHEN NOT {is_group} AND {own} = 0 THEN {contact} END)",
        own = m("ZISOWN"),
    );
    let sql = format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, m.ZDATE AS time, {own} AS own, {read} AS read, {entity} AS entity, \
CASE WHEN {text} IS NOT NULL THEN {text} ELSE {caption} END AS text, {file} AS file, {mime} AS mime, {lat} AS lat, {lon} AS lon, {acc} AS accuracy, \
{delivered} AS delivered, {read_at} AS read_at, conv.Z_PK AS chat, {group} AS group_name, {chat_name} AS chat_name, {contact} AS contact, \
{sender} AS sender, {sender_name} AS sender_name, \
CASE WHEN {sender} IS NOT NULL THEN 'threema:' || {sender} END AS qualified, \
CASE WHEN substr({media}, 1, 1) = x'02' AND substr({media}, -1, 1) = x'00' THEN CAST(substr({media}, 2, length({media}) - 2) AS TEXT) END AS media_file, \
CASE WHEN substr({media}, 1, 1) = x'01' THEN length({media}) - 1 END AS media_bytes, \
CASE WHEN {is_group} THEN 1 ELSE 0 END AS is_group \
FROM ZMESSAGE m LEFT JOIN ZCONVERSATION conv ON conv.Z_PK = m.ZCONVERSATION{contact_join}{sender_join}{joins})",
        own = m("ZISOWN"),
        read = m("ZREAD"),
        text = m("ZTEXT"),
        caption = m("ZCAPTION"),
        file = m("ZFILENAME"),
        mime = m("ZMIMETYPE"),
        lat = m("ZLATITUDE"),
        lon = m("ZLONGITUDE"),
        acc = m("ZACCURACY"),
        delivered = m("ZDELIVERYDATE"),
        read_at = m("ZREADDATE"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let sent = crate::drafts::stored_flag(t.get(row, "own"));
        let entity = t.get(row, "entity").unwrap_or("Message");
        let kind = entity
            .strip_suffix("Message")
            .filter(|k| !k.is_empty())
            .map(str::to_lowercase)
            .unwrap_or_else(|| "message".into());
        let chat = t
            .get(row, "chat_name")
            .or(t.get(row, "contact"))
            .unwrap_or("an unnamed conversation")
            .to_string();
        let who = t
            .get(row, "sender_name")
            .or(t.get(row, "sender"))
            .unwrap_or("an unknown sender")
            .to_string();
        let system = entity == "SystemMessage";
        let mut d = Draft::new(
            "messages",
            if system {
                format!("Threema system message in {chat}")
            } else {
                match sent {
                    Some(true) => format!("Threema {kind} message sent in {chat}"),
                    _ => format!("Threema {kind} message from {who} in {chat}"),
                }
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("entity", FactType::Text, "entity"),
                ("own", FactType::Count, "own"),
                ("read", FactType::Count, "read"),
                ("chat", FactType::Identifier, "conversation"),
                ("chat_name", FactType::Name, "conversation name"),
                ("contact", FactType::Account, "conversation contact"),
                ("sender", FactType::Account, "sender"),
                ("sender_name", FactType::Name, "sender name"),
                ("file", FactType::Name, "file name"),
                ("mime", FactType::Text, "MIME type"),
                ("lat", FactType::Text, "latitude"),
                ("lon", FactType::Text, "longitude"),
                ("accuracy", FactType::Text, "accuracy"),
                ("media_file", FactType::Name, "external attachment file"),
                (
                    "media_bytes",
                    FactType::Count,
                    "attachment bytes kept in the row",
                ),
            ],
        );
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        let time = raw(t, row, "time");
        let enc = super::core_data_encoding(time.as_deref());
        match sent {
            Some(s) => d.message_time(time.as_deref(), enc, s, inv),
            None => d.time(time.as_deref(), enc, "Threema message", inv),
        };
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("delivered", "Message delivered"),
                ("read_at", "Message read"),
            ],
        );
        d.interpretation = format!(
            "ZMESSAGE Z_PK {pk} of {path}: a Threema {} in {chat}, {}; {}{}; ZDATE is Core Data seconds.",
            if system {
                "system message".to_string()
            } else {
                format!("{kind} message")
            },
            match sent {
                Some(true) => "sent by the device's user (ZISOWN 1)".to_string(),
                Some(false) => format!("received from {who} (ZISOWN 0)"),
                None => "direction not stored".to_string(),
            },
            said.join(", "),
            t.get(row, "media_file")
                .map(|f| format!(
                    "; its attachment is the external file {f} of the store's _EXTERNAL_DATA folder"
                ))
                .unwrap_or_default(),
        );
        run.record(d)?;
        if sent == Some(true) || system {
            // the device's own Threema ID is not in the store
        } else if let Some(id) = t.get(row, "sender") {
            crate::identity::observe_columns(
                run.ctx,
                &format!("threema:{id}"),
                &who,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Threema ID"),
                    ("sender_name", IdType::DisplayName, "The name"),
                ],
                &|what| format!("{what} of the sender of a Threema message in {chat}."),
            )?;
        }
        // wallet claims: the writer by the direction; a one-to-one conversation's contact the
        // other side
        let (Some(text), Some(s)) = (t.get(row, "text"), sent) else {
            continue;
        };
        if system {
            continue;
        }
        let one_to_one = t.get(row, "is_group") == Some("0");
        let other = if s {
            t.get(row, "contact").filter(|_| one_to_one)
        } else {
            t.get(row, "sender")
        };
        let context = other.map(|id| format!("threema:{id}"));
        crate::identity::claims_by_direction(
            run.ctx,
            inv,
            text,
            &format!("Threema message ZMESSAGE Z_PK {pk}"),
            s,
            context.as_deref().zip(other),
        )?;
    }
    Ok(())
}

/// Messages of `ZMESSAGE` that only earlier page versions or the free space hold
/// (`sqlite_wal_history`): text, caption, file name, time, direction (`ZISOWN`), and the
/// sender's Threema ID and name from the live `ZCONTACT`.
fn recovered(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, t)) = run.wal_rows(path, "ZMESSAGE", &[])? else {
        return Ok(());
    };
    let contacts = match crate::recovered::lookup_sql(
        &t,
        "ZSENDER",
        "ZCONTACT",
        "Z_PK",
        "Z_PK AS pk, ZIDENTITY AS identity, coalesce(trim(coalesce(ZFIRSTNAME, '') || ' ' || coalesce(ZLASTNAME, '')), '') AS name, ZPUBLICNICKNAME AS nick",
    ) {
        Some(sql) => run.query(path, &sql, 10_000)?,
        None => None,
    };
    for row in &t.rows {
        let pk = crate::recovered::key(&t, row, "Z_PK");
        let own = t.get(row, "ZISOWN") == Some("1");
        let sender = t.get(row, "ZSENDER").and_then(|s| {
            let (cinv, c) = contacts.as_ref()?;
            let r = c.rows.iter().find(|r| c.get(r, "pk") == Some(s))?;
            let name = raw(c, r, "name")
                .filter(|n| !n.is_empty())
                .or_else(|| raw(c, r, "nick"));
            Some((cinv, raw(c, r, "identity")?, name))
        });
        let who = sender
            .as_ref()
            .map(|(_, id, name)| name.clone().unwrap_or_else(|| id.clone()))
            .unwrap_or_else(|| "the chat's other party".to_string());
        let mut d = Draft::new(
            "messages",
            format!(
                "{} Threema message {pk} {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                if own {
                    format!(
                        "sent in conversation {}",
                        t.get(row, "ZCONVERSATION").unwrap_or("?")
                    )
                } else {
                    format!("from {who}")
                }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        if let Some((cinv, id, name)) = &sender {
            d.fact(FactType::Account, Some(id), cinv);
            d.fact(FactType::Name, name.as_deref(), cinv);
        }
        for col in ["ZTEXT", "ZCAPTION", "ZFILENAME", "ZMIMETYPE"] {
            d.fact(FactType::Text, raw(&t, row, col).as_deref(), &inv);
        }
        let date = t.get(row, "ZDATE");
        d.time(
            date,
            super::apple_encoding(date),
            if own {
                "Message sent"
            } else {
                "Message received"
            },
            &inv,
        );
        d.interpretation = format!(
            "ZMESSAGE Z_PK {pk} of {path}: a Threema message {} (ZISOWN {}) in conversation {}: {}; ZDATE is Core Data seconds since 2001.",
            if own {
                "sent by the device's user".to_string()
            } else {
                format!("from {who}")
            },
            t.get(row, "ZISOWN").unwrap_or("?"),
            t.get(row, "ZCONVERSATION").unwrap_or("?"),
            crate::recovered::provenance(&t, row)
        );
        run.record(d)?;
    }
    Ok(())
}
