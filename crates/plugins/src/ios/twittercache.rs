//! X (Twitter)'s model cache (`Containers/Shared/AppGroup/<uuid>/TFSModelCache.*/<account>/
//! database/modelCache.sqlite3`): `ItemKeys` names each cached object `<id>|<model type>|Twitter`
//! and `Items.archivedObjectData` holds it as gzip-compressed JSON (`cacheableModel`), read with
//! `sqlite_query`'s `json` option, with the fields of iLEAPP's `twitterTweets`,
//! `twitterCachedUsers` and `twitterNotifications`:
//!
//! - one phenomenon per cached post (`TwitterStatus`): posted and cache-updated times (Core Data
//!   seconds), text, author id, language, reply, retweet, quote, bookmark and view counts,
//!   possibly sensitive, the quoted post's URL, conversation id, post id;
//! - one per cached user (`TwitterMasterUser`): cache-updated time, user name, user id, bio,
//!   followers, following, favourites (a `projectedValue`/`defaultValue` pair read as iLEAPP
//!   reads it), blue verified, protected, profile image URL;
//! - one per notification (`URTNotification`): time (Unix milliseconds), text, icon, the user
//!   names or ids it is from, notification id.
//!
//! A key whose object was evicted (no `Items` row) or whose data is not JSON is counted and
//! noted, not recorded. Identities: every user id is `twitter:<id>` (the form the DM cache's
//! reader and the Android reader give; qualified in the query or by `sqlite_query`'s
//! `qualify`, so it grounds), a cached user with its user name; a post's author by id.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, file_name, raw};
use crate::outputs::json_cell_scalar;

/// The store's name.
pub const NAME: &str = "modelCache.sqlite3";

/// The model types read, with what each is.
const MODELS: &[(&str, &str)] = &[
    ("TwitterStatus", "posts"),
    ("TwitterMasterUser", "users"),
    ("URTNotification", "notifications"),
];

/// Triage of every model cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each(NAME, |find, path| {
        if path.contains("/TFSModelCache") {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ItemKeys", "Items"])? else {
        return Ok(());
    };
    if !schema.require(run, "ItemKeys", &["itemKey", "itemId"])?
        || !schema.require(run, "Items", &["id", "archivedObjectData"])?
    {
        return Ok(());
    }
    for (model, what) in MODELS {
        let sql = format!(
            "SELECT rid, uid, uid_q, data FROM (SELECT k.rowid AS rid, substr(k.itemKey, 1, instr(k.itemKey, '|') - 1) AS uid, 'twitter:' || substr(k.itemKey, 1, instr(k.itemKey, '|') - 1) AS uid_q, i.archivedObjectData AS data FROM ItemKeys k LEFT JOIN Items i ON i.id = k.itemId WHERE k.itemKey LIKE '%|{model}|%')"
        );
        let mut options = crate::calls::flags(&["json"]);
        options.insert(
            "qualify".into(),
            serde_json::json!({"fromUserID": "twitter"}),
        );
        let Some(paged) = run.paged_args(path, &sql, "rid", &options)? else {
            continue;
        };
        let (mut evicted, mut undecodable) = (0usize, 0usize);
        for (inv, t, row) in paged.rows() {
            let uid = raw(t, row, "uid").unwrap_or_default();
            let Some(cell) = t.get(row, "data").filter(|c| *c != "NULL") else {
                evicted += 1;
                continue;
            };
            let Some(m) = cell
                .strip_prefix("json:")
                .and_then(|j| serde_json::from_str::<Value>(j).ok())
                .and_then(|v| v.get("cacheableModel").cloned())
                .filter(Value::is_object)
            else {
                undecodable += 1;
                continue;
            };
            match *model {
                "TwitterStatus" => post(run, find, path, inv, &uid, &m)?,
                "TwitterMasterUser" => {
                    let q = raw(t, row, "uid_q").unwrap_or_default();
                    user(run, find, path, inv, &uid, &q, &m)?
                }
                _ => notification(run, find, path, inv, &uid, &m)?,
            }
        }
        if evicted + undecodable > 0 || paged.truncated {
            run.ctx.unparsed(
                path,
                &format!(
                    "cached {what} ({model}): {evicted} key(s) without a stored object (evicted), {undecodable} object(s) not gzip-compressed JSON with a cacheableModel{}",
                    if paged.truncated {
                        format!("; more than {} keys, the first {} read", super::ROW_CAP, super::ROW_CAP)
                    } else {
                        String::new()
                    }
                ),
                None,
            )?;
        }
    }
    Ok(())
}

