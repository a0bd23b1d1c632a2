//! Withings Health Mate for iOS (`com.withings.wiScaleNG`; its container's `Library/Application
//! Support/`), iLEAPP's `WithingsHealthMate` ("Health Mate - Accounts", "Sleep Tracking", "Daily
//! Summary", "Tracked Activities", "Messages", "Measurements", "Devices"): the users of the
//! Withings account on the phone, the nights, days and workouts the watches and scales tracked
//! (with where a workout began and ended), the per-minute samples they took (steps, heart rate,
//! positions, SpO2, temperature), the messages between connected users, and the devices paired
//! with their Bluetooth addresses.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `account` (JSON, `read_json`, `userId` qualified `withings:<id>` by its `qualify`) › `account.sources[].users[]` | one `accounts` per user ("Withings user <first> <last>") | user id and `withings:<id>`, first, last and short name, e-mail; born (`birthday`, Cocoa seconds), created and modified (Unix seconds) |
//! | `coredata/*_Tracks*`: `ZTRACK` (with `ZACTIVITYSUBCATEGORY`, `ZTRACKEXTENSION`) | one `health` per track: a night ("Withings sleep from <UTC start> UTC": `ZTYPE` 36 without subcategory), a day ("Withings day summary from <UTC start> UTC": no track and no device id), an activity ("Withings activity <subcategory> from <UTC start> UTC"), else "Withings track <Z_PK>" (the kind said in the query, iLEAPP's three filters) | track and device id, type, subcategory, removed, time zone; light, REM and deep sleep, time to sleep and to get up, wake-ups and time awake; inactive, soft, moderate and intense durations, the day's steps and distance; pause, steps, distance; from the extension: intense, moderate and light durations, heart rate min/avg/max (`ZMIN`, `ZAVG`, `ZMAX`, iLEAPP's reading), speed min/avg/max, GPS distance, temperature min/avg/max; started, ended, reference, modified, manual start and end (Cocoa seconds) |
//! | the same, an activity's extension coordinates | one `locations` per activity with any ("Withings activity positions <subcategory> from <UTC start> UTC") | start, end and region-centre latitude and longitude, GPS distance, subcategory, track; started, ended |
//! | `coredata/*_HM3Timeline*`: `ZHMTIMELINEEVENT` (`ZTYPE` `HMTimelineMessageEvent`) | one `messages` per message ("Withings message from <sender>", "… to <receiver id>") | the timeline's user id, sender id and `withings:` id, sender's first, last and joined name, receiver id and `withings:` id, direction (said in the query: sent when the sender is the timeline's user), message type, text; sent (`ZDATE`), modified, expires (Cocoa seconds) |
//! | `coredata/*_vasistas*`: `ZVASISTAS` by UTC day and `ZCATEGORY` | one `health` per day and category ("Withings <kind> samples of <day>"), one `locations` per day of category 5 ("Withings GPS points of <day>") | day, category as stored and iLEAPP's name (0 steps, 2 heart rate, 5 location, 6 SpO2, 12 body temperature), samples, devices; sums of steps, distance, calories, ascent and duration; heart rate, SpO2 and temperature min, max and average (one decimal); positions: points, the first and last latitude and longitude; first and last sample (Cocoa seconds) |
//! | `coredata/associated_device.sqlite`: `ZWTDEVICE` | one `device` per device ("Withings device <address or id>") | device id, user id, Bluetooth address (as stored, and with colons when stored without), firmware, latitude, longitude, time zone, sync disabled; associated (`ZCREATED`, Unix seconds as iLEAPP reads it), last connection and last weigh-in (Cocoa seconds) |
//!
//! The per-minute samples are summarised per day (UTC) and category, never one phenomenon per
//! sample; every sample stays in the store, one `sqlite_query` away. A sample or workout
//! position is where the watch's or phone's receiver put the wearer during tracking, not
//! background tracking of the phone. Durations, distances, speeds and temperatures are as
//! stored (no unit is kept with them). The `*_Tracks*`, `*_HM3Timeline*` and `*_vasistas*`
//! stores are found by iLEAPP's name patterns (their `-wal`, `-shm` and `-journal` left to the
//! query); timeline events other than messages are not read.
//!
//! Every file is read only in a container known to be Health Mate's ([`super::appcontainer`]:
//! its preferences file `com.withings.wiScaleNG.plist`, a backup's folder, FrontBoard or the
//! container's metadata): the names `account` and `coredata/` are other apps' too. Columns are
//! taken by name (absent ones NULL); a store without its table (or `ZTRACK.Z_PK`,
//! `ZHMTIMELINEEVENT.Z_PK` and `ZTYPE`, `ZVASISTAS.ZTIMESTAMP` and `ZCATEGORY`,
//! `ZWTDEVICE.ZDEVICE_ID` and `ZMAC`) is noted, as is an account file without
//! `account.sources` or one that is no JSON (by the call). Secrets: the account file is read by
//! `read_json`, which redacts token and password values; none is recorded.
//!
//! Identities (the namespace and device contexts of the Android reader,
//! `android::withings`): the user of the account file whose e-mail it keeps — when
//! exactly one has one — is the device's user (`owner`: e-mail, `withings:<id>`, short name);
//! every other user is the person `withings:<id>`. A message's other side is the person
//! `withings:<id>` (the sender with their name; the receiver by id). Each device is the device
//! `bluetooth:<address>` (a scale or watch seized itself, or paired with a second phone, is the
//! same device).

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::appcontainer::AppContainers;
use super::{Draft, ENTRY_CAP, Run, Schema, file_name};
use crate::calls::{column_expr, require_columns, select_columns};
use crate::drafts::{apple_seconds, unix_seconds};
use crate::outputs::{json_scalar, raw};

