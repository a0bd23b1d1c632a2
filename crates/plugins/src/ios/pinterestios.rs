//! Pinterest for iOS (bundle `pinterest`), iLEAPP's `pinterest` ("Pinterest - Account",
//! "Pinterest - Messages", "Pinterest - App State"): the account signed in, the direct messages
//! the app cached and its own preferences. Every file is an NSKeyedArchiver or plain property
//! list read with `parse_plist` (archives unwrapped; `id` members qualified `pinterest:<id>` by
//! its `qualify`):
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `Documents/activeUser`, `Documents/activeUser<id>` (the same record twice) | one `accounts` per account id of a container ("Pinterest account <user name>") | id and `pinterest:<id>`, user name, full, first and last name, e-mail, about, location, country, locale, gender, age, private profile, excluded from search, e-mail confirmed, follower, following, board, secret and archived board, pin, video pin, story pin and saved pin counts, profile views, connected to Facebook, Instagram, Twitter, YouTube and Etsy, avatar URL, account type; account created and last board created (RFC 2822 text as stored: a fact, no time; a date the archive holds as an NSDate is a time) |
//! | `Library/Caches/com.pinterest.PINDiskCache.PINRemoteModelCache/conversations%2F…` (a cached API response; its name the percent-encoded request) | one `messages` per message of `models` ("Pinterest message from <sender>", "… sent by <sender> (the device's user)") | message id, text, type, event type, context and deleted-by as stored; the sender's id, `pinterest:<id>`, user name and name; the conversation's id and name and its participants; a shared pin's id, title, description, link, domain, video flag and largest image URL; sent (an NSDate), read by the account (the conversation's `read_times` entry of the account's id), the pin's creation |
//! | `Library/Preferences/pinterest.plist` | one `apps` ("Pinterest app preferences") | every scalar of the keys named by the app's own prefixes (`kPinterest`, `kPIN`, `com.pinterest.` …) as stored, dates as times; keys naming a token, secret, password, cookie or session left out |
//!
//! The message cache is a response cache, not a message store: it holds what the app last
//! fetched for the conversations opened (iLEAPP: the server may have left system messages out
//! of it), so it is neither the whole history nor proof that other conversations did not
//! exist. A message's direction is its sender's id against the account's (from `activeUser` of
//! the same container); without that file it is not said. The integers of a message (type,
//! event, context, deleted by) have no documented meaning: as stored.
//!
//! Every file is read only in a container known to be Pinterest's ([`super::appcontainer`]:
//! `Library/Preferences/pinterest.plist` — the bundle id is the bare word `pinterest` —, a
//! backup's folder, FrontBoard or the container's metadata): the cache folder is named after
//! Pinterest's open-source library, which other apps embed, and `activeUser` is a generic name;
//! another app's files are neither read nor noted. An `activeUser` that holds no archived
//! account (a dictionary with an `id`), a cached response without a `models` list and a file
//! that does not parse (by the call) are noted. Not read: the cached images (files, not
//! records), the other cached requests (an inventory of API paths), the search autocomplete
//! database (suggestions the app downloaded, not searches: iLEAPP), the pin images on disk.
//!
//! Identities: the account is the device's user (`owner`): `pinterest:<id>`, e-mail, user name,
//! name. Every other user a message names (sender, participant) is the person
//! `pinterest:<id>` with user name and name. Wallet addresses in a message are claims by
//! direction.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::appcontainer::AppContainers;
use super::plists::parse_with;
use super::{Draft, ENTRY_CAP, Run, container_of, file_name};
use crate::drafts::date_text;
use crate::outputs::json_scalar;

/// The app's bundle id (and the name of its preferences file).
const BUNDLE: &str = "pinterest";
/// The folder of cached API responses in the container.
const CACHE_DIR: &str = "/Library/Caches/com.pinterest.PINDiskCache.PINRemoteModelCache";

