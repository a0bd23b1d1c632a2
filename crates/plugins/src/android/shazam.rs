//! Shazam (`com.shazam.android/databases/library.db`), ALEAPP's `shazam` (`shazam_recognitions`):
//! every song the app recognised, with where the phone was.
//!
//! One `media` phenomenon per `tag` row ("Shazam recognised: <title> by <artists>"): when
//! (Unix ms), the track's title (`track`), its artists (`artist` through `apple_artist_track`,
//! joined in the query), the position (latitude, longitude), the place's name, city and
//! country as Shazam resolved them, status and unread as stored, the track key, the request id
//! and the cover art URL. A recognition places the phone where music was playing at that time;
//! it does not say the user chose the song. Columns are taken by name (absent ones NULL; a
//! store without `track` or the artist tables names no title or artist); a `tag` table without
//! its `timestamp` is noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is Shazam's library.
pub fn is_store(l: &Located) -> bool {
    l.name() == "library.db" && l.path.contains("/com.shazam.android/")
}

/// One `library.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tag) = schema.get("tag") else {
        ctx.unparsed(&name, "not Shazam's library.db: no tag table", None)?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Shazam's library.db",
        "tag",
        tag,
        &["timestamp"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(tag, "g.", col, col);
    let has_track = schema
        .get("track")
        .is_some_and(|t| t.contains("track_key") && t.contains("track_title"))
        && tag.contains("track_key");
    let (title, cover, join) = if has_track {
        let cover = if schema["track"].contains("cover_art") {
            "t.cover_art AS cover_art"
        } else {
            "NULL AS cover_art"
        };
        (
            "t.track_title AS title",
            cover,
            " LEFT JOIN track t ON t.track_key = g.track_key",
        )
    } else {
        ("NULL AS title", "NULL AS cover_art", "")
    };
    let artists = match (schema.get("artist"), schema.get("apple_artist_track")) {
        (Some(a), Some(at))
            if tag.contains("track_key")
                && a.contains("artist_id")
                && a.contains("artist_name")
                && at.contains("track_key")
                && at.contains("artist_adam_id") =>
        {
            "(SELECT group_concat(a.artist_name, ', ') FROM apple_artist_track at JOIN artist a ON a.artist_id = at.artist_adam_id WHERE at.track_key = g.track_key) AS artists"
        }
        _ => "NULL AS artists",
    };
    let sql = format!(
        "SELECT g.rowid AS row, g.timestamp, {title}, {artists}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {cover} FROM tag g{join} ORDER BY g.timestamp, g.rowid",
        c("lat"),
        c("lon"),
        c("location_name"),
        c("location_city"),
        c("location_country"),
        c("status"),
        c("unread"),
        c("track_key"),
        c("request_id"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Shazam recognitions")?;
    for (inv, t, row) in pages.rows() {
        let song = match (raw(t, row, "title"), raw(t, row, "artists")) {
            (Some(ti), Some(a)) => format!("{ti} by {a}"),
            (Some(ti), None) => ti,
            _ => raw(t, row, "track_key")
                .map(|k| format!("track {k}"))
                .unwrap_or_else(|| "a song".into()),
        };
        let mut d = Draft::new("media", format!("Shazam recognised: {song}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("title", FactType::Name, "title"),
                ("artists", FactType::Name, "artists"),
                ("lat", FactType::Text, "latitude"),
                ("lon", FactType::Text, "longitude"),
                ("location_name", FactType::Text, "place"),
                ("location_city", FactType::Text, "city"),
                ("location_country", FactType::Text, "country"),
                ("status", FactType::Text, "status"),
                ("unread", FactType::Text, "unread"),
                ("track_key", FactType::Identifier, "track key"),
                ("request_id", FactType::Identifier, "request id"),
                ("cover_art", FactType::Url, "cover art"),
            ],
        );
        let when = t.get(row, "timestamp");
        d.time(when, unix_millis(when), "Song recognised", inv);
        d.interpretation = format!(
            "tag row {} of {name}: Shazam recognised a song playing near the phone ({}); timestamp is Unix milliseconds. A recognition places the phone where the music played; it does not say the user chose it.",
            t.get(row, "row").unwrap_or("?"),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
