//! CapCut (`com.lemon.lvoverseas`), ALEAPP's `capCut` (`capcut_app_sessions`, `capcut_device`):
//! what the video editor logged while it ran — its sessions, the screens shown in each and the
//! events ByteDance's AppLog SDK queued for upload, with the signed-in user's id — and the
//! device and install ids ByteDance's SDKs keep for the app on the phone.
//!
//! | store: table or file | phenomenon | fields |
//! |---|---|---|
//! | `databases/ss_app_log.db`: `session` (with `event`, `page`) | one `app_usage` per session ("CapCut session <UUID>") | session id and UUID, duration and non-page as stored, app version and version code, pause time as stored, the events that name it (count), the pages shown in it (names, in the order written); started, first and last event (Unix ms) |
//! | `databases/ss_app_log.db`: `event` (with `session`) | one `app_usage` per event ("CapCut event <tag> (<label>)") | event id, category, tag, label, value and extra value as stored, the event's JSON parameters (`ext_json`, as stored), the user id (0: no account signed in), the session id and its UUID, event index; when (Unix ms) |
//! | `shared_prefs/applog_stats.xml`, `common_config.xml`, `byte_sync_settings.xml`, `applog_monitor.xml`, `appsflyer-data.xml`, `com.ss.android.deviceregister.utils.*.xml` | one `device` per file holding a key read ("CapCut preferences <file>") | ByteDance device id, install id, OpenUDID, client UDID (`applog_stats.xml`); device and install id (`common_config.xml`); device id (`byte_sync_settings.xml`); the Android id AppsFlyer cached (`appsflyer-data.xml`); candidate device id `cdid` (each `deviceregister` file); install recorded (`monitor_install_time3`, Unix ms) |
//!
//! An event is what the app handed the SDK to upload: its tag and parameters name what was done
//! in the app (a launch, a sign-in, an export) as the app labels it, and some are the SDK's own
//! bookkeeping; an event says the app was running on the phone at its time, not by itself that a
//! person touched the screen then. A session's duration and pause time are written as stored
//! (their unit is not stated by the store). The device, install and candidate ids are
//! ByteDance's ids of this install on this phone (the same id in another extraction is the same
//! install), not an account; each preferences file is its own phenomenon, so ids that differ
//! between files (ALEAPP saw two different `cdid` values) stay side by side. The SDK's upload
//! `queue` (its payloads), `mon_log` and `misc_log` are not read. Columns are taken by name
//! (absent ones NULL: older releases lack `user_id`, `ext_json`, `event_index` and the `page`
//! table); a store with neither `event` nor `session`, a table without the columns read, and a
//! preferences file holding no `<map>` are noted, the rest is read.
//!
//! Identities: the user id the SDK recorded on an event, when not 0, is the account signed in to
//! CapCut on the phone: observed as the owner's `capcut:<user id>` (qualified in the query). The
//! device, install, candidate and Android ids stay facts.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, Schema};
use crate::calls::{column_or_null, require_columns};
use crate::drafts::{Draft, RowPhenomena, no_identity, record_draft, title_of, unix_millis};
use crate::identity::{artefact_name, observe_owner_ids, schema_on};
use crate::outputs::raw;

/// The app's AppLog store.
pub const STORE: &str = "ss_app_log.db";

/// The preferences files read by their full name (ALEAPP's).
pub const PREFS: [&str; 5] = [
    "applog_stats.xml",
    "common_config.xml",
    "byte_sync_settings.xml",
    "applog_monitor.xml",
    "appsflyer-data.xml",
];

/// The name every device-register preferences file begins with (`….<suffix>.xml`).
pub const REGISTER: &str = "com.ss.android.deviceregister.utils";

/// The glob of the device-register preferences files (for `ARTEFACTS` and the dispatch).
pub const REGISTER_GLOB: &str = "com.ss.android.deviceregister.utils*.xml";

/// The package's data folder, as it appears in a path.
const PACKAGE: &str = "/com.lemon.lvoverseas/";

/// `(file, key, fact type, label)` of each preference read; `file` is [`REGISTER`] for the
/// device-register files.
const KEYS: &[(&str, &str, FactType, &str)] = &[
    (
        "applog_stats.xml",
        "device_id",
        FactType::Identifier,
        "ByteDance device id",
    ),
    (
        "applog_stats.xml",
        "install_id",
        FactType::Identifier,
        "install id",
    ),
    (
        "applog_stats.xml",
        "openudid",
        FactType::Identifier,
        "OpenUDID",
    ),
    (
        "applog_stats.xml",
        "clientudid",
        FactType::Identifier,
        "client UDID",
    ),
    (
        "common_config.xml",
        "key_device_id",
        FactType::Identifier,
        "ByteDance device id",
    ),
    (
        "common_config.xml",
        "key_install_id",
        FactType::Identifier,
        "install id",
    ),
    (
        "byte_sync_settings.xml",
        "device_id",
        FactType::Identifier,
        "ByteDance device id",
    ),
    (
        "appsflyer-data.xml",
        "androidIdCached",
        FactType::Identifier,
        "Android id as AppsFlyer cached it",
    ),
    (
        REGISTER,
        "cdid",
        FactType::Identifier,
        "candidate device id (cdid)",
    ),
];

