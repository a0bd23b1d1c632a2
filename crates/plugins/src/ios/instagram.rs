//! Instagram direct messages (`Library/Application Support/DirectSQLiteDatabase/<user id>.db`
//! of the Instagram container, the file named after the signed-in account's id), read with
//! `sqlite_query` and its `plists` option (the rows are NSKeyedArchiver objects):
//!
//! - one phenomenon per `threads` row: thread id, the viewer (the signed-in account), the
//!   thread's users (`IGUser`: id, user name, full name) and its inviter;
//! - one per `messages` row (`IGDirectPublishedMessage`): message and thread id, sender id
//!   (`metadata.senderPk`), server time (`metadata.serverTimestamp`), subtype (text, media,
//!   thread activity such as video chats), the text (`content.string`), a call's title and id,
//!   a photo's media id and, as iLEAPP reports it, the URL of its first image version with that
//!   URL's expiry; whether the viewer sent it.
//!
//! Identities: the viewer is the owner (`instagram:<id>` as the qualified id from the query,
//! user name and full name where the inviter record names the same id); the other users and
//! the senders of received messages are `instagram:<id>` persons with that account id (the
//! `pk` qualified by `sqlite_query`'s `qualify`, so it grounds in the output; the id Android's
//! `direct.db` keeps) and their user and full names. Wallet addresses in a text are
//! claims of its writer.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, file_name, raw};
use crate::outputs::{in_json_cell, plist_cell};

/// The directory that holds the databases.
pub const DIR: &str = "DirectSQLiteDatabase";

/// Triage of every Instagram direct database of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((_, dirs)) = dirs(run)? else {
        return Ok(());
    };
    for dir in dirs {
        let args = json!({"path": dir, "name_glob": "*.db", "limit": 100});
        let Some(find) =
            crate::calls::call_or_note(run.ctx, &format!("{dir}/*.db"), "find_files", args)?
        else {
            continue;
        };
        for path in crate::outputs::found_paths(&find.output.text) {
            if path.rsplit_once('/').is_some_and(|(d, _)| d == dir) {
                one(run, &find, &path)?;
            }
        }
    }
    Ok(())
}

/// The `DirectSQLiteDatabase` directories of the source.
fn dirs(run: &Run<'_, '_>) -> Result<Option<(Invoked, Vec<String>)>, RuntimeError> {
    let args = json!({"name_glob": DIR, "limit": 1000});
    let Some(inv) = crate::calls::call_or_note(run.ctx, DIR, "find_files", args)? else {
        return Ok(None);
    };
    let found = inv
        .output
        .text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.splitn(7, '\t').collect::<Vec<&str>>())
        .filter(|c| c.len() == 7 && c[0] == "dir")
        .map(|c| c[6].to_string())
        .collect();
    Ok(Some((inv, found)))
}

/// `sqlite_query`'s arguments for both tables: the archives decoded, every user's `pk` and a
/// message's `senderPk` qualified as `instagram:<id>`, the id Android's `direct.db` keeps.
fn options() -> serde_json::Map<String, Value> {
    let mut o = crate::calls::flags(&["plists"]);
    o.insert(
        "qualify".into(),
        json!({"pk": "instagram", "NSString*senderPk": "instagram"}),
    );
    o
}

/// The archived object of a `plist:` cell (under its `$top` key `root`).
fn object(cell: Option<&str>) -> Option<Value> {
    let v = plist_cell(cell?)?;
    Some(v.get("root").cloned().unwrap_or(v))
}

