//! `CallHistory.storedata` (Core Data): one phenomenon per `ZCALLRECORD` row (address,
//! direction, answered, duration, start time) and the counterparty as `handle:<id>`; the calls
//! deleted from the history (or changed) that the write-ahead log, the file's replaced pages or
//! its free space still hold, recorded as recovered (`sqlite_wal_history`).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, file_name, handle_fact_type, raw, summarise};

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(ZDATE, 0)) AS first_time, max(ZDATE) AS last_time FROM ZCALLRECORD";

/// Triage of every `CallHistory.storedata` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("CallHistory.storedata", |find, path| one(run, find, path))
}

/// `col AS alias` when the column exists, `NULL AS alias` otherwise.
pub fn optional(cols: &BTreeSet<String>, col: &str, alias: &str) -> String {
    crate::calls::column_or_null(cols, "", col, alias)
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZCALLRECORD", "Z_PRIMARYKEY"])? else {
        return Ok(());
    };
    let required = ["ZADDRESS", "ZDATE", "ZDURATION", "ZORIGINATED", "ZANSWERED"];
    if !schema.require(run, "ZCALLRECORD", &required)? {
        return Ok(());
    }
    let cols = schema.columns("ZCALLRECORD");
    let sql = format!(
        "SELECT Z_PK AS pk, CAST(ZADDRESS AS TEXT) AS address, ZDATE AS date, ZDURATION AS duration, \
ZORIGINATED AS originated, ZANSWERED AS answered, {}, {}, {} FROM ZCALLRECORD",
        optional(&cols, "ZNAME", "name"),
        optional(&cols, "ZSERVICE_PROVIDER", "service"),
        optional(&cols, "ZUNIQUE_ID", "unique_id"),
    );
    let Some(paged) = run.paged(path, &sql, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let address = raw(t, row, "address");
        let outgoing = t.get(row, "originated") == Some("1");
        let answered = t.get(row, "answered") == Some("1");
        let date = raw(t, row, "date");
        let mut d = Draft::new(
            "calls",
            format!(
                "Call {pk} {} {}",
                if outgoing { "to" } else { "from" },
                address.as_deref().unwrap_or("an unknown number")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        if let Some(a) = &address {
            d.fact(handle_fact_type(a), Some(a), inv);
        }
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "unique_id").as_deref(),
            inv,
        );
        d.fact(FactType::Identifier, raw(t, row, "service").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "duration").as_deref(), inv);
        d.time(
            date.as_deref(),
            core_data_encoding(date.as_deref()),
            "Call started",
            inv,
        );
        d.interpretation = format!(
            "ZCALLRECORD Z_PK {pk} of {path}: an {} call {} {}, {}, lasting {} seconds; ZDATE is Core Data seconds since the Apple epoch (start of 2001 UTC) (apple_seconds).",
            if outgoing { "outgoing" } else { "incoming" },
            if outgoing { "to" } else { "from" },
            address.as_deref().unwrap_or("an unrecorded address"),
            if answered { "answered" } else { "not answered" },
            raw(t, row, "duration").unwrap_or_else(|| "?".into()),
        );
        run.record(d)?;
        if let Some(a) = &address {
            run.observe_handle(a, inv, &format!("calls in {}", file_name(path)))?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "calls",
            path,
            find,
            "calls",
            SUMMARY_SQL,
            core_data_encoding,
            "First call",
            "Last call",
        )?;
    }
    recovered(run, find, path)?;
    // the calls deleted: gaps in Core Data's keys (Z_PRIMARYKEY keeps the largest given out)
    let spec = crate::gaps::Spec {
        table: "ZCALLRECORD",
        key: "Z_PK",
        time: "ZDATE",
        label: if cols.contains("ZUNIQUE_ID") {
            "ZUNIQUE_ID"
        } else {
            "Z_PK"
        },
        sequence: crate::gaps::Sequence::CoreData("CallRecord"),
        what: ("call", "calls"),
        category: "calls",
        encoding: crate::drafts::apple_seconds,
        time_said: "Core Data seconds since 2001",
        pruned_by: None,
    };
    let sequence = schema.columns("Z_PRIMARYKEY").contains("Z_MAX");
    run.gaps(find, path, &spec, sequence)
}

/// Calls `ZCALLRECORD` no longer shows that earlier page versions hold: one phenomenon each.
fn recovered(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, t)) = crate::recovered::wal_rows(
        run.ctx,
        path,
        serde_json::json!({"path": path, "text_columns": ["ZADDRESS"]}),
        "ZCALLRECORD",
        &[],
    )?
    else {
        return Ok(());
    };
    for row in &t.rows {
        let pk = crate::recovered::key(&t, row, "Z_PK");
        let address = raw(&t, row, "ZADDRESS").filter(|a| !a.starts_with("x'"));
        let outgoing = t.get(row, "ZORIGINATED") == Some("1");
        let answered = t.get(row, "ZANSWERED") == Some("1");
        let mut d = Draft::new(
            "calls",
            format!(
                "{} call {pk} {} {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                if outgoing { "to" } else { "from" },
                address.as_deref().unwrap_or("an unknown number")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        if let Some(a) = &address {
            d.fact(handle_fact_type(a), Some(a), &inv);
        }
        d.fact(FactType::Name, raw(&t, row, "ZNAME").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "ZUNIQUE_ID").as_deref(),
            &inv,
        );
        d.fact(
            FactType::Identifier,
            raw(&t, row, "ZSERVICE_PROVIDER").as_deref(),
            &inv,
        );
        let duration = raw(&t, row, "ZDURATION");
        d.fact(FactType::Count, duration.as_deref(), &inv);
        let date = raw(&t, row, "ZDATE");
        d.time(
            date.as_deref(),
            core_data_encoding(date.as_deref()),
            "Call started",
            &inv,
        );
        d.interpretation = format!(
            "ZCALLRECORD Z_PK {pk} of {path}: an {} call {} {}, {}, lasting {} seconds: {}. ZDATE is Core Data seconds since the Apple epoch (start of 2001 UTC) (apple_seconds).",
            if outgoing { "outgoing" } else { "incoming" },
            if outgoing { "to" } else { "from" },
            address.as_deref().unwrap_or("an unrecorded address"),
            if answered { "answered" } else { "not answered" },
            duration.as_deref().unwrap_or("?"),
            crate::recovered::provenance(&t, row)
        );
        run.record(d)?;
    }
    Ok(())
}
