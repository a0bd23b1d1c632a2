//! Tile's discovered trackers on iOS (`Containers/Shared/AppGroup/<id>/
//! com.thetileapp.tile-DiscoveredTileDB.sqlite`, a Core Data store beside the
//! `TileNetworkDB.sqlite` that [`super::tile`] reads), iLEAPP's `tileAppDisc`: the Tile
//! trackers the Tile app on the phone heard over Bluetooth, by their ids.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZTILENTITY_DISCOVEREDTILE` | one `device` per discovered Tile ("Tile discovered nearby <Tile UUID>") | the Tile's UUID (`ZTILE_UUID`); when the app last modified the record (`ZLAST_MODIFIED_TIMESTAMP`, Cocoa seconds) |
//!
//! A discovered Tile was within Bluetooth range of the phone: the app reports every Tile it
//! hears (the Tile network finds lost Tiles that way). The store does not say whose a Tile is:
//! the user's own Tiles are the nodes of `TileNetworkDB.sqlite` (their `ZID`), any other is
//! someone else's — one heard again and again where the user goes is a lead to a tracker
//! travelling with them. The last-modified time is when the app last updated the record (iLEAPP
//! reports it as is; that it is the moment the Tile was last heard is not documented). The
//! store keeps no position (none is recorded).
//!
//! Columns are taken by name (absent ones NULL: a store without `ZLAST_MODIFIED_TIMESTAMP` is
//! read for the ids alone); a store without the table, or a table without `Z_PK` and
//! `ZTILE_UUID`, is noted. Identities: none (a Tile's UUID is no person's or device's
//! identifier the graph knows; the owner of another's Tile is not in the store).

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::{Draft, Run, file_name};
use crate::calls::column_or_null;
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const DISCOVERED: &str = "ZTILENTITY_DISCOVEREDTILE";

/// Triage of every store of discovered Tiles of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("com.thetileapp.tile-DiscoveredTileDB.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[DISCOVERED])? else {
            continue;
        };
        if !schema.require(run, DISCOVERED, &["Z_PK", "ZTILE_UUID"])? {
            continue;
        }
        let cols = schema.columns(DISCOVERED);
        let sql = format!(
            "SELECT d.Z_PK AS pk, d.ZTILE_UUID AS tile_uuid, {} FROM {DISCOVERED} d",
            column_or_null(&cols, "d.", "ZLAST_MODIFIED_TIMESTAMP", "modified"),
        );
        let Some(paged) = run.paged(path, &sql, "pk")? else {
            continue;
        };
        let file = file_name(path);
        for (inv, t, row) in paged.rows() {
            let uuid = raw(t, row, "tile_uuid");
            let mut d = Draft::new(
                "device",
                format!(
                    "Tile discovered nearby {}",
                    uuid.as_deref().unwrap_or("without a UUID")
                ),
            );
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Identifier, uuid.as_deref(), inv);
            let modified = t.get(row, "modified");
            let when = apple_seconds(modified);
            d.time(modified, when, "Discovered Tile record last modified", inv);
            d.interpretation = format!(
                "{DISCOVERED} Z_PK {} of {file}: a Tile tracker (UUID {}) the Tile app on the phone heard over Bluetooth, so one within range of the phone{}. The store does not say whose it is: the user's own Tiles are in TileNetworkDB.sqlite (ZTILENTITY_NODE), any other is someone else's — one heard again and again where the user goes is a lead to a tracker travelling with them.",
                t.get(row, "pk").unwrap_or("?"),
                uuid.as_deref().unwrap_or("not stored"),
                match (modified, when) {
                    (Some(m), Some(_)) => format!(
                        "; the app last modified the record at {m} (Cocoa seconds; that it is when the Tile was last heard is not documented)"
                    ),
                    _ => "; no last-modified time is stored".to_string(),
                },
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "discovered Tiles")?;
    }
    Ok(())
}
