//! Disney+ (`com.disney.disneyplus`), ALEAPP's `disneyPlus` (`disneyplus_resume_points`,
//! `disneyplus_last_played`, `disneyplus_recent_searches`): where each title was left off, the
//! item last played, and the searches the app keeps per profile.
//!
//! | file: table or key | phenomenon | fields |
//! |---|---|---|
//! | `databases/db_offline_bookmarks`: `bookmarks` | one `media` per resume point ("Disney+ resume point <content id>") | content id, profile id, playhead and runtime (seconds of the title), `ccDefault` and `ccMedia` as stored; saved (`occurredOn`, Unix ms) |
//! | `shared_prefs/default.xml`: each `bookmarksHandshake…` key (a JSON text) | one `media` per key ("Disney+ last played <content id>") | the key, content id, media id, series id, content identifier type; played (`timestamp`, Unix ms) |
//! | `shared_prefs/RecentSearchSharedPref.xml`: `recentSearches` (a JSON text keyed by profile id) | one `app_usage` per search kept ("Disney+ search <term>") | search term, content id, profile id |
//!
//! A resume point says a title was played to that point on a profile of the account; the title's
//! name is not in the store (ALEAPP names a few from the app's HTTP cache, a JSON-cache walk this
//! reader does not make). One `bookmarksHandshake` key is the item last played overall, others
//! the last of a series the key names. A kept search term is text the store holds for a profile:
//! it keeps no time, and does not say whether the user typed it. Each value of a JSON text is
//! cited in the form `read_xml`'s output keeps it (XML-escaped JSON). Identities: none (profile
//! ids are facts; the profiles of one account are a household's). Not read: the session state
//! (`BAM_SDK_STORAGE.xml`, beside its access and refresh tokens), the app settings files, and the
//! caches (`cache/sdk-cache`, `http-cache`, `glide-cache-v2`, `files/dustv2`, `offline_images`:
//! a JSON and image cache walk, the catalogue the service sent rather than what the user did). A
//! store without `bookmarks` is noted; a JSON text that does not parse is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::Located;
use super::prefs::{cited_in_prefs, pref, pref_json, prefs_xml};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is Disney+'s resume-point store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "db_offline_bookmarks" && l.path.contains("/com.disney.disneyplus/databases/")
}

/// Whether `l` is one of the Disney+ preferences read (`default.xml`,
/// `RecentSearchSharedPref.xml`).
pub fn is_prefs(l: &Located) -> bool {
    matches!(l.name(), "default.xml" | "RecentSearchSharedPref.xml")
        && l.path.contains("/com.disney.disneyplus/shared_prefs/")
}

/// One Disney+ file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    match l.name() {
        "db_offline_bookmarks" => resume_points(ctx, l),
        "default.xml" => last_played(ctx, l),
        _ => searches(ctx, l),
    }
}

