//! Threads on Android (`com.instagram.barcelona`), the fields of ALEAPP's three `threads`
//! artefacts, found by listing the app's folder:
//!
//! - `shared_prefs/com.instagram.barcelona_preferences.xml` (`read_xml`, the ids qualified by
//!   its `qualify`): the current and the last seen account; `shared_prefs/autobackupprefs.xml`:
//!   `cloud_account_user_map` (a JSON text: every account the app recorded — id, user name,
//!   profile picture); a `<account id>_USER_PREFERENCES.xml` per account that used the app.
//!   One `accounts` phenomenon per account: id, user name, picture, current, last seen, has a
//!   preference file.
//! - `databases/time_in_app_<account id>.db` (`intervals`, `metadata`): one `app_usage` per
//!   foreground interval — start and end (Unix seconds), its duration computed in the query,
//!   start and end events, uptimes, sequence — with the store's last eviction, before which
//!   nothing is kept.
//! - `databases/barcelona_feed_items_room_db_<account id>` (`barcelona_user_feed_items`, the
//!   posts of each item's `data` JSON read with `json_each` in the query): one `social` per post
//!   the app held for the account — posted (Unix seconds) and stored (Unix ms), author (user
//!   name, full name, id, verified, private, friendship), text, likes, liked by the viewer,
//!   code, media type, item type, how it arrived (`source`, from the release that added it),
//!   thread id. Posts the app fetched, not proof they were seen.
//!
//! Identities: a Threads account is an Instagram account (one id for both apps), so an
//! account is `instagram:<id>` (the id the Instagram readers keep, on both platforms): the
//! current and last seen accounts, with the user names the app recorded, are the device's
//! user's (`owner`); each post's author is an `instagram:<id>` person with user name and full
//! name.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::json;

use super::{Located, record_query};
use crate::calls::Tables;
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_millis, unix_seconds};
use crate::identity::{args_on, artefact_name, schema_on};

/// The app's data folder name.
pub const PACKAGE: &str = "com.instagram.barcelona";

/// Lists the app's folder once and reads its preferences and stores.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(listing) = crate::calls::call_or_note(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "find_files",
        args_on(
            &l.tree,
            json!({"path": l.path, "name_globs": [
                "com.instagram.barcelona_preferences.xml",
                "autobackupprefs.xml",
                "*_USER_PREFERENCES.xml",
                "time_in_app_*.db",
                "barcelona_feed_items_room_db_*",
            ]}),
        ),
    )?
    else {
        return Ok(());
    };
    let paths = crate::outputs::found_paths(&listing.output.text);
    let at = |path: &String| Located {
        tree: l.tree.clone(),
        path: path.clone(),
        found: listing.clone(),
    };
    let in_dir = |dir: &str| -> Vec<Located> {
        let dir = format!("{}/{dir}", l.path);
        paths
            .iter()
            .filter(|p| p.rsplit_once('/').map(|(d, _)| d) == Some(dir.as_str()))
            .map(at)
            .collect()
    };
    let prefs = in_dir("shared_prefs");
    if !prefs.is_empty() {
        let name = artefact_name(&l.tree, &format!("{}/shared_prefs", l.path));
        ctx.artefact(&name, || accounts(ctx, &prefs))?;
    }
    for db in in_dir("databases") {
        if db.name().ends_with("-wal")
            || db.name().ends_with("-shm")
            || db.name().ends_with("-journal")
        {
            continue;
        }
        let account = db
            .name()
            .strip_prefix("time_in_app_")
            .and_then(|n| n.strip_suffix(".db"))
            .map(|a| (a.to_string(), true))
            .or_else(|| {
                db.name()
                    .strip_prefix("barcelona_feed_items_room_db_")
                    .map(|a| (a.to_string(), false))
            });
        let Some((account, usage)) = account else {
            continue;
        };
        ctx.artefact(&artefact_name(&db.tree, &db.path), || {
            if usage {
                time_in_app(ctx, &db, &account)
            } else {
                feed(ctx, &db, &account)
            }
        })?;
    }
    Ok(())
}

