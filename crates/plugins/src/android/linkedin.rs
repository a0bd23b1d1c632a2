//! LinkedIn on Android (`com.linkedin.android`), the fields of ALEAPP's `linkedin_account` and
//! `linkedin_messages`:
//!
//! - `shared_prefs/linkedInPrefsName.xml` (read by `read_xml`): one `accounts` phenomenon —
//!   last login (Unix seconds), the member's e-mail, and from the `meModel` JSON the member id
//!   (`plainId`), first and last name, headline and public identifier;
//! - `databases/messenger-sdk*`: one `messages` phenomenon per `MessagesData` row (delivered —
//!   Unix ms —, status, the sender's name, headline, profile URL and distance from its
//!   `ParticipantsData` row, subject, text, conversation URN, sent by the device's user —
//!   distance `SELF` —, the conversation's label as ALEAPP builds it: a group's name, else the
//!   other participants), every JSON value read with `json_extract` in the query; one
//!   `contacts` per participant (name, headline, profile URL, distance, URN).
//!
//! Identities: every member with a profile URL is `linkedin:<public identifier>` (computed in
//! the query, [`crate::linkedin`]), the id iOS's LinkedIn keeps too; the participant at distance
//! `SELF` and the preferences' e-mail and names are the device's user's (`owner`); wallet
//! addresses in a message are claims by direction. Schema drift: each table is read when it has
//! its key columns, the others where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis, unix_seconds};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::linkedin::member_columns;
use crate::outputs::raw;

/// Whether `l` is LinkedIn's preferences file.
pub fn is_prefs(l: &Located) -> bool {
    l.path
        .ends_with("/com.linkedin.android/shared_prefs/linkedInPrefsName.xml")
}

/// Whether `l` is LinkedIn's messenger store.
pub fn is_store(l: &Located) -> bool {
    let name = l.name();
    l.path.contains("/com.linkedin.android/databases/")
        && name.starts_with("messenger-sdk")
        && !name.ends_with("-wal")
        && !name.ends_with("-shm")
        && !name.ends_with("-journal")
}

