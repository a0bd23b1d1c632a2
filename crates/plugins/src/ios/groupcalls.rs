//! Group calls: the remote participants of calls with several of them, iLEAPP's
//! `callHistoryGroupCall` ("Call History - Group Call", `CallHistory.storedata`) and
//! `callHistoryInteractionC` ("interactionC Call History - Group Call", CoreDuet's
//! `interactionC.db`). [`super::callhistory`] reads every call with its one address
//! (`ZADDRESS`) and [`super::interactions`] every donated interaction with its sender; neither
//! reads who else was on a group FaceTime or conference call: this module adds them, one
//! phenomenon per group call with each participant.
//!
//! | file: tables | phenomenon | fields |
//! |---|---|---|
//! | `CallHistory.storedata`: `ZCALLRECORD`, the many-to-many table `Z_<n>REMOTEPARTICIPANTHANDLES`, `ZHANDLE` | one `calls` per call with more than one remote participant ("Group call <Z_PK> with <n> participants") | the call's address, direction and answered (words from `ZORIGINATED` and `ZANSWERED`, in the query), `ZCALLTYPE` as stored and iLEAPP's reading of it (0 a third-party app's call, 1 a phone call, 8 FaceTime video, 16 FaceTime audio; in the query), duration (s), service provider, `ZDISCONNECTED_CAUSE` as stored, country code, location, name, unique id, participant group UUID, the participants counted in the query; each participant's handle (`ZVALUE`), normalised handle, `ZTYPE` as stored; started (`ZDATE`), ended (start plus duration, in the query, when the duration is positive) — Core Data seconds |
//! | `interactionC.db`: `ZINTERACTIONS`, the many-to-many table `Z_<n>INTERACTIONRECIPIENT`, `ZCONTACTS` | one `calls` per call interaction (`com.apple.InCallService`, `com.apple.facetime`, `com.apple.mobilephone`, as iLEAPP filters, case ignored) with more than one recipient ("Group call interaction <Z_PK> in <bundle> with <n> participants") | app, `ZDIRECTION` and `ZRECIPIENTCOUNT` as stored, group name, UUID, the recipients counted in the query, the seconds between start and end (in the query); each recipient's display name, identifier (phone or e-mail) and person id; started, ended (Core Data seconds) |
//!
//! Core Data numbers its entities per model version, so the join tables' names and columns change
//! (`Z_2REMOTEPARTICIPANTHANDLES` with `Z_3…` or `Z_4REMOTEPARTICIPANTHANDLES`;
//! `Z_2INTERACTIONRECIPIENT` with `Z_2RECIPIENTS` / `Z_3INTERACTIONRECIPIENT`, other numbers in
//! other versions): they are found by their columns (one ending `REMOTEPARTICIPANTCALLS` and
//! one `REMOTEPARTICIPANTHANDLES`; one ending `RECIPIENTS` and one `INTERACTIONRECIPIENT`),
//! never by number. Other columns are taken by name (absent ones NULL: older stores lack
//! `ZPARTICIPANTGROUPUUID`, `ZDISCONNECTED_CAUSE`, `ZLOCATION`, `ZHANDLE.ZNORMALIZEDVALUE`,
//! `ZGROUPNAME`, `ZENDDATE`); `ZADDRESS`, a BLOB in some versions, is read as text. A call with
//! one participant is a direct call, already read by the readers above, and is left out, as is
//! an interaction of another app (a group message). `ZDISCONNECTED_CAUSE` and `ZDIRECTION` are
//! given as stored (their values are not documented by Apple; iLEAPP reads `ZDIRECTION` 1 as
//! outgoing); `ZFACE_TIME_DATA` (binary) is not read. A store without `ZCALLRECORD` or
//! `ZINTERACTIONS`/`ZCONTACTS`, an interaction store without its recipients' join table, or
//! whose handle table lacks `Z_PK` or a value, is noted; a call store without the participants'
//! join table (a release before group calls) gives nothing; rows are paged by the join table's rowid up to the row cap (the rest
//! noted).
//!
//! Identities: each participant's handle or identifier that is a phone number or an e-mail
//! address is a counterparty (`handle:<normalised>`, or the address-book card holding it:
//! [`Run::observe_handle`]); a handle that is neither (a third-party app's user name) is a
//! fact only. The remote participants are never the device's user.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, handle_fact_type, raw};
use crate::calls::{PagedRow, column_or_null, note_pages_cap, require_columns};
use crate::outputs::columns_by_table;

