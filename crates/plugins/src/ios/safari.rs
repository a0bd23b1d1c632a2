//! The URL cache of Safari and of apps that load the web (`Library/Caches/<bundle>/Cache.db`,
//! CFNetwork's `cfurl_cache_*` tables): one phenomenon per cached response with every field
//! iLEAPP's `safariCache` reports — URL, time (`time_stamp`, UTC, as Unix seconds from SQL),
//! HTTP status, method, MIME type, payload location (the file name under `fsCachedData/` or
//! in the database) and size, the response headers (content type and length, Date, Expires,
//! Last-Modified, Cache-Control, Server), partition, storage policy, entry id. The archived
//! request and response objects are read through `sqlite_query`'s `plists`.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, raw};
use crate::outputs::plist_cell;

/// Response headers reported, in order.
const HEADERS: &[&str] = &[
    "Content-Type",
    "Content-Length",
    "Date",
    "Expires",
    "Last-Modified",
    "Cache-Control",
    "Server",
];

/// Triage of every `Cache.db` of the source that holds the CFNetwork cache tables.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Cache.db", |find, path| one(run, find, path))
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "cfurl_cache_response",
        "cfurl_cache_blob_data",
        "cfurl_cache_receiver_data",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if schema.columns("cfurl_cache_response").is_empty() {
        // another app's Cache.db without the CFNetwork tables
        return Ok(());
    }
    for t in tables {
        if !schema.require(run, t, &["entry_ID"])? {
            return Ok(());
        }
    }
    let sql = "SELECT * FROM (SELECT r.entry_ID AS entry, r.request_key AS url, \
strftime('%s', r.time_stamp) AS unix, r.partition AS partition, r.storage_policy AS policy, \
b.response_object AS response, b.request_object AS request, d.isDataOnFS AS on_fs, \
CASE WHEN d.isDataOnFS = 1 THEN CAST(d.receiver_data AS TEXT) END AS fs_name, \
length(d.receiver_data) AS stored FROM cfurl_cache_response r \
LEFT JOIN cfurl_cache_blob_data b ON b.entry_ID = r.entry_ID \
LEFT JOIN cfurl_cache_receiver_data d ON d.entry_ID = r.entry_ID)";
    let Some(paged) = run.paged_with(path, sql, "entry", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let entry = raw(t, row, "entry").unwrap_or_default();
        let url = raw(t, row, "url").unwrap_or_default();
        let response = t
            .get(row, "response")
            .and_then(plist_cell)
            .unwrap_or(Value::Null);
        let parts = response
            .get("Array")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let status = parts.get(3).and_then(text);
        let size = parts.get(5).and_then(text);
        let mime = parts.get(6).and_then(text);
        let headers = parts.get(4).cloned().unwrap_or(Value::Null);
        let method = t
            .get(row, "request")
            .and_then(plist_cell)
            .and_then(|r| r.get("Array").and_then(Value::as_array).cloned())
            .and_then(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .find(|s| {
                        matches!(
                            *s,
                            "GET" | "POST" | "PUT" | "HEAD" | "DELETE" | "PATCH" | "OPTIONS"
                        )
                    })
                    .map(str::to_string)
            });
        let mut d = Draft::new("web", format!("Cached {url}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Url, Some(&url), inv);
        d.fact(FactType::Identifier, Some(&entry), inv);
        let unix = raw(t, row, "unix");
        d.time(
            unix.as_deref(),
            unix.as_ref().map(|_| TimeEncoding::UnixSeconds),
            "Web cache entry stored",
            inv,
        );
        let mut said = Vec::new();
        for (what, v, ft) in [
            ("status", status.clone(), FactType::Text),
            ("method", method.clone(), FactType::Text),
            ("MIME type", mime.clone(), FactType::Text),
            ("payload size", size.clone(), FactType::Count),
        ] {
            if let Some(v) = v {
                d.fact(ft, Some(&v), inv);
                said.push(format!("{what} {v}"));
            }
        }
        for h in HEADERS {
            if let Some(v) = headers.get(*h).and_then(text) {
                d.fact(FactType::Text, Some(&v), inv);
                said.push(format!("{h}: {v}"));
            }
        }
        let on_fs = t.get(row, "on_fs") == Some("1");
        let fs_name = raw(t, row, "fs_name");
        d.fact(FactType::Name, fs_name.as_deref(), inv);
        for (what, col) in [
            ("partition", "partition"),
            ("storage policy", "policy"),
            ("stored bytes", "stored"),
        ] {
            if let Some(v) = raw(t, row, col) {
                d.fact(FactType::Text, Some(&v), inv);
                said.push(format!("{what} {v}"));
            }
        }
        d.interpretation = format!(
            "Entry {entry} of the URL cache {path}: {url} was cached ({}); the payload is {}.",
            said.join("; "),
            match (on_fs, &fs_name) {
                (true, Some(n)) => format!("in the file fsCachedData/{n}"),
                _ => "in the database".to_string(),
            }
        );
        run.record(d)?;
    }
    Ok(())
}
