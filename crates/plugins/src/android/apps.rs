//! App databases: Twitter, AirGuard (tracker detection, with locations), Files by Google, the
//! WebView's form data and cookies (`webview.db`), Device Health's battery history
//! (`turbo.db`); Telegram is read by [`super::telegram`].
//!
//! - **Twitter** (`com.twitter.android/databases/<user id>-66.db`, `twitter.db`): the searches
//!   (`search_queries`), every status (`statuses` with its author's user name: content, time,
//!   favourited, retweeted) and every user the app knows (`users`: user id, user name, name,
//!   description, URL, location, followers, friends, statuses, image, profile created, updated,
//!   followed since) — the fields of plaso's `twitter_android` —, and the direct messages
//!   plaso and ALEAPP leave out: each `conversation_entries` row (conversation, sender with
//!   user name and name, time, entry id and type, the conversation's participants, and the
//!   text and links of its `data`, a Twitter Serial object decoded by `sqlite_query`'s
//!   `twitter_serial`: the text is its first string) and each conversation (participants,
//!   title, type, muted, last activity). A message is sent when its sender is a signed-in
//!   account; wallet claims by direction, the other party of a two-member conversation named. Identities: each user as
//!   `twitter:<user id>` (the id is namespaced by the query, `'twitter:' || user_id`, so a
//!   numeric id of another service never meets it) with user name and name; the accounts the
//!   app is signed in to (`owner_id` of `status_groups`/`user_groups`) are the owner's.
//! - **AirGuard** (`de.seemoo.at_tracking_detection`, `attd_db`): every tracker sighting
//!   (`beacon` joined to its `device`): address, name, type, first discovery, last seen, time
//!   received, signal strength and the position recorded — the fields of plaso's
//!   `android_airtag` and ALEAPP's `airGuard`. The app stores device-local times without a zone
//!   (`local_text`), and its `latitude` column has held longitudes in real data (values
//!   outside ±90 are said so, not swapped).
//! - **Files by Google** (`files_master_database`): every file the app indexed — name, path,
//!   size, MIME type, media type, URI, hidden flag, title/artist/album, last modified — the
//!   fields of plaso's `files_by_google`; and what the user searched for in the app
//!   (`search_history_database`, ALEAPP's `fbg_searchhistory`: the term, when).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};

use super::Located;
use super::databases::tables_with as tables;
use crate::calls::{Paged, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe, pages_on, pages_on_with};
use crate::outputs::{Table, raw};

/// Wallet addresses in a one-to-one message's `text`, claims by its direction
/// (`identity::message_claims`): `sent` by the device's user to `other` (an entity context),
/// or received from it; `mark` names the column value that says which (`out 1`, `direction 2`).
#[allow(clippy::too_many_arguments)]
pub(super) fn claims_by_direction(
    ctx: &AgentCtx<'_>,
    inv: &masf_tools::Invoked,
    text: &str,
    what: &str,
    sent: bool,
    other: Option<&str>,
    mark: &str,
) -> Result<(), RuntimeError> {
    let role = format!(
        "{}, {} ({mark})",
        other.unwrap_or("?"),
        if sent {
            "to whom it was sent"
        } else {
            "who sent it"
        },
    );
    let party = other.map(|context| crate::identity::Party {
        context,
        label: context,
        role: &role,
    });
    let owner_role = format!(
        "the device's user, who {} it ({mark})",
        if sent { "sent" } else { "received" }
    );
    crate::identity::message_claims(ctx, inv, text, what, sent, &owner_role, party)?;
    Ok(())
}

/// A service account the app knows, observed on the person entity `context`: its namespaced
/// id (strong), user name and display name (weak), each cited to `inv`.
#[allow(clippy::too_many_arguments)]
fn observe_account(
    ctx: &AgentCtx<'_>,
    inv: &masf_tools::Invoked,
    context: &str,
    label: &str,
    account: &str,
    username: Option<&str>,
    display: Option<&str>,
    why: &dyn Fn(&str) -> String,
) -> Result<(), RuntimeError> {
    for (id_type, value, what) in [
        (IdType::AccountId, Some(account), "The namespaced user id"),
        (IdType::Nickname, username, "The user name"),
        (IdType::DisplayName, display, "The display name"),
    ] {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            observe(
                ctx,
                context,
                EntityKind::Person,
                label,
                id_type,
                v,
                inv,
                why(what),
            )?;
        }
    }
    Ok(())
}

