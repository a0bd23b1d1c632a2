//! Samsung's Story Service (`com.samsung.storyservice/databases/dme.db`, the service behind the
//! Gallery's Stories), ALEAPP's `samsungStoryService` (`samsungStoryServiceInfo`,
//! `samsungStoryServiceMoments`): the pictures and videos the service indexed with where they
//! were taken and the place names it resolved, and the moments it grouped them into, with the
//! time each covers and its places.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `info` | one `media` per indexed file ("Samsung story media <file name>") | path (`_data`), title, media type as stored, latitude and longitude (computed in the query: NULL when unset, 0/0 included, as ALEAPP blanks them), country, locality, place of interest and its city, street, scene names, face count, deleted (`is_delete` as stored), the moment id and, from `moment`, that moment's title; taken (`datetaken`), added (`date_added`) (Unix ms or s by magnitude) |
//! | `moment` | one `media` per moment ("Samsung story moment <id>: <title>") | moment id, story id, title, media count, country, location, places of interest and streets (as stored, `\|`-separated), type as stored; start, end, created (Unix ms or s by magnitude) |
//!
//! The positions and place names come from the files' own location tags, which the service
//! resolved to names: a file's place is where it was taken, by whichever device took it (a
//! received picture keeps its sender's position), not proof the phone was there. A moment is the
//! service's own grouping of files by time and place; its times span its files. An entry marked
//! deleted was removed from the Gallery after it was indexed. Columns are taken by name (absent
//! ones NULL: older releases lack `poi_city`, `street_name`, `scene_names`, `poi_info`,
//! `street_name_info`); an `info` without `_data` or a `moment` without `moment_id` is noted,
//! and so is a store with neither table. `story` (the stories' covers) is not read. Another
//! app's `dme.db` is not read. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::{Located, Schema};
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, no_identity, unix_by_magnitude};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is the Story Service's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "dme.db" && l.path.contains("/com.samsung.storyservice/")
}

/// One `dme.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if !is_store(l) {
        return Ok(());
    }
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Samsung Story Service's dme.db",
        &schema,
        &["info", "moment"],
    )?
    else {
        return Ok(());
    };
    let moment = tables.need("moment", &["moment_id"])?;
    if let Some(c) = tables.need("info", &["_data"])? {
        media(ctx, l, c, moment)?;
    }
    if moment.is_some() {
        moments(ctx, l, &schema)?;
    }
    Ok(())
}

/// `info`, each entry with its moment's title.
fn media(
    ctx: &AgentCtx<'_>,
    l: &Located,
    c: &std::collections::BTreeSet<String>,
    moment: Option<&std::collections::BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let i = |col: &str| column_or_null(c, "i.", col, col);
    let (lat, lon) = if c.contains("latitude") && c.contains("longitude") {
        let unset =
            "i.latitude IS NULL OR i.longitude IS NULL OR (i.latitude = 0 AND i.longitude = 0)";
        (
            format!("CASE WHEN {unset} THEN NULL ELSE i.latitude END AS lat"),
            format!("CASE WHEN {unset} THEN NULL ELSE i.longitude END AS lon"),
        )
    } else {
        ("NULL AS lat".to_string(), "NULL AS lon".to_string())
    };
    let moment_title = match moment {
        Some(m) if m.contains("title") && c.contains("moment_id") => {
            "(SELECT m.title FROM moment m WHERE m.moment_id = i.moment_id ORDER BY m.rowid LIMIT 1) AS moment_title"
        }
        _ => "NULL AS moment_title",
    };
    let sql = format!(
        "SELECT i.rowid AS rid, i._data AS _data, {}, {}, {}, {}, {lat}, {lon}, {}, {}, {}, {}, {}, {}, {}, \
         {}, {}, {moment_title} FROM info i ORDER BY i.rowid",
        i("title"),
        i("datetaken"),
        i("date_added"),
        i("media_type"),
        i("country_name"),
        i("locality"),
        i("poi_name"),
        i("poi_city"),
        i("street_name"),
        i("scene_names"),
        i("face_count"),
        i("is_delete"),
        i("moment_id"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "info",
            category: "media",
            what: "a picture or video Samsung's Story Service indexed, with the position in its location tag (0/0 taken as unset) and the place names the service resolved (media type and is_delete as stored; times Unix ms or s by magnitude)",
            title: &|t, row| {
                let path = raw(t, row, "_data").unwrap_or_else(|| "?".into());
                format!(
                    "Samsung story media {}",
                    path.rsplit('/').next().unwrap_or(&path)
                )
            },
            fields: &[
                ("_data", FactType::Path, "path"),
                ("title", FactType::Name, "title"),
                ("media_type", FactType::Text, "media type"),
                ("lat", FactType::Text, "latitude"),
                ("lon", FactType::Text, "longitude"),
                ("country_name", FactType::Text, "country"),
                ("locality", FactType::Text, "locality"),
                ("poi_name", FactType::Text, "place of interest"),
                ("poi_city", FactType::Text, "place's city"),
                ("street_name", FactType::Text, "street"),
                ("scene_names", FactType::Text, "scenes"),
                ("face_count", FactType::Count, "faces"),
                ("is_delete", FactType::Text, "deleted"),
                ("moment_id", FactType::Identifier, "moment"),
                ("moment_title", FactType::Name, "moment title"),
            ],
            times: &[
                (
                    "datetaken",
                    "Media taken (Samsung Story Service)",
                    unix_by_magnitude,
                ),
                (
                    "date_added",
                    "Media added (Samsung Story Service)",
                    unix_by_magnitude,
                ),
            ],
        },
        &mut no_identity,
    )
}

/// `moment`.
fn moments(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "moment_id",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "moment",
            category: "media",
            what: "a moment Samsung's Story Service grouped pictures and videos into, with the time it spans and its places as stored (type as stored; times Unix ms or s by magnitude)",
            title: &|t, row| {
                let id = t.get(row, "moment_id").unwrap_or("?");
                match raw(t, row, "title") {
                    Some(title) => format!("Samsung story moment {id}: {title}"),
                    None => format!("Samsung story moment {id}"),
                }
            },
            fields: &[
                ("moment_id", FactType::Identifier, "moment id"),
                ("story_id", FactType::Identifier, "story id"),
                ("title", FactType::Name, "title"),
                ("media_count", FactType::Count, "files"),
                ("country_name", FactType::Text, "country"),
                ("location", FactType::Text, "location"),
                ("poi_info", FactType::Text, "places of interest"),
                ("street_name_info", FactType::Text, "streets"),
                ("type", FactType::Text, "type"),
            ],
            times: &[
                (
                    "start_time",
                    "Story moment began (Samsung Story Service)",
                    unix_by_magnitude,
                ),
                (
                    "end_time",
                    "Story moment ended (Samsung Story Service)",
                    unix_by_magnitude,
                ),
                (
                    "creation_time",
                    "Story moment created (Samsung Story Service)",
                    unix_by_magnitude,
                ),
            ],
        },
        &mut no_identity,
    )
}