/// `db_offline_bookmarks`: one phenomenon per resume point.
fn resume_points(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if !schema.contains_key("bookmarks") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not Disney+'s db_offline_bookmarks: no table bookmarks",
            None,
        )?;
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "contentId",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "bookmarks",
            category: "media",
            what: "where a title was left off in Disney+ on a profile of the account (playhead and runtime in seconds of the title, not times; ccDefault and ccMedia as stored; saved Unix milliseconds)",
            title: &|t, row| {
                format!(
                    "Disney+ resume point {}",
                    raw(t, row, "contentId").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("contentId", FactType::Identifier, "content id"),
                ("profileId", FactType::Identifier, "profile id"),
                ("playhead", FactType::Count, "playhead (s)"),
                ("runtime", FactType::Count, "runtime (s)"),
                ("ccDefault", FactType::Text, "ccDefault"),
                ("ccMedia", FactType::Text, "ccMedia"),
            ],
            times: &[("occurredOn", "Disney+ resume point saved", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// A scalar of `v` at `key` as it is cited from `inv` (a string in its escaped form).
fn value(inv: &Invoked, v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) if !s.is_empty() => cited_in_prefs(inv, s),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `default.xml`: one phenomenon per `bookmarksHandshake…` key.
fn last_played(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "Disney+", None)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    for (key, text) in prefs
        .iter()
        .filter(|(k, _)| k.starts_with("bookmarksHandshake"))
    {
        let entry = match pref_json(text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => continue,
            Err(e) => {
                ctx.unparsed(
                    &name,
                    &format!("could not parse Disney+'s {key} because it is not JSON: {e}"),
                    Some(&inv.record.invocation_id),
                )?;
                continue;
            }
        };
        let content = value(&inv, &entry, "contentId");
        let mut d = Draft::new(
            "media",
            format!(
                "Disney+ last played {}",
                entry
                    .get("contentId")
                    .and_then(Value::as_str)
                    .unwrap_or(key)
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(key), &inv);
        let mut said = Vec::new();
        if let Some(c) = &content {
            d.fact(FactType::Identifier, Some(c), &inv);
            said.push(format!("content id {c}"));
        }
        for (k, ft, what) in [
            ("mediaId", FactType::Identifier, "media id"),
            ("seriesId", FactType::Identifier, "series id"),
            (
                "contentIdentifierType",
                FactType::Text,
                "content identifier type",
            ),
        ] {
            if let Some(v) = value(&inv, &entry, k) {
                d.fact(ft, Some(&v), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        let at = value(&inv, &entry, "timestamp");
        d.time(
            at.as_deref(),
            unix_millis(at.as_deref()),
            "Disney+ item last played",
            &inv,
        );
        d.interpretation = format!(
            "{key} of {}: the item Disney+ last played (overall, or of the series the key names): {}; the time Unix milliseconds.",
            l.path,
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `RecentSearchSharedPref.xml`: one phenomenon per search kept, per profile.
fn searches(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "Disney+", None)? else {
        return Ok(());
    };
    let Some(text) = pref(&prefs, "recentSearches") else {
        return Ok(());
    };
    let doc = match pref_json(&text) {
        Ok(Value::Object(o)) => o,
        Ok(_) => {
            ctx.unparsed(
                &artefact_name(&l.tree, &l.path),
                "could not parse Disney+'s recentSearches because it is not a JSON object",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
        Err(e) => {
            ctx.unparsed(
                &artefact_name(&l.tree, &l.path),
                &format!("could not parse Disney+'s recentSearches because it is not JSON: {e}"),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
    };
    for (profile, kept) in &doc {
        let Some(list) = kept.get("recentSearches").and_then(Value::as_array) else {
            continue;
        };
        let profile_id = cited_in_prefs(&inv, profile);
        for item in list {
            let term = value(&inv, item, "searchTerm");
            let content = value(&inv, item, "contentId");
            if term.is_none() && content.is_none() {
                continue;
            }
            let mut d = Draft::new(
                "app_usage",
                format!(
                    "Disney+ search {}",
                    item.get("searchTerm")
                        .and_then(Value::as_str)
                        .or(item.get("contentId").and_then(Value::as_str))
                        .unwrap_or("?")
                ),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Text, term.as_deref(), &inv);
            d.fact(FactType::Identifier, content.as_deref(), &inv);
            d.fact(FactType::Identifier, profile_id.as_deref(), &inv);
            let said: Vec<String> = [
                ("search term", &term),
                ("content id", &content),
                ("profile id", &profile_id),
            ]
            .into_iter()
            .filter_map(|(what, v)| v.as_deref().map(|v| format!("{what} {v}")))
            .collect();
            d.interpretation = format!(
                "recentSearches of {}: a search Disney+ keeps for a profile ({}); the store keeps no time and does not say whether the user typed the term.",
                l.path,
                said.join(", ")
            );
            record_draft(ctx, d)?;
        }
    }
    Ok(())
}
