//! Clubhouse: the app keeps its account and what it uploaded in two preference plists, read
//! with `parse_plist` (`decode_data`: JSON held in data values is decoded), the fields of
//! iLEAPP's `clubhouse*` artefacts:
//!
//! - `co.alphaexploration.clubhouse.plist` (the app's `Library/Preferences`): the signed-in
//!   account (`kStorageKeyMyName`, `…MyUsername`, `…UserServerId`, `…PhoneNumber`,
//!   `…MyPhotoUrl`, `…DeviceId`, admin flag, invites left, co-follows, blind invite, upgraded
//!   from v1, onboarding seen, last sync, the ids it follows and blocks) and the address-book
//!   contacts it uploaded (`contact-upload-store-suggested-invites`: JSON with the upload time
//!   in Apple seconds and per contact its name, phone number, whether they are on Clubhouse,
//!   popularity, the address book's contact identifier, hash and image).
//! - `group.alphaexploration.clubhouse.plist` (the app group): the conversations of the
//!   widget (`widgetConversations`: participant name, conversation id, image) and the
//!   notifications received (`notification_received_timestamps`, Unix seconds as text, beside
//!   `notification_received_ids`).
//!
//! Identities: the account is the device user's (`owner`): `clubhouse:<user id>` (qualified
//! by the tool, so it is grounded), its user name, name and phone number. Each uploaded
//! contact is a person `clubhouse-contact:<hash>` with its name, phone number and the address
//! book's person GUID (`cnContactIdentifier`), the key that joins it to its address-book card.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse_with;
use super::{Draft, Run};
use crate::outputs::{in_json, json_scalar};

/// Triage of the Clubhouse preference plists of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("co.alphaexploration.clubhouse.plist", |find, path| {
        account(run, find, path)
    })?;
    run.each("group.alphaexploration.clubhouse.plist", |find, path| {
        group(run, find, path)
    })
}

/// `yes`/`no` of a boolean member ("?" when absent).
fn flag(v: &Value, key: &str) -> &'static str {
    match v.get(key).and_then(Value::as_bool) {
        Some(true) => "yes",
        Some(false) => "no",
        None => "?",
    }
}

fn account(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let options = json!({"decode_data": true, "qualify": {"kStorageKeyUserServerId": "clubhouse"}});
    let Some((inv, v)) = parse_with(run, path, options)? else {
        return Ok(());
    };
    let username = json_scalar(v.get("kStorageKeyMyUsername"));
    let user_id = json_scalar(v.get("kStorageKeyUserServerId"));
    if username.is_none() && user_id.is_none() {
        run.ctx.unparsed(
            path,
            "no Clubhouse account: neither kStorageKeyMyUsername nor kStorageKeyUserServerId is set",
            Some(&inv.record.invocation_id),
        )?;
    } else {
        account_record(run, find, path, &inv, &v)?;
    }
    contacts(run, find, path, &inv, &v)
}

