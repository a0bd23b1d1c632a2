//! ChatGPT on iOS (`com.openai.chat`), the fields of iLEAPP's `chatgpt` artefacts, read by
//! `read_json` and `parse_plist`:
//!
//! - `Library/Application Support/conversations-<account>/<id>.json` of its container: one
//!   `messages` phenomenon per conversation (created and modified — Core Data seconds —, title,
//!   id, model, the custom instructions about the model and about the user and whether they were
//!   on, temporary chat) and one per message of its `tree.storage` (created — Unix seconds —,
//!   message id, the author's role, the text parts, content type, finish type, voice mode, the
//!   model that answered), in the conversation's order;
//! - `Library/Application Support/drafts-<account>/<id>.json`: one `messages` per unsent draft
//!   (conversation id, text);
//! - `Library/Preferences/com.openai.chat.StatsigService.plist`: one `accounts` (account id, user
//!   id, e-mail, plan).
//!
//! What the user wrote to the assistant is theirs: a message whose author is `user` is sent by
//! the device's user, the assistant's and the system's are received. Identities: the account's
//! e-mail and `chatgpt:<user id>` (qualified by `parse_plist`) are the device's user's
//! (`owner`); wallet addresses the user wrote are their claims. A file of that name that is not
//! a conversation (no `tree`) is noted.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, core_data_encoding};
use crate::drafts::unix_seconds;
use crate::outputs::json_scalar;

/// Triage of ChatGPT's conversations, drafts and account preferences.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.openai.chat.StatsigService.plist", |find, path| {
        account(run, find, path)
    })?;
    run.each("????????-????-????-????-????????????.json", |find, path| {
        let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let folder = dir.rsplit('/').next().unwrap_or("");
        if !dir.contains("/Library/Application Support/") {
            return Ok(());
        }
        if folder.starts_with("conversations-") {
            conversation(run, find, path)
        } else if folder.starts_with("drafts-") {
            draft(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// The document `read_json` printed, with its call.
fn read(run: &Run<'_, '_>, path: &str) -> Result<Option<(Invoked, Value)>, RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_json", json!({"path": path}))?
    else {
        return Ok(None);
    };
    let doc = crate::outputs::json_document(&inv.output.text);
    Ok(doc.map(|d| (inv, d)))
}

fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |node, k| node.get(k))
}

fn account(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "parse_plist",
        json!({"path": path, "qualify": {"userID": "chatgpt"}}),
    )?
    else {
        return Ok(());
    };
    let Ok(doc) = serde_json::from_str::<Value>(&inv.output.text) else {
        return Ok(());
    };
    let s = |k: &str| json_scalar(doc.get(k));
    let (account, user, email, plan) = (s("accountID"), s("userID"), s("userEmail"), s("planType"));
    if account.is_none() && user.is_none() && email.is_none() {
        return Ok(());
    }
    let mut d = Draft::new(
        "accounts",
        format!(
            "ChatGPT account {}",
            email.as_deref().or(user.as_deref()).unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, account.as_deref(), &inv);
    d.fact(FactType::Account, user.as_deref(), &inv);
    d.fact(FactType::Email, email.as_deref(), &inv);
    d.fact(FactType::Text, plan.as_deref(), &inv);
    d.interpretation = format!(
        "{path}: the ChatGPT account signed in on the device: account id {}, user id {}, e-mail {}, plan {}.",
        account.as_deref().unwrap_or("not stored"),
        user.as_deref().unwrap_or("not stored"),
        email.as_deref().unwrap_or("not stored"),
        plan.as_deref().unwrap_or("not stored"),
    );
    run.record(d)?;
    for (v, id_type, what) in [
        (
            s("userID.qualified"),
            IdType::AccountId,
            "user id (qualified by the tool)",
        ),
        (email, IdType::Email, "e-mail"),
    ] {
        if let Some(v) = v {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                id_type,
                &v,
                &inv,
                format!("The {what} of the ChatGPT account signed in on the device (com.openai.chat.StatsigService.plist)."),
            )?;
        }
    }
    Ok(())
}

