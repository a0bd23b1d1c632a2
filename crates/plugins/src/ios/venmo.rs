//! Venmo on iOS: the feed caches `PrivateFeed`, `PublicFeed` and `FriendsFeed` of its app
//! container (property lists with a `stories` array), with the fields of iLEAPP's
//! `venmo_transactions` and `venmo_users`:
//!
//! - one `transactions` phenomenon per story of type `payment` whose payment is a `payment` with
//!   action `pay` or `charge`: created and completed (ISO 8601), the action, the payer's and the
//!   receiver's display and user names (on a `charge` the actor receives, on a `pay` the actor
//!   pays), note, amount, status, audience; other stories are counted in a note, as iLEAPP logs
//!   them;
//! - one `contacts` phenomenon per user the stories name (each user once, by id): id, joined
//!   (ISO 8601), display, first and last name, friend status, blocked, active, payable,
//!   identity type, picture URL.
//!
//! Identities: each user is `venmo:<id>` with `venmo-user:<user name>` and the display name
//! (qualified by `parse_plist`, so they ground); a note's wallet addresses are claims of the
//! payer. Who the device's user is, is not in the feeds. A feed that is no property list or has
//! no `stories` is noted.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse_with;
use super::{Draft, Run};
use crate::outputs::json_scalar;

/// The feed files.
pub const FEEDS: [&str; 3] = ["PrivateFeed", "PublicFeed", "FriendsFeed"];

/// Triage of every Venmo feed of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    // each user once across the feeds, as iLEAPP lists them
    let mut users: BTreeSet<String> = BTreeSet::new();
    for feed in FEEDS {
        run.each(feed, |find, path| {
            if path.contains("/Containers/Data/Application/") {
                one(run, find, path, &mut users)
            } else {
                Ok(())
            }
        })?;
    }
    Ok(())
}

/// A scalar member of `v` as the tool's output prints it.
fn s(v: &Value, key: &str) -> Option<String> {
    json_scalar(v.get(key))
}

