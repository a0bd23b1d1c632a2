//! Kleinanzeigen (formerly eBay Kleinanzeigen) for iOS (`com.ebaykleinanzeigen.ebc`), Germany's
//! classified-ads marketplace, iLEAPP's `kleinanzeigen.de` ("User Account", "Message Cache",
//! "Search History", "Last Search"):
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `Library/Preferences/com.ebaykleinanzeigen.ebc.plist` › `UserDefaultsKit.UserDefaultItem.currentUserProfile` (JSON in data, decoded by `parse_plist`'s `decode_data`; or JSON text) | one `accounts` ("Kleinanzeigen account <e-mail>") | e-mail, user id and `kleinanzeigen:<id>` (qualified by `parse_plist`, where the JSON is data), contact name and initials, account type; user since and last modified (Cocoa seconds) |
//! | the same › `UserDefaultsKit.UserDefaultItem.advertisementSearchDataHistory` › `searchedKeywords` | one `web` per search ("Kleinanzeigen search <keyword>") | the keyword; when (`timeStamp`, Cocoa seconds) |
//! | `Library/Caches/conversation_cache` (JSON, `read_json`, the users' ids qualified `kleinanzeigen:<id>` by its `qualify`) | one `messages` per message of each conversation of `data` ("Kleinanzeigen message to/from <counterparty> about <ad>"); a conversation whose `messages` is empty gives its last message as the cache summarises it (`clientData`: "Kleinanzeigen last message …") | conversation id, the ad's title and id, the ad's status, the account's role (buyer or seller), the account's name and id, the counterparty's name and id, message id, sender (0: the account, as iLEAPP found), status, text, attached image URLs; sent (`sentDate`, or the summary's `receivedDate`, Cocoa seconds); the summary's direction (`boundness`, `OUTBOUND`: the account's) |
//! | `Library/Private Documents/.last_search_query` (JSON) | one `web` ("Kleinanzeigen last search <keywords>") | keywords, category, each search area's region, latitude, longitude and default and current radius |
//!
//! The search areas are where the user searched for ads, not where the device was. The cache
//! holds the conversations the app last fetched, not the account's whole history. The account's
//! side of a conversation is named by `clientData.role`: `Seller` takes `sellerName` and
//! `userIdSeller`, otherwise `buyerName` and `userIdBuyer` (as iLEAPP).
//!
//! Every file is read only in a container known to be Kleinanzeigen's ([`super::appcontainer`]:
//! its preferences file, a backup's folder, FrontBoard or the container's metadata); Kijiji's
//! reader ([`super::kijiji`]) leaves those containers' `conversation_cache` to this one (the two
//! apps share the cache's layout). A preferences file that is no dictionary or whose profile
//! is no JSON, a cache without a `data` list of conversations and a search file without
//! `keywords` or `locations` are noted, as are files that do not parse (by the call). The
//! preferences file is read whole by `parse_plist`: only the keys above are recorded (no token
//! or other value of the file).
//!
//! Identities: the account is the device's user (`owner`): its e-mail, `kleinanzeigen:<id>`,
//! contact name; the cache's own side of each conversation too (`kleinanzeigen:<id>`, name). A
//! counterparty is the person `kleinanzeigen:<id>` with their name (the namespace of the
//! Android reader). Wallet addresses in a message are claims by direction.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::appcontainer::AppContainers;
use super::oura::{cited, nested};
use super::plists::parse_with;
use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::drafts::apple_seconds;
use crate::outputs::json_scalar;

/// The app's bundle id.
pub const BUNDLE: &str = "com.ebaykleinanzeigen.ebc";
/// The app's preferences file.
pub const PREFS: &str = "com.ebaykleinanzeigen.ebc.plist";
/// The preferences' keys read.
const PROFILE: &str = "UserDefaultsKit.UserDefaultItem.currentUserProfile";
const SEARCHES: &str = "UserDefaultsKit.UserDefaultItem.advertisementSearchDataHistory";

/// The profile's members: (member, type, label).
const PROFILE_FIELDS: [(&str, FactType, &str); 5] = [
    ("email", FactType::Email, "e-mail"),
    ("id", FactType::Identifier, "user id"),
    ("id.qualified", FactType::Account, "user"),
    ("accountType", FactType::Text, "account type"),
    ("userType", FactType::Text, "user type"),
];

/// Triage of every Kleinanzeigen container of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut apps = AppContainers::new(run, BUNDLE, PREFS)?;
    run.each("com.ebaykleinanzeigen.ebc.plist", |find, path| {
        if path.ends_with("/Library/Preferences/com.ebaykleinanzeigen.ebc.plist")
            && let Some(how) = apps.holds(run, path)?
        {
            preferences(run, find, path, &how)?;
        }
        Ok(())
    })?;
    run.each("conversation_cache", |find, path| {
        if path.ends_with("/Library/Caches/conversation_cache")
            && let Some(how) = apps.holds(run, path)?
        {
            cache(run, find, path, &how)?;
        }
        Ok(())
    })?;
    run.each(".last_search_query", |find, path| {
        if path.ends_with("/Library/Private Documents/.last_search_query")
            && let Some(how) = apps.holds(run, path)?
        {
            last_search(run, find, path, &how)?;
        }
        Ok(())
    })
}

