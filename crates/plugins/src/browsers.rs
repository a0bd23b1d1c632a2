//! Chromium-family browsing history (`History`: Chrome, Edge, Brave, Opera, Samsung Internet and
//! WebView apps, on Android, Windows, macOS and Linux), read by the Android parsers, which the
//! disk and archive plugins run on their trees too, wherever a profile sits.
//!
//! | table | phenomenon | fields (ALEAPP's `chrome` reports) |
//! |---|---|---|
//! | `visits` ⋈ `urls` | one per visit | time, URL, title, visit and typed counts, transition (core type and qualifiers), the URL it came from, duration |
//! | `downloads` (+ `downloads_url_chains`) | one per download | target path, start, end and last-access times, bytes received and total, state, danger type, interrupt reason, opened, tab URL, referrer, MIME type, every URL of its redirect chain |
//! | `keyword_search_terms` ⋈ `urls` | one per search | the term, the results URL, when |
//!
//! Columns are taken by name (older builds lack some). Times are WebKit microseconds since 1601
//! (`webkit`); 0 is "not set". Each table is read in pages up to [`crate::calls::ROW_CAP`] rows, the rest noted.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, webkit};
use crate::identity::{TreeRef, artefact_name, pages_on, tables_on};
use crate::outputs::raw;

/// Most bookmarks read from one `Bookmarks` JSON file (one output: every fact re-reads it).
pub const MAX_ROWS: u64 = 2000;

/// The browser a profile path belongs to (`com.android.chrome/app_chrome/Default/History` →
/// Chrome).
pub fn browser_of(path: &str) -> &'static str {
    let p = path.to_ascii_lowercase();
    [
        ("app_sbrowser", "Samsung Internet"),
        ("bravesoftware", "Brave"),
        ("brave", "Brave"),
        ("microsoft/edge", "Edge"),
        ("com.microsoft.emmx", "Edge"),
        ("opera", "Opera"),
        ("vivaldi", "Vivaldi"),
        ("chromium", "Chromium"),
        ("chrome", "Chrome"),
        ("app_webview", "an app's WebView"),
    ]
    .iter()
    .find(|(k, _)| p.contains(k))
    .map_or("a Chromium-family browser", |(_, b)| b)
}

/// The profile folder holding `path` (`Default`, `Profile 1`).
fn profile_of(path: &str) -> &str {
    path.rsplit('/').nth(1).unwrap_or("?")
}

/// The words of a visit's transition (`visits.transition`: core type in the low byte,
/// qualifier bits above).
pub fn transition(value: i64) -> String {
    const CORE: [&str; 11] = [
        "link",
        "typed",
        "auto bookmark",
        "auto subframe",
        "manual subframe",
        "generated",
        "start page",
        "form submit",
        "reload",
        "keyword",
        "keyword generated",
    ];
    let core = CORE
        .get((value & 0xff) as usize)
        .copied()
        .unwrap_or("unknown");
    let qualifiers: Vec<&str> = [
        (0x0080_0000, "blocked"),
        (0x0100_0000, "forward/back"),
        (0x0200_0000, "from the address bar"),
        (0x0400_0000, "home page"),
        (0x0800_0000, "from an API"),
        (0x1000_0000, "chain start"),
        (0x2000_0000, "chain end"),
        (0x4000_0000, "client redirect"),
        (0x8000_0000, "server redirect"),
    ]
    .iter()
    .filter(|(bit, _)| value & bit != 0)
    .map(|(_, w)| *w)
    .collect();
    if qualifiers.is_empty() {
        core.to_string()
    } else {
        format!("{core} ({})", qualifiers.join(", "))
    }
}

