//! Amazon Prime Video (`com.amazon.avod.thirdpartyclient/files/databases/dbplaybackhistory` and
//! `bookmark`), ALEAPP's `primeVideo` (`prime_video_playback_history`,
//! `prime_video_resume_points`): the titles played on the phone, when and how far, and the
//! position each title was left at.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `dbplaybackhistory`: `playbackHistory` | one `media` per title ("Prime Video played <title or title id>") | title id (ASIN), content type, title, series and season titles, season and episode numbers, watched position, runtime and credits start (ms of the title), rating, adult content, video material type, season id, next-up title id, related title ids, profile id, account id, image and last-played-frame URLs; last played (`lastAccessed`, Unix ms) |
//! | `bookmark`: `bookmark_cache` | one `media` per resume point ("Prime Video resume point <title id>") | title id, position (`timecode`, ms of the title), timecode type, profile id, account id, row id; saved (`last_update`, Unix ms) |
//!
//! A history row is the title's latest play on a profile (the app keeps one row per title),
//! not each viewing; positions, runtimes and credits are offsets into the title, not times;
//! content type, video material type and timecode type are kept as stored. The stores are read
//! as `sqlite_query` reads them, the write-ahead log applied: a resume point the log has since
//! replaced (ALEAPP's "pre-checkpoint" rows, read from the main file alone) is not read.
//! Identities: none — the account id (`user_id`) and profile ids are facts (one account serves a
//! household's profiles). Not read: the Continue Watching and household files (Java-serialised),
//! `search_query.db`, `map_data_storage.db` (the account store, its values encrypted),
//! downloads, the streaming and image caches, the app events. A store without its table is
//! noted; columns are taken by name (absent ones NULL: older releases keep fewer).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{RowPhenomena, title_of, unix_millis};
use crate::identity::{artefact_name, schema_on};

/// Whether `l` is one of Prime Video's stores read.
pub fn is_store(l: &Located) -> bool {
    matches!(l.name(), "dbplaybackhistory" | "bookmark")
        && l.path.contains("/com.amazon.avod.thirdpartyclient/")
        && l.path.contains("/databases/")
}

/// One `dbplaybackhistory` or `bookmark`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let history = l.name() == "dbplaybackhistory";
    let table = if history {
        "playbackHistory"
    } else {
        "bookmark_cache"
    };
    if !schema.contains_key(table) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!("not Prime Video's {}: no table {table}", l.name()),
            None,
        )?;
        return Ok(());
    }
    if history {
        super::record_table(
            ctx,
            l,
            &schema,
            "asin",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "playbackHistory",
                category: "media",
                what: "a title played in Prime Video on the phone, its latest play on a profile (watched position, runtime and credits start in milliseconds of the title, not times; content and video material types as stored; last played Unix milliseconds)",
                title: &title_of("Prime Video played", &["title", "asin"]),
                fields: &[
                    ("asin", FactType::Identifier, "title id"),
                    ("contenttype", FactType::Text, "content type"),
                    ("title", FactType::Text, "title"),
                    ("seriestitle", FactType::Text, "series"),
                    ("seasontitle", FactType::Text, "season"),
                    ("seasonNumber", FactType::Count, "season number"),
                    ("episodeNumber", FactType::Count, "episode number"),
                    ("watched_position", FactType::Count, "watched position (ms)"),
                    ("runtime", FactType::Count, "runtime (ms)"),
                    (
                        "credits_start_time_millis",
                        FactType::Count,
                        "credits start (ms)",
                    ),
                    ("regulatoryrating", FactType::Text, "rating"),
                    ("is_adult_content", FactType::Text, "adult content"),
                    ("video_material_type", FactType::Text, "video material type"),
                    ("season_asin", FactType::Identifier, "season id"),
                    ("next_up_title_id", FactType::Identifier, "next up"),
                    ("related_asins", FactType::Text, "related title ids"),
                    ("profile_id", FactType::Identifier, "profile id"),
                    ("user_id", FactType::Account, "account id"),
                    ("image_url", FactType::Url, "image URL"),
                    (
                        "last_played_frame_image_url",
                        FactType::Url,
                        "last played frame URL",
                    ),
                ],
                times: &[("lastAccessed", "Prime Video title last played", unix_millis)],
            },
            &mut |_, _, _| Ok(()),
        )
    } else {
        super::record_table(
            ctx,
            l,
            &schema,
            "asin",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "bookmark_cache",
                category: "media",
                what: "where a title was left off in Prime Video (the position in milliseconds of the title; a new position replaces the row of the same title, type and profile; timecode type as stored; saved Unix milliseconds)",
                title: &title_of("Prime Video resume point", &["asin"]),
                fields: &[
                    ("asin", FactType::Identifier, "title id"),
                    ("timecode", FactType::Count, "position (ms)"),
                    ("timecode_type", FactType::Text, "timecode type"),
                    ("profile_id", FactType::Identifier, "profile id"),
                    ("user_id", FactType::Account, "account id"),
                    ("_id", FactType::Identifier, "row id"),
                ],
                times: &[("last_update", "Prime Video resume point saved", unix_millis)],
            },
            &mut |_, _, _| Ok(()),
        )
    }
}
