//! Apple Maps history on iOS 14 on: the Core Data store `Maps/MapsSync_0.0.1` of Maps' app
//! group, with the fields of iLEAPP's `mapsSync`: one `locations` phenomenon per `ZHISTORYITEM`
//! row — created and modified (Core Data seconds), its kind (the entity's name from
//! `Z_PRIMARYKEY`, where iLEAPP names three entity numbers of one version), the search typed
//! (`ZQUERY`), the location displayed, the latitudes and longitudes stored (the search's, and a
//! second pair), the place's name (`ZMIXINMAPITEM.ZNAME`), and the text of the directions'
//! request (`ZROUTEREQUESTSTORAGE`) and of the place (`ZMAPITEMSTORAGE`) — protocol buffers
//! decoded by `sqlite_query`, each string of them a fact (addresses, place names, the
//! directions' ends), where iLEAPP joins some of them into an address.
//!
//! Maps syncs its history through iCloud: an item may come from another device of the same
//! Apple ID (said in each interpretation). Schema drift: the columns are read where present.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::photos::fields;
use super::{Draft, Run, core_data_encoding, raw};

/// Strings kept from one decoded protocol buffer at most.
const STRINGS: usize = 60;

/// Triage of the source's Maps history stores.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("MapsSync_0.0.1", |find, path| store(run, find, path))
}

/// Whether a decoded string is text: not blank, not hex (`x'…'`, bytes that were neither text
/// nor a message).
fn is_text(s: &str) -> bool {
    let hex = s.starts_with("x'") && s.ends_with('\'');
    !s.trim().is_empty() && !hex
}

/// Every string of a decoded `protobuf:` cell, as the cell holds it (up to [`STRINGS`]).
fn strings(cell: Option<&str>) -> Vec<(String, String)> {
    fn walk(v: &Value, out: &mut Vec<(String, String)>) {
        if out.len() >= STRINGS {
            return;
        }
        match v {
            Value::String(s) if is_text(s) && !out.iter().any(|(p, _)| p == s) => {
                out.push((s.clone(), crate::outputs::in_json_cell(s)));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(m) => m.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some(v) = cell
        .and_then(|c| c.strip_prefix("protobuf:"))
        .and_then(|j| serde_json::from_str::<Value>(j).ok())
    {
        walk(&v, &mut out);
    }
    out
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZHISTORYITEM", "ZMIXINMAPITEM", "Z_PRIMARYKEY"])? else {
        return Ok(());
    };
    if schema.columns("ZHISTORYITEM").is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse Maps' MapsSync_0.0.1 because it has no ZHISTORYITEM table",
            None,
        )?;
        return Ok(());
    }
    if !schema.require(run, "ZHISTORYITEM", &["Z_PK"])? {
        return Ok(());
    }
    let h = |c: &str| schema.col("h", "ZHISTORYITEM", c);
    let hcols = schema.columns("ZHISTORYITEM");
    let k = schema.columns("Z_PRIMARYKEY");
    let entity = if k.contains("Z_ENT") && k.contains("Z_NAME") && hcols.contains("Z_ENT") {
        "(SELECT k.Z_NAME FROM Z_PRIMARYKEY k WHERE k.Z_ENT = h.Z_ENT)"
    } else {
        "NULL"
    };
    let mi = schema.columns("ZMIXINMAPITEM");
    let item = |c: &str| {
        if hcols.contains("ZMAPITEM") && mi.contains("Z_PK") && mi.contains(c) {
            format!("(SELECT mi.{c} FROM ZMIXINMAPITEM mi WHERE mi.Z_PK = h.ZMAPITEM)")
        } else {
            "NULL".into()
        }
    };
    let sql = format!(
        "SELECT * FROM (SELECT h.Z_PK AS pk, {} AS ent, {entity} AS entity, {} AS created, {} AS modified, {} AS query, {} AS display, {} AS latitude, {} AS longitude, {} AS latitude1, {} AS longitude1, {} AS place, {} AS route, {} AS mapitem FROM ZHISTORYITEM h)",
        h("Z_ENT"),
        h("ZCREATETIME"),
        h("ZMODIFICATIONTIME"),
        h("ZQUERY"),
        h("ZLOCATIONDISPLAY"),
        h("ZLATITUDE"),
        h("ZLONGITUDE"),
        h("ZLATITUDE1"),
        h("ZLONGITUDE1"),
        item("ZNAME"),
        h("ZROUTEREQUESTSTORAGE"),
        item("ZMAPITEMSTORAGE"),
    );
    let Some(paged) = run.paged_with(path, &sql, "pk", &["protobuf"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let route = strings(t.get(row, "route"));
        let mapitem = strings(t.get(row, "mapitem"));
        let title = if let Some(q) = t.get(row, "query") {
            format!("Apple Maps search \"{q}\"")
        } else if let Some(p) = t.get(row, "place").or(t.get(row, "display")) {
            format!("Apple Maps place {p}")
        } else if let Some((first, _)) = route.first() {
            format!(
                "Apple Maps directions from {first}{}",
                route
                    .last()
                    .filter(|_| route.len() > 1)
                    .map(|(l, _)| format!(" to {l}"))
                    .unwrap_or_default()
            )
        } else if let Some((p, _)) = mapitem.first() {
            format!("Apple Maps place {p}")
        } else {
            format!("Apple Maps history item {pk}")
        };
        let mut d = Draft::new("locations", title);
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("entity", FactType::Text, "kind"),
                ("ent", FactType::Count, "entity number"),
                ("query", FactType::Text, "search"),
                ("display", FactType::Text, "location displayed"),
                ("place", FactType::Name, "place"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("latitude1", FactType::Text, "second latitude"),
                ("longitude1", FactType::Text, "second longitude"),
            ],
        );
        for (what, found) in [("directions", &route), ("place record", &mapitem)] {
            if found.is_empty() {
                continue;
            }
            for (_, cited) in found {
                d.fact(FactType::Text, Some(cited), inv);
            }
            said.push(format!(
                "the {what}'s text: {}",
                found
                    .iter()
                    .map(|(s, _)| format!("\"{s}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        for (col, what) in [
            ("created", "Maps history item created"),
            ("modified", "Maps history item modified"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "ZHISTORYITEM Z_PK {pk} of MapsSync_0.0.1: an item of Apple Maps' history (searches, places viewed and directions, synced through iCloud: it may come from another device of the same Apple ID): {}; the times are Core Data seconds.",
            said.join(", ")
        );
        run.record(d)?;
    }
    Ok(())
}
