//! Google's On-Device Location History (`com.google.android.gms/databases/odlh-storage.db`),
//! the Timeline Google moved onto the phone in 2024 — ALEAPP's `googleOdlh`
//! (`gmsOdlhSemanticSegments`, `gmsOdlhEditedSegments`). The same store, with the same tables
//! and columns, is Google Maps for iOS' `Library/Application Support/SemanticLocation/
//! odlh-storage.db` (iLEAPP's `googleMaps`): `read` serves both, the iOS reader
//! (`ios::googlemapsios`) naming its keeper (`Keeper`).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `semantic_segment_table` | one `locations` per Timeline segment ("Timeline segment from <start>") | start and end (Unix s), the record's `timestamp_millis` (Unix ms, iLEAPP's "Record Written"), segment type (a stored integer, as stored), the place's latitude and longitude where the `semantic_segment` message holds them (field 3 → 1 → 4 → 5, fields 1 and 2, degrees × 10⁷ — a negative coordinate stored as its two's complement — decoded by `sqlite_query`'s `protobuf` option and read as signed degrees in the interpretation, as ALEAPP and Cellebrite's location booklet read them), shown in the Timeline, finalised, hierarchy level, segment id, the obfuscated Google account id |
//! | `edited_segment_table` | one `locations` per segment the user edited ("Timeline segment edited") | start and end, the block's start and end (Unix s), segment type, uploaded, hierarchy level, segment id, obfuscated account id |
//!
//! A segment is the phone's own account of where it was (a visit) or how it moved (an activity)
//! over that time; an edited one was corrected by the user (said). Columns are taken by name
//! (absent ones NULL: `timestamp_millis` and the edited segments' `hierarchy_level` are iLEAPP's,
//! not in every store); a store without `semantic_segment_table` is noted. Identities: none (the
//! obfuscated Google account id is a fact: no identifier type links it to an account).

use masf_agents::{AgentCtx, RuntimeError};

use super::Located;
use crate::odlh::{Keeper, read};

/// Play services' store on Android.
const PLAY_SERVICES: Keeper<'static> = Keeper {
    app: "Play services",
    title: "Timeline segment",
    whose: "the phone's on-device Timeline",
};

/// Whether `l` is Play services' on-device location history.
pub fn is_store(l: &Located) -> bool {
    l.name() == "odlh-storage.db" && l.path.contains("/com.google.android.gms/")
}

/// One `odlh-storage.db` of Play services.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    read(ctx, &l.tree, &l.path, &l.found, &PLAY_SERVICES)
}
