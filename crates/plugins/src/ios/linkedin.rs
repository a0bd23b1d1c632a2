//! LinkedIn on iOS (`com.linkedin.LinkedIn`), the fields of iLEAPP's `linkedin_account`,
//! `linkedin_messages` and `linkedin_conversations`:
//!
//! - `Library/Preferences/com.linkedin.LinkedIn.plist` of its container (read by
//!   `parse_plist`, `publicIdentifier` qualified by its `qualify`): one `accounts` phenomenon —
//!   member id (`voy.authenticatedMemberId`) and, from `voy.authenticatedDashProfileModel`,
//!   first and last name, headline, location, public identifier;
//! - `Documents/msg_database.sqlite`: one `messages` phenomenon per `messages` row (delivered —
//!   Unix ms —, delivery status, the sender's first and last name, headline, profile URL and
//!   distance, the text, the conversation URN and its name as iLEAPP builds it: the first
//!   participant who is not the device's user), every JSON value read with `json_extract` in the
//!   query.
//!
//! Identities: every sender with a profile URL is `linkedin:<public identifier>` (computed in
//! the query, [`crate::linkedin`]), the id Android's LinkedIn keeps too; the account's public
//! identifier, the sender at distance `SELF` and the account's name are the device's user's
//! (`owner`); wallet addresses in a message are claims by direction. Schema drift: each table
//! is read when it has its key columns, the others where present.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, raw};
use crate::drafts::unix_by_magnitude;
use crate::linkedin::member_columns;