/// The accounts the preferences record, one `accounts` phenomenon each.
fn accounts(ctx: &AgentCtx<'_>, prefs: &[Located]) -> Result<(), RuntimeError> {
    let mut current = None;
    let mut last_seen = None;
    let mut general = None;
    if let Some(l) = prefs
        .iter()
        .find(|l| l.name() == "com.instagram.barcelona_preferences.xml")
        && let Some((inv, p)) = super::prefs::prefs_xml(
            ctx,
            l,
            "Threads",
            Some(json!({"current_user_id": "instagram", "last_seen_user_id": "instagram"})),
        )?
    {
        current = super::prefs::pref(&p, "current_user_id");
        last_seen = super::prefs::pref(&p, "last_seen_user_id");
        general = Some((l, inv));
    }
    // every account the backup preferences list: (id, user name, picture)
    let mut listed: Vec<(String, Option<String>, Option<String>)> = Vec::new();
    let mut backup = None;
    if let Some(l) = prefs.iter().find(|l| l.name() == "autobackupprefs.xml")
        && let Some((inv, p)) = super::prefs::prefs_xml(ctx, l, "Threads", None)?
    {
        if let Some(map) = super::prefs::pref(&p, "cloud_account_user_map") {
            match super::prefs::pref_json(&map) {
                Ok(v) => {
                    for e in v
                        .get("cloud_accounts_list")
                        .and_then(|x| x.as_array())
                        .into_iter()
                        .flatten()
                    {
                        let s = |k: &str| match e.get(k) {
                            Some(serde_json::Value::String(s)) if !s.is_empty() => Some(s.clone()),
                            Some(serde_json::Value::Number(n)) => Some(n.to_string()),
                            _ => None,
                        };
                        if let Some(id) = s("user_id") {
                            listed.push((id, s("username"), s("profile_pic_url")));
                        }
                    }
                }
                Err(e) => ctx.unparsed(
                    &artefact_name(&l.tree, &l.path),
                    &format!("could not parse Threads' cloud_account_user_map because it is not JSON: {e}"),
                    Some(&inv.record.invocation_id),
                )?,
            }
        }
        backup = Some((l, inv));
    }
    let with_file: Vec<(&Located, String)> = prefs
        .iter()
        .filter_map(|l| {
            l.name()
                .strip_suffix("_USER_PREFERENCES.xml")
                .map(|id| (l, id.to_string()))
        })
        .collect();
    let mut ids: Vec<String> = listed.iter().map(|(id, ..)| id.clone()).collect();
    ids.extend(with_file.iter().map(|(_, id)| id.clone()));
    ids.extend(current.iter().cloned());
    ids.extend(last_seen.iter().cloned());
    ids.sort();
    ids.dedup();
    for id in ids {
        let entry = listed.iter().find(|(i, ..)| *i == id);
        let user = entry.and_then(|(_, u, _)| u.clone());
        let mut d = Draft::new(
            "accounts",
            format!("Threads account {}", user.as_deref().unwrap_or(&id)),
        );
        let mut said = Vec::new();
        let is_current = current.as_deref() == Some(id.as_str());
        let is_last = last_seen.as_deref() == Some(id.as_str());
        if let Some((l, inv)) = &general
            && (is_current || is_last)
        {
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Identifier, Some(&id), inv);
            d.fact(FactType::Account, Some(&format!("instagram:{id}")), inv);
            said.push(format!(
                "the {} account of {}",
                match (is_current, is_last) {
                    (true, true) => "current and last seen",
                    (true, false) => "current",
                    _ => "last seen",
                },
                l.name()
            ));
        }
        if let (Some((l, inv)), Some((_, u, pic))) = (&backup, entry) {
            d.fact(FactType::Path, Some(&l.path), &l.found);
            if said.is_empty() {
                d.fact(FactType::Identifier, Some(&id), inv);
            }
            d.fact(
                FactType::Account,
                u.as_deref()
                    .and_then(|u| super::prefs::cited_in_prefs(inv, u))
                    .as_deref(),
                inv,
            );
            d.fact(
                FactType::Url,
                pic.as_deref()
                    .and_then(|p| super::prefs::cited_in_prefs(inv, p))
                    .as_deref(),
                inv,
            );
            said.push(format!(
                "listed in {}'s cloud_account_user_map{}",
                l.name(),
                u.as_deref().map(|u| format!(" as {u}")).unwrap_or_default()
            ));
        }
        if let Some((l, _)) = with_file.iter().find(|(_, i)| *i == id) {
            d.fact(FactType::Path, Some(&l.path), &l.found);
            said.push(format!("with its preference file {}", l.name()));
        }
        d.interpretation = format!(
            "a Threads account (an Instagram account) the app recorded on the device, id {id}: {}.",
            said.join("; ")
        );
        record_draft(ctx, d)?;
        // the device's user's: the accounts the app was using
        if let Some((l, inv)) = &general
            && (is_current || is_last)
        {
            let q = inv.output.text.lines().find_map(|line| {
                ["current_user_id", "last_seen_user_id"]
                    .iter()
                    .find_map(|k| line.strip_prefix(&format!("# qualified {k}: ")))
                    .filter(|v| *v == format!("instagram:{id}"))
                    .map(str::to_string)
            });
            crate::identity::observe_owner_ids(
                ctx,
                inv,
                vec![(q, IdType::AccountId, "account id (its Instagram id)")],
                &|what| {
                    format!(
                        "The Threads {what} of the account the app was using on the device ({}).",
                        l.name()
                    )
                },
            )?;
        }
        if let (Some((l, inv)), Some(u)) = (&backup, user)
            && (is_current || is_last)
        {
            crate::identity::observe_owner_ids(
                ctx,
                inv,
                vec![(
                    super::prefs::cited_in_prefs(inv, &u),
                    IdType::Nickname,
                    "user name",
                )],
                &|what| {
                    format!(
                        "The Threads {what} of the account the app was using on the device ({}).",
                        l.name()
                    )
                },
            )?;
        }
    }
    Ok(())
}

