//! Google Duo / Google Meet for iOS (`com.google.Tachyon`: Duo, renamed Meet in 2022), its
//! store `Library/Application Support/DataStore` (SQLite), iLEAPP's `googleDuo`
//! (`googleDuoContacts`, `googleDuoCallHistory`, `googleDuoClips`): the users the app knows,
//! the calls made and received, the video and audio messages ("clips", notes).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `contact` | one `contacts` per user ("Google Duo contact <name or id>") | the user id (`contact_id`: a phone number or e-mail address), name, number label; registered and synced (`contact_reg_data_timestamp`, `contact_sync_date`: Unix microseconds) |
//! | `call_history` (with `contact` by `contact_id`) | one `calls` per call ("Google Duo video call to <who>", "… audio call from …") | the local user id (the device's account) and the other party's id, the contact's name, duration (seconds), direction (`call_history_is_outgoing_call` 1 outgoing, 0 incoming) and kind (`call_history_is_video_call` 1 video, 0 audio), said in the query; when (`call_history_timestamp`, Unix seconds) |
//! | `media_clip_v2` | one `messages` per clip ("Google Duo clip <message id>") | message id, the local user id, source as stored (iLEAPP: its meaning, sent or received, is not documented), text representation, MD5 checksum, content and transferred size (bytes); created, message date, viewed (Unix microseconds) |
//!
//! `DataStore` is a generic name: it is read only at `Library/Application Support/` of the app
//! data container of `com.google.Tachyon` — as the container's folder name (a backup),
//! FrontBoard's application state or the container's metadata plist names its owner
//! ([`super::dmssios::container_owner`]), or, when none names it, a container that holds the
//! app's preferences `Library/Preferences/com.google.Tachyon.plist`. Another app's `DataStore` is
//! neither read nor noted. Columns are taken by name (absent ones NULL: older stores lack
//! `contact_number_label`, older releases `media_clip_v2`); a store with none of the three tables
//! is noted, as are a `contact` without `contact_id`, a `call_history` without
//! `call_history_timestamp` and `call_history_other_user_id`, a `media_clip_v2` without
//! `media_clip_message_id`. Not read: the clips' thumbnails (`Application Support/ClipsCache/
//! <message id>.png`), the media of the clips, the account's tokens.
//!
//! Identities: the local user of the calls and clips is the device's (`owner`: its phone number
//! or e-mail address); every contact and every other party of a call is the person
//! `duo:<user id>` (computed in the query; the Android reader's namespace) with its number or
//! e-mail and the contact's name.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::appcontainer::{Owner, container_owner};
use super::dmssios::{need, pick, tables};
use super::{Draft, Run, container_of, file_name, handle_fact_type};
use crate::calls::{column_any_case, table_any_case};
use crate::drafts::{unix_micros, unix_seconds};
use crate::outputs::raw;

/// The app's bundle id.
const BUNDLE: &str = "com.google.Tachyon";
/// Where the store lies in the container.
const TAIL: &str = "/Library/Application Support/DataStore";
/// The store, for the notes.
const WHAT: &str = "Google Duo's DataStore";

/// Triage of every `DataStore` of Google Duo / Meet's container.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("DataStore")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(container) = container_of(path) else {
            continue;
        };
        if *path != format!("{container}{TAIL}") {
            continue;
        }
        let owner = match container_owner(run, &find, path)? {
            Some(o) if o.bundle.as_deref() == Some(BUNDLE) => o,
            Some(_) => continue,
            None => {
                // the app's preferences beside the store
                let marker = format!("{container}/Library/Preferences/com.google.Tachyon.plist");
                let Some((prefs, listed)) = run.find("com.google.Tachyon.plist")? else {
                    continue;
                };
                if !listed.contains(&marker) {
                    continue;
                }
                Owner {
                    bundle: None,
                    fact: (FactType::Path, marker),
                    cite: prefs,
                    how: "the container holds the app's preferences com.google.Tachyon.plist"
                        .to_string(),
                }
            }
        };
        store(run, &find, path, &owner)?;
    }
    Ok(())
}

