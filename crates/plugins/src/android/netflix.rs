//! Netflix (`com.netflix.mediaclient/databases/appHistory` and `OfflineDb`), ALEAPP's `netflix`
//! (`netflix_playback`, `netflix_streaming_sessions`, `netflix_profiles`, `netflix_bookmarks`,
//! `netflix_offline_titles`): what the app played and when, the streams it pulled, the profiles
//! of the account signed in, where each title was left off and the titles downloaded for offline
//! viewing.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `appHistory`: `playEvent` | one `media` per play event ("Netflix play event <playable id>") | playable id, playback session (`xid`), event type, network and offline as stored, duration (ms), event id; when (`eventTime`, Unix, its unit by its size) |
//! | `appHistory`: `sessionNetworkStatistics` | one `app_usage` per stream record ("Netflix stream <stream id>") | stream id, bytes, interval (ms), location id and IP address as stored, network type, total buffering (ms); when (`timestamp`, Unix, unit by size) |
//! | `OfflineDb`: `offlineFalkorProfile` | one `accounts` per profile ("Netflix profile <name>") | profile id, name, kids profile as stored, avatar URL |
//! | `OfflineDb`: `bookmarkStore` (with `offlineFalkorPlayable`, `offlineFalkorProfile`) | one `media` per resume position ("Netflix resume position <title or playable id>") | playable id, the title where the playable is one downloaded, position (ms), profile id and the profile's name; updated (Unix ms) |
//! | `OfflineDb`: `offlineFalkorPlayable` (with `offlineFalkorProfile`) | one `media` per title downloaded ("Netflix download <title>") | title, video id, parent id, video type, episode, season label and number, episode number, duration (s), year, maturity level, certification, quality, genres, actors, synopsis, profile id and name, box-shot and artwork URLs; the download expires (Unix, unit by size) |
//!
//! Event type, network, offline, video type and maturity level are the app's constants, kept
//! as stored (their names are not in the app). A play event's duration is the title's, not how
//! long it was watched; a stream's IP address is as stored (the app does not say whether it is
//! the phone's or the server's). Titles come only from `offlineFalkorPlayable` (the titles
//! downloaded) in the same store: a play event of `appHistory` is named by its playable id.
//! Identities: none — a profile's name is a fact (the profiles of one account are a household's,
//! and a name says whom a profile is meant for, not who used it); the profile ids are facts.
//! Not read: the Apollo cache (`apollo_cache_v1_<profile>`, the catalogue the app fetched, not
//! what was played), cached artwork, `nfxpref.xml` (device ids beside credential cookies), log
//! blobs. A store with none of its tables is noted; columns are taken by name (absent ones NULL:
//! older releases keep fewer).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::{Located, Schema};
use crate::calls::{column_or_null, require_columns};
use crate::drafts::{RowPhenomena, title_of, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, schema_on};

/// Whether `l` is one of Netflix's stores.
pub fn is_store(l: &Located) -> bool {
    matches!(l.name(), "appHistory" | "OfflineDb")
        && l.path.contains("/com.netflix.mediaclient/databases/")
}

/// One `appHistory` or `OfflineDb`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let history = l.name() == "appHistory";
    let expected: &[&str] = if history {
        &["playEvent", "sessionNetworkStatistics"]
    } else {
        &[
            "offlineFalkorProfile",
            "bookmarkStore",
            "offlineFalkorPlayable",
        ]
    };
    if !expected.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "not Netflix's {}: none of the tables {}",
                l.name(),
                expected.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    if history {
        play_history(ctx, l, &schema)
    } else {
        offline(ctx, l, &schema)
    }
}

