//! Netflix for iOS (`com.netflix.Netflix`), iLEAPP's `netflix` ("Netflix - Playback
//! Bookmarks", "Netflix - Profiles", "Netflix - Account", "Netflix - Continue Watching",
//! "Netflix - Preferences"): the app's GraphQL record cache `Library/gqlData/<profile guid>-
//! <app version>-gql<schema>.db` (Apollo's SQLite cache: `records`, one JSON object per
//! `key`), read with SQLite's JSON functions in the query (`json_valid` guarding each), and its
//! preferences:
//!
//! | records | phenomenon | fields |
//! |---|---|---|
//! | keyed `Video:<id>.bookmark` or `UnifiedEntity:Video:<id>.bookmark` | one `media` per stored playback position ("Netflix bookmark of <title> (video <id>)") | video id (from the key, in the query), the title and its type where a record of the same file has that `videoId` with a `title`, position (s) and as h:m:s (in the query), interactive progress as stored, the profile guid and app version of the file's name; last modified (ISO 8601) |
//! | `QUERY_ROOT.account.profiles.<n>` (with `….maturityRating`, `….avatar…`) | one `accounts` per profile ("Netflix profile <name>") | name, guid, current profile (the guid `QUERY_ROOT.currentProfile` holds), account owner, kids, PIN-locked, auto-start and profile-creation-locked flags, maturity level and labels, primary and secondary languages, avatar URL; created (ISO 8601) |
//! | `QUERY_ROOT.account` (with `….countryOfSignUp`, `….currentPlan.plan`) | one `accounts` ("Netflix account (GraphQL cache)") | membership status, country of sign-up, plan, profiles, can create a profile; member since (ISO 8601) |
//! | `__typename` `PinotContinueWatchingEntityTreatment` | one `media` per entry ("Netflix continue watching <shown title>") | the title shown, the video id its `unifiedEntity` reference names (in the query), the cached title and type |
//! | `Library/Preferences/com.netflix.Netflix.plist` | one `accounts` ("Netflix app preferences") | the login account (`currentLoginAccount`), the ESN (`kESN`) and proxy ESN, the client device id, the app version; the profile guids its `Message-…-<guid>` keys name |
//!
//! A bookmark is where a title's playback last stopped, not who watched it; a continue-watching
//! entry is the page the service composed for the profile when it was cached (no time). Each
//! gqlData file caches the same account for one app version: a phenomenon whose title and
//! facts another file of the container already gave is not recorded again. Flags are `true`
//! or `false` as the JSON holds them; other values as stored. A profile's `lockPin` is never
//! selected; the other stores (`Documents/brl-dedicated/brl.sqlite`, `Documents/sqlstore/
//! store.sqlite3`: encrypted, their keys in the app's preferences) are not read, nor the
//! catalogue the cache holds without a bookmark or entry, the cached stream segments and
//! subtitles (`Library/Caches/br/ch/`) and the artwork caches.
//!
//! Read only in a container known to be Netflix's ([`super::appcontainer`]: its preferences,
//! a backup's folder, FrontBoard or the container's metadata) and only files of its
//! `Library/gqlData/` named `…gql….db`; another app's file is neither read nor noted. A cache
//! without `records` (or its `key`, `record` columns) is noted, as is a cut one (by the call);
//! a record that is no JSON is passed over.
//!
//! Identities: the login account of the preferences, when an e-mail address, is the device's
//! user's (`owner`). A profile's name is a fact, not an identity (as on Android: the profiles of
//! one account are a household's).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::json;

use super::appcontainer::AppContainers;
use super::plists::parse_with;
use super::{Draft, Run, file_name};
use crate::drafts::date_text;
use crate::outputs::{Table, json_scalar, raw};

/// The app's bundle id.
const BUNDLE: &str = "com.netflix.Netflix";
const RECORDS: &str = "records";

/// The title and type of each video id of the file: the first record (by rowid) with a
/// `videoId` and a text `title`.
const TITLES: &str = "titles AS (SELECT vid, title, kind FROM (SELECT CAST(json_extract(t.j, '$.videoId') AS TEXT) AS vid, json_extract(t.j, '$.title') AS title, json_extract(t.j, '$.__typename') AS kind, row_number() OVER (PARTITION BY CAST(json_extract(t.j, '$.videoId') AS TEXT) ORDER BY t.rid) AS n FROM (SELECT rowid AS rid, CASE WHEN json_valid(record) THEN record END AS j FROM records) t WHERE json_type(t.j, '$.title') = 'text' AND json_extract(t.j, '$.videoId') IS NOT NULL) WHERE n = 1)";