/// The id type of a Duo user id (an e-mail address or a phone number).
fn id_type(v: &str) -> IdType {
    if v.contains('@') {
        IdType::Email
    } else {
        IdType::Phone
    }
}

/// Observes the local user `me` of a call or clip as the device's owner.
fn observe_owner(
    run: &Run<'_, '_>,
    inv: &Invoked,
    me: Option<&str>,
    file: &str,
) -> Result<(), RuntimeError> {
    let Some(me) = me else {
        return Ok(());
    };
    let why = |what: &str| {
        format!(
            "{what} of the Google Duo / Meet app on the device ({file}): the device user's account."
        )
    };
    run.observe_person(
        "owner",
        "device owner",
        inv,
        &why,
        &[(id_type(me), Some(me), "The local user id")],
    )
}

/// Observes a user `id` of the app (`qualified`: `duo:<id>`) with its `name`.
fn observe_user(
    run: &Run<'_, '_>,
    inv: &Invoked,
    (qualified, id): (Option<&str>, Option<&str>),
    name: Option<&str>,
    what: &str,
) -> Result<(), RuntimeError> {
    let (Some(q), Some(id)) = (qualified, id) else {
        return Ok(());
    };
    let label = name.unwrap_or(id);
    let why = |w: &str| format!("{w} of {label}, {what}.");
    run.observe_person(
        q,
        label,
        inv,
        &why,
        &[
            (id_type(id), Some(id), "The Duo user id"),
            (IdType::DisplayName, name, "The contact's name"),
        ],
    )
}

/// One `DataStore` of the app's container.
fn store(run: &Run<'_, '_>, find: &Invoked, path: &str, owner: &Owner) -> Result<(), RuntimeError> {
    let Some(tables) = tables(run, path)? else {
        return Ok(());
    };
    let contacts = table_any_case(&tables, "contact");
    let calls = table_any_case(&tables, "call_history");
    let clips = table_any_case(&tables, "media_clip_v2");
    if contacts.is_none() && calls.is_none() && clips.is_none() {
        run.ctx.unparsed(
            path,
            "could not parse Google Duo's DataStore because it has none of the tables contact, call_history, media_clip_v2",
            None,
        )?;
        return Ok(());
    }
    let mut known = None;
    if let Some((ct, cols)) = contacts
        && need(run, path, WHAT, ct, cols, &["contact_id"])?
    {
        known = Some((ct, cols));
        read_contacts(run, find, path, owner, (ct, cols))?;
    }
    if let Some((ht, cols)) = calls
        && need(
            run,
            path,
            WHAT,
            ht,
            cols,
            &["call_history_timestamp", "call_history_other_user_id"],
        )?
    {
        read_calls(run, find, path, owner, (ht, cols), known)?;
    }
    if let Some((mt, cols)) = clips
        && need(run, path, WHAT, mt, cols, &["media_clip_message_id"])?
    {
        read_clips(run, find, path, owner, (mt, cols))?;
    }
    Ok(())
}