fn account_record(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    v: &Value,
) -> Result<(), RuntimeError> {
    let name = json_scalar(v.get("kStorageKeyMyName"));
    let username = json_scalar(v.get("kStorageKeyMyUsername"));
    let user_id = json_scalar(v.get("kStorageKeyUserServerId"));
    let phone = json_scalar(v.get("kStorageKeyPhoneNumber"));
    let list = |key: &str| -> Vec<String> {
        v.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|x| json_scalar(Some(x)))
            .collect()
    };
    let following = list("kCachedFollowing");
    let blocked: Vec<String> = match v.get("kCachedBlocked") {
        Some(Value::Object(m)) => m.keys().map(|k| in_json(k)).collect(),
        _ => list("kCachedBlocked"),
    };
    let mut d = Draft::new(
        "accounts",
        format!(
            "Clubhouse account {}",
            username.as_deref().or(name.as_deref()).unwrap_or("?")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Name, name.as_deref(), inv);
    d.fact(FactType::Account, username.as_deref(), inv);
    d.fact(FactType::Identifier, user_id.as_deref(), inv);
    d.fact(FactType::Phone, phone.as_deref(), inv);
    d.fact(
        FactType::Url,
        json_scalar(v.get("kStorageKeyMyPhotoUrl")).as_deref(),
        inv,
    );
    d.fact(
        FactType::Identifier,
        json_scalar(v.get("kStorageKeyDeviceId")).as_deref(),
        inv,
    );
    d.fact(
        FactType::Count,
        json_scalar(v.get("kStorageKeyNumInvites")).as_deref(),
        inv,
    );
    d.fact(
        FactType::Count,
        json_scalar(v.get("kNumCofollows")).as_deref(),
        inv,
    );
    for id in following.iter().chain(&blocked) {
        d.fact(FactType::Identifier, Some(id), inv);
    }
    let sync = json_scalar(v.get("kLastSyncDate"));
    d.time(
        sync.as_deref(),
        sync.as_ref().map(|_| TimeEncoding::Iso8601),
        "Last sync with the Clubhouse server",
        inv,
    );
    d.interpretation = format!(
        "{path}: the Clubhouse account signed in on the device: name {}, user name {}, user id {}, phone number {}; admin: {}, invites remaining {}, co-follows {}, blind invite user: {}, upgraded from v1: {}, onboarding seen: {}; follows {} user id(s) ({}), blocks {} ({}).",
        name.as_deref().unwrap_or("(none)"),
        username.as_deref().unwrap_or("(none)"),
        user_id.as_deref().unwrap_or("(none)"),
        phone.as_deref().unwrap_or("(none)"),
        flag(v, "kStorageKeyMyIsAdmin"),
        json_scalar(v.get("kStorageKeyNumInvites"))
            .as_deref()
            .unwrap_or("?"),
        json_scalar(v.get("kNumCofollows"))
            .as_deref()
            .unwrap_or("?"),
        flag(v, "kIsBlindInviteUser"),
        flag(v, "kStorageKeyIsUpgradedFromV1"),
        flag(v, "kStorageKeyUserHasSeenOnboarding"),
        following.len(),
        following.join(", "),
        blocked.len(),
        blocked.join(", "),
    );
    run.record(d)?;

    let why = |what: &str| format!("{what} of the Clubhouse account signed in on the device.");
    let qualified = v
        .get("kStorageKeyUserServerId.qualified")
        .and_then(Value::as_str);
    run.observe_person(
        "owner",
        "device owner",
        inv,
        &why,
        &[
            (
                IdType::AccountId,
                qualified,
                "The qualified user id (clubhouse:<kStorageKeyUserServerId>)",
            ),
            (IdType::Nickname, username.as_deref(), "The user name"),
            (IdType::DisplayName, name.as_deref(), "The name"),
            (IdType::Phone, phone.as_deref(), "The phone number"),
        ],
    )
}