/// The video id of a bookmark's key (`…Video:<id>.bookmark`).
const BOOKMARK_VID: &str =
    "substr(r.key, instr(r.key, 'Video:') + 6, length(r.key) - instr(r.key, 'Video:') - 14)";

/// The prefix of the profiles' keys and its length.
const PROFILES: &str = "QUERY_ROOT.account.profiles.";

/// The preferences' values read: (key, type, label).
const PREFS_FIELDS: [(&str, FactType, &str); 6] = [
    ("currentLoginAccount", FactType::Account, "login account"),
    ("kESN", FactType::Identifier, "ESN"),
    ("cdmAuthProxyEsn", FactType::Identifier, "proxy ESN"),
    (
        "cdxClientDeviceId",
        FactType::Identifier,
        "client device id",
    ),
    ("kFullVersion", FactType::Text, "app version"),
    ("kVersionKey", FactType::Text, "app version key"),
];

/// Triage of every Netflix container of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut apps = AppContainers::new(run, BUNDLE, "com.netflix.Netflix.plist")?;
    let mut seen: BTreeSet<String> = BTreeSet::new();
    run.each("*gql*.db", |find, path| {
        if is_gql(path)
            && let Some(how) = apps.holds(run, path)?
        {
            gql(run, find, path, &how, &mut seen)?;
        }
        Ok(())
    })?;
    run.each("com.netflix.Netflix.plist", |find, path| {
        if path.ends_with("/Library/Preferences/com.netflix.Netflix.plist")
            && let Some(how) = apps.holds(run, path)?
        {
            preferences(run, find, path, &how)?;
        }
        Ok(())
    })
}

/// Whether `path` is a GraphQL cache of a container's `Library/gqlData/`.
fn is_gql(path: &str) -> bool {
    let name = file_name(path);
    name.ends_with(".db")
        && name.contains("gql")
        && path
            .rsplit_once('/')
            .is_some_and(|(dir, _)| dir.ends_with("/Library/gqlData"))
}

/// The profile guid, app version and schema version the file's name carries
/// (`<guid>-<version>-gql<schema>.db`).
fn name_parts(name: &str) -> Option<(&str, &str, &str)> {
    let stem = name.strip_suffix(".db")?;
    let (head, schema) = stem.rsplit_once("-gql")?;
    let (guid, version) = head.split_once('-')?;
    (!guid.is_empty() && !version.is_empty()).then_some((guid, version, schema))
}

/// A JSON member of the record aliased `alias` as SQL: `true`/`false` for a JSON boolean,
/// the value as stored otherwise; NULL where the record is no JSON.
fn member(alias: &str, path: &str) -> String {
    let v = valid(alias);
    format!(
        "CASE json_type({v}, '{path}') WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE json_extract({v}, '{path}') END"
    )
}

/// A record's JSON text, NULL where it is none (so that no JSON function fails on it).
fn valid(alias: &str) -> String {
    format!("CASE WHEN json_valid({alias}.record) THEN {alias}.record END")
}

fn bookmarks_sql() -> String {
    format!(
        "WITH {TITLES} SELECT * FROM (SELECT r.rowid AS rid, r.key AS rkey, {BOOKMARK_VID} AS video_id, t.title AS title, t.kind AS kind, {} AS position, CASE WHEN json_type(r.record, '$.position') = 'integer' AND json_extract(r.record, '$.position') >= 0 THEN printf('%02d:%02d:%02d', json_extract(r.record, '$.position') / 3600, json_extract(r.record, '$.position') % 3600 / 60, json_extract(r.record, '$.position') % 60) END AS hms, {} AS interactive, {} AS modified FROM {RECORDS} r LEFT JOIN titles t ON t.vid = {BOOKMARK_VID} WHERE (r.key GLOB 'Video:*.bookmark' OR r.key GLOB '*:Video:*.bookmark') AND {BOOKMARK_VID} != '' AND {BOOKMARK_VID} NOT GLOB '*[^0-9]*' AND json_valid(r.record)) q",
        member("r", "$.position"),
        member("r", "$.interactivePlaybackProgressPercentage"),
        member("r", "$.lastModified"),
    )
}

