//! The URL cache of Safari and of apps that load the web (`Library/Caches/<bundle>/Cache.db`,
//! CFNetwork's `cfurl_cache_*` tables): one phenomenon per cached response with every field
//! iLEAPP's `safariCache` reports — URL, time (`time_stamp`, UTC, as Unix seconds from SQL),
//! HTTP status, method, MIME type, payload location (the file name under `fsCachedData/` or
//! in the database) and size, the response headers (content type and length, Date, Expires,
//! Last-Modified, Cache-Control, Server), partition, storage policy, entry id. The archived
//! request and response objects are read through `sqlite_query`'s `plists`. The URL's host and
//! path are recorded as written (iLEAPP's `appStoreCachedRequests`); in the App Store's cache
//! (`Library/Caches/com.apple.AppStore/`), a request to a `search` or `search/suggestions`
//! endpoint with a `term` (or `q`) is also a search phenomenon — the term as written (and
//! decoded), storefront, platform, language: iLEAPP's `appStoreSearches`.

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

/// Triage of every `Cache.db` of the source that holds the CFNetwork cache tables (parsecd's
/// engaged completions, a store of the same name, are [`super::parsecd`]'s: a damaged one is
/// noted once, there).
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Cache.db", |find, path| {
        if super::parsecd::is_store(path) {
            Ok(())
        } else {
            one(run, find, path)
        }
    })
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
        // the host and path (iLEAPP's appStoreCachedRequests): parts of the URL as written
        let (host, url_path, query) = url_parts(&url);
        d.fact(FactType::Text, host, inv);
        d.fact(FactType::Text, url_path, inv);
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
        if path.contains("/com.apple.AppStore/") {
            let cites = (find, inv);
            app_store_search(
                run,
                path,
                cites,
                &entry,
                &url,
                url_path,
                query,
                unix.as_deref(),
            )?;
        }
    }
    Ok(())
}

/// The host, path and query of a URL as written (`scheme://host/path?query#fragment`).
fn url_parts(url: &str) -> (Option<&str>, Option<&str>, Option<&str>) {
    let Some((_, rest)) = url.split_once("://") else {
        return (None, None, None);
    };
    let rest = rest.split('#').next().unwrap_or(rest);
    let (before, query) = match rest.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (rest, None),
    };
    let (host, path) = match before.find('/') {
        Some(i) => (&before[..i], Some(&before[i..])),
        None => (before, None),
    };
    (
        Some(host).filter(|h| !h.is_empty()),
        path.filter(|p| !p.is_empty()),
        query,
    )
}

/// The value of `key` in a query string, as written (percent-encoded).
fn param<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty())
}

/// `+` and `%XX` decoded, as a query string writes a space and a byte (an invalid escape kept
/// as written).
fn percent_decoded(s: &str) -> String {
    percent_encoding::percent_decode_str(&s.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// A search the App Store's URL cache holds (iLEAPP's `appStoreSearches`): a request to a
/// `…/search` or `…/search/suggestions` endpoint with a `term` (or `q`) parameter.
#[allow(clippy::too_many_arguments)]
fn app_store_search(
    run: &Run<'_, '_>,
    path: &str,
    (find, inv): (&Invoked, &Invoked),
    entry: &str,
    url: &str,
    url_path: Option<&str>,
    query: Option<&str>,
    unix: Option<&str>,
) -> Result<(), RuntimeError> {
    let (Some(p), Some(q)) = (url_path, query) else {
        return Ok(());
    };
    let kind = if p.contains("/search/suggestions") {
        "suggestions"
    } else if p.contains("/search") {
        "search"
    } else {
        return Ok(());
    };
    let Some(term) = param(q, "term").or_else(|| param(q, "q")) else {
        return Ok(());
    };
    let decoded = percent_decoded(term);
    let parts: Vec<&str> = p.split('/').filter(|x| !x.is_empty()).collect();
    let storefront = parts
        .iter()
        .position(|x| *x == "catalog" || *x == "engagement")
        .and_then(|i| parts.get(i + 1).copied());
    let mut d = Draft::new("web", format!("App Store search: {decoded}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Text, Some(term), inv);
    d.fact(FactType::Text, storefront, inv);
    d.fact(FactType::Text, param(q, "platform"), inv);
    d.fact(FactType::Text, param(q, "l"), inv);
    d.fact(FactType::Url, Some(url), inv);
    d.fact(FactType::Identifier, Some(entry), inv);
    d.time(
        unix,
        unix.map(|_| TimeEncoding::UnixSeconds),
        "App Store search request cached",
        inv,
    );
    d.interpretation = format!(
        "Entry {entry} of the App Store's URL cache {path}: a request to the {kind} endpoint for {:?}{} (storefront {}, platform {}, language {}). A cached request shows what was typed or searched, not that the search was submitted: suggestion requests come one per keystroke.",
        term,
        if decoded != term {
            format!(" (decoded: {decoded:?})")
        } else {
            String::new()
        },
        storefront.unwrap_or("?"),
        param(q, "platform").unwrap_or("?"),
        param(q, "l").unwrap_or("?"),
    );
    run.record(d)
}

/// Every JSON value of the responses a CFNetwork `Cache.db` keeps in the database itself (not on
/// the file system) whose request address matches `url_where` (an SQL condition on
/// `r.request_key`), by its path (`json_tree`: `entry`, `k` the full key, `v` the atom), in one
/// query of at most [`crate::calls::ROW_CAP`] rows; a cut read is noted naming `what`. Shared by
/// the readers of apps' cached API answers (Amazon, Lidl Plus).
pub(super) fn cached_json_values(
    run: &Run<'_, '_>,
    path: &str,
    url_where: &str,
    what: &str,
) -> Result<Option<(Invoked, crate::outputs::Table)>, RuntimeError> {
    let sql = format!(
        "SELECT r.entry_ID AS entry, j.fullkey AS k, j.atom AS v \
FROM cfurl_cache_response r JOIN cfurl_cache_receiver_data d ON d.entry_ID = r.entry_ID \
JOIN json_tree(CASE WHEN d.isDataOnFS = 0 AND json_valid(CAST(d.receiver_data AS TEXT)) \
THEN CAST(d.receiver_data AS TEXT) ELSE '{{}}' END) j \
WHERE ({url_where}) AND j.atom IS NOT NULL ORDER BY r.entry_ID, j.id"
    );
    let read = run.query(path, &sql, crate::calls::ROW_CAP)?;
    if let Some((inv, t)) = &read
        && t.truncated
    {
        run.ctx.unparsed(
            path,
            &format!(
                "only the first {} values of the {what} kept in the database were read",
                t.rows.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_parts_and_parameters() {
        let u = "https://amp-api-search-edge.apps.apple.com/v1/catalog/us/search/suggestions?kinds=terms&l=en-US&term=led%20z&with=appEvents#x";
        let (h, p, q) = url_parts(u);
        assert_eq!(h, Some("amp-api-search-edge.apps.apple.com"));
        assert_eq!(p, Some("/v1/catalog/us/search/suggestions"));
        assert_eq!(param(q.unwrap(), "term"), Some("led%20z"));
        assert_eq!(param(q.unwrap(), "l"), Some("en-US"));
        assert_eq!(param(q.unwrap(), "q"), None);
        assert_eq!(percent_decoded("led%20z+%E2%82%AC%zz%"), "led z €%zz%");
        assert_eq!(url_parts("not a url"), (None, None, None));
        assert_eq!(url_parts("https://host"), (Some("host"), None, None));
    }
}
