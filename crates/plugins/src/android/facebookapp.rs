//! The Facebook app (`com.facebook.katana`), ALEAPP's `facebookApp` (`facebookAppContacts`,
//! `facebookAppContactSync`, `facebookAppFeedCache`, `facebookAppMentionEntities`,
//! `facebookAppTimeInApp`, `facebookAppPreferences`): the app's own stores beside the messaging
//! mailbox it shares with Messenger (`threads_db2`, [`super::fbthreads`]; `msys_database_<uid>`,
//! [`crate::messenger`]).
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/ssus.<uid>.android_facebook_contacts_db`: `contacts` | one `contacts` per contact ("Facebook contact <name>"; the row whose Facebook id names the store: one `accounts`, "Facebook account <name> (the device's user)") | Facebook id, contact id, display, first and last name, nickname, the phones of the `data` JSON (`phones[].universalNumber`, `displayNumber`; listed in the query), small, big and huge picture URLs, Messenger user, mobile pushable, on the viewer's contact list, link type, type, relationship and connection status, add source, memorialised, birthday day and month, communication rank, phone-book section; added, Messenger installed, last fetched (Unix ms) |
//! | the same store: `contacts_db_properties` | one `apps` per property ("Facebook contacts sync <key>") | key, value as stored; a `…time_ms` key's value also as a time (Unix ms: the last sync, the last full sync) |
//! | the same store: `contacts_upload_snapshot` | one `contacts` for the table ("Facebook contacts upload snapshot (<n> local contacts)") | rows, distinct local contact ids (counted in the query) |
//! | `databases/ssus.<uid>.android_facebook_newsfeed_db`: `home_stories` (with `home_stories_media`) | one `social` per cached story ("Facebook feed story <dedup key>") | dedup key, feed type, seen state, image seen state, sort key, ranking weight, cursor, media rows of the story (counted in the query); fetched (Unix ms) |
//! | `databases/search_bootstrap_db…`: `mentions_entities` | one `contacts` per entity ("Facebook mention suggestion <name>") | Facebook id, name, subtext, type, friendship status, profile picture URI |
//! | `databases/time_in_app_<uid>.db`: `intervals` | one `app_usage` per interval ("Facebook in use for <s> s") | seconds (computed in the query), start and end events, sequence number; start and end (Unix s) |
//! | `databases/prefs_db`: `preferences` | one `apps` per key ("Facebook preference <key>") | key, value, stored type |
//!
//! What the rows are: the contacts store is filled by a server sync, so a contact is one the app
//! held for the account (a Facebook friend or a phone-book match), not one entered on the phone;
//! the upload snapshot keeps hashes of the phone's own contacts, never their names. A feed story
//! row is cache bookkeeping (no author, no text): a story downloaded, not one read — the seen
//! states are the app's own flags, as stored. A mention suggestion is an entity the app fetched
//! so the user could mention it while typing: not a search, a mention or a contact. An interval
//! is the app's record of its own foreground time; the events are stored codes nothing maps.
//! Values and codes are as stored; no mapping is sourced for feed types, seen states, link types
//! or friendship statuses.
//!
//! Never selected: a preference whose key names a secret (token, secret, password, cookie,
//! credential, session, nonce, auth — the whole `/auth/` tree, which holds the session's access
//! token and cookies; the value is withheld and the row says so). Not read: the messaging
//! stores (their own readers), the analytics and image caches, `contacts_indexed_data` (the same
//! names and numbers, re-indexed for search).
//!
//! Schema drift: every column but the key ones is taken by name (absent ones NULL); the `data`
//! JSON is read with SQLite's JSON functions (a cell that is not JSON gives no phone). A store
//! with none of its tables (another layout) is noted, a table without its key column too (`fbid`
//! for contacts and mentions, `key`/`value` for properties and preferences, `dedup_key` for
//! stories, `start_walltime`/`end_walltime` for intervals). The stores' names are generic only in
//! part: each is read only in the Facebook app's `databases/` folder.
//!
//! Identities: a contact is a `facebook:<Facebook id>` person (the Facebook id qualified in the
//! query, its display name, each phone of its `data` JSON); so is a mention suggestion of type
//! `User` (id and name). The store names carry the signed-in user's Facebook id (`ssus.<uid>.…`,
//! `time_in_app_<uid>.db`, `search_bootstrap_db_<uid>`): the contact or suggestion with that id is
//! the device's user (`owner`), as Messenger's reader takes its store's id. Nothing is guessed
//! when the name carries no id.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, Schema};
use crate::calls::{Tables, column_or_null, note_pages_cap, select_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_millis, unix_seconds};
use crate::identity::{artefact_name, pages_on, schema_on};
use crate::messenger::context_of;
use crate::outputs::raw;

/// The Facebook app's folder of stores.
const DATABASES: &str = "/com.facebook.katana/databases/";

/// The kinds of store this module reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Contacts,
    Feed,
    Mentions,
    TimeInApp,
    Prefs,
}

/// The kind of store a file name is (its `-wal`, `-shm`, `-journal` none).
fn kind(name: &str) -> Option<Kind> {
    if ["-wal", "-shm", "-journal"]
        .iter()
        .any(|x| name.ends_with(x))
    {
        return None;
    }
    if name.ends_with("android_facebook_contacts_db") {
        Some(Kind::Contacts)
    } else if name.ends_with("android_facebook_newsfeed_db") {
        Some(Kind::Feed)
    } else if name.starts_with("search_bootstrap_db") {
        Some(Kind::Mentions)
    } else if name.starts_with("time_in_app_") && name.ends_with(".db") {
        Some(Kind::TimeInApp)
    } else if name == "prefs_db" {
        Some(Kind::Prefs)
    } else {
        None
    }
}

/// Whether `name` is named like one of the stores read (wherever it lies).
pub fn is_name(name: &str) -> bool {
    kind(name).is_some()
}

/// The file-name globs the stores are found by (`ARTEFACTS`); they also match the stores'
/// journals, which [`is_store`] leaves out.
pub const GLOBS: &[&str] = &[
    "*android_facebook_contacts_db",
    "*android_facebook_newsfeed_db",
    "search_bootstrap_db*",
    "time_in_app_*.db",
    "prefs_db",
];

/// Whether `name` matches one of [`GLOBS`] (a file the search finds, this app's or another's).
pub fn is_named_like(name: &str) -> bool {
    GLOBS
        .iter()
        .any(|g| masf_tools::fs_tools::glob_match(g, name))
}

/// The category of a store read here, by its name.
pub fn category(name: &str) -> &'static str {
    match kind(name) {
        Some(Kind::Feed) => "social",
        Some(Kind::TimeInApp) => "app_usage",
        Some(Kind::Prefs) => "apps",
        _ => "contacts",
    }
}

/// Whether `path` is one of the Facebook app's stores read here (in its `databases/` folder).
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains(DATABASES) && is_name(name)
}

/// Whether `l` is one of the Facebook app's stores read here.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// The Facebook id a store's name carries (`ssus.<uid>.android_facebook_contacts_db`,
/// `time_in_app_<uid>.db`, `search_bootstrap_db_<uid>`): its first run of 5 to 20 digits between
/// dots or underscores; `None` when there is none.
pub fn store_uid(name: &str) -> Option<&str> {
    name.split(['.', '_'])
        .find(|s| (5..=20).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()))
}

/// A key naming a secret: its value is never selected.
const SECRET_KEY: &str = "(key LIKE '%token%' OR key LIKE '%secret%' OR key LIKE '%password%' OR key LIKE '%cookie%' OR key LIKE '%credential%' OR key LIKE '%session%' OR key LIKE '%nonce%' OR key LIKE '%auth%')";

/// One of the Facebook app's stores.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(kind) = kind(l.name()) else {
        return Ok(());
    };
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let uid = store_uid(l.name());
    match kind {
        Kind::Contacts => {
            let Some(tables) = Tables::of(
                ctx,
                &name,
                "the Facebook app's contacts store",
                &schema,
                &[
                    "contacts",
                    "contacts_db_properties",
                    "contacts_upload_snapshot",
                ],
            )?
            else {
                return Ok(());
            };
            if let Some(cols) = tables.need("contacts", &["fbid"])? {
                contacts(ctx, l, &name, cols, uid)?;
            }
            if tables
                .need("contacts_db_properties", &["key", "value"])?
                .is_some()
            {
                properties(ctx, l)?;
            }
            if let Some(cols) = tables.need("contacts_upload_snapshot", &[])? {
                snapshot(ctx, l, cols)?;
            }
            Ok(())
        }
        Kind::Feed => feed(ctx, l, &name, &schema),
        Kind::Mentions => mentions(ctx, l, &name, &schema, uid),
        Kind::TimeInApp => time_in_app(ctx, l, &name, &schema, uid),
        Kind::Prefs => prefs(ctx, l, &name, &schema),
    }
}

/// A list of the `member` of each `phones` entry of the contact's `data` JSON, as `alias`.
fn phones(cols: &BTreeSet<String>, member: &str, alias: &str) -> String {
    if cols.contains("data") {
        format!(
            "CASE WHEN json_valid(c.data) AND json_type(c.data, '$.phones') = 'array' THEN (SELECT group_concat(json_extract(p.value, '$.{member}'), ', ') FROM json_each(c.data, '$.phones') p) END AS {alias}"
        )
    } else {
        format!("NULL AS {alias}")
    }
}

/// The contacts query (see the module table).
pub(crate) fn contacts_sql(cols: &BTreeSet<String>) -> String {
    let optional = select_columns(
        cols,
        "c.",
        &[
            ("contact_id", "contact_id"),
            ("display_name", "display_name"),
            ("first_name", "first_name"),
            ("last_name", "last_name"),
            ("nickname_for_viewer", "nickname"),
            ("small_picture_url", "small_picture_url"),
            ("big_picture_url", "big_picture_url"),
            ("huge_picture_url", "huge_picture_url"),
            ("is_messenger_user", "is_messenger_user"),
            ("is_mobile_pushable", "is_mobile_pushable"),
            ("is_on_viewer_contact_list", "on_contact_list"),
            ("link_type", "link_type"),
            ("type", "type"),
            ("contact_relationship_status", "relationship_status"),
            ("viewer_connection_status", "connection_status"),
            ("add_source", "add_source"),
            ("is_memorialized", "is_memorialized"),
            ("bday_day", "bday_day"),
            ("bday_month", "bday_month"),
            ("communication_rank", "communication_rank"),
            ("phonebook_section_key", "phonebook_section"),
            ("added_time_ms", "added_time_ms"),
            ("messenger_install_time_ms", "messenger_install_time_ms"),
            ("last_fetch_time_ms", "last_fetch_time_ms"),
        ],
    );
    format!(
        "SELECT c.rowid AS rid, c.fbid AS fbid, CASE WHEN c.fbid IS NOT NULL AND c.fbid != '' THEN 'facebook:' || c.fbid END AS account, {optional}, {}, {} FROM contacts c ORDER BY c.rowid",
        phones(cols, "universalNumber", "phones"),
        phones(cols, "displayNumber", "display_phones"),
    )
}

/// `contacts`: one phenomenon per contact, each a `facebook:<id>` person.
fn contacts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &BTreeSet<String>,
    uid: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &contacts_sql(cols))? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Facebook contacts")?;
    for (inv, t, row) in pages.rows() {
        let Some(fbid) = t.get(row, "fbid") else {
            continue;
        };
        let full = [t.get(row, "first_name"), t.get(row, "last_name")]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let label = t
            .get(row, "display_name")
            .map(str::to_string)
            .or_else(|| (!full.is_empty()).then(|| full.clone()))
            .unwrap_or_else(|| fbid.to_string());
        let own = uid == Some(fbid);
        let mut d = Draft::new(
            if own { "accounts" } else { "contacts" },
            if own {
                format!("Facebook account {label} (the device's user)")
            } else {
                format!("Facebook contact {label}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("fbid", FactType::Account, "Facebook id"),
                ("contact_id", FactType::Identifier, "contact id"),
                ("display_name", FactType::Name, "display name"),
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("nickname", FactType::Name, "nickname"),
                ("phones", FactType::Text, "phones"),
                ("display_phones", FactType::Text, "phones as shown"),
                ("small_picture_url", FactType::Url, "small picture"),
                ("big_picture_url", FactType::Url, "big picture"),
                ("huge_picture_url", FactType::Url, "huge picture"),
                ("is_messenger_user", FactType::Text, "Messenger user"),
                ("is_mobile_pushable", FactType::Text, "mobile pushable"),
                (
                    "on_contact_list",
                    FactType::Text,
                    "on the viewer's contact list",
                ),
                ("link_type", FactType::Text, "link type"),
                ("type", FactType::Text, "type"),
                ("relationship_status", FactType::Text, "relationship status"),
                ("connection_status", FactType::Text, "connection status"),
                ("add_source", FactType::Text, "add source"),
                ("is_memorialized", FactType::Text, "memorialised"),
                ("bday_day", FactType::Text, "birthday day"),
                ("bday_month", FactType::Text, "birthday month"),
                ("communication_rank", FactType::Text, "communication rank"),
                ("phonebook_section", FactType::Text, "phone-book section"),
            ],
        );
        // each phone of the list, so that it stands as a phone fact too
        for p in t
            .get(row, "phones")
            .into_iter()
            .flat_map(|v| v.split(", "))
            .filter(|p| !p.is_empty())
        {
            d.fact(FactType::Phone, Some(p), inv);
        }
        for (col, what) in [
            ("added_time_ms", "Facebook contact added"),
            (
                "messenger_install_time_ms",
                "Facebook contact installed Messenger",
            ),
            ("last_fetch_time_ms", "Facebook contact last fetched"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "contacts row {} of {}: {} (Facebook id {fbid}); the store is filled by the app's server sync, so this is a contact held for the account, not one entered on the phone; flags and codes as stored; times Unix milliseconds: {}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if own {
                "the Facebook account signed in on the device (its id names the store)".to_string()
            } else {
                format!("a contact of the Facebook account, {label}")
            },
            said.join(", ")
        );
        record_draft(ctx, d)?;
        let context = uid.map_or_else(|| format!("facebook:{fbid}"), |u| context_of(fbid, u));
        let entity_label = if own { "device owner" } else { label.as_str() };
        let why = |what: &str| {
            format!(
                "{what} of the Facebook contact {label} ({} contacts, Facebook id {fbid}).",
                l.name()
            )
        };
        crate::identity::observe_columns(
            ctx,
            &context,
            entity_label,
            t,
            row,
            inv,
            &[
                ("account", IdType::AccountId, "The Facebook id"),
                ("display_name", IdType::DisplayName, "The name"),
            ],
            &why,
        )?;
        for p in t
            .get(row, "phones")
            .into_iter()
            .flat_map(|v| v.split(", "))
            .filter(|p| !p.is_empty())
        {
            crate::identity::observe(
                ctx,
                &context,
                masf_graph::EntityKind::Person,
                entity_label,
                IdType::Phone,
                p,
                inv,
                why(&format!("The phone number {p} (data JSON, phones)")),
            )?;
        }
    }
    Ok(())
}

/// `contacts_db_properties`: the sync state, one row each.
fn properties(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, key, CASE WHEN {SECRET_KEY} THEN NULL ELSE value END AS value, CASE WHEN {SECRET_KEY} THEN 'withheld: the key names a secret' END AS withheld, CASE WHEN key LIKE '%time_ms' AND NOT {SECRET_KEY} THEN value END AS time_ms FROM contacts_db_properties ORDER BY rowid"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "contacts_db_properties",
            category: "apps",
            what: "a property of the Facebook app's contact sync (values as stored; a key ending in time_ms holds Unix milliseconds: when the app last synced its contacts, or last did so in full; the delta cursor is the sync's position, not a credential)",
            title: &|t, row| {
                format!(
                    "Facebook contacts sync {}",
                    raw(t, row, "key").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("key", FactType::Text, "key"),
                ("value", FactType::Text, "value"),
                ("withheld", FactType::Text, "value"),
            ],
            times: &[(
                "time_ms",
                "Facebook contacts sync property time",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `contacts_upload_snapshot`: counted, never the hashes one by one.
fn snapshot(ctx: &AgentCtx<'_>, l: &Located, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
    let distinct = if cols.contains("local_contact_id") {
        "count(DISTINCT local_contact_id)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT count(*) AS snapshot_rows, {distinct} AS local_contacts FROM contacts_upload_snapshot"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "contacts_upload_snapshot",
            category: "contacts",
            what: "the upload snapshot the Facebook app kept of the phone's own contacts (a local contact id and hashes per contact, never names or numbers; rows and local contacts counted in the query): the app held the phone's contact list for upload, which this table does not show was sent",
            title: &|t, row| {
                format!(
                    "Facebook contacts upload snapshot ({} local contacts)",
                    t.get(row, "local_contacts")
                        .or_else(|| t.get(row, "snapshot_rows"))
                        .unwrap_or("?")
                )
            },
            fields: &[
                ("snapshot_rows", FactType::Count, "rows"),
                ("local_contacts", FactType::Count, "local contacts"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `home_stories`: one phenomenon per cached feed story.
fn feed(ctx: &AgentCtx<'_>, l: &Located, name: &str, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = Tables::one(
        ctx,
        name,
        "the Facebook app's news feed store",
        schema,
        "home_stories",
        &["dedup_key"],
    )?
    else {
        return Ok(());
    };
    let media = if schema
        .get("home_stories_media")
        .is_some_and(|m| m.contains("dedup_key"))
    {
        "(SELECT count(*) FROM home_stories_media m WHERE m.dedup_key = s.dedup_key)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT s.rowid AS rid, s.dedup_key AS dedup_key, {}, {media} AS media_rows FROM home_stories s ORDER BY s.rowid",
        select_columns(
            cols,
            "s.",
            &[
                ("feed_type", "feed_type"),
                ("seen_state", "seen_state"),
                ("image_seen_state", "image_seen_state"),
                ("sort_key", "sort_key"),
                ("ranking_weight", "ranking_weight"),
                ("cursor", "cursor"),
                ("fetched_at", "fetched_at"),
            ],
        ),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "home_stories",
            category: "social",
            what: "a news feed story the Facebook app downloaded and cached (bookkeeping only: no author or text is kept; downloaded is not seen — the seen states are the app's own flags, as stored; fetched_at Unix milliseconds; media rows counted in home_stories_media by the dedup key)",
            title: &|t, row| {
                format!(
                    "Facebook feed story {}",
                    raw(t, row, "dedup_key").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("dedup_key", FactType::Identifier, "dedup key"),
                ("feed_type", FactType::Text, "feed type"),
                ("seen_state", FactType::Text, "seen state"),
                ("image_seen_state", FactType::Text, "image seen state"),
                ("sort_key", FactType::Text, "sort key"),
                ("ranking_weight", FactType::Text, "ranking weight"),
                ("cursor", FactType::Text, "cursor"),
                ("media_rows", FactType::Count, "media rows"),
            ],
            times: &[("fetched_at", "Facebook feed story fetched", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `mentions_entities`: the mention suggestions; users are `facebook:<id>` persons.
fn mentions(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
    uid: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some(cols) = Tables::one(
        ctx,
        name,
        "the Facebook app's search bootstrap store",
        schema,
        "mentions_entities",
        &["fbid"],
    )?
    else {
        return Ok(());
    };
    let user = if cols.contains("type") {
        "CASE WHEN lower(e.type) = 'user' AND e.fbid IS NOT NULL AND e.fbid != '' THEN 'facebook:' || e.fbid END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT e.rowid AS rid, e.fbid AS fbid, {user} AS account, {} FROM mentions_entities e ORDER BY e.rowid",
        select_columns(
            cols,
            "e.",
            &[
                ("name", "name"),
                ("subtext", "subtext"),
                ("type", "type"),
                ("friendship_status", "friendship_status"),
                ("profile_picture_uri", "picture"),
            ],
        ),
    );
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "mentions_entities",
            category: "contacts",
            what: "an entity the Facebook app fetched to suggest while the user types a mention (a person, page, place or group the account could mention; not a search, a mention or an interaction; type and friendship status as stored)",
            title: &|t, row| {
                format!(
                    "Facebook mention suggestion {}",
                    raw(t, row, "name")
                        .or_else(|| raw(t, row, "fbid"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("fbid", FactType::Account, "Facebook id"),
                ("name", FactType::Name, "name"),
                ("subtext", FactType::Text, "subtext"),
                ("type", FactType::Text, "type"),
                ("friendship_status", FactType::Text, "friendship status"),
                ("picture", FactType::Url, "profile picture"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            let (Some(_), Some(fbid)) = (t.get(row, "account"), t.get(row, "fbid")) else {
                return Ok(());
            };
            let label = t.get(row, "name").unwrap_or(fbid).to_string();
            let context = uid.map_or_else(|| format!("facebook:{fbid}"), |u| context_of(fbid, u));
            let entity_label = if context == "owner" {
                "device owner"
            } else {
                label.as_str()
            };
            crate::identity::observe_columns(
                ctx,
                &context,
                entity_label,
                t,
                row,
                inv,
                &[
                    ("account", IdType::AccountId, "The Facebook id"),
                    ("name", IdType::DisplayName, "The name"),
                ],
                &|what| {
                    format!(
                        "{what} of the Facebook user {label}, a mention suggestion of type User ({file})."
                    )
                },
            )
        },
    )
}

/// `time_in_app_<uid>.db`: the foreground intervals.
fn time_in_app(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
    uid: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some(cols) = Tables::one(
        ctx,
        name,
        "the Facebook app's time_in_app store",
        schema,
        "intervals",
        &["start_walltime", "end_walltime"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT i.rowid AS rid, i.start_walltime AS start, i.end_walltime AS end, i.end_walltime - i.start_walltime AS duration, {} FROM intervals i ORDER BY i.rowid",
        select_columns(
            cols,
            "i.",
            &[
                ("start_event", "start_event"),
                ("end_event", "end_event"),
                ("seq_num", "seq"),
            ],
        ),
    );
    let what = format!(
        "an interval the Facebook app was in the foreground{} (the app's own record of its foreground time; start and end Unix seconds, the seconds between them computed in the query; the events are stored codes nothing maps)",
        uid.map(|u| format!(" for the Facebook id {u} the store's name carries"))
            .unwrap_or_default()
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "intervals",
            category: "app_usage",
            what: &what,
            title: &|t, row| {
                format!(
                    "Facebook in use for {} s",
                    t.get(row, "duration").unwrap_or("?")
                )
            },
            fields: &[
                ("duration", FactType::Count, "seconds"),
                ("start_event", FactType::Text, "start event"),
                ("end_event", FactType::Text, "end event"),
                ("seq", FactType::Count, "sequence"),
            ],
            times: &[
                ("start", "Facebook in the foreground from", unix_seconds),
                ("end", "Facebook in the foreground until", unix_seconds),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `prefs_db`: one phenomenon per key, a secret's value withheld.
fn prefs(ctx: &AgentCtx<'_>, l: &Located, name: &str, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = Tables::one(
        ctx,
        name,
        "the Facebook app's prefs_db",
        schema,
        "preferences",
        &["key", "value"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS rid, key, CASE WHEN {SECRET_KEY} THEN NULL ELSE value END AS value, CASE WHEN {SECRET_KEY} THEN 'withheld: the key names a secret' END AS withheld, {} FROM preferences ORDER BY rowid",
        column_or_null(cols, "", "type", "type"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "preferences",
            category: "apps",
            what: "a preference the Facebook app keeps (its configuration and state, as stored and uninterpreted; a value whose key names a secret — the /auth/ tree, tokens, cookies, sessions — is withheld)",
            title: &|t, row| {
                format!(
                    "Facebook preference {}",
                    raw(t, row, "key").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("key", FactType::Text, "key"),
                ("value", FactType::Text, "value"),
                ("withheld", FactType::Text, "value"),
                ("type", FactType::Text, "stored type"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_names_and_their_ids() {
        assert_eq!(
            store_uid("ssus.100004211337001.android_facebook_contacts_db"),
            Some("100004211337001")
        );
        assert_eq!(
            store_uid("time_in_app_100004211337001.db"),
            Some("100004211337001")
        );
        assert_eq!(
            store_uid("search_bootstrap_db_100004211337001"),
            Some("100004211337001")
        );
        assert_eq!(store_uid("prefs_db"), None);
        assert!(is_store_path(
            "/data/data/com.facebook.katana/databases/ssus.1.android_facebook_newsfeed_db"
        ));
        assert!(!is_store_path(
            "/data/data/com.facebook.orca/databases/prefs_db"
        ));
        assert!(!is_store_path(
            "/data/data/com.facebook.katana/databases/search_bootstrap_db_1-journal"
        ));
    }
}
