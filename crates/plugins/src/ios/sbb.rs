//! SBB Mobile (the Swiss Federal Railways' app), iLEAPP's `sbbmobile` ("SBB Mobile - Search
//! History", "EasyRide Trips"): the connections the user looked up and the journeys EasyRide
//! ticketed.
//!
//! | store / table | phenomenon | fields |
//! |---|---|---|
//! | `Documents/ch.sbb.coredata.searchhistory.sqlite` `ZSEARCHRESULT` | one `locations` per search ("SBB timetable search from <from> to <to>") | when searched (`ZTIMESTAMP`, Unix ms), from and its type (`ZFROM`, `ZFROMTYPE`), to and its type (`ZTO`, `ZTOTYPE`), the result's coordinates (`ZLAT`, `ZLON` in millionths of a degree, divided in the query) |
//! | `Documents/ch.sbb.coredata.logs.sqlite` `ZLOGENTRY` | one `locations` per EasyRide journey ("SBB EasyRide journey", or a check-in or check-out without its pair) | check-in and check-out (`ZTIMESTAMP`, Cocoa seconds), the log messages |
//!
//! A search is a connection the user looked up (planned, checked, or bought a ticket for), not
//! one travelled; its coordinates are the searched result's place (iLEAPP's "Result
//! Coordinates"), not the phone's. EasyRide is the app's automatic ticket: the user swipes to
//! check in when boarding and out at the end, and is billed for the route; the log lines iLEAPP
//! reads (`EasyRide slider on the right, starting check-in process`, `Fairtiq state update:
//! [checkingIn]`, and their check-out pairs) are selected in the query, ordered by time and
//! paired as iLEAPP pairs them (a check-in followed by a check-out is a journey; a check-in
//! followed by another check-in, or left open at the end, has no check-out; a check-out without
//! a check-in before it stands alone). The other log lines are not read. Columns are taken by
//! name (absent ones NULL: older stores lack the types and coordinates); a store without
//! `ZSEARCHRESULT.ZFROM`/`ZTO` or `ZLOGENTRY.ZTIMESTAMP`/`ZMESSAGE` is noted, as is one that is
//! no database. Identities: none (places and times only).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, file_name};
use crate::calls::select_columns;
use crate::drafts::{apple_seconds, unix_millis};
use crate::outputs::raw;

const SEARCH: &str = "ZSEARCHRESULT";
const LOG: &str = "ZLOGENTRY";

/// The messages of a check-in and of a check-out, as iLEAPP matches them (within the message).
const CHECK_IN: [&str; 2] = [
    "EasyRide slider on the right, starting check-in process",
    "Fairtiq state update: [checkingIn]",
];
const CHECK_OUT: [&str; 2] = [
    "EasyRide slider on the left, starting check-out process",
    "Fairtiq state update: [checkingOut]",
];

/// Triage of every SBB Mobile store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    if let Some((find, paths)) = run.find("ch.sbb.coredata.searchhistory.sqlite")? {
        for path in &paths {
            searches(run, &find, path)?;
        }
    }
    if let Some((find, paths)) = run.find("ch.sbb.coredata.logs.sqlite")? {
        for path in &paths {
            easyride(run, &find, path)?;
        }
    }
    Ok(())
}

/// `<col> / 1000000.0` when the table has `col` (a coordinate kept in millionths of a degree;
/// 0 and NULL none, as iLEAPP), else NULL.
fn degrees(cols: &std::collections::BTreeSet<String>, col: &str, alias: &str) -> String {
    if cols.contains(col) {
        format!(
            "CASE WHEN s.{col} IS NOT NULL AND s.{col} != 0 THEN s.{col} / 1000000.0 END AS {alias}"
        )
    } else {
        format!("NULL AS {alias}")
    }
}

