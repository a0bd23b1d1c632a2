//! WhatsApp (`…/Shared/AppGroup/<uuid>/`): `ChatStorage.sqlite` messages (`ZWAMESSAGE` with
//! their `ZWACHATSESSION`), `ContactsV2.sqlite` contacts (`ZWAADDRESSBOOKCONTACT`) and the
//! app's own `CallHistory.sqlite` calls (`ZWACDCALLEVENT` with their participants), read the way
//! iLEAPP's `whatsApp` module reads them. Contacts become `contact:whatsapp:<Z_PK>` entities,
//! chat partners `handle:<jid>`. A JID `<digits>@s.whatsapp.net` is observed as the phone it
//! names (international, whatever the source's region), a `<digits>@lid` as a `whatsapp_lid`
//! (never a phone), any other JID as an account id; a contact's `ZIDENTIFIER` is the address
//! book's person GUID (`contact_guid`), the key WhatsApp shares with the address book.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::callhistory::optional;
use super::{Draft, ROW_CAP, Run, core_data_encoding, file_name, raw, summarise};

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
    let sql = format!(
        "SELECT m.Z_PK AS pk, m.ZMESSAGEDATE AS date, m.ZISFROMME AS from_me, s.ZCONTACTJID AS chat_jid, \
s.ZPARTNERNAME AS partner, m.ZFROMJID AS from_jid, m.ZTOJID AS to_jid, m.ZTEXT AS text, {media_col} \
FROM ZWAMESSAGE m LEFT JOIN ZWACHATSESSION s ON s.Z_PK = m.ZCHATSESSION"
    );
    // Chat partners first (all sessions, not only those of the first messages).
    if let Some((cinv, chats)) = run.query(
        path,
        "SELECT Z_PK AS pk, ZCONTACTJID AS jid, ZPARTNERNAME AS partner FROM ZWACHATSESSION ORDER BY Z_PK",
        100_000,
    )? {
        for row in &chats.rows {
            let Some(jid) = raw(&chats, row, "jid") else { continue };
            if !is_person(&jid) {
                continue; // groups and status broadcasts are not persons
            }
            let partner = raw(&chats, row, "partner").unwrap_or_else(|| jid.clone());
            let context = format!("handle:{jid}");
            run.observe(&context, EntityKind::Person, &partner, jid_type(&jid), &jid, &cinv,
                format!("{partner} is a WhatsApp chat partner ({jid})."))?;
            if let Some(p) = raw(&chats, row, "partner") {
                run.observe(&context, EntityKind::Person, &partner, IdType::DisplayName, &p, &cinv,
                    format!("WhatsApp names the chat with {jid} {p}."))?;
            }
        }
    }
    let Some(paged) = run.paged(path, &sql, "m.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let from_me = t.get(row, "from_me") == Some("1");
        let partner = raw(t, row, "partner");
        let chat = raw(t, row, "chat_jid");
        let date = raw(t, row, "date");
        let who = partner
            .clone()
            .or_else(|| chat.clone())
            .unwrap_or_else(|| "an unknown chat".into());
        let mut d = Draft::new(
            "messages",
            format!(
                "WhatsApp message {pk} {} {who}",
                if from_me { "sent to" } else { "received from" }
            ),
        );
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
        d.interpretation = format!(
            "ZWAMESSAGE Z_PK {pk} of {path} was {} {who}; ZMESSAGEDATE is Core Data seconds since the Apple epoch (start of 2001 UTC) (apple_seconds).",
            if from_me {
                "sent by the device user to"
            } else {
                "received by the device user from"
            },
        );
        run.record(d)?;
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
    let Some((inv, t)) = run.query(path, &sql, ROW_CAP)? else {
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
        summarise(
            run,
            "calls",
            path,
            find,
            "WhatsApp calls",
            "SELECT count(*) AS total, min(NULLIF(ZDATE, 0)) AS first_time, max(ZDATE) AS last_time FROM ZWACDCALLEVENT",
            core_data_encoding,
            "First call",
            "Last call",
        )?;
    }
    Ok(())
}