/// The preferences file.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "LinkedIn", None)? else {
        return Ok(());
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    // the meModel JSON as the XML holds it (entity references undone to read it); a value is a
    // fact only as the output writes it
    let me: Option<serde_json::Value> = get("meModel").and_then(|m| {
        let text = quick_xml::escape::unescape(&m).ok()?.into_owned();
        serde_json::from_str(&text).ok()
    });
    let at = |path: &[&str]| -> Option<String> {
        let mut v = me.as_ref()?;
        for p in path {
            v = v.get(p)?;
        }
        let s = match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => return None,
        };
        (!s.is_empty() && inv.output.text.contains(&s)).then_some(s)
    };
    let email = get("memberEmail").filter(|e| inv.output.text.contains(e.as_str()));
    let member_id = at(&["plainId"]);
    let first = at(&["miniProfile", "firstName"]);
    let last = at(&["miniProfile", "lastName"]);
    let headline = at(&["miniProfile", "occupation"]);
    let public = at(&["miniProfile", "publicIdentifier"]);
    let login = get("lastLoggedInTimestamp");
    if [&email, &member_id, &first, &last, &public, &login]
        .iter()
        .all(|v| v.is_none())
    {
        return Ok(());
    }
    let label = email
        .clone()
        .or(public.clone())
        .unwrap_or("(not named)".into());
    let mut d = Draft::new("accounts", format!("LinkedIn account {label}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Email, email.as_deref(), &inv);
    d.fact(FactType::Account, member_id.as_deref(), &inv);
    d.fact(FactType::Name, first.as_deref(), &inv);
    d.fact(FactType::Name, last.as_deref(), &inv);
    d.fact(FactType::Text, headline.as_deref(), &inv);
    d.fact(FactType::Account, public.as_deref(), &inv);
    d.time(
        login.as_deref(),
        unix_seconds(login.as_deref()),
        "LinkedIn last login",
        &inv,
    );
    d.interpretation = format!(
        "{}: the LinkedIn member signed in on the device{}{}; its public profile is https://www.linkedin.com/in/{} (the public identifier); the last login is Unix seconds.",
        l.name(),
        crate::linkedin::member_words(member_id.as_deref(), first.as_deref(), last.as_deref()),
        email
            .as_deref()
            .map(|e| format!(", e-mail {e}"))
            .unwrap_or_default(),
        public.as_deref().unwrap_or("(not stored)"),
    );
    record_draft(ctx, d)?;
    let name = first
        .zip(last)
        .map(|(f, l)| format!("{f} {l}"))
        .filter(|n| inv.output.text.contains(n.as_str()));
    crate::identity::observe_owner_ids(
        ctx,
        &inv,
        vec![
            (email, IdType::Email, "e-mail"),
            (name, IdType::DisplayName, "name"),
        ],
        &|what| {
            format!(
                "The {what} of the LinkedIn member signed in on the device ({}).",
                l.name()
            )
        },
    )
}

/// The messenger store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = "LinkedIn's messenger store";
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    if table("MessagesData").is_none() && table("ParticipantsData").is_none() {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {store} because it has neither MessagesData nor ParticipantsData"
            ),
            None,
        )?;
        return Ok(());
    }
    if let Some(cols) = table("ParticipantsData")
        && require_columns(
            ctx,
            &name,
            store,
            "ParticipantsData",
            cols,
            &["entityUrn", "entityData"],
        )?
    {
        participants(ctx, l, &name)?;
    }
    if let Some(cols) = table("MessagesData")
        && require_columns(
            ctx,
            &name,
            store,
            "MessagesData",
            cols,
            &["entityData", "conversationUrn", "deliveredAt"],
        )?
    {
        let people = table("ParticipantsData")
            .is_some_and(|c| c.contains("entityUrn") && c.contains("entityData"))
            && cols.contains("senderUrn");
        let conversations = table("ConversationsData")
            .is_some_and(|c| c.contains("entityUrn") && c.contains("entityData"));
        let cross = table("ConversationParticipantCrossRef")
            .is_some_and(|c| c.contains("conversationUrn") && c.contains("participantUrn"));
        messages(
            ctx,
            l,
            &name,
            cols,
            people,
            conversations && cross && people,
        )?;
    }
    Ok(())
}

