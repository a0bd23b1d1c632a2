//! Bumble on iOS: its YapDatabase stores `Library/Caches/Chat.sqlite` (messages) and
//! `Documents/yap-database.sqlite` (the account) of its container, with the fields of iLEAPP's
//! `bumbleMessages` and `bumbleAccount`:
//!
//! - one `messages` phenomenon per `database2` row of `Chat.sqlite` that the
//!   `secondaryIndex_isReadIndex` index names (its value an archived message object, read
//!   through `sqlite_query`'s `plists`): created and modified (Unix seconds), sender and
//!   receiver ids, text, direction (`isIncoming`), read;
//! - one `accounts` phenomenon for the account keys of `yap-database.sqlite` (`userId`,
//!   `userName`, `appVersion`) and one `locations` for `lastLocation` (time, latitude,
//!   longitude).
//!
//! Identities: the sender of a received message is `bumble:<user id>` (qualified by the tool's
//! `qualify`), the id Android's Bumble keeps; the account's `userId` and `userName` are `owner`.
//! A `Chat.sqlite` of another app (no `secondaryIndex_isReadIndex`) is passed over; a
//! `yap-database.sqlite` is read only beside a Bumble `Chat.sqlite` in the same container (the
//! name is YapDatabase's default).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run};
use crate::outputs::{json_cell_scalar, plist_cell};