/// The account record's scalars: (member, type, label).
const ACCOUNT_FIELDS: [(&str, FactType, &str); 33] = [
    ("id", FactType::Identifier, "account id"),
    ("id.qualified", FactType::Account, "account"),
    ("username", FactType::Name, "user name"),
    ("full_name", FactType::Name, "full name"),
    ("first_name", FactType::Name, "first name"),
    ("last_name", FactType::Name, "last name"),
    ("email", FactType::Email, "e-mail"),
    ("about", FactType::Text, "about"),
    ("location", FactType::Text, "location"),
    ("country", FactType::Text, "country"),
    ("locale", FactType::Text, "locale"),
    ("gender", FactType::Text, "gender"),
    ("age_in_years", FactType::Count, "age (years)"),
    ("is_private_profile", FactType::Text, "private profile"),
    (
        "exclude_from_search",
        FactType::Text,
        "excluded from search",
    ),
    ("has_confirmed_email", FactType::Text, "e-mail confirmed"),
    ("follower_count", FactType::Count, "followers"),
    ("following_count", FactType::Count, "following"),
    ("board_count", FactType::Count, "boards"),
    ("secret_board_count", FactType::Count, "secret boards"),
    ("archived_board_count", FactType::Count, "archived boards"),
    ("pin_count", FactType::Count, "pins"),
    ("video_pin_count", FactType::Count, "video pins"),
    ("story_pin_count", FactType::Count, "story pins"),
    ("quick_saves_pin_count", FactType::Count, "saved pins"),
    ("profile_views", FactType::Count, "profile views"),
    (
        "connected_to_facebook",
        FactType::Text,
        "connected to Facebook",
    ),
    (
        "connected_to_instagram",
        FactType::Text,
        "connected to Instagram",
    ),
    (
        "connected_to_twitter",
        FactType::Text,
        "connected to Twitter",
    ),
    (
        "connected_to_youtube",
        FactType::Text,
        "connected to YouTube",
    ),
    ("connected_to_etsy", FactType::Text, "connected to Etsy"),
    ("image_large_url", FactType::Url, "avatar"),
    ("type", FactType::Text, "account type"),
];

/// A message's own scalars: (member, type, label).
const MESSAGE_FIELDS: [(&str, FactType, &str); 6] = [
    ("id", FactType::Identifier, "message id"),
    ("text", FactType::Text, "text"),
    ("message_type", FactType::Text, "message type (as stored)"),
    ("event_type", FactType::Text, "event type (as stored)"),
    (
        "message_context",
        FactType::Text,
        "message context (as stored)",
    ),
    ("deleted_by", FactType::Text, "deleted by (as stored)"),
];

/// A user's scalars (a sender, a participant): (member, type, label).
const USER_FIELDS: [(&str, FactType, &str); 4] = [
    ("id", FactType::Identifier, "id"),
    ("id.qualified", FactType::Account, "user"),
    ("username", FactType::Name, "user name"),
    ("full_name", FactType::Name, "name"),
];

/// A shared pin's scalars: (member, type, label).
const PIN_FIELDS: [(&str, FactType, &str); 7] = [
    ("id", FactType::Identifier, "pin id"),
    ("title", FactType::Text, "pin title"),
    ("grid_title", FactType::Text, "pin grid title"),
    ("description", FactType::Text, "pin description"),
    ("link", FactType::Url, "pin link"),
    ("domain", FactType::Text, "pin domain"),
    ("is_video", FactType::Text, "pin is a video"),
];

/// The prefixes of the preference keys the app writes for itself (the rest of the file is the
/// state of the kits it embeds).
const APP_PREFIXES: [&str; 14] = [
    "kPinterest",
    "kPIN",
    "kPI",
    "kUserDefault",
    "com.pinterest.",
    "tab_",
    "external_share_sources",
    "has_shown_location_prompt",
    "closeupVisualSearch",
    "kAppDidRequestTracking",
    "kSafariKeychainStopAsking",
    "kPLRemap",
    "SavedComplianceManagerRequirements",
    "kLastShareSheetOpen",
];

