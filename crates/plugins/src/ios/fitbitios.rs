//! Fitbit for iOS (`Containers/Data/Application/<id>/Documents/fitbit.sqlite`, the app's Core
//! Data store), iLEAPP's `fitbitIOS` ("Fitbit - Exercise Sessions", "Exercise Locations", "Heart
//! Rate", "Daily Activity Stats"), and the users table Forensic Explorer's Fitbit script reads:
//! what the wearer did, where and when, the trackers and apps that recorded it, and the Fitbit
//! users the app keeps.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZFBACTIVITYLOG` | one `health` per session ("Fitbit activity <name> (log <id>)") | name, log id and type, active and overall duration (seconds), distance, steps, calories, average heart rate, elevation gain, speed, active and active-zone minutes, has GPS and in progress (as stored), the source's name, type and id, how many GPS points its location groups hold; started (`ZSTARTTIME`), last modified (`ZLASTMODIFIED`) |
//! | `ZFBLOCATION` ⋈ `ZFBLOCATIONGROUP` ⋈ `ZFBACTIVITYLOG` | one `locations` per location group ("Fitbit GPS route of <name> (log <id>)", "… of location group <n>", "Fitbit GPS points of no location group") | points, how many flagged interpolated, the first and last point's latitude and longitude (by time), the session's name and log id; first and last point's time |
//! | `ZFBACTIVITYLOG` by `ZSOURCEID` | one `device` per source ("Fitbit activity source <name> (<id>)") | source id, name, type (as stored: a tracker, or the app itself), sessions; first and last session's start |
//! | `ZMANAGEDHEARTRATE` by day | one `health` per day ("Fitbit heart rate on <day>") | samples, lowest, highest and average value, resolutions (as stored); first and last sample |
//! | `ZFBACTIVITYSTAT2` | one `health` per day ("Fitbit day totals from <UTC start>") | steps, distance, floors, calories, very and fairly active minutes, deflated (as stored); the day (`ZDAY`) |
//! | `ZFBUSER` | one `accounts` per user ("Fitbit user <display name>") | encoded id, display, first and last name, avatar, gender |
//!
//! The app keeps `ZSTARTTIME`, `ZTIMESTAMP` and `ZDAY` as an 8-byte big-endian IEEE 754 double
//! of Cocoa seconds in a BLOB (iLEAPP's reading); a store keeping a number instead (Forensic
//! Explorer's script reads `ZSTARTTIME` as one) is read as stored. The queries decode
//! them (`decoding`: sign, exponent and mantissa from the BLOB's `hex()`, the exact double
//! as a real; a number as stored), so each time is a value of the output. A decoded value that is
//! zero, negative (before 2001) or past 2100 (iLEAPP's plausible window; the app's marker of no
//! date) is a fact but no time, said. `ZLASTMODIFIED` is read the same way (a number in the
//! stores iLEAPP describes). Heart-rate times are ISO text without a zone (as the app wrote
//! them). Distance and speed are as stored: the store's unit system code maps to no unit in it.
//!
//! Summaries, never one phenomenon per point or sample: a route is its location group's points
//! summarised in the query (count, the first and last by time with their positions), a day's
//! heart rate its samples' count, range and average; each point and sample stays in the store,
//! one `sqlite_query` away. A point is a GPS position the app recorded for an exercise (from the
//! phone's or the tracker's receiver: the store does not say which), not background tracking.
//! A session's source is the tracker (or the app on the phone) that recorded it, named by the
//! service's device id; no public description of the store names a Bluetooth address or serial
//! in it, so no device identity is observed.
//!
//! Columns are taken by name (absent ones NULL: iOS 13–15 stores lack `ZSOURCENAME` and
//! `ZMANAGEDHEARTRATE`, as iLEAPP notes); a table lacking the columns a phenomenon needs is
//! noted (`unexpected schema`), the other tables still read; a store with none of the tables
//! (another app's `fitbit.sqlite`) is noted, as is one that does not open (by the call).
//!
//! Identities: each `ZFBUSER` row is the Fitbit user `fitbit:<encoded id>` (the Android reader's
//! namespace: the same account on both platforms is one person) with its display name. Which
//! row is the signed-in account, and whether the app keeps other users (friends) in the table,
//! no public description of the store says: no row is made the device's user.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, Run, file_name};
use crate::calls::{column_or_null, qualified_or_null, select_columns};
use crate::drafts::{apple_seconds, date_text};
use crate::outputs::raw;

const LOG: &str = "ZFBACTIVITYLOG";
const GROUP: &str = "ZFBLOCATIONGROUP";
const POINT: &str = "ZFBLOCATION";
const HEART: &str = "ZMANAGEDHEARTRATE";
const DAY: &str = "ZFBACTIVITYSTAT2";
const USER: &str = "ZFBUSER";
const TABLES: [&str; 6] = [LOG, GROUP, POINT, HEART, DAY, USER];