fn preferences(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
) -> Result<(), RuntimeError> {
    let options = json!({"decode_data": true, "qualify": {"id": "kleinanzeigen"}});
    let Some((inv, doc)) = parse_with(run, path, options)? else {
        return Ok(());
    };
    if !doc.is_object() {
        run.ctx.unparsed(
            path,
            "could not read Kleinanzeigen's preferences because the plist is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let file = file_name(path);
    if let Some(raw) = doc.get(PROFILE) {
        match nested(Some(raw)).filter(|(p, _)| p.is_object()) {
            Some((profile, twice)) => account(run, find, &inv, path, how, &profile, twice)?,
            None => run.ctx.unparsed(
                path,
                "could not read the Kleinanzeigen account because currentUserProfile holds no JSON object",
                Some(&inv.record.invocation_id),
            )?,
        }
    }
    if let Some(raw) = doc.get(SEARCHES) {
        let history = nested(Some(raw)).filter(|(h, _)| h.is_object());
        let Some((history, twice)) = history else {
            run.ctx.unparsed(
                path,
                "could not read Kleinanzeigen's search history because advertisementSearchDataHistory holds no JSON object",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        };
        let searches = history
            .get("searchedKeywords")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for k in searches.iter().take(ENTRY_CAP as usize) {
            let value = cited(&inv, k.get("value"), twice);
            let at = cited(&inv, k.get("timeStamp"), twice);
            let Some(term) = value.clone() else {
                continue;
            };
            let mut d = Draft::new("web", format!("Kleinanzeigen search {term}"));
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Text, Some(&term), &inv);
            d.time(
                at.as_deref(),
                apple_seconds(at.as_deref()),
                "Kleinanzeigen search made",
                &inv,
            );
            d.interpretation = format!(
                "advertisementSearchDataHistory of {file} ({how}): a keyword the user searched the ads for in the Kleinanzeigen app, {term}{}; the time is Cocoa seconds.",
                at.as_deref()
                    .map(|a| format!(", at {a}"))
                    .unwrap_or_default()
            );
            run.record(d)?;
        }
    }
    Ok(())
}

fn account(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    how: &str,
    profile: &Value,
    twice: bool,
) -> Result<(), RuntimeError> {
    let get = |k: &str| cited(inv, profile.get(k), twice);
    let prefs = profile.get("preferences");
    let pref = |k: &str| cited(inv, prefs.and_then(|p| p.get(k)), twice);
    let (email, name) = (get("email"), pref("contactName"));
    let shown = email
        .clone()
        .or_else(|| name.clone())
        .or_else(|| get("id"))
        .unwrap_or_else(|| "?".into());
    let mut d = Draft::new("accounts", format!("Kleinanzeigen account {shown}"));
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (k, ft, label) in PROFILE_FIELDS {
        if let Some(v) = get(k) {
            d.fact(ft, Some(&v), inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (k, ft, label) in [
        ("contactName", FactType::Name, "contact name"),
        ("initials", FactType::Text, "initials"),
        ("phoneNumber", FactType::Phone, "phone"),
    ] {
        if let Some(v) = pref(k) {
            d.fact(ft, Some(&v), inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (k, what) in [
        ("userSince", "Kleinanzeigen account registered"),
        ("lastModified", "Kleinanzeigen account last modified"),
    ] {
        let v = get(k);
        d.time(v.as_deref(), apple_seconds(v.as_deref()), what, inv);
    }
    d.interpretation = format!(
        "currentUserProfile of {} ({how}): the Kleinanzeigen account signed in to the app, the device's user ({}); {}times are Cocoa seconds.",
        file_name(path),
        said.join("; "),
        if twice {
            "the profile is JSON text (older layout), its id not qualified; "
        } else {
            ""
        },
    );
    run.record(d)?;
    let qualified = get("id.qualified");
    let phone = pref("phoneNumber").filter(|p| run.normalised(IdType::Phone, p).is_some());
    let why = |what: &str| {
        format!(
            "{what} of the Kleinanzeigen account signed in on the device (currentUserProfile of {}).",
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
                qualified.as_deref(),
                "The Kleinanzeigen user id (qualified by parse_plist)",
            ),
            (IdType::Email, email.as_deref(), "The e-mail address"),
            (IdType::DisplayName, name.as_deref(), "The contact name"),
            (IdType::Phone, phone.as_deref(), "The phone number"),
        ],
    )
}

/// The members of one side of a conversation: (name, id, qualified id).
struct Side {
    name: Option<String>,
    id: Option<String>,
    qualified: Option<String>,
}

fn cache(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let qualify = json!({
        "identifier": "kleinanzeigen",
        "userIdBuyer": "kleinanzeigen",
        "userIdSeller": "kleinanzeigen",
    });
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "read_json",
        json!({"path": path, "qualify": qualify}),
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
            "could not parse Kleinanzeigen's conversation cache because it has no data list of conversations",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut count = 0usize;
    for conv in conversations.iter().filter(|c| c.is_object()) {
        if count >= ENTRY_CAP as usize {
            run.ctx.unparsed(
                path,
                &format!("more than {ENTRY_CAP} cached messages: those past the first {ENTRY_CAP} were not read"),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        count += conversation(run, find, &inv, path, how, conv)?;
    }
    Ok(())
}

/// One conversation's messages; returns how many were recorded.
fn conversation(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    how: &str,
    conv: &Value,
) -> Result<usize, RuntimeError> {
    let s = |v: Option<&Value>| json_scalar(v).filter(|x| !x.trim().is_empty());
    let ad = conv.get("ad");
    let client = conv.get("clientData");
    let party = conv.get("counterParty");
    let c = |k: &str| s(client.and_then(|x| x.get(k)));
    let seller = client.and_then(|x| x.get("role")).and_then(Value::as_str) == Some("Seller");
    let (name_key, id_key) = if seller {
        ("sellerName", "userIdSeller")
    } else {
        ("buyerName", "userIdBuyer")
    };
    let me = Side {
        name: c(name_key),
        id: c(id_key),
        qualified: c(format!("{id_key}.qualified").as_str()),
    };
    let other = Side {
        name: s(party.and_then(|p| p.get("name"))),
        id: s(party.and_then(|p| p.get("identifier"))),
        qualified: s(party.and_then(|p| p.get("identifier.qualified"))),
    };
    let conversation_id = s(conv.get("conversationId"));
    let ad_title = s(ad.and_then(|a| a.get("displayTitle")));
    let ad_id = s(ad.and_then(|a| a.get("identifier")));
    let with = other
        .name
        .clone()
        .or_else(|| other.id.clone())
        .unwrap_or_else(|| "an unknown user".into());
    let about = ad_title.clone().unwrap_or_else(|| "an ad not named".into());
    // facts of the conversation, on each of its messages
    let common = |d: &mut Draft| {
        let mut said = Vec::new();
        for (v, ft, label) in [
            (&conversation_id, FactType::Identifier, "conversation"),
            (&ad_title, FactType::Text, "ad"),
            (&ad_id, FactType::Identifier, "ad id"),
            (&c("adStatus"), FactType::Text, "ad status"),
            (&c("role"), FactType::Text, "the account's role"),
            (&me.name, FactType::Name, "the account's name"),
            (&me.id, FactType::Identifier, "the account's user id"),
            (&me.qualified, FactType::Account, "the account"),
            (&other.name, FactType::Name, "counterparty"),
            (&other.id, FactType::Identifier, "counterparty's user id"),
            (&other.qualified, FactType::Account, "the counterparty"),
        ] {
            if let Some(x) = v {
                d.fact(ft, Some(x), inv);
                said.push(format!("{label} {x}"));
            }
        }
        said
    };
    let messages: Vec<&Value> = conv
        .get("messages")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter(|m| m.is_object()).collect())
        .unwrap_or_default();
    let mut recorded = 0usize;
    let mut texts: Vec<(bool, String)> = Vec::new();
    if messages.is_empty() {
        // the cache's summary of the last message
        let Some(text) = c("textShortTrimmed") else {
            return Ok(0);
        };
        let sent = client
            .and_then(|x| x.get("boundness"))
            .and_then(Value::as_str)
            == Some("OUTBOUND");
        let mut d = Draft::new(
            "messages",
            format!(
                "Kleinanzeigen last message {} {with} about {about}",
                if sent { "to" } else { "from" }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = common(&mut d);
        d.fact(FactType::Text, Some(&text), inv);
        said.push(format!("text {text}"));
        if let Some(b) = c("boundness") {
            d.fact(FactType::Text, Some(&b), inv);
            said.push(format!("boundness {b}"));
        }
        let at = c("receivedDate");
        d.message_time(at.as_deref(), apple_seconds(at.as_deref()), sent, inv);
        d.interpretation = format!(
            "Kleinanzeigen's conversation cache ({how}): the conversation's messages are not cached, only its last one as the cache summarises it (clientData), {} ({}); the time is Cocoa seconds.",
            if sent {
                "written by the account (boundness OUTBOUND)"
            } else {
                "written by the counterparty"
            },
            said.join("; "),
        );
        run.record(d)?;
        recorded += 1;
        if let Some(t) = client
            .and_then(|x| x.get("textShortTrimmed"))
            .and_then(Value::as_str)
        {
            texts.push((sent, t.to_string()));
        }
    }
    for m in &messages {
        let sender = s(m.get("sender"));
        let sent = sender.as_deref() == Some("0");
        let mut d = Draft::new(
            "messages",
            format!(
                "Kleinanzeigen message {} {with} about {about}",
                if sent { "to" } else { "from" }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = common(&mut d);
        for (k, ft, label) in [
            ("messageId", FactType::Identifier, "message id"),
            ("sender", FactType::Text, "sender"),
            ("messageStatus", FactType::Text, "status"),
            ("text", FactType::Text, "text"),
        ] {
            if let Some(x) = s(m.get(k)) {
                d.fact(ft, Some(&x), inv);
                said.push(format!("{label} {x}"));
            }
        }
        for a in m
            .get("attachments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(u) = s(a.get("imageURL")) {
                d.fact(FactType::Url, Some(&u), inv);
                said.push(format!("attachment {u}"));
            }
        }
        let at = s(m.get("sentDate"));
        d.message_time(at.as_deref(), apple_seconds(at.as_deref()), sent, inv);
        d.interpretation = format!(
            "Kleinanzeigen's conversation cache ({how}), conversation {}: a message {} {with} about the ad \"{about}\" ({}); the time is Cocoa seconds.",
            conversation_id.as_deref().unwrap_or("?"),
            if sent {
                "from the account (sender 0) to"
            } else {
                "to the account from"
            },
            said.join("; "),
        );
        run.record(d)?;
        recorded += 1;
        if let Some(t) = m.get("text").and_then(Value::as_str) {
            texts.push((sent, t.to_string()));
        }
    }
    // the two sides
    let file = file_name(path);
    if let Some(q) = &me.qualified {
        let why = |what: &str| {
            format!(
                "{what} of the Kleinanzeigen account signed in on the device, its side of a conversation ({file})."
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
                    Some(q.as_str()),
                    "The Kleinanzeigen user id (qualified by read_json)",
                ),
                (IdType::DisplayName, me.name.as_deref(), "The name"),
            ],
        )?;
    }
    if let Some(q) = &other.qualified {
        for (v, id_type, what) in [
            (
                Some(q.as_str()),
                IdType::AccountId,
                "user id (qualified by read_json)",
            ),
            (other.name.as_deref(), IdType::DisplayName, "name"),
        ] {
            if let Some(v) = v {
                run.observe(
                    q,
                    EntityKind::Person,
                    &with,
                    id_type,
                    v,
                    inv,
                    format!("The Kleinanzeigen {what} of {with}, a user the device's user wrote with about an ad ({file})."),
                )?;
            }
        }
    }
    for (sent, text) in texts {
        run.message_claims(
            inv,
            &text,
            &format!("a Kleinanzeigen message ({file})"),
            sent,
            other.qualified.clone().map(|q| (q, with.clone())),
            "sender 0",
            "sender the counterparty",
        )?;
    }
    Ok(recorded)
}

fn last_search(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_json", json!({"path": path}))?
    else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text);
    let Some(q) = doc
        .as_ref()
        .filter(|d| d.get("keywords").is_some() || d.get("locations").is_some())
    else {
        run.ctx.unparsed(
            path,
            "could not parse Kleinanzeigen's last search because it has neither keywords nor locations",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let s = |v: Option<&Value>| json_scalar(v).filter(|x| !x.trim().is_empty());
    let keywords = s(q.get("keywords"));
    let mut d = Draft::new(
        "web",
        format!(
            "Kleinanzeigen last search {}",
            keywords.as_deref().unwrap_or("without keywords")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (k, label) in [
        ("keywords", "keywords"),
        ("categoryLocalizedName", "category"),
    ] {
        if let Some(x) = s(q.get(k)) {
            d.fact(FactType::Text, Some(&x), &inv);
            said.push(format!("{label} {x}"));
        }
    }
    for l in q
        .get("locations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let mut area = Vec::new();
        for (k, ft, label) in [
            ("region", FactType::Name, "region"),
            ("latitude", FactType::Text, "latitude"),
            ("longitude", FactType::Text, "longitude"),
            ("defaultRadius", FactType::Text, "default radius"),
            ("currentRadius", FactType::Text, "current radius"),
        ] {
            if let Some(x) = s(l.get(k)) {
                d.fact(ft, Some(&x), &inv);
                area.push(format!("{label} {x}"));
            }
        }
        if !area.is_empty() {
            said.push(format!("search area: {}", area.join(", ")));
        }
    }
    d.interpretation = format!(
        "{} ({how}): the last search the user made for ads in the Kleinanzeigen app ({}). The areas are where the ads were searched for, not where the device was; the file keeps no time.",
        file_name(path),
        said.join("; "),
    );
    run.record(d)
}
