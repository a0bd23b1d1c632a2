//! Life360 for iOS (`com.life360.safetymap`), the family-locator app whose circles share their
//! members' positions, iLEAPP's `life360` ("Life360 - Locations", "Life360 - Device Battery",
//! "Life360 - Chat Messages", "Life360 - Members"):
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | the app's logs `com.life360.safetymap <date>.log` (any folder), each line holding `X-UserContext header set: <JSON>` | one `locations` per such line ("Life360 location <latitude>, <longitude>") | from `geolocation`: latitude, longitude, altitude, speed (m/s), heading, accuracy and vertical accuracy (m), age; `device.userActivity`, `geolocation_meta.lmode` (location mode), `flags.preciseLocation`, `device.battery` (%), `device.charge` (as stored: `1` charging); the fix's time (`geolocation.timestamp`, Unix seconds, or ms by its size) |
//! | `Library/Application Support/Messaging.sqlite` (Core Data) of the app's container: `ZCHATMEMBER` with `ZCHATCIRCLE` | one `accounts` for the member the store marks as the signed-in user (`ZISLOGGEDINUSER` 1: "Life360 account <name>"), one `contacts` per other member ("Life360 circle member <name>") | first, last and full name (joined in the query), e-mail, phone, member id and `life360:<member id>` (in the query), avatar URL, signed-in and admin flags as stored, the circle's name |
//! | the same: `ZCHATMESSAGE` with its sender (`ZCHATMEMBER`) and shared place (`ZCHATMESSAGELOCATION`) | one `messages` per message ("Life360 message from <sender>", "Life360 message sent by <sender> (the device's user)") | text, message id, thread, sent status as stored and as iLEAPP reads it (2 sent, 3 failed: observed, not documented), read, deleted on the device, liked, action; the sender's member id, `life360:<id>` and name; the shared place's name, latitude and longitude; sent (`ZDATE`, Cocoa seconds) |
//!
//! A log line is the header the app set on a request to its servers: the device's own
//! position and battery when the app reported them (the signed-in user's, not a circle
//! member's). Its members are read only where they are (a line without `geolocation` keeps its
//! battery); a value is a fact only as the log writes it (a number or a string the JSON printer
//! of the app wrote otherwise — `\/` in a URL — is left out). The log's own line times and its
//! other lines (requests, errors) are not read. A message's direction is its sender's
//! `ZISLOGGEDINUSER`; a member is listed once per circle row.
//!
//! `Messaging.sqlite` is read only in a container known to be Life360's
//! ([`super::appcontainer`]: a backup's folder, FrontBoard, its preferences
//! `com.life360.safetymap.plist`, or the container's metadata); another app's file of that name
//! is neither read nor noted. Columns are taken by name (older stores lack the avatar, admin,
//! sent-status, liked and action columns and the place table: NULL); a store with neither
//! `ZCHATMEMBER` nor `ZCHATMESSAGE` is noted, as is a table without `Z_PK`, a cut store (by the
//! call) and log lines whose JSON does not parse (counted, one note a file). At most
//! [`ENTRY_CAP`] log records a source.
//!
//! Identities: the signed-in member (`ZISLOGGEDINUSER` 1) is the device's user (`owner`):
//! `life360:<member id>` (the namespace of the Android reader), e-mail, phone, name; every other
//! member is the person `life360:<member id>` with theirs. Wallet addresses in a message are
//! claims by direction. The logs name no one. Not read: the app's other stores (none described
//! by iLEAPP).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::appcontainer::AppContainers;
use super::oura::cited;
use super::{Draft, ENTRY_CAP, Run, Schema, file_name};
use crate::calls::{column_expr, qualified_or_null, select_columns};
use crate::drafts::{apple_seconds, unix_by_magnitude};
use crate::outputs::raw;

/// The app's bundle id.
const BUNDLE: &str = "com.life360.safetymap";
/// Where the chat store lies in the container.
const STORE_TAIL: &str = "/Library/Application Support/Messaging.sqlite";
/// What a log line holding a record carries before its JSON.
const MARK: &str = "X-UserContext header set: ";

