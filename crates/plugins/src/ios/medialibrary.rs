//! The Music library (`Media/iTunes_Control/iTunes/MediaLibrary.sqlitedb`, the MusicLibrary
//! framework's store behind Music, Podcasts and Books' audiobooks), iLEAPP's `mediaLibrary`
//! ("Media Library") and `mediaLibraryInfo` (its `_MLDatabaseProperties`): every song, video,
//! podcast episode or audiobook in the device's library, how often and when it was played,
//! when it was added and bought, and the store accounts that bought it.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `item` with `item_extra`, `item_stats`, `item_store` (by `item_pid`), `item_artist`, `album`, `album_artist`, `genre`, `composer` (by the item's own keys) and `account` (by `item_store.account_id` and `downloader_account_id`) | one `media` per item ("Media library item <title> by <artist>") | persistent id (`item_pid`), title, media kind (`media_kind`, labelled in the query as iLEAPP labels it: 0 E-book, 1 Audio, 2 Film, 4 Podcast, 33 Video M4V; others as stored), media type as stored, artist, album, album artist, genre, composer, year, track and disc number, duration (ms), file (`location`) and size; play and skip counts, rating, liked state, played flag; in the library, cloud status, in the cloud library, cloud asset available, Apple Music subscription item, bought over the air; store item, storefront, purchase history and cloud library (`store_saga_id`) ids; the buying account's DSID (`account_id`) and Apple ID, the downloading account's DSID and Apple ID, the family account's DSID; added, downloaded, last played, last skipped, purchased, released (Cocoa seconds; 0 no time) |
//! | `account`, `_MLDatabaseProperties` (`MLJaliscoAccountID`, `MLCloudAccountID`) and the DSIDs of `item_store` | one `accounts` per store account ("Media library store account <Apple ID> (DSID <dsid>)") | DSID, Apple ID, alt-DSID, which of the two properties name it (the account the device's library is signed in with), how many items it bought, downloaded, or holds as the family's |
//!
//! An item in the library is there because it was bought, synced from a computer, added from
//! Apple Music or subscribed to, not because it was played: the play count (`play_count_user`)
//! and last-played time are the library's, which a sync with iCloud Music Library or a
//! computer may carry from the user's other devices, said. iLEAPP joins the names by
//! `representative_item_pid`, which names one item of an album or artist; here each item is
//! joined to its own album, artist, album artist, genre and composer keys (`item.album_pid`
//! …), so every item gets them; iLEAPP's extra row per artwork token is not made. Date
//! purchased is Cocoa seconds as iLEAPP reads it; the library's other dates are read the same
//! way. Columns are taken by name (absent ones NULL: older stores have no `account` table, no
//! cloud or subscription columns, no `date_downloaded` or `liked_state`); a store without
//! `item.item_pid` or `item_extra.title` is noted (a foreign file of the same name), as is one
//! that is no database. The purchase-history token and redownload parameters are never
//! selected.
//!
//! Identities: the store account whose DSID `_MLDatabaseProperties` names as the library's
//! (`MLJaliscoAccountID`: the iTunes in the Cloud purchases account; `MLCloudAccountID`: the
//! iCloud Music Library account) is the device user's (`owner`): its Apple ID and DSID. Every
//! other account (a family member's purchases, a computer's synced items) is a fact of its
//! phenomenon and of the items it bought, never observed: the store does not say whose it is.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const ITEM: &str = "item";
const EXTRA: &str = "item_extra";
const STATS: &str = "item_stats";
const STORE: &str = "item_store";
const ACCOUNT: &str = "account";
const PROPS: &str = "_MLDatabaseProperties";

/// The name tables of an item: (table, alias, its key, the item's column holding it, the name).
const NAMES: [(&str, &str, &str, &str, &str); 5] = [
    (
        "item_artist",
        "ar",
        "item_artist_pid",
        "item_artist_pid",
        "item_artist",
    ),
    ("album", "al", "album_pid", "album_pid", "album"),
    (
        "album_artist",
        "aa",
        "album_artist_pid",
        "album_artist_pid",
        "album_artist",
    ),
    ("genre", "g", "genre_id", "genre_id", "genre"),
    ("composer", "c", "composer_pid", "composer_pid", "composer"),
];