/// A member of a cached model as the output holds it (strings escaped as in the `json:` cell,
/// numbers and booleans as written).
fn v(m: &Value, key: &str) -> Option<String> {
    json_cell_scalar(m.get(key))
}

/// A `projectedValue`/`defaultValue` pair's value (the projected one first), or the member.
fn projected(m: &Value, key: &str) -> Option<String> {
    let x = m.get(key)?;
    if x.get("projectedValue").is_some() || x.get("defaultValue").is_some() {
        json_cell_scalar(x.get("projectedValue").filter(|p| !p.is_null()))
            .or_else(|| json_cell_scalar(x.get("defaultValue")))
    } else {
        json_cell_scalar(Some(x))
    }
}

/// Core Data seconds, when the value is a number.
fn apple(v: Option<&str>) -> Option<TimeEncoding> {
    v?.parse::<f64>().ok().map(|_| TimeEncoding::AppleSeconds)
}

fn post(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    uid: &str,
    m: &Value,
) -> Result<(), RuntimeError> {
    let author = v(m, "fromUserID");
    let text = v(m, "originalText");
    let views = m
        .get("viewCountInfo")
        .and_then(|c| json_cell_scalar(c.get("count")));
    let quoted = m
        .get("quotedStatusPermalinkEntity")
        .and_then(|q| json_cell_scalar(q.get("expandedURL")));
    let mut d = Draft::new(
        "web",
        format!(
            "X post {uid} by {}",
            author.as_deref().unwrap_or("an unknown author")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, Some(uid), inv);
    d.fact(FactType::Text, text.as_deref(), inv);
    d.fact(FactType::Account, author.as_deref(), inv);
    let mut said = Vec::new();
    for (key, what) in [
        ("language", "language"),
        ("replyCount", "replies"),
        ("retweetCount", "retweets"),
        ("quoteCount", "quotes"),
        ("bookmarkCount", "bookmarks"),
        ("conversationID", "conversation"),
        ("isPossiblySensitive", "possibly sensitive"),
    ] {
        if let Some(x) = v(m, key) {
            d.fact(FactType::Text, Some(&x), inv);
            said.push(format!("{what} {x}"));
        }
    }
    if let Some(x) = &views {
        d.fact(FactType::Count, Some(x), inv);
        said.push(format!("views {x}"));
    }
    if let Some(x) = &quoted {
        d.fact(FactType::Url, Some(x), inv);
        said.push(format!("quoting {x}"));
    }
    for (key, desc) in [
        ("date", "Post created"),
        ("updatedTimestamp", "Post cached"),
    ] {
        let t = v(m, key);
        d.time(t.as_deref(), apple(t.as_deref()), desc, inv);
    }
    d.interpretation = format!(
        "{} cached post {uid} (TwitterStatus) of {}: written by the user {}; {}. Times are Core Data seconds since 2001.",
        file_name(path),
        path,
        author.as_deref().unwrap_or("?"),
        said.join("; ")
    );
    run.record(d)?;
    if let (Some(a), Some(q)) = (author, v(m, "fromUserID.qualified")) {
        run.observe(
            &format!("twitter:{a}"),
            EntityKind::Person,
            &format!("X user {a}"),
            IdType::AccountId,
            &q,
            inv,
            format!(
                "The author (fromUserID) of the X post {uid} cached in {}.",
                file_name(path)
            ),
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn user(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    uid: &str,
    qualified: &str,
    m: &Value,
) -> Result<(), RuntimeError> {
    let name = v(m, "username");
    let image = m
        .get("profileImageMediaEntity")
        .and_then(|p| json_cell_scalar(p.get("mediaURL")));
    let mut d = Draft::new(
        "contacts",
        format!("X cached user {}", name.as_deref().unwrap_or(uid)),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, Some(uid), inv);
    d.fact(FactType::Account, name.as_deref(), inv);
    let mut said = Vec::new();
    for (key, what) in [
        ("bio", "bio"),
        ("followersCount", "followers"),
        ("followingCount", "following"),
        ("favoritesCount", "favourites"),
    ] {
        if let Some(x) = projected(m, key) {
            d.fact(FactType::Text, Some(&x), inv);
            said.push(format!("{what} {x}"));
        }
    }
    for (key, what) in [
        ("isBlueVerified", "blue verified"),
        ("protectedUser", "protected"),
    ] {
        if let Some(x) = v(m, key) {
            d.fact(FactType::Text, Some(&x), inv);
            said.push(format!("{what} {x}"));
        }
    }
    d.fact(FactType::Url, image.as_deref(), inv);
    let t = v(m, "updatedTimestamp");
    d.time(t.as_deref(), apple(t.as_deref()), "User cached", inv);
    d.interpretation = format!(
        "{} cached user {uid} (TwitterMasterUser) of {}: user name {}; {}. Times are Core Data seconds since 2001.",
        file_name(path),
        path,
        name.as_deref().unwrap_or("?"),
        said.join("; ")
    );
    run.record(d)?;
    let label = name.clone().unwrap_or_else(|| format!("X user {uid}"));
    let why = |what: &str| format!("{what} of a user cached by X ({}).", file_name(path));
    run.observe_person(
        &format!("twitter:{uid}"),
        &label,
        inv,
        &why,
        &[
            (
                IdType::AccountId,
                Some(qualified).filter(|q| !q.is_empty()),
                "The user id (from the cache key, qualified in the query)",
            ),
            (IdType::Nickname, name.as_deref(), "The user name"),
        ],
    )?;
    Ok(())
}

fn notification(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    uid: &str,
    m: &Value,
) -> Result<(), RuntimeError> {
    let text = m
        .get("richText")
        .and_then(|r| json_cell_scalar(r.get("text")));
    let icon = m
        .get("icon")
        .and_then(|i| json_cell_scalar(i.get("iconID")));
    let id = v(m, "notificationID").unwrap_or_else(|| uid.to_string());
    let from: Vec<String> = m
        .get("fromUsers")
        .and_then(Value::as_array)
        .map(|users| {
            users
                .iter()
                .filter_map(|u| {
                    json_cell_scalar(u.get("username")).or(json_cell_scalar(u.get("userID")))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut d = Draft::new("web", format!("X notification {id}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, Some(&id), inv);
    d.fact(FactType::Text, text.as_deref(), inv);
    d.fact(FactType::Text, icon.as_deref(), inv);
    for f in &from {
        d.fact(FactType::Account, Some(f), inv);
    }
    let t = v(m, "timestampMilliseconds");
    d.time(
        t.as_deref(),
        crate::drafts::unix_millis(t.as_deref()),
        "Notification",
        inv,
    );
    d.interpretation = format!(
        "{} cached notification {id} (URTNotification) of {}: {}{}{}; the time is Unix milliseconds.",
        file_name(path),
        path,
        text.as_deref().unwrap_or("(no text)"),
        icon.as_deref()
            .map(|i| format!("; icon {i}"))
            .unwrap_or_default(),
        if from.is_empty() {
            String::new()
        } else {
            format!("; from {}", from.join(", "))
        },
    );
    run.record(d)
}
