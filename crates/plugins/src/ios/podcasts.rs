//! Apple Podcasts (`Containers/Shared/AppGroup/<id>/Documents/MTLibrary.sqlite` of the
//! `243LU875E5.groups.com.apple.podcasts` group, a Core Data store), iLEAPP's `applePodcasts`
//! ("Apple Podcasts Shows", "Apple Podcasts Episodes"): the shows in the user's library and the
//! episodes played, started, marked or downloaded, with when.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZMTPODCAST` | one `media` per show ("Apple Podcasts show <title>") | title, author, feed URL, web page, description, subscribed (`ZSUBSCRIBED` as stored and said in the query), store collection id, UUID; the library's episodes of the show and how many of them are listed below (counted in the query); added, last played, updated, downloaded (Cocoa seconds) |
//! | `ZMTEPISODE` (with `ZMTPODCAST`) | one `media` per episode played, started, marked as played or downloaded ("Apple Podcasts episode <title> (<show>)") | title, show, author, subtitle, asset (the downloaded file), enclosure and web page URLs, GUID, UUID, duration and play head (seconds), size, play state and play count as stored, has been played and marked as played as stored; last played, play state changed, downloaded, imported, metadata updated, published (Cocoa seconds) |
//!
//! An episode is listed when the library says it was listened to or kept: a last-played time, a
//! play count, a play head past 0, `ZHASBEENPLAYED` or `ZMARKASPLAYED` set, a download time or an
//! asset file (each where the table has the column). The feed's other episodes are its
//! catalogue (a library holds thousands): counted on their show, not listed. `ZPLAYSTATE`'s
//! values are not documented by Apple: recorded as stored, never decoded. A show is in the
//! library because the user followed, added or played it — `ZSUBSCRIBED` 0 is one no longer
//! followed; marked as played is the user's mark, not listening; a play head is where playback
//! stopped (seconds into the episode); the last-played time is of this device's plays (plays
//! synced from the account's other devices may carry none). No identity: the store names no
//! account.
//!
//! Columns are taken by name (absent ones NULL: older stores lack the has-been-played and
//! marked-as-played flags, the play-state and metadata times, the show's downloaded time and
//! store id); a store with neither table is noted, as is a `ZMTPODCAST` or `ZMTEPISODE` without
//! `Z_PK` or `ZTITLE`, and a `ZMTEPISODE` without any column saying an episode was played or
//! downloaded.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::select_columns;
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const SHOW: &str = "ZMTPODCAST";
const EPISODE: &str = "ZMTEPISODE";

/// Triage of every Apple Podcasts library of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("MTLibrary.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[SHOW, EPISODE])? else {
            continue;
        };
        let (shows_held, episodes_held) = (
            !schema.columns(SHOW).is_empty(),
            !schema.columns(EPISODE).is_empty(),
        );
        if !shows_held && !episodes_held {
            run.ctx.unparsed(
                path,
                "could not parse Apple Podcasts' MTLibrary.sqlite because it has none of the tables ZMTPODCAST, ZMTEPISODE",
                None,
            )?;
            continue;
        }
        let listened = if episodes_held {
            listened(&schema.columns(EPISODE), "e.")
        } else {
            None
        };
        if shows_held && schema.require(run, SHOW, &["Z_PK", "ZTITLE"])? {
            shows(run, &find, path, &schema, listened.as_deref())?;
        }
        if episodes_held && schema.require(run, EPISODE, &["Z_PK", "ZTITLE"])? {
            match &listened {
                Some(l) => episodes(run, &find, path, &schema, l)?,
                None => run.ctx.unparsed(
                    path,
                    "could not tell which Apple Podcasts episodes were played or downloaded because table ZMTEPISODE lacks ZLASTDATEPLAYED, ZPLAYCOUNT, ZPLAYHEAD, ZHASBEENPLAYED, ZMARKASPLAYED, ZDOWNLOADDATE and ZASSETURL (unexpected schema)",
                    None,
                )?,
            }
        }
    }
    Ok(())
}