/// The service of Withings' qualified user ids (`withings:<user id>`, as Android's reader
/// writes them).
pub(crate) const SERVICE: &str = "withings";

/// The Bluetooth address of the column `mac` upper-cased with colons when it is stored as 12
/// characters without separators, else NULL, as `mac_colons` (SQL; shared with Android).
pub(crate) fn mac_colons_sql(mac: &str) -> String {
    let colon = |i: usize| format!("substr({mac}, {}, 2)", i * 2 + 1);
    format!(
        "CASE WHEN length({mac}) = 12 AND {mac} NOT LIKE '%:%' AND {mac} NOT LIKE '%-%' THEN upper({}) END AS mac_colons",
        (0..6).map(colon).collect::<Vec<_>>().join(" || ':' || ")
    )
}

/// The entity context of a Withings device by its Bluetooth address (`bluetooth:<ADDRESS>`,
/// as the Fitbit and car readers observe theirs; shared with Android).
pub(crate) fn device_context(bt: &str) -> String {
    format!("bluetooth:{}", bt.replace('-', ":").to_ascii_uppercase())
}

/// The app's bundle id.
pub const BUNDLE: &str = "com.withings.wiScaleNG";
/// The app's preferences file.
pub const PREFS: &str = "com.withings.wiScaleNG.plist";
/// Where the account file and the Core Data stores lie in the container.
const ACCOUNT_TAIL: &str = "/Library/Application Support/account";
const CORE_DATA: &str = "/Library/Application Support/coredata/";

const TRACK: &str = "ZTRACK";
const SUBCATEGORY: &str = "ZACTIVITYSUBCATEGORY";
const EXTENSION: &str = "ZTRACKEXTENSION";
const TIMELINE: &str = "ZHMTIMELINEEVENT";
const SAMPLES: &str = "ZVASISTAS";
const DEVICE: &str = "ZWTDEVICE";

/// 2001-01-01 in Unix seconds.
const COCOA: &str = "978307200";

/// The stores, as their names read: (pattern, what).
const STORES: [(&str, Store); 4] = [
    ("*_Tracks*", Store::Tracks),
    ("*_HM3Timeline*", Store::Timeline),
    ("*_vasistas*", Store::Samples),
    ("associated_device.sqlite", Store::Devices),
];

#[derive(Clone, Copy)]
enum Store {
    Tracks,
    Timeline,
    Samples,
    Devices,
}

/// The track columns read: (column, alias).
const TRACK_COLUMNS: [(&str, &str); 28] = [
    ("ZTRACKID", "track_id"),
    ("ZDEVICEID", "device_id"),
    ("ZTYPE", "type"),
    ("ZISREMOVED", "removed"),
    ("ZTIMEZONE", "timezone"),
    ("ZLIGHTSLEEPDURATION", "light_sleep"),
    ("ZREMSLEEPDURATION", "rem_sleep"),
    ("ZDEEPSLEEPDURATION", "deep_sleep"),
    ("ZDURATIONTOSLEEP", "to_sleep"),
    ("ZTIMETOGETUP", "to_get_up"),
    ("ZWAKEUPCOUNT", "wake_ups"),
    ("ZWAKEUPDURATION", "awake"),
    ("ZDURATIONINACTIVE", "inactive"),
    ("ZDURATIONSOFT", "soft"),
    ("ZDURATIONMODERATE", "moderate"),
    ("ZDURATIONINTENSE", "intense"),
    ("ZSTEPS1", "day_steps"),
    ("ZDISTANCE1", "day_distance"),
    ("ZPAUSEDURATION", "pause"),
    ("ZSTEPS", "steps"),
    ("ZDISTANCE", "distance"),
    ("ZSTARTDATE", "started"),
    ("ZENDDATE", "ended"),
    ("ZREFERENCEDATE", "reference"),
    ("ZMODIFIEDDATE", "modified"),
    ("ZMANUALSTARTDATE", "manual_start"),
    ("ZMANUALENDDATE", "manual_end"),
    ("ZSUBCATEGORY", "subcategory_pk"),
];

