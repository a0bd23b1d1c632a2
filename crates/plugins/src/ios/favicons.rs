//! Safari's favicon cache (`Library/Image Cache/Favicons/Favicons.db` of Safari's data
//! container), iLEAPP's `safariFavicons`: one `web` phenomenon per page whose icon Safari kept
//! ("Safari favicon of <page>") — the page URL (`page_url`), the icon's URL, width, height,
//! whether Safari generated representations, and when the icon was saved (`icon_info.timestamp`:
//! Cocoa seconds through iOS 18; a value past 978,307,200 is read as Unix seconds, the two
//! ranges not overlapping for real dates, as iLEAPP reads it). The cache outlives the history:
//! a page listed here was loaded in Safari even when its history entry is gone (said). Icons
//! with no page are one phenomenon each. Columns are taken by name; a store without `icon_info`
//! is noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};

use super::{Draft, Run};

/// A stored icon time: Unix seconds past 978,307,200, else Cocoa seconds.
fn icon_time(v: Option<&str>) -> Option<TimeEncoding> {
    let n: f64 = v?.trim().parse().ok()?;
    if !n.is_finite() || n <= 0.0 {
        return None;
    }
    Some(if n > 978_307_200.0 {
        TimeEncoding::UnixSeconds
    } else {
        TimeEncoding::AppleSeconds
    })
}

/// Triage of every Safari favicon cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("Favicons.db")? else {
        return Ok(());
    };
    for path in paths
        .iter()
        .filter(|p| p.contains("/Image Cache/Favicons/"))
    {
        let Some(schema) = run.schema(path, &["icon_info", "page_url"])? else {
            continue;
        };
        if !schema.require(run, "icon_info", &["uuid"])? {
            continue;
        }
        let has_pages = schema.columns("page_url").contains("uuid");
        let c = |col: &str| format!("{} AS {col}", schema.col("i", "icon_info", col));
        let icon_cols = [
            c("url"),
            c("width"),
            c("height"),
            c("has_generated_representations"),
            c("timestamp"),
        ]
        .join(", ");
        // each page with its icon, then each icon no page names (wrapped, as the pages'
        // filter is appended to the query)
        let mut queries = Vec::new();
        if has_pages {
            queries.push(format!(
                "SELECT p.rowid AS k, {} AS page, p.uuid AS uuid, {icon_cols} FROM page_url p LEFT JOIN icon_info i ON i.uuid = p.uuid",
                schema.col("p", "page_url", "url"),
            ));
            queries.push(format!(
                "SELECT * FROM (SELECT i.rowid AS k, NULL AS page, i.uuid AS uuid, {icon_cols} FROM icon_info i WHERE NOT EXISTS (SELECT 1 FROM page_url p WHERE p.uuid = i.uuid))"
            ));
        } else {
            queries.push(format!(
                "SELECT i.rowid AS k, NULL AS page, i.uuid AS uuid, {icon_cols} FROM icon_info i"
            ));
        }
        for sql in &queries {
            one(run, &find, path, sql)?;
        }
    }
    Ok(())
}

/// The favicons `sql` selects of the cache at `path`.
fn one(
    run: &Run<'_, '_>,
    find: &masf_tools::Invoked,
    path: &str,
    sql: &str,
) -> Result<(), RuntimeError> {
    {
        let Some(paged) = run.paged(path, sql, "k")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let get = |c: &str| crate::outputs::raw(t, row, c);
            let page = get("page");
            let icon = get("url");
            let shown = page
                .clone()
                .or_else(|| icon.clone())
                .unwrap_or_else(|| "an icon".into());
            let mut d = Draft::new("web", format!("Safari favicon of {shown}"));
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Url, page.as_deref(), inv);
            d.fact(FactType::Url, icon.as_deref(), inv);
            d.fact(FactType::Identifier, get("uuid").as_deref(), inv);
            let mut said = Vec::new();
            for (col, label) in [
                ("width", "width"),
                ("height", "height"),
                ("has_generated_representations", "generated representations"),
            ] {
                if let Some(v) = get(col) {
                    d.fact(FactType::Text, Some(&v), inv);
                    said.push(format!("{label} {v}"));
                }
            }
            let at = t.get(row, "timestamp");
            d.time(at, icon_time(at), "Favicon saved", inv);
            d.interpretation = format!(
                "icon_info of {path}: Safari kept the icon {} of {}{}; the icon cache outlives the history, so the page was loaded in Safari even when its history entry is gone. timestamp is Cocoa seconds (Unix seconds when past 978,307,200).",
                icon.as_deref().unwrap_or("(no URL)"),
                page.as_deref().unwrap_or("no page listed"),
                if said.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", said.join(", "))
                },
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "Safari favicons")?;
    }
    Ok(())
}