fn searches(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[SEARCH])? else {
        return Ok(());
    };
    if !schema.require(run, SEARCH, &["ZFROM", "ZTO"])? {
        return Ok(());
    }
    let c = schema.columns(SEARCH);
    // both coordinates or neither (iLEAPP links only a pair)
    let both = c.contains("ZLAT") && c.contains("ZLON");
    let none = std::collections::BTreeSet::new();
    let coords = if both { &c } else { &none };
    let sql = format!(
        "SELECT s.Z_PK AS pk, s.ZFROM AS origin, s.ZTO AS destination, {}, {}, {} FROM {SEARCH} s",
        select_columns(
            &c,
            "s.",
            &[
                ("ZTIMESTAMP", "searched"),
                ("ZFROMTYPE", "origin_type"),
                ("ZTOTYPE", "destination_type"),
            ],
        ),
        degrees(coords, "ZLAT", "latitude"),
        degrees(coords, "ZLON", "longitude"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let (from, to) = (get("origin"), get("destination"));
        let mut d = Draft::new(
            "locations",
            format!(
                "SBB timetable search from {} to {}",
                from.as_deref().unwrap_or("?"),
                to.as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("origin", FactType::Name, "from"),
                ("origin_type", FactType::Text, "from type"),
                ("destination", FactType::Name, "to"),
                ("destination_type", FactType::Text, "to type"),
                ("latitude", FactType::Text, "result latitude"),
                ("longitude", FactType::Text, "result longitude"),
            ],
        );
        let at = t.get(row, "searched");
        d.time(at, unix_millis(at), "SBB timetable searched", inv);
        d.interpretation = format!(
            "{SEARCH} Z_PK {} of {file}: a connection the user looked up in SBB Mobile ({}){}; a search, not a journey travelled; the coordinates, where kept, are the searched result's place (ZLAT and ZLON in millionths of a degree), not the phone's.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", "),
            at.map(|a| format!(", searched at {a} (Unix ms)"))
                .unwrap_or_default(),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "SBB Mobile searches")
}

/// One check-in or check-out line: its time as stored and as a number, the message, whether
/// it is a check-in, its Z_PK, the call that read it.
struct Line {
    time: String,
    at: f64,
    message: String,
    check_in: bool,
    pk: String,
    inv: Invoked,
}

/// `instr(ZMESSAGE, '<m>') > 0` for each message, joined by `OR`.
fn matching(messages: &[&str]) -> String {
    messages
        .iter()
        .map(|m| format!("instr(ZMESSAGE, '{}') > 0", m.replace('\'', "''")))
        .collect::<Vec<_>>()
        .join(" OR ")
}

fn easyride(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[LOG])? else {
        return Ok(());
    };
    if !schema.require(run, LOG, &["ZTIMESTAMP", "ZMESSAGE"])? {
        return Ok(());
    }
    let all: Vec<&str> = CHECK_IN.iter().chain(CHECK_OUT.iter()).copied().collect();
    let sql = format!(
        "SELECT pk, logged, message FROM (SELECT Z_PK AS pk, ZTIMESTAMP AS logged, ZMESSAGE AS message FROM {LOG} WHERE {})",
        matching(&all)
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let mut lines: Vec<Line> = Vec::new();
    for (inv, t, row) in paged.rows() {
        let (Some(time), Some(message)) = (t.get(row, "logged"), t.get(row, "message")) else {
            continue;
        };
        let Ok(at) = time.parse::<f64>() else {
            continue;
        };
        lines.push(Line {
            time: time.to_string(),
            at,
            message: message.to_string(),
            check_in: CHECK_IN.iter().any(|m| message.contains(m)),
            pk: t.get(row, "pk").unwrap_or("?").to_string(),
            inv: inv.clone(),
        });
    }
    // in time order (a stable sort keeps the log's order for equal times), paired as iLEAPP
    lines.sort_by(|a, b| a.at.total_cmp(&b.at));
    let mut open: Option<&Line> = None;
    let mut journeys: Vec<(Option<&Line>, Option<&Line>)> = Vec::new();
    for l in &lines {
        if l.check_in {
            if let Some(o) = open.take() {
                journeys.push((Some(o), None));
            }
            open = Some(l);
        } else {
            journeys.push((open.take(), Some(l)));
        }
    }
    if let Some(o) = open {
        journeys.push((Some(o), None));
    }
    let file = file_name(path);
    for (i, o) in journeys {
        let title = match (i, o) {
            (Some(_), Some(_)) => "SBB EasyRide journey",
            (Some(_), None) => "SBB EasyRide check-in without check-out",
            _ => "SBB EasyRide check-out without check-in",
        };
        let mut d = Draft::new("locations", title);
        d.fact(FactType::Path, Some(path), find);
        let mut said = Vec::new();
        for (l, what) in [(i, "checked in"), (o, "checked out")] {
            let Some(l) = l else {
                continue;
            };
            d.time(
                Some(&l.time),
                apple_seconds(Some(&l.time)),
                &format!("SBB EasyRide {what}"),
                &l.inv,
            );
            d.fact(FactType::Text, Some(&l.message), &l.inv);
            said.push(format!(
                "{what} at {} (Z_PK {}: {})",
                l.time, l.pk, l.message
            ));
        }
        d.interpretation = format!(
            "{LOG} of {file}: {}. EasyRide is SBB Mobile's automatic ticket: the user checks in when boarding public transport and out at the end, and is billed for the route travelled; the times are Cocoa seconds.{}",
            said.join("; "),
            match (i, o) {
                (Some(_), Some(_)) =>
                    " A check-in and the next check-out are one journey, as iLEAPP pairs them.",
                (Some(_), None) =>
                    " No check-out follows this check-in in the log (another check-in came first, or the log ends).",
                _ => " No check-in precedes this check-out in the log.",
            }
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "SBB Mobile EasyRide log lines")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries() {
        assert_eq!(
            matching(&["a'b", "[x]"]),
            "instr(ZMESSAGE, 'a''b') > 0 OR instr(ZMESSAGE, '[x]') > 0"
        );
        let cols: std::collections::BTreeSet<String> = ["ZLAT".to_string()].into();
        assert!(degrees(&cols, "ZLAT", "latitude").ends_with("/ 1000000.0 END AS latitude"));
        assert_eq!(degrees(&cols, "ZLON", "longitude"), "NULL AS longitude");
    }
}