fn profiles_sql() -> String {
    let n = PROFILES.len();
    let list = |alias: &str, path: &str| {
        format!(
            "(SELECT group_concat(j.value, ', ') FROM json_each({}, '{path}') j)",
            valid(alias)
        )
    };
    format!(
        "SELECT * FROM (SELECT r.rowid AS rid, r.key AS rkey, {} AS guid, {} AS name, {} AS created, CASE WHEN json_extract(r.record, '$.guid') = (SELECT {} FROM {RECORDS} c WHERE c.key = 'QUERY_ROOT.currentProfile' AND json_valid(c.record)) THEN 'current profile' END AS current, {} AS account_owner, {} AS kids, {} AS pin_locked, {} AS autostart, {} AS creation_locked, {} AS language, {} AS secondary, (SELECT {} FROM {RECORDS} m WHERE m.key = r.key || '.maturityRating' AND json_valid(m.record)) AS maturity_level, (SELECT group_concat(j.value, ', ') FROM {RECORDS} m, json_each({}, '$.labels') j WHERE m.key = r.key || '.maturityRating') AS maturity_labels, (SELECT {} FROM {RECORDS} a WHERE substr(a.key, 1, length(r.key) + 7) = r.key || '.avatar' AND json_type({}, '$.url') = 'text' ORDER BY a.key LIMIT 1) AS avatar FROM {RECORDS} r WHERE length(r.key) > {n} AND substr(r.key, 1, {n}) = '{PROFILES}' AND substr(r.key, {}) NOT GLOB '*[^0-9]*' AND json_valid(r.record)) q",
        member("r", "$.guid"),
        member("r", "$.name"),
        member("r", "$.createdAt"),
        member("c", "$.guid"),
        member("r", "$.isAccountOwner"),
        member("r", "$.isKids"),
        member("r", "$.isPinLocked"),
        member("r", "$.isAutoStartEnabled"),
        member("r", "$.isProfileCreationLocked"),
        member("r", "$.primaryLanguage"),
        list("r", "$.secondaryLanguages"),
        member("m", "$.level"),
        valid("m"),
        member("a", "$.url"),
        valid("a"),
        n + 1,
    )
}

fn account_sql() -> String {
    format!(
        "SELECT * FROM (SELECT r.rowid AS rid, {} AS member_since, {} AS status, {} AS can_create, CASE WHEN json_type(r.record, '$.profiles') = 'array' THEN json_array_length(r.record, '$.profiles') END AS profiles, coalesce({}, {}, {}, (SELECT coalesce({}, {}, {}) FROM {RECORDS} c WHERE c.key = 'QUERY_ROOT.account.countryOfSignUp' AND json_valid(c.record))) AS country, (SELECT coalesce({}, {}) FROM {RECORDS} p WHERE p.key = 'QUERY_ROOT.account.currentPlan.plan' AND json_valid(p.record)) AS plan FROM {RECORDS} r WHERE r.key = 'QUERY_ROOT.account' AND json_valid(r.record)) q",
        member("r", "$.memberSince"),
        member("r", "$.membershipStatus"),
        member("r", "$.canCreateUserProfile"),
        member("r", "$.countryOfSignUp.code"),
        member("r", "$.countryOfSignUp.id"),
        member("r", "$.countryOfSignUp.name"),
        member("c", "$.code"),
        member("c", "$.id"),
        member("c", "$.name"),
        member("p", "$.name"),
        member("p", "$.id"),
    )
}

/// The video id a continue-watching entry's reference names (`…Video:<id>`).
const TARGET: &str = "json_extract(CASE WHEN json_valid(r.record) THEN r.record END, '$.unifiedEntity.\"$reference\"')";

fn continue_sql() -> String {
    let vid = format!(
        "CASE WHEN instr({TARGET}, 'Video:') > 0 THEN substr({TARGET}, instr({TARGET}, 'Video:') + 6) END"
    );
    format!(
        "WITH {TITLES} SELECT * FROM (SELECT r.rowid AS rid, r.key AS rkey, {} AS display, {TARGET} AS target, {vid} AS video_id, t.title AS title, t.kind AS kind FROM {RECORDS} r LEFT JOIN titles t ON t.vid = {vid} WHERE json_valid(r.record) AND {} = 'PinotContinueWatchingEntityTreatment') q",
        member("r", "$.displayString"),
        member("r", "$.__typename"),
    )
}

