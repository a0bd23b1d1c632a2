//! DuckDuckGo's browser on iOS (`Library/Application Support/History.sqlite` of its container, a
//! Core Data store), iLEAPP's `duckduckgo_history` and `duckduckgo_page_visits`: one `web`
//! phenomenon per history entry (`ZBROWSINGHISTORYENTRYMANAGEDOBJECT`: URL, title, last visit,
//! total visits, trackers blocked and found, the blocked tracking entities, failed to load,
//! cookie pop-up blocked) and one per page visit (`ZPAGEVISITMANAGEDOBJECT`: the visit's time,
//! its entry's URL and title, the tab's id where the store has `ZTABHISTORYMANAGEDOBJECT`).
//! Times are Cocoa seconds. A `History.sqlite` without the entries table is another app's and is
//! passed over; one with it but without `ZURL` is noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::{Draft, Run};
use crate::drafts::apple_seconds;

const ENTRIES: &str = "ZBROWSINGHISTORYENTRYMANAGEDOBJECT";
const VISITS: &str = "ZPAGEVISITMANAGEDOBJECT";
const TABS: &str = "ZTABHISTORYMANAGEDOBJECT";

/// Triage of every DuckDuckGo history store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("History.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[ENTRIES, VISITS, TABS])? else {
            continue;
        };
        if schema.columns(ENTRIES).is_empty() {
            continue;
        }
        if !schema.require(run, ENTRIES, &["ZURL"])? {
            continue;
        }
        let c = |col: &str| format!("{} AS {col}", schema.col("h", ENTRIES, col));
        let sql = format!(
            "SELECT h.Z_PK AS z_pk, h.ZURL AS url, {} FROM {ENTRIES} h",
            [
                "ZTITLE",
                "ZLASTVISIT",
                "ZNUMBEROFTOTALVISITS",
                "ZNUMBEROFTRACKERSBLOCKED",
                "ZTRACKERSFOUND",
                "ZBLOCKEDTRACKINGENTITIES",
                "ZFAILEDTOLOAD",
                "ZCOOKIEPOPUPBLOCKED",
            ]
            .map(c)
            .join(", ")
        );
        if let Some(paged) = run.paged(path, &sql, "z_pk")? {
            for (inv, t, row) in paged.rows() {
                let get = |c: &str| crate::outputs::raw(t, row, c);
                let Some(url) = get("url").filter(|u| !u.is_empty()) else {
                    continue;
                };
                let mut d = Draft::new("web", format!("DuckDuckGo history: {url}"));
                d.fact(FactType::Path, Some(path), &find);
                d.fact(FactType::Url, Some(&url), inv);
                let mut said = Vec::new();
                for (col, ft, label) in [
                    ("ZTITLE", FactType::Text, "title"),
                    ("ZNUMBEROFTOTALVISITS", FactType::Count, "visits"),
                    (
                        "ZNUMBEROFTRACKERSBLOCKED",
                        FactType::Count,
                        "trackers blocked",
                    ),
                    ("ZTRACKERSFOUND", FactType::Count, "trackers found"),
                    (
                        "ZBLOCKEDTRACKINGENTITIES",
                        FactType::Text,
                        "blocked tracking entities",
                    ),
                ] {
                    if let Some(v) = get(col).filter(|v| !v.is_empty()) {
                        d.fact(ft, Some(&v), inv);
                        said.push(format!("{label} {v}"));
                    }
                }
                for (col, what) in [
                    ("ZFAILEDTOLOAD", "failed to load"),
                    ("ZCOOKIEPOPUPBLOCKED", "cookie pop-up blocked"),
                ] {
                    if let Some(v) = get(col) {
                        said.push(format!("{what}: {}", if v == "1" { "yes" } else { "no" }));
                    }
                }
                let last = get("ZLASTVISIT");
                d.time(
                    last.as_deref(),
                    apple_seconds(last.as_deref()),
                    "DuckDuckGo page last visited",
                    inv,
                );
                d.interpretation = format!(
                    "A page in DuckDuckGo's browsing history on the device: {url}; {}.",
                    said.join("; ")
                );
                run.record(d)?;
            }
            crate::calls::note_pages_cap(run.ctx, path, &paged, "history entries")?;
        }
        if schema.columns(VISITS).is_empty() {
            continue;
        }
        let tabs =
            !schema.columns(TABS).is_empty() && schema.columns(VISITS).contains("ZTABHISTORY");
        let sql = format!(
            "SELECT v.Z_PK AS z_pk, {} AS visited, h.ZURL AS url, {} AS title, {} AS tab_id FROM {VISITS} v LEFT JOIN {ENTRIES} h ON {} = h.Z_PK{}",
            schema.col("v", VISITS, "ZDATE"),
            schema.col("h", ENTRIES, "ZTITLE"),
            if tabs {
                "t.ZTABID".to_string()
            } else {
                "NULL".to_string()
            },
            schema.col("v", VISITS, "ZHISTORYENTRY"),
            if tabs {
                format!(" LEFT JOIN {TABS} t ON v.ZTABHISTORY = t.Z_PK")
            } else {
                String::new()
            },
        );
        let Some(paged) = run.paged(path, &sql, "z_pk")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let get = |c: &str| crate::outputs::raw(t, row, c);
            let url = get("url");
            let mut d = Draft::new(
                "web",
                format!(
                    "DuckDuckGo page visit: {}",
                    url.as_deref().unwrap_or("page not in the history")
                ),
            );
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Url, url.as_deref(), inv);
            d.fact(FactType::Text, get("title").as_deref(), inv);
            d.fact(FactType::Identifier, get("tab_id").as_deref(), inv);
            let at = get("visited");
            d.time(
                at.as_deref(),
                apple_seconds(at.as_deref()),
                "DuckDuckGo page visited",
                inv,
            );
            d.interpretation = format!(
                "One visit in DuckDuckGo on the device to {}{}.",
                url.as_deref()
                    .unwrap_or("a page whose history entry is gone"),
                get("tab_id")
                    .map(|t| format!(", in tab {t}"))
                    .unwrap_or_default()
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "page visits")?;
    }
    Ok(())
}