/// An ISO 8601 time as the output holds it, with its encoding when it is one.
fn iso(v: Option<String>) -> (Option<String>, Option<TimeEncoding>) {
    let enc = v
        .as_ref()
        .filter(|t| t.contains('T'))
        .map(|_| TimeEncoding::Iso8601);
    (v, enc)
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    users: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse_with(
        run,
        path,
        json!({"qualify": {"id": "venmo", "username": "venmo-user"}}),
    )?
    else {
        return Ok(());
    };
    let Some(stories) = v.get("stories").and_then(Value::as_array) else {
        run.ctx.unparsed(
            path,
            "could not parse the Venmo feed because it has no stories array",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let file = path.rsplit('/').next().unwrap_or(path);
    let mut other = 0usize;
    for story in stories {
        let payment = story.get("payment").filter(|p| p.is_object());
        for u in payment
            .into_iter()
            .flat_map(|p| [p.get("actor"), p.get("target").and_then(|t| t.get("user"))])
            .flatten()
            .filter(|u| u.is_object())
        {
            if let Some(id) = s(u, "id")
                && users.insert(id.clone())
            {
                user(run, find, path, file, &inv, u, &id)?;
            }
        }
        let Some(p) = payment else {
            other += 1;
            continue;
        };
        let action = p.get("action").and_then(Value::as_str).unwrap_or("");
        if story.get("type").and_then(Value::as_str) != Some("payment")
            || p.get("type").and_then(Value::as_str) != Some("payment")
            || !matches!(action, "pay" | "charge")
        {
            other += 1;
            continue;
        }
        transaction(run, find, path, file, &inv, story, p, action)?;
    }
    if other > 0 {
        run.ctx.unparsed(
            path,
            &format!(
                "{other} stories of {file} are not pay or charge payments (as iLEAPP, not read as transactions)"
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn transaction(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    file: &str,
    inv: &Invoked,
    story: &Value,
    p: &Value,
    action: &str,
) -> Result<(), RuntimeError> {
    let empty = Value::Null;
    let actor = p.get("actor").unwrap_or(&empty);
    let target = p
        .get("target")
        .and_then(|t| t.get("user"))
        .unwrap_or(&empty);
    // on a charge the actor is paid; on a pay the actor pays
    let (payer, receiver) = if action == "charge" {
        (target, actor)
    } else {
        (actor, target)
    };
    let name = |u: &Value| {
        u.get("display_name")
            .and_then(Value::as_str)
            .or(u.get("username").and_then(Value::as_str))
            .unwrap_or("an unknown user")
            .to_string()
    };
    let amount = s(p, "amount");
    let note = s(p, "note");
    let mut d = Draft::new(
        "transactions",
        format!(
            "Venmo payment from {} to {}{}",
            name(payer),
            name(receiver),
            amount
                .as_deref()
                .map(|a| format!(": {a}"))
                .unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Text, s(p, "action").as_deref(), inv);
    for u in [payer, receiver] {
        d.fact(FactType::Name, s(u, "display_name").as_deref(), inv);
        d.fact(FactType::Account, s(u, "username").as_deref(), inv);
        d.fact(FactType::Account, s(u, "id").as_deref(), inv);
    }
    d.fact(FactType::Text, note.as_deref(), inv);
    d.fact(FactType::Amount, amount.as_deref(), inv);
    d.fact(FactType::Text, s(p, "status").as_deref(), inv);
    d.fact(FactType::Text, s(story, "audience").as_deref(), inv);
    let (created, enc) = iso(s(story, "date_created"));
    d.time(created.as_deref(), enc, "Venmo payment created", inv);
    let (done, enc) = iso(s(p, "date_completed"));
    d.time(done.as_deref(), enc, "Venmo payment completed", inv);
    d.interpretation = format!(
        "A {action} story of {file}: {} {} {}{}{}, status {}, audience {}; on a charge the actor is paid, on a pay the actor pays; times are ISO 8601.",
        name(actor),
        if action == "charge" {
            "charged"
        } else {
            "paid"
        },
        name(target),
        amount
            .as_deref()
            .map(|a| format!(" {a}"))
            .unwrap_or_default(),
        note.as_deref()
            .map(|n| format!(" for \"{n}\""))
            .unwrap_or_default(),
        s(p, "status").as_deref().unwrap_or("not stored"),
        s(story, "audience").as_deref().unwrap_or("not stored"),
    );
    run.record(d)?;
    // the note's words are the actor's
    if let (Some(text), Some(id)) = (p.get("note").and_then(Value::as_str), s(actor, "id")) {
        let context = format!("venmo:{id}");
        let label = name(actor);
        let role = format!("{label}, the actor of the {action}, who wrote the note");
        crate::identity::observe_written_wallets(
            run.ctx.phone_region().as_ref(),
            text,
            &format!("a Venmo {action} ({file})"),
            Some(crate::identity::Party {
                context: &context,
                label: &label,
                role: &role,
            }),
            None,
            &mut |c, k, l, t, val, i, cue| {
                crate::identity::observe_cued(run.ctx, c, k, l, t, val, inv, i, cue)
            },
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn user(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    file: &str,
    inv: &Invoked,
    u: &Value,
    id: &str,
) -> Result<(), RuntimeError> {
    let label = u
        .get("display_name")
        .and_then(Value::as_str)
        .or(u.get("username").and_then(Value::as_str))
        .unwrap_or(id)
        .to_string();
    let mut d = Draft::new("contacts", format!("Venmo user {label}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, Some(id), inv);
    d.fact(FactType::Account, s(u, "username").as_deref(), inv);
    for key in ["display_name", "first_name", "last_name"] {
        d.fact(FactType::Name, s(u, key).as_deref(), inv);
    }
    for key in ["friend_status", "identity_type"] {
        d.fact(FactType::Text, s(u, key).as_deref(), inv);
    }
    for key in ["is_blocked", "is_active", "is_payable"] {
        d.fact(FactType::Text, s(u, key).as_deref(), inv);
    }
    d.fact(FactType::Url, s(u, "profile_picture_url").as_deref(), inv);
    let (joined, enc) = iso(s(u, "date_joined"));
    d.time(joined.as_deref(), enc, "Venmo user joined", inv);
    d.interpretation = format!(
        "A user named in the stories of {file}: the Venmo user {label} (id {id}{}), friend status {}.",
        u.get("username")
            .and_then(Value::as_str)
            .map(|n| format!(", user name {n}"))
            .unwrap_or_default(),
        s(u, "friend_status").as_deref().unwrap_or("not stored"),
    );
    run.record(d)?;
    run.observe_person(
        &format!("venmo:{id}"),
        &label,
        inv,
        &|what| format!("{what} of the Venmo user {label}, named in {file}."),
        &[
            (
                IdType::AccountId,
                s(u, "id.qualified").as_deref(),
                "The Venmo user id",
            ),
            (
                IdType::AccountId,
                s(u, "username.qualified").as_deref(),
                "The Venmo user name",
            ),
            (
                IdType::DisplayName,
                s(u, "display_name").as_deref(),
                "The display name",
            ),
        ],
    )
}
