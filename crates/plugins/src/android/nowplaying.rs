//! Pixel's Now Playing (`com.google.android.as/databases/history_db`, older releases
//! `com.google.intelligence.sense/db/history_db`), ALEAPP's `get_googleNowPlaying`: the songs the
//! phone recognised playing near it, on its own, without the user asking. One `media`
//! phenomenon per `recognition_history` row — when (`timestamp`, Unix ms) and, from the
//! `history_entry` message (decoded by `sqlite_query`'s `protobuf` option), the time zone (7),
//! the title (9 › 3), artist (9 › 4), album (9 › 13), year (9 › 14) and duration (9 › 6, a
//! double stored as a fixed64: quoted as its number and read as seconds). A song heard places
//! the phone near music playing at that time (a bar, a car, a shop); it says nothing of who
//! listened (said). A store without `recognition_history` is noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::Value;

use super::Located;
use crate::calls::note_pages_cap;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on_with, required_columns};
use crate::outputs::{proto_text, raw};

/// Whether `l` is Now Playing's history.
pub fn is_store(l: &Located) -> bool {
    l.name() == "history_db"
        && (l.path.contains("/com.google.android.as/")
            || l.path.contains("/com.google.intelligence.sense/"))
}

/// One `history_db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    if required_columns(
        ctx,
        &l.tree,
        &l.path,
        "Now Playing's history_db",
        "recognition_history",
        &["timestamp", "history_entry"],
    )?
    .is_none()
    {
        return Ok(());
    }
    let sql =
        "SELECT rowid AS rowid, timestamp, history_entry FROM recognition_history ORDER BY rowid";
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Now Playing recognitions")?;
    for (inv, t, row) in pages.rows() {
        let entry: Option<Value> =
            raw(t, row, "history_entry").and_then(|c| crate::outputs::protobuf_cell(&c));
        let text = |path: &[&str]| entry.as_ref().and_then(|m| proto_text(m, path));
        let title = text(&["9", "3"]);
        let artist = text(&["9", "4"]);
        let mut d = Draft::new(
            "media",
            format!(
                "Song recognised nearby: {}{}",
                title.as_ref().map_or("unknown song", |(t, _)| t.as_str()),
                artist
                    .as_ref()
                    .map(|(a, _)| format!(" by {a}"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = Vec::new();
        for (label, v, ft) in [
            ("title", title.clone(), FactType::Text),
            ("artist", artist.clone(), FactType::Name),
            ("album", text(&["9", "13"]), FactType::Text),
            ("time zone", text(&["7"]), FactType::Text),
        ] {
            if let Some((plain, cited)) = v {
                d.fact(ft, Some(&cited), inv);
                said.push(format!("{label} {plain}"));
            }
        }
        let number = |path: &[&str]| -> Option<u64> {
            let mut node = entry.as_ref()?;
            for f in path {
                node = node.get(f)?.get(0)?;
            }
            node.as_u64()
        };
        if let Some(year) = number(&["9", "14"]) {
            d.fact(FactType::Text, Some(&year.to_string()), inv);
            said.push(format!("year {year}"));
        }
        if let Some(bits) = number(&["9", "6"]) {
            let secs = f64::from_bits(bits);
            if secs.is_finite() && secs > 0.0 {
                d.fact(FactType::Text, Some(&bits.to_string()), inv);
                said.push(format!("duration {secs:.0} s"));
            }
        }
        let at = t.get(row, "timestamp");
        d.time(at, unix_millis(at), "Song recognised nearby", inv);
        d.interpretation = format!(
            "recognition_history row {} of {name}: Now Playing recognised a song playing near the phone (on its own, without the user asking); it places the phone near music playing then, not who listened; {}.",
            raw(t, row, "rowid").unwrap_or_default(),
            if said.is_empty() {
                "the entry names no song".to_string()
            } else {
                said.join("; ")
            }
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