/// 2100-01-01 in Cocoa seconds: past it a decoded date is the app's marker of none (iLEAPP's
/// plausible window).
const LATEST: &str = "3124137600";

/// The hex digits, in order: `instr` of one in them is its value plus one.
const HEX: &str = "0123456789ABCDEF";
/// The 52 mantissa bits of a double.
const MANTISSA: &str = "4503599627370495";
/// 2⁵², the mantissa's implicit leading bit.
const ONE: &str = "4503599627370496";

/// The session columns read: (column, alias).
const SESSION: [(&str, &str); 18] = [
    ("ZNAME", "name"),
    ("ZLOGID", "log_id"),
    ("ZLOGTYPE", "log_type"),
    ("ZDURATIONACTIVE", "duration_active"),
    ("ZDURATIONOVERALL", "duration"),
    ("ZDISTANCE", "distance"),
    ("ZSTEPS", "steps"),
    ("ZCALORIES", "calories"),
    ("ZAVERAGEHEARTRATE", "heart_rate"),
    ("ZELEVATIONGAIN", "elevation_gain"),
    ("ZSPEED", "speed"),
    ("ZACTIVEMINUTES", "active_minutes"),
    ("ZAZMTOTALMINUTES", "zone_minutes"),
    ("ZHASGPS", "has_gps"),
    ("ZINPROGRESS", "in_progress"),
    ("ZSOURCENAME", "source_name"),
    ("ZSOURCETYPE", "source_type"),
    ("ZSOURCEID", "source_id"),
];

/// The day-total columns read.
const TOTALS: [(&str, &str); 7] = [
    ("ZSTEPS", "steps"),
    ("ZDISTANCE", "distance"),
    ("ZFLOORS", "floors"),
    ("ZCALORIES", "calories"),
    ("ZMINUTESVERYACTIVE", "very_active"),
    ("ZMINUTESFAIRLYACTIVE", "fairly_active"),
    ("ZISDEFLATED", "deflated"),
];

/// The user columns read.
const USERS: [(&str, &str); 6] = [
    ("ZENCODEDID", "encoded_id"),
    ("ZDISPLAYNAME", "display_name"),
    ("ZFIRSTNAME", "first_name"),
    ("ZLASTNAME", "last_name"),
    ("ZAVATAR", "avatar"),
    ("ZGENDER", "gender"),
];

/// Triage of every Fitbit store of the source (in an app container's `Documents/`).
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("fitbit.sqlite")? else {
        return Ok(());
    };
    for path in paths
        .iter()
        .filter(|p| p.ends_with("/Documents/fitbit.sqlite"))
    {
        run.ctx.artefact(path, || store(run, &find, path))?;
    }
    Ok(())
}

/// The Cocoa-seconds encoding of a decoded date when it is one: positive and before 2100.
fn plausible(v: Option<&str>) -> Option<TimeEncoding> {
    let x: f64 = v?.trim().parse().ok()?;
    (x < 3_124_137_600.0).then(|| apple_seconds(v)).flatten()
}

/// A decoded date of `d`: its time `what` when plausible, else the value as a fact (zero, before
/// 2001, or the app's far-future marker: kept, said in the interpretation).
fn date(d: &mut Draft, v: Option<&str>, what: &str, inv: &Invoked) {
    match plausible(v) {
        Some(enc) => d.time(v, Some(enc), what, inv),
        None => d.fact(FactType::Text, v, inv),
    };
}

