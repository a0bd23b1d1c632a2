//! What a Chromium-family browser (Chrome, Edge, Brave, Samsung Internet, Opera, a WebView)
//! keeps of the media its user played and of the sites that bounced it along: `Media History`
//! and `DIPS` of a profile folder (`Default`, `Profile N`, `app_webview`, Opera's `app_opera`),
//! on Android and every tree triage alike. ALEAPP's `chromeMediaHistory` and `chromeDIPS`.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `playback` (`Media History`) | one per playback | URL, the site, watch time (s), audio, video, last updated |
//! | `playbackSession` (`Media History`) | one per media session | URL, title, artist, album, source, position and duration (ms): where the user stopped, last updated |
//! | `origin` (`Media History`) | one per site | total audio-and-video watch time (s), media engagement visits, playbacks, high score, last playback, last updated |
//! | `bounces` (`DIPS`) | one per site | first and last site storage, user interaction (or activation), stateful and stateless bounce, WebAuthn assertion (WebKit µs) |
//! | `popups` (`DIPS`) | one per pop-up | opener and pop-up sites, last pop-up (WebKit µs), whether it came from the current interaction or an authentication |
//!
//! Media History writes its times as whole seconds since 1601 (Windows epoch); the query prints
//! them as stored and as Unix seconds (the 11,644,473,600 s between the epochs subtracted), so
//! both ground in its output. DIPS ("detect incidental party state", Chromium's bounce-tracking
//! mitigation) writes WebKit microseconds; its columns were renamed across versions
//! (`…_user_interaction_time` became `…_user_activation_time`, `…_bounce_time`
//! `…_stateless_bounce_time`): each is taken under whichever name the table has. Columns are
//! taken by name; a store lacking its table, or a table lacking its key column, is noted. No
//! identity is observed (a site is no person).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;

use crate::browsers::browser_of;
use crate::calls::{column_or_null, note_pages_cap};
use crate::chromium_forms::store_table;
use crate::drafts::{Draft, record_draft, unix_seconds, webkit};
use crate::identity::{TreeRef, artefact_name, pages_on, tables_on};
use crate::outputs::raw;

/// Seconds between 1601-01-01 and 1970-01-01.
const WINDOWS_EPOCH_OFFSET: i64 = 11_644_473_600;

/// Whether `path` is a profile's `Media History` or `DIPS` (not a `-journal` or `-wal`): in a
/// profile folder (`Default`, `Profile N`), a WebView's `app_webview` or Opera's `app_opera`,
/// the names being common elsewhere.
pub fn is_store(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or(path);
    let in_profile = parts.next().is_some_and(|d| {
        d == "Default" || d.starts_with("Profile ") || d == "app_webview" || d == "app_opera"
    });
    in_profile && matches!(name, "Media History" | "DIPS")
}

/// Reads the store at `path`.
pub fn read(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    if path.ends_with("/DIPS") {
        dips(ctx, tree, path, found)
    } else {
        media_history(ctx, tree, path, found)
    }
}

/// `col` as stored and as Unix seconds (`<alias>_unix`), when the table has it.
fn windows_seconds(cols: &BTreeSet<String>, prefix: &str, col: &str, alias: &str) -> String {
    if cols.contains(col) {
        format!(
            "{prefix}{col} AS {alias}, CASE WHEN {prefix}{col} > 0 THEN {prefix}{col} - {WINDOWS_EPOCH_OFFSET} END AS {alias}_unix"
        )
    } else {
        format!("NULL AS {alias}, NULL AS {alias}_unix")
    }
}