/// The extension columns read: (column, alias).
const EXTENSION_COLUMNS: [(&str, &str); 19] = [
    ("ZINTENSEDURATION", "x_intense"),
    ("ZMODERATEDURATION", "x_moderate"),
    ("ZLIGHTDURATION", "x_light"),
    ("ZMIN", "hr_min"),
    ("ZAVG", "hr_avg"),
    ("ZMAX", "hr_max"),
    ("ZMINSPEED", "speed_min"),
    ("ZAVERAGESPEED", "speed_avg"),
    ("ZMAXSPEED", "speed_max"),
    ("ZDISTANCE", "gps_distance"),
    ("ZSTARTCOORDINATELATITUDE", "start_lat"),
    ("ZSTARTCOORDINATELONGITUDE", "start_lon"),
    ("ZENDCOORDINATELATITUDE", "end_lat"),
    ("ZENDCOORDINATELONGITUDE", "end_lon"),
    ("ZREGIONCENTERLATITUDE", "center_lat"),
    ("ZREGIONCENTERLONGITUDE", "center_lon"),
    ("ZMINTEMPERATURE", "temp_min"),
    ("ZAVGTEMPERATURE", "temp_avg"),
    ("ZMAXTEMPERATURE", "temp_max"),
];

/// A track's facts: (alias, type, label).
const TRACK_FIELDS: [(&str, FactType, &str); 36] = [
    ("kind", FactType::Text, "kind"),
    ("track_id", FactType::Identifier, "track id"),
    ("device_id", FactType::Identifier, "device id"),
    ("type", FactType::Text, "type (as stored)"),
    ("activity", FactType::Text, "subcategory"),
    ("removed", FactType::Text, "removed (as stored)"),
    ("timezone", FactType::Text, "time zone"),
    ("light_sleep", FactType::Text, "light sleep"),
    ("rem_sleep", FactType::Text, "REM sleep"),
    ("deep_sleep", FactType::Text, "deep sleep"),
    ("to_sleep", FactType::Text, "time to sleep"),
    ("to_get_up", FactType::Text, "time to get up"),
    ("wake_ups", FactType::Count, "wake-ups"),
    ("awake", FactType::Text, "time awake"),
    ("inactive", FactType::Text, "inactive"),
    ("soft", FactType::Text, "soft activity"),
    ("moderate", FactType::Text, "moderate activity"),
    ("intense", FactType::Text, "intense activity"),
    ("day_steps", FactType::Count, "the day's steps"),
    ("day_distance", FactType::Text, "the day's distance"),
    ("pause", FactType::Text, "pause"),
    ("steps", FactType::Count, "steps"),
    ("distance", FactType::Text, "distance"),
    ("x_intense", FactType::Text, "intense duration"),
    ("x_moderate", FactType::Text, "moderate duration"),
    ("x_light", FactType::Text, "light duration"),
    ("hr_min", FactType::Text, "heart rate min"),
    ("hr_avg", FactType::Text, "heart rate avg"),
    ("hr_max", FactType::Text, "heart rate max"),
    ("speed_min", FactType::Text, "speed min"),
    ("speed_avg", FactType::Text, "speed avg"),
    ("speed_max", FactType::Text, "speed max"),
    ("gps_distance", FactType::Text, "GPS distance"),
    ("temp_min", FactType::Text, "temperature min"),
    ("temp_avg", FactType::Text, "temperature avg"),
    ("temp_max", FactType::Text, "temperature max"),
];

/// A track's times: (alias, what).
const TRACK_TIMES: [(&str, &str); 6] = [
    ("started", "Withings track started"),
    ("ended", "Withings track ended"),
    ("reference", "Withings track reference date"),
    ("modified", "Withings track modified"),
    ("manual_start", "Withings track manual start"),
    ("manual_end", "Withings track manual end"),
];

/// Triage of every Health Mate container of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut apps = AppContainers::new(run, BUNDLE, PREFS)?;
    run.each("account", |find, path| {
        if path.ends_with(ACCOUNT_TAIL)
            && let Some(how) = apps.holds(run, path)?
        {
            account(run, find, path, &how)?;
        }
        Ok(())
    })?;
    for (glob, store) in STORES {
        let Some((find, paths)) = run.find(glob)? else {
            continue;
        };
        for path in &paths {
            let sidecar = ["-wal", "-shm", "-journal"]
                .iter()
                .any(|s| path.ends_with(s));
            let in_core_data = path
                .rsplit_once('/')
                .is_some_and(|(dir, _)| format!("{dir}/").ends_with(CORE_DATA));
            if sidecar || !in_core_data {
                continue;
            }
            let Some(how) = apps.holds(run, path)? else {
                continue;
            };
            match store {
                Store::Tracks => tracks(run, &find, path, &how)?,
                Store::Timeline => timeline(run, &find, path, &how)?,
                Store::Samples => samples(run, &find, path, &how)?,
                Store::Devices => devices(run, &find, path, &how)?,
            }
        }
    }
    Ok(())
}

