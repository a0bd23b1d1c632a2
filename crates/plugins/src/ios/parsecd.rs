//! Spotlight's and Safari's engaged search completions (parsecd's
//! `Library/Caches/com.apple.parsecd/EngagedCompletions/Cache.db`, under `mobile` or the
//! `group.com.apple.PegasusConfiguration` app group), iLEAPP's `parsecdCache` ("ParseCD
//! Cache"): what the user typed and which completion they chose.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `completion_cache_engagement` | one `web` per engagement ("Spotlight completion chosen: <completion> (typed <input>)", or "Spotlight app result chosen: <bundle id> (typed <input>)") | what was typed (`input`), the completion chosen, the transformed text, the score, whether the completion reads as an app's bundle id (said in the query), the row id; when (`engagement_date`, Cocoa seconds) |
//!
//! parsecd serves the search suggestions of Spotlight and Safari; this cache keeps the
//! completions the user engaged with, each with the text typed so far — the typed text is the
//! user's, the completion what they picked. A completion that is an app's bundle id
//! (reverse-DNS such as `com.apple.weather`, told in the query: no space or slash, starting
//! `com.`, `net.`, `org.` or `io.` with two dots) records engagement with that app's result, not
//! that the app was opened (iLEAPP's note). Other `Cache.db` files (the CFNetwork URL caches
//! read by [`super::safari`]) are passed over by their folder.
//!
//! Columns are taken by name (absent ones NULL: older stores have no `score`); a store whose
//! `completion_cache_engagement` is missing or lacks `completion` is noted. No identity.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, file_name};
use crate::calls::select_columns;
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const TABLE: &str = "completion_cache_engagement";

/// Whether `path` is parsecd's engaged-completions cache (not another `Cache.db`).
pub fn is_store(path: &str) -> bool {
    path.ends_with("/EngagedCompletions/Cache.db")
}

/// Triage of every engaged-completions cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("Cache.db")? else {
        return Ok(());
    };
    for path in paths.iter().filter(|p| is_store(p)) {
        store(run, &find, path)?;
    }
    Ok(())
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[TABLE])? else {
        return Ok(());
    };
    if !schema.require(run, TABLE, &["completion"])? {
        return Ok(());
    }
    let c = schema.columns(TABLE);
    let sql = format!(
        "SELECT c.rowid AS k, c.completion AS completion, {}, CASE WHEN instr(c.completion, ' ') = 0 AND instr(c.completion, '/') = 0 AND (c.completion GLOB 'com.?*.?*' OR c.completion GLOB 'net.?*.?*' OR c.completion GLOB 'org.?*.?*' OR c.completion GLOB 'io.?*.?*') THEN 'an app''s bundle id' END AS app_result FROM {TABLE} c",
        select_columns(
            &c,
            "c.",
            &[
                ("input", "input"),
                ("transformed", "transformed"),
                ("score", "score"),
                ("engagement_date", "engaged"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let completion = get("completion").unwrap_or_else(|| "?".into());
        let app = t.get(row, "app_result").is_some();
        let typed = get("input")
            .map(|i| format!(" (typed {i})"))
            .unwrap_or_default();
        let mut d = Draft::new(
            "web",
            if app {
                format!("Spotlight app result chosen: {completion}{typed}")
            } else {
                format!("Spotlight completion chosen: {completion}{typed}")
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("input", FactType::Text, "typed"),
                ("completion", FactType::Text, "completion chosen"),
                ("transformed", FactType::Text, "transformed"),
                ("score", FactType::Text, "score"),
                ("app_result", FactType::Text, "which reads as"),
            ],
        );
        let at = t.get(row, "engaged");
        d.time(at, apple_seconds(at), "Spotlight completion chosen", inv);
        d.interpretation = format!(
            "{TABLE} row {} of {file}: a search completion the user engaged with in Spotlight or Safari ({}); the typed text is what the user had entered, the completion what they chose{}; engagement_date is Cocoa seconds.",
            t.get(row, "k").unwrap_or("?"),
            said.join("; "),
            if app {
                " — an app's result: engagement with it, not proof the app was opened"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "engaged completions")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_paths() {
        assert!(is_store(
            "/private/var/mobile/Library/Caches/com.apple.parsecd/EngagedCompletions/Cache.db"
        ));
        assert!(!is_store(
            "/private/var/mobile/Library/Caches/com.apple.Safari/Cache.db"
        ));
    }
}