/// The media a profile played (`Media History`): playbacks, media sessions, sites.
fn media_history(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((_, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(());
    };
    if !["playback", "playbackSession", "origin"]
        .iter()
        .any(|t| tables.iter().any(|have| have == t))
    {
        ctx.unparsed(
            &artefact_name(tree, path),
            "not Chromium's Media History: no playback, playbackSession or origin table",
            None,
        )?;
        return Ok(());
    }
    let browser = browser_of(path);
    let has = |t: &str| tables.iter().any(|have| have == t);
    if has("playback") {
        playbacks(ctx, tree, path, found, browser, has("origin"))?;
    }
    if has("playbackSession") {
        sessions(ctx, tree, path, found, browser, has("origin"))?;
    }
    if has("origin") {
        origins(ctx, tree, path, found, browser)?;
    }
    Ok(())
}

/// `o.origin AS site` joined from `origin` when the table has an `origin_id` and the store an
/// `origin` table.
fn site_join(cols: &BTreeSet<String>, has_origin: bool, table: &str) -> (String, String) {
    if has_origin && cols.contains("origin_id") {
        (
            "o.origin AS site".into(),
            format!(" LEFT JOIN origin o ON o.id = {table}.origin_id"),
        )
    } else {
        ("NULL AS site".into(), String::new())
    }
}

/// One phenomenon per `playback` row.
fn playbacks(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    browser: &str,
    has_origin: bool,
) -> Result<(), RuntimeError> {
    let Some(cols) = store_table(
        ctx,
        tree,
        path,
        "Chromium's Media History",
        "playback",
        &["url"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let c = |col: &str| column_or_null(&cols, "p.", col, col);
    let (site, join) = site_join(&cols, has_origin, "p");
    let sql = format!(
        "SELECT p.rowid AS row, p.url, {site}, {}, {}, {}, {} FROM playback p{join} ORDER BY {}p.rowid",
        c("watch_time_s"),
        c("has_audio"),
        c("has_video"),
        windows_seconds(&cols, "p.", "last_updated_time_s", "last_updated"),
        if cols.contains("last_updated_time_s") {
            "p.last_updated_time_s, "
        } else {
            ""
        },
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "media playbacks")?;
    for (inv, t, row) in pages.rows() {
        let Some(url) = raw(t, row, "url") else {
            continue;
        };
        let mut d = Draft::new("web", format!("{browser} played media: {url}"));
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Url, Some(&url), inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("site", FactType::Url, "site"),
                ("watch_time_s", FactType::Count, "watched (s)"),
                ("has_audio", FactType::Text, "audio"),
                ("has_video", FactType::Text, "video"),
            ],
        );
        let last = t.get(row, "last_updated_unix");
        d.fact(FactType::Text, t.get(row, "last_updated"), inv);
        d.time(last, unix_seconds(last), "Media playback last updated", inv);
        d.interpretation = format!(
            "playback row {} of {name}: {browser} played media at {url} ({}); last_updated_time_s is whole seconds since 1601, shown with its Unix seconds.",
            t.get(row, "row").unwrap_or("?"),
            said.join(", "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// One phenomenon per `playbackSession` row: what was playing and where it stopped.
fn sessions(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    browser: &str,
    has_origin: bool,
) -> Result<(), RuntimeError> {
    let Some(cols) = store_table(
        ctx,
        tree,
        path,
        "Chromium's Media History",
        "playbackSession",
        &["url"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let c = |col: &str| column_or_null(&cols, "s.", col, col);
    let (site, join) = site_join(&cols, has_origin, "s");
    let sql = format!(
        "SELECT s.rowid AS row, s.url, {site}, {}, {}, {}, {}, {}, {}, {} FROM playbackSession s{join} ORDER BY {}s.rowid",
        c("title"),
        c("artist"),
        c("album"),
        c("source_title"),
        c("position_ms"),
        c("duration_ms"),
        windows_seconds(&cols, "s.", "last_updated_time_s", "last_updated"),
        if cols.contains("last_updated_time_s") {
            "s.last_updated_time_s, "
        } else {
            ""
        },
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "media sessions")?;
    for (inv, t, row) in pages.rows() {
        let Some(url) = raw(t, row, "url") else {
            continue;
        };
        let shown = raw(t, row, "title").unwrap_or_else(|| url.clone());
        let mut d = Draft::new("web", format!("{browser} media session: {shown}"));
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Url, Some(&url), inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("site", FactType::Url, "site"),
                ("title", FactType::Name, "title"),
                ("artist", FactType::Name, "artist"),
                ("album", FactType::Name, "album"),
                ("source_title", FactType::Name, "source"),
                ("position_ms", FactType::Count, "stopped at (ms)"),
                ("duration_ms", FactType::Count, "of (ms)"),
            ],
        );
        let last = t.get(row, "last_updated_unix");
        d.fact(FactType::Text, t.get(row, "last_updated"), inv);
        d.time(last, unix_seconds(last), "Media session last updated", inv);
        d.interpretation = format!(
            "playbackSession row {} of {name}: a media session {browser} kept for {url} ({}); the position is where playback stood when the session was last saved; last_updated_time_s is whole seconds since 1601, shown with its Unix seconds.",
            t.get(row, "row").unwrap_or("?"),
            said.join(", "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// One phenomenon per `origin` row: how much media a site played.
fn origins(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    browser: &str,
) -> Result<(), RuntimeError> {
    let Some(cols) = store_table(
        ctx,
        tree,
        path,
        "Chromium's Media History",
        "origin",
        &["origin"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, origin, {}, {}, {}, {}, {}, {}, {} FROM origin ORDER BY origin",
        c("aggregate_watchtime_audio_video_s"),
        c("has_media_engagement"),
        c("media_engagement_visits"),
        c("media_engagement_playbacks"),
        c("media_engagement_has_high_score"),
        windows_seconds(
            &cols,
            "",
            "media_engagement_last_playback_time",
            "last_playback"
        ),
        windows_seconds(&cols, "", "last_updated_time_s", "last_updated"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "media sites")?;
    for (inv, t, row) in pages.rows() {
        let Some(site) = raw(t, row, "origin") else {
            continue;
        };
        let mut d = Draft::new("web", format!("{browser} media site: {site}"));
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Url, Some(&site), inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                (
                    "aggregate_watchtime_audio_video_s",
                    FactType::Count,
                    "audio and video watched in all (s)",
                ),
                ("has_media_engagement", FactType::Text, "media engagement"),
                ("media_engagement_visits", FactType::Count, "visits"),
                ("media_engagement_playbacks", FactType::Count, "playbacks"),
                (
                    "media_engagement_has_high_score",
                    FactType::Text,
                    "high engagement score",
                ),
            ],
        );
        for (col, what) in [
            ("last_playback", "Site's last media playback"),
            ("last_updated", "Site's media history last updated"),
        ] {
            let unix = t.get(row, &format!("{col}_unix"));
            d.fact(FactType::Text, t.get(row, col), inv);
            d.time(unix, unix_seconds(unix), what, inv);
        }
        d.interpretation = format!(
            "origin row {} of {name}: media {browser} played from {site} ({}); its times are seconds since 1601, shown with their Unix seconds.",
            t.get(row, "row").unwrap_or("?"),
            said.join(", "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The first of `names` the table has, as `alias` (else `NULL AS alias`).
fn first_of(cols: &BTreeSet<String>, names: &[&str], alias: &str) -> String {
    names
        .iter()
        .find(|n| cols.contains(**n))
        .map_or_else(|| format!("NULL AS {alias}"), |n| format!("{n} AS {alias}"))
}

/// The sites Chromium's bounce-tracking mitigation watched (`DIPS`): `bounces` and `popups`.
fn dips(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(cols) = store_table(
        ctx,
        tree,
        path,
        "Chromium's DIPS store",
        "bounces",
        &["site"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let browser = browser_of(path);
    const TIMES: &[(&[&str], &str, &str)] = &[
        (
            &["first_site_storage_time"],
            "first_storage",
            "Site first stored data",
        ),
        (
            &["last_site_storage_time"],
            "last_storage",
            "Site last stored data",
        ),
        (
            &["first_user_activation_time", "first_user_interaction_time"],
            "first_interaction",
            "User's first interaction with the site",
        ),
        (
            &["last_user_activation_time", "last_user_interaction_time"],
            "last_interaction",
            "User's last interaction with the site",
        ),
        (
            &["first_stateful_bounce_time"],
            "first_stateful_bounce",
            "Site's first stateful bounce",
        ),
        (
            &["last_stateful_bounce_time"],
            "last_stateful_bounce",
            "Site's last stateful bounce",
        ),
        (
            &["first_bounce_time", "first_stateless_bounce_time"],
            "first_bounce",
            "Site's first bounce",
        ),
        (
            &["last_bounce_time", "last_stateless_bounce_time"],
            "last_bounce",
            "Site's last bounce",
        ),
        (
            &["first_web_authn_assertion_time"],
            "first_webauthn",
            "First WebAuthn assertion on the site",
        ),
        (
            &["last_web_authn_assertion_time"],
            "last_webauthn",
            "Last WebAuthn assertion on the site",
        ),
    ];
    let sql = format!(
        "SELECT rowid AS row, site, {} FROM bounces ORDER BY site",
        TIMES
            .iter()
            .map(|(names, alias, _)| first_of(&cols, names, alias))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "DIPS sites")?;
    for (inv, t, row) in pages.rows() {
        let Some(site) = raw(t, row, "site") else {
            continue;
        };
        let mut d = Draft::new("web", format!("{browser} bounce-tracking record of {site}"));
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Url, Some(&site), inv);
        let mut said = Vec::new();
        for (_, alias, what) in TIMES {
            let v = t.get(row, alias);
            if webkit(v).is_some() {
                said.push(what.to_lowercase());
            }
            d.time(v, webkit(v), what, inv);
        }
        d.interpretation = format!(
            "bounces row {} of {name}: {browser}'s bounce-tracking mitigation (DIPS) kept {site}, with the times it recorded ({}); a stateful bounce is a redirect through the site that stored data, so a site with bounces and no user interaction is likely a tracker the browser passed through, a site with interactions one the user used. Times are WebKit microseconds.",
            t.get(row, "row").unwrap_or("?"),
            if said.is_empty() {
                "none".to_string()
            } else {
                said.join(", ")
            },
        );
        record_draft(ctx, d)?;
    }
    popups(ctx, tree, path, found, browser)
}

/// One phenomenon per `popups` row (newer DIPS stores).
fn popups(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    browser: &str,
) -> Result<(), RuntimeError> {
    let Some((_, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(());
    };
    if !tables.iter().any(|t| t == "popups") {
        return Ok(());
    }
    let Some(cols) = store_table(
        ctx,
        tree,
        path,
        "Chromium's DIPS store",
        "popups",
        &["opener_site", "popup_site"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, opener_site, popup_site, {}, {}, {}, {} FROM popups ORDER BY {}rowid",
        c("access_id"),
        c("last_popup_time"),
        c("is_current_interaction"),
        c("is_authentication_interaction"),
        if cols.contains("last_popup_time") {
            "last_popup_time, "
        } else {
            ""
        },
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "DIPS pop-ups")?;
    for (inv, t, row) in pages.rows() {
        let (Some(opener), Some(popup)) = (raw(t, row, "opener_site"), raw(t, row, "popup_site"))
        else {
            continue;
        };
        let mut d = Draft::new("web", format!("{browser} pop-up from {opener} to {popup}"));
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Url, Some(&opener), inv);
        d.fact(FactType::Url, Some(&popup), inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("access_id", FactType::Identifier, "access id"),
                (
                    "is_current_interaction",
                    FactType::Text,
                    "from the current interaction",
                ),
                (
                    "is_authentication_interaction",
                    FactType::Text,
                    "an authentication",
                ),
            ],
        );
        let last = t.get(row, "last_popup_time");
        d.time(last, webkit(last), "Pop-up last opened", inv);
        d.interpretation = format!(
            "popups row {} of {name}: a page of {opener} opened a pop-up of {popup} in {browser} ({}); last_popup_time is WebKit microseconds.",
            t.get(row, "row").unwrap_or("?"),
            said.join(", "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
