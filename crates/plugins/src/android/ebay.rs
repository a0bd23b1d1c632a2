//! eBay (`com.ebay.mobile/databases/`), ALEAPP's `ebay` (`ebay_watch_list`,
//! `ebay_recent_searches`, `ebay_search_suggestions`, `ebay_followed_sellers`,
//! `ebay_app_sessions`, `ebay_accounts`, `ebay_app_configuration`, `ebay_app_state`,
//! `ebay_share_channels`): what the user searched for and watched on the marketplace, the
//! sellers they followed, when they used the app and which screens it showed, and the user ids
//! the app keyed its data by.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `nautilus_db`: `watch_list` | one `transactions` per watched listing ("eBay watched listing <title>") | title, listing id, variation id, image URL, aspects (the app's JSON, as stored), partial record as stored, entry key; the listing ends (Unix ms) |
//! | `nautilus_db`: `RecentSearchEntity` | one `web` per recent search ("eBay recent search <keyword>") | keyword, category id, result count the app recorded, seller and product prefix, spelled correctly as stored, the user id the row is keyed by, row id; searched (Unix ms) |
//! | `suggestions.db`: `suggestions` | one `web` per query kept ("eBay search query <query>") | query, the text shown; searched (Unix ms) |
//! | `nautilus_db`: `followed_seller_entity` | one `contacts` per row ("eBay followed seller <seller>") | seller, following as stored (0: tracked, not followed), the hashed user id |
//! | `nautilus_db`: `apls_session` (with `apls_beacon`, `apls_call`) | one `app_usage` per session ("eBay app session <GUID>") | GUID, the screens (activities) it showed, the network calls it made (count), start since boot as stored; started (Unix ms) |
//! | `nautilus_db`: `key_value` | one `app_usage` per entry ("eBay app state <key>") | key, the value from whichever typed column holds it and that column's name, the user id (`global`: app-wide), the encrypted blob's length; written (Unix ms) |
//! | `nautilus_db`: `FtsMetadataEntity` (with `FtsDataEntity`) | one `apps` per record ("eBay app configuration <version>") | app version, site and country code, language, Android SDK, environment, global buyer hub, response level, rollout threshold, ETag as stored, the configuration values held (count); fetched (Unix ms) |
//! | `nautilus_db`: `share_channels` | one `app_usage` per row ("eBay share channel <channel>") | channel, value as stored, user id; the value read as Unix ms |
//! | `nautilus_db`: `key_value.publicUserId`, `RecentSearchEntity.userId`, `followed_seller_entity.hashedUserId`, `share_entity.userId`, `fcm_token.hashedUserId`, `opt_in_encode_entity.userId` | one `accounts` per distinct id of each column ("eBay user id <id> (<table>)") | the id, its form, table and column |
//!
//! A watched listing says the account put it on its watch list (its end date is the listing's,
//! not the user's act); a recent search or a kept query says the term was searched in the app
//! (the result count is what the app recorded then, not anything in the extraction); a followed
//! seller row with `following` 0 is a seller the app tracked as no longer followed; a session's
//! screens say which parts of the app were opened, and its calls are counted, not listed (the
//! app's own telemetry). A share channel row names a destination the app offered or used, not
//! what was shared. The app state entries are the app's own settings, shown as stored, no
//! meaning asserted beyond the key's name. No account name or e-mail address is stored in these
//! tables; the ids come in several forms (a short public id, 64-character hashes, a longer
//! hash of the push table) that are kept apart.
//!
//! Never selected: a `key_value` entry's value when its key names a secret (token, secret,
//! password, cookie, credential, auth, IAF — the value is withheld and the row says so), the
//! encrypted registration blob (`encryptedData`: its length only), the push token
//! (`fcm_token.token`). Not read: the image cache and the followed-searches and interests caches
//! under `cache/cacheManager/` (length-framed cache entries, not a store the tools read), the
//! recent search thumbnail (null on every sample ALEAPP saw). Columns are taken by name (absent
//! ones NULL: older releases keep fewer); a `nautilus_db` holding none of the tables, a
//! `suggestions.db` without `suggestions`, and a table without the columns read are noted, the
//! rest is read.
//!
//! Identities: the public user id that keys the app's state entries (not `global`) is the
//! account signed in to the app on the phone: observed as the owner's `ebay:<id>` (qualified in
//! the query). The hashed forms, the share table's id and the sellers stay facts.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, Schema};
use crate::calls::{column_or_null, require_columns};
use crate::drafts::{RowPhenomena, no_identity, title_of, unix_millis};
use crate::identity::{artefact_name, observe_owner_ids, schema_on};

/// The app's databases folder, as it appears in a path.
const DIR: &str = "/com.ebay.mobile/databases/";

/// The app's main store.
pub const STORE: &str = "nautilus_db";