/// Triage of every LinkedIn store and preferences file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.linkedin.LinkedIn.plist", |find, path| {
        if path.contains("/Containers/Data/Application/") && path.contains("/Library/Preferences/")
        {
            account(run, find, path)
        } else {
            Ok(())
        }
    })?;
    // LinkedIn's own msg_database.sqlite: in a container whose preferences name LinkedIn
    let containers: Vec<String> = run
        .find("com.linkedin.LinkedIn.plist")?
        .map(|(_, paths)| paths)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| super::container_of(p).map(str::to_string))
        .collect();
    run.each("msg_database.sqlite", |find, path| {
        let ours = super::container_of(path).is_some_and(|c| containers.iter().any(|k| k == c));
        if ours && path.ends_with("/Documents/msg_database.sqlite") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn account(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "parse_plist",
        json!({"path": path, "qualify": {"publicIdentifier": "linkedin"}}),
    )?
    else {
        return Ok(());
    };
    let Ok(doc) = serde_json::from_str::<Value>(&inv.output.text) else {
        return Ok(());
    };
    let profile = doc.get("voy.authenticatedDashProfileModel");
    // a value as the output writes it, and only when it does
    let text = |v: Option<&Value>| {
        crate::outputs::json_scalar(v).filter(|s| inv.output.text.contains(s.as_str()))
    };
    let at = |path: &[&str]| {
        let mut v = profile?;
        for p in path {
            v = v.get(p)?;
        }
        text(Some(v))
    };
    let member = text(doc.get("voy.authenticatedMemberId"));
    let (first, last) = (at(&["firstName"]), at(&["lastName"]));
    let headline = at(&["headline"]);
    let location = at(&["geoLocation", "geo", "defaultLocalizedName"]);
    let public = at(&["publicIdentifier"]);
    let qualified = at(&["publicIdentifier.qualified"]);
    if member.is_none() && public.is_none() {
        return Ok(());
    }
    let mut d = Draft::new(
        "accounts",
        format!(
            "LinkedIn account {}",
            public.as_deref().or(member.as_deref()).unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, member.as_deref(), &inv);
    for v in [&first, &last] {
        d.fact(FactType::Name, v.as_deref(), &inv);
    }
    d.fact(FactType::Text, headline.as_deref(), &inv);
    d.fact(FactType::Text, location.as_deref(), &inv);
    d.fact(FactType::Account, public.as_deref(), &inv);
    d.interpretation = format!(
        "{path}: the LinkedIn member signed in on the device{}{}; its public profile is https://www.linkedin.com/in/{} (the public identifier).",
        crate::linkedin::member_words(member.as_deref(), first.as_deref(), last.as_deref()),
        headline
            .as_deref()
            .map(|h| format!(" ({h})"))
            .unwrap_or_default(),
        public.as_deref().unwrap_or("(not stored)"),
    );
    run.record(d)?;
    for (v, id_type, what) in [
        (
            qualified,
            IdType::AccountId,
            "public identifier (qualified by the tool)",
        ),
        (
            first
                .zip(last)
                .map(|(f, l)| format!("{f} {l}"))
                .filter(|n| inv.output.text.contains(n.as_str())),
            IdType::DisplayName,
            "name",
        ),
    ] {
        let Some(v) = v else {
            continue;
        };
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            id_type,
            &v,
            &inv,
            format!("The {what} of the LinkedIn member signed in on the device (com.linkedin.LinkedIn.plist)."),
        )?;
    }
    Ok(())
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["messages", "conversations"])? else {
        return Ok(());
    };
    if schema.columns("messages").is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse LinkedIn's msg_database.sqlite because it has no messages table",
            None,
        )?;
        return Ok(());
    }
    if !schema.require(run, "messages", &["deliveredAt", "serializedMessage"])? {
        return Ok(());
    }
    let m = |x: &str| schema.col("m", "messages", x);
    let conv = schema.columns("conversations");
    let label = if conv.contains("conversationUrn")
        && conv.contains("serializedConversation")
        && schema.columns("messages").contains("conversationUrn")
    {
        // iLEAPP's conversation name: the participant, of the first two, who is not SELF
        let p = |i: u8, f: &str| {
            format!(
                "json_extract(c.serializedConversation, '$.conversationParticipants[{i}].participantType.member.{f}')"
            )
        };
        format!(
            "(SELECT CASE WHEN {} = 'SELF' THEN {} || ' ' || {} ELSE {} || ' ' || {} END FROM conversations c WHERE c.conversationUrn = m.conversationUrn LIMIT 1)",
            p(0, "distance"),
            p(1, "firstName.text"),
            p(1, "lastName.text"),
            p(0, "firstName.text"),
            p(0, "lastName.text"),
        )
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.rowid AS rid, m.deliveredAt AS delivered, {} AS status, {} AS conversation, json_extract(m.serializedMessage, '$.body.text') AS body, {label} AS label, {} FROM messages m WHERE json_valid(m.serializedMessage))",
        m("deliveryStatus"),
        m("conversationUrn"),
        member_columns("m.serializedMessage", "$.sender", "s_"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let sent = t.get(row, "s_distance") == Some("SELF");
        let with = t
            .get(row, "label")
            .or(t.get(row, "conversation"))
            .unwrap_or("an unknown conversation")
            .to_string();
        let sender = t
            .get(row, "s_name")
            .unwrap_or("an unknown member")
            .to_string();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("LinkedIn message sent to {with}")
            } else {
                format!("LinkedIn message from {sender}")
            },
        );
        d.fact(FactType::Path, Some(path), find);
        crate::linkedin::message_facts(&mut d, t, row, inv);
        let delivered = raw(t, row, "delivered");
        d.message_time(
            delivered.as_deref(),
            unix_by_magnitude(delivered.as_deref()),
            sent,
            inv,
        );
        d.interpretation = format!(
            "messages row {rid} of {path}: a LinkedIn message {} in the conversation with {with}; delivery status {}; the delivery time is Unix time (milliseconds or seconds by its size).",
            if sent {
                "sent by the device's user (sender at distance SELF)".to_string()
            } else {
                format!("from {sender}")
            },
            t.get(row, "status").unwrap_or("not stored"),
        );
        run.record(d)?;
        if let Some(member) = t.get(row, "s_member") {
            let (context, label) = if sent {
                ("owner".to_string(), "device owner".to_string())
            } else {
                (member.to_string(), sender.clone())
            };
            crate::identity::observe_columns(
                run.ctx,
                &context,
                &label,
                t,
                row,
                inv,
                &[
                    (
                        "s_member",
                        IdType::AccountId,
                        "The LinkedIn member (public identifier of the profile URL)",
                    ),
                    ("s_name", IdType::DisplayName, "The name"),
                ],
                &|what| {
                    format!(
                        "{what} of the sender of a LinkedIn message (messages row {rid} of msg_database.sqlite)."
                    )
                },
            )?;
        }
        if let Some(text) = t.get(row, "body") {
            let other = if sent {
                None
            } else {
                t.get(row, "s_member")
                    .map(|m| (m.to_string(), sender.clone()))
            };
            run.message_claims(
                inv,
                text,
                &format!("a LinkedIn message (messages row {rid} of msg_database.sqlite)"),
                sent,
                other,
                "sender distance SELF",
                "sender another member",
            )?;
        }
    }
    Ok(())
}
