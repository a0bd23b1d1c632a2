//! WhatsApp (`…/Shared/AppGroup/<uuid>/`): `ChatStorage.sqlite` messages (`ZWAMESSAGE` with
//! their `ZWACHATSESSION`), `ContactsV2.sqlite` contacts (`ZWAADDRESSBOOKCONTACT`) and the
//! app's own `CallHistory.sqlite` calls (`ZWACDCALLEVENT` with their participants), read the way
//! iLEAPP's `whatsApp` module reads them. Contacts become `contact:whatsapp:<Z_PK>` entities,
//! chat partners `handle:<jid>`. A JID `<digits>@s.whatsapp.net` is observed as the phone it
//! names (international, whatever the source's region), a `<digits>@lid` as a `whatsapp_lid`
//! (never a phone), any other JID as an account id; a contact's `ZIDENTIFIER` is the address
//! book's person GUID (`contact_guid`), the key WhatsApp shares with the address book.
//!
//! A location message (`ZMESSAGETYPE` 5) records the latitude and longitude its media item
//! keeps (iLEAPP's Latitude and Longitude); a starred message says so.
//!
//! Groups (`ZWAGROUPINFO` with its chat session and `ZWAGROUPMEMBER`): one phenomenon per group
//! with its subject, JID, creation, creator, owner, who last set the subject and when, and each
//! member (JID, the names WhatsApp keeps, admin, active); members are `handle:<jid>`
//! persons. A received message's sender in a group is its `ZGROUPMEMBER`'s JID. The device
//! user's own JID is the one address received messages were delivered to (`ZTOJID` of
//! `ZISFROMME` 0): observed as `owner` when the store names exactly one.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::callhistory::optional;
use super::{Draft, ENTRY_CAP, Run, core_data_encoding, file_name, raw, summarise};

use crate::identity::jid_type;

/// Whether a JID names one person (not a group, a broadcast list or a status).
fn is_person(jid: &str) -> bool {
    jid_type(jid) != IdType::AccountId
}

/// Triage of every WhatsApp database of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    if let Some((find, paths)) = run.find("ContactsV2.sqlite")? {
        for path in &paths {
            contacts(run, &find, path)?;
        }
    }
    if let Some((find, paths)) = run.find("ChatStorage.sqlite")? {
        for path in &paths {
            messages(run, &find, path)?;
            groups(run, &find, path)?;
            account(run, &find, path)?;
        }
    }
    if let Some((find, paths)) = run.find("CallHistory.sqlite")? {
        for path in &paths {
            calls(run, &find, path)?;
        }
    }
    Ok(())
}

