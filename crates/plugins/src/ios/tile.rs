//! Tile's trackers on iOS (`Containers/Shared/AppGroup/<id>/com.thetileapp.tile-TileNetworkDB.sqlite`,
//! a Core Data store), iLEAPP's `tileAppDb` and `tileAppNetDb`:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZTILENTITY_NODE` (with `ZTILENTITY_TILESTATE` where the app keeps the state apart) | one `locations` per Tile ("Tile <name> last seen") | its name, id, node type, status, lost flag, activation and registration, the last position (latitude, longitude, altitude) with its time, the last connection of a lost Tile to the Tile community |
//! | `ZTILENTITY_USER` | one `accounts` per user | registration, e-mail, full name, mobile phone |
//!
//! Each column is read from whichever of the two tables holds it (older stores keep the state
//! on the node); times are Cocoa seconds. A Tile's last position is where the phone (or the
//! community) last heard it: where the object it is fixed to was. The account is the device
//! user's (`owner`): its e-mail address, phone number and name. A store without the node table
//! is noted. Identities: the account, as above.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};

use super::{Draft, Run};
use crate::drafts::apple_seconds;

const NODE: &str = "ZTILENTITY_NODE";
const STATE: &str = "ZTILENTITY_TILESTATE";
const USER: &str = "ZTILENTITY_USER";

/// Triage of every Tile store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("com.thetileapp.tile-TileNetworkDB.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[NODE, STATE, USER])? else {
            continue;
        };
        if !schema.require(run, NODE, &["ZNAME"])? {
            continue;
        }
        let state =
            schema.columns(NODE).contains("ZTILE_STATE") && !schema.columns(STATE).is_empty();
        // a column from the state table where it has it, else from the node
        let col = |c: &str| {
            if state && schema.columns(STATE).contains(c) {
                format!("s.{c} AS {c}")
            } else {
                format!("{} AS {c}", schema.col("n", NODE, c))
            }
        };
        let sql = format!(
            "SELECT n.Z_PK AS z_pk, n.ZNAME AS ZNAME, {} FROM {NODE} n{}",
            [
                "ZID",
                "ZNODE_TYPE",
                "ZSTATUS",
                "ZIS_LOST",
                "ZACTIVATION_TIMESTAMP",
                "ZREGISTRATION_TIMESTAMP",
                "ZLATITUDE",
                "ZLONGITUDE",
                "ZALTITUDE",
                "ZTIMESTAMP",
                "ZLAST_LOST_TILE_COMMUNITY_CONNECTION",
            ]
            .map(col)
            .join(", "),
            if state {
                format!(" LEFT JOIN {STATE} s ON n.ZTILE_STATE = s.Z_PK")
            } else {
                String::new()
            }
        );
        if let Some(paged) = run.paged(path, &sql, "z_pk")? {
            for (inv, t, row) in paged.rows() {
                let get = |c: &str| crate::outputs::raw(t, row, c);
                let name = get("ZNAME").unwrap_or_else(|| "unnamed".into());
                let mut d = Draft::new("locations", format!("Tile {name} last seen"));
                d.fact(FactType::Path, Some(path), &find);
                let mut said = Vec::new();
                for (c, ft, label) in [
                    ("ZNAME", FactType::Name, "name"),
                    ("ZID", FactType::Identifier, "id"),
                    ("ZNODE_TYPE", FactType::Text, "node type"),
                    ("ZSTATUS", FactType::Text, "status"),
                    ("ZLATITUDE", FactType::Text, "latitude"),
                    ("ZLONGITUDE", FactType::Text, "longitude"),
                    ("ZALTITUDE", FactType::Text, "altitude"),
                ] {
                    if let Some(v) = get(c).filter(|v| !v.is_empty()) {
                        d.fact(ft, Some(&v), inv);
                        said.push(format!("{label} {v}"));
                    }
                }
                if let Some(v) = get("ZIS_LOST") {
                    said.push(format!(
                        "marked lost: {}",
                        if v == "1" { "yes" } else { "no" }
                    ));
                }
                for (c, what) in [
                    ("ZTIMESTAMP", "Tile last seen"),
                    ("ZACTIVATION_TIMESTAMP", "Tile activated"),
                    ("ZREGISTRATION_TIMESTAMP", "Tile registered"),
                    (
                        "ZLAST_LOST_TILE_COMMUNITY_CONNECTION",
                        "Lost Tile last heard by the Tile community",
                    ),
                ] {
                    let v = get(c);
                    d.time(v.as_deref(), apple_seconds(v.as_deref()), what, inv);
                }
                d.interpretation = format!(
                    "A Tile tracker of the device's Tile account: its last position is where it was last heard (by this phone or the Tile community), so where the object it is fixed to was; {}.",
                    said.join("; ")
                );
                run.record(d)?;
            }
            crate::calls::note_pages_cap(run.ctx, path, &paged, "Tiles")?;
        }
        if schema.columns(USER).is_empty() {
            continue;
        }
        let sql = format!(
            "SELECT u.Z_PK AS z_pk, {} FROM {USER} u",
            [
                "ZEMAIL",
                "ZFULL_NAME",
                "ZMOBILE_PHONE",
                "ZREGISTRATION_TIMESTAMP"
            ]
            .map(|c| format!("{} AS {c}", schema.col("u", USER, c)))
            .join(", ")
        );
        let Some(paged) = run.paged(path, &sql, "z_pk")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let get = |c: &str| crate::outputs::raw(t, row, c).filter(|v| !v.is_empty());
            let (email, name, phone) = (get("ZEMAIL"), get("ZFULL_NAME"), get("ZMOBILE_PHONE"));
            let mut d = Draft::new(
                "accounts",
                format!(
                    "Tile account {}",
                    email.as_deref().or(name.as_deref()).unwrap_or("?")
                ),
            );
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Email, email.as_deref(), inv);
            d.fact(FactType::Name, name.as_deref(), inv);
            d.fact(FactType::Phone, phone.as_deref(), inv);
            let reg = get("ZREGISTRATION_TIMESTAMP");
            d.time(
                reg.as_deref(),
                apple_seconds(reg.as_deref()),
                "Tile account registered",
                inv,
            );
            d.interpretation = format!(
                "The Tile account signed in on the device: the device user's; e-mail {}, name {}, phone {}.",
                email.as_deref().unwrap_or("not recorded"),
                name.as_deref().unwrap_or("not recorded"),
                phone.as_deref().unwrap_or("not recorded"),
            );
            run.record(d)?;
            let why = |what: &str| format!("{what} of the Tile account signed in on the device.");
            run.observe_person(
                "owner",
                "device owner",
                inv,
                &why,
                &[
                    (
                        IdType::Email,
                        email.as_deref(),
                        "The account's e-mail address",
                    ),
                    (
                        IdType::Phone,
                        phone.as_deref(),
                        "The account's mobile phone",
                    ),
                    (
                        IdType::DisplayName,
                        name.as_deref(),
                        "The account's full name",
                    ),
                ],
            )?;
        }
    }
    Ok(())
}