/// Words of a key whose value is a credential: never recorded.
const SECRET_WORDS: [&str; 5] = ["token", "secret", "password", "cookie", "session"];

/// Most preference values recorded of one file.
const PREFS_MAX: usize = 100;

/// The accounts read: container → the account ids its `activeUser` files name (as printed).
type Accounts = BTreeMap<String, BTreeSet<String>>;

/// Triage of every Pinterest container of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut apps = AppContainers::new(run, BUNDLE, "pinterest.plist")?;
    let mut accounts = Accounts::new();
    if let Some((find, paths)) = run.find("activeUser*")? {
        let mut by_container: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for p in paths.iter().filter(|p| is_active_user(p)) {
            if let Some(c) = container_of(p) {
                by_container
                    .entry(c.to_string())
                    .or_default()
                    .push(p.clone());
            }
        }
        for (container, files) in &by_container {
            let Some(how) = apps.holds(run, &files[0])? else {
                continue;
            };
            let ids = read_accounts(run, &find, files, &how)?;
            accounts.insert(container.clone(), ids);
        }
    }
    if let Some((find, paths)) = run.find("pinterest.plist")? {
        for p in paths
            .iter()
            .filter(|p| p.ends_with("/Library/Preferences/pinterest.plist"))
        {
            if let Some(how) = apps.holds(run, p)? {
                preferences(run, &find, p, &how)?;
            }
        }
    }
    if let Some((find, paths)) = run.find("conversations%2F*")? {
        for p in paths.iter().filter(|p| {
            p.rsplit_once('/')
                .is_some_and(|(dir, _)| dir.ends_with(CACHE_DIR))
        }) {
            let Some(how) = apps.holds(run, p)? else {
                continue;
            };
            let own = container_of(p)
                .and_then(|c| accounts.get(c))
                .cloned()
                .unwrap_or_default();
            conversation(run, &find, p, &how, &own)?;
        }
    }
    Ok(())
}

/// Whether `path` is an `activeUser` file of a container's `Documents`.
fn is_active_user(path: &str) -> bool {
    file_name(path).starts_with("activeUser")
        && path
            .rsplit_once('/')
            .is_some_and(|(dir, _)| dir.ends_with("/Documents"))
}

/// The account record an archive holds (`root`, a dictionary with an id), if any.
fn record_of(doc: &Value) -> Option<&Value> {
    let root = doc.get("root").filter(|r| r.is_object())?;
    json_scalar(root.get("id")).map(|_| root)
}

/// The account files of one container, each read; one phenomenon per account id (the files
/// naming it cited together). Returns the ids.
fn read_accounts(
    run: &Run<'_, '_>,
    find: &Invoked,
    files: &[String],
    how: &str,
) -> Result<BTreeSet<String>, RuntimeError> {
    // id → (the read with the fullest record, every file naming it)
    let mut read: BTreeMap<String, (Invoked, Value, String, Vec<String>)> = BTreeMap::new();
    for path in files {
        let Some((inv, doc)) = parse_with(run, path, json!({"qualify": {"id": "pinterest"}}))?
        else {
            continue;
        };
        let Some(rec) = record_of(&doc) else {
            run.ctx.unparsed(
                path,
                "could not read the Pinterest account because activeUser holds no archived account record (a dictionary with an id)",
                Some(&inv.record.invocation_id),
            )?;
            continue;
        };
        let id = json_scalar(rec.get("id")).unwrap_or_default();
        let size = rec.as_object().map_or(0, |o| o.len());
        let kept = read
            .entry(id)
            .or_insert_with(|| (inv.clone(), rec.clone(), path.clone(), Vec::new()));
        kept.3.push(path.clone());
        if size > kept.1.as_object().map_or(0, |o| o.len()) {
            kept.0 = inv.clone();
            kept.1 = rec.clone();
            kept.2 = path.clone();
        }
    }
    for (id, (inv, rec, path, all)) in &read {
        account(run, find, inv, rec, path, all, id, how)?;
    }
    Ok(read.into_keys().collect())
}