/// `time_in_app_<account>.db`: the foreground intervals.
fn time_in_app(ctx: &AgentCtx<'_>, l: &Located, account: &str) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Threads' time_in_app store",
        &schema,
        "intervals",
        &["start_walltime", "end_walltime"],
    )?
    else {
        return Ok(());
    };
    let evicted = if schema
        .get("metadata")
        .is_some_and(|m| m.contains("key") && m.contains("value"))
    {
        "(SELECT m.value FROM metadata m WHERE m.key = 'last_eviction_timestamp' LIMIT 1)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT i.rowid AS rid, i.start_walltime AS start, i.end_walltime AS end, i.end_walltime - i.start_walltime AS duration, {}, {evicted} AS evicted FROM intervals i ORDER BY i.rowid",
        crate::calls::select_columns(
            cols,
            "i.",
            &[
                ("start_event", "start_event"),
                ("end_event", "end_event"),
                ("start_uptime", "start_uptime"),
                ("end_uptime", "end_uptime"),
                ("seq_num", "seq"),
            ]
        ),
    );
    let what = format!(
        "an interval the Threads app was in the foreground for account {account} (the account of the store's name; kept since the store's last eviction)"
    );
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "intervals",
            category: "app_usage",
            what: &what,
            title: &|t, row| {
                format!(
                    "Threads in use for {} s",
                    t.get(row, "duration").unwrap_or("?")
                )
            },
            fields: &[
                ("duration", FactType::Count, "seconds"),
                ("start_event", FactType::Text, "start event"),
                ("end_event", FactType::Text, "end event"),
                ("start_uptime", FactType::Count, "start uptime"),
                ("end_uptime", FactType::Count, "end uptime"),
                ("seq", FactType::Count, "sequence"),
            ],
            times: &[
                ("start", "Threads in the foreground from", unix_seconds),
                ("end", "Threads in the foreground until", unix_seconds),
                ("evicted", "Threads usage store last evicted", unix_seconds),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `barcelona_feed_items_room_db_<account>`: the posts of the stored feed items.
fn feed(ctx: &AgentCtx<'_>, l: &Located, account: &str) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Threads' feed store",
        &schema,
        "barcelona_user_feed_items",
        &["id", "data"],
    )?
    else {
        return Ok(());
    };
    let doc = "CAST(f.data AS TEXT)";
    let p = |path: &str| format!("json_extract(t.value, '$.post.{path}')");
    let author = format!("COALESCE({}, {})", p("user.id"), p("user.pk"));
    let sql = format!(
        "SELECT f.rowid AS rid, t.key AS n, f.id AS thread, {}, {} AS taken_at, {} AS username, {} AS full_name, {author} AS author, CASE WHEN {author} IS NOT NULL AND {author} != '' THEN 'instagram:' || {author} END AS qualified, {} AS text, {} AS likes, {} AS liked, {} AS code, {} AS media_type, {} AS verified, {} AS private, {} AS friendship FROM barcelona_user_feed_items f, json_each(CASE WHEN json_valid({doc}) THEN {doc} ELSE '{{}}' END, '$.thread_items') t ORDER BY f.rowid, t.key",
        crate::calls::select_columns(
            cols,
            "f.",
            &[
                ("stored_age", "stored"),
                ("media_age", "media_age"),
                ("item_type", "item_type"),
                ("source", "source"),
            ]
        ),
        p("taken_at"),
        p("user.username"),
        p("user.full_name"),
        p("caption.text"),
        p("like_count"),
        p("has_liked"),
        p("code"),
        p("media_type"),
        p("user.is_verified"),
        p("user.is_private"),
        p("user.friendship_status"),
    );
    let file = l.name().to_string();
    let what = format!(
        "a post the Threads app held in its feed store for account {account} (fetched by the app, not proof it was seen)"
    );
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "barcelona_user_feed_items",
            category: "social",
            what: &what,
            title: &|t, row| format!("Threads post by {}", t.get(row, "username").unwrap_or("?")),
            fields: &[
                ("text", FactType::Text, "text"),
                ("username", FactType::Account, "author"),
                ("full_name", FactType::Name, "author name"),
                ("author", FactType::Identifier, "author id"),
                ("qualified", FactType::Account, "author account"),
                ("likes", FactType::Count, "likes"),
                ("liked", FactType::Text, "liked by the viewer"),
                ("code", FactType::Identifier, "post code"),
                ("media_type", FactType::Text, "media type"),
                ("verified", FactType::Text, "author verified"),
                ("private", FactType::Text, "author private"),
                ("friendship", FactType::Text, "friendship"),
                ("item_type", FactType::Text, "item type"),
                ("source", FactType::Text, "source"),
                ("thread", FactType::Identifier, "thread id"),
            ],
            times: &[
                ("taken_at", "Threads post made", unix_seconds),
                ("stored", "Threads post stored by the app", unix_millis),
            ],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "username",
                &[
                    ("qualified", IdType::AccountId, "The Instagram id"),
                    ("username", IdType::Nickname, "The user name"),
                    ("full_name", IdType::DisplayName, "The full name"),
                ],
                &|what, _| {
                    format!(
                        "{what} of the author of a Threads post (feed item {} of {file}).",
                        t.get(row, "thread").unwrap_or("?")
                    )
                },
            )
        },
    )
}