/// `appHistory`: the play events and the stream records.
fn play_history(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "playableId",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "playEvent",
            category: "media",
            what: "a title Netflix played on the phone (event type, network and offline as stored; the duration, in milliseconds, is the title's, not how long it was watched; the time Unix, its unit by its size)",
            title: &title_of("Netflix play event", &["playableId"]),
            fields: &[
                ("playableId", FactType::Identifier, "playable id"),
                ("xid", FactType::Identifier, "playback session"),
                ("eventType", FactType::Text, "event type"),
                ("network", FactType::Text, "network"),
                ("offline", FactType::Text, "offline"),
                ("duration", FactType::Count, "duration (ms)"),
                ("id", FactType::Identifier, "event id"),
            ],
            times: &[("eventTime", "Netflix title played", unix_by_magnitude)],
        },
        &mut |_, _, _| Ok(()),
    )?;
    super::record_table(
        ctx,
        l,
        schema,
        "streamId",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "sessionNetworkStatistics",
            category: "app_usage",
            what: "a stream Netflix pulled over the network (the stream id is a playable id; the IP address and location id as stored: the app does not say whether they are the phone's or the server's; interval and buffering in milliseconds; the time Unix, its unit by its size)",
            title: &title_of("Netflix stream", &["streamId"]),
            fields: &[
                ("streamId", FactType::Identifier, "stream id"),
                ("bytes", FactType::Count, "bytes"),
                ("interval", FactType::Count, "interval (ms)"),
                ("locationID", FactType::Identifier, "location id"),
                ("ip", FactType::Text, "IP address"),
                ("networkType", FactType::Text, "network type"),
                ("totalBufferingTime", FactType::Count, "buffering (ms)"),
            ],
            times: &[("timestamp", "Netflix stream recorded", unix_by_magnitude)],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The columns read from `offlineFalkorPlayable` besides `videoId`, as `(column, type, label)`.
const PLAYABLE: &[(&str, FactType, &str)] = &[
    ("title", FactType::Text, "title"),
    ("parentId", FactType::Identifier, "parent id"),
    ("videoType", FactType::Text, "video type"),
    ("isEpisode", FactType::Text, "episode"),
    ("seasonLabel", FactType::Text, "season"),
    ("seasonNumber", FactType::Count, "season number"),
    ("episodeNumber", FactType::Count, "episode number"),
    ("duration", FactType::Count, "duration (s)"),
    ("year", FactType::Text, "year"),
    ("maturityLevel", FactType::Text, "maturity level"),
    ("cert", FactType::Text, "certification"),
    ("quality", FactType::Text, "quality"),
    ("genres", FactType::Text, "genres"),
    ("actors", FactType::Text, "actors"),
    ("synopsis", FactType::Text, "synopsis"),
    ("profileId", FactType::Identifier, "profile id"),
    ("boxshotUrl", FactType::Url, "box-shot URL"),
    ("horzDispUrl", FactType::Url, "artwork URL"),
];

/// `(SELECT f.name FROM offlineFalkorProfile f WHERE f.profileId = <prefix>profileId) AS
/// profile_name` when both tables have the columns, else NULL.
fn profile_name(
    schema: &Schema,
    cols: &std::collections::BTreeSet<String>,
    prefix: &str,
) -> String {
    let profiles = schema
        .get("offlineFalkorProfile")
        .is_some_and(|c| c.contains("profileId") && c.contains("name"));
    if profiles && cols.contains("profileId") {
        format!(
            "(SELECT f.name FROM offlineFalkorProfile f WHERE f.profileId = {prefix}profileId LIMIT 1) AS profile_name"
        )
    } else {
        "NULL AS profile_name".to_string()
    }
}

/// `OfflineDb`: the profiles, the resume positions and the titles downloaded.
fn offline(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    super::record_table(
        ctx,
        l,
        schema,
        "profileId",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "offlineFalkorProfile",
            category: "accounts",
            what: "a profile of the Netflix account signed in on the phone (a household's profiles share one account: the name says whom the profile is meant for, not who used it; kids as stored)",
            title: &title_of("Netflix profile", &["name", "profileId"]),
            fields: &[
                ("profileId", FactType::Identifier, "profile id"),
                ("name", FactType::Name, "name"),
                ("isKids", FactType::Text, "kids profile"),
                ("avatarUrl", FactType::Url, "avatar URL"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )?;
    let downloaded = schema
        .get("offlineFalkorPlayable")
        .is_some_and(|c| c.contains("videoId") && c.contains("title"));
    if let Some(cols) = schema.get("bookmarkStore")
        && require_columns(
            ctx,
            &name,
            "Netflix's OfflineDb",
            "bookmarkStore",
            cols,
            &["playableId"],
        )?
    {
        let title = if downloaded {
            "(SELECT p.title FROM offlineFalkorPlayable p WHERE p.videoId = b.playableId LIMIT 1) AS title"
        } else {
            "NULL AS title"
        };
        let sql = format!(
            "SELECT b.rowid AS rid, b.playableId AS playableId, {}, {}, {}, {title}, {} FROM bookmarkStore b ORDER BY b.rowid",
            column_or_null(cols, "b.", "bookmarkInMs", "position"),
            column_or_null(cols, "b.", "profileId", "profileId"),
            column_or_null(cols, "b.", "bookmarkUpdateTimeInUTCMs", "updated"),
            profile_name(schema, cols, "b."),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "bookmarkStore",
                category: "media",
                what: "where a title was left off in Netflix (the position in milliseconds into the title, per profile; the title named where it is one downloaded; updated Unix milliseconds)",
                title: &title_of("Netflix resume position", &["title", "playableId"]),
                fields: &[
                    ("playableId", FactType::Identifier, "playable id"),
                    ("title", FactType::Text, "title"),
                    ("position", FactType::Count, "position (ms)"),
                    ("profileId", FactType::Identifier, "profile id"),
                    ("profile_name", FactType::Name, "profile"),
                ],
                times: &[("updated", "Netflix resume position updated", unix_millis)],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some(cols) = schema.get("offlineFalkorPlayable")
        && require_columns(
            ctx,
            &name,
            "Netflix's OfflineDb",
            "offlineFalkorPlayable",
            cols,
            &["videoId"],
        )?
    {
        let sql = format!(
            "SELECT p.rowid AS rid, p.videoId AS videoId, {}, {}, {} FROM offlineFalkorPlayable p ORDER BY p.rowid",
            PLAYABLE
                .iter()
                .map(|(c, ..)| column_or_null(cols, "p.", c, c))
                .collect::<Vec<_>>()
                .join(", "),
            column_or_null(cols, "p.", "expTime", "expTime"),
            profile_name(schema, cols, "p."),
        );
        let mut fields: Vec<(&str, FactType, &str)> =
            vec![("videoId", FactType::Identifier, "video id")];
        fields.extend_from_slice(PLAYABLE);
        fields.push(("profile_name", FactType::Name, "profile"));
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "offlineFalkorPlayable",
                category: "media",
                what: "a title downloaded in Netflix for offline viewing (video type, episode and maturity level as stored; duration in seconds; the download's expiry Unix, its unit by its size)",
                title: &title_of("Netflix download", &["title", "videoId"]),
                fields: &fields,
                times: &[("expTime", "Netflix download expires", unix_by_magnitude)],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}
