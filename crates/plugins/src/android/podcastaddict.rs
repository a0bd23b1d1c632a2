//! Podcast Addict (`com.bambuna.podcastaddict/databases/podcastAddict.db`), ALEAPP's
//! `PodcastAddict` (`get_podcasts`): the podcasts the app follows and the episodes it played or
//! downloaded, with when.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `podcasts` | one `media` per podcast ("Podcast Addict podcast <name>") | name, custom name, author, feed URL, home page, category, language, subscribed as stored, episodes in the feed and kept, subscribers, automatic refresh; whether a feed login and password are stored (never their values); last played (Unix ms) |
//! | `episodes` (with `podcasts`) | one `media` per episode played, started or downloaded ("Podcast Addict episode <name>") | name, the podcast, episode page and download URLs, MIME type, duration (as written and in ms), size, playing and seen status as stored, position to resume (ms), favourite, season and episode numbers, episode id; published, played, downloaded (Unix ms) |
//!
//! An episode is read when the app played it (`playbackDate`, older `playback_date`), left a
//! position to resume in it or downloaded it (`downloaded_date`): the feed's other episodes
//! are its catalogue, counted on the podcast, not listed. A podcast is one the app holds (a
//! subscription where `subscribed_status` is 1), not proof it was listened to. A feed's login
//! and password (`login`, `password`: private feeds) are never selected: the query asks only
//! whether one is stored. Columns are taken by name (absent ones NULL); a store with neither
//! table is noted, `podcasts` without `_id` and `name`, `episodes` without `name` or without any
//! column saying it was played or downloaded too. No identity: the store names no account.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, require_columns};
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is Podcast Addict's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "podcastAddict.db" && l.path.contains("/com.bambuna.podcastaddict/")
}

/// One `podcastAddict.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key("podcasts") && !schema.contains_key("episodes") {
        ctx.unparsed(
            &name,
            "not Podcast Addict's podcastAddict.db: none of the tables podcasts, episodes",
            None,
        )?;
        return Ok(());
    }
    let what = "Podcast Addict's podcastAddict.db";
    let mut podcasts = None;
    if let Some(cols) = schema.get("podcasts")
        && require_columns(ctx, &name, what, "podcasts", cols, &["_id", "name"])?
    {
        podcasts = Some(cols);
    }
    let mut episodes = None;
    if let Some(cols) = schema.get("episodes")
        && require_columns(ctx, &name, what, "episodes", cols, &["name"])?
    {
        episodes = Some(cols);
    }
    if let Some(cols) = podcasts {
        read_podcasts(ctx, l, cols, episodes)?;
    }
    if let Some(cols) = episodes {
        read_episodes(ctx, l, &name, cols, podcasts)?;
    }
    Ok(())
}