fn conversation(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = read(run, path)? else {
        return Ok(());
    };
    let Some(storage) = at(&doc, &["tree", "storage"]).and_then(Value::as_object) else {
        run.ctx.unparsed(
            path,
            "could not parse the ChatGPT conversation because it has no tree.storage of messages",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let s = |v: Option<&Value>| json_scalar(v);
    let title = s(doc.get("title"));
    let id = s(doc.get("id"));
    let topic = title.clone().unwrap_or("an untitled conversation".into());
    let mut d = Draft::new("messages", format!("ChatGPT conversation {topic}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Text, title.as_deref(), &inv);
    d.fact(FactType::Identifier, id.as_deref(), &inv);
    let config = doc.get("configuration");
    let c = |p: &[&str]| s(config.and_then(|c| at(c, p)));
    let mut said = Vec::new();
    for (v, label) in [
        (c(&["model"]), "model"),
        (
            c(&["custom_instructions", "about_model_message"]),
            "instructions about the model",
        ),
        (
            c(&["custom_instructions", "about_user_message"]),
            "instructions about the user",
        ),
        (c(&["custom_instructions", "active"]), "instructions on"),
        (c(&["is_temporary_chat"]), "temporary"),
    ] {
        if let Some(v) = v {
            d.fact(FactType::Text, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (k, what) in [
        ("creation_date", "ChatGPT conversation created"),
        ("modification_date", "ChatGPT conversation modified"),
    ] {
        let v = s(doc.get(k));
        d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, &inv);
    }
    d.interpretation = format!(
        "{}: a ChatGPT conversation \"{topic}\" ({} messages){}; its times are Core Data seconds.",
        path.rsplit('/').next().unwrap_or(path),
        storage.len(),
        if said.is_empty() {
            String::new()
        } else {
            format!(": {}", said.join(", "))
        },
    );
    run.record(d)?;
    let mut messages: Vec<(&String, &Value)> = storage.iter().collect();
    messages.sort_by(|a, b| {
        let t = |m: &Value| at(m, &["content", "create_time"]).and_then(Value::as_f64);
        t(a.1)
            .partial_cmp(&t(b.1))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for (message_id, m) in messages {
        let content = m.get("content");
        let g = |p: &[&str]| s(content.and_then(|c| at(c, p)));
        let role = g(&["author", "role"]);
        let parts: Vec<String> = content
            .and_then(|c| at(c, &["content", "parts"]))
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|p| json_scalar(Some(p))).collect())
            .unwrap_or_default();
        let sent = role.as_deref() == Some("user");
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("ChatGPT prompt in {topic}")
            } else {
                format!(
                    "ChatGPT {} message in {topic}",
                    role.as_deref().unwrap_or("unattributed")
                )
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let mid = crate::outputs::in_json(message_id);
        d.fact(FactType::Identifier, Some(&mid), &inv);
        d.fact(FactType::Identifier, id.as_deref(), &inv);
        let mut said = Vec::new();
        for (v, label) in [
            (role.clone(), "author"),
            (g(&["content_type"]), "content type"),
            (g(&["metadata", "finish_details", "type"]), "finish"),
            (g(&["metadata", "voice_mode_message"]), "voice mode"),
            (g(&["metadata", "model_slug"]), "model"),
        ] {
            if let Some(v) = v {
                d.fact(FactType::Text, Some(&v), &inv);
                said.push(format!("{label} {v}"));
            }
        }
        for p in &parts {
            d.fact(FactType::Text, Some(p), &inv);
        }
        let created = g(&["create_time"]);
        d.message_time(
            created.as_deref(),
            unix_seconds(created.as_deref()),
            sent,
            &inv,
        );
        d.interpretation = format!(
            "Message {mid} of the ChatGPT conversation \"{topic}\": {}{}; {} text part(s); the time is Unix seconds.",
            if sent {
                "written by the device's user to the assistant (author user)".to_string()
            } else {
                format!(
                    "from the {}",
                    role.as_deref().unwrap_or("author not stored")
                )
            },
            if said.is_empty() {
                String::new()
            } else {
                format!(" ({})", said.join(", "))
            },
            parts.len(),
        );
        run.record(d)?;
        if sent {
            for p in content
                .and_then(|c| at(c, &["content", "parts"]))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                run.message_claims(
                    &inv,
                    p,
                    &format!("a ChatGPT prompt (message {mid})"),
                    true,
                    None,
                    "author user",
                    "author assistant",
                )?;
            }
        }
    }
    Ok(())
}

fn draft(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = read(run, path)? else {
        return Ok(());
    };
    let conversation = json_scalar(doc.get("conversation_id"));
    let text = json_scalar(at(&doc, &["content", "text"]));
    if conversation.is_none() && text.is_none() {
        return Ok(());
    }
    let mut d = Draft::new(
        "messages",
        format!(
            "ChatGPT draft in conversation {}",
            conversation.as_deref().unwrap_or("not stored")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, conversation.as_deref(), &inv);
    d.fact(FactType::Text, text.as_deref(), &inv);
    d.interpretation = format!(
        "{}: a prompt the device's user typed in ChatGPT and did not send.",
        path.rsplit('/').next().unwrap_or(path)
    );
    run.record(d)
}
