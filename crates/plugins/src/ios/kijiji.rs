//! Kijiji on iOS: the conversation cache `Library/Caches/conversation_cache` of its container
//! (one JSON document, read by `read_json`, the counterparties' `identifier` qualified by its
//! `qualify`), the fields of iLEAPP's `kijijiConversations`: one `messages` phenomenon per
//! message of each conversation of `data` — sent (`sentDate`, Core Data seconds), conversation
//! id, the ad's id and title, message id, the counterparty's id and name, sender (0 is the
//! device's user), status, text.
//!
//! Identities: a counterparty is `kijiji:<id>` with its name (the id Android's Kijiji keeps);
//! wallet addresses in a message are claims by direction. A file of that name that is not
//! Kijiji's cache (no `data` list of conversations) is noted. Kleinanzeigen keeps its cache in
//! the same place and layout: a container known to be Kleinanzeigen's
//! ([`super::appcontainer`]) is left to [`super::kleinanzeigenios`].

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run};
use crate::outputs::json_scalar;

/// Triage of every Kijiji conversation cache of the source: those of containers known to be
/// Kleinanzeigen's (the same layout) are left to [`super::kleinanzeigenios`].
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut kleinanzeigen = super::appcontainer::AppContainers::new(
        run,
        super::kleinanzeigenios::BUNDLE,
        super::kleinanzeigenios::PREFS,
    )?;
    run.each("conversation_cache", |find, path| {
        if path.contains("/Containers/Data/Application/")
            && path.ends_with("/Library/Caches/conversation_cache")
            && !kleinanzeigen.is_app(run, path)?
        {
            cache(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn cache(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "read_json",
        json!({"path": path, "qualify": {"identifier": "kijiji"}}),
    )?
    else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text);
    let Some(conversations) = doc
        .as_ref()
        .and_then(|d| d.get("data"))
        .and_then(Value::as_array)
    else {
        run.ctx.unparsed(
            path,
            "could not parse Kijiji's conversation cache because it has no data list of conversations",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for conversation in conversations {
        let s = |v: Option<&Value>| json_scalar(v);
        let party = conversation.get("counterParty");
        let ad = conversation.get("ad");
        let party_id = s(party.and_then(|p| p.get("identifier")));
        let qualified = s(party.and_then(|p| p.get("identifier.qualified")));
        let party_name = s(party.and_then(|p| p.get("name")));
        let ad_id = s(ad.and_then(|a| a.get("identifier")));
        let ad_title = s(ad.and_then(|a| a.get("displayTitle")));
        let conversation_id = s(conversation.get("conversationId"));
        let with = party_name
            .clone()
            .or(party_id.clone())
            .unwrap_or("an unknown user".into());
        let about = ad_title.clone().unwrap_or("an ad not named".into());
        for message in conversation
            .get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let sender = s(message.get("sender"));
            let sent = sender.as_deref() == Some("0");
            let mut d = Draft::new(
                "messages",
                if sent {
                    format!("Kijiji message to {with} about {about}")
                } else {
                    format!("Kijiji message from {with} about {about}")
                },
            );
            d.fact(FactType::Path, Some(path), find);
            for v in [&conversation_id, &ad_id, &s(message.get("messageId"))] {
                d.fact(FactType::Identifier, v.as_deref(), &inv);
            }
            d.fact(FactType::Text, ad_title.as_deref(), &inv);
            d.fact(FactType::Account, party_id.as_deref(), &inv);
            d.fact(FactType::Name, party_name.as_deref(), &inv);
            let text = s(message.get("text"));
            for v in [&sender, &s(message.get("messageStatus")), &text] {
                d.fact(FactType::Text, v.as_deref(), &inv);
            }
            let at = s(message.get("sentDate"));
            d.message_time(
                at.as_deref(),
                super::core_data_encoding(at.as_deref()),
                sent,
                &inv,
            );
            d.interpretation = format!(
                "Kijiji's conversation cache (conversation {}): a message {} {with} about the ad \"{about}\"; the time is Core Data seconds.",
                conversation_id.as_deref().unwrap_or("?"),
                if sent {
                    "from the device's user (sender 0) to"
                } else {
                    "to the device's user from"
                },
            );
            run.record(d)?;
            let Some(context) = party_id.as_ref().map(|id| format!("kijiji:{id}")) else {
                continue;
            };
            for (v, id_type, what) in [
                (
                    &qualified,
                    IdType::AccountId,
                    "user id (qualified by the tool)",
                ),
                (&party_name, IdType::DisplayName, "name"),
            ] {
                if let Some(v) = v {
                    run.observe(
                        &context,
                        EntityKind::Person,
                        &with,
                        id_type,
                        v,
                        &inv,
                        format!("The Kijiji {what} of {with}, a user the device's user wrote with (conversation_cache)."),
                    )?;
                }
            }
            if let Some(text) = message.get("text").and_then(Value::as_str) {
                run.message_claims(
                    &inv,
                    text,
                    "a Kijiji message (conversation_cache)",
                    sent,
                    Some((context.clone(), with.clone())),
                    "sender 0",
                    "sender the counterparty",
                )?;
            }
        }
    }
    Ok(())
}
