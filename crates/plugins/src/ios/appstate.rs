//! Installed apps and their containers (`Library/FrontBoard/applicationState.db`, iLEAPP's
//! `applicationstate`): one phenomenon per app FrontBoard knows, with its bundle id, the path
//! of its bundle (`/private/var/containers/Bundle/Application/<UUID>/<name>.app`) and of its
//! data container (`sandboxPath`, `/private/var/mobile/Containers/Data/Application/<UUID>`).
//! The container's UUID is what every artefact path of the app holds, so this is how a path
//! is named by its app.
//!
//! `kvs` rows whose key (`key_tab`) is `compatibilityInfo` hold an archived object (read with
//! `sqlite_query`'s `plists` option, the NSKeyedArchiver unwrapped); the bundle and sandbox
//! paths are taken from it wherever it nests them. The three tables and their join columns are
//! required (else noted, naming what is missing).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, raw};
use crate::outputs::in_json_cell;

/// The apps and their compatibility records, paged by the app's id.
const SELECT: &str = "SELECT * FROM (SELECT a.id AS id, a.application_identifier AS bundle, kv.value AS info \
FROM application_identifier_tab a JOIN kvs kv ON kv.application_identifier = a.id \
JOIN key_tab k ON k.id = kv.key WHERE k.key = 'compatibilityInfo') q";

/// Triage of every `applicationState.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("applicationState.db", |find, path| one(run, find, path))
}

/// The first string value of `key` anywhere in `v`.
fn string_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    match v {
        Value::Object(m) => m
            .get(key)
            .and_then(Value::as_str)
            .or_else(|| m.values().find_map(|x| string_of(x, key))),
        Value::Array(a) => a.iter().find_map(|x| string_of(x, key)),
        _ => None,
    }
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = ["application_identifier_tab", "kvs", "key_tab"];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if !schema.require(
        run,
        "application_identifier_tab",
        &["id", "application_identifier"],
    )? || !schema.require(run, "kvs", &["application_identifier", "key", "value"])?
        || !schema.require(run, "key_tab", &["id", "key"])?
    {
        return Ok(());
    }
    let Some(paged) = run.paged_with(path, SELECT, "id", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let Some(bundle) = raw(t, row, "bundle") else {
            continue;
        };
        let info = t
            .get(row, "info")
            .and_then(|c| c.strip_prefix("plist:"))
            .and_then(|j| serde_json::from_str::<Value>(j).ok());
        let bundle_path = info.as_ref().and_then(|i| string_of(i, "bundlePath"));
        let sandbox = info.as_ref().and_then(|i| string_of(i, "sandboxPath"));
        let container = sandbox.and_then(|s| s.rsplit('/').find(|p| !p.is_empty()));
        if let Some(s) = sandbox.filter(|s| s.starts_with('/')) {
            run.containers.borrow_mut().push((
                bundle.clone(),
                s.trim_end_matches('/').to_string(),
                inv.clone(),
            ));
        }
        let mut d = Draft::new(
            "apps",
            format!(
                "App {bundle}{}",
                container
                    .map(|c| format!(": data container {c}"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&bundle), inv);
        d.fact(
            FactType::Path,
            bundle_path.map(in_json_cell).as_deref(),
            inv,
        );
        d.fact(FactType::Path, sandbox.map(in_json_cell).as_deref(), inv);
        d.interpretation = format!(
            "FrontBoard's application state ({path}) knows the app {bundle}{}{}.{}",
            bundle_path
                .map(|b| format!(", installed at {b}"))
                .unwrap_or_default(),
            sandbox
                .map(|s| format!(", its data in {s}"))
                .unwrap_or_default(),
            if container.is_some() {
                " Artefact paths under that container are this app's."
            } else if info.is_none() {
                " Its compatibility record does not read as an archived object."
            } else {
                ""
            }
        );
        run.record(d)?;
    }
    Ok(())
}