/// A Twitter database.
pub fn twitter(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables(ctx, l, &["statuses", "users"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let q = |sql: &str| pages_on(ctx, &l.tree, &l.path, sql);
    if tables.iter().any(|t| t == "search_queries")
        && let Some(pages) = q("SELECT _id, name, query, time FROM search_queries ORDER BY _id")?
    {
        for (inv, t, row) in pages.rows() {
            let mut d = Draft::new(
                "web",
                format!("Twitter search {}", t.get(row, "query").unwrap_or("?")),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Text, raw(t, row, "name").as_deref(), inv);
            d.fact(FactType::Text, raw(t, row, "query").as_deref(), inv);
            let time = t.get(row, "time");
            d.time(time, unix_millis(time), "Search saved", inv);
            d.interpretation = format!(
                "search_queries _id {} of {name}: the user searched Twitter for {:?}; time is Java milliseconds (unix_millis).",
                t.get(row, "_id").unwrap_or("?"),
                t.get(row, "query").unwrap_or("?")
            );
            record_draft(ctx, d)?;
        }
    }
    // The signed-in accounts.
    let mut owners = Vec::new();
    for table in ["status_groups", "user_groups"] {
        if tables.iter().any(|t| t == table)
            && let Some(pages) = q(&format!(
                "SELECT DISTINCT 'twitter:' || owner_id AS account FROM {table} WHERE owner_id IS NOT NULL"
            ))?
        {
            for (inv, t, row) in pages.rows() {
                if let Some(a) = t.get(row, "account")
                    && !owners.iter().any(|(o, _): &(String, _)| o == a)
                {
                    owners.push((a.to_string(), inv.clone()));
                }
            }
        }
    }
    for (account, inv) in &owners {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AccountId,
            account,
            inv,
            format!(
                "The Twitter app on the device is signed in to the account {account} (owner_id of its timelines in {name})."
            ),
        )?;
    }
    let users_sql = "SELECT _id, 'twitter:' || user_id AS account, user_id, username, name, description, web_url, \
location, followers, friends, statuses, image_url, profile_created, updated, friendship_time FROM users ORDER BY _id";
    if let Some(pages) = q(users_sql)? {
        for (inv, t, row) in pages.rows() {
            let account = t.get(row, "account").unwrap_or_default().to_string();
            let username = t.get(row, "username");
            let name_cell = raw(t, row, "name");
            let mut d = Draft::new(
                "contacts",
                format!("Twitter user @{}", username.unwrap_or("?")),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Account, Some(&account), inv);
            d.fact(FactType::Account, raw(t, row, "username").as_deref(), inv);
            d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
            d.fact(FactType::Text, raw(t, row, "description").as_deref(), inv);
            d.fact(FactType::Url, raw(t, row, "web_url").as_deref(), inv);
            d.fact(FactType::Text, raw(t, row, "location").as_deref(), inv);
            for c in ["followers", "friends", "statuses"] {
                d.fact(FactType::Count, raw(t, row, c).as_deref(), inv);
            }
            d.fact(FactType::Url, raw(t, row, "image_url").as_deref(), inv);
            // -1 and 0 are "not set"
            let created = t.get(row, "profile_created");
            d.time(
                created,
                unix_millis(created),
                "Twitter profile created",
                inv,
            );
            let updated = t.get(row, "updated");
            d.time(
                updated,
                unix_millis(updated),
                "Profile last updated in the app",
                inv,
            );
            let since = t.get(row, "friendship_time");
            d.time(since, unix_millis(since), "Followed or befriended", inv);
            let own = owners.iter().any(|(o, _)| *o == account);
            d.interpretation = format!(
                "users _id {} of {name}: the Twitter user {account} (@{}, {}) with {} followers, {} friends, {} statuses{}.",
                t.get(row, "_id").unwrap_or("?"),
                username.unwrap_or("?"),
                t.get(row, "name").unwrap_or("no name"),
                t.get(row, "followers").unwrap_or("?"),
                t.get(row, "friends").unwrap_or("?"),
                t.get(row, "statuses").unwrap_or("?"),
                if own {
                    "; an account the app is signed in to"
                } else {
                    ""
                },
            );
            record_draft(ctx, d)?;
            let context = if own {
                "owner".to_string()
            } else {
                account.clone()
            };
            let label = t
                .get(row, "name")
                .or(username)
                .unwrap_or(&account)
                .to_string();
            let why = |what: &str| format!("{what} of the Twitter user {account} ({name}).");
            observe_account(
                ctx,
                inv,
                &context,
                &label,
                &account,
                username,
                name_cell.as_deref(),
                &why,
            )?;
        }
    }
    if tables.iter().any(|t| t == "conversation_entries") {
        twitter_messages(ctx, l, &tables, &owners)?;
    }
    let statuses_sql = "SELECT s._id, s.author_id, u.username, s.content, s.created, s.favorited, s.retweeted \
FROM statuses s LEFT JOIN users u ON s.author_id = u.user_id ORDER BY s._id";
    if let Some(pages) = q(statuses_sql)? {
        for (inv, t, row) in pages.rows() {
            let author = t.get(row, "username").or(t.get(row, "author_id"));
            let mut d = Draft::new(
                "messages",
                format!(
                    "Tweet {} by @{}",
                    t.get(row, "_id").unwrap_or("?"),
                    author.unwrap_or("?")
                ),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(
                FactType::Identifier,
                raw(t, row, "author_id").as_deref(),
                inv,
            );
            d.fact(FactType::Account, raw(t, row, "username").as_deref(), inv);
            d.fact(FactType::Text, raw(t, row, "content").as_deref(), inv);
            let created = t.get(row, "created");
            d.time(created, unix_millis(created), "Tweet posted", inv);
            d.interpretation = format!(
                "statuses _id {} of {name}: a tweet by user {} (@{}); favourited by the user: {}, retweeted by the user: {}; created is Java milliseconds (unix_millis).",
                t.get(row, "_id").unwrap_or("?"),
                t.get(row, "author_id").unwrap_or("?"),
                t.get(row, "username").unwrap_or("?"),
                if t.get(row, "favorited") == Some("1") {
                    "yes"
                } else {
                    "no"
                },
                if t.get(row, "retweeted") == Some("1") {
                    "yes"
                } else {
                    "no"
                },
            );
            record_draft(ctx, d)?;
        }
        note_cap(ctx, l, &pages, "statuses")?;
    }
    Ok(())
}

/// Every string of a decoded Serial value (`tserial:` JSON) in the order written.
fn serial_strings<'v>(v: &'v serde_json::Value, out: &mut Vec<&'v str>) {
    match v {
        serde_json::Value::String(s) if !s.is_empty() => out.push(s),
        serde_json::Value::Array(a) => a.iter().for_each(|x| serial_strings(x, out)),
        serde_json::Value::Object(o) => {
            if let Some(values) = o.get("@values") {
                serial_strings(values, out);
            }
        }
        _ => {}
    }
}

/// Twitter's direct messages (`conversation_entries`, each entry's `data` a Serial object
/// decoded by `sqlite_query`'s `twitter_serial`) and conversations (`conversations` with
/// `conversation_participants`).
fn twitter_messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &[String],
    owners: &[(String, masf_tools::Invoked)],
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = crate::identity::required_columns(
        ctx,
        &l.tree,
        &l.path,
        "Twitter's direct messages",
        "conversation_entries",
        &["conversation_id", "user_id", "created", "data"],
    )?
    else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let participants = if has("conversation_participants") {
        "(SELECT group_concat(p.user_id, ' ') FROM conversation_participants p WHERE p.conversation_id = e.conversation_id)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT e.rowid AS rid, {}, {}, e.conversation_id AS conversation_id, e.user_id AS user_id, 'twitter:' || e.user_id AS sender, u.username AS username, u.name AS sender_name, e.created AS created, e.data AS data, {participants} AS participants FROM conversation_entries e LEFT JOIN users u ON u.user_id = e.user_id ORDER BY e.rowid",
        crate::calls::column_or_null(&cols, "e.", "entry_id", "entry_id"),
        crate::calls::column_or_null(&cols, "e.", "entry_type", "entry_type"),
    );
    let own: Vec<&str> = owners
        .iter()
        .filter_map(|(o, _)| o.strip_prefix("twitter:"))
        .collect();
    if let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["twitter_serial"])? {
        note_cap(ctx, l, &pages, "direct message entries")?;
        for (inv, t, row) in pages.rows() {
            let sender = t.get(row, "user_id").unwrap_or("?");
            let sent = own.contains(&sender);
            let who = t.get(row, "username").unwrap_or(sender);
            let mut d = Draft::new(
                "messages",
                if sent {
                    "Twitter direct message sent".to_string()
                } else {
                    format!("Twitter direct message from @{who}")
                },
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            let mut said = Vec::new();
            for (col, ft, what) in [
                ("conversation_id", FactType::Identifier, "conversation"),
                ("user_id", FactType::Identifier, "sender id"),
                ("sender", FactType::Account, "sender"),
                ("username", FactType::Account, "sender user name"),
                ("sender_name", FactType::Name, "sender name"),
                ("entry_id", FactType::Identifier, "entry id"),
                ("entry_type", FactType::Text, "entry type"),
                ("participants", FactType::Text, "participants"),
            ] {
                if let Some(v) = raw(t, row, col).filter(|v| !v.is_empty()) {
                    d.fact(ft, Some(&v), inv);
                    said.push(format!("{what} {v}"));
                }
            }
            // the entry's object: its first string is the text, its web addresses the links
            let decoded = t
                .get(row, "data")
                .and_then(|c| c.strip_prefix("tserial:"))
                .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok());
            let mut strings = Vec::new();
            if let Some(v) = &decoded {
                serial_strings(v, &mut strings);
            }
            let text = strings.first().copied();
            if let Some(text) = text {
                let cited = crate::outputs::in_json_cell(text);
                d.fact(FactType::Text, Some(&cited), inv);
                said.push(format!("text {cited}"));
            }
            let mut links: Vec<&str> = strings
                .iter()
                .skip(1)
                .copied()
                .filter(|s| s.starts_with("http://") || s.starts_with("https://"))
                .collect();
            links.dedup();
            for u in links {
                let cited = crate::outputs::in_json_cell(u);
                d.fact(FactType::Url, Some(&cited), inv);
                said.push(format!("link {cited}"));
            }
            let at = t.get(row, "created");
            if own.is_empty() {
                d.time(at, unix_millis(at), "Twitter direct message", inv);
            } else {
                d.message_time(at, unix_millis(at), sent, inv);
            }
            d.interpretation = format!(
                "conversation_entries row {} of {name}: a Twitter direct message{}{}: {}; the time is Unix milliseconds.",
                t.get(row, "rid").unwrap_or("?"),
                match (own.is_empty(), sent) {
                    (true, _) => "",
                    (false, true) =>
                        " sent by the device's user (its sender is a signed-in account)",
                    (false, false) => " received by the device's user",
                },
                if decoded.is_some() {
                    " (its data a Serial object: the text is its first string)"
                } else {
                    " (its data not a Serial object: no text read)"
                },
                said.join(", ")
            );
            record_draft(ctx, d)?;
            // the other party of a one-to-one conversation
            let others: Vec<&str> = t
                .get(row, "participants")
                .unwrap_or("")
                .split(' ')
                .filter(|p| !p.is_empty() && !own.contains(p))
                .collect();
            let other = match others.as_slice() {
                [one] => Some(format!("twitter:{one}")),
                _ => None,
            };
            if let Some(text) = text
                && !own.is_empty()
            {
                claims_by_direction(
                    ctx,
                    inv,
                    text,
                    &format!(
                        "Twitter direct message (conversation_entries row {} of {name})",
                        t.get(row, "rid").unwrap_or("?")
                    ),
                    sent,
                    other.as_deref(),
                    if sent {
                        "sender is the signed-in account"
                    } else {
                        "sender is another user"
                    },
                )?;
            }
        }
    }
    if has("conversations") {
        let sql = format!(
            "SELECT c.rowid AS rid, c.conversation_id AS conversation_id, c.title AS title, c.type AS type, c.sort_timestamp AS updated, c.is_muted AS muted, {participants} AS participants, {names} AS names FROM conversations c ORDER BY c.rowid",
            participants = if has("conversation_participants") {
                "(SELECT group_concat(p.user_id, ' ') FROM conversation_participants p WHERE p.conversation_id = c.conversation_id)"
            } else {
                "NULL"
            },
            names = if has("conversation_participants") {
                "(SELECT group_concat('@' || u.username, ' ') FROM conversation_participants p JOIN users u ON u.user_id = p.user_id WHERE p.conversation_id = c.conversation_id)"
            } else {
                "NULL"
            },
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_cap(ctx, l, &pages, "conversations")?;
            for (inv, t, row) in pages.rows() {
                let mut d = Draft::new(
                    "contacts",
                    format!(
                        "Twitter conversation {}",
                        t.get(row, "title")
                            .or(t.get(row, "conversation_id"))
                            .unwrap_or("?")
                    ),
                );
                d.fact(FactType::Path, Some(&l.path), &l.found);
                let mut said = Vec::new();
                for (col, ft, what) in [
                    ("conversation_id", FactType::Identifier, "conversation"),
                    ("title", FactType::Text, "title"),
                    ("type", FactType::Text, "type"),
                    ("muted", FactType::Count, "muted"),
                    ("participants", FactType::Text, "participants"),
                    ("names", FactType::Text, "participant names"),
                ] {
                    if let Some(v) = raw(t, row, col).filter(|v| !v.is_empty()) {
                        d.fact(ft, Some(&v), inv);
                        said.push(format!("{what} {v}"));
                    }
                }
                let at = t.get(row, "updated");
                d.time(
                    at,
                    unix_millis(at),
                    "Twitter conversation's last activity",
                    inv,
                );
                d.interpretation = format!(
                    "conversations row {} of {name}: a Twitter direct-message conversation: {}.",
                    t.get(row, "rid").unwrap_or("?"),
                    said.join(", ")
                );
                record_draft(ctx, d)?;
            }
        }
    }
    Ok(())
}

