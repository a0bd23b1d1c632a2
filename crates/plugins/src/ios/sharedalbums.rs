//! iCloud Shared Albums (`mobile/Media/PhotoData/PhotoCloudSharingData/<account>/`), the fields
//! of iLEAPP's four `icloudShared*` modules:
//!
//! - one `media` phenomenon per album folder (found by its `DCIM_CLOUD.plist`): from its
//!   `Info.plist` the title, the owner's e-mail, first and last name and hashed person id,
//!   whether the public web link is on, when the user subscribed, the relationship state; the
//!   album id (the folder); from `DCIM_CLOUD.plist` the last DCIM folder and file numbers;
//! - one `contacts` phenomenon per person of `cloudSharedPersonInfos.plist` (the albums'
//!   owners and subscribers): e-mail, first, last and full name, their identifier;
//! - one `accounts` phenomenon for `cloudSharedEmails.plist` with every key and value.
//!
//! Identities: an album's owner and each person are observed by e-mail (`handle:<e-mail>`, or
//! the address-book card holding it) with their name: people the user shares photos with. The
//! user's own albums name the user as owner; the resolution joins that address to the owner's
//! other identifiers, as any handle.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run, core_data_encoding};
use crate::outputs::{in_json, json_leaves, json_scalar};

/// Triage of every shared-album folder and person list of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let shared = |p: &str| p.contains("/PhotoCloudSharingData/");
    run.each("DCIM_CLOUD.plist", |find, path| {
        if shared(path) {
            album(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("cloudSharedPersonInfos.plist", |find, path| {
        if shared(path) {
            persons(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("cloudSharedEmails.plist", |find, path| {
        if shared(path) {
            emails(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// Observes a person of the shared albums by e-mail, with their name.
fn observe_person(
    run: &Run<'_, '_>,
    inv: &Invoked,
    email: &str,
    name: Option<&str>,
    what: &str,
) -> Result<(), RuntimeError> {
    let Some(context) = run.handle_context(email) else {
        return Ok(());
    };
    let label = name.unwrap_or(email);
    run.observe(
        &context,
        EntityKind::Person,
        label,
        IdType::Email,
        email,
        inv,
        format!("{email} is {what}."),
    )?;
    if let Some(n) = name {
        run.observe(
            &context,
            EntityKind::Person,
            n,
            IdType::DisplayName,
            n,
            inv,
            format!("{n} is the name of {email}, {what}."),
        )?;
    }
    Ok(())
}

/// A string member, non-empty.
fn text<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// One album: its folder's `Info.plist` and `DCIM_CLOUD.plist`.
fn album(run: &Run<'_, '_>, find: &Invoked, dcim: &str) -> Result<(), RuntimeError> {
    let Some((folder, album_id)) = dcim
        .rsplit_once('/')
        .and_then(|(f, _)| Some((f, f.rsplit('/').next()?)))
    else {
        return Ok(());
    };
    let Some((dinv, counters)) = parse(run, dcim)? else {
        return Ok(());
    };
    let info = parse(run, &format!("{folder}/Info.plist"))?;
    let empty = Value::Null;
    let (iinv, i) = match &info {
        Some((inv, v)) => (Some(inv), v),
        None => (None, &empty),
    };
    let title = text(i, "title");
    let mut d = Draft::new(
        "media",
        format!("iCloud Shared Album {}", title.unwrap_or(album_id)),
    );
    d.fact(FactType::Path, Some(dcim), find);
    d.fact(FactType::Identifier, Some(album_id), find);
    let s = |k: &str| json_scalar(i.get(k));
    if let Some(inv) = iinv {
        d.fact(FactType::Text, s("title").as_deref(), inv);
        d.fact(FactType::Email, s("cloudOwnerEmail").as_deref(), inv);
        d.fact(FactType::Name, s("cloudOwnerFirstName").as_deref(), inv);
        d.fact(FactType::Name, s("cloudOwnerLastName").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            s("cloudOwnerHashedPersonID").as_deref(),
            inv,
        );
        d.fact(FactType::Text, s("cloudPublicURLEnabled").as_deref(), inv);
        d.fact(FactType::Text, s("cloudRelationshipState").as_deref(), inv);
        let sub = s("cloudSubscriptionDate");
        let encoding = match i.get("cloudSubscriptionDate") {
            Some(Value::Number(_)) => core_data_encoding(sub.as_deref()),
            _ => crate::drafts::date_text(sub.as_deref()),
        };
        d.time(
            sub.as_deref(),
            encoding,
            "Subscribed to the iCloud Shared Album",
            inv,
        );
    }
    let c = |k: &str| json_scalar(counters.get(k));
    d.fact(
        FactType::Count,
        c("DCIMLastDirectoryNumber").as_deref(),
        &dinv,
    );
    d.fact(FactType::Count, c("DCIMLastFileNumber").as_deref(), &dinv);
    let owner_name = match (
        text(i, "cloudOwnerFirstName"),
        text(i, "cloudOwnerLastName"),
    ) {
        (Some(f), Some(l)) => Some(format!("{f} {l}")),
        (Some(n), None) | (None, Some(n)) => Some(n.to_string()),
        (None, None) => None,
    };
    d.interpretation = format!(
        "iCloud Shared Album {album_id}{}: {}owner {} ({}, hashed person id {}), public web link {}, subscribed {}, relationship state {} (as stored); its DCIM_CLOUD.plist counts folder {} and file {} as the last ones used.",
        title.map(|t| format!(" {t:?}")).unwrap_or_default(),
        if iinv.is_none() {
            "its Info.plist could not be read; "
        } else {
            ""
        },
        s("cloudOwnerEmail").unwrap_or_else(|| "?".into()),
        owner_name.as_deref().unwrap_or("no name kept"),
        s("cloudOwnerHashedPersonID").unwrap_or_else(|| "?".into()),
        s("cloudPublicURLEnabled").unwrap_or_else(|| "?".into()),
        s("cloudSubscriptionDate").unwrap_or_else(|| "?".into()),
        s("cloudRelationshipState").unwrap_or_else(|| "?".into()),
        c("DCIMLastDirectoryNumber").unwrap_or_else(|| "?".into()),
        c("DCIMLastFileNumber").unwrap_or_else(|| "?".into()),
    );
    run.record(d)?;
    if let (Some(inv), Some(e)) = (iinv, text(i, "cloudOwnerEmail")) {
        // the owner's name is kept as first and last name: not observed composed
        observe_person(
            run,
            inv,
            e,
            None,
            &format!(
                "the owner of the iCloud Shared Album {}",
                title.unwrap_or(album_id)
            ),
        )?;
    }
    Ok(())
}

/// The albums' people (`cloudSharedPersonInfos.plist`: identifier → names and e-mails).
fn persons(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    for (id, info) in v.as_object().into_iter().flatten() {
        if !info.is_object() {
            continue;
        }
        let email = info
            .get("emails")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)
            .or_else(|| text(info, "email"));
        let full = text(info, "fullName");
        let mut d = Draft::new(
            "contacts",
            format!(
                "iCloud Shared Albums person: {}",
                full.or(email).unwrap_or(id)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&in_json(id)), &inv);
        d.fact(FactType::Email, email.map(in_json).as_deref(), &inv);
        for k in ["firstName", "lastName", "fullName"] {
            d.fact(FactType::Name, text(info, k).map(in_json).as_deref(), &inv);
        }
        d.interpretation = format!(
            "cloudSharedPersonInfos.plist entry {id}: a person of the user's iCloud Shared Albums (an owner or a subscriber): {}, e-mail {}.",
            full.unwrap_or("no full name kept"),
            email.unwrap_or("not kept"),
        );
        run.record(d)?;
        if let Some(e) = email {
            observe_person(
                run,
                &inv,
                e,
                full,
                "a person of the user's iCloud Shared Albums",
            )?;
        }
    }
    Ok(())
}

/// `cloudSharedEmails.plist`: every key and value.
fn emails(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let mut leaves = Vec::new();
    json_leaves(&v, "", &mut leaves);
    if leaves.is_empty() {
        return Ok(());
    }
    let mut d = Draft::new("accounts", "iCloud Shared Albums e-mails".to_string());
    d.fact(FactType::Path, Some(path), find);
    // the file is keyed by address (address → person id) or the reverse: both kept
    for k in v.as_object().into_iter().flat_map(|o| o.keys()) {
        if k.contains('@') {
            d.fact(FactType::Email, Some(&in_json(k)), &inv);
        }
    }
    for (_, val) in &leaves {
        let ft = if val.contains('@') {
            FactType::Email
        } else {
            FactType::Text
        };
        d.fact(ft, Some(val), &inv);
    }
    d.interpretation = format!(
        "cloudSharedEmails.plist: the e-mail addresses the iCloud Shared Albums service keeps for the account: {}.",
        leaves
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    run.record(d)
}