/// The address-book contacts the app uploaded (`contact-upload-store-suggested-invites`).
fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    v: &Value,
) -> Result<(), RuntimeError> {
    let Some(store) = v.get("contact-upload-store-suggested-invites") else {
        return Ok(());
    };
    let Some(store) = store.get("$data_json") else {
        run.ctx.unparsed(
            &format!("{path} contact-upload-store-suggested-invites"),
            "the uploaded contacts are not JSON text",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let uploaded = json_scalar(store.get("lastUpdated"));
    let invites = store
        .get("suggestedInvites")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for c in &invites {
        let name = json_scalar(c.get("name"));
        let phone = json_scalar(c.get("phoneNumber"));
        let hash = json_scalar(c.get("hash"));
        let guid = json_scalar(c.get("cnContactIdentifier"));
        let on = match c.get("inApp").and_then(Value::as_bool) {
            Some(true) => "yes",
            Some(false) => "no",
            None => "?",
        };
        let mut d = Draft::new(
            "contacts",
            format!(
                "Clubhouse uploaded contact {}",
                name.as_deref().or(phone.as_deref()).unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, name.as_deref(), inv);
        d.fact(FactType::Phone, phone.as_deref(), inv);
        d.fact(FactType::Count, json_scalar(c.get("pop")).as_deref(), inv);
        d.fact(FactType::Identifier, guid.as_deref(), inv);
        d.fact(FactType::Identifier, hash.as_deref(), inv);
        d.fact(
            FactType::Name,
            json_scalar(c.get("imagePath")).as_deref(),
            inv,
        );
        d.time(
            uploaded.as_deref(),
            super::core_data_encoding(uploaded.as_deref()),
            "Contacts last uploaded to Clubhouse",
            inv,
        );
        d.interpretation = format!(
            "{path}: an address-book contact the Clubhouse app uploaded (suggested invites): name {}, phone number {}, already on Clubhouse: {on}, popularity {}, address-book identifier {}, contact hash {}; the upload time is Apple seconds since 2001.",
            name.as_deref().unwrap_or("(none)"),
            phone.as_deref().unwrap_or("(none)"),
            json_scalar(c.get("pop")).as_deref().unwrap_or("?"),
            guid.as_deref().unwrap_or("(none)"),
            hash.as_deref().unwrap_or("(none)"),
        );
        run.record(d)?;
        let Some(key) = hash.as_deref().or(guid.as_deref()).or(phone.as_deref()) else {
            continue;
        };
        let context = format!("clubhouse-contact:{key}");
        let label = name.as_deref().or(phone.as_deref()).unwrap_or(key);
        let why =
            |what: &str| format!("{what} of {label}, an address-book contact Clubhouse uploaded.");
        run.observe_person(
            &context,
            label,
            inv,
            &why,
            &[
                (IdType::Phone, phone.as_deref(), "The phone number"),
                (IdType::DisplayName, name.as_deref(), "The name"),
                (
                    IdType::ContactGuid,
                    guid.as_deref(),
                    "The address book's person identifier",
                ),
            ],
        )?;
    }
    Ok(())
}

/// The app group's plist: widget conversations and received notifications.
fn group(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse_with(run, path, json!({"decode_data": true}))? else {
        return Ok(());
    };
    if let Some(w) = v.get("widgetConversations") {
        match w.get("$data_json").and_then(Value::as_array) {
            Some(convs) => {
                for c in convs {
                    let name = json_scalar(c.get("name"));
                    let id = json_scalar(c.get("id"));
                    let mut d = Draft::new(
                        "messages",
                        format!(
                            "Clubhouse conversation with {}",
                            name.as_deref().unwrap_or("?")
                        ),
                    );
                    d.fact(FactType::Path, Some(path), find);
                    d.fact(FactType::Name, name.as_deref(), &inv);
                    d.fact(FactType::Identifier, id.as_deref(), &inv);
                    d.fact(
                        FactType::Url,
                        json_scalar(c.get("imageUrl")).as_deref(),
                        &inv,
                    );
                    d.interpretation = format!(
                        "{path}: a Clubhouse conversation the home-screen widget shows: participant {}, conversation id {}.",
                        name.as_deref().unwrap_or("(none)"),
                        id.as_deref().unwrap_or("(none)"),
                    );
                    run.record(d)?;
                }
            }
            None => run.ctx.unparsed(
                &format!("{path} widgetConversations"),
                "the widget's conversations are not a JSON list",
                Some(&inv.record.invocation_id),
            )?,
        }
    }
    let list = |key: &str| -> Vec<String> {
        v.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|x| json_scalar(Some(x)))
            .collect()
    };
    let times = list("notification_received_timestamps");
    let ids = list("notification_received_ids");
    for (i, time) in times.iter().enumerate() {
        let id = ids.get(i);
        let mut d = Draft::new(
            "notifications",
            format!(
                "Clubhouse notification {}",
                id.map(String::as_str).unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, id.map(String::as_str), &inv);
        d.time(
            Some(time),
            crate::drafts::unix_seconds(Some(time)),
            "Notification received",
            &inv,
        );
        d.interpretation = format!(
            "{path}: Clubhouse notification {} received (notification_received_timestamps[{i}], Unix seconds).",
            id.map(String::as_str).unwrap_or("(no id)"),
        );
        run.record(d)?;
    }
    Ok(())
}