/// The apps whose interactions are calls (iLEAPP's filter), lower case.
const CALL_APPS: [&str; 3] = [
    "com.apple.incallservice",
    "com.apple.facetime",
    "com.apple.mobilephone",
];

/// Triage of every `CallHistory.storedata` and `interactionC.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("CallHistory.storedata", |find, path| {
        call_history(run, find, path)
    })?;
    run.each("interactionC.db", |find, path| {
        interaction_c(run, find, path)
    })
}

/// A many-to-many table of `schema` whose name matched the query's pattern: its name and its
/// two columns, the one ending `left` and the one ending `right`.
fn join_table(
    schema: &BTreeMap<String, BTreeSet<String>>,
    named: &str,
    left: &str,
    right: &str,
) -> Option<(String, String, String)> {
    schema.iter().find_map(|(table, cols)| {
        if !table.starts_with("Z_") || !table.ends_with(named) {
            return None;
        }
        let l = cols.iter().find(|c| c.ends_with(left))?;
        let r = cols.iter().find(|c| c.ends_with(right) && *c != l)?;
        Some((table.clone(), l.clone(), r.clone()))
    })
}

/// The tables of `names` and those matching `glob` with their columns (one `sqlite_query`);
/// `None` when the database cannot be read (noted).
fn tables(
    run: &Run<'_, '_>,
    path: &str,
    names: &[&str],
    glob: &str,
) -> Result<Option<BTreeMap<String, BTreeSet<String>>>, RuntimeError> {
    let list = names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p \
WHERE m.type = 'table' AND (m.name IN ({list}) OR m.name GLOB '{glob}') ORDER BY m.name, p.cid"
    );
    Ok(run
        .query(path, &sql, 100_000)?
        .map(|(_, t)| columns_by_table(&t)))
}

/// The rows of a paged read grouped by their `key` column (a number), in key order.
fn grouped<'a>(
    rows: impl Iterator<Item = PagedRow<'a>>,
    key: &str,
) -> BTreeMap<i64, Vec<PagedRow<'a>>> {
    let mut out: BTreeMap<i64, Vec<PagedRow<'a>>> = BTreeMap::new();
    for r in rows {
        if let Some(k) = r.1.get(r.2, key).and_then(|v| v.parse::<i64>().ok()) {
            out.entry(k).or_default().push(r);
        }
    }
    out
}