/// Notes the rows past [`crate::calls::ROW_CAP`] of a paged read as not read.
fn note_cap(ctx: &AgentCtx<'_>, l: &Located, p: &Paged, what: &str) -> Result<(), RuntimeError> {
    note_pages_cap(ctx, &artefact_name(&l.tree, &l.path), p, what)
}

/// AirGuard's tracker sightings.
pub fn airguard(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables(ctx, l, &["beacon", "device"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let sql = "SELECT b.beaconId, b.deviceAddress, d.name, d.deviceType, d.firstDiscovery, d.lastSeen, \
b.receivedAt, b.rssi, b.latitude, b.longitude FROM beacon b LEFT JOIN device d ON d.address = b.deviceAddress \
ORDER BY b.beaconId";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    let local = |v: Option<&str>| v.filter(|v| v.len() >= 19).map(|_| TimeEncoding::LocalText);
    for (inv, t, row) in pages.rows() {
        let address = t.get(row, "deviceAddress").unwrap_or("?");
        let kind = t.get(row, "deviceType").unwrap_or("tracker");
        let mut d = Draft::new("locations", format!("Tracker {kind} {address} seen"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "deviceAddress").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "deviceType").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "rssi").as_deref(), inv);
        let (lat, lon) = (t.get(row, "latitude"), t.get(row, "longitude"));
        d.fact(FactType::Text, lat, inv);
        d.fact(FactType::Text, lon, inv);
        for (c, what) in [
            ("receivedAt", "Tracker signal received"),
            ("firstDiscovery", "Tracker first discovered"),
            ("lastSeen", "Tracker last seen"),
        ] {
            let v = t.get(row, c);
            d.time(v, local(v), what, inv);
        }
        let swapped = lat
            .and_then(|v| v.parse::<f64>().ok())
            .is_some_and(|v| v.abs() > 90.0);
        d.interpretation = format!(
            "beacon {} of {name}: the phone's AirGuard app received the signal of the {kind} tracker {address}{} at strength {} dBm{}; times are device-local without a zone (local_text).",
            t.get(row, "beaconId").unwrap_or("?"),
            t.get(row, "name")
                .map(|n| format!(" ({n})"))
                .unwrap_or_default(),
            t.get(row, "rssi").unwrap_or("?"),
            match (lat, lon) {
                (Some(a), Some(o)) if swapped => format!(
                    ", where the phone was at latitude column {a}, longitude column {o} — the latitude column holds a value outside ±90, so the app stored the coordinates swapped (latitude {o}, longitude {a})"
                ),
                (Some(a), Some(o)) => format!(", where the phone was at {a}, {o}"),
                _ => ", with no position recorded".to_string(),
            },
        );
        record_draft(ctx, d)?;
    }
    note_cap(ctx, l, &pages, "sightings")
}