/// `(file, key, what happened)` of each time read (Unix milliseconds).
const TIMES: &[(&str, &str, &str)] = &[(
    "applog_monitor.xml",
    "monitor_install_time3",
    "CapCut install recorded",
)];

/// Whether `name` is one of the preferences files read.
fn is_prefs_name(name: &str) -> bool {
    PREFS.contains(&name) || (name.starts_with(REGISTER) && name.ends_with(".xml"))
}

/// Whether `name` is the name of a file read (any app's: see [`is_path`]).
pub fn is_name(name: &str) -> bool {
    name == STORE || is_prefs_name(name)
}

/// Whether `path` is one of CapCut's files read (for `categorise`): the names are ByteDance's
/// and AppsFlyer's SDKs', which other apps (TikTok among them) write too.
pub fn is_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    (name == STORE && path.contains(&format!("{PACKAGE}databases/")))
        || (is_prefs_name(name) && path.contains(&format!("{PACKAGE}shared_prefs/")))
}

/// Whether `l` is CapCut's AppLog store.
pub fn is_store(l: &Located) -> bool {
    l.name() == STORE && l.path.contains(&format!("{PACKAGE}databases/"))
}

/// Whether `l` is one of CapCut's preferences files read.
pub fn is_prefs(l: &Located) -> bool {
    is_prefs_name(l.name()) && l.path.contains(&format!("{PACKAGE}shared_prefs/"))
}

/// One file: the store or a preferences file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if is_store(l) {
        store(ctx, l)
    } else {
        prefs(ctx, l)
    }
}

/// `ss_app_log.db`: its sessions, then its events.
fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if !schema.contains_key("event") && !schema.contains_key("session") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not CapCut's ss_app_log.db: neither event nor session",
            None,
        )?;
        return Ok(());
    }
    sessions(ctx, l, &schema)?;
    events(ctx, l, &schema)
}

/// One phenomenon per `session` row, with the events that name it counted and bounded in time
/// and the pages shown in it listed (in the query).
fn sessions(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("session") else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "CapCut's ss_app_log.db",
        "session",
        cols,
        &["_id", "timestamp"],
    )? {
        return Ok(());
    }
    let of_session = schema
        .get("event")
        .is_some_and(|c| c.contains("session_id") && c.contains("timestamp"));
    let (count, first, last) = if of_session {
        (
            "(SELECT count(*) FROM event e WHERE e.session_id = s._id)",
            "(SELECT min(e.timestamp) FROM event e WHERE e.session_id = s._id)",
            "(SELECT max(e.timestamp) FROM event e WHERE e.session_id = s._id)",
        )
    } else {
        ("NULL", "NULL", "NULL")
    };
    let pages = if schema
        .get("page")
        .is_some_and(|c| c.contains("name") && c.contains("session_id"))
    {
        "(SELECT group_concat(name, ', ') FROM (SELECT p.name AS name FROM page p WHERE p.session_id = s._id ORDER BY p.rowid))"
    } else {
        "NULL"
    };
    let c = |col: &str, alias: &str| column_or_null(cols, "s.", col, alias);
    let sql = format!(
        "SELECT s.rowid AS rid, s._id AS session_id, {}, s.timestamp AS started, {}, {}, {}, {}, {}, {count} AS events, {first} AS first_event, {last} AS last_event, {pages} AS pages FROM session s ORDER BY s.rowid",
        c("value", "uuid"),
        c("duration", "duration"),
        c("non_page", "non_page"),
        c("app_version", "app_version"),
        c("version_code", "version_code"),
        c("pausetime", "pausetime"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "session",
            category: "app_usage",
            what: "a session of the CapCut app as ByteDance's AppLog SDK recorded it (duration, non-page and pause time as stored, their unit not stated; events and pages are those of the store naming this session; times Unix milliseconds)",
            title: &title_of("CapCut session", &["uuid", "session_id"]),
            fields: &[
                ("session_id", FactType::Identifier, "session id"),
                ("uuid", FactType::Identifier, "session UUID"),
                ("duration", FactType::Text, "duration as stored"),
                ("non_page", FactType::Text, "non-page as stored"),
                ("app_version", FactType::Text, "app version"),
                ("version_code", FactType::Text, "version code"),
                ("pausetime", FactType::Text, "pause time as stored"),
                ("events", FactType::Count, "events"),
                ("pages", FactType::Text, "pages shown"),
            ],
            times: &[
                ("started", "CapCut session started", unix_millis),
                (
                    "first_event",
                    "First CapCut event of the session",
                    unix_millis,
                ),
                (
                    "last_event",
                    "Last CapCut event of the session",
                    unix_millis,
                ),
            ],
        },
        &mut no_identity,
    )
}