/// Reads one Chromium `History` database at `path` of `tree` (`found`: the call that listed it).
pub fn chromium_history(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((_, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(tree, path);
    if !has("urls") || !has("visits") {
        ctx.unparsed(
            &name,
            "not a Chromium history database: no urls or visits table",
            None,
        )?;
        return Ok(());
    }
    let browser = browser_of(path);
    let profile = profile_of(path);
    let q = |sql: &str| pages_on(ctx, tree, path, sql);
    let columns = |table: &str| -> Result<BTreeSet<String>, RuntimeError> {
        Ok(crate::identity::columns_on(ctx, tree, path, table)?
            .map(|(_, c)| c)
            .unwrap_or_default())
    };
    let where_ = format!("{browser} profile {profile} ({name})");

    // Visits.
    let vcols = columns("visits")?;
    let sql = format!(
        "SELECT v.id AS id, v.visit_time AS time, u.url AS url, u.title AS title, u.visit_count AS visits, \
u.typed_count AS typed, {}, {}, (SELECT fu.url FROM visits fv JOIN urls fu ON fu.id = fv.url WHERE fv.id = v.from_visit) AS from_url \
FROM visits v JOIN urls u ON u.id = v.url ORDER BY v.id",
        column_or_null(&vcols, "v.", "transition", "transition"),
        column_or_null(&vcols, "v.", "visit_duration", "visit_duration"),
    );
    if let Some(pages) = q(&sql)? {
        for (inv, t, row) in pages.rows() {
            let id = t.get(row, "id").unwrap_or("?");
            let url = raw(t, row, "url");
            let mut d = Draft::new(
                "web",
                format!("{browser} visit {id} to {}", url.as_deref().unwrap_or("?")),
            );
            d.fact(FactType::Path, Some(path), found);
            d.fact(FactType::Url, url.as_deref(), inv);
            d.fact(FactType::Text, raw(t, row, "title").as_deref(), inv);
            d.fact(FactType::Count, t.get(row, "visits"), inv);
            d.fact(FactType::Url, raw(t, row, "from_url").as_deref(), inv);
            let time = t.get(row, "time");
            d.time(time, webkit(time), "Page visited", inv);
            let how = t
                .get(row, "transition")
                .and_then(|v| v.parse::<i64>().ok())
                .map(transition)
                .unwrap_or_else(|| "unrecorded".into());
            d.interpretation = format!(
                "visits id {id} in {where_}: a visit ({how}) to a page visited {} time(s), typed {} time(s){}{}; visit_time is WebKit microseconds since 1601 (webkit).",
                t.get(row, "visits").unwrap_or("?"),
                t.get(row, "typed").unwrap_or("?"),
                t.get(row, "from_url")
                    .map(|u| format!(", coming from {u}"))
                    .unwrap_or_default(),
                t.get(row, "visit_duration")
                    .and_then(|v| v.parse::<i64>().ok())
                    .filter(|v| *v > 0)
                    .map(|v| format!(", open for {:.1} s", v as f64 / 1e6))
                    .unwrap_or_default(),
            );
            record_draft(ctx, d)?;
        }
        note_pages_cap(ctx, &name, &pages, "visits")?;
    }

    // Downloads.
    if has("downloads") {
        let dcols = columns("downloads")?;
        let chain = if has("downloads_url_chains") {
            "(SELECT group_concat(c.url, ' | ') FROM (SELECT url FROM downloads_url_chains WHERE id = d.id ORDER BY chain_index) c)"
        } else {
            "NULL"
        };
        let picked: Vec<String> = [
            "target_path",
            "start_time",
            "end_time",
            "last_access_time",
            "received_bytes",
            "total_bytes",
            "state",
            "danger_type",
            "interrupt_reason",
            "opened",
            "tab_url",
            "referrer",
            "mime_type",
        ]
        .iter()
        .map(|c| column_or_null(&dcols, "d.", c, c))
        .collect();
        let sql = format!(
            "SELECT d.id AS id, {}, {chain} AS chain FROM downloads d ORDER BY d.id",
            picked.join(", ")
        );
        if let Some(pages) = q(&sql)? {
            for (inv, t, row) in pages.rows() {
                let id = t.get(row, "id").unwrap_or("?");
                let target = raw(t, row, "target_path");
                let mut d = Draft::new(
                    "downloads",
                    format!(
                        "{browser} download {id}: {}",
                        target.as_deref().unwrap_or("?")
                    ),
                );
                d.fact(FactType::Path, Some(path), found);
                d.fact(FactType::Path, target.as_deref(), inv);
                for c in ["tab_url", "referrer"] {
                    d.fact(FactType::Url, raw(t, row, c).as_deref(), inv);
                }
                for u in raw(t, row, "chain")
                    .iter()
                    .flat_map(|c| c.split(" | ").map(str::to_string).collect::<Vec<_>>())
                {
                    d.fact(FactType::Url, Some(&u), inv);
                }
                for c in ["received_bytes", "total_bytes"] {
                    d.fact(FactType::Count, t.get(row, c), inv);
                }
                d.fact(FactType::Text, raw(t, row, "mime_type").as_deref(), inv);
                for (c, what) in [
                    ("start_time", "Download started"),
                    ("end_time", "Download ended"),
                    ("last_access_time", "Downloaded file last opened"),
                ] {
                    let v = t.get(row, c);
                    d.time(v, webkit(v), what, inv);
                }
                let state = match t.get(row, "state") {
                    Some("0") => "in progress",
                    Some("1") => "complete",
                    Some("2") => "cancelled",
                    Some("3") | Some("4") => "interrupted",
                    _ => "of unknown state",
                };
                d.interpretation = format!(
                    "downloads id {id} in {where_}: a download, {state} ({} of {} bytes; danger type {}, interrupt reason {}, opened {}), saved as {}; times are WebKit microseconds since 1601 (webkit).",
                    t.get(row, "received_bytes").unwrap_or("?"),
                    t.get(row, "total_bytes").unwrap_or("?"),
                    t.get(row, "danger_type").unwrap_or("?"),
                    t.get(row, "interrupt_reason").unwrap_or("?"),
                    t.get(row, "opened").unwrap_or("?"),
                    target.as_deref().unwrap_or("?"),
                );
                record_draft(ctx, d)?;
            }
            note_pages_cap(ctx, &name, &pages, "downloads")?;
        }
    }

    // Searches.
    if has("keyword_search_terms") {
        let sql = "SELECT k.rowid AS id, k.term AS term, u.url AS url, u.last_visit_time AS time \
FROM keyword_search_terms k JOIN urls u ON u.id = k.url_id ORDER BY k.rowid";
        if let Some(pages) = q(sql)? {
            for (inv, t, row) in pages.rows() {
                let term = raw(t, row, "term");
                let mut d = Draft::new(
                    "web",
                    format!("{browser} search {}", term.as_deref().unwrap_or("?")),
                );
                d.fact(FactType::Path, Some(path), found);
                d.fact(FactType::Text, term.as_deref(), inv);
                d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
                let time = t.get(row, "time");
                d.time(time, webkit(time), "Search results last visited", inv);
                d.interpretation = format!(
                    "keyword_search_terms row {} in {where_}: the user searched for {:?}; the time is the results page's last visit (WebKit microseconds since 1601, webkit).",
                    t.get(row, "id").unwrap_or("?"),
                    t.get(row, "term").unwrap_or("?"),
                );
                record_draft(ctx, d)?;
            }
            note_pages_cap(ctx, &name, &pages, "searches")?;
        }
    }
    Ok(())
}

/// A Chromium profile's `Bookmarks` (JSON the browser writes: `roots` → `bookmark_bar`,
/// `other`, `synced`, each a folder of `url` and `folder` nodes): one phenomenon per bookmark
/// with its name, URL, folder path, GUID and its added and last-used times (WebKit
/// microseconds as decimal strings; 0 is "not set"), up to [`MAX_ROWS`]. Read with `read_text`
/// (at most 1 MiB); each value is cited as the file writes it (verbatim, or JSON-escaped), and
/// a value the file writes otherwise (Chrome escapes `<` as `\u003C`) is left out of the facts
/// rather than cited wrongly.
pub fn chromium_bookmarks(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, path);
    let Some(read) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_text",
        crate::identity::args_on(tree, serde_json::json!({"path": path, "length": 1_048_576})),
    )?
    else {
        return Ok(());
    };
    let body = &read.output.text;
    let parsed = body
        .find('{')
        .and_then(|start| serde_json::from_str::<serde_json::Value>(&body[start..]).ok());
    let Some(roots) = parsed
        .as_ref()
        .and_then(|v| v.get("roots"))
        .and_then(serde_json::Value::as_object)
    else {
        ctx.unparsed(
            &name,
            "could not parse the Chromium bookmarks because the file is no JSON with roots (or is larger than read_text's 1 MiB)",
            Some(&read.record.invocation_id),
        )?;
        return Ok(());
    };
    let browser = browser_of(path);
    let profile = profile_of(path);
    // as the file writes a string: verbatim, else JSON-escaped, else not citable
    let cited = |s: &str| -> Option<String> {
        if body.contains(s) {
            Some(s.to_string())
        } else {
            let j = crate::outputs::in_json(s);
            body.contains(&j).then_some(j)
        }
    };
    let mut stack: Vec<(String, &serde_json::Value)> = roots
        .iter()
        .map(|(_, node)| (String::new(), node))
        .collect();
    stack.reverse();
    let mut count = 0u64;
    while let Some((folder, node)) = stack.pop() {
        let title = node["name"].as_str().unwrap_or_default();
        match node["type"].as_str() {
            Some("folder") => {
                let here = if folder.is_empty() {
                    title.to_string()
                } else {
                    format!("{folder} > {title}")
                };
                for child in node["children"].as_array().into_iter().flatten().rev() {
                    stack.push((here.clone(), child));
                }
            }
            Some("url") => {
                count += 1;
                if count > MAX_ROWS {
                    continue;
                }
                let url = node["url"].as_str().unwrap_or_default();
                let mut d = Draft::new(
                    "web",
                    format!(
                        "{browser} bookmark: {}",
                        if title.is_empty() { url } else { title }
                    ),
                );
                d.fact(FactType::Path, Some(path), found);
                d.fact(FactType::Url, cited(url).as_deref(), &read);
                d.fact(FactType::Text, cited(title).as_deref(), &read);
                if let Some(last) = folder.rsplit(" > ").next() {
                    d.fact(FactType::Text, cited(last).as_deref(), &read);
                }
                d.fact(
                    FactType::Identifier,
                    node["guid"].as_str().and_then(&cited).as_deref(),
                    &read,
                );
                for (key, desc) in [
                    ("date_added", "Bookmark added"),
                    ("date_last_used", "Bookmark last used"),
                ] {
                    let v = node[key].as_str().and_then(&cited);
                    d.time(v.as_deref(), webkit(v.as_deref()), desc, &read);
                }
                d.interpretation = format!(
                    "{browser} profile {profile} ({name}) keeps a bookmark of {url} named \"{title}\" in the folder {folder}; its added and last-used times are WebKit microseconds since 1601 (0: not set)."
                );
                record_draft(ctx, d)?;
            }
            _ => {}
        }
    }
    if count > MAX_ROWS {
        ctx.unparsed(
            &name,
            &format!("{count} bookmarks, the first {MAX_ROWS} read"),
            Some(&read.record.invocation_id),
        )?;
    }
    Ok(())
}