/// The store of the queries kept by Android's recent-suggestions provider.
pub const SUGGESTIONS: &str = "suggestions.db";

/// `(table, column, form)` of every column holding a user id (ALEAPP's).
const USER_IDS: &[(&str, &str, &str)] = &[
    ("key_value", "publicUserId", "public user id"),
    ("RecentSearchEntity", "userId", "recent search user id"),
    ("followed_seller_entity", "hashedUserId", "hashed user id"),
    ("share_entity", "userId", "share user id"),
    ("fcm_token", "hashedUserId", "push token user id"),
    ("opt_in_encode_entity", "userId", "opt-in user id"),
];

/// The tables of `nautilus_db` read besides [`USER_IDS`]'.
const TABLES: &[&str] = &[
    "watch_list",
    "RecentSearchEntity",
    "followed_seller_entity",
    "apls_session",
    "key_value",
    "FtsMetadataEntity",
    "share_channels",
];

/// `key_value`'s typed value columns, in the order a value is taken from them.
const VALUE_COLUMNS: &[&str] = &[
    "booleanValue",
    "intValue",
    "longValue",
    "floatValue",
    "value",
    "stringSet",
];

/// A `key_value` key naming a secret: its value is never selected.
const SECRET_KEY: &str = "(key LIKE '%token%' OR key LIKE '%secret%' OR key LIKE '%password%' OR key LIKE '%cookie%' OR key LIKE '%credential%' OR key LIKE '%auth%' OR key LIKE '%iaf%')";

/// Whether `path` is one of eBay's stores read (for `categorise`).
pub fn is_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    (name == STORE || name == SUGGESTIONS) && path.contains(DIR)
}

/// Whether `l` is eBay's `nautilus_db`.
pub fn is_store(l: &Located) -> bool {
    l.name() == STORE && l.path.contains(DIR)
}

/// Whether `l` is eBay's `suggestions.db`.
pub fn is_suggestions(l: &Located) -> bool {
    l.name() == SUGGESTIONS && l.path.contains(DIR)
}

/// One store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if is_suggestions(l) {
        return suggestions(ctx, l, &schema);
    }
    if !TABLES
        .iter()
        .chain(USER_IDS.iter().map(|(t, ..)| t))
        .any(|t| schema.contains_key(*t))
    {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not eBay's nautilus_db: none of the tables read (watch_list, RecentSearchEntity, followed_seller_entity, apls_session, key_value, FtsMetadataEntity, share_channels)",
            None,
        )?;
        return Ok(());
    }
    watch_list(ctx, l, &schema)?;
    recent_searches(ctx, l, &schema)?;
    followed_sellers(ctx, l, &schema)?;
    sessions(ctx, l, &schema)?;
    app_state(ctx, l, &schema)?;
    configuration(ctx, l, &schema)?;
    share_channels(ctx, l, &schema)?;
    user_ids(ctx, l, &schema)
}

fn watch_list(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "listingId",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "watch_list",
            category: "transactions",
            what: "a listing on the eBay account's watch list (the end date is the listing's, Unix milliseconds; aspects the app's JSON as stored)",
            title: &title_of("eBay watched listing", &["title", "listingId"]),
            fields: &[
                ("title", FactType::Text, "title"),
                ("listingId", FactType::Identifier, "listing id"),
                ("variationId", FactType::Identifier, "variation id"),
                ("listingImageUrl", FactType::Url, "image URL"),
                ("aspects", FactType::Text, "aspects"),
                ("isPartial", FactType::Text, "partial record as stored"),
                ("key", FactType::Identifier, "entry key"),
            ],
            times: &[("listingEndDate", "eBay watched listing ends", unix_millis)],
        },
        &mut no_identity,
    )
}

fn recent_searches(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "keyword",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "RecentSearchEntity",
            category: "web",
            what: "a search made in the eBay app, kept by the account's user id (the result count is the one the app recorded then; searched Unix milliseconds)",
            title: &title_of("eBay recent search", &["keyword"]),
            fields: &[
                ("keyword", FactType::Text, "search"),
                ("categoryId", FactType::Identifier, "category id"),
                ("searchResultCount", FactType::Count, "results recorded"),
                ("sellerPrefix", FactType::Text, "seller prefix"),
                ("productPrefix", FactType::Text, "product prefix"),
                (
                    "isSpelledCorrectly",
                    FactType::Text,
                    "spelled correctly as stored",
                ),
                ("userId", FactType::Account, "user id"),
                ("uid", FactType::Identifier, "row id"),
            ],
            times: &[("timestamp", "Searched in the eBay app", unix_millis)],
        },
        &mut no_identity,
    )
}