fn participants(ctx: &AgentCtx<'_>, l: &Located, name: &str) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, entityUrn AS urn, {} FROM ParticipantsData WHERE json_valid(entityData) ORDER BY rowid",
        member_columns("entityData", "$", ""),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "LinkedIn participants")?;
    for (inv, t, row) in pages.rows() {
        let me = t.get(row, "distance") == Some("SELF");
        let label = t
            .get(row, "name")
            .or(t.get(row, "urn"))
            .unwrap_or("(unnamed)")
            .to_string();
        let mut d = Draft::new(
            "contacts",
            if me {
                format!("LinkedIn member {label} (the device's user)")
            } else {
                format!("LinkedIn member {label}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "urn").as_deref(), inv);
        for col in ["first", "last"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Text, raw(t, row, "headline").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "profile_url").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "distance").as_deref(), inv);
        d.interpretation = format!(
            "ParticipantsData row {} of {}: {label}, a LinkedIn member of the device's user's conversations{}, network distance {} (SELF is the device's user).",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "headline")
                .map(|h| format!(" ({h})"))
                .unwrap_or_default(),
            t.get(row, "distance").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        let Some(member) = t.get(row, "member") else {
            continue;
        };
        let context = if me {
            "owner".to_string()
        } else {
            member.to_string()
        };
        let entity_label = if me {
            "device owner".to_string()
        } else {
            label.clone()
        };
        observe_columns(
            ctx,
            &context,
            &entity_label,
            t,
            row,
            inv,
            &[
                (
                    "member",
                    IdType::AccountId,
                    "The LinkedIn member (public identifier of the profile URL)",
                ),
                ("name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of {label}, a LinkedIn member ({}).", l.name()),
        )?;
    }
    Ok(())
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    people: bool,
    conversations: bool,
) -> Result<(), RuntimeError> {
    let sender = if people {
        "LEFT JOIN ParticipantsData pd ON pd.entityUrn = md.senderUrn"
    } else {
        ""
    };
    let member = if people {
        member_columns("pd.entityData", "$", "s_")
    } else {
        crate::linkedin::MEMBER
            .iter()
            .map(|(a, _)| format!("NULL AS s_{a}"))
            .chain(["NULL AS s_member".into(), "NULL AS s_name".into()])
            .collect::<Vec<_>>()
            .join(", ")
    };
    // ALEAPP's conversation label: a group's name, else the first other participant (a group
    // without a name: that participant and how many others)
    let others = "FROM ConversationParticipantCrossRef cp2 JOIN ParticipantsData p2 ON p2.entityUrn = cp2.participantUrn WHERE cp2.conversationUrn = md.conversationUrn AND json_extract(p2.entityData, '$.participantType.member.distance') != 'SELF'";
    let first_other = "json_extract(p2.entityData, '$.participantType.member.firstName.text') || ' ' || json_extract(p2.entityData, '$.participantType.member.lastName.text')";
    let label = if conversations {
        format!(
            "(SELECT CASE WHEN json_extract(cd.entityData, '$.groupChat') = 1 THEN COALESCE(json_extract(cd.entityData, '$.name'), (SELECT {first_other} || ' +' || (COUNT(*) - 1) || ' others' {others})) ELSE (SELECT {first_other} {others} LIMIT 1) END FROM ConversationsData cd WHERE cd.entityUrn = md.conversationUrn)"
        )
    } else {
        "NULL".into()
    };
    let status = if cols.contains("status") {
        "md.status"
    } else {
        "NULL"
    };
    let sender_urn = if cols.contains("senderUrn") {
        "md.senderUrn"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT md.rowid AS rid, md.deliveredAt AS delivered, {status} AS status, md.conversationUrn AS conversation, {sender_urn} AS sender_urn, \
json_extract(md.entityData, '$.subject') AS subject, json_extract(md.entityData, '$.body.text') AS body, {label} AS label, {member} \
FROM MessagesData md {sender} WHERE json_valid(md.entityData) ORDER BY md.deliveredAt, md.rowid"
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "LinkedIn messages")?;
    for (inv, t, row) in pages.rows() {
        let sent = t.get(row, "s_distance") == Some("SELF");
        let with = t
            .get(row, "label")
            .or(t.get(row, "conversation"))
            .unwrap_or("an unknown conversation")
            .to_string();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("LinkedIn message sent to {with}")
            } else {
                format!(
                    "LinkedIn message from {}",
                    t.get(row, "s_name").unwrap_or("an unknown member")
                )
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        crate::linkedin::message_facts(&mut d, t, row, inv);
        d.fact(FactType::Text, raw(t, row, "subject").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "sender_urn").as_deref(),
            inv,
        );
        let delivered = t.get(row, "delivered");
        d.message_time(delivered, unix_millis(delivered), sent, inv);
        d.interpretation = format!(
            "MessagesData row {} of {}: a LinkedIn message {} in the conversation {with}{}; status {} (ALEAPP reads 5 as delivered); the delivery time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if sent {
                "sent by the device's user (sender at distance SELF)".to_string()
            } else {
                format!(
                    "from {}",
                    t.get(row, "s_name").unwrap_or("a member not in the store")
                )
            },
            t.get(row, "subject")
                .map(|s| format!(", subject \"{s}\""))
                .unwrap_or_default(),
            t.get(row, "status").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        if let Some(text) = t.get(row, "body") {
            let other = if sent {
                None
            } else {
                t.get(row, "s_member")
                    .map(|m| (m, t.get(row, "s_name").unwrap_or(m)))
            };
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!(
                    "LinkedIn message, MessagesData row {} ({})",
                    t.get(row, "rid").unwrap_or("?"),
                    l.name()
                ),
                sent,
                other,
            )?;
        }
    }
    Ok(())
}