/// The properties naming the DSID the device's library is signed in with.
const DEVICE_KEYS: [&str; 2] = ["MLJaliscoAccountID", "MLCloudAccountID"];

/// The media kinds iLEAPP labels (`media_kind`, observed in its tests; others as stored).
const KIND: &str = "CASE e.media_kind WHEN 0 THEN 'E-book' WHEN 1 THEN 'Audio' WHEN 2 THEN 'Film' WHEN 4 THEN 'Podcast' WHEN 33 THEN 'Video M4V' END";

/// The item's other columns: (table, column, alias, whether 0 — or an empty text — means none,
/// selected as NULL).
const COLUMNS: &[(&str, &str, &str, bool)] = &[
    (EXTRA, "year", "year", true),
    (ITEM, "track_number", "track", true),
    (ITEM, "disc_number", "disc", true),
    (EXTRA, "total_time_ms", "duration_ms", true),
    (EXTRA, "location", "location", true),
    (EXTRA, "file_size", "file_size", true),
    (STATS, "play_count_user", "plays", false),
    (STATS, "skip_count_user", "skips", false),
    (STATS, "user_rating", "rating", true),
    (STATS, "liked_state", "liked", true),
    (STATS, "has_been_played", "has_been_played", false),
    (ITEM, "in_my_library", "in_library", false),
    (STORE, "cloud_status", "cloud_status", false),
    (STORE, "cloud_in_my_library", "cloud_in_library", false),
    (STORE, "cloud_asset_available", "cloud_asset", false),
    (STORE, "is_subscription", "subscription", false),
    (STORE, "is_ota_purchased", "ota", false),
    (STORE, "store_item_id", "store_item_id", true),
    (STORE, "storefront_id", "storefront", true),
    (STORE, "purchase_history_id", "purchase_history_id", true),
    (STORE, "store_saga_id", "saga_id", true),
    (STORE, "account_id", "dsid", true),
    (STORE, "downloader_account_id", "downloader_dsid", true),
    (STORE, "family_account_id", "family_dsid", true),
    (ITEM, "date_added", "added", false),
    (ITEM, "date_downloaded", "downloaded", false),
    (STATS, "date_played", "played", false),
    (STATS, "date_skipped", "skipped", false),
    (STORE, "date_purchased", "purchased", false),
    (STORE, "date_released", "released", false),
];

/// An item's facts: (alias, type, label).
const ITEM_FIELDS: &[(&str, FactType, &str)] = &[
    ("pid", FactType::Identifier, "persistent id"),
    ("title", FactType::Name, "title"),
    ("kind", FactType::Text, "media kind"),
    ("media_kind", FactType::Text, "media_kind"),
    ("media_type", FactType::Text, "media type"),
    ("item_artist", FactType::Name, "artist"),
    ("album", FactType::Name, "album"),
    ("album_artist", FactType::Name, "album artist"),
    ("genre", FactType::Text, "genre"),
    ("composer", FactType::Name, "composer"),
    ("year", FactType::Text, "year"),
    ("track", FactType::Text, "track number"),
    ("disc", FactType::Text, "disc number"),
    ("duration_ms", FactType::Text, "duration (ms)"),
    ("location", FactType::Text, "file"),
    ("file_size", FactType::Text, "file size"),
    ("plays", FactType::Text, "play count"),
    ("skips", FactType::Text, "skip count"),
    ("rating", FactType::Text, "rating"),
    ("liked", FactType::Text, "liked state"),
    ("has_been_played", FactType::Text, "played"),
    ("in_library", FactType::Text, "in my library"),
    ("cloud_status", FactType::Text, "cloud status"),
    ("cloud_in_library", FactType::Text, "in the cloud library"),
    ("cloud_asset", FactType::Text, "cloud asset available"),
    (
        "subscription",
        FactType::Text,
        "Apple Music subscription item",
    ),
    ("ota", FactType::Text, "bought over the air"),
    ("store_item_id", FactType::Identifier, "store item id"),
    ("storefront", FactType::Identifier, "storefront"),
    (
        "purchase_history_id",
        FactType::Identifier,
        "purchase history id",
    ),
    ("saga_id", FactType::Identifier, "cloud library id"),
    ("dsid", FactType::Account, "bought by the account DSID"),
    ("apple_id", FactType::Account, "bought by the Apple ID"),
    (
        "downloader_dsid",
        FactType::Account,
        "downloaded by the DSID",
    ),
    (
        "downloader_apple_id",
        FactType::Account,
        "downloaded by the Apple ID",
    ),
    ("family_dsid", FactType::Account, "family account DSID"),
];