/// `contact`: one phenomenon per user the app knows.
fn read_contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    owner: &Owner,
    (ct, cols): (&str, &BTreeSet<String>),
) -> Result<(), RuntimeError> {
    let id = column_any_case(cols, "contact_id").unwrap_or("contact_id");
    let sql = format!(
        "SELECT * FROM (SELECT c.rowid AS rid, c.\"{id}\" AS user_id, CASE WHEN c.\"{id}\" IS NOT NULL AND c.\"{id}\" != '' THEN 'duo:' || c.\"{id}\" END AS qualified, {}, {}, {}, {} FROM \"{ct}\" c) q",
        pick(cols, "c.", &["contact_name"], "name"),
        pick(cols, "c.", &["contact_number_label"], "label"),
        pick(cols, "c.", &["contact_reg_data_timestamp"], "registered"),
        pick(cols, "c.", &["contact_sync_date"], "synced"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let user = raw(t, row, "user_id");
        let name = raw(t, row, "name");
        let shown = name
            .clone()
            .or_else(|| user.clone())
            .unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string());
        let mut d = Draft::new("contacts", format!("Google Duo contact {shown}"));
        d.fact(FactType::Path, Some(path), find);
        owner.name_in(&mut d);
        if let Some(u) = &user {
            d.fact(handle_fact_type(u), Some(u), inv);
        }
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("label", FactType::Text, "number label"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_micros,
            &[
                ("registered", "Google Duo contact registered"),
                ("synced", "Google Duo contact synced"),
            ],
        );
        d.interpretation = format!(
            "{ct} row {} of {file} (Google Duo / Meet; {}): a user the app knows, Duo id {}{}; registration and sync times are Unix microseconds.",
            t.get(row, "rid").unwrap_or("?"),
            owner.how,
            user.as_deref().unwrap_or("not stored"),
            if said.is_empty() {
                String::new()
            } else {
                format!(" ({})", said.join("; "))
            },
        );
        run.record(d)?;
        observe_user(
            run,
            inv,
            (t.get(row, "qualified"), t.get(row, "user_id")),
            t.get(row, "name"),
            &format!("a Google Duo / Meet contact ({ct} of {file})"),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Google Duo contacts")
}

/// `call_history`: one phenomenon per call, with the contact's name.
fn read_calls(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    owner: &Owner,
    (ht, cols): (&str, &BTreeSet<String>),
    contacts: Option<(&str, &BTreeSet<String>)>,
) -> Result<(), RuntimeError> {
    let time = column_any_case(cols, "call_history_timestamp").unwrap_or("call_history_timestamp");
    let other =
        column_any_case(cols, "call_history_other_user_id").unwrap_or("call_history_other_user_id");
    let contact = match contacts {
        Some((ct, cc)) => match (
            column_any_case(cc, "contact_id"),
            column_any_case(cc, "contact_name"),
        ) {
            (Some(id), Some(n)) => format!(
                "(SELECT c.\"{n}\" FROM \"{ct}\" c WHERE c.\"{id}\" = h.\"{other}\" LIMIT 1) AS contact_name"
            ),
            _ => "NULL AS contact_name".to_string(),
        },
        None => "NULL AS contact_name".to_string(),
    };
    let flag = |name: &str, (on, off): (&str, &str), alias: &str| match column_any_case(cols, name)
    {
        Some(c) => format!(
            "CASE WHEN h.\"{c}\" IN (1, '1') THEN '{on}' WHEN h.\"{c}\" IN (0, '0') THEN '{off}' END AS {alias}"
        ),
        None => format!("NULL AS {alias}"),
    };
    let sql = format!(
        "SELECT * FROM (SELECT h.rowid AS rid, h.\"{time}\" AS time, {}, h.\"{other}\" AS other_user, CASE WHEN h.\"{other}\" IS NOT NULL AND h.\"{other}\" != '' THEN 'duo:' || h.\"{other}\" END AS qualified, {contact}, {}, {}, {} FROM \"{ht}\" h) q",
        pick(cols, "h.", &["call_history_local_user_id"], "local_user"),
        pick(cols, "h.", &["call_history_duration"], "duration"),
        flag(
            "call_history_is_outgoing_call",
            ("outgoing", "incoming"),
            "direction"
        ),
        flag("call_history_is_video_call", ("video", "audio"), "kind"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let other = raw(t, row, "other_user");
        let contact = raw(t, row, "contact_name");
        let who = contact
            .clone()
            .or_else(|| other.clone())
            .unwrap_or_else(|| "an unknown user".into());
        let kind = t
            .get(row, "kind")
            .map(|k| format!("{k} "))
            .unwrap_or_default();
        let title = match t.get(row, "direction") {
            Some("outgoing") => format!("Google Duo {kind}call to {who}"),
            Some("incoming") => format!("Google Duo {kind}call from {who}"),
            _ => format!("Google Duo {kind}call with {who}"),
        };
        let mut d = Draft::new("calls", title);
        d.fact(FactType::Path, Some(path), find);
        owner.name_in(&mut d);
        for c in ["local_user", "other_user"] {
            if let Some(v) = raw(t, row, c) {
                d.fact(handle_fact_type(&v), Some(&v), inv);
            }
        }
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("contact_name", FactType::Name, "contact"),
                ("duration", FactType::Count, "duration (s)"),
                ("direction", FactType::Text, "direction"),
                ("kind", FactType::Text, "kind"),
            ],
        );
        let when = t.get(row, "time");
        d.time(when, unix_seconds(when), "Google Duo call", inv);
        d.interpretation = format!(
            "{ht} row {} of {file} (Google Duo / Meet; {}): a call between the device's user ({}) and {}{} — {}; the direction and kind are call_history_is_outgoing_call and call_history_is_video_call (1 outgoing or video, 0 incoming or audio); the time is Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            owner.how,
            t.get(row, "local_user").unwrap_or("local user not stored"),
            who,
            other
                .as_deref()
                .filter(|o| *o != who)
                .map(|o| format!(" ({o})"))
                .unwrap_or_default(),
            said.join("; "),
        );
        run.record(d)?;
        observe_owner(run, inv, t.get(row, "local_user"), file)?;
        observe_user(
            run,
            inv,
            (t.get(row, "qualified"), t.get(row, "other_user")),
            t.get(row, "contact_name"),
            &format!("the other party of a Google Duo / Meet call ({ht} of {file})"),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Google Duo calls")
}

/// `media_clip_v2`: one phenomenon per clip (a video or audio message).
fn read_clips(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    owner: &Owner,
    (mt, cols): (&str, &BTreeSet<String>),
) -> Result<(), RuntimeError> {
    let id = column_any_case(cols, "media_clip_message_id").unwrap_or("media_clip_message_id");
    let sql = format!(
        "SELECT * FROM (SELECT m.rowid AS rid, m.\"{id}\" AS message_id, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM \"{mt}\" m) q",
        pick(cols, "m.", &["media_clip_local_id"], "local_user"),
        pick(cols, "m.", &["media_clip_source"], "source"),
        pick(cols, "m.", &["media_clip_text_representation"], "text"),
        pick(cols, "m.", &["media_clip_md5_checksum"], "md5"),
        pick(cols, "m.", &["media_clip_content_size"], "size"),
        pick(cols, "m.", &["media_clip_transferred_size"], "transferred"),
        pick(cols, "m.", &["media_clip_creation_date"], "created"),
        pick(cols, "m.", &["media_clip_message_date"], "message_date"),
        pick(cols, "m.", &["media_clip_viewed_date"], "viewed"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let message = raw(t, row, "message_id")
            .unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string());
        let mut d = Draft::new("messages", format!("Google Duo clip {message}"));
        d.fact(FactType::Path, Some(path), find);
        owner.name_in(&mut d);
        if let Some(v) = raw(t, row, "local_user") {
            d.fact(handle_fact_type(&v), Some(&v), inv);
        }
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("message_id", FactType::Identifier, "message id"),
                ("source", FactType::Text, "source (as stored)"),
                ("text", FactType::Text, "text"),
                ("md5", FactType::Hash, "MD5"),
                ("size", FactType::Count, "size (bytes)"),
                ("transferred", FactType::Count, "transferred (bytes)"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_micros,
            &[
                ("created", "Google Duo clip created"),
                ("message_date", "Google Duo clip message date"),
                ("viewed", "Google Duo clip viewed"),
            ],
        );
        d.interpretation = format!(
            "{mt} row {} of {file} (Google Duo / Meet; {}): a video or audio message (a clip or note) of the device's user's account ({}) — {}; the source is as stored (whether it was sent or received is not documented); its thumbnail would be ClipsCache/{message}.png; times are Unix microseconds.",
            t.get(row, "rid").unwrap_or("?"),
            owner.how,
            t.get(row, "local_user").unwrap_or("local user not stored"),
            said.join("; "),
        );
        run.record(d)?;
        observe_owner(run, inv, t.get(row, "local_user"), file)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Google Duo clips")
}