/// One kind of record read: its query, and how a row becomes a phenomenon.
struct Kind {
    sql: String,
    category: &'static str,
    what: &'static str,
    title: fn(&Table, &[Option<String>]) -> String,
    fields: &'static [(&'static str, FactType, &'static str)],
    times: &'static [(&'static str, &'static str)],
    meaning: &'static str,
}

const BOOKMARK_FIELDS: [(&str, FactType, &str); 7] = [
    ("video_id", FactType::Identifier, "video id"),
    ("title", FactType::Name, "title"),
    ("kind", FactType::Text, "title type"),
    ("position", FactType::Text, "position (s)"),
    ("hms", FactType::Text, "position (h:m:s)"),
    (
        "interactive",
        FactType::Text,
        "interactive progress (as stored)",
    ),
    ("rkey", FactType::Identifier, "record"),
];

const PROFILE_FIELDS: [(&str, FactType, &str); 14] = [
    ("name", FactType::Name, "name"),
    ("guid", FactType::Identifier, "guid"),
    ("current", FactType::Text, "current"),
    ("account_owner", FactType::Text, "account owner"),
    ("kids", FactType::Text, "kids"),
    ("pin_locked", FactType::Text, "PIN-locked"),
    ("autostart", FactType::Text, "auto-start"),
    ("creation_locked", FactType::Text, "profile creation locked"),
    ("language", FactType::Text, "language"),
    ("secondary", FactType::Text, "secondary languages"),
    ("maturity_level", FactType::Text, "maturity level"),
    ("maturity_labels", FactType::Text, "maturity labels"),
    ("avatar", FactType::Url, "avatar"),
    ("rkey", FactType::Identifier, "record"),
];

const ACCOUNT_FIELDS: [(&str, FactType, &str); 5] = [
    ("status", FactType::Text, "membership status"),
    ("country", FactType::Text, "country of sign-up"),
    ("plan", FactType::Text, "plan"),
    ("profiles", FactType::Count, "profiles"),
    ("can_create", FactType::Text, "can create a profile"),
];

const CONTINUE_FIELDS: [(&str, FactType, &str); 5] = [
    ("display", FactType::Name, "title shown"),
    ("video_id", FactType::Identifier, "video id"),
    ("title", FactType::Name, "cached title"),
    ("kind", FactType::Text, "title type"),
    ("target", FactType::Identifier, "entity"),
];

fn bookmark_title(t: &Table, row: &[Option<String>]) -> String {
    let vid = raw(t, row, "video_id").unwrap_or_else(|| "?".into());
    match raw(t, row, "title").filter(|x| !x.is_empty()) {
        Some(title) => format!("Netflix bookmark of {title} (video {vid})"),
        None => format!("Netflix bookmark of video {vid}"),
    }
}

fn profile_title(t: &Table, row: &[Option<String>]) -> String {
    let name = raw(t, row, "name")
        .or_else(|| raw(t, row, "guid"))
        .unwrap_or_else(|| "without a name".into());
    format!("Netflix profile {name}")
}

fn account_title(_: &Table, _: &[Option<String>]) -> String {
    "Netflix account (GraphQL cache)".into()
}

fn continue_title(t: &Table, row: &[Option<String>]) -> String {
    let shown = raw(t, row, "display")
        .or_else(|| raw(t, row, "title"))
        .or_else(|| raw(t, row, "video_id"))
        .unwrap_or_else(|| "?".into());
    format!("Netflix continue watching {shown}")
}

fn kinds() -> [Kind; 4] {
    [
        Kind {
            sql: bookmarks_sql(),
            category: "media",
            what: "playback positions",
            title: bookmark_title,
            fields: &BOOKMARK_FIELDS,
            times: &[("modified", "Netflix playback position last saved")],
            meaning: "where playback of the title last stopped, as the app stored it for the profile; it says nothing of who watched",
        },
        Kind {
            sql: profiles_sql(),
            category: "accounts",
            what: "profiles",
            title: profile_title,
            fields: &PROFILE_FIELDS,
            times: &[("created", "Netflix profile created")],
            meaning: "a profile of the Netflix account signed in to the app (its lock PIN, if any, not read); a profile's name says whom it is meant for, not who used it",
        },
        Kind {
            sql: account_sql(),
            category: "accounts",
            what: "account records",
            title: account_title,
            fields: &ACCOUNT_FIELDS,
            times: &[("member_since", "Netflix membership started")],
            meaning: "the Netflix account signed in to the app as the service last described it",
        },
        Kind {
            sql: continue_sql(),
            category: "media",
            what: "continue-watching entries",
            title: continue_title,
            fields: &CONTINUE_FIELDS,
            times: &[],
            meaning: "an entry of the Continue Watching row the service composed for the profile, as the app cached it (no time: what the row held when cached, not a playback)",
        },
    ]
}