/// Files by Google's index of the files on the device.
pub fn files_by_google(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables(ctx, l, &["files_master_table"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let sql = "SELECT id, root_path, root_relative_file_path, file_name, size, file_date_modified_ms, mime_type, \
media_type, uri, is_hidden, title, artist, album, parent_folder_name FROM files_master_table ORDER BY id";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let file = t.get(row, "file_name").unwrap_or("?");
        let mut d = Draft::new("files", format!("Files by Google: {file}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, raw(t, row, "file_name").as_deref(), inv);
        d.fact(FactType::Path, raw(t, row, "root_path").as_deref(), inv);
        d.fact(
            FactType::Path,
            raw(t, row, "root_relative_file_path").as_deref(),
            inv,
        );
        d.fact(FactType::Count, raw(t, row, "size").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "mime_type").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "uri").as_deref(), inv);
        for c in ["title", "artist", "album"] {
            d.fact(FactType::Text, raw(t, row, c).as_deref(), inv);
        }
        let modified = t.get(row, "file_date_modified_ms");
        d.time(modified, unix_millis(modified), "File last modified", inv);
        d.interpretation = format!(
            "files_master_table id {} of {name}: the file {file} ({} bytes, {}, media type {}) in {}{}; file_date_modified_ms is Unix milliseconds (unix_millis).",
            t.get(row, "id").unwrap_or("?"),
            t.get(row, "size").unwrap_or("?"),
            t.get(row, "mime_type").unwrap_or("no MIME type"),
            t.get(row, "media_type").unwrap_or("?"),
            t.get(row, "parent_folder_name").unwrap_or("?"),
            if t.get(row, "is_hidden") == Some("1") {
                ", hidden"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
    }
    note_cap(ctx, l, &pages, "files")
}

/// Whether `l` is Files by Google's search history (`search_history_database`).
pub fn is_files_by_google_searches(l: &Located) -> bool {
    l.name() == "search_history_database" && l.path.contains("/com.google.android.apps.nbu.files/")
}

/// Files by Google's search history (`search_history_content`, ALEAPP's `fbg_searchhistory`):
/// one phenomenon per search with the term and when (Unix ms).
pub fn files_by_google_searches(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Files by Google's search_history_database",
            table: "search_history_content",
            required: &["searched_term"],
            optional: &["timestamp"],
            rows: "Files by Google searches",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let Some(term) = raw(t, row, "searched_term") else {
            continue;
        };
        let mut d = Draft::new("files", format!("Searched in Files by Google: {term}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(&term), inv);
        let when = t.get(row, "timestamp");
        d.time(when, unix_millis(when), "Searched for files", inv);
        d.interpretation = format!(
            "search_history_content row {} of {name}: the user searched the phone's files for {term:?} in Files by Google; timestamp is Unix milliseconds.",
            t.get(row, "rowid").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The old Android WebView's `webview.db`: form data the user typed (`formdata` with the page
/// of `formurl`) and the cookies' metadata (`cookies`: name, domain, path, expiry, secure —
/// never the value: a cookie's value is a session credential, as plaso's `android_webview`
/// leaves it to the examiner to open deliberately).
pub fn webview_db(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables(ctx, l, &[])? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(&l.tree, &l.path);
    let q = |sql: &str| pages_on(ctx, &l.tree, &l.path, sql);
    if has("formdata") {
        let url = if has("formurl") {
            "(SELECT u.url FROM formurl u WHERE u._id = f.urlid)"
        } else {
            "NULL"
        };
        if let Some(pages) = q(&format!(
            "SELECT f._id, f.name, f.value, {url} AS url FROM formdata f ORDER BY f._id"
        ))? {
            for (inv, t, row) in pages.rows() {
                let field = t.get(row, "name").unwrap_or("?");
                let mut d = Draft::new("web", format!("Form data typed: {field}"));
                d.fact(FactType::Path, Some(&l.path), &l.found);
                d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
                let value = raw(t, row, "value");
                let ty = if value.as_deref().is_some_and(|v| v.contains('@')) {
                    FactType::Email
                } else {
                    FactType::Text
                };
                d.fact(ty, value.as_deref(), inv);
                d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
                d.interpretation = format!(
                    "formdata _id {} of {name}: a value typed into the form field {field}{} and kept by the WebView for autofill.",
                    t.get(row, "_id").unwrap_or("?"),
                    t.get(row, "url")
                        .map(|u| format!(" of {u}"))
                        .unwrap_or_default(),
                );
                record_draft(ctx, d)?;
            }
        }
    }
    if has("cookies")
        && let Some(pages) =
            q("SELECT _id, name, domain, path, expires, secure FROM cookies ORDER BY _id")?
    {
        for (inv, t, row) in pages.rows() {
            let domain = t.get(row, "domain").unwrap_or("?");
            let mut d = Draft::new(
                "web",
                format!("Cookie {} of {domain}", t.get(row, "name").unwrap_or("?")),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
            d.fact(FactType::Url, raw(t, row, "domain").as_deref(), inv);
            d.fact(FactType::Path, raw(t, row, "path").as_deref(), inv);
            let expires = t.get(row, "expires");
            d.time(expires, unix_millis(expires), "Cookie expires", inv);
            d.interpretation = format!(
                "cookies _id {} of {name}: the WebView kept a cookie of {domain}{} (its value, a session credential, is not read).",
                t.get(row, "_id").unwrap_or("?"),
                if t.get(row, "secure") == Some("1") {
                    ", sent over HTTPS only"
                } else {
                    ""
                },
            );
            record_draft(ctx, d)?;
        }
    }
    Ok(())
}

/// Device Health Services' `turbo.db`: battery level over time (`battery_event`: level,
/// charging, battery saver, the device's time zone at that moment), as plaso's
/// `android_turbo`. Up to [`crate::calls::ROW_CAP`] events, read in pages.
pub fn turbo(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables(ctx, l, &["battery_event"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let sql = "SELECT timestamp_millis, battery_level, charge_type, battery_saver, timezone FROM battery_event ORDER BY timestamp_millis";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let level = t.get(row, "battery_level").unwrap_or("?");
        let mut d = Draft::new("device", format!("Battery at {level}%"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Count, t.get(row, "battery_level"), inv);
        d.fact(FactType::Text, raw(t, row, "timezone").as_deref(), inv);
        let time = t.get(row, "timestamp_millis");
        d.time(time, unix_millis(time), "Battery level recorded", inv);
        d.interpretation = format!(
            "battery_event of {name}: the battery was at {level}% ({}; battery saver {}); the device's time zone was {}; timestamp_millis is Unix milliseconds (unix_millis).",
            match t.get(row, "charge_type") {
                Some("0") => "not charging",
                Some(_) => "charging",
                None => "charging unknown",
            },
            t.get(row, "battery_saver").unwrap_or("?"),
            t.get(row, "timezone").unwrap_or("not recorded"),
        );
        record_draft(ctx, d)?;
    }
    note_pages_cap(ctx, &name, &pages, "battery events")
}

/// The text of a string field of a `protobuf:` cell's JSON, with its cited form.
fn proto_text(message: &serde_json::Value, field: &str) -> Option<(String, String)> {
    crate::outputs::proto_text(message, &[field])
}

/// Tango's `tango_profile.db`: the people the app knows (`profiletable`: user id, first and last
/// name — stored base64, decoded by `sqlite_query`'s `base64` option —, birthday, gender, city,
/// country, friend, blocked, last active), as `tango:<user id>` persons.
pub fn tango_profiles(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables(ctx, l, &["profiletable"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let sql = "SELECT itemUserId AS id, 'tango:' || itemUserId AS account, itemFirstName AS first, \
itemLastName AS last, itemBirthday AS birthday, itemGender AS gender, itemCity AS city, \
itemGeoCountryCode AS country, itemIsFriend AS friend, itemIsBlocked AS blocked, \
itemLastActiveTime AS active FROM profiletable ORDER BY itemUserId";
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, sql, &["base64"])? else {
        return Ok(());
    };
    let plain = |t: &Table, c: &str, row: &[Option<String>]| -> Option<String> {
        let v = t.get(row, c)?;
        Some(v.strip_prefix("b64:").unwrap_or(v).trim().to_string()).filter(|v| !v.is_empty())
    };
    for (inv, t, row) in pages.rows() {
        let Some(account) = t.get(row, "account") else {
            continue;
        };
        let full = [plain(t, "first", row), plain(t, "last", row)]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let mut d = Draft::new(
            "contacts",
            format!(
                "Tango user {}",
                if full.is_empty() { account } else { &full }
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, Some(account), inv);
        for c in ["first", "last"] {
            d.fact(FactType::Name, plain(t, c, row).as_deref(), inv);
        }
        for c in ["birthday", "gender", "city", "country"] {
            d.fact(FactType::Text, plain(t, c, row).as_deref(), inv);
        }
        let active = t.get(row, "active");
        d.time(active, unix_millis(active), "Last active on Tango", inv);
        d.interpretation = format!(
            "profiletable of {name}: the Tango user {account}{}{}{} (names stored base64, decoded).",
            if full.is_empty() {
                String::new()
            } else {
                format!(", named {full}")
            },
            if t.get(row, "friend") == Some("1") {
                ", a friend of the user"
            } else {
                ""
            },
            if t.get(row, "blocked") == Some("1") {
                ", blocked"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        let label = if full.is_empty() { account } else { &full };
        observe(
            ctx,
            account,
            EntityKind::Person,
            label,
            IdType::AccountId,
            account,
            inv,
            format!("The namespaced user id of the Tango user {label} ({name})."),
        )?;
    }
    note_cap(ctx, l, &pages, "profiles")
}

/// Tango's `tango_android_tc.db`: every message (`messages`: conversation — the other party's
/// user id in a one-to-one chat —, type, direction (1 sent, 2 received), status, create and send
/// times, and the text, media URLs, sender and system text of its base64 Protocol Buffers
/// `payload`, decoded by `sqlite_query`'s `base64` and `protobuf` options). Wallet addresses in a
/// text are claims by its direction.
pub fn tango_messages(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables(ctx, l, &["messages"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let sql = "SELECT msg_id, conv_id, 'tango:' || conv_id AS peer, type, direction, status, \
create_time, send_time, payload FROM messages ORDER BY msg_id";
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, sql, &["base64", "protobuf"])? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "msg_id").unwrap_or("?");
        let sent = t.get(row, "direction") == Some("1");
        let peer = t.get(row, "peer");
        let payload: Option<serde_json::Value> = t
            .get(row, "payload")
            .and_then(|p| p.strip_prefix("protobuf:"))
            .and_then(|j| serde_json::from_str(j).ok());
        let text = payload.as_ref().and_then(|p| proto_text(p, "4"));
        let system = payload.as_ref().and_then(|p| proto_text(p, "76"));
        let mut d = Draft::new(
            "messages",
            format!(
                "Tango message {id} {} {}",
                if sent { "sent to" } else { "received from" },
                peer.unwrap_or("a conversation")
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, peer, inv);
        if let Some((_, cited)) = &text {
            d.fact(FactType::Text, Some(cited), inv);
        }
        if let Some((_, cited)) = &system {
            d.fact(FactType::Text, Some(cited), inv);
        }
        for f in ["5", "7", "15"] {
            if let Some((_, cited)) = payload.as_ref().and_then(|p| proto_text(p, f)) {
                d.fact(FactType::Url, Some(&cited), inv);
            }
        }
        for (c, what) in [
            ("create_time", "Message created"),
            (
                "send_time",
                if sent {
                    "Message sent"
                } else {
                    "Message received"
                },
            ),
        ] {
            let v = t.get(row, c);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "messages msg_id {id} of {name}: a message of type {} {} the conversation {} (status {}){}; times are Unix milliseconds (unix_millis).",
            t.get(row, "type").unwrap_or("?"),
            if sent {
                "sent by the device's user in"
            } else {
                "received by the device's user in"
            },
            t.get(row, "conv_id").unwrap_or("?"),
            t.get(row, "status").unwrap_or("?"),
            match (&text, &system) {
                (Some((x, _)), _) if !x.is_empty() => String::new(),
                (_, Some((s, _))) => format!("; the app's notice: {s:?}"),
                _ => "; no text (media or a notice)".to_string(),
            },
        );
        record_draft(ctx, d)?;
        if let Some(p) = peer {
            observe(
                ctx,
                p,
                EntityKind::Person,
                p,
                IdType::AccountId,
                p,
                inv,
                format!(
                    "The Tango user id of the other party of conversation {} ({name}).",
                    t.get(row, "conv_id").unwrap_or("?")
                ),
            )?;
        }
        if let Some((text, _)) = text.filter(|(x, _)| !x.is_empty()) {
            claims_by_direction(
                ctx,
                inv,
                &text,
                &format!("Tango message {id} ({name})"),
                sent,
                peer,
                if sent { "direction 1" } else { "direction 2" },
            )?;
        }
    }
    note_cap(ctx, l, &pages, "messages")
}