const MEMBER: &str = "ZCHATMEMBER";
const CIRCLE: &str = "ZCHATCIRCLE";
const MESSAGE: &str = "ZCHATMESSAGE";
const PLACE: &str = "ZCHATMESSAGELOCATION";

/// A log record's members: (JSON object, member, type, label).
const LOG_FIELDS: [(&str, &str, FactType, &str); 14] = [
    ("geolocation", "lat", FactType::Text, "latitude"),
    ("geolocation", "lon", FactType::Text, "longitude"),
    ("geolocation", "alt", FactType::Text, "altitude"),
    ("geolocation", "speed", FactType::Text, "speed (m/s)"),
    ("geolocation", "heading", FactType::Text, "heading"),
    ("geolocation", "accuracy", FactType::Text, "accuracy (m)"),
    (
        "geolocation",
        "vertical_accuracy",
        FactType::Text,
        "vertical accuracy (m)",
    ),
    ("geolocation", "age", FactType::Text, "age"),
    ("device", "userActivity", FactType::Text, "activity"),
    ("geolocation_meta", "lmode", FactType::Text, "location mode"),
    (
        "flags",
        "preciseLocation",
        FactType::Text,
        "precise location",
    ),
    ("device", "battery", FactType::Text, "battery (%)"),
    ("device", "charge", FactType::Text, "charging (as stored)"),
    ("device", "id", FactType::Identifier, "device id"),
];

/// A member's facts: (column, type, label).
const MEMBER_FIELDS: [(&str, FactType, &str); 11] = [
    ("first", FactType::Name, "first name"),
    ("last", FactType::Name, "last name"),
    ("full_name", FactType::Name, "name"),
    ("email", FactType::Email, "e-mail"),
    ("phone", FactType::Phone, "phone"),
    ("member_id", FactType::Identifier, "member id"),
    ("qualified", FactType::Account, "member"),
    ("avatar", FactType::Url, "avatar"),
    ("logged_in", FactType::Text, "ZISLOGGEDINUSER"),
    ("admin", FactType::Text, "admin (as stored)"),
    ("circle", FactType::Name, "circle"),
];

/// A message's facts: (column, type, label).
const MESSAGE_FIELDS: [(&str, FactType, &str); 16] = [
    ("text", FactType::Text, "text"),
    ("message_id", FactType::Identifier, "message id"),
    ("thread", FactType::Identifier, "thread"),
    ("sent_status", FactType::Text, "ZSENTSTATUSASINTEGER"),
    ("status", FactType::Text, "sent status (iLEAPP's reading)"),
    ("is_read", FactType::Text, "read (as stored)"),
    (
        "deleted",
        FactType::Text,
        "deleted on the device (as stored)",
    ),
    ("liked", FactType::Text, "liked (as stored)"),
    ("action", FactType::Text, "action"),
    ("sender_id", FactType::Identifier, "sender's member id"),
    ("sender_q", FactType::Account, "sender"),
    ("sender_name", FactType::Name, "sender's name"),
    ("circle", FactType::Name, "sender's circle"),
    ("place", FactType::Name, "shared place"),
    ("latitude", FactType::Text, "shared place's latitude"),
    ("longitude", FactType::Text, "shared place's longitude"),
];

/// Triage of Life360's logs and chat stores.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut recorded = 0usize;
    run.each("com.life360.safetymap *.log", |find, path| {
        log(run, find, path, &mut recorded)
    })?;
    let mut apps = AppContainers::new(run, BUNDLE, "com.life360.safetymap.plist")?;
    let Some((find, paths)) = run.find("Messaging.sqlite")? else {
        return Ok(());
    };
    for path in paths.iter().filter(|p| p.ends_with(STORE_TAIL)) {
        if let Some(how) = apps.holds(run, path)? {
            store(run, &find, path, &how)?;
        }
    }
    Ok(())
}