fn contacts(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZWAADDRESSBOOKCONTACT"])? else {
        return Ok(());
    };
    let required = ["ZFULLNAME", "ZPHONENUMBER", "ZWHATSAPPID"];
    if !schema.require(run, "ZWAADDRESSBOOKCONTACT", &required)? {
        return Ok(());
    }
    let cols = schema.columns("ZWAADDRESSBOOKCONTACT");
    let sql = format!(
        "SELECT Z_PK AS pk, ZFULLNAME AS name, ZPHONENUMBER AS phone, {}, ZWHATSAPPID AS jid, {}, {}, {} \
FROM ZWAADDRESSBOOKCONTACT",
        optional(&cols, "ZPHONENUMBERLABEL", "phone_label"),
        optional(&cols, "ZIDENTIFIER", "identifier"),
        optional(&cols, "ZABOUTTEXT", "about"),
        optional(&cols, "ZABOUTTIMESTAMP", "about_time"),
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let name = raw(t, row, "name");
        let phone = raw(t, row, "phone");
        let jid = raw(t, row, "jid");
        let label = name
            .clone()
            .unwrap_or_else(|| format!("WhatsApp contact {pk}"));
        let mut d = Draft::new("contacts", format!("WhatsApp contact {pk}: {label}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, name.as_deref(), inv);
        d.fact(FactType::Phone, phone.as_deref(), inv);
        d.fact(FactType::Account, jid.as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "identifier").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "about").as_deref(), inv);
        let about = raw(t, row, "about_time");
        d.time(
            about.as_deref(),
            core_data_encoding(about.as_deref()),
            "About text set",
            inv,
        );
        d.interpretation = format!(
            "ZWAADDRESSBOOKCONTACT Z_PK {pk} of {path}: WhatsApp contact {label}{}{}.",
            jid.as_deref()
                .map(|j| format!(" with WhatsApp id {j}"))
                .unwrap_or_default(),
            phone
                .as_deref()
                .map(|p| format!(" and phone number {p}"))
                .unwrap_or_default(),
        );
        run.record(d)?;
        let context = format!("contact:whatsapp:{pk}");
        let note = |what: &str| format!("WhatsApp's address book lists {what} for {label}.");
        if let Some(n) = &name {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                n,
                inv,
                note(n),
            )?;
        }
        if let Some(p) = &phone {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                IdType::Phone,
                p,
                inv,
                note(p),
            )?;
        }
        if let Some(j) = &jid {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                jid_type(j),
                j,
                inv,
                note(j),
            )?;
        }
        if let Some(g) = raw(t, row, "identifier") {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                IdType::ContactGuid,
                &g,
                inv,
                format!(
                    "WhatsApp's address book keeps {label} under the address-book person GUID {g}."
                ),
            )?;
        }
    }
    Ok(())
}

fn messages(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZWAMESSAGE", "ZWACHATSESSION", "ZWAMEDIAITEM"])? else {
        return Ok(());
    };
    let message = [
        "ZCHATSESSION",
        "ZISFROMME",
        "ZMESSAGEDATE",
        "ZTEXT",
        "ZFROMJID",
        "ZTOJID",
    ];
    if !schema.require(run, "ZWAMESSAGE", &message)?
        || !schema.require(run, "ZWACHATSESSION", &["ZCONTACTJID", "ZPARTNERNAME"])?
    {
        return Ok(());
    }
    let media = schema.columns("ZWAMEDIAITEM");
    let media_col = if media.contains("ZMEDIALOCALPATH") && media.contains("ZMESSAGE") {
        "(SELECT mi.ZMEDIALOCALPATH FROM ZWAMEDIAITEM mi WHERE mi.ZMESSAGE = m.Z_PK LIMIT 1) AS media"
    } else {
        "NULL AS media"
    };
    let cols = schema.columns("ZWAMESSAGE");
    let member = run
        .schema(path, &["ZWAGROUPMEMBER"])?
        .map(|s| s.columns("ZWAGROUPMEMBER"))
        .unwrap_or_default();
    let sender_col = if cols.contains("ZGROUPMEMBER") && member.contains("ZMEMBERJID") {
        "(SELECT gm.ZMEMBERJID FROM ZWAGROUPMEMBER gm WHERE gm.Z_PK = m.ZGROUPMEMBER) AS sender"
    } else {
        "NULL AS sender"
    };
    // a location message (ZMESSAGETYPE 5) keeps its position in its media item (other media
    // items keep the picture's size in the same columns)
    let position = |c: &str| {
        if media.contains(c) && media.contains("ZMESSAGE") {
            format!("(SELECT mi.{c} FROM ZWAMEDIAITEM mi WHERE mi.ZMESSAGE = m.Z_PK LIMIT 1)")
        } else {
            "NULL".to_string()
        }
    };
    let sql = format!(
        "SELECT m.Z_PK AS pk, m.ZMESSAGEDATE AS date, m.ZISFROMME AS from_me, s.ZCONTACTJID AS chat_jid, \
s.ZPARTNERNAME AS partner, m.ZFROMJID AS from_jid, m.ZTOJID AS to_jid, m.ZTEXT AS text, {media_col}, {sender_col}, \
{}, {}, {} AS latitude, {} AS longitude \
FROM ZWAMESSAGE m LEFT JOIN ZWACHATSESSION s ON s.Z_PK = m.ZCHATSESSION",
        crate::calls::column_or_null(&cols, "m.", "ZMESSAGETYPE", "kind"),
        crate::calls::column_or_null(&cols, "m.", "ZSTARRED", "starred"),
        position("ZLATITUDE"),
        position("ZLONGITUDE"),
    );
    // Chat partners first (all sessions, not only those of the first messages).
    let sessions = run.query(
        path,
        "SELECT Z_PK AS pk, ZCONTACTJID AS jid, ZPARTNERNAME AS partner FROM ZWACHATSESSION ORDER BY Z_PK",
        100_000,
    )?;
    if let Some((cinv, chats)) = &sessions {
        for row in &chats.rows {
            let Some(jid) = raw(chats, row, "jid") else {
                continue;
            };
            if !is_person(&jid) {
                continue; // groups and status broadcasts are not persons
            }
            let partner = raw(chats, row, "partner").unwrap_or_else(|| jid.clone());
            let context = format!("handle:{jid}");
            run.observe(
                &context,
                EntityKind::Person,
                &partner,
                jid_type(&jid),
                &jid,
                cinv,
                format!("{partner} is a WhatsApp chat partner ({jid})."),
            )?;
            if let Some(p) = raw(chats, row, "partner") {
                run.observe(
                    &context,
                    EntityKind::Person,
                    &partner,
                    IdType::DisplayName,
                    &p,
                    cinv,
                    format!("WhatsApp names the chat with {jid} {p}."),
                )?;
            }
        }
    }
    let Some(paged) = run.paged(path, &sql, "m.Z_PK")? else {
        return Ok(());
    };
    message_rows(run, find, path, &paged)?;
    recovered(run, find, path, sessions.as_ref())
}

