//! Waze's `user.db` (Android `com.waze/user.db`, iOS the app container's `Documents/user.db`; one
//! schema on both), the places of ALEAPP's and iLEAPP's `waze` modules: every table below joined
//! with the place it names (`PLACES`: name, house number, street, city, state, country,
//! coordinates stored in millionths of a degree — the query prints the stored integers and the
//! degrees it divides out —, venue id):
//!
//! | table | phenomenon (`locations`) | its own fields |
//! |---|---|---|
//! | `PLACES` | one per place Waze knows | created, updated, residential |
//! | `RECENTS` | one per recent destination | type (user search, advertising, map interaction, shared, navigation history), name, last access, created, last waypoint access, image |
//! | `FAVORITES` | one per saved place | type (custom, home, work, events, saved point of interest), name, access, created, modified, waypoint access, rank, server id |
//! | `SHARED_PLACES` | one per place shared with the user | name, shared, created, modified, accessed, the owner's id |
//! | `EVENTS_PLACES` | one per planned drive | type (calendar, partner, reservation), name, start, end, all day, created, the event's id |
//!
//! Times are Unix seconds. Types are said in the words ALEAPP uses, or as stored. The user's
//! home and work are the favourites of types 1 and 2. Schema drift: each table is read with the
//! columns it has (a table without `id` is noted); a missing table is no finding.
//! Identities: none observed (a shared place's owner is a Waze user id without a name).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;

use crate::calls::column_or_null;
use crate::drafts::{Encoding, RowPhenomena, record_rows, unix_seconds};
use crate::identity::{TreeRef, pages_on, schema_on};

/// Whether `path` is Waze's user database on Android.
pub fn is_android(path: &str) -> bool {
    path.contains("/com.waze/") && path.ends_with("/user.db")
}

/// One table: its name, what a row is, its own columns (column, alias, fact, label) and times
/// (column, alias, description), and how its `type` column reads.
struct Spec {
    table: &'static str,
    what: &'static str,
    own: &'static [(&'static str, &'static str, FactType, &'static str)],
    times: &'static [(&'static str, &'static str, &'static str)],
    types: &'static [(&'static str, &'static str)],
}

const SPECS: [Spec; 5] = [
    Spec {
        table: "PLACES",
        what: "a place Waze knows",
        own: &[(
            "is_residential",
            "residential",
            FactType::Text,
            "residential",
        )],
        times: &[
            ("created_time", "created", "Waze place created"),
            ("updated_time", "updated", "Waze place updated"),
        ],
        types: &[],
    },
    Spec {
        table: "RECENTS",
        what: "a recent destination",
        own: &[
            ("type", "type", FactType::Text, "type"),
            ("name", "name", FactType::Name, "name"),
            ("image_id", "image", FactType::Identifier, "image"),
        ],
        times: &[
            (
                "access_time",
                "accessed",
                "Waze recent destination accessed",
            ),
            ("created_time", "created", "Waze recent destination created"),
            (
                "waypoint_access_time",
                "waypoint",
                "Waze recent destination accessed as a waypoint",
            ),
        ],
        types: &[
            ("-1", "not given"),
            ("0", "user search"),
            ("1", "advertising"),
            ("2", "map interaction"),
            ("3", "shared"),
            ("4", "navigation history"),
        ],
    },
    Spec {
        table: "FAVORITES",
        what: "a saved place",
        own: &[
            ("type", "type", FactType::Text, "type"),
            ("name", "name", FactType::Name, "name"),
            ("rank", "rank", FactType::Count, "rank"),
            ("server_id", "server_id", FactType::Identifier, "server id"),
        ],
        times: &[
            ("access_time", "accessed", "Waze saved place accessed"),
            ("created_time", "created", "Waze saved place created"),
            ("modified_time", "modified", "Waze saved place modified"),
            (
                "waypoint_access_time",
                "waypoint",
                "Waze saved place accessed as a waypoint",
            ),
        ],
        types: &[
            ("-1", "not given"),
            ("0", "custom"),
            ("1", "home"),
            ("2", "work"),
            ("3", "events"),
            ("4", "saved point of interest"),
        ],
    },
    Spec {
        table: "SHARED_PLACES",
        what: "a place shared with the user",
        own: &[
            ("name", "name", FactType::Name, "name"),
            (
                "owner_id",
                "owner",
                FactType::Identifier,
                "its owner's Waze id",
            ),
        ],
        times: &[
            ("share_time", "shared", "Waze place shared"),
            ("created_time", "created", "Waze shared place created"),
            ("modified_time", "modified", "Waze shared place modified"),
            ("access_time", "accessed", "Waze shared place accessed"),
        ],
        types: &[],
    },
    Spec {
        table: "EVENTS_PLACES",
        what: "a planned drive",
        own: &[
            ("type", "type", FactType::Text, "type"),
            ("name", "name", FactType::Name, "name"),
            ("all_day", "all_day", FactType::Text, "all day"),
            ("event_id", "event_id", FactType::Identifier, "event id"),
            ("image_url", "image_url", FactType::Url, "image"),
        ],
        times: &[
            ("start_time", "start", "Waze planned drive starts"),
            ("end_time", "end", "Waze planned drive ends"),
            ("created_time", "created", "Waze planned drive created"),
        ],
        types: &[("1", "calendar"), ("2", "partner"), ("6", "reservation")],
    },
];