/// Whether `path` is one of the app's logs (`com.life360.safetymap <date>.log`).
fn is_log(path: &str) -> bool {
    let name = file_name(path);
    name.starts_with("com.life360.safetymap ") && name.ends_with(".log")
}

fn log(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    recorded: &mut usize,
) -> Result<(), RuntimeError> {
    if !is_log(path) {
        return Ok(());
    }
    let file = file_name(path);
    let mut line_no = 0usize;
    let mut bad: Vec<usize> = Vec::new();
    let mut bad_inv: Option<Invoked> = None;
    super::installlog::each_line(run, path, "Life360 location records", |inv, line| {
        line_no += 1;
        let Some((_, json)) = line.split_once(MARK) else {
            return Ok(true);
        };
        let Ok(v) = serde_json::from_str::<Value>(json.trim()) else {
            bad.push(line_no);
            bad_inv.get_or_insert_with(|| inv.clone());
            return Ok(true);
        };
        if !v.is_object() {
            bad.push(line_no);
            bad_inv.get_or_insert_with(|| inv.clone());
            return Ok(true);
        }
        if *recorded >= ENTRY_CAP as usize {
            return Ok(false);
        }
        *recorded += 1;
        record_line(run, find, inv, path, file, line_no, &v)?;
        Ok(true)
    })?;
    if !bad.is_empty() {
        let shown: Vec<String> = bad.iter().take(10).map(usize::to_string).collect();
        run.ctx.unparsed(
            path,
            &format!(
                "could not parse {} X-UserContext lines of Life360's log because their JSON does not parse (lines {}{}); the other lines were read",
                bad.len(),
                shown.join(", "),
                if bad.len() > 10 { ", …" } else { "" }
            ),
            bad_inv.as_ref().map(|i| i.record.invocation_id.as_str()),
        )?;
    }
    Ok(())
}

fn record_line(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    file: &str,
    line_no: usize,
    v: &Value,
) -> Result<(), RuntimeError> {
    let get = |obj: &str, key: &str| cited(inv, v.get(obj).and_then(|o| o.get(key)), false);
    let (lat, lon) = (get("geolocation", "lat"), get("geolocation", "lon"));
    let title = match (&lat, &lon) {
        (Some(a), Some(o)) => format!("Life360 location {a}, {o}"),
        _ => "Life360 device state (no position)".to_string(),
    };
    let mut d = Draft::new("locations", title);
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (obj, key, ft, label) in LOG_FIELDS {
        if let Some(x) = get(obj, key) {
            d.fact(ft, Some(&x), inv);
            said.push(format!("{label} {x}"));
        }
    }
    let at = get("geolocation", "timestamp");
    d.time(
        at.as_deref(),
        unix_by_magnitude(at.as_deref()),
        "Life360 location fix",
        inv,
    );
    d.interpretation = format!(
        "Line {line_no} of {file}: the X-UserContext header the Life360 app set on a request to its servers, what it reported of the device at that moment ({}){}. It is the device's own position and state (the signed-in user's), not a circle member's; the fix's time is Unix seconds (milliseconds read by size).",
        said.join("; "),
        at.as_deref()
            .map(|a| format!(", the fix taken at {a}"))
            .unwrap_or_default(),
    );
    run.record(d)
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[MEMBER, CIRCLE, MESSAGE, PLACE])? else {
        return Ok(());
    };
    let (members, messages) = (
        !schema.columns(MEMBER).is_empty(),
        !schema.columns(MESSAGE).is_empty(),
    );
    if !members && !messages {
        run.ctx.unparsed(
            path,
            "could not parse Life360's Messaging.sqlite because it has neither ZCHATMEMBER nor ZCHATMESSAGE",
            None,
        )?;
        return Ok(());
    }
    if members && schema.require(run, MEMBER, &["Z_PK"])? {
        read_members(run, find, path, how, &schema)?;
    }
    if messages && schema.require(run, MESSAGE, &["Z_PK"])? {
        read_messages(run, find, path, how, &schema)?;
    }
    Ok(())
}