/// The live messages, one phenomenon each.
fn message_rows(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    paged: &crate::calls::Paged,
) -> Result<(), RuntimeError> {
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let from_me = t.get(row, "from_me") == Some("1");
        let partner = raw(t, row, "partner");
        let chat = raw(t, row, "chat_jid");
        let date = raw(t, row, "date");
        let sender = raw(t, row, "sender").filter(|s| !from_me && !s.is_empty());
        let who = partner
            .clone()
            .or_else(|| chat.clone())
            .unwrap_or_else(|| "an unknown chat".into());
        let mut d = Draft::new(
            "messages",
            format!(
                "WhatsApp message {pk} {} {who}{}",
                if from_me { "sent to" } else { "received from" },
                sender
                    .as_deref()
                    .map(|s| format!(" (written by {s})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Account, sender.as_deref(), inv);
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, chat.as_deref(), inv);
        d.fact(FactType::Name, partner.as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "from_jid").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "to_jid").as_deref(), inv);
        d.time(
            date.as_deref(),
            core_data_encoding(date.as_deref()),
            if from_me {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Path, raw(t, row, "media").as_deref(), inv);
        let location = (t.get(row, "kind") == Some("5"))
            .then(|| t.get(row, "latitude").zip(t.get(row, "longitude")))
            .flatten();
        if let Some((la, lo)) = location {
            d.fact(FactType::Text, Some(la), inv);
            d.fact(FactType::Text, Some(lo), inv);
        }
        let starred = t.get(row, "starred") == Some("1");
        d.interpretation = format!(
            "ZWAMESSAGE Z_PK {pk} of {path} was {} {who}{}{}; ZMESSAGEDATE is Core Data seconds since the Apple epoch (start of 2001 UTC) (apple_seconds).",
            if from_me {
                "sent by the device user to"
            } else {
                "received by the device user from"
            },
            location
                .map(|(la, lo)| format!(", sharing the location {la}, {lo}"))
                .unwrap_or_default(),
            if starred { ", starred" } else { "" },
        );
        run.record(d)?;
        if let Some(s) = sender.filter(|s| is_person(s)) {
            run.observe(
                &format!("handle:{s}"),
                EntityKind::Person,
                &s,
                jid_type(&s),
                &s,
                inv,
                format!("{s} wrote WhatsApp message {pk} in the group {who}."),
            )?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "messages",
            path,
            find,
            "WhatsApp messages",
            "SELECT count(*) AS total, min(NULLIF(ZMESSAGEDATE, 0)) AS first_time, max(ZMESSAGEDATE) AS last_time FROM ZWAMESSAGE",
            core_data_encoding,
            "First message",
            "Last message",
        )?;
    }
    Ok(())
}

/// Messages `ZWAMESSAGE` no longer shows that earlier page versions hold (deleted — for
/// everyone or on this phone — since the last checkpoint, or edited): one phenomenon each,
/// with its chat named from the live chat sessions.
fn recovered(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    sessions: Option<&(Invoked, crate::outputs::Table)>,
) -> Result<(), RuntimeError> {
    let Some((inv, t)) = run.wal_rows(path, "ZWAMESSAGE", &[])? else {
        return Ok(());
    };
    for row in &t.rows {
        let pk = crate::recovered::key(&t, row, "Z_PK");
        let from_me = t.get(row, "ZISFROMME") == Some("1");
        let session = sessions.and_then(|(cinv, chats)| {
            let r = chats.rows.iter().find(|r| {
                chats.get(r, "pk").is_some() && chats.get(r, "pk") == t.get(row, "ZCHATSESSION")
            })?;
            Some((cinv, raw(chats, r, "jid"), raw(chats, r, "partner")))
        });
        let (chat, partner) = session
            .as_ref()
            .map(|(_, j, p)| (j.clone(), p.clone()))
            .unwrap_or_default();
        let who = partner
            .clone()
            .or_else(|| chat.clone())
            .unwrap_or_else(|| "a chat no longer listed".into());
        let mut d = Draft::new(
            "messages",
            format!(
                "{} WhatsApp message {pk} {} {who} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                if from_me { "sent to" } else { "received from" },
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        if let Some((cinv, _, _)) = &session {
            d.fact(FactType::Account, chat.as_deref(), cinv);
            d.fact(FactType::Name, partner.as_deref(), cinv);
        }
        d.fact(FactType::Account, raw(&t, row, "ZFROMJID").as_deref(), &inv);
        d.fact(FactType::Account, raw(&t, row, "ZTOJID").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "ZSTANZAID").as_deref(),
            &inv,
        );
        let date = raw(&t, row, "ZMESSAGEDATE");
        d.time(
            date.as_deref(),
            core_data_encoding(date.as_deref()),
            if from_me {
                "Message sent"
            } else {
                "Message received"
            },
            &inv,
        );
        d.fact(FactType::Text, raw(&t, row, "ZTEXT").as_deref(), &inv);
        d.interpretation = format!(
            "ZWAMESSAGE Z_PK {pk} of {path}, {} {who}: {}. ZMESSAGEDATE is Core Data seconds since the Apple epoch (start of 2001 UTC) (apple_seconds).",
            if from_me {
                "sent by the device user to"
            } else {
                "received by the device user from"
            },
            crate::recovered::provenance(&t, row)
        );
        run.record(d)?;
    }
    Ok(())
}

/// One group member, as the members query printed it.
struct Member {
    jid: String,
    name: Option<String>,
    first: Option<String>,
    admin: bool,
    active: Option<bool>,
}

/// Groups: `ZWAGROUPINFO` with the group's chat session, and its `ZWAGROUPMEMBER`s.
fn groups(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZWAGROUPINFO", "ZWAGROUPMEMBER"])? else {
        return Ok(());
    };
    let info = schema.columns("ZWAGROUPINFO");
    if info.is_empty() {
        return Ok(()); // a store without groups
    }
    if !schema.require(run, "ZWAGROUPINFO", &["ZCHATSESSION"])? {
        return Ok(());
    }
    let g = |c: &str, a: &str| crate::calls::column_or_null(&info, "g.", c, a);
    let sql = format!(
        "SELECT g.Z_PK AS pk, g.ZCHATSESSION AS session, s.ZCONTACTJID AS jid, s.ZPARTNERNAME AS subject, \
{}, {}, {}, {}, {} FROM ZWAGROUPINFO g LEFT JOIN ZWACHATSESSION s ON s.Z_PK = g.ZCHATSESSION ORDER BY g.Z_PK",
        g("ZCREATIONDATE", "created"),
        g("ZCREATORJID", "creator"),
        g("ZOWNERJID", "owner"),
        g("ZSUBJECTOWNERJID", "subject_owner"),
        g("ZSUBJECTTIMESTAMP", "subject_time"),
    );
    let Some((inv, t)) = run.query(path, &sql, 100_000)? else {
        return Ok(());
    };
    let mc = schema.columns("ZWAGROUPMEMBER");
    let mut members: std::collections::BTreeMap<String, Vec<Member>> = Default::default();
    let mut minv = None;
    if mc.contains("ZCHATSESSION") && mc.contains("ZMEMBERJID") {
        let sql = format!(
            "SELECT ZCHATSESSION AS session, ZMEMBERJID AS jid, {}, {}, {}, {} FROM ZWAGROUPMEMBER \
WHERE ZMEMBERJID IS NOT NULL ORDER BY ZCHATSESSION, Z_PK",
            optional(&mc, "ZCONTACTNAME", "name"),
            optional(&mc, "ZFIRSTNAME", "first"),
            optional(&mc, "ZISADMIN", "admin"),
            optional(&mc, "ZISACTIVE", "active"),
        );
        if let Some((i, mt)) = run.query(path, &sql, 100_000)? {
            for row in &mt.rows {
                let (Some(session), Some(jid)) = (mt.get(row, "session"), raw(&mt, row, "jid"))
                else {
                    continue;
                };
                members
                    .entry(session.to_string())
                    .or_default()
                    .push(Member {
                        jid,
                        name: raw(&mt, row, "name"),
                        first: raw(&mt, row, "first"),
                        admin: mt.get(row, "admin") == Some("1"),
                        active: mt.get(row, "active").map(|a| a == "1"),
                    });
            }
            minv = Some(i);
        }
    }
    for row in &t.rows {
        let pk = t.get(row, "pk").unwrap_or("?");
        let jid = raw(&t, row, "jid");
        let subject = raw(&t, row, "subject");
        let label = subject
            .clone()
            .or_else(|| jid.clone())
            .unwrap_or_else(|| format!("group {pk}"));
        let mut d = Draft::new(
            "contacts",
            format!(
                "WhatsApp group {label}{}",
                jid.as_deref()
                    .map(|j| format!(" ({j})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, jid.as_deref(), &inv);
        d.fact(FactType::Name, subject.as_deref(), &inv);
        for c in ["creator", "owner", "subject_owner"] {
            d.fact(FactType::Account, raw(&t, row, c).as_deref(), &inv);
        }
        let created = raw(&t, row, "created");
        d.time(
            created.as_deref(),
            core_data_encoding(created.as_deref()),
            "Group created",
            &inv,
        );
        let subject_time = raw(&t, row, "subject_time");
        d.time(
            subject_time.as_deref(),
            core_data_encoding(subject_time.as_deref()),
            "Group subject set",
            &inv,
        );
        let list = t
            .get(row, "session")
            .and_then(|s| members.get(s))
            .map(Vec::as_slice)
            .unwrap_or_default();
        let mut each = Vec::new();
        if let Some(mi) = &minv {
            for m in list {
                d.fact(FactType::Account, Some(&m.jid), mi);
                d.fact(FactType::Name, m.name.as_deref(), mi);
                d.fact(FactType::Name, m.first.as_deref(), mi);
                each.push(format!(
                    "{}{}{}{}",
                    m.jid,
                    m.name
                        .as_deref()
                        .or(m.first.as_deref())
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default(),
                    if m.admin { ", admin" } else { "" },
                    if m.active == Some(false) {
                        ", not active"
                    } else {
                        ""
                    }
                ));
            }
        }
        d.interpretation = format!(
            "ZWAGROUPINFO Z_PK {pk} of {path}: the WhatsApp group {label}{}{}{}; {}. ZCREATIONDATE and ZSUBJECTTIMESTAMP are Core Data seconds since the Apple epoch (start of 2001 UTC).",
            raw(&t, row, "creator")
                .map(|c| format!(", created by {c}"))
                .unwrap_or_default(),
            raw(&t, row, "owner")
                .map(|c| format!(", owned by {c}"))
                .unwrap_or_default(),
            raw(&t, row, "subject_owner")
                .map(|c| format!(", its subject set by {c}"))
                .unwrap_or_default(),
            if each.is_empty() {
                "no member recorded".to_string()
            } else {
                format!("members: {}", each.join("; "))
            },
        );
        run.record(d)?;
        if let Some(mi) = &minv {
            for m in list.iter().filter(|m| is_person(&m.jid)) {
                let context = format!("handle:{}", m.jid);
                let shown = m.name.clone().unwrap_or_else(|| m.jid.clone());
                run.observe(
                    &context,
                    EntityKind::Person,
                    &shown,
                    jid_type(&m.jid),
                    &m.jid,
                    mi,
                    format!("{} is a member of the WhatsApp group {label}.", m.jid),
                )?;
                if let Some(n) = &m.name {
                    run.observe(
                        &context,
                        EntityKind::Person,
                        &shown,
                        IdType::DisplayName,
                        n,
                        mi,
                        format!("WhatsApp names the group member {} {n}.", m.jid),
                    )?;
                }
            }
        }
    }
    Ok(())
}

/// The device user's own JID: the one address received messages were delivered to.
fn account(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, t)) = run.query(
        path,
        "SELECT ZTOJID AS jid, count(*) AS n FROM ZWAMESSAGE WHERE ZISFROMME = 0 AND ZTOJID LIKE '%@s.whatsapp.net' \
GROUP BY ZTOJID ORDER BY ZTOJID",
        100,
    )?
    else {
        return Ok(());
    };
    let [row] = t.rows.as_slice() else {
        return Ok(()); // none, or several: no one address is the user's
    };
    let (Some(jid), Some(n)) = (raw(&t, row, "jid"), t.get(row, "n")) else {
        return Ok(());
    };
    let mut d = Draft::new("accounts", format!("WhatsApp account {jid}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, Some(&jid), &inv);
    d.fact(FactType::Count, Some(n), &inv);
    d.interpretation = format!(
        "{n} received message(s) of {path} were delivered to {jid} (ZTOJID of messages with ZISFROMME 0), and to no other address: the WhatsApp account of the device's user."
    );
    run.record(d)?;
    run.observe(
        "owner",
        EntityKind::Person,
        "device owner",
        jid_type(&jid),
        &jid,
        &inv,
        format!(
            "The WhatsApp account {n} received message(s) of {} were delivered to.",
            file_name(path)
        ),
    )?;
    Ok(())
}

fn calls(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZWACDCALLEVENT", "ZWACDCALLEVENTPARTICIPANT"])? else {
        return Ok(());
    };
    if !schema.require(
        run,
        "ZWACDCALLEVENT",
        &["ZDATE", "ZDURATION", "ZOUTCOME", "Z1CALLEVENTS"],
    )? || !schema.require(
        run,
        "ZWACDCALLEVENTPARTICIPANT",
        &["Z1PARTICIPANTS", "ZJIDSTRING"],
    )? {
        return Ok(());
    }
    let cols = schema.columns("ZWACDCALLEVENT");
    let direction = if cols.contains("ZGROUPCALLCREATORUSERJIDSTRING") {
        "CASE WHEN e.ZGROUPCALLCREATORUSERJIDSTRING = p.ZJIDSTRING THEN 'Incoming' \
WHEN e.ZGROUPCALLCREATORUSERJIDSTRING IS NOT NULL AND p.ZJIDSTRING IS NOT NULL THEN 'Outgoing' END AS direction"
    } else {
        "NULL AS direction"
    };
    let sql = format!(
        "SELECT e.Z_PK AS pk, e.ZDATE AS date, e.ZDATE + e.ZDURATION AS end_date, e.ZDURATION AS duration, \
time(e.ZDURATION, 'unixepoch') AS duration_hms, \
CASE e.ZOUTCOME WHEN 0 THEN 'Ended' WHEN 1 THEN 'Missed' WHEN 4 THEN 'Rejected' ELSE e.ZOUTCOME END AS outcome, \
p.ZJIDSTRING AS jid, {direction} \
FROM ZWACDCALLEVENT e LEFT JOIN ZWACDCALLEVENTPARTICIPANT p ON p.Z1PARTICIPANTS = e.Z1CALLEVENTS ORDER BY e.Z_PK, p.Z_PK"
    );
    let Some((inv, t)) = run.query(path, &sql, ENTRY_CAP)? else {
        return Ok(());
    };
    for row in &t.rows {
        let pk = raw(&t, row, "pk").unwrap_or_default();
        let jid = raw(&t, row, "jid");
        let direction = raw(&t, row, "direction");
        let date = raw(&t, row, "date");
        let end = raw(&t, row, "end_date");
        let mut d = Draft::new(
            "calls",
            format!(
                "WhatsApp call {pk} with {}",
                jid.as_deref().unwrap_or("an unknown party")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, jid.as_deref(), &inv);
        d.fact(FactType::Text, direction.as_deref(), &inv);
        d.fact(FactType::Text, raw(&t, row, "outcome").as_deref(), &inv);
        d.fact(
            FactType::Text,
            raw(&t, row, "duration_hms").as_deref(),
            &inv,
        );
        d.time(
            date.as_deref(),
            core_data_encoding(date.as_deref()),
            "Call started",
            &inv,
        );
        d.time(
            end.as_deref(),
            core_data_encoding(end.as_deref()),
            "Call ended",
            &inv,
        );
        d.interpretation = format!(
            "ZWACDCALLEVENT Z_PK {pk} of {path}: a WhatsApp call with {}{}; the times are Core Data seconds since the Apple epoch (start of 2001 UTC) (apple_seconds), the end being the start plus the duration.",
            jid.as_deref().unwrap_or("an unrecorded participant"),
            direction
                .as_deref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default(),
        );
        run.record(d)?;
        if let Some(j) = jid.as_deref().filter(|j| is_person(j)) {
            run.observe(
                &format!("handle:{j}"),
                EntityKind::Person,
                j,
                jid_type(j),
                j,
                &inv,
                format!(
                    "{j} took part in a WhatsApp call recorded in {}.",
                    file_name(path)
                ),
            )?;
        }
    }
    if t.truncated {
        super::summarise_after(
            run,
            "calls",
            path,
            find,
            "WhatsApp call participants",
            "SELECT count(*) AS total, min(NULLIF(e.ZDATE, 0)) AS first_time, max(e.ZDATE) AS last_time FROM ZWACDCALLEVENT e LEFT JOIN ZWACDCALLEVENTPARTICIPANT p ON p.Z1PARTICIPANTS = e.Z1CALLEVENTS",
            (core_data_encoding, "First call", "Last call"),
            ENTRY_CAP,
        )?;
    }
    Ok(())
}