/// The place's columns every row is joined with: (column, alias, fact, label).
const PLACE: [(&str, &str, FactType, &str); 8] = [
    ("name", "place", FactType::Name, "place"),
    ("house", "house", FactType::Text, "house number"),
    ("street", "street", FactType::Text, "street"),
    ("city", "city", FactType::Text, "city"),
    ("state", "state", FactType::Text, "state"),
    ("country", "country", FactType::Text, "country"),
    ("venue_id", "venue", FactType::Identifier, "venue id"),
    ("id", "place_id", FactType::Identifier, "place"),
];

/// Every table of `user.db` at `path` of `tree` (listed by `find`).
pub fn user_db(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    find: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let empty = std::collections::BTreeSet::new();
    let places = schema.get("PLACES").unwrap_or(&empty);
    for spec in &SPECS {
        let Some(cols) = schema.get(spec.table) else {
            continue;
        };
        let name = crate::identity::artefact_name(tree, path);
        if !crate::calls::require_columns(ctx, &name, "Waze's user.db", spec.table, cols, &["id"])?
        {
            continue;
        }
        let own = |c: &str, a: &str| column_or_null(cols, "x.", c, a);
        let mut select = vec!["x.id AS rid".to_string()];
        select.extend(spec.own.iter().map(|(c, a, _, _)| own(c, a)));
        select.extend(spec.times.iter().map(|(c, a, _)| own(c, a)));
        // the place: the row itself, or the one its place_id names
        let (join, alias, place_cols) = if spec.table == "PLACES" {
            ("", "x.", places)
        } else if cols.contains("place_id") && places.contains("id") {
            (" LEFT JOIN PLACES p ON p.id = x.place_id", "p.", places)
        } else {
            ("", "p.", &empty)
        };
        for (c, a, _, _) in PLACE {
            select.push(column_or_null(place_cols, alias, c, a));
        }
        for (c, a) in [("latitude", "lat"), ("longitude", "lon")] {
            if place_cols.contains(c) {
                select.push(format!("{alias}{c} AS {a}_e6"));
                select.push(format!("round({alias}{c} / 1e6, 6) AS {a}"));
            } else {
                select.push(format!("NULL AS {a}_e6, NULL AS {a}"));
            }
        }
        let sql = format!("SELECT {} FROM {} x{join}", select.join(", "), spec.table);
        // paged by the table's id: the first column
        let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
            continue;
        };
        crate::calls::note_pages_cap(ctx, path, &pages, spec.table)?;
        let mut fields: Vec<(&str, FactType, &str)> =
            spec.own.iter().map(|(_, a, f, l)| (*a, *f, *l)).collect();
        fields.extend(PLACE.iter().map(|(_, a, f, l)| (*a, *f, *l)));
        fields.extend([
            ("lat", FactType::Text, "latitude"),
            ("lon", FactType::Text, "longitude"),
            ("lat_e6", FactType::Text, "latitude as stored (E6)"),
            ("lon_e6", FactType::Text, "longitude as stored (E6)"),
        ]);
        let times: Vec<(&str, &str, Encoding)> = spec
            .times
            .iter()
            .map(|(_, a, d)| (*a, *d, unix_seconds as Encoding))
            .collect();
        let types = spec.types;
        let table = spec.table;
        let title = move |t: &crate::outputs::Table, row: &[Option<String>]| {
            let kind = t
                .get(row, "type")
                .map(|v| {
                    types
                        .iter()
                        .find(|(k, _)| *k == v)
                        .map(|(_, w)| w.to_string())
                        .unwrap_or_else(|| format!("type {v}"))
                })
                .map(|k| format!(" ({k})"))
                .unwrap_or_default();
            let name = t
                .get(row, "name")
                .or(t.get(row, "place"))
                .or(t.get(row, "street"))
                .unwrap_or("unnamed");
            format!(
                "Waze {}{kind}: {name}",
                match table {
                    "PLACES" => "place",
                    "RECENTS" => "recent destination",
                    "FAVORITES" => "saved place",
                    "SHARED_PLACES" => "shared place",
                    _ => "planned drive",
                }
            )
        };
        record_rows(
            ctx,
            path,
            find,
            &pages,
            &RowPhenomena {
                table: spec.table,
                category: "locations",
                what: spec.what,
                title: &title,
                fields: &fields,
                times: &times,
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}