/// `podcasts`: the podcasts the app holds.
fn read_podcasts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    episodes: Option<&BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let p = |c: &str| column_or_null(cols, "p.", c, c);
    let kept = if episodes.is_some_and(|e| e.contains("podcast_id")) {
        "(SELECT count(*) FROM episodes e WHERE e.podcast_id = p._id) AS episodes_kept"
    } else {
        "NULL AS episodes_kept"
    };
    let held = |names: &[&'static str]| -> Vec<&'static str> {
        names
            .iter()
            .copied()
            .filter(|c| cols.contains(*c))
            .collect()
    };
    let sql = format!(
        "SELECT p.rowid AS rid, p._id AS podcast_id, p.name AS name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {kept}, {}, {} FROM podcasts p ORDER BY p.rowid",
        p("custom_name"),
        p("author"),
        p("feed_url"),
        p("homepage"),
        p("category"),
        p("language"),
        p("subscribed_status"),
        p("episodesNb"),
        p("subscribers"),
        p("automaticRefresh"),
        p("last_played_episode_date"),
        // the feed's credentials are never read: only whether they are stored
        crate::calls::stored_flag("p.", &held(&["login"]), "login"),
        crate::calls::stored_flag("p.", &held(&["password"]), "password"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "podcasts",
            category: "media",
            what: "a podcast the Podcast Addict app holds (subscribed as stored: 1 a subscription; episodes in the feed as the app counted them, episodes kept in the store; last played Unix milliseconds; a feed login is said, never read)",
            title: &|t, row| {
                format!(
                    "Podcast Addict podcast {}",
                    raw(t, row, "name").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("name", FactType::Name, "name"),
                ("custom_name", FactType::Name, "custom name"),
                ("author", FactType::Name, "author"),
                ("feed_url", FactType::Url, "feed"),
                ("homepage", FactType::Url, "home page"),
                ("category", FactType::Text, "category"),
                ("language", FactType::Text, "language"),
                ("subscribed_status", FactType::Text, "subscribed"),
                ("episodesNb", FactType::Count, "episodes in the feed"),
                ("episodes_kept", FactType::Count, "episodes kept"),
                ("subscribers", FactType::Count, "subscribers"),
                ("automaticRefresh", FactType::Text, "automatic refresh"),
                ("login", FactType::Text, "feed login"),
                ("password", FactType::Text, "feed password"),
                ("podcast_id", FactType::Identifier, "podcast id"),
            ],
            times: &[(
                "last_played_episode_date",
                "Podcast Addict podcast last played",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `episodes`: the episodes played, started or downloaded.
fn read_episodes(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &BTreeSet<String>,
    podcasts: Option<&BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let e = |c: &str| column_or_null(cols, "e.", c, c);
    // the play time's column, by release
    let played_col = ["playbackDate", "playback_date"]
        .into_iter()
        .find(|c| cols.contains(*c));
    let marks: Vec<String> = played_col
        .into_iter()
        .chain(["position_to_resume", "downloaded_date"])
        .filter(|c| cols.contains(*c))
        .map(|c| format!("e.{c} > 0"))
        .collect();
    if marks.is_empty() {
        ctx.unparsed(
            name,
            "could not tell Podcast Addict's played episodes because table episodes lacks playbackDate, position_to_resume and downloaded_date (unexpected schema)",
            None,
        )?;
        return Ok(());
    }
    let played = played_col.map_or_else(
        || "NULL AS played".to_string(),
        |c| format!("e.{c} AS played"),
    );
    let podcast = if podcasts.is_some() && cols.contains("podcast_id") {
        "(SELECT p.name FROM podcasts p WHERE p._id = e.podcast_id) AS podcast"
    } else {
        "NULL AS podcast"
    };
    let sql = format!(
        "SELECT e.rowid AS rid, e.name AS name, {podcast}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {played}, {} FROM episodes e WHERE {} ORDER BY e.rowid",
        e("_id"),
        e("url"),
        e("download_url"),
        e("type"),
        e("duration"),
        e("duration_ms"),
        e("size"),
        e("playing_status"),
        e("seen_status"),
        e("position_to_resume"),
        e("favorite"),
        e("seasonNb"),
        e("episodeNb"),
        e("publication_date"),
        e("downloaded_date"),
        marks.join(" OR "),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "episodes",
            category: "media",
            what: "an episode the Podcast Addict app played, left a position to resume in, or downloaded (playing and seen status as stored; position to resume and duration in milliseconds; published, played and downloaded Unix milliseconds)",
            title: &|t, row| {
                format!(
                    "Podcast Addict episode {}",
                    raw(t, row, "name").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("name", FactType::Name, "name"),
                ("podcast", FactType::Name, "podcast"),
                ("url", FactType::Url, "episode page"),
                ("download_url", FactType::Url, "download URL"),
                ("type", FactType::Text, "MIME type"),
                ("duration", FactType::Text, "duration"),
                ("duration_ms", FactType::Count, "duration (ms)"),
                ("size", FactType::Count, "size (bytes)"),
                ("playing_status", FactType::Text, "playing status"),
                ("seen_status", FactType::Text, "seen"),
                (
                    "position_to_resume",
                    FactType::Count,
                    "position to resume (ms)",
                ),
                ("favorite", FactType::Text, "favourite"),
                ("seasonNb", FactType::Count, "season"),
                ("episodeNb", FactType::Count, "episode"),
                ("_id", FactType::Identifier, "episode id"),
            ],
            times: &[
                (
                    "publication_date",
                    "Podcast Addict episode published",
                    unix_millis,
                ),
                ("played", "Podcast Addict episode played", unix_millis),
                (
                    "downloaded_date",
                    "Podcast Addict episode downloaded",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}