/// Cocoa seconds, negative ones (before 2001: a date of birth) too; zero is no date.
fn cocoa_any(value: Option<&str>) -> Option<TimeEncoding> {
    let v: f64 = value?.trim().parse().ok()?;
    (v.is_finite() && v != 0.0).then_some(TimeEncoding::AppleSeconds)
}

/// The store's tables, `None` when it cannot be read (noted by the call) or lacks `table` (noted).
fn table_of(
    run: &Run<'_, '_>,
    path: &str,
    tables: &[&str],
    table: &str,
    needed: &[&str],
) -> Result<Option<Schema>, RuntimeError> {
    let Some(schema) = run.schema(path, tables)? else {
        return Ok(None);
    };
    let cols = schema.columns(table);
    if cols.is_empty() {
        run.ctx.unparsed(
            path,
            &format!(
                "could not parse Health Mate's {} because it has no {table} table",
                file_name(path)
            ),
            None,
        )?;
        return Ok(None);
    }
    let what = format!("Health Mate's {}", file_name(path));
    if !require_columns(run.ctx, path, &what, table, &cols, needed)? {
        return Ok(None);
    }
    Ok(Some(schema))
}

// ------------------------------------------------------------------------------- account

fn account(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "read_json",
        json!({"path": path, "qualify": {"userId": SERVICE}}),
    )?
    else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text);
    let Some(sources) = doc
        .as_ref()
        .and_then(|d| d.pointer("/account/sources"))
        .and_then(Value::as_array)
    else {
        run.ctx.unparsed(
            path,
            "could not parse Health Mate's account file because it has no account.sources list of users",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let users: Vec<&Value> = sources
        .iter()
        .filter_map(|s| s.get("users").and_then(Value::as_array))
        .flatten()
        .filter(|u| u.is_object())
        .take(ENTRY_CAP as usize)
        .collect();
    let s = |u: &Value, k: &str| json_scalar(u.get(k)).filter(|v| !v.trim().is_empty());
    let with_email = users.iter().filter(|u| s(u, "email").is_some()).count();
    let file = file_name(path);
    for u in users {
        let (first, last, short) = (s(u, "firstName"), s(u, "lastName"), s(u, "shortName"));
        let id = s(u, "userId");
        let name = [first.as_deref(), last.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let shown = Some(name.clone())
            .filter(|n| !n.is_empty())
            .or_else(|| short.clone())
            .or_else(|| id.clone())
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("accounts", format!("Withings user {shown}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.json_fields(
            u,
            &inv,
            &[
                ("userId", FactType::Identifier, "user id"),
                ("userId.qualified", FactType::Account, "user"),
                ("firstName", FactType::Name, "first name"),
                ("lastName", FactType::Name, "last name"),
                ("shortName", FactType::Name, "short name"),
                ("email", FactType::Email, "e-mail"),
            ],
        );
        let born = s(u, "birthday");
        d.time(
            born.as_deref(),
            cocoa_any(born.as_deref()),
            "Date of birth (Withings user)",
            &inv,
        );
        for (k, what) in [
            ("created", "Withings user created"),
            ("modified", "Withings user modified"),
        ] {
            let v = s(u, k);
            d.time(v.as_deref(), unix_seconds(v.as_deref()), what, &inv);
        }
        let owner = with_email == 1 && s(u, "email").is_some();
        d.interpretation = format!(
            "A user of the Withings account on the phone in {file} ({how}): {}. {} Born is Cocoa seconds (before 2001 negative); created and modified are Unix seconds.",
            said.join("; "),
            if owner {
                "The only user whose e-mail the file keeps: the account holder signed in on the device."
            } else {
                "A person measured under the account (or, among several with an e-mail, one of them), not taken for the device's user."
            },
        );
        run.record(d)?;
        let qualified = s(u, "userId.qualified");
        let email = s(u, "email");
        if owner {
            let why = |what: &str| {
                format!(
                    "{what} of the Withings user whose e-mail address the app's account file keeps, the only one ({file}): the account holder signed in on the device."
                )
            };
            run.observe_person(
                "owner",
                "device owner",
                &inv,
                &why,
                &[
                    (IdType::Email, email.as_deref(), "The e-mail address"),
                    (
                        IdType::AccountId,
                        qualified.as_deref(),
                        "The Withings user id (qualified by read_json)",
                    ),
                    (IdType::Nickname, short.as_deref(), "The short name"),
                ],
            )?;
        } else if let Some(context) = qualified.as_deref() {
            let why = |what: &str| {
                format!("{what} of {shown}, a user of the Withings account on the device ({file}).")
            };
            run.observe_person(
                context,
                &shown,
                &inv,
                &why,
                &[
                    (
                        IdType::AccountId,
                        Some(context),
                        "The Withings user id (qualified by read_json)",
                    ),
                    (IdType::Email, email.as_deref(), "The e-mail address"),
                    (IdType::Nickname, short.as_deref(), "The short name"),
                ],
            )?;
        }
    }
    Ok(())
}

// ------------------------------------------------------------------------------- tracks

fn tracks(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let Some(schema) = table_of(
        run,
        path,
        &[TRACK, SUBCATEGORY, EXTENSION],
        TRACK,
        &["Z_PK"],
    )?
    else {
        return Ok(());
    };
    let t = schema.columns(TRACK);
    let (s, x) = (schema.columns(SUBCATEGORY), schema.columns(EXTENSION));
    let c = |col: &str| column_expr(&t, "t.", col);
    let kind = format!(
        "CASE WHEN {ty} = 36 AND {sub} IS NULL THEN 'sleep' WHEN {tid} IS NULL AND {dev} IS NULL THEN 'day' WHEN {sub} IS NOT NULL THEN 'activity' ELSE 'track' END",
        ty = c("ZTYPE"),
        sub = c("ZSUBCATEGORY"),
        tid = c("ZTRACKID"),
        dev = c("ZDEVICEID"),
    );
    let (activity, sub_join) = if t.contains("ZSUBCATEGORY") && s.contains("Z_PK") {
        (
            column_expr(&s, "sc.", "ZNAME"),
            format!(" LEFT JOIN {SUBCATEGORY} sc ON sc.Z_PK = t.ZSUBCATEGORY"),
        )
    } else {
        ("NULL".to_string(), String::new())
    };
    let (ext, ext_join) = if x.contains("ZTRACK") && x.contains("Z_PK") {
        (
            select_columns(&x, "te.", &EXTENSION_COLUMNS),
            format!(
                " LEFT JOIN {EXTENSION} te ON te.Z_PK = (SELECT max(e.Z_PK) FROM {EXTENSION} e WHERE e.ZTRACK = t.Z_PK)"
            ),
        )
    } else {
        (
            EXTENSION_COLUMNS
                .iter()
                .map(|(_, a)| format!("NULL AS {a}"))
                .collect::<Vec<_>>()
                .join(", "),
            String::new(),
        )
    };
    let start = c("ZSTARTDATE");
    let sql = format!(
        "SELECT * FROM (SELECT t.Z_PK AS pk, {kind} AS kind, {activity} AS activity, strftime('%Y-%m-%d %H:%M', {start} + {COCOA}, 'unixepoch') AS start_utc, {}, {ext} FROM {TRACK} t{sub_join}{ext_join})",
        select_columns(&t, "t.", &TRACK_COLUMNS),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let kind = t.get(row, "kind").unwrap_or("track");
        let at = t
            .get(row, "start_utc")
            .map(|s| format!(" from {s} UTC"))
            .unwrap_or_else(|| format!(" (track {pk})"));
        let activity = raw(t, row, "activity");
        let title = match kind {
            "sleep" => format!("Withings sleep{at}"),
            "day" => format!("Withings day summary{at}"),
            "activity" => format!(
                "Withings activity {}{at}",
                activity.as_deref().unwrap_or("of no named subcategory")
            ),
            _ => format!("Withings track {pk}"),
        };
        let mut d = Draft::new("health", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(t, row, inv, &TRACK_FIELDS);
        d.times_of(t, row, inv, apple_seconds, &TRACK_TIMES);
        let what = match kind {
            "sleep" => {
                "a night the Withings devices tracked (ZTYPE 36 without a subcategory, iLEAPP's sleep filter)"
            }
            "day" => {
                "a day's summary of activity (no track and no device id, iLEAPP's daily-summary filter)"
            }
            "activity" => {
                "an activity tracked by a Withings device or the app (a workout of the subcategory named)"
            }
            _ => "a track of none of iLEAPP's three kinds",
        };
        d.interpretation = format!(
            "{TRACK} Z_PK {pk} of {file} ({how}): {what} ({}). Durations, distances, speeds and temperatures are as stored; heart rate min/avg/max are ZMIN, ZAVG, ZMAX of its extension as iLEAPP reads them; times are Cocoa seconds (the title's start shown in UTC).",
            said.join("; "),
        );
        run.record(d)?;
        let placed = ["start_lat", "end_lat", "center_lat"]
            .iter()
            .any(|c| t.get(row, c).is_some());
        if kind != "activity" || !placed {
            continue;
        }
        let mut d = Draft::new(
            "locations",
            format!(
                "Withings activity positions {}{at}",
                activity.as_deref().unwrap_or("of no named subcategory")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("activity", FactType::Text, "subcategory"),
                ("track_id", FactType::Identifier, "track id"),
                ("start_lat", FactType::Text, "start latitude"),
                ("start_lon", FactType::Text, "start longitude"),
                ("end_lat", FactType::Text, "end latitude"),
                ("end_lon", FactType::Text, "end longitude"),
                ("center_lat", FactType::Text, "region centre latitude"),
                ("center_lon", FactType::Text, "region centre longitude"),
                ("gps_distance", FactType::Text, "GPS distance"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("started", "Withings activity started"),
                ("ended", "Withings activity ended"),
            ],
        );
        d.interpretation = format!(
            "The positions {EXTENSION} keeps for the activity {TRACK} Z_PK {pk} of {file} ({how}): {}. Where the GPS of the watch or the phone placed the wearer when the activity began and ended, and the centre of the region it covered — positions recorded during tracking, not background tracking; times are Cocoa seconds.",
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Withings tracks")
}

// ------------------------------------------------------------------------------- timeline

fn timeline(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let Some(schema) = table_of(run, path, &[TIMELINE], TIMELINE, &["Z_PK", "ZTYPE"])? else {
        return Ok(());
    };
    let e = schema.columns(TIMELINE);
    let c = |col: &str| column_expr(&e, "e.", col);
    let q = |col: &str, alias: &str| crate::calls::qualified_or_null(&e, "e.", col, SERVICE, alias);
    let sql = format!(
        "SELECT * FROM (SELECT e.Z_PK AS pk, {}, trim(coalesce({}, '') || ' ' || coalesce({}, '')) AS sender_name, {}, {}, CASE WHEN {s} IS NOT NULL AND {s} = {u} THEN 'sent' WHEN {r} IS NOT NULL AND {r} = {u} THEN 'received' END AS direction FROM {TIMELINE} e WHERE e.ZTYPE = 'HMTimelineMessageEvent')",
        select_columns(
            &e,
            "e.",
            &[
                ("ZUSERID", "user_id"),
                ("ZSENDERID", "sender_id"),
                ("ZSENDERFIRSTNAME", "sender_first"),
                ("ZSENDERLASTNAME", "sender_last"),
                ("ZRECEIVERID", "receiver_id"),
                ("ZTYPEMESSAGE", "message_type"),
                ("ZMESSAGE2", "text"),
                ("ZDATE", "date"),
                ("ZWSMODIFIEDDATE", "modified"),
                ("ZEXPIRATIONDATE", "expires"),
            ],
        ),
        c("ZSENDERFIRSTNAME"),
        c("ZSENDERLASTNAME"),
        q("ZSENDERID", "sender"),
        q("ZRECEIVERID", "receiver"),
        s = c("ZSENDERID"),
        r = c("ZRECEIVERID"),
        u = c("ZUSERID"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let direction = t.get(row, "direction");
        let sent = direction == Some("sent");
        let sender_name = raw(t, row, "sender_name").filter(|n| !n.is_empty());
        let sender = sender_name
            .clone()
            .or_else(|| raw(t, row, "sender_id"))
            .unwrap_or_else(|| "an unknown sender".into());
        let title = if sent {
            format!(
                "Withings message to {}",
                raw(t, row, "receiver_id").unwrap_or_else(|| "an unknown receiver".into())
            )
        } else {
            format!("Withings message from {sender}")
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("user_id", FactType::Identifier, "the timeline's user id"),
                ("sender_id", FactType::Identifier, "sender id"),
                ("sender", FactType::Account, "sender"),
                ("sender_first", FactType::Name, "sender's first name"),
                ("sender_last", FactType::Name, "sender's last name"),
                ("sender_name", FactType::Name, "sender's name"),
                ("receiver_id", FactType::Identifier, "receiver id"),
                ("receiver", FactType::Account, "receiver"),
                ("direction", FactType::Text, "direction"),
                ("message_type", FactType::Text, "message type"),
                ("text", FactType::Text, "text"),
            ],
        );
        let date = t.get(row, "date");
        d.message_time(date, apple_seconds(date), sent, inv);
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("modified", "Withings message modified"),
                ("expires", "Withings message expires"),
            ],
        );
        d.interpretation = format!(
            "{TIMELINE} Z_PK {pk} of {file} ({how}): a message between users connected in Health Mate ({}); {}. Times are Cocoa seconds.",
            said.join("; "),
            match direction {
                Some("sent") => "sent by the user whose timeline it is (the sender is ZUSERID)",
                Some(_) => "received by the user whose timeline it is (the receiver is ZUSERID)",
                None => "neither side is the timeline's user (ZUSERID): its direction is not known",
            },
        );
        run.record(d)?;
        // the other side, a person of their own
        let (context, label, name) = match direction {
            Some("sent") => (t.get(row, "receiver"), raw(t, row, "receiver_id"), None),
            Some(_) => (
                t.get(row, "sender"),
                Some(sender.clone()),
                sender_name.clone(),
            ),
            None => (None, None, None),
        };
        if let (Some(context), Some(label)) = (context, label) {
            let why = |what: &str| {
                format!(
                    "{what} of {label}, with whom the Health Mate user exchanged a message ({file})."
                )
            };
            run.observe_person(
                context,
                &label,
                inv,
                &why,
                &[
                    (IdType::AccountId, Some(context), "The Withings user id"),
                    (IdType::DisplayName, name.as_deref(), "The name"),
                ],
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Withings messages")
}

// ------------------------------------------------------------------------------- samples

fn samples(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let Some(schema) = table_of(run, path, &[SAMPLES], SAMPLES, &["ZTIMESTAMP", "ZCATEGORY"])?
    else {
        return Ok(());
    };
    let v = schema.columns(SAMPLES);
    let c = |col: &str| column_expr(&v, "", col);
    let day = format!("date(ZTIMESTAMP + {COCOA}, 'unixepoch')");
    let stats = |col: &str, alias: &str| {
        let x = c(col);
        format!(
            "min({x}) AS {alias}_min, max({x}) AS {alias}_max, round(avg({x}), 1) AS {alias}_avg"
        )
    };
    let located = v.contains("ZLATITUDE") && v.contains("ZLONGITUDE");
    // the first and last position of each day and category: the row of the least and of the
    // greatest time among those with a position (SQLite takes a bare column from the row of
    // the one min() or max() of a grouped query)
    let (positions, joins) = if located {
        let end = |agg: &str, alias: &str| {
            format!(
                " LEFT JOIN (SELECT {day} AS day, ZCATEGORY AS category, {agg}(ZTIMESTAMP) AS at, ZLATITUDE AS lat, ZLONGITUDE AS lon FROM {SAMPLES} WHERE ZTIMESTAMP IS NOT NULL AND ZLATITUDE IS NOT NULL AND ZLONGITUDE IS NOT NULL GROUP BY 1, 2) {alias} ON {alias}.day = g.day AND {alias}.category = g.category"
            )
        };
        (
            "f.lat AS first_lat, f.lon AS first_lon, l.lat AS last_lat, l.lon AS last_lon",
            format!("{}{}", end("min", "f"), end("max", "l")),
        )
    } else {
        (
            "NULL AS first_lat, NULL AS first_lon, NULL AS last_lat, NULL AS last_lon",
            String::new(),
        )
    };
    let points = if located {
        "nullif(sum(CASE WHEN ZLATITUDE IS NOT NULL AND ZLONGITUDE IS NOT NULL THEN 1 ELSE 0 END), 0)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT * FROM (SELECT row_number() OVER (ORDER BY g.day, g.category) AS rid, g.*, CASE g.category WHEN 0 THEN 'steps' WHEN 2 THEN 'heart rate' WHEN 5 THEN 'location' WHEN 6 THEN 'SpO2' WHEN 12 THEN 'body temperature' END AS category_said, {positions} FROM (SELECT {day} AS day, ZCATEGORY AS category, count(*) AS samples, group_concat(DISTINCT {}) AS devices, sum({}) AS steps, sum({}) AS distance, sum({}) AS calories, sum({}) AS ascent, sum({}) AS duration, {}, {}, {}, {points} AS points, min(ZTIMESTAMP) AS first_time, max(ZTIMESTAMP) AS last_time FROM {SAMPLES} WHERE ZTIMESTAMP IS NOT NULL GROUP BY 1, 2) g{joins})",
        c("ZDEVICEID"),
        c("ZSTEPS"),
        c("ZDISTANCE"),
        c("ZCALORIESEARNED"),
        c("ZASCENT1"),
        c("ZDURATION"),
        stats("ZHEARTRATE1", "hr"),
        stats("ZSPO2", "spo2"),
        stats("ZTEMPERATURE", "temp"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let day = raw(t, row, "day").unwrap_or_else(|| "?".into());
        let category = raw(t, row, "category").unwrap_or_else(|| "?".into());
        let located = category == "5";
        let kind = raw(t, row, "category_said").unwrap_or_else(|| format!("category {category}"));
        let mut d = if located {
            Draft::new("locations", format!("Withings GPS points of {day}"))
        } else {
            Draft::new("health", format!("Withings {kind} samples of {day}"))
        };
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("day", FactType::Text, "day (UTC)"),
                ("category", FactType::Text, "category (as stored)"),
                ("category_said", FactType::Text, "category"),
                ("samples", FactType::Count, "samples"),
                ("devices", FactType::Identifier, "devices"),
                ("points", FactType::Count, "samples with a position"),
                ("steps", FactType::Count, "steps"),
                ("distance", FactType::Text, "distance"),
                ("calories", FactType::Text, "calories"),
                ("ascent", FactType::Text, "ascent"),
                ("duration", FactType::Text, "duration"),
                ("hr_min", FactType::Text, "heart rate min"),
                ("hr_max", FactType::Text, "heart rate max"),
                ("hr_avg", FactType::Text, "heart rate average"),
                ("spo2_min", FactType::Text, "SpO2 min"),
                ("spo2_max", FactType::Text, "SpO2 max"),
                ("spo2_avg", FactType::Text, "SpO2 average"),
                ("temp_min", FactType::Text, "temperature min"),
                ("temp_max", FactType::Text, "temperature max"),
                ("temp_avg", FactType::Text, "temperature average"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("first_time", "First Withings sample of the day"),
                ("last_time", "Last Withings sample of the day"),
            ],
        );
        d.interpretation = format!(
            "The samples of {SAMPLES} in {file} ({how}) of category {category} ({kind}, iLEAPP's name) taken on {day} (UTC), summarised in the query: {}. The watch's or scale's per-minute readings{}; sums and averages (one decimal) are over the day's samples, values as stored; the first and last sample are Cocoa seconds; every sample stays in the store.",
            said.join("; "),
            if located {
                ": positions the GPS recorded during tracking, the first and last by time, not background tracking of the phone"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Withings sample days")
}

// ------------------------------------------------------------------------------- devices

fn devices(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let Some(schema) = table_of(run, path, &[DEVICE], DEVICE, &["ZDEVICE_ID", "ZMAC"])? else {
        return Ok(());
    };
    let w = schema.columns(DEVICE);
    let sql = format!(
        "SELECT * FROM (SELECT rowid AS rid, ZDEVICE_ID AS device_id, ZMAC AS mac, {}, {} FROM {DEVICE})",
        mac_colons_sql("ZMAC"),
        select_columns(
            &w,
            "",
            &[
                ("ZUSERID", "user_id"),
                ("ZFIRMWARE", "firmware"),
                ("ZLATITUDE", "latitude"),
                ("ZLONGITUDE", "longitude"),
                ("ZTIMEZONE", "timezone"),
                ("ZISSYNCDISABLED", "sync_disabled"),
                ("ZCREATED", "associated"),
                ("ZLAST_CONNECTION", "last_connection"),
                ("ZLAST_WEIGHIN", "last_weighin"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let bt = raw(t, row, "mac_colons").or_else(|| raw(t, row, "mac"));
        let shown = bt
            .clone()
            .or_else(|| raw(t, row, "device_id"))
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("device", format!("Withings device {shown}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("device_id", FactType::Identifier, "device id"),
                ("user_id", FactType::Identifier, "user id"),
                ("mac", FactType::Identifier, "Bluetooth address"),
                (
                    "mac_colons",
                    FactType::Identifier,
                    "Bluetooth address (with colons)",
                ),
                ("firmware", FactType::Text, "firmware"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("timezone", FactType::Text, "time zone"),
                ("sync_disabled", FactType::Text, "sync disabled (as stored)"),
            ],
        );
        let associated = t.get(row, "associated");
        d.time(
            associated,
            unix_seconds(associated),
            "Withings device associated",
            inv,
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("last_connection", "Withings device last connected"),
                ("last_weighin", "Withings device last weigh-in"),
            ],
        );
        d.interpretation = format!(
            "{DEVICE} of {file} ({how}): a Withings scale, watch or monitor associated with the account on the phone ({}); the position is the one recorded for the device (where it was set up), not the phone's. Associated is ZCREATED read as Unix seconds (iLEAPP's reading), last connection and last weigh-in Cocoa seconds.",
            said.join("; "),
        );
        run.record(d)?;
        if let Some(bt) = bt {
            let label = format!("Withings device {bt}");
            run.observe(
                &device_context(&bt),
                EntityKind::Device,
                &label,
                IdType::BluetoothAddress,
                &bt,
                inv,
                format!(
                    "{file} lists the Withings device {label} associated with the account on the phone, Bluetooth address {bt}."
                ),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Withings devices")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn birthdays_before_2001_are_times() {
        assert_eq!(
            cocoa_any(Some("-283996800.0")),
            Some(TimeEncoding::AppleSeconds)
        );
        assert_eq!(cocoa_any(Some("0")), None);
        assert_eq!(cocoa_any(None), None);
    }
}