/// The first and last name of the member aliased `prefix` joined (either alone when the other
/// is empty), NULL when neither is.
fn full_name(cols: &BTreeSet<String>, prefix: &str) -> String {
    format!(
        "NULLIF(trim(coalesce({}, '') || ' ' || coalesce({}, '')), '')",
        column_expr(cols, prefix, "ZFIRSTNAME"),
        column_expr(cols, prefix, "ZLASTNAME")
    )
}

/// The circle's name of the member aliased `alias`, where the tables say it.
fn circle_of(schema: &Schema, alias: &str) -> String {
    let m = schema.columns(MEMBER);
    let c = schema.columns(CIRCLE);
    if m.contains("ZCIRCLE") && c.contains("Z_PK") && c.contains("ZNAME") {
        format!("(SELECT c.ZNAME FROM {CIRCLE} c WHERE c.Z_PK = {alias}.ZCIRCLE)")
    } else {
        "NULL".into()
    }
}

fn members_sql(schema: &Schema) -> String {
    let m = schema.columns(MEMBER);
    format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, {}, {}, {} AS full_name, {} AS circle FROM {MEMBER} m) q",
        select_columns(
            &m,
            "m.",
            &[
                ("ZFIRSTNAME", "first"),
                ("ZLASTNAME", "last"),
                ("ZEMAIL", "email"),
                ("ZPHONE", "phone"),
                ("ZMEMBERID", "member_id"),
                ("ZAVATARURL", "avatar"),
                ("ZISLOGGEDINUSER", "logged_in"),
                ("ZISADMIN", "admin"),
            ],
        ),
        qualified_or_null(&m, "m.", "ZMEMBERID", "life360", "qualified"),
        full_name(&m, "m."),
        circle_of(schema, "m"),
    )
}