/// One phenomenon per `event` row, with its session's UUID; the signed-in user's id observed
/// once per value as the owner's.
fn events(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("event") else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "CapCut's ss_app_log.db",
        "event",
        cols,
        &["tag", "timestamp"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(cols, "e.", col, col);
    // the user id qualified in the query (0 or none: no account signed in)
    let user = if cols.contains("user_id") {
        "CASE WHEN e.user_id IS NOT NULL AND e.user_id != '' AND CAST(e.user_id AS INTEGER) != 0 THEN 'capcut:' || e.user_id END AS user_q"
    } else {
        "NULL AS user_q"
    };
    let (uuid, join) = if cols.contains("session_id")
        && schema
            .get("session")
            .is_some_and(|s| s.contains("_id") && s.contains("value"))
    {
        (
            "s.value AS session_uuid",
            " LEFT JOIN session s ON s._id = e.session_id",
        )
    } else {
        ("NULL AS session_uuid", "")
    };
    let sql = format!(
        "SELECT e.rowid AS rid, {}, e.tag AS tag, {}, {}, {}, {}, {}, {}, e.timestamp AS timestamp, {}, {}, {uuid}, {user} FROM event e{join} ORDER BY e.rowid",
        c("_id"),
        c("category"),
        c("label"),
        c("value"),
        c("ext_value"),
        c("ext_json"),
        c("user_id"),
        c("session_id"),
        c("event_index"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        let tag = raw(t, row, "tag").unwrap_or_else(|| "?".to_string());
        match raw(t, row, "label") {
            Some(label) => format!("CapCut event {tag} ({label})"),
            None => format!("CapCut event {tag}"),
        }
    };
    let file = l.name().to_string();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "event",
            category: "app_usage",
            what: "an event the CapCut app handed ByteDance's AppLog SDK to upload (tag and parameters as the app names them; some are the SDK's own bookkeeping; value and extra value as stored; user id 0 is no account signed in; when Unix milliseconds)",
            title: &title,
            fields: &[
                ("_id", FactType::Identifier, "event id"),
                ("category", FactType::Text, "category"),
                ("tag", FactType::Text, "tag"),
                ("label", FactType::Text, "label"),
                ("value", FactType::Text, "value as stored"),
                ("ext_value", FactType::Text, "extra value as stored"),
                ("ext_json", FactType::Text, "parameters"),
                ("user_id", FactType::Account, "user id"),
                ("user_q", FactType::Account, "account"),
                ("session_id", FactType::Identifier, "session id"),
                ("session_uuid", FactType::Identifier, "session UUID"),
                ("event_index", FactType::Text, "event index"),
            ],
            times: &[("timestamp", "CapCut event logged", unix_millis)],
        },
        &mut |inv, t, row| {
            let Some(q) = t.get(row, "user_q") else {
                return Ok(());
            };
            if !seen.insert(q.to_string()) {
                return Ok(());
            }
            observe_owner_ids(
                ctx,
                inv,
                vec![(Some(q.to_string()), IdType::AccountId, "The CapCut user id")],
                &|what| {
                    format!(
                        "{what} ByteDance's AppLog SDK recorded on the events CapCut logged on the device (event of {file}): the account signed in to the app on the phone, the device's user's."
                    )
                },
            )
        },
    )
}

/// The key of `name` in [`KEYS`] and [`TIMES`]: the device-register files share one.
fn file_key(name: &str) -> &str {
    if name.starts_with(REGISTER) {
        REGISTER
    } else {
        name
    }
}

/// One preferences file: a `device` phenomenon with the keys read that it holds (none when it
/// holds none); a file holding no `<map>` is noted.
fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    if entries.is_empty() && !inv.output.text.contains("<map") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse CapCut's preferences because they hold no <map> of preferences",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let file = l.name().to_string();
    let key = file_key(&file);
    let get = |k: &str| -> Option<String> {
        entries
            .iter()
            .find(|(n, _)| n.as_str() == k)
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let keys: Vec<(&str, FactType, &str)> = KEYS
        .iter()
        .filter(|(f, ..)| *f == key)
        .map(|&(_, k, t, label)| (k, t, label))
        .collect();
    let times: Vec<(&str, &str)> = TIMES
        .iter()
        .filter(|(f, ..)| *f == key)
        .map(|&(_, k, what)| (k, what))
        .collect();
    if !keys.iter().any(|&(k, ..)| get(k).is_some())
        && !times.iter().any(|&(k, _)| get(k).is_some())
    {
        return Ok(());
    }
    let mut d = Draft::new("device", format!("CapCut preferences {file}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for &(k, t, label) in &keys {
        if let Some(v) = get(k) {
            d.fact(t, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for &(k, what) in &times {
        let v = get(k);
        d.time(v.as_deref(), unix_millis(v.as_deref()), what, &inv);
        if let Some(v) = v {
            said.push(format!("{k} {v}"));
        }
    }
    d.interpretation = format!(
        "{file} of CapCut's shared preferences ({}): the ids ByteDance's and AppsFlyer's SDKs keep for the app's install on the phone — {}. They name this install of the app, not an account; times Unix milliseconds.",
        l.path,
        said.join(", ")
    );
    record_draft(ctx, d)
}