fn gql(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
    seen: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[RECORDS])? else {
        return Ok(());
    };
    if !schema.require(run, RECORDS, &["key", "record"])? {
        return Ok(());
    }
    let file = file_name(path);
    let parts = name_parts(file);
    let container = super::container_of(path).unwrap_or_default().to_string();
    for kind in kinds() {
        let Some(paged) = run.paged(path, &kind.sql, "rid")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let title = (kind.title)(t, row);
            let mut d = Draft::new(kind.category, title.clone());
            d.fact(FactType::Path, Some(path), find);
            let said = d.fields(t, row, inv, kind.fields);
            for (col, what) in kind.times {
                let v = t.get(row, col);
                d.time(v, date_text(v), what, inv);
            }
            // the same phenomenon from another app version's cache of the container
            let key = format!("{container}\n{title}\n{}", said.join("\n"));
            if !seen.insert(key) {
                continue;
            }
            if let Some((guid, version, _)) = parts {
                d.fact(FactType::Identifier, Some(guid), find);
                d.fact(FactType::Text, Some(version), find);
            }
            d.interpretation = format!(
                "records row {} of {file} ({how}), the Netflix app's GraphQL cache{}: {} ({}); times are ISO 8601 as stored.",
                raw(t, row, "rid").unwrap_or_else(|| "?".into()),
                parts
                    .map(|(g, v, _)| format!(" of profile {g}, app version {v} (the file's name)"))
                    .unwrap_or_default(),
                kind.meaning,
                said.join("; "),
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, &format!("Netflix {}", kind.what))?;
    }
    Ok(())
}

fn preferences(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse_with(run, path, json!({}))? else {
        return Ok(());
    };
    let Some(map) = doc.as_object() else {
        run.ctx.unparsed(
            path,
            "could not read Netflix's preferences because the plist is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut d = Draft::new("accounts", "Netflix app preferences");
    d.fact(FactType::Path, Some(path), find);
    let mut said = d.json_fields(&doc, &inv, &PREFS_FIELDS);
    // the profile guids the message keys name (`Message-<kind>-<guid>`)
    let mut guids = BTreeSet::new();
    for k in map.keys() {
        let Some(rest) = k.strip_prefix("Message-") else {
            continue;
        };
        let Some((_, guid)) = rest.split_once('-') else {
            continue;
        };
        if guid.len() >= 20
            && guid
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        {
            guids.insert(guid.to_string());
        }
    }
    for g in &guids {
        d.fact(FactType::Identifier, Some(g), &inv);
    }
    if !guids.is_empty() {
        said.push(format!(
            "profile guids of its message keys {}",
            guids.iter().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    d.interpretation = format!(
        "{} ({how}): the Netflix app's preferences ({}). The ESN is the Netflix serial number the app presents for the device; the login account is the one the app kept, not proof of a session at acquisition.",
        file_name(path),
        said.join("; "),
    );
    run.record(d)?;
    let login = json_scalar(doc.get("currentLoginAccount")).filter(|l| l.contains('@'));
    let why = |what: &str| {
        format!(
            "{what} of the Netflix account the app keeps signed in on the device ({}).",
            file_name(path)
        )
    };
    run.observe_person(
        "owner",
        "device owner",
        &inv,
        &why,
        &[(IdType::Email, login.as_deref(), "The login e-mail address")],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            name_parts("ABCDEFGHIJKLMNOPQRSTUVWX-15.40.0-gql2.db"),
            Some(("ABCDEFGHIJKLMNOPQRSTUVWX", "15.40.0", "2"))
        );
        assert_eq!(name_parts("other.db"), None);
        assert!(is_gql(
            "/private/var/mobile/Containers/Data/Application/G/Library/gqlData/A-1-gql2.db"
        ));
        assert!(!is_gql("/x/Library/Caches/A-1-gql2.db"));
        assert!(profiles_sql().contains("substr(r.key, 29) NOT GLOB"));
    }
}
