//! The software updater's install history (`containers/Data/System/<id>/history/
//! installHistory.db`, written by SoftwareUpdateServices since iOS 26), iLEAPP's
//! `iosInstallHistory` ("iOS Install History"): every operating-system update (and Rapid or
//! Background Security Response) the device finished installing or rolling back.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `logs` | one `device` per row ("Software update installed: <name> (<build>)", "Software update rolled back: …", or "Software update history entry <id>: …" for another operation type) | row id, update name (`name`, the update's human-readable name), build (`build`: the build, with the security response's letter after a space), operation type as stored and its meaning computed in the query (304 successful install completed, 303 successful rollback completed, as SoftwareUpdateServices records them and iLEAPP labels them; any other value kept as stored and not read), when (`date`: `yyyy-MM-dd HH:mm:ss` as written, the device's local time without a zone: read in the source's zone) |
//!
//! The updater writes a row only when an install or a rollback completed without error, at its
//! end, with the update's name and build ("Unknown Update" and "Unknown Version" when it had no
//! description of the update, said), and keeps only its newest 25 rows: older updates are gone
//! from this table, not absent from the device's history (the activation and restore logs,
//! [`super::activationlog`] and [`super::restorelog`], may hold them). The store holds no app
//! installs: apps are read from the installation logs ([`super::installlog`]) and the App
//! Store's databases ([`super::apps`]). Columns are taken by name (absent ones NULL); a file of
//! that name without a `logs` table with `id` and `date` (another layout) is noted, as is one
//! that is no database. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, file_name};
use crate::calls::select_columns;
use crate::drafts::date_text;
use crate::outputs::raw;

const LOGS: &str = "logs";

/// The operation types SoftwareUpdateServices records, labelled in the query.
const OPERATION: &str = "CASE l.operationType WHEN 304 THEN 'successful install completed' WHEN 303 THEN 'successful rollback completed' END";

/// Whether `path` is the updater's install history (its `history` folder).
pub fn is_store(path: &str) -> bool {
    file_name(path) == "installHistory.db" && path.contains("/history/")
}

/// Triage of every software-update install history of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("installHistory.db", |find, path| {
        if is_store(path) {
            one(run, find, path)?;
        }
        Ok(())
    })
}

/// The query of `logs` with the columns `cols` has.
fn history_sql(cols: &std::collections::BTreeSet<String>) -> String {
    let operation = if cols.contains("operationType") {
        OPERATION
    } else {
        "NULL"
    };
    format!(
        "SELECT l.id AS id, l.date AS logged, {}, {operation} AS operation FROM {LOGS} l",
        select_columns(
            cols,
            "l.",
            &[
                ("name", "update_name"),
                ("build", "build"),
                ("operationType", "operation_type"),
            ],
        )
    )
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[LOGS])? else {
        return Ok(());
    };
    if !schema.require(run, LOGS, &["id", "date"])? {
        return Ok(());
    }
    let sql = history_sql(&schema.columns(LOGS));
    let Some(paged) = run.paged(path, &sql, "l.id")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let id = get("id").unwrap_or_else(|| "?".into());
        let name = get("update_name").unwrap_or_else(|| "unnamed update".into());
        let build = get("build").map(|b| format!(" ({b})")).unwrap_or_default();
        let operation = get("operation");
        let (title, what) = match operation.as_deref() {
            Some("successful install completed") => (
                format!("Software update installed: {name}{build}"),
                "Software update install completed",
            ),
            Some("successful rollback completed") => (
                format!("Software update rolled back: {name}{build}"),
                "Software update rollback completed",
            ),
            _ => (
                format!("Software update history entry {id}: {name}{build}"),
                "Software update history entry recorded",
            ),
        };
        let mut d = Draft::new("device", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("id", FactType::Identifier, "row id"),
                ("update_name", FactType::Name, "update"),
                ("build", FactType::Text, "build"),
                ("operation_type", FactType::Text, "operation type"),
                ("operation", FactType::Text, "operation"),
            ],
        );
        let at = t.get(row, "logged");
        d.time(at, date_text(at), what, inv);
        let meaning = match operation.as_deref() {
            Some(op) => format!(
                "SoftwareUpdateServices wrote it when the {} finished without error",
                if op.contains("rollback") {
                    "rollback of the update to the build before it"
                } else {
                    "update's install"
                }
            ),
            None => "an operation type SoftwareUpdateServices is not known to write (only installs and rollbacks are recorded), kept as stored".into(),
        };
        let unknown = if get("update_name").as_deref() == Some("Unknown Update") {
            " \"Unknown Update\" is what the updater writes when it had no description of the update."
        } else {
            ""
        };
        d.interpretation = format!(
            "{LOGS} id {id} of {file}: {meaning} ({}); the date is as the device wrote it, its local time without a zone (read in the source's zone). The updater keeps only its newest 25 rows, so older updates are missing here, not absent from the device's history.{unknown}",
            said.iter()
                .cloned()
                .chain(at.map(|a| format!("at {a}")))
                .collect::<Vec<_>>()
                .join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "software update history rows")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_query() {
        assert!(is_store(
            "/private/var/containers/Data/System/5E0C/history/installHistory.db"
        ));
        assert!(!is_store("/private/var/mobile/installHistory.db"));
        let cols: std::collections::BTreeSet<String> = ["id", "date", "name"]
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            history_sql(&cols),
            "SELECT l.id AS id, l.date AS logged, l.name AS update_name, NULL AS build, NULL AS operation_type, NULL AS operation FROM logs l"
        );
    }
}