/// `suggestions.db`: the queries the app kept with Android's recent-suggestions provider.
fn suggestions(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    if !schema.contains_key("suggestions") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not eBay's suggestions.db: no table suggestions",
            None,
        )?;
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        schema,
        "query",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "suggestions",
            category: "web",
            what: "a query searched in the eBay app, kept by Android's recent-suggestions provider (entered on the device, not a suggestion downloaded; date Unix milliseconds)",
            title: &title_of("eBay search query", &["query"]),
            fields: &[
                ("query", FactType::Text, "query"),
                ("display1", FactType::Text, "shown as"),
            ],
            times: &[("date", "Searched in the eBay app", unix_millis)],
        },
        &mut no_identity,
    )
}

fn followed_sellers(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "sellerId",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "followed_seller_entity",
            category: "contacts",
            what: "a seller the eBay app tracked for the account (following as stored: 1 followed, 0 tracked but not followed; no time kept)",
            title: &title_of("eBay followed seller", &["sellerId"]),
            fields: &[
                ("sellerId", FactType::Account, "seller"),
                ("following", FactType::Text, "following as stored"),
                ("hashedUserId", FactType::Account, "hashed user id"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}

/// `apls_session`, each with the screens its beacons name and its network calls counted.
fn sessions(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("apls_session") else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "eBay's nautilus_db",
        "apls_session",
        cols,
        &["guid", "startTimeWallClock"],
    )? {
        return Ok(());
    }
    let screens = if schema
        .get("apls_beacon")
        .is_some_and(|c| c.contains("sessionId") && c.contains("activity"))
    {
        "(SELECT group_concat(DISTINCT b.activity) FROM apls_beacon b WHERE b.sessionId = s.guid)"
    } else {
        "NULL"
    };
    let calls = if schema
        .get("apls_call")
        .is_some_and(|c| c.contains("sessionId"))
    {
        "(SELECT count(*) FROM apls_call c WHERE c.sessionId = s.guid)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT s.rowid AS rid, s.guid AS guid, s.startTimeWallClock AS started, {}, {screens} AS screens, {calls} AS calls FROM apls_session s ORDER BY s.rowid",
        column_or_null(cols, "s.", "startTimeElapsedRealtime", "since_boot"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "apls_session",
            category: "app_usage",
            what: "a session of the eBay app (the screens are the activities its beacons name; its network calls, the app's own telemetry among them, counted; started Unix milliseconds, the start since boot in milliseconds as stored)",
            title: &title_of("eBay app session", &["guid"]),
            fields: &[
                ("guid", FactType::Identifier, "session GUID"),
                ("screens", FactType::Text, "screens"),
                ("calls", FactType::Count, "network calls"),
                ("since_boot", FactType::Text, "start since boot as stored"),
            ],
            times: &[("started", "eBay app session started", unix_millis)],
        },
        &mut no_identity,
    )
}

/// `key_value`: each entry's value from the first typed column holding one, never a value of a
/// key naming a secret, never the encrypted blob (its length only).
fn app_state(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("key_value") else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "eBay's nautilus_db",
        "key_value",
        cols,
        &["key"],
    )? {
        return Ok(());
    }
    let held: Vec<&str> = VALUE_COLUMNS
        .iter()
        .copied()
        .filter(|c| cols.contains(*c))
        .collect();
    let value = match held.as_slice() {
        [] => "NULL".to_string(),
        [one] => (*one).to_string(),
        many => format!("coalesce({})", many.join(", ")),
    };
    let stored_in = if held.is_empty() {
        "NULL".to_string()
    } else {
        format!(
            "CASE {} END",
            held.iter()
                .map(|c| format!("WHEN {c} IS NOT NULL THEN '{c}'"))
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    let encrypted = if cols.contains("encryptedData") {
        "length(encryptedData)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT rowid AS rid, key, {}, {}, CASE WHEN {SECRET_KEY} THEN NULL ELSE {value} END AS value, CASE WHEN {SECRET_KEY} THEN NULL ELSE {stored_in} END AS stored_in, CASE WHEN {SECRET_KEY} THEN 'withheld: the key names a secret' END AS withheld, {encrypted} AS encrypted_bytes FROM key_value ORDER BY rowid",
        column_or_null(cols, "", "timestamp", "timestamp"),
        column_or_null(cols, "", "publicUserId", "publicUserId"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "key_value",
            category: "app_usage",
            what: "an entry of the eBay app's own state, keyed by name and user id (global: app-wide), the value as its typed column stores it (a value whose key names a secret is withheld; an encrypted blob's length only; written Unix milliseconds)",
            title: &title_of("eBay app state", &["key"]),
            fields: &[
                ("key", FactType::Text, "key"),
                ("value", FactType::Text, "value"),
                ("stored_in", FactType::Text, "stored in"),
                ("publicUserId", FactType::Account, "user id"),
                ("withheld", FactType::Text, "value"),
                (
                    "encrypted_bytes",
                    FactType::Count,
                    "encrypted bytes, not decoded",
                ),
            ],
            times: &[("timestamp", "eBay app state written", unix_millis)],
        },
        &mut no_identity,
    )
}

/// `FtsMetadataEntity`, with the configuration values of `FtsDataEntity` counted.
fn configuration(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("FtsMetadataEntity") else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "eBay's nautilus_db",
        "FtsMetadataEntity",
        cols,
        &["appVersion"],
    )? {
        return Ok(());
    }
    let values = if schema.contains_key("FtsDataEntity") {
        "(SELECT count(*) FROM FtsDataEntity)"
    } else {
        "NULL"
    };
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, appVersion, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {values} AS config_values FROM FtsMetadataEntity ORDER BY rowid",
        c("timestamp"),
        c("siteCode"),
        c("countryCode"),
        c("languageCode"),
        c("androidSdk"),
        c("environment"),
        c("isGbh"),
        c("responseLevel"),
        c("rolloutThreshold"),
        c("eTag"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "FtsMetadataEntity",
            category: "apps",
            what: "the record the eBay app wrote when it last fetched its feature configuration: the app's version, the marketplace site and country, language and Android SDK it ran with (the values themselves are the server's settings, counted; fetched Unix milliseconds)",
            title: &title_of("eBay app configuration", &["appVersion"]),
            fields: &[
                ("appVersion", FactType::Text, "app version"),
                ("siteCode", FactType::Text, "site"),
                ("countryCode", FactType::Text, "country"),
                ("languageCode", FactType::Text, "language"),
                ("androidSdk", FactType::Text, "Android SDK"),
                ("environment", FactType::Text, "environment"),
                ("isGbh", FactType::Text, "global buyer hub as stored"),
                ("responseLevel", FactType::Text, "response level as stored"),
                (
                    "rolloutThreshold",
                    FactType::Text,
                    "rollout threshold as stored",
                ),
                ("eTag", FactType::Identifier, "ETag"),
                ("config_values", FactType::Count, "configuration values"),
            ],
            times: &[("timestamp", "eBay configuration fetched", unix_millis)],
        },
        &mut no_identity,
    )
}