/// Triage of every Bumble store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut containers: BTreeSet<String> = BTreeSet::new();
    run.each("Chat.sqlite", |find, path| {
        if !path.ends_with("/Library/Caches/Chat.sqlite") {
            return Ok(());
        }
        if chats(run, find, path)?
            && let Some(c) = super::container_of(path)
        {
            containers.insert(c.to_string());
        }
        Ok(())
    })?;
    run.each("yap-database.sqlite", |find, path| {
        if path.ends_with("/Documents/yap-database.sqlite")
            && super::container_of(path).is_some_and(|c| containers.contains(c))
        {
            account(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// The object of a YapDatabase value cell: an archived object's root, else the list itself.
fn object(cell: Option<&str>) -> Option<Value> {
    let v = plist_cell(cell?)?;
    Some(match v.get("root") {
        Some(root) if root.is_object() => root.clone(),
        _ => v,
    })
}

/// Bumble's messages; whether the store is Bumble's (it has the read index).
fn chats(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<bool, RuntimeError> {
    let Some(schema) = run.schema(path, &["database2", "secondaryIndex_isReadIndex"])? else {
        return Ok(false);
    };
    let index = schema.columns("secondaryIndex_isReadIndex");
    if schema.columns("database2").is_empty() || index.is_empty() {
        return Ok(false);
    }
    if !schema.require(run, "database2", &["data"])?
        || !schema.require(run, "secondaryIndex_isReadIndex", &["isIncoming"])?
    {
        return Ok(true);
    }
    let read = if index.contains("isRead") {
        "i.isRead"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT * FROM (SELECT d.rowid AS rid, d.data AS data, i.isIncoming AS incoming, {read} AS read FROM database2 d JOIN secondaryIndex_isReadIndex i ON d.rowid = i.rowid)"
    );
    let mut args = crate::calls::flags(&["plists"]);
    args.insert(
        "qualify".into(),
        json!({"self.fromPersonUid": "bumble", "self.toPersonUid": "bumble"}),
    );
    let Some(paged) = run.paged_args(path, &sql, "rid", &args)? else {
        return Ok(true);
    };
    for (inv, t, row) in paged.rows() {
        let Some(m) = object(t.get(row, "data")).filter(|m| m.get("self.dateCreated").is_some())
        else {
            continue;
        };
        let rid = t.get(row, "rid").unwrap_or("?");
        let get = |k: &str| json_cell_scalar(m.get(k));
        let plain = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
        let sent = crate::drafts::stored_flag(t.get(row, "incoming")).map(|incoming| !incoming);
        let (from, to) = (plain("self.fromPersonUid"), plain("self.toPersonUid"));
        let other = if sent == Some(true) { &to } else { &from };
        let with = other.clone().unwrap_or_else(|| "an unknown user".into());
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Bumble message sent to {with}"),
                _ => format!("Bumble message from {with}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, get("self.fromPersonUid").as_deref(), inv);
        d.fact(FactType::Account, get("self.toPersonUid").as_deref(), inv);
        d.fact(FactType::Text, get("self.messageText").as_deref(), inv);
        d.fact(FactType::Count, super::raw(t, row, "read").as_deref(), inv);
        let created = get("self.dateCreated");
        let enc = crate::drafts::unix_seconds(created.as_deref());
        match sent {
            Some(s) => d.message_time(created.as_deref(), enc, s, inv),
            None => d.time(created.as_deref(), enc, "Bumble message created", inv),
        };
        let modified = get("self.dateModified");
        d.time(
            modified.as_deref(),
            crate::drafts::unix_seconds(modified.as_deref()),
            "Message modified",
            inv,
        );
        d.interpretation = format!(
            "database2 row {rid} of {path}: a Bumble message (an archived object) {}; read {}; its dates are Unix seconds.",
            match sent {
                Some(true) => format!("sent by the device's user to {with} (isIncoming 0)"),
                Some(false) => format!("received from {with} (isIncoming 1)"),
                None => "whose direction is not stored".into(),
            },
            match t.get(row, "read") {
                Some("1") => "yes",
                Some("0") => "no",
                _ => "not stored",
            },
        );
        run.record(d)?;
        if sent == Some(false)
            && let (Some(id), Some(q)) = (
                &from,
                json_cell_scalar(m.get("self.fromPersonUid.qualified")),
            )
        {
            run.observe(
                &format!("bumble:{id}"),
                EntityKind::Person,
                id,
                IdType::AccountId,
                &q,
                inv,
                format!("The Bumble user id of the sender of a received Bumble message (database2 row {rid})."),
            )?;
        }
        let (Some(text), Some(s)) = (plain("self.messageText"), sent) else {
            continue;
        };
        let context = other.as_ref().map(|id| format!("bumble:{id}"));
        crate::identity::claims_by_direction(
            run.ctx,
            inv,
            &text,
            &format!("Bumble message database2 row {rid}"),
            s,
            context.as_deref().zip(other.as_deref()),
        )?;
    }
    Ok(true)
}

fn account(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    if !run
        .schema(path, &["database2"])?
        .is_some_and(|s| s.columns("database2").contains("key"))
    {
        return Ok(());
    }
    // the user id qualified on its own (the other keys' roots are no ids)
    let mut args = crate::calls::flags(&["plists"]);
    args.insert("qualify".into(), json!({"root": "bumble"}));
    let id = crate::calls::query_args(
        run.ctx,
        path,
        "SELECT key, data FROM database2 WHERE key = 'userId'",
        10,
        &args,
    )?;
    let Some((inv, t)) = crate::calls::query_with(
        run.ctx,
        path,
        "SELECT key, data FROM database2 WHERE key IN ('userName', 'appVersion', 'lastLocation')",
        10,
        &["plists"],
    )?
    else {
        return Ok(());
    };
    let by_key = |t: &crate::outputs::Table, key: &str| {
        t.rows
            .iter()
            .find(|r| t.get(r, "key") == Some(key))
            .and_then(|r| plist_cell(t.get(r, "data")?))
    };
    let mut d = Draft::new("accounts", "Bumble account");
    d.fact(FactType::Path, Some(path), find);
    let user = id.as_ref().and_then(|(_, it)| by_key(it, "userId"));
    let uid = user.as_ref().and_then(|u| json_cell_scalar(u.get("root")));
    if let (Some((iinv, _)), Some(u)) = (&id, &uid) {
        d.fact(FactType::Account, Some(u), iinv);
    }
    let name = by_key(&t, "userName").and_then(|u| json_cell_scalar(u.get("root")));
    d.fact(FactType::Name, name.as_deref(), &inv);
    let version = by_key(&t, "appVersion").and_then(|u| json_cell_scalar(u.get("root")));
    d.fact(FactType::Text, version.as_deref(), &inv);
    d.interpretation = format!(
        "The account keys of Bumble's yap-database.sqlite ({path}): user id {}, user name {}, app version {}.",
        uid.as_deref().unwrap_or("not stored"),
        name.as_deref().unwrap_or("not stored"),
        version.as_deref().unwrap_or("not stored"),
    );
    run.record(d)?;
    if let (Some((iinv, _)), Some(q)) = (
        &id,
        user.as_ref()
            .and_then(|u| json_cell_scalar(u.get("root.qualified"))),
    ) {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AccountId,
            &q,
            iinv,
            "The Bumble user id of the account signed in on the device (yap-database.sqlite key userId).".into(),
        )?;
    }
    if let Some(n) = &name {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::DisplayName,
            n,
            &inv,
            "The user name of the Bumble account signed in on the device (yap-database.sqlite key userName).".into(),
        )?;
    }
    if let Some(loc) = by_key(&t, "lastLocation") {
        let loc = match loc.get("root") {
            Some(r) if r.is_object() => r.clone(),
            _ => loc,
        };
        let get = |k: &str| json_cell_scalar(loc.get(k));
        let (lat, lon) = (
            get("kCLLocationCodingKeyRawCoordinateLatitude"),
            get("kCLLocationCodingKeyRawCoordinateLongitude"),
        );
        let mut d = Draft::new(
            "locations",
            format!(
                "Bumble last location {}, {}",
                lat.as_deref().unwrap_or("?"),
                lon.as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, lat.as_deref(), &inv);
        d.fact(FactType::Text, lon.as_deref(), &inv);
        let time = get("kCLLocationCodingKeyTimestamp");
        d.time(
            time.as_deref(),
            super::core_data_encoding(time.as_deref()),
            "Location recorded",
            &inv,
        );
        d.interpretation = format!(
            "The lastLocation key of Bumble's yap-database.sqlite ({path}): the device's last position the app kept (an archived CLLocation; its timestamp is Core Data seconds)."
        );
        run.record(d)?;
    }
    Ok(())
}