/// A string member as the query output holds it.
fn s(v: Option<&Value>, key: &str) -> Option<String> {
    v?.get(key)?
        .as_str()
        .filter(|x| !x.is_empty())
        .map(in_json_cell)
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["threads", "messages"])? else {
        return Ok(());
    };
    if !schema.require(
        run,
        "threads",
        &["row_id", "thread_id", "viewer_id", "metadata"],
    )? || !schema.require(
        run,
        "messages",
        &["row_id", "message_id", "thread_id", "archive"],
    )? {
        return Ok(());
    }
    let mut viewer: Option<String> = None;
    let options = options();
    let sql = "SELECT row_id, thread_id, viewer_id, 'instagram:' || viewer_id AS qualified, metadata FROM threads";
    if let Some(paged) = run.paged_args(path, sql, "row_id", &options)? {
        for (inv, t, row) in paged.rows() {
            let thread = raw(t, row, "thread_id").unwrap_or_default();
            let viewer_id = raw(t, row, "viewer_id");
            viewer = viewer.or(viewer_id.clone());
            let meta = object(t.get(row, "metadata"));
            let users: Vec<&Value> = meta
                .as_ref()
                .and_then(|m| m.get("NSArray<IGUser *>*users"))
                .and_then(Value::as_array)
                .map(|a| a.iter().collect())
                .unwrap_or_default();
            let inviter = meta.as_ref().and_then(|m| m.get("IGUser*inviter"));
            let mut d = Draft::new("messages", format!("Instagram thread {thread}"));
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Identifier, Some(&thread), inv);
            d.fact(FactType::Account, viewer_id.as_deref(), inv);
            let mut names = Vec::new();
            for u in users.iter().copied().chain(inviter) {
                let pk = s(Some(u), "pk");
                let qualified = s(Some(u), "pk.qualified");
                let user = s(Some(u), "userName");
                let full = s(Some(u), "fullName");
                d.fact(FactType::Account, pk.as_deref(), inv);
                d.fact(FactType::Account, user.as_deref(), inv);
                d.fact(FactType::Name, full.as_deref(), inv);
                names.push(format!(
                    "{} ({}{})",
                    pk.as_deref().unwrap_or("?"),
                    user.as_deref().unwrap_or("no user name"),
                    full.as_deref()
                        .map(|f| format!(", {f}"))
                        .unwrap_or_default()
                ));
                let Some(pk) = pk else { continue };
                let own = viewer_id.as_deref() == Some(pk.as_str());
                let context = if own {
                    "owner".to_string()
                } else {
                    format!("instagram:{pk}")
                };
                let label = if own {
                    "device owner".to_string()
                } else {
                    full.clone().or(user.clone()).unwrap_or(pk.clone())
                };
                let why = |what: &str| {
                    format!(
                        "{what} of the Instagram account {pk} ({}, thread {thread}).",
                        if own {
                            "the signed-in account, the database's viewer"
                        } else {
                            "a member of a direct thread"
                        }
                    )
                };
                run.observe_person(
                    &context,
                    &label,
                    inv,
                    &why,
                    &[
                        (
                            IdType::AccountId,
                            qualified.as_deref(),
                            "The account id (pk, qualified by the query)",
                        ),
                        (IdType::Nickname, user.as_deref(), "The user name"),
                        (IdType::DisplayName, full.as_deref(), "The full name"),
                    ],
                )?;
            }
            d.interpretation = format!(
                "threads row of {path}: the Instagram direct thread {thread} seen by the account {} (viewer_id), with {}.",
                viewer_id.as_deref().unwrap_or("?"),
                if names.is_empty() {
                    "no user recorded".to_string()
                } else {
                    names.join("; ")
                },
            );
            run.record(d)?;
            if let Some(q) = raw(t, row, "qualified") {
                run.observe(
                    "owner",
                    EntityKind::Person,
                    "device owner",
                    IdType::AccountId,
                    &q,
                    inv,
                    format!(
                        "The Instagram account signed in on the device: the viewer of {} ({}).",
                        file_name(path),
                        thread
                    ),
                )?;
            }
        }
    }
    let sql = "SELECT row_id, message_id, thread_id, class_name, archive FROM messages";
    let Some(paged) = run.paged_args(path, sql, "row_id", &options)? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = raw(t, row, "message_id").unwrap_or_default();
        let thread = raw(t, row, "thread_id");
        let m = object(t.get(row, "archive"));
        let meta = m
            .as_ref()
            .and_then(|m| m.get("IGDirectPublishedMessageMetadata*metadata"));
        let content = m
            .as_ref()
            .and_then(|m| m.get("IGDirectPublishedMessageContent*content"));
        let sender = s(meta, "NSString*senderPk");
        let sender_id = s(meta, "NSString*senderPk.qualified");
        let time = s(meta, "NSDate*serverTimestamp");
        let subtype = s(content, "codedSubtype");
        let text = s(content, "NSString*string");
        let activity =
            content.and_then(|c| c.get("IGDirectThreadActivityAnnouncement*threadActivity"));
        let call = s(activity, "NSString*voipTitle");
        let call_id = s(activity, "NSString*videoCallId");
        let photo = content
            .and_then(|c| c.get("IGDirectPublishedMessageMedia*media"))
            .and_then(|x| x.get("IGDirectPublishedMessagePermanentMedia*permanentMedia"))
            .and_then(|x| x.get("IGPhoto*photo"));
        let media_id = s(photo, "kIGPhotoMediaID");
        // the photo's first image version (iLEAPP's shared media URL and its expiry)
        let version = photo
            .and_then(|p| p.get("imageVersions"))
            .and_then(|v| v.get(0).or_else(|| v.get("NS.objects")?.get(0)));
        let media_url = version
            .and_then(|v| v.get("url"))
            .and_then(|u| {
                if u.is_string() {
                    Some(u)
                } else {
                    u.get("NS.relative")
                }
            })
            .and_then(Value::as_str)
            .filter(|u| !u.is_empty())
            .map(in_json_cell);
        let expires = s(version, "expiration_date");
        let sent = sender.is_some() && sender == viewer;
        let mut d = Draft::new(
            "messages",
            format!(
                "Instagram message {id} {} {}",
                if sent { "sent by" } else { "from" },
                sender.as_deref().unwrap_or("an unknown sender")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&id), inv);
        d.fact(FactType::Identifier, thread.as_deref(), inv);
        d.fact(FactType::Account, sender.as_deref(), inv);
        d.fact(FactType::Text, subtype.as_deref(), inv);
        d.fact(FactType::Text, text.as_deref(), inv);
        d.fact(FactType::Text, call.as_deref(), inv);
        d.fact(FactType::Identifier, call_id.as_deref(), inv);
        d.fact(FactType::Identifier, media_id.as_deref(), inv);
        d.time(
            time.as_deref(),
            time.as_ref().map(|_| TimeEncoding::Iso8601),
            if sent {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        d.fact(FactType::Url, media_url.as_deref(), inv);
        d.time(
            expires.as_deref(),
            expires.as_ref().map(|_| TimeEncoding::Iso8601),
            "Shared media URL expires",
            inv,
        );
        d.interpretation = format!(
            "messages row of {path}: an Instagram direct message ({}, {}) in thread {} from the account {}{}{}{}.",
            raw(t, row, "class_name").as_deref().unwrap_or("?"),
            subtype.as_deref().unwrap_or("no subtype"),
            thread.as_deref().unwrap_or("?"),
            sender.as_deref().unwrap_or("?"),
            if sent {
                ", the signed-in account (viewer_id): sent by the user"
            } else {
                ""
            },
            call.as_deref()
                .map(|c| format!("; {c}"))
                .unwrap_or_default(),
            media_id
                .as_deref()
                .map(|p| format!("; photo media {p}"))
                .unwrap_or_default(),
        );
        run.record(d)?;
        if let (Some(from), Some(q), false) = (&sender, &sender_id, sent) {
            run.observe(
                &format!("instagram:{from}"),
                EntityKind::Person,
                &format!("Instagram account {from}"),
                IdType::AccountId,
                q,
                inv,
                format!(
                    "The sender (senderPk) of the Instagram message {id} in {}: another account than the viewer.",
                    file_name(path)
                ),
            )?;
        }
        if let (Some(body), Some(from)) = (
            content
                .and_then(|c| c.get("NSString*string"))
                .and_then(Value::as_str),
            &sender,
        ) {
            let other = (!sent).then(|| {
                (
                    format!("instagram:{from}"),
                    format!("the Instagram account {from}"),
                )
            });
            run.message_claims(
                inv,
                body,
                &format!("Instagram message {id} ({})", file_name(path)),
                sent,
                other,
                "senderPk is the viewer",
                "senderPk is another account",
            )?;
        }
    }
    if paged.truncated {
        run.ctx.unparsed(
            path,
            &format!(
                "more than {} messages; the first {} were recorded",
                super::ROW_CAP,
                super::ROW_CAP
            ),
            None,
        )?;
    }
    Ok(())
}