/// An item's times: (alias, description).
const ITEM_TIMES: &[(&str, &str)] = &[
    ("added", "Media library item added"),
    ("downloaded", "Media library item downloaded"),
    ("played", "Media library item last played"),
    ("skipped", "Media library item last skipped"),
    ("purchased", "Media library item purchased"),
    ("released", "Media library item released"),
];

/// Triage of every Music library store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("MediaLibrary.sqlitedb", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let mut tables = vec![ITEM, EXTRA, STATS, STORE, ACCOUNT, PROPS];
    tables.extend(NAMES.iter().map(|n| n.0));
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if !schema.require(run, ITEM, &["item_pid"])?
        || !schema.require(run, EXTRA, &["item_pid", "title"])?
    {
        return Ok(());
    }
    items(run, find, path, &schema)?;
    accounts(run, find, path, &schema)
}

/// The tables of an item query joined by `item_pid`, with their aliases.
const BY_PID: [(&str, &str); 3] = [(EXTRA, "e"), (STATS, "st"), (STORE, "s")];

/// The item query: each column by name from the tables joined (absent ones NULL), zeros and
/// empty texts of ids, names and counts that mean "none" as NULL.
fn items_sql(columns: &dyn Fn(&str) -> BTreeSet<String>) -> String {
    let item = columns(ITEM);
    let mut joined: BTreeSet<&str> = BTreeSet::new();
    let mut joins = String::new();
    for (table, alias) in BY_PID {
        if columns(table).contains("item_pid") {
            joined.insert(table);
            joins.push_str(&format!(
                " LEFT JOIN {table} {alias} ON {alias}.item_pid = i.item_pid"
            ));
        }
    }
    // `alias.column` of a joined table that has it, else NULL
    let col = |table: &str, column: &str| -> String {
        let alias = match table {
            ITEM => "i",
            EXTRA => "e",
            STATS => "st",
            _ => "s",
        };
        let there = table == ITEM || joined.contains(table);
        if there && columns(table).contains(column) {
            format!("{alias}.{column}")
        } else {
            "NULL".into()
        }
    };
    let mut select = vec![
        "i.item_pid AS pid".to_string(),
        format!("NULLIF({}, '') AS title", col(EXTRA, "title")),
    ];
    let kind = if col(EXTRA, "media_kind") == "NULL" {
        "NULL".to_string()
    } else {
        KIND.to_string()
    };
    select.push(format!("{kind} AS kind"));
    select.push(format!("{} AS media_kind", col(EXTRA, "media_kind")));
    select.push(format!("{} AS media_type", col(ITEM, "media_type")));
    for (table, alias, key, fk, name) in NAMES {
        let t = columns(table);
        if item.contains(fk) && t.contains(key) && t.contains(name) {
            joins.push_str(&format!(
                " LEFT JOIN {table} {alias} ON {alias}.{key} = i.{fk}"
            ));
            select.push(format!("NULLIF({alias}.{name}, '') AS {name}"));
        } else {
            select.push(format!("NULL AS {name}"));
        }
    }
    for &(table, column, alias, none) in COLUMNS {
        let c = col(table, column);
        if none && c != "NULL" {
            let empty = if column == "location" { "''" } else { "0" };
            select.push(format!("NULLIF({c}, {empty}) AS {alias}"));
        } else {
            select.push(format!("{c} AS {alias}"));
        }
    }
    // the Apple IDs of the buying and downloading accounts
    let account = columns(ACCOUNT);
    let accounts = account.contains("dsid") && account.contains("apple_id");
    for (column, alias, table_alias) in [
        ("account_id", "apple_id", "acc"),
        ("downloader_account_id", "downloader_apple_id", "dacc"),
    ] {
        let fk = col(STORE, column);
        if accounts && fk != "NULL" {
            joins.push_str(&format!(
                " LEFT JOIN {ACCOUNT} {table_alias} ON {table_alias}.dsid = {fk}"
            ));
            select.push(format!("NULLIF({table_alias}.apple_id, '') AS {alias}"));
        } else {
            select.push(format!("NULL AS {alias}"));
        }
    }
    format!("SELECT {} FROM {ITEM} i{joins}", select.join(", "))
}