/// The 64-bit integer of the 8-byte BLOB `col` read big-endian, as SQL: byte `i` from the hex
/// digits `2i+1` and `2i+2` of `hex(col)`, shifted by `56 - 8i` (SQLite's 64-bit shift sets the
/// sign bit from the first byte, as the double's is). Each term is parenthesised: `<<` and `|`
/// bind alike in SQLite.
fn be_bits(col: &str) -> String {
    (0..8)
        .map(|i| {
            format!(
                "(((instr('{HEX}', substr(hex({col}), {}, 1)) - 1) * 16 + instr('{HEX}', substr(hex({col}), {}, 1)) - 1) << {})",
                2 * i + 1,
                2 * i + 2,
                56 - 8 * i
            )
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The innermost level of a double `alias` read from `col` (`None`: the store lacks it): its
/// bits when an 8-byte BLOB, its value when a number.
fn double_inner(col: Option<&str>, alias: &str) -> String {
    match col {
        Some(c) => format!(
            "CASE WHEN typeof({c}) = 'blob' AND length({c}) = 8 THEN {} END AS {alias}_bits, CASE WHEN typeof({c}) IN ('integer', 'real') THEN {c} END AS {alias}_num",
            be_bits(c)
        ),
        None => format!("NULL AS {alias}_bits, NULL AS {alias}_num"),
    }
}

/// The middle level: the exponent and mantissa of the bits.
fn double_middle(alias: &str) -> String {
    format!("(({alias}_bits >> 52) & 2047) AS {alias}_e, ({alias}_bits & {MANTISSA}) AS {alias}_m")
}

/// The outer level: the IEEE 754 double of the bits as a real — exact, the mantissa with its
/// leading bit scaled by a power of two —, 0.0 for zero; NULL for infinities, NaN, subnormals
/// and magnitudes past 2¹¹⁴ or below 2⁻⁷¹ (no date); the number as stored when no BLOB.
fn double_outer(alias: &str) -> String {
    let (b, e, m) = (
        format!("{alias}_bits"),
        format!("{alias}_e"),
        format!("{alias}_m"),
    );
    format!(
        "coalesce(CASE WHEN {b} IS NULL THEN NULL WHEN {e} = 0 AND {m} = 0 THEN 0.0 \
WHEN {e} = 0 OR {e} = 2047 THEN NULL \
ELSE (CASE WHEN {b} < 0 THEN -1.0 ELSE 1.0 END) * (CASE \
WHEN {e} >= 1075 AND {e} - 1075 <= 62 THEN ({m} | {ONE}) * 1.0 * (1 << ({e} - 1075)) \
WHEN {e} >= 1075 THEN NULL \
WHEN 1075 - {e} <= 62 THEN ({m} | {ONE}) * 1.0 / (1 << (1075 - {e})) \
WHEN 1075 - {e} <= 124 THEN ({m} | {ONE}) * 1.0 / (1 << 62) / (1 << (1075 - {e} - 62)) END) END, \
{alias}_num) AS {alias}"
    )
}

/// A query of `from` reading `cols` (each `expr AS alias`) and the `doubles` ((column, alias):
/// a big-endian double in a BLOB or a number; `None` when absent) in three nested selects —
/// the columns and each double's bits, then its exponent and mantissa, then the double —,
/// giving the aliases `out` (the paging key first) and the doubles.
fn decoding(cols: &[String], from: &str, doubles: &[(Option<&str>, &str)], out: &[&str]) -> String {
    let outer: Vec<String> = out
        .iter()
        .map(|a| a.to_string())
        .chain(doubles.iter().map(|(_, a)| double_outer(a)))
        .collect();
    let middle: Vec<String> = doubles.iter().map(|(_, a)| double_middle(a)).collect();
    let inner: Vec<String> = cols
        .iter()
        .cloned()
        .chain(doubles.iter().map(|(c, a)| double_inner(*c, a)))
        .collect();
    format!(
        "SELECT {} FROM (SELECT *, {} FROM (SELECT {} FROM {from}))",
        outer.join(", "),
        middle.join(", "),
        inner.join(", ")
    )
}

/// `prefix.col` when `cols` has it.
fn present<'a>(cols: &BTreeSet<String>, col: &str, qualified: &'a str) -> Option<&'a str> {
    cols.contains(col).then_some(qualified)
}

/// Whether the points link to sessions through their groups.
fn linked(points: &BTreeSet<String>, groups: &BTreeSet<String>) -> bool {
    points.contains("ZLOCATIONGROUP") && groups.contains("ZACTIVITYLOG")
}

/// The sessions: every column of [`SESSION`], the GPS points of their groups, the start (and how
/// it is stored) and last modified decoded.
fn sessions_sql(
    log: &BTreeSet<String>,
    points: &BTreeSet<String>,
    groups: &BTreeSet<String>,
) -> String {
    let mut cols = vec!["a.Z_PK AS pk".to_string()];
    cols.push(select_columns(log, "a.", &SESSION));
    cols.push(if linked(points, groups) {
        format!(
            "(SELECT count(*) FROM {POINT} l JOIN {GROUP} g ON g.Z_PK = l.ZLOCATIONGROUP WHERE g.ZACTIVITYLOG = a.Z_PK) AS gps_points"
        )
    } else {
        "NULL AS gps_points".to_string()
    });
    cols.push(if log.contains("ZSTARTTIME") {
        "typeof(a.ZSTARTTIME) AS start_stored".to_string()
    } else {
        "NULL AS start_stored".to_string()
    });
    let mut out = vec!["pk"];
    out.extend(SESSION.iter().map(|(_, a)| *a));
    out.extend(["gps_points", "start_stored"]);
    decoding(
        &cols,
        &format!("{LOG} a"),
        &[
            (present(log, "ZSTARTTIME", "a.ZSTARTTIME"), "started"),
            (present(log, "ZLASTMODIFIED", "a.ZLASTMODIFIED"), "modified"),
        ],
        &out,
    )
}

/// The sources of the sessions, one row each: name and type (the greatest stored, where
/// several), sessions, the first and last plausible start.
fn sources_sql(log: &BTreeSet<String>) -> String {
    let inner = decoding(
        &[
            "a.Z_PK AS pk".to_string(),
            "a.ZSOURCEID AS source_id".to_string(),
            column_or_null(log, "a.", "ZSOURCENAME", "source_name"),
            column_or_null(log, "a.", "ZSOURCETYPE", "source_type"),
        ],
        &format!("{LOG} a"),
        &[(present(log, "ZSTARTTIME", "a.ZSTARTTIME"), "started")],
        &["pk", "source_id", "source_name", "source_type"],
    );
    format!(
        "SELECT * FROM (SELECT min(pk) AS pk, source_id, max(source_name) AS name, max(source_type) AS source_type, count(*) AS sessions, \
min(CASE WHEN started > 0 AND started < {LATEST} THEN started END) AS first_session, \
max(CASE WHEN started > 0 AND started < {LATEST} THEN started END) AS last_session \
FROM ({inner}) WHERE source_id IS NOT NULL AND source_id != '' GROUP BY source_id)"
    )
}

/// The routes: each location group's points (the points of none as group -1) summarised — how
/// many, how many flagged interpolated, the first and last by time (then key) with their
/// positions — with the session the group belongs to.
fn routes_sql(
    points: &BTreeSet<String>,
    groups: &BTreeSet<String>,
    log: &BTreeSet<String>,
) -> String {
    let group = if points.contains("ZLOCATIONGROUP") {
        "coalesce(l.ZLOCATIONGROUP, -1) AS grp"
    } else {
        "-1 AS grp"
    };
    let interp = if points.contains("ZINTERPOLATED") {
        "CASE WHEN l.ZINTERPOLATED IS NOT NULL AND l.ZINTERPOLATED != 0 THEN 1 ELSE 0 END AS interp"
    } else {
        "NULL AS interp"
    };
    let pts = decoding(
        &[
            "l.Z_PK AS pk".to_string(),
            group.to_string(),
            "l.ZLATITUDE AS lat".to_string(),
            "l.ZLONGITUDE AS lon".to_string(),
            interp.to_string(),
        ],
        &format!("{POINT} l"),
        &[(Some("l.ZTIMESTAMP"), "t")],
        &["pk", "grp", "lat", "lon", "interp"],
    );
    let ranked = "SELECT grp, lat, lon, t, interp, \
row_number() OVER (PARTITION BY grp ORDER BY t IS NULL, t, pk) AS nf, \
row_number() OVER (PARTITION BY grp ORDER BY t IS NULL, t DESC, pk DESC) AS nl FROM pts";
    let route = "SELECT grp, count(*) AS points, sum(interp) AS interpolated, \
max(CASE WHEN nf = 1 THEN t END) AS first_time, max(CASE WHEN nf = 1 THEN lat END) AS first_lat, \
max(CASE WHEN nf = 1 THEN lon END) AS first_lon, max(CASE WHEN nl = 1 THEN t END) AS last_time, \
max(CASE WHEN nl = 1 THEN lat END) AS last_lat, max(CASE WHEN nl = 1 THEN lon END) AS last_lon \
FROM ranked GROUP BY grp";
    let (session, join) = if linked(points, groups) && !log.is_empty() {
        (
            format!(
                "a.Z_PK AS activity_pk, {} AS activity, {} AS log_id",
                present(log, "ZNAME", "a.ZNAME").unwrap_or("NULL"),
                present(log, "ZLOGID", "a.ZLOGID").unwrap_or("NULL")
            ),
            format!(
                " LEFT JOIN {GROUP} g ON g.Z_PK = r.grp LEFT JOIN {LOG} a ON a.Z_PK = g.ZACTIVITYLOG"
            ),
        )
    } else {
        (
            "NULL AS activity_pk, NULL AS activity, NULL AS log_id".to_string(),
            String::new(),
        )
    };
    format!(
        "WITH pts AS ({pts}), ranked AS ({ranked}), route AS ({route}) SELECT * FROM (SELECT r.grp AS grp, \
r.points AS points, r.interpolated AS interpolated, r.first_time AS first_time, r.first_lat AS first_lat, \
r.first_lon AS first_lon, r.last_time AS last_time, r.last_lat AS last_lat, r.last_lon AS last_lon, \
{session} FROM route r{join})"
    )
}

/// The heart-rate samples of each day (the first ten characters of their ISO text).
fn heart_sql(heart: &BTreeSet<String>) -> String {
    let resolutions = if heart.contains("ZRESOLUTION") {
        "group_concat(DISTINCT ZRESOLUTION) AS resolutions"
    } else {
        "NULL AS resolutions"
    };
    format!(
        "SELECT * FROM (SELECT min(Z_PK) AS pk, substr(ZDATETIME, 1, 10) AS day, count(*) AS samples, \
min(ZVALUE) AS lowest, max(ZVALUE) AS highest, round(avg(ZVALUE), 1) AS average, \
min(ZDATETIME) AS first_sample, max(ZDATETIME) AS last_sample, {resolutions} \
FROM {HEART} GROUP BY substr(ZDATETIME, 1, 10))"
    )
}

/// The day totals with the day decoded and, when plausible, its start in UTC text (the title's).
fn days_sql(day: &BTreeSet<String>) -> String {
    let mut cols = vec!["Z_PK AS pk".to_string()];
    cols.push(select_columns(day, "", &TOTALS));
    let mut out = vec!["pk"];
    out.extend(TOTALS.iter().map(|(_, a)| *a));
    let d = decoding(&cols, DAY, &[(Some("ZDAY"), "day")], &out);
    format!(
        "SELECT *, CASE WHEN day > 0 AND day < {LATEST} THEN datetime(978307200 + day, 'unixepoch') END AS day_utc FROM ({d})"
    )
}

/// The users, each encoded id also qualified (`fitbit:<id>`) for its identity.
fn users_sql(user: &BTreeSet<String>) -> String {
    format!(
        "SELECT Z_PK AS pk, {}, {} FROM {USER}",
        select_columns(user, "", &USERS),
        qualified_or_null(user, "", "ZENCODEDID", "fitbit", "qualified")
    )
}

/// One store: each of the tables it has read (a table lacking what its phenomena need noted); a
/// store with none of them noted.
fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &TABLES)? else {
        return Ok(());
    };
    let cols = |t: &str| schema.columns(t);
    if TABLES.iter().all(|t| schema.columns(t).is_empty()) {
        run.ctx.unparsed(
            path,
            &format!(
                "unexpected schema: the database has none of the Fitbit tables ({})",
                TABLES.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let (log, groups, points) = (cols(LOG), cols(GROUP), cols(POINT));
    let s = Store { run, find, path };
    if !log.is_empty() && schema.require(run, LOG, &["ZSTARTTIME", "ZNAME"])? {
        s.sessions(&sessions_sql(&log, &points, &groups))?;
        if log.contains("ZSOURCEID") {
            s.sources(&sources_sql(&log))?;
        }
    }
    if !points.is_empty()
        && schema.require(run, POINT, &["ZTIMESTAMP", "ZLATITUDE", "ZLONGITUDE"])?
    {
        s.routes(&routes_sql(&points, &groups, &log))?;
    }
    let heart = cols(HEART);
    if !heart.is_empty() && schema.require(run, HEART, &["ZDATETIME", "ZVALUE"])? {
        s.heart(&heart_sql(&heart))?;
    }
    let day = cols(DAY);
    if !day.is_empty() && schema.require(run, DAY, &["ZDAY"])? {
        s.days(&days_sql(&day))?;
    }
    let user = cols(USER);
    if !user.is_empty() && schema.require(run, USER, &["ZENCODEDID"])? {
        s.users(&users_sql(&user))?;
    }
    Ok(())
}

/// One store being read.
struct Store<'a, 'r, 'c, 's> {
    run: &'r Run<'c, 's>,
    find: &'a Invoked,
    path: &'a str,
}

impl Store<'_, '_, '_, '_> {
    fn file(&self) -> &str {
        file_name(self.path)
    }

    /// A decoded date as said in an interpretation: the value and whether it is a time.
    fn said_date(v: Option<&str>, what: &str) -> String {
        match (v, plausible(v)) {
            (Some(v), Some(_)) => format!("{what} {v}"),
            (Some(v), None) => format!(
                "{what} {v} (no time: zero, before 2001, or past 2100, the app's marker of none)"
            ),
            (None, _) => format!("{what} not kept"),
        }
    }

    fn sessions(&self, sql: &str) -> Result<(), RuntimeError> {
        let Some(paged) = self.run.paged(self.path, sql, "pk")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let name = raw(t, row, "name").unwrap_or_else(|| "?".into());
            let pk = t.get(row, "pk").unwrap_or("?");
            let log = raw(t, row, "log_id")
                .map(|l| format!("log {l}"))
                .unwrap_or_else(|| format!("Z_PK {pk}"));
            let mut d = Draft::new("health", format!("Fitbit activity {name} ({log})"));
            d.fact(FactType::Path, Some(self.path), self.find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("name", FactType::Text, "name"),
                    ("log_id", FactType::Identifier, "log id"),
                    ("log_type", FactType::Text, "log type"),
                    ("duration_active", FactType::Text, "active duration (s)"),
                    ("duration", FactType::Text, "overall duration (s)"),
                    ("distance", FactType::Text, "distance (as stored)"),
                    ("steps", FactType::Count, "steps"),
                    ("calories", FactType::Count, "calories"),
                    ("heart_rate", FactType::Text, "average heart rate"),
                    (
                        "elevation_gain",
                        FactType::Text,
                        "elevation gain (as stored)",
                    ),
                    ("speed", FactType::Text, "speed (as stored)"),
                    ("active_minutes", FactType::Count, "active minutes"),
                    ("zone_minutes", FactType::Count, "active-zone minutes"),
                    ("has_gps", FactType::Text, "has GPS (as stored)"),
                    ("in_progress", FactType::Text, "in progress (as stored)"),
                    ("source_name", FactType::Name, "source"),
                    ("source_type", FactType::Text, "source type"),
                    ("source_id", FactType::Identifier, "source id"),
                    ("gps_points", FactType::Count, "GPS points"),
                ],
            );
            let (started, modified) = (t.get(row, "started"), t.get(row, "modified"));
            date(&mut d, started, "Fitbit activity started", inv);
            date(&mut d, modified, "Fitbit activity last modified", inv);
            let stored = match t.get(row, "start_stored") {
                Some("blob") => {
                    "an 8-byte big-endian double of Cocoa seconds in a BLOB, decoded in the query"
                }
                Some("real") | Some("integer") => {
                    "Cocoa seconds stored as a number (an older store)"
                }
                _ => "not kept",
            };
            d.interpretation = format!(
                "{LOG} Z_PK {pk} of {}: an exercise session the Fitbit app logged ({}); {} (ZSTARTTIME: {stored}); {}. The source is the tracker, or the app on the phone, that recorded the session; distance, elevation and speed are as stored (the store's unit system code maps to no unit in it); the GPS points, where any, are summarised in their route's phenomenon.",
                self.file(),
                said.join(", "),
                Self::said_date(started, "started"),
                Self::said_date(modified, "last modified (ZLASTMODIFIED, Cocoa seconds)"),
            );
            self.run.record(d)?;
        }
        crate::calls::note_pages_cap(self.run.ctx, self.path, &paged, "Fitbit sessions")
    }

    fn sources(&self, sql: &str) -> Result<(), RuntimeError> {
        let Some(paged) = self.run.paged(self.path, sql, "pk")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let Some(id) = raw(t, row, "source_id") else {
                continue;
            };
            let name = raw(t, row, "name");
            let mut d = Draft::new(
                "device",
                match &name {
                    Some(n) => format!("Fitbit activity source {n} ({id})"),
                    None => format!("Fitbit activity source {id}"),
                },
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("source_id", FactType::Identifier, "source id"),
                    ("name", FactType::Name, "name"),
                    ("source_type", FactType::Text, "type"),
                    ("sessions", FactType::Count, "sessions"),
                ],
            );
            let (first, last) = (t.get(row, "first_session"), t.get(row, "last_session"));
            date(
                &mut d,
                first,
                "Fitbit activity source's first session started",
                inv,
            );
            date(
                &mut d,
                last,
                "Fitbit activity source's last session started",
                inv,
            );
            d.interpretation = format!(
                "The source of Fitbit sessions in {LOG} of {} (grouped by ZSOURCEID in the query): {}; a tracker (type as stored), or the Fitbit app itself for sessions recorded on the phone. The id is the Fitbit service's device id, not a Bluetooth address (none is known in the store): no device identity is observed; the name, where several were stored, is the greatest; the first and last session's start are Cocoa seconds decoded in the query, only the plausible ones (after 2001, before 2100).",
                self.file(),
                said.join(", "),
            );
            self.run.record(d)?;
        }
        crate::calls::note_pages_cap(self.run.ctx, self.path, &paged, "Fitbit activity sources")
    }

    fn routes(&self, sql: &str) -> Result<(), RuntimeError> {
        let Some(paged) = self.run.paged(self.path, sql, "grp")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let grp = t.get(row, "grp").unwrap_or("?");
            let activity = raw(t, row, "activity");
            let log = raw(t, row, "log_id");
            let title = match (grp, &activity) {
                ("-1", _) => "Fitbit GPS points of no location group".to_string(),
                (_, Some(a)) => format!(
                    "Fitbit GPS route of {a} ({})",
                    log.as_ref()
                        .map(|l| format!("log {l}"))
                        .unwrap_or_else(|| format!("location group {grp}"))
                ),
                _ => format!("Fitbit GPS route of location group {grp}"),
            };
            let mut d = Draft::new("locations", title);
            d.fact(FactType::Path, Some(self.path), self.find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("points", FactType::Count, "points"),
                    ("interpolated", FactType::Count, "flagged interpolated"),
                    ("first_lat", FactType::Text, "first latitude"),
                    ("first_lon", FactType::Text, "first longitude"),
                    ("last_lat", FactType::Text, "last latitude"),
                    ("last_lon", FactType::Text, "last longitude"),
                    ("activity", FactType::Text, "session"),
                    ("log_id", FactType::Identifier, "log id"),
                ],
            );
            let (first, last) = (t.get(row, "first_time"), t.get(row, "last_time"));
            date(&mut d, first, "Fitbit GPS route's first point", inv);
            date(&mut d, last, "Fitbit GPS route's last point", inv);
            let whose = match (grp, t.get(row, "activity_pk")) {
                ("-1", _) => "points that name no location group".to_string(),
                (_, Some(a)) => format!("location group {grp}, of the session {LOG} Z_PK {a}"),
                _ => format!("location group {grp}, which names no session the store keeps"),
            };
            d.interpretation = format!(
                "The GPS points of {POINT} in {} of {whose}, summarised in the query: {}; {}, {}. The first and last point are by time (ZTIMESTAMP, an 8-byte big-endian double of Cocoa seconds decoded in the query); interpolated is the flag the point carries (as stored: a position the app filled in is not one observed). These are positions the app recorded for an exercise (from the phone's or the tracker's receiver: the store does not say which), not background tracking; every point stays in the store.",
                self.file(),
                said.join(", "),
                Self::said_date(first, "first point at"),
                Self::said_date(last, "last point at"),
            );
            self.run.record(d)?;
        }
        crate::calls::note_pages_cap(self.run.ctx, self.path, &paged, "Fitbit location groups")
    }

    fn heart(&self, sql: &str) -> Result<(), RuntimeError> {
        let Some(paged) = self.run.paged(self.path, sql, "pk")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let day = raw(t, row, "day").unwrap_or_else(|| "?".into());
            let mut d = Draft::new("health", format!("Fitbit heart rate on {day}"));
            d.fact(FactType::Path, Some(self.path), self.find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("day", FactType::Text, "day"),
                    ("samples", FactType::Count, "samples"),
                    ("lowest", FactType::Text, "lowest"),
                    ("highest", FactType::Text, "highest"),
                    ("average", FactType::Text, "average"),
                    ("resolutions", FactType::Text, "resolution (as stored)"),
                ],
            );
            for (col, what) in [
                (
                    "first_sample",
                    "Fitbit heart rate's first sample of the day",
                ),
                ("last_sample", "Fitbit heart rate's last sample of the day"),
            ] {
                let v = t.get(row, col);
                d.time(v, date_text(v), what, inv);
            }
            d.interpretation = format!(
                "The heart-rate samples of {HEART} in {} dated {day}, summarised in the query (grouped by the first ten characters of ZDATETIME, averaged to one decimal): {}; the first and last sample's times are the app's ISO text, without a zone (as written). A sample is the tracker's reading of its wearer, not a position of the phone; every sample stays in the store.",
                self.file(),
                said.join(", "),
            );
            self.run.record(d)?;
        }
        crate::calls::note_pages_cap(self.run.ctx, self.path, &paged, "Fitbit heart-rate days")
    }

    fn days(&self, sql: &str) -> Result<(), RuntimeError> {
        let Some(paged) = self.run.paged(self.path, sql, "pk")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let pk = t.get(row, "pk").unwrap_or("?");
            let mut d = Draft::new(
                "health",
                match t.get(row, "day_utc") {
                    Some(u) => format!("Fitbit day totals from {u} UTC"),
                    None => format!("Fitbit day totals ({DAY} Z_PK {pk})"),
                },
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("steps", FactType::Count, "steps"),
                    ("distance", FactType::Text, "distance (as stored)"),
                    ("floors", FactType::Count, "floors"),
                    ("calories", FactType::Count, "calories"),
                    ("very_active", FactType::Count, "very active minutes"),
                    ("fairly_active", FactType::Count, "fairly active minutes"),
                    ("deflated", FactType::Text, "deflated (as stored)"),
                ],
            );
            let day = t.get(row, "day");
            date(&mut d, day, "Fitbit day began", inv);
            d.interpretation = format!(
                "{DAY} Z_PK {pk} of {}: the day's totals as the Fitbit service computed them for the wearer ({}); {} (ZDAY, decoded in the query; the day's start as an absolute time, shown in UTC in the title). Distance is as stored (no unit is kept with it).",
                self.file(),
                said.join(", "),
                Self::said_date(day, "the day began at"),
            );
            self.run.record(d)?;
        }
        crate::calls::note_pages_cap(self.run.ctx, self.path, &paged, "Fitbit day totals")
    }

    fn users(&self, sql: &str) -> Result<(), RuntimeError> {
        let Some(paged) = self.run.paged(self.path, sql, "pk")? else {
            return Ok(());
        };
        let file = self.file();
        for (inv, t, row) in paged.rows() {
            let id = raw(t, row, "encoded_id");
            let display = raw(t, row, "display_name");
            let Some(label) = display.clone().or_else(|| id.clone()) else {
                continue;
            };
            let mut d = Draft::new("accounts", format!("Fitbit user {label}"));
            d.fact(FactType::Path, Some(self.path), self.find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("encoded_id", FactType::Account, "encoded id"),
                    ("display_name", FactType::Name, "display name"),
                    ("first_name", FactType::Name, "first name"),
                    ("last_name", FactType::Name, "last name"),
                    ("avatar", FactType::Url, "avatar"),
                    ("gender", FactType::Text, "gender"),
                ],
            );
            d.interpretation = format!(
                "{USER} Z_PK {} of {file}: a Fitbit user the app keeps ({}). Whether it is the account signed in or another user the app shows (a friend) the store does not say.",
                t.get(row, "pk").unwrap_or("?"),
                said.join(", "),
            );
            self.run.record(d)?;
            let (Some(context), Some(id)) = (t.get(row, "qualified"), id) else {
                continue;
            };
            let why =
                |what: &str| format!("{what} of the Fitbit user {id}, kept by the app ({file}).");
            let ids: Vec<(IdType, Option<&str>, &str)> = vec![
                (IdType::AccountId, Some(context), "The Fitbit user id"),
                (IdType::DisplayName, display.as_deref(), "The display name"),
            ];
            self.run.observe_person(context, &label, inv, &why, &ids)?;
        }
        crate::calls::note_pages_cap(self.run.ctx, self.path, &paged, "Fitbit users")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cols: &[&str]) -> BTreeSet<String> {
        cols.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn decoding_reads_each_byte_in_order_and_absent_columns_as_null() {
        let bits = be_bits("x");
        assert!(bits.starts_with("(((instr('0123456789ABCDEF', substr(hex(x), 1, 1)) - 1) * 16"));
        assert!(bits.contains("substr(hex(x), 2, 1)) - 1) << 56)"));
        assert!(bits.ends_with("substr(hex(x), 16, 1)) - 1) << 0)"));
        assert_eq!(bits.matches(" | ").count(), 7);
        assert_eq!(double_inner(None, "t"), "NULL AS t_bits, NULL AS t_num");
        let q = decoding(&["a AS a".into()], "T", &[(Some("c"), "t")], &["a"]);
        assert!(q.starts_with("SELECT a, coalesce(CASE WHEN t_bits IS NULL"));
        assert!(q.ends_with(" FROM T))"));
        assert!(q.contains("SELECT *, ((t_bits >> 52) & 2047) AS t_e"));
    }

    #[test]
    fn queries_follow_the_schema() {
        let log = set(&["ZSTARTTIME", "ZNAME", "ZSOURCEID"]);
        let q = sessions_sql(&log, &set(&[]), &set(&[]));
        assert!(q.contains("NULL AS source_name") && q.contains("NULL AS gps_points"));
        assert!(q.contains("NULL AS modified_bits"));
        let q = sessions_sql(&log, &set(&["ZLOCATIONGROUP"]), &set(&["ZACTIVITYLOG"]));
        assert!(q.contains("WHERE g.ZACTIVITYLOG = a.Z_PK) AS gps_points"));
        let q = routes_sql(&set(&["ZTIMESTAMP"]), &set(&[]), &log);
        assert!(q.contains("-1 AS grp") && q.contains("NULL AS interp"));
        assert!(q.ends_with("NULL AS log_id FROM route r)"));
        assert!(users_sql(&set(&["ZENCODEDID"])).contains("'fitbit:' || ZENCODEDID"));
        assert!(heart_sql(&set(&["ZDATETIME", "ZVALUE"])).contains("NULL AS resolutions"));
    }

    #[test]
    fn plausible_dates() {
        assert_eq!(
            plausible(Some("739350000.5")),
            Some(TimeEncoding::AppleSeconds)
        );
        assert_eq!(plausible(Some("0.0")), None);
        assert_eq!(plausible(Some("-31536000.75")), None);
        assert_eq!(plausible(Some("63113904000.0")), None);
        assert_eq!(plausible(None), None);
    }
}