fn share_channels(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "channelName",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "share_channels",
            category: "app_usage",
            what: "a sharing destination the eBay app recorded against a user id (what was shared is not kept; the value as stored, which held Unix milliseconds on the samples ALEAPP saw, also read as a time)",
            title: &title_of("eBay share channel", &["channelName"]),
            fields: &[
                ("channelName", FactType::Text, "channel"),
                ("value", FactType::Text, "value as stored"),
                ("id", FactType::Account, "user id"),
            ],
            times: &[(
                "value",
                "eBay share channel value (read as Unix milliseconds)",
                unix_millis,
            )],
        },
        &mut no_identity,
    )
}

/// One phenomenon per distinct user id of each column of [`USER_IDS`] the store has; the public
/// user id of `key_value` observed as the owner's `ebay:<id>`.
fn user_ids(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let parts: Vec<String> = USER_IDS
        .iter()
        .filter(|(t, c, _)| schema.get(*t).is_some_and(|cols| cols.contains(*c)))
        .map(|(t, c, form)| {
            format!(
                "SELECT '{form}' AS form, '{t}' AS src_table, '{c}' AS src_column, {c} AS user_id FROM {t} WHERE {c} IS NOT NULL AND {c} != '' AND {c} != 'global' GROUP BY {c}"
            )
        })
        .collect();
    if parts.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "SELECT form, src_table, src_column, user_id, CASE WHEN src_table = 'key_value' THEN 'ebay:' || user_id END AS qualified FROM ({}) ORDER BY src_table, user_id",
        parts.join(" UNION ALL ")
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "eBay user id {} ({})",
            crate::outputs::raw(t, row, "user_id").unwrap_or_else(|| "?".to_string()),
            t.get(row, "src_table").unwrap_or("?")
        )
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "the user-id columns",
            category: "accounts",
            what: "a user id the eBay app keyed its data by, one per distinct value of each column (its form as the column holds it; the forms are not merged; no account name or e-mail is stored)",
            title: &title,
            fields: &[
                ("user_id", FactType::Account, "user id"),
                ("form", FactType::Text, "form"),
                ("src_table", FactType::Text, "table"),
                ("src_column", FactType::Text, "column"),
                ("qualified", FactType::Account, "account"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            let Some(q) = t.get(row, "qualified") else {
                return Ok(());
            };
            observe_owner_ids(
                ctx,
                inv,
                vec![(
                    Some(q.to_string()),
                    IdType::AccountId,
                    "The eBay public user id",
                )],
                &|what| {
                    format!(
                        "{what} that keys the eBay app's state entries (key_value of {file}): the account signed in to the app on the phone, the device's user's."
                    )
                },
            )
        },
    )
}