fn items(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = items_sql(&|t: &str| schema.columns(t));
    let Some(paged) = run.paged(path, &sql, "i.item_pid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let pid = get("pid").unwrap_or_else(|| "?".into());
        let title = get("title").unwrap_or_else(|| format!("item {pid}"));
        let by = get("item_artist")
            .map(|a| format!(" by {a}"))
            .unwrap_or_default();
        let mut d = Draft::new("media", format!("Media library item {title}{by}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(t, row, inv, ITEM_FIELDS);
        d.times_of(t, row, inv, apple_seconds, ITEM_TIMES);
        let bought = match (get("apple_id"), get("dsid")) {
            (Some(a), Some(n)) => format!(
                " It was bought with the store account {a} (DSID {n}), not necessarily by the device's user: a family member's purchase shows under their account."
            ),
            (None, Some(n)) => format!(
                " It was bought with the store account DSID {n}, not necessarily by the device's user."
            ),
            _ => String::new(),
        };
        d.interpretation = format!(
            "{ITEM} item_pid {pid} of {file}: an item of the device's Music library ({}). Being in the library shows it was bought, synced from a computer, added from Apple Music or subscribed to, not that it was played; the play count and last-played time are the library's, which a sync with iCloud Music Library or a computer may carry from the user's other devices; times are Cocoa seconds.{bought}",
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Music library items")
}

/// The account query: every DSID the store names (its `account` rows, the two properties,
/// the items' buying, downloading and family accounts), with its Apple ID, the properties that
/// name it and its item counts; `None` when the store names none.
fn accounts_sql(columns: &dyn Fn(&str) -> BTreeSet<String>) -> Option<String> {
    let account = columns(ACCOUNT);
    let props = columns(PROPS);
    let store = columns(STORE);
    let has_props = props.contains("key") && props.contains("value");
    let keys = DEVICE_KEYS
        .iter()
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut parts = Vec::new();
    if account.contains("dsid") {
        parts.push(format!("SELECT dsid AS dsid FROM {ACCOUNT}"));
    }
    if has_props {
        parts.push(format!(
            "SELECT CAST(value AS INTEGER) AS dsid FROM {PROPS} WHERE key IN ({keys})"
        ));
    }
    for c in ["account_id", "downloader_account_id", "family_account_id"] {
        if store.contains(c) {
            parts.push(format!("SELECT {c} AS dsid FROM {STORE}"));
        }
    }
    if parts.is_empty() {
        return None;
    }
    let text = |c: &str| {
        if account.contains("dsid") && account.contains(c) {
            format!("NULLIF(a.{c}, '') AS {c}")
        } else {
            format!("NULL AS {c}")
        }
    };
    let device = if has_props {
        format!(
            "(SELECT group_concat(p.key, ', ') FROM {PROPS} p WHERE p.key IN ({keys}) AND CAST(p.value AS INTEGER) = d.dsid) AS device_keys"
        )
    } else {
        "NULL AS device_keys".into()
    };
    let count = |c: &str, alias: &str| {
        if store.contains(c) {
            format!("(SELECT COUNT(*) FROM {STORE} x WHERE x.{c} = d.dsid) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let join = if account.contains("dsid") {
        format!(" LEFT JOIN {ACCOUNT} a ON a.dsid = d.dsid")
    } else {
        String::new()
    };
    Some(format!(
        "SELECT d.dsid AS dsid, {}, {}, {device}, {}, {}, {} FROM (SELECT DISTINCT dsid FROM ({}) WHERE dsid IS NOT NULL AND dsid != 0) d{join}",
        text("apple_id"),
        text("alt_dsid"),
        count("account_id", "bought"),
        count("downloader_account_id", "downloaded"),
        count("family_account_id", "family_items"),
        parts.join(" UNION ALL "),
    ))
}

fn accounts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let Some(sql) = accounts_sql(&|t: &str| schema.columns(t)) else {
        return Ok(());
    };
    let Some(paged) = run.paged(path, &sql, "d.dsid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let Some(dsid) = get("dsid") else {
            continue;
        };
        let apple_id = get("apple_id");
        let device = get("device_keys");
        let label = match &apple_id {
            Some(a) => format!("{a} (DSID {dsid})"),
            None => format!("DSID {dsid}"),
        };
        let mut d = Draft::new("accounts", format!("Media library store account {label}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("dsid", FactType::Account, "DSID"),
                ("apple_id", FactType::Account, "Apple ID"),
                ("alt_dsid", FactType::Identifier, "alt-DSID"),
                ("device_keys", FactType::Text, "named by"),
                ("bought", FactType::Text, "items bought"),
                ("downloaded", FactType::Text, "items downloaded"),
                (
                    "family_items",
                    FactType::Text,
                    "items as the family account",
                ),
            ],
        );
        let whose = match &device {
            Some(k) => format!(
                "the account the device's Music library is signed in with ({k} of {PROPS} holds its DSID): the device user's"
            ),
            None => "an account that bought, downloaded or shared items of the library; the store does not name it the device's (a family member's, or one a synced computer used), so it is kept as a fact".to_string(),
        };
        d.interpretation = format!("A store account of {file}: {whose} ({}).", said.join("; "));
        run.record(d)?;
        if let Some(keys) = device {
            if let Some(a) = &apple_id {
                run.observe(
                    "owner",
                    EntityKind::Person,
                    "device owner",
                    IdType::AppleId,
                    a,
                    inv,
                    format!(
                        "{a} is the Apple ID of the store account (DSID {dsid}) the device's Music library is signed in with ({keys} of {PROPS} in {file})."
                    ),
                )?;
            }
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Dsid,
                &dsid,
                inv,
                format!(
                    "{dsid} is the DSID of the store account the device's Music library is signed in with ({keys} of {PROPS} in {file})."
                ),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Music library store accounts")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Columns of an older store: no `account` table, `item_store` without the cloud columns.
    fn old(table: &str) -> BTreeSet<String> {
        let cols: &[&str] = match table {
            ITEM => &["item_pid", "item_artist_pid", "album_pid", "date_added"],
            EXTRA => &["item_pid", "title", "media_kind"],
            STORE => &["item_pid", "account_id", "date_purchased"],
            PROPS => &["key", "value"],
            "item_artist" => &["item_artist_pid", "item_artist"],
            _ => &[],
        };
        cols.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn queries_take_what_the_store_has() {
        let sql = items_sql(&old);
        assert!(sql.starts_with(
            "SELECT i.item_pid AS pid, NULLIF(e.title, '') AS title, CASE e.media_kind"
        ));
        assert!(
            sql.contains(" LEFT JOIN item_artist ar ON ar.item_artist_pid = i.item_artist_pid")
        );
        assert!(sql.contains("NULL AS album,"), "{sql}");
        assert!(sql.contains("NULLIF(s.account_id, 0) AS dsid"));
        assert!(sql.contains("NULL AS plays"), "{sql}");
        assert!(sql.contains("NULL AS apple_id") && !sql.contains("JOIN account"));
        assert!(!sql.contains("JOIN item_stats"));
        let acc = accounts_sql(&old).unwrap_or_default();
        assert!(
            acc.contains("NULL AS apple_id, NULL AS alt_dsid, (SELECT group_concat"),
            "{acc}"
        );
        assert!(acc.contains("SELECT account_id AS dsid FROM item_store"));
        assert!(!acc.contains("LEFT JOIN account"));
        assert!(accounts_sql(&|_: &str| BTreeSet::new()).is_none());
    }
}
