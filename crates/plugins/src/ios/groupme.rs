//! GroupMe's preferences (`com.groupme.iphone-app.plist` in the app's `Library/Preferences`),
//! read with `parse_plist`: the signed-in user's profile (`user`: name, e-mail, phone number,
//! id, creation date, verified) and the app's state (`userId`, app version, last chat viewed, the
//! last full refresh, address-book scan, relationship fetch and profile refresh, whether
//! contacts are synced to the server, the push token `apnsId`), the fields of iLEAPP's
//! `groupMeAccount`. The profile is the device user's (`owner`): `groupme:<userId>` (qualified
//! by the tool, so it is grounded), its e-mail address, phone number and name.
//!
//! GroupMe's messages, chats, members and contacts live in `GroupMe.sqlite`: [`super::groupmedb`].

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse_with;
use super::{Draft, Run};
use crate::outputs::json_scalar;

/// Triage of every GroupMe preference plist of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.groupme.iphone-app.plist", |find, path| {
        one(run, find, path)
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse_with(run, path, json!({"qualify": {"userId": "groupme"}}))? else {
        return Ok(());
    };
    let user = v.get("user").cloned().unwrap_or(Value::Null);
    let user_id = json_scalar(v.get("userId")).or_else(|| json_scalar(user.get("id")));
    if user_id.is_none() && user.is_null() {
        run.ctx.unparsed(
            path,
            "no GroupMe account: neither userId nor user is set",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let name = json_scalar(user.get("name"));
    let email = json_scalar(user.get("email"));
    let phone = json_scalar(user.get("phone_number"));
    let created = json_scalar(user.get("created_at"));
    let version =
        json_scalar(v.get("GMAppVersion")).or_else(|| json_scalar(v.get("lastLaunchVersion")));
    let last_chat = json_scalar(v.get("GMLastChatViewed"));
    let apns = json_scalar(v.get("apnsId"));
    let sync = json_scalar(v.get("syncContactsToServer"));
    let mut d = Draft::new(
        "accounts",
        format!(
            "GroupMe account {}",
            name.as_deref().or(user_id.as_deref()).unwrap_or("?")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, user_id.as_deref(), &inv);
    d.fact(FactType::Name, name.as_deref(), &inv);
    d.fact(FactType::Email, email.as_deref(), &inv);
    d.fact(FactType::Phone, phone.as_deref(), &inv);
    d.fact(FactType::Text, version.as_deref(), &inv);
    d.fact(FactType::Identifier, last_chat.as_deref(), &inv);
    d.fact(FactType::Identifier, apns.as_deref(), &inv);
    d.time(
        created.as_deref(),
        created
            .as_ref()
            .filter(|t| t.contains('T'))
            .map(|_| TimeEncoding::Iso8601),
        "GroupMe profile created",
        &inv,
    );
    for (key, what) in [
        ("GMTimeLastDidFullRefresh", "Last full refresh"),
        ("kLastScannedAddressBook", "Address book last scanned"),
        ("lastFetchedRelationships", "Relationships last fetched"),
        ("userProfileLastRefresh", "Profile last refreshed"),
    ] {
        // Property-list dates, printed by the tool in RFC 3339 UTC.
        let t = json_scalar(v.get(key)).filter(|t| t.contains('T'));
        d.time(
            t.as_deref(),
            t.as_ref().map(|_| TimeEncoding::Iso8601),
            what,
            &inv,
        );
    }
    d.interpretation = format!(
        "{path}: the GroupMe account signed in on the device: user id {}, name {}, e-mail {}, phone number {}, profile created {}; app version {}, last chat viewed {}, contacts synced to the server: {}, push token (APNS id) {}.",
        user_id.as_deref().unwrap_or("(none)"),
        name.as_deref().unwrap_or("(none)"),
        email.as_deref().unwrap_or("(none)"),
        phone.as_deref().unwrap_or("(none)"),
        created.as_deref().unwrap_or("(none)"),
        version.as_deref().unwrap_or("?"),
        last_chat.as_deref().unwrap_or("(none)"),
        sync.as_deref().unwrap_or("?"),
        apns.as_deref().unwrap_or("(none)"),
    );
    run.record(d)?;
    let qualified = v.get("userId.qualified").and_then(Value::as_str);
    let why = |what: &str| format!("{what} of the GroupMe account signed in on the device.");
    run.observe_person(
        "owner",
        "device owner",
        &inv,
        &why,
        &[
            (
                IdType::AccountId,
                qualified,
                "The qualified user id (groupme:<userId>)",
            ),
            (
                IdType::Email,
                email.as_deref(),
                "The profile's e-mail address",
            ),
            (
                IdType::Phone,
                phone.as_deref(),
                "The profile's phone number",
            ),
            (IdType::DisplayName, name.as_deref(), "The profile's name"),
        ],
    )?;
    Ok(())
}