fn read_members(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let Some(paged) = run.paged(path, &members_sql(schema), "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let own = t.get(row, "logged_in") == Some("1");
        let shown = get("full_name")
            .or_else(|| get("email"))
            .or_else(|| get("member_id"))
            .unwrap_or_else(|| format!("row {}", get("pk").unwrap_or_default()));
        let mut d = if own {
            Draft::new("accounts", format!("Life360 account {shown}"))
        } else {
            Draft::new("contacts", format!("Life360 circle member {shown}"))
        };
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(t, row, inv, &MEMBER_FIELDS);
        d.interpretation = format!(
            "{MEMBER} Z_PK {} of {file} ({how}): {} ({}).",
            get("pk").unwrap_or_else(|| "?".into()),
            if own {
                "the Life360 member the store marks as the signed-in user (ZISLOGGEDINUSER 1), the device's user"
            } else {
                "a member of a Life360 circle the device's user belongs to; the circle shares its members' positions"
            },
            said.join("; "),
        );
        run.record(d)?;
        let Some(q) = get("qualified") else {
            continue;
        };
        let (context, label) = if own {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (q.clone(), shown.clone())
        };
        let whose = if own {
            "the Life360 account signed in on the device".to_string()
        } else {
            format!("the Life360 circle member {shown}")
        };
        let why = |what: &str| format!("{what} of {whose} ({MEMBER} of {file}).");
        let phone = get("phone").filter(|p| run.normalised(IdType::Phone, p).is_some());
        run.observe_person(
            &context,
            &label,
            inv,
            &why,
            &[
                (IdType::AccountId, Some(q.as_str()), "The Life360 member id"),
                (IdType::Email, get("email").as_deref(), "The e-mail address"),
                (IdType::Phone, phone.as_deref(), "The phone number"),
                (IdType::DisplayName, get("full_name").as_deref(), "The name"),
            ],
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Life360 members")
}

fn messages_sql(schema: &Schema) -> String {
    let x = schema.columns(MESSAGE);
    let m = schema.columns(MEMBER);
    let l = schema.columns(PLACE);
    let joined = x.contains("ZSENDER") && m.contains("Z_PK");
    let s = |col: &str, alias: &str| {
        if joined && m.contains(col) {
            format!("s.{col} AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let place = |col: &str, alias: &str| {
        if l.contains("ZMESSAGE") && l.contains(col) {
            format!(
                "(SELECT p.{col} FROM {PLACE} p WHERE p.ZMESSAGE = x.Z_PK ORDER BY p.rowid LIMIT 1) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let status = if x.contains("ZSENTSTATUSASINTEGER") {
        "CASE x.ZSENTSTATUSASINTEGER WHEN 2 THEN 'sent' WHEN 3 THEN 'failed' END AS status"
    } else {
        "NULL AS status"
    };
    let (sender_q, sender_name, circle, join) = if joined {
        (
            qualified_or_null(&m, "s.", "ZMEMBERID", "life360", "sender_q"),
            format!("{} AS sender_name", full_name(&m, "s.")),
            format!("{} AS circle", circle_of(schema, "s")),
            format!(" LEFT JOIN {MEMBER} s ON s.Z_PK = x.ZSENDER"),
        )
    } else {
        (
            "NULL AS sender_q".to_string(),
            "NULL AS sender_name".to_string(),
            "NULL AS circle".to_string(),
            String::new(),
        )
    };
    format!(
        "SELECT * FROM (SELECT x.Z_PK AS pk, {}, {status}, {}, {}, {sender_q}, {sender_name}, {circle}, {}, {}, {} FROM {MESSAGE} x{join}) q",
        select_columns(
            &x,
            "x.",
            &[
                ("ZDATE", "sent_at"),
                ("ZMESSAGETEXT", "text"),
                ("ZMESSAGEID", "message_id"),
                ("ZTHREAD", "thread"),
                ("ZSENTSTATUSASINTEGER", "sent_status"),
                ("ZISREAD", "is_read"),
                ("ZISLOCALLYDELETED", "deleted"),
                ("ZISLIKED", "liked"),
                ("ZACTION", "action"),
            ],
        ),
        s("ZMEMBERID", "sender_id"),
        s("ZISLOGGEDINUSER", "from_me"),
        place("ZNAME", "place"),
        place("ZLATITUDE", "latitude"),
        place("ZLONGITUDE", "longitude"),
    )
}

fn read_messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let Some(paged) = run.paged(path, &messages_sql(schema), "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let sent = t.get(row, "from_me") == Some("1");
        let who = get("sender_name")
            .or_else(|| get("sender_id"))
            .unwrap_or_else(|| "an unknown member".into());
        let title = if sent {
            format!("Life360 message sent by {who} (the device's user)")
        } else {
            format!("Life360 message from {who}")
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(t, row, inv, &MESSAGE_FIELDS);
        let at = t.get(row, "sent_at");
        d.message_time(at, apple_seconds(at), sent, inv);
        d.interpretation = format!(
            "{MESSAGE} Z_PK {} of {file} ({how}): a message of a Life360 circle's chat {} ({}); {}the time is Cocoa seconds.",
            get("pk").unwrap_or_else(|| "?".into()),
            if sent {
                "written by the device's user (its sender is the member marked ZISLOGGEDINUSER 1)"
            } else {
                "written by another member of the circle"
            },
            said.join("; "),
            if get("place").is_some() || get("latitude").is_some() {
                "the place is one the message shared (ZCHATMESSAGELOCATION); "
            } else {
                ""
            },
        );
        run.record(d)?;
        if let Some(text) = t.get(row, "text").filter(|x| !x.trim().is_empty()) {
            let other = get("sender_q")
                .filter(|_| !sent)
                .map(|q| (q, format!("the Life360 member {who}")));
            run.message_claims(
                inv,
                text,
                &format!("a Life360 message ({file})"),
                sent,
                other,
                "its sender is ZISLOGGEDINUSER 1",
                "its sender is another member",
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Life360 messages")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_by_name() {
        assert!(is_log(
            "/private/var/mobile/Containers/Data/Application/X/Library/Caches/Logs/com.life360.safetymap 2024-01-15--10-20-30-123.log"
        ));
        assert!(!is_log("/x/com.life360.safetymap.plist"));
        assert!(!is_log("/x/other 2024.log"));
    }
}