/// The condition (on the episode alias `prefix`) that an episode was played, started, marked as
/// played or downloaded, from the columns `cols` has; `None` when it has none of them.
fn listened(cols: &BTreeSet<String>, prefix: &str) -> Option<String> {
    let mut any = Vec::new();
    for (col, test) in [
        ("ZLASTDATEPLAYED", "> 0"),
        ("ZPLAYCOUNT", "> 0"),
        ("ZPLAYHEAD", "> 0"),
        ("ZHASBEENPLAYED", "= 1"),
        ("ZMARKASPLAYED", "= 1"),
        ("ZDOWNLOADDATE", "> 0"),
    ] {
        if cols.contains(col) {
            any.push(format!("{prefix}{col} {test}"));
        }
    }
    if cols.contains("ZASSETURL") {
        any.push(format!(
            "({prefix}ZASSETURL IS NOT NULL AND {prefix}ZASSETURL != '')"
        ));
    }
    (!any.is_empty()).then(|| format!("({})", any.join(" OR ")))
}

fn shows(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    listened: Option<&str>,
) -> Result<(), RuntimeError> {
    let s = schema.columns(SHOW);
    let counts = if schema.columns(EPISODE).contains("ZPODCAST") {
        format!(
            "(SELECT count(*) FROM {EPISODE} e WHERE e.ZPODCAST = p.Z_PK) AS episodes, (SELECT count(*) FROM {EPISODE} e WHERE e.ZPODCAST = p.Z_PK AND {}) AS listed",
            listened.unwrap_or("0")
        )
    } else {
        "NULL AS episodes, NULL AS listed".into()
    };
    let subscription = if s.contains("ZSUBSCRIBED") {
        "CASE p.ZSUBSCRIBED WHEN 1 THEN 'subscribed' WHEN 0 THEN 'not subscribed' END AS subscription"
    } else {
        "NULL AS subscription"
    };
    let sql = format!(
        "SELECT p.Z_PK AS pk, p.ZTITLE AS title, {}, {subscription}, {counts} FROM {SHOW} p",
        select_columns(
            &s,
            "p.",
            &[
                ("ZAUTHOR", "author"),
                ("ZFEEDURL", "feed_url"),
                ("ZWEBPAGEURL", "web_page"),
                ("ZITEMDESCRIPTION", "description"),
                ("ZSUBSCRIBED", "subscribed"),
                ("ZSTORECOLLECTIONID", "store_id"),
                ("ZUUID", "show_uuid"),
                ("ZADDEDDATE", "added"),
                ("ZLASTDATEPLAYED", "last_played"),
                ("ZUPDATEDDATE", "updated"),
                ("ZDOWNLOADEDDATE", "downloaded"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let title = raw(t, row, "title").unwrap_or_else(|| "without a title".into());
        let mut d = Draft::new("media", format!("Apple Podcasts show {title}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("title", FactType::Name, "title"),
                ("author", FactType::Name, "author"),
                ("feed_url", FactType::Url, "feed"),
                ("web_page", FactType::Url, "web page"),
                ("description", FactType::Text, "description"),
                ("subscribed", FactType::Text, "ZSUBSCRIBED"),
                ("subscription", FactType::Text, "status"),
                ("store_id", FactType::Identifier, "store collection id"),
                ("show_uuid", FactType::Identifier, "UUID"),
                ("episodes", FactType::Count, "episodes in the library"),
                (
                    "listed",
                    FactType::Count,
                    "of them played, started, marked or downloaded",
                ),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("added", "Podcast show added to the library"),
                ("last_played", "Podcast show last played"),
                ("updated", "Podcast show updated"),
                ("downloaded", "Podcast show last downloaded"),
            ],
        );
        d.interpretation = format!(
            "{SHOW} Z_PK {} of {file}: a show in the Apple Podcasts library of the device's user ({}); it is there because the user followed, added or played it (ZSUBSCRIBED 0: no longer followed); the episodes played, started, marked or downloaded are recorded one by one, the rest of the feed only counted; times are Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Apple Podcasts shows")
}

fn episodes(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    listened: &str,
) -> Result<(), RuntimeError> {
    let e = schema.columns(EPISODE);
    let (show, join) = if e.contains("ZPODCAST") && schema.columns(SHOW).contains("ZTITLE") {
        (
            "p.ZTITLE AS show".to_string(),
            format!(" LEFT JOIN {SHOW} p ON p.Z_PK = e.ZPODCAST"),
        )
    } else {
        ("NULL AS show".to_string(), String::new())
    };
    let sql = format!(
        "SELECT * FROM (SELECT e.Z_PK AS pk, e.ZTITLE AS title, {show}, {} FROM {EPISODE} e{join} WHERE {listened})",
        select_columns(
            &e,
            "e.",
            &[
                ("ZAUTHOR", "author"),
                ("ZITUNESSUBTITLE", "subtitle"),
                ("ZASSETURL", "asset_url"),
                ("ZENCLOSUREURL", "enclosure_url"),
                ("ZWEBPAGEURL", "web_page"),
                ("ZGUID", "guid"),
                ("ZUUID", "episode_uuid"),
                ("ZDURATION", "duration"),
                ("ZBYTESIZE", "size"),
                ("ZPLAYSTATE", "play_state"),
                ("ZPLAYCOUNT", "play_count"),
                ("ZPLAYHEAD", "play_head"),
                ("ZHASBEENPLAYED", "has_been_played"),
                ("ZMARKASPLAYED", "marked_played"),
                ("ZLASTDATEPLAYED", "last_played"),
                ("ZPLAYSTATELASTMODIFIEDDATE", "play_state_changed"),
                ("ZDOWNLOADDATE", "downloaded"),
                ("ZIMPORTDATE", "imported"),
                ("ZMETADATATIMESTAMP", "metadata_updated"),
                ("ZPUBDATE", "published"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let title = get("title").unwrap_or_else(|| "without a title".into());
        let mut d = Draft::new(
            "media",
            format!(
                "Apple Podcasts episode {title}{}",
                get("show").map(|s| format!(" ({s})")).unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("title", FactType::Name, "title"),
                ("show", FactType::Name, "show"),
                ("author", FactType::Name, "author"),
                ("subtitle", FactType::Text, "subtitle"),
                ("asset_url", FactType::Url, "downloaded file"),
                ("enclosure_url", FactType::Url, "enclosure"),
                ("web_page", FactType::Url, "web page"),
                ("guid", FactType::Identifier, "GUID"),
                ("episode_uuid", FactType::Identifier, "UUID"),
                ("duration", FactType::Text, "duration (s)"),
                ("size", FactType::Text, "size (bytes)"),
                ("play_state", FactType::Text, "play state (as stored)"),
                ("play_count", FactType::Count, "play count"),
                ("play_head", FactType::Text, "play head (s)"),
                ("has_been_played", FactType::Text, "has been played"),
                ("marked_played", FactType::Text, "marked as played"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("last_played", "Podcast episode last played"),
                ("play_state_changed", "Podcast episode play state changed"),
                ("downloaded", "Podcast episode downloaded"),
                ("imported", "Podcast episode added to the library"),
                ("metadata_updated", "Podcast episode metadata updated"),
                ("published", "Podcast episode published"),
            ],
        );
        d.interpretation = format!(
            "{EPISODE} Z_PK {} of {file}: an episode the Apple Podcasts library says was played, started, marked as played or downloaded ({}); the play head is where playback stopped (seconds into the episode), marked as played is the user's mark, not listening, the downloaded file is the copy the app kept; the play state is as stored (undocumented); times are Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Apple Podcasts episodes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listened_condition() {
        assert_eq!(listened(&BTreeSet::new(), "e."), None);
        let cols: BTreeSet<String> = ["ZPLAYCOUNT".to_string(), "ZASSETURL".to_string()].into();
        assert_eq!(
            listened(&cols, "e.").as_deref(),
            Some("(e.ZPLAYCOUNT > 0 OR (e.ZASSETURL IS NOT NULL AND e.ZASSETURL != ''))")
        );
    }
}