#[allow(clippy::too_many_arguments)]
fn account(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    rec: &Value,
    path: &str,
    all: &[String],
    id: &str,
    how: &str,
) -> Result<(), RuntimeError> {
    let s = |k: &str| json_scalar(rec.get(k)).filter(|v| !v.trim().is_empty());
    let shown = s("username")
        .or_else(|| s("full_name"))
        .unwrap_or_else(|| id.to_string());
    let mut d = Draft::new("accounts", format!("Pinterest account {shown}"));
    for p in all {
        d.fact(FactType::Path, Some(p), find);
    }
    let said = d.json_fields(rec, inv, &ACCOUNT_FIELDS);
    let mut text_dates = Vec::new();
    for (key, what) in [
        ("created_at", "Pinterest account created"),
        (
            "last_board_created_at",
            "Pinterest account's last board created",
        ),
    ] {
        let v = s(key);
        match date_text(v.as_deref()) {
            Some(enc) => {
                d.time(v.as_deref(), Some(enc), what, inv);
            }
            None => {
                if let Some(x) = v {
                    d.fact(FactType::Text, Some(&x), inv);
                    text_dates.push(format!("{key} {x}"));
                }
            }
        }
    }
    d.interpretation = format!(
        "{} of the Pinterest container ({how}): the account signed in to the app, the device's user ({}){}{}.",
        file_name(path),
        said.join("; "),
        if all.len() > 1 {
            format!(
                "; the app keeps the record twice ({}), read as one",
                all.iter()
                    .map(|p| file_name(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            String::new()
        },
        if text_dates.is_empty() {
            String::new()
        } else {
            format!(
                "; {} RFC 2822 text with its own offset, kept as stored (no time)",
                text_dates.join(", ")
            )
        },
    );
    run.record(d)?;
    let why = |what: &str| {
        format!(
            "{what} of the Pinterest account signed in on the device ({}).",
            file_name(path)
        )
    };
    run.observe_person(
        "owner",
        "device owner",
        inv,
        &why,
        &[
            (
                IdType::AccountId,
                s("id.qualified").as_deref(),
                "The Pinterest account id (qualified by parse_plist)",
            ),
            (IdType::Email, s("email").as_deref(), "The e-mail address"),
            (IdType::Nickname, s("username").as_deref(), "The user name"),
            (IdType::DisplayName, s("full_name").as_deref(), "The name"),
        ],
    )
}

/// The app's own preferences: one phenomenon with their scalars.
fn preferences(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse_with(run, path, json!({}))? else {
        return Ok(());
    };
    let Some(map) = doc.as_object() else {
        run.ctx.unparsed(
            path,
            "could not read Pinterest's preferences because the plist is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut d = Draft::new("apps", "Pinterest app preferences");
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (k, v) in map {
        if said.len() >= PREFS_MAX {
            break;
        }
        let lower = k.to_ascii_lowercase();
        if !APP_PREFIXES.iter().any(|p| k.starts_with(p))
            || SECRET_WORDS.iter().any(|w| lower.contains(w))
        {
            continue;
        }
        let Some(x) = json_scalar(Some(v)).filter(|x| !x.trim().is_empty()) else {
            continue;
        };
        // a plist date as parse_plist prints it (RFC 3339, UTC)
        if v.is_string() && x.ends_with('Z') && date_text(Some(&x)) == Some(TimeEncoding::Iso8601) {
            d.time(
                Some(&x),
                Some(TimeEncoding::Iso8601),
                &format!("Pinterest preference {k} (a date as stored)"),
                &inv,
            );
        } else {
            d.fact(FactType::Text, Some(&x), &inv);
        }
        said.push(format!("{k} {x}"));
    }
    d.interpretation = format!(
        "{} ({how}): the preferences the Pinterest app keeps for itself (the keys of its own prefixes; those of the kits it embeds and any naming a credential left out): {}. The values are as stored; what the app does with each is not established (as iLEAPP), and a key absent says nothing of a setting.",
        file_name(path),
        if said.is_empty() {
            "none".to_string()
        } else {
            said.join("; ")
        },
    );
    run.record(d)
}

/// A percent-encoded name decoded (for the interpretation: the request the response answered).
fn decoded(name: &str) -> String {
    let b = name.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The URL of a pin's largest image rendition (`images` › `<width>x` › `url`), with the
/// rendition's name.
fn largest_image(pin: &Value) -> Option<(String, String)> {
    let images = pin.get("images")?.as_object()?;
    let width = |r: &str| -> u64 {
        r.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap_or(0)
    };
    images
        .iter()
        .filter_map(|(r, d)| {
            json_scalar(d.get("url"))
                .filter(|u| !u.is_empty())
                .map(|u| (width(r), r.clone(), u))
        })
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)))
        .map(|(_, r, u)| (u, r))
}

/// One cached conversation response: a phenomenon per message.
fn conversation(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse_with(run, path, json!({"qualify": {"id": "pinterest"}}))? else {
        return Ok(());
    };
    let Some(models) = doc
        .get("root")
        .and_then(|r| r.get("models"))
        .and_then(Value::as_array)
    else {
        run.ctx.unparsed(
            path,
            "could not read Pinterest's cached conversation response because it holds no models list",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let request = decoded(file_name(path));
    for m in models
        .iter()
        .filter(|m| m.is_object())
        .take(ENTRY_CAP as usize)
    {
        message(run, find, &inv, path, &request, m, how, own)?;
    }
    if models.len() > ENTRY_CAP as usize {
        run.ctx.unparsed(
            path,
            &format!("more than {ENTRY_CAP} cached messages: those past the first {ENTRY_CAP} were not read"),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn message(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    request: &str,
    m: &Value,
    how: &str,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let null = Value::Null;
    let sender = m.get("sender").filter(|v| v.is_object()).unwrap_or(&null);
    let conv = m
        .get("conversation")
        .filter(|v| v.is_object())
        .unwrap_or(&null);
    let pin = m.get("pin").filter(|v| v.is_object()).unwrap_or(&null);
    let s = |v: &Value, k: &str| json_scalar(v.get(k)).filter(|x| !x.trim().is_empty());
    let sender_id = s(sender, "id");
    let from_me = (!own.is_empty()).then(|| sender_id.as_ref().is_some_and(|i| own.contains(i)));
    let who = s(sender, "full_name")
        .or_else(|| s(sender, "username"))
        .or_else(|| sender_id.clone())
        .unwrap_or_else(|| "an unnamed user".into());
    let title = match from_me {
        Some(true) => format!("Pinterest message sent by {who} (the device's user)"),
        Some(false) => format!("Pinterest message from {who}"),
        None => format!("Pinterest message by {who}"),
    };
    let mut d = Draft::new("messages", title);
    d.fact(FactType::Path, Some(path), find);
    let mut said = d.json_fields(m, inv, &MESSAGE_FIELDS);
    for (k, ft, label) in USER_FIELDS {
        if let Some(x) = s(sender, k) {
            d.fact(ft, Some(&x), inv);
            said.push(format!("sender's {label} {x}"));
        }
    }
    for (k, ft, label) in [
        ("id", FactType::Identifier, "conversation id"),
        ("name", FactType::Name, "conversation"),
    ] {
        if let Some(x) = s(conv, k) {
            d.fact(ft, Some(&x), inv);
            said.push(format!("{label} {x}"));
        }
    }
    let users: Vec<&Value> = conv
        .get("users")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter(|u| u.is_object()).collect())
        .unwrap_or_default();
    let mut names = Vec::new();
    for u in users.iter().copied() {
        if let Some(n) = s(u, "username").or_else(|| s(u, "id")) {
            d.fact(FactType::Name, Some(&n), inv);
            names.push(n);
        }
    }
    if !names.is_empty() {
        said.push(format!("participants {}", names.join(", ")));
    }
    said.extend(d.json_fields(pin, inv, &PIN_FIELDS));
    if let Some((url, rendition)) = largest_image(pin) {
        d.fact(FactType::Url, Some(&url), inv);
        said.push(format!("pin image ({rendition}) {url}"));
    }
    let at = s(m, "created_at");
    match from_me {
        Some(sent) => {
            d.message_time(at.as_deref(), date_text(at.as_deref()), sent, inv);
        }
        None => {
            d.time(
                at.as_deref(),
                date_text(at.as_deref()),
                "Pinterest message created",
                inv,
            );
        }
    }
    // the account's read time of the conversation
    let read_at = conv
        .get("read_times")
        .and_then(|r| own.iter().find_map(|i| s(r, i.as_str())));
    d.time(
        read_at.as_deref(),
        date_text(read_at.as_deref()),
        "Pinterest conversation read by the account",
        inv,
    );
    let pin_at = s(pin, "created_at");
    d.time(
        pin_at.as_deref(),
        date_text(pin_at.as_deref()),
        "Pinterest pin created",
        inv,
    );
    d.interpretation = format!(
        "A message of the response the Pinterest app cached for the request {request} ({}; {how}): {} ({}). The cache holds what the app last fetched for the conversation, not its whole history{}; times are NSDates as parse_plist prints them.",
        file_name(path),
        match from_me {
            Some(true) => "written by the device's user (its sender is the account of activeUser)",
            Some(false) => "written by another user (its sender is not the account of activeUser)",
            None => "its direction is not said (no activeUser of the container names the account)",
        },
        said.join("; "),
        if s(pin, "id").is_some() {
            "; the message shares a pin"
        } else {
            ""
        },
    );
    run.record(d)?;
    // the other users it names
    let mut others: Vec<&Value> = vec![sender];
    others.extend(users.iter().copied());
    for u in others {
        let (Some(q), Some(id)) = (s(u, "id.qualified"), s(u, "id")) else {
            continue;
        };
        if own.contains(&id) {
            continue;
        }
        let label = s(u, "full_name")
            .or_else(|| s(u, "username"))
            .unwrap_or_else(|| q.clone());
        let why = |what: &str| {
            format!(
                "{what} of the Pinterest user {label}, named by a direct message the app cached ({}).",
                file_name(path)
            )
        };
        run.observe_person(
            &q,
            &label,
            inv,
            &why,
            &[
                (
                    IdType::AccountId,
                    Some(q.as_str()),
                    "The Pinterest user id (qualified by parse_plist)",
                ),
                (
                    IdType::Nickname,
                    s(u, "username").as_deref(),
                    "The user name",
                ),
                (
                    IdType::DisplayName,
                    s(u, "full_name").as_deref(),
                    "The name",
                ),
            ],
        )?;
    }
    if let (Some(sent), Some(text)) = (from_me, m.get("text").and_then(Value::as_str)) {
        let other = s(sender, "id.qualified")
            .filter(|_| !sent)
            .map(|q| (q, format!("the Pinterest user {who}")));
        run.message_claims(
            inv,
            text,
            &format!("a Pinterest message ({})", file_name(path)),
            sent,
            other,
            "its sender is the account of activeUser",
            "its sender is another user",
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_images() {
        assert_eq!(
            decoded("conversations%2F5129%2Fmessages%2F%3Fhide_sys_msg%3Dtrue"),
            "conversations/5129/messages/?hide_sys_msg=true"
        );
        assert_eq!(decoded("a%2"), "a%2");
        assert!(is_active_user("/x/Application/G/Documents/activeUser"));
        assert!(is_active_user("/x/Application/G/Documents/activeUser5129"));
        assert!(!is_active_user("/x/Application/G/Library/activeUser"));
        let pin = json!({"images": {"236x": {"url": "https://i/236.jpg"}, "736x": {"url": "https://i/736.jpg"}, "orig": {"url": "https://i/o.jpg"}}});
        assert_eq!(
            largest_image(&pin),
            Some(("https://i/736.jpg".to_string(), "736x".to_string()))
        );
    }
}
