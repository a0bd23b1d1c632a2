//! Safari's recent web searches (`mobile/Library/Preferences/com.apple.mobilesafari.plist`,
//! `RecentWebSearches`), iLEAPP's `safariRecentWebSearches`: one `web` phenomenon per search the
//! user typed in Safari's address bar — the text (`SearchString`) and when (`Date`). Safari keeps
//! the latest few (the list the address bar offers back); a search may be the only trace of what
//! the user looked for once the history is cleared.
//!
//! Identities: none observed.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run, file_name};
use crate::outputs::json_scalar;

/// Triage of every Safari preferences plist of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.apple.mobilesafari.plist", |find, path| {
        one(run, find, path)
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(searches) = v.get("RecentWebSearches").and_then(Value::as_array) else {
        return Ok(());
    };
    let file = file_name(path);
    for (i, s) in searches.iter().enumerate() {
        let Some(term) = json_scalar(s.get("SearchString")) else {
            continue;
        };
        let date = json_scalar(s.get("Date"));
        let mut d = Draft::new("web", format!("Safari search: {term}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, Some(&term), &inv);
        d.time(
            date.as_deref(),
            crate::drafts::date_text(date.as_deref()),
            "Safari search typed",
            &inv,
        );
        d.interpretation = format!(
            "RecentWebSearches entry {} of {file}: the user searched for {term} in Safari's address bar{} (Safari keeps the latest searches to offer them back).",
            i + 1,
            date.map(|t| format!(" at {t}")).unwrap_or_default()
        );
        run.record(d)?;
    }
    Ok(())
}