/// `CallHistory.storedata`: the calls with more than one remote participant.
fn call_history(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let what = "the group calls of CallHistory.storedata";
    let Some(schema) = tables(
        run,
        path,
        &["ZCALLRECORD", "ZHANDLE"],
        "Z_[0-9]*REMOTEPARTICIPANTHANDLES",
    )?
    else {
        return Ok(());
    };
    let Some(calls) = schema.get("ZCALLRECORD") else {
        run.ctx.unparsed(
            path,
            &format!("could not parse {what} because it has no ZCALLRECORD table"),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(run.ctx, path, what, "ZCALLRECORD", calls, &["Z_PK"])? {
        return Ok(());
    }
    let Some((join, call_col, handle_col)) = join_table(
        &schema,
        "REMOTEPARTICIPANTHANDLES",
        "REMOTEPARTICIPANTCALLS",
        "REMOTEPARTICIPANTHANDLES",
    ) else {
        // a store of a release that keeps no remote participants (before group calls):
        // the calls themselves are the call history reader's
        return Ok(());
    };
    let empty = BTreeSet::new();
    let handles = schema.get("ZHANDLE").unwrap_or(&empty);
    let value = ["ZVALUE", "ZNORMALIZEDVALUE"]
        .into_iter()
        .find(|c| handles.contains(*c));
    let Some(value) = value.filter(|_| handles.contains("Z_PK")) else {
        run.ctx.unparsed(
            path,
            &format!(
                "could not parse {what} because table ZHANDLE is missing or lacks Z_PK and ZVALUE (or ZNORMALIZEDVALUE): the participants' handles"
            ),
            None,
        )?;
        return Ok(());
    };
    let c = |col: &str, alias: &str| column_or_null(calls, "c.", col, alias);
    let count = format!("(SELECT count(*) FROM {join} k WHERE k.{call_col} = c.Z_PK)");
    let normalised = if value == "ZVALUE" {
        column_or_null(handles, "h.", "ZNORMALIZEDVALUE", "normalized")
    } else {
        "NULL AS normalized".to_string()
    };
    let word = |col: &str, alias: &str, arms: &str| {
        if calls.contains(col) {
            format!("CASE c.{col} {arms} END AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let ended = if calls.contains("ZDATE") && calls.contains("ZDURATION") {
        "CASE WHEN c.ZDURATION > 0 THEN c.ZDATE + c.ZDURATION END AS ended"
    } else {
        "NULL AS ended"
    };
    let address = if calls.contains("ZADDRESS") {
        "CAST(c.ZADDRESS AS TEXT) AS address"
    } else {
        "NULL AS address"
    };
    let sql = format!(
        "SELECT * FROM (SELECT j.rowid AS rid, c.Z_PK AS pk, {count} AS participants, h.Z_PK AS handle_pk, \
h.{value} AS handle, {normalised}, {}, {address}, {}, {ended}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} \
FROM {join} j JOIN ZCALLRECORD c ON c.Z_PK = j.{call_col} LEFT JOIN ZHANDLE h ON h.Z_PK = j.{handle_col} \
WHERE {count} > 1)",
        column_or_null(handles, "h.", "ZTYPE", "handle_type"),
        c("ZDATE", "date"),
        c("ZDURATION", "duration"),
        word(
            "ZORIGINATED",
            "direction",
            "WHEN 1 THEN 'outgoing' WHEN 0 THEN 'incoming'"
        ),
        word(
            "ZANSWERED",
            "answered",
            "WHEN 1 THEN 'answered' WHEN 0 THEN 'not answered'"
        ),
        c("ZCALLTYPE", "call_type"),
        word(
            "ZCALLTYPE",
            "call_kind",
            "WHEN 0 THEN 'third-party app' WHEN 1 THEN 'phone call' WHEN 8 THEN 'FaceTime video' WHEN 16 THEN 'FaceTime audio'"
        ),
        c("ZSERVICE_PROVIDER", "service"),
        c("ZDISCONNECTED_CAUSE", "disconnected"),
        c("ZISO_COUNTRY_CODE", "country"),
        c("ZLOCATION", "location"),
        c("ZNAME", "name"),
        c("ZUNIQUE_ID", "unique_id"),
        c("ZPARTICIPANTGROUPUUID", "group_uuid"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (pk, rows) in grouped(paged.rows(), "pk") {
        let Some(&(inv, t, row)) = rows.first() else {
            continue;
        };
        let n = t.get(row, "participants").unwrap_or("?").to_string();
        let mut d = Draft::new("calls", format!("Group call {pk} with {n} participants"));
        d.fact(FactType::Path, Some(path), find);
        let address = raw(t, row, "address");
        if let Some(a) = &address {
            d.fact(handle_fact_type(a), Some(a), inv);
        }
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("participants", FactType::Count, "remote participants"),
                ("direction", FactType::Text, "direction"),
                ("answered", FactType::Text, "answered"),
                ("duration", FactType::Text, "duration (s)"),
                ("call_type", FactType::Text, "ZCALLTYPE"),
                ("call_kind", FactType::Text, "that is"),
                ("service", FactType::Identifier, "service provider"),
                (
                    "disconnected",
                    FactType::Text,
                    "ZDISCONNECTED_CAUSE (as stored)",
                ),
                ("country", FactType::Text, "country code"),
                ("location", FactType::Text, "location"),
                ("name", FactType::Name, "name"),
                ("unique_id", FactType::Identifier, "unique id"),
                ("group_uuid", FactType::Identifier, "participant group UUID"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            core_data_encoding,
            &[
                ("date", "Group call started"),
                ("ended", "Group call ended"),
            ],
        );
        let mut each = Vec::new();
        let mut parties: Vec<(String, &Invoked)> = Vec::new();
        for &(pinv, pt, prow) in &rows {
            let handle = raw(pt, prow, "handle");
            let normalised = raw(pt, prow, "normalized");
            if let Some(h) = &handle {
                d.fact(handle_fact_type(h), Some(h), pinv);
                parties.push((h.clone(), pinv));
            }
            if let Some(nv) = &normalised {
                d.fact(handle_fact_type(nv), Some(nv), pinv);
            }
            d.fact(
                FactType::Text,
                raw(pt, prow, "handle_type").as_deref(),
                pinv,
            );
            each.push(format!(
                "{}{}{}",
                handle.as_deref().unwrap_or("a handle without a value"),
                normalised
                    .as_deref()
                    .map(|v| format!(" (normalised {v})"))
                    .unwrap_or_default(),
                raw(pt, prow, "handle_type")
                    .map(|v| format!(", ZTYPE {v}"))
                    .unwrap_or_default(),
            ));
        }
        d.interpretation = format!(
            "ZCALLRECORD Z_PK {pk} of {path}: a call with {n} remote participants ({join} joins it to ZHANDLE): {}; the call {}{}. ZDATE is Core Data seconds since 2001; the end is the start plus ZDURATION (computed in the query); ZCALLTYPE's reading is iLEAPP's, ZDISCONNECTED_CAUSE and ZHANDLE.ZTYPE are as stored. The participants are the other people on the call, not the device's user.",
            each.join("; "),
            said.join(", "),
            address
                .as_deref()
                .map(|a| format!(", its address {a}"))
                .unwrap_or_default(),
        );
        run.record(d)?;
        for (h, pinv) in parties {
            run.observe_handle(
                &h,
                pinv,
                &format!("group call {pk} (CallHistory.storedata)"),
            )?;
        }
    }
    note_pages_cap(run.ctx, path, &paged, "group call participants")
}

/// `interactionC.db`: the call interactions with more than one recipient.
fn interaction_c(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let what = "the group calls of interactionC.db";
    let Some(schema) = tables(
        run,
        path,
        &["ZINTERACTIONS", "ZCONTACTS"],
        "Z_[0-9]*INTERACTIONRECIPIENT",
    )?
    else {
        return Ok(());
    };
    let (Some(inter), Some(contacts)) = (schema.get("ZINTERACTIONS"), schema.get("ZCONTACTS"))
    else {
        run.ctx.unparsed(
            path,
            &format!(
                "could not parse {what} because it lacks the table ZINTERACTIONS or ZCONTACTS"
            ),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(
        run.ctx,
        path,
        what,
        "ZINTERACTIONS",
        inter,
        &["Z_PK", "ZBUNDLEID"],
    )? || !require_columns(run.ctx, path, what, "ZCONTACTS", contacts, &["Z_PK"])?
    {
        return Ok(());
    }
    let Some((join, contact_col, inter_col)) = join_table(
        &schema,
        "INTERACTIONRECIPIENT",
        "RECIPIENTS",
        "INTERACTIONRECIPIENT",
    ) else {
        run.ctx.unparsed(
            path,
            &format!(
                "could not parse {what} because it has no Z_<n>INTERACTIONRECIPIENT table (a Z_<n>RECIPIENTS and a Z_<m>INTERACTIONRECIPIENT column: the interactions' recipients)"
            ),
            None,
        )?;
        return Ok(());
    };
    let i = |col: &str, alias: &str| column_or_null(inter, "i.", col, alias);
    let r = |col: &str, alias: &str| column_or_null(contacts, "c.", col, alias);
    let count = format!("(SELECT count(*) FROM {join} k WHERE k.{inter_col} = i.Z_PK)");
    let seconds = if inter.contains("ZSTARTDATE") && inter.contains("ZENDDATE") {
        "CASE WHEN i.ZENDDATE > 0 AND i.ZSTARTDATE > 0 THEN i.ZENDDATE - i.ZSTARTDATE END AS seconds"
    } else {
        "NULL AS seconds"
    };
    let apps = CALL_APPS
        .iter()
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT * FROM (SELECT j.rowid AS rid, i.Z_PK AS pk, i.ZBUNDLEID AS bundle, {count} AS participants, \
c.Z_PK AS contact_pk, {}, {}, {}, {}, {}, {seconds}, {}, {}, {}, {} \
FROM {join} j JOIN ZINTERACTIONS i ON i.Z_PK = j.{inter_col} LEFT JOIN ZCONTACTS c ON c.Z_PK = j.{contact_col} \
WHERE lower(i.ZBUNDLEID) IN ({apps}) AND {count} > 1)",
        r("ZDISPLAYNAME", "name"),
        r("ZIDENTIFIER", "identifier"),
        r("ZPERSONID", "person_id"),
        i("ZSTARTDATE", "start"),
        i("ZENDDATE", "ended"),
        i("ZDIRECTION", "direction"),
        i("ZRECIPIENTCOUNT", "recipient_count"),
        i("ZGROUPNAME", "group_name"),
        i("ZUUID", "uuid"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (pk, rows) in grouped(paged.rows(), "pk") {
        let Some(&(inv, t, row)) = rows.first() else {
            continue;
        };
        let n = t.get(row, "participants").unwrap_or("?").to_string();
        let bundle = raw(t, row, "bundle").unwrap_or_default();
        let mut d = Draft::new(
            "calls",
            format!("Group call interaction {pk} in {bundle} with {n} participants"),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("bundle", FactType::Identifier, "app"),
                ("participants", FactType::Count, "recipients listed"),
                ("direction", FactType::Text, "ZDIRECTION (as stored)"),
                ("recipient_count", FactType::Count, "ZRECIPIENTCOUNT"),
                ("group_name", FactType::Name, "group name"),
                ("uuid", FactType::Identifier, "UUID"),
                ("seconds", FactType::Text, "seconds from start to end"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            core_data_encoding,
            &[
                ("start", "Group call interaction started"),
                ("ended", "Group call interaction ended"),
            ],
        );
        let mut each = Vec::new();
        let mut parties: Vec<(String, &Invoked)> = Vec::new();
        for &(pinv, pt, prow) in &rows {
            let name = raw(pt, prow, "name");
            let identifier = raw(pt, prow, "identifier");
            d.fact(FactType::Name, name.as_deref(), pinv);
            if let Some(id) = &identifier {
                d.fact(handle_fact_type(id), Some(id), pinv);
                parties.push((id.clone(), pinv));
            }
            d.fact(
                FactType::Identifier,
                raw(pt, prow, "person_id").as_deref(),
                pinv,
            );
            each.push(format!(
                "{}{}",
                name.as_deref().unwrap_or("no name"),
                identifier
                    .as_deref()
                    .map(|v| format!(" ({v})"))
                    .unwrap_or_default(),
            ));
        }
        d.interpretation = format!(
            "ZINTERACTIONS Z_PK {pk} of {path}: {bundle} donated a call interaction with {n} recipients ({join} joins it to ZCONTACTS): {}; {}. Times are Core Data seconds since 2001; ZDIRECTION is as stored (iLEAPP reads 1 as outgoing, 0 as incoming). The recipients are the other people on the call.",
            each.join("; "),
            said.join(", "),
        );
        run.record(d)?;
        for (id, pinv) in parties {
            run.observe_handle(
                &id,
                pinv,
                &format!("group call interaction {pk} ({bundle})"),
            )?;
        }
    }
    note_pages_cap(run.ctx, path, &paged, "group call interaction recipients")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_tables_are_found_by_their_columns() {
        let mut schema: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        schema.insert(
            "Z_2REMOTEPARTICIPANTHANDLES".into(),
            [
                "Z_2REMOTEPARTICIPANTCALLS".to_string(),
                "Z_4REMOTEPARTICIPANTHANDLES".to_string(),
            ]
            .into(),
        );
        schema.insert(
            "Z_1INTERACTIONRECIPIENT".into(),
            [
                "Z_1RECIPIENTS".to_string(),
                "Z_2INTERACTIONRECIPIENT".to_string(),
            ]
            .into(),
        );
        assert_eq!(
            join_table(
                &schema,
                "REMOTEPARTICIPANTHANDLES",
                "REMOTEPARTICIPANTCALLS",
                "REMOTEPARTICIPANTHANDLES"
            ),
            Some((
                "Z_2REMOTEPARTICIPANTHANDLES".into(),
                "Z_2REMOTEPARTICIPANTCALLS".into(),
                "Z_4REMOTEPARTICIPANTHANDLES".into()
            ))
        );
        assert_eq!(
            join_table(
                &schema,
                "INTERACTIONRECIPIENT",
                "RECIPIENTS",
                "INTERACTIONRECIPIENT"
            ),
            Some((
                "Z_1INTERACTIONRECIPIENT".into(),
                "Z_1RECIPIENTS".into(),
                "Z_2INTERACTIONRECIPIENT".into()
            ))
        );
        assert_eq!(join_table(&schema, "ASSETS", "ALBUMS", "ASSETS"), None);
    }
}
