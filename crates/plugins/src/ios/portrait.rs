//! Personalization Portrait (`mobile/Library/PersonalizationPortrait/PPSQLDatabase.db`): the
//! places, named entities and topics iOS learned from what the user read, wrote and browsed,
//! each with the app and document it was learned from. iLEAPP's `personalizationPortrait`
//! ("Personalization Portrait - Locations") reports the places; the named entities and topics
//! of the same store are read here too, with the same source fields.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `loc_records` (with `sources` by `source_id`) | one `locations` per place ("Personalization Portrait place <name>": the name, else the street, city or country, else the record id) | latitude, longitude (`cll_*_degrees`), name, street and number, city, sub-locality, administrative and sub-administrative area, postal code, country code, country, inland water, ocean (`clp_*`); category and algorithm (numbers as stored), initial, decay and sentiment scores, iOS build, `is_remote` as stored, iCloud sync eligibility (`is_sync_eligible` 1/0, labelled in the query); the source's app (`bundle_id`), group, document id and time (`seconds_from_1970`, Unix seconds) |
//! | `ne_records` (with `sources`) | one `app_usage` per named entity ("Personalization Portrait named entity <name>") | name, category (a number: Apple's list of person, organisation, location … is not decoded), language, algorithm, initial and decay scores, iOS build, `is_remote`, sync eligibility; the source's fields |
//! | `tp_records` (with `sources`) | one `app_usage` per topic ("Personalization Portrait topic <qid>") | the topic's identifier (`qid`, as stored), algorithm, initial, decay and sentiment scores, iOS build, `is_remote`, sync eligibility; the source's fields |
//!
//! A record says that the Portrait extracted the place, name or topic from a document of the
//! source app (a message, an e-mail, a page, a note) at the source's time: it is what the
//! device's content mentioned, not a place the phone was at, a person the user met, nor an
//! interest the user declared (as iLEAPP notes, the source app and group are the context that
//! attributes it). The scores are the Portrait's own weights. A record whose source row is gone
//! keeps its own fields (the join is a `LEFT JOIN`; iLEAPP's too). The areas of interest and
//! contextual names of a place (`loc_records_clp_areasOfInterest`,
//! `loc_records_contextual_ne`) and the feedback tables are not read.
//!
//! Schema drift: the framework migrates the store in place (`is_sync_eligible` added to
//! `ne_records` after the first version, `tp_records` and `lc_description` later); columns
//! are taken by name from `pragma_table_info` (absent ones NULL) and a table the store's
//! version does not have is not read; a store with none of the three tables, or whose table
//! lacks its key columns, is noted, as is one that is no database. Each table is read in pages.
//!
//! Identities: none. A named entity of a person is a name found in text, not an account or a
//! handle: it is recorded, never observed.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::select_columns;
use crate::drafts::unix_seconds;
use crate::outputs::raw;

const SOURCES: &str = "sources";
const PLACES: &str = "loc_records";
const ENTITIES: &str = "ne_records";
const TOPICS: &str = "tp_records";

/// One record table: its name, the columns it needs, the columns read with their aliases,
/// the facts of those aliases, and what a row is.
struct Kind {
    table: &'static str,
    required: &'static [&'static str],
    columns: &'static [(&'static str, &'static str)],
    facts: &'static [(&'static str, FactType, &'static str)],
    what: &'static str,
    /// The aliases whose first present value names a row in its title.
    label_keys: &'static [&'static str],
    /// What a row is, for the interpretation.
    meaning: &'static str,
    /// The category of its phenomena.
    category: &'static str,
}

/// Columns every record table has (as far as its version has them).
const SCORES: [(&str, &str); 6] = [
    ("category", "category"),
    ("algorithm", "algorithm"),
    ("initial_score", "initial_score"),
    ("decay_rate", "decay_rate"),
    ("sentiment_score", "sentiment_score"),
    ("extraction_os_build", "os_build"),
];

const PLACE: Kind = Kind {
    table: PLACES,
    required: &["id"],
    columns: &[
        ("cll_latitude_degrees", "latitude"),
        ("cll_longitude_degrees", "longitude"),
        ("clp_name", "name"),
        ("clp_thoroughfare", "street"),
        ("clp_subThoroughfare", "street_number"),
        ("clp_locality", "city"),
        ("clp_subLocality", "sub_locality"),
        ("clp_administrativeArea", "area"),
        ("clp_subAdministrativeArea", "sub_area"),
        ("clp_postalCode", "postal_code"),
        ("clp_ISOcountryCode", "country_code"),
        ("clp_country", "country"),
        ("clp_inlandWater", "inland_water"),
        ("clp_ocean", "ocean"),
    ],
    facts: &[
        ("latitude", FactType::Text, "latitude"),
        ("longitude", FactType::Text, "longitude"),
        ("name", FactType::Name, "name"),
        ("street", FactType::Text, "street"),
        ("street_number", FactType::Text, "street number"),
        ("city", FactType::Text, "city"),
        ("sub_locality", FactType::Text, "sub-locality"),
        ("area", FactType::Text, "administrative area"),
        ("sub_area", FactType::Text, "sub-administrative area"),
        ("postal_code", FactType::Text, "postal code"),
        ("country_code", FactType::Text, "country code"),
        ("country", FactType::Text, "country"),
        ("inland_water", FactType::Text, "inland water"),
        ("ocean", FactType::Text, "ocean"),
    ],
    what: "place",
    label_keys: &["name", "street", "city", "country"],
    meaning: "a place the Portrait extracted from that document (a place it mentions or shows), not a place the phone was at",
    category: "locations",
};

const ENTITY: Kind = Kind {
    table: ENTITIES,
    required: &["id", "name"],
    columns: &[("name", "name"), ("language", "language")],
    facts: &[
        ("name", FactType::Name, "name"),
        ("language", FactType::Text, "language"),
    ],
    what: "named entity",
    label_keys: &["name"],
    meaning: "a name the Portrait extracted from that document (a person, an organisation, a place, a title); a name in text, not an identity",
    category: "app_usage",
};

const TOPIC: Kind = Kind {
    table: TOPICS,
    required: &["id", "qid"],
    columns: &[("qid", "qid")],
    facts: &[("qid", FactType::Identifier, "topic")],
    what: "topic",
    label_keys: &["qid"],
    meaning: "a topic the Portrait inferred from that document (qid as stored); what the content was about, not an interest the user declared",
    category: "app_usage",
};

/// The facts every record has (its scores, flags and source), after its own.
const COMMON_FACTS: [(&str, FactType, &str); 13] = [
    ("category", FactType::Text, "category"),
    ("algorithm", FactType::Text, "algorithm"),
    ("initial_score", FactType::Text, "initial score"),
    ("decay_rate", FactType::Text, "decay rate"),
    ("sentiment_score", FactType::Text, "sentiment score"),
    ("os_build", FactType::Text, "iOS build"),
    ("remote", FactType::Text, "is_remote"),
    ("sync", FactType::Text, "is"),
    ("bundle_id", FactType::Identifier, "source app"),
    ("group_id", FactType::Identifier, "source group"),
    ("doc_id", FactType::Identifier, "source document"),
    ("source_id", FactType::Identifier, "source id"),
    ("rid", FactType::Identifier, "record id"),
];

/// Triage of every Personalization Portrait store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("PPSQLDatabase.db", |find, path| {
        if !path.ends_with("/PersonalizationPortrait/PPSQLDatabase.db") {
            return Ok(());
        }
        read(run, find, path)
    })
}

fn read(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[SOURCES, PLACES, ENTITIES, TOPICS])? else {
        return Ok(());
    };
    let present: Vec<&Kind> = [&PLACE, &ENTITY, &TOPIC]
        .into_iter()
        .filter(|k| !schema.columns(k.table).is_empty())
        .collect();
    if present.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse the Personalization Portrait database because it has none of the loc_records, ne_records, tp_records tables (unexpected schema)",
            None,
        )?;
        return Ok(());
    }
    for kind in present {
        if schema.require(run, kind.table, kind.required)? {
            records(run, find, path, &schema, kind)?;
        }
    }
    Ok(())
}

/// The select list and join of a record's source: `sources` by `source_id` where both sides
/// have their key, else NULLs.
fn source_part(s: &BTreeSet<String>, record: &BTreeSet<String>) -> (String, String) {
    let spec = [
        ("bundle_id", "bundle_id"),
        ("group_id", "group_id"),
        ("doc_id", "doc_id"),
        ("seconds_from_1970", "source_time"),
    ];
    if s.contains("id") && record.contains("source_id") {
        (
            select_columns(s, "s.", &spec),
            format!(" LEFT JOIN {SOURCES} s ON s.id = r.source_id"),
        )
    } else {
        (select_columns(&BTreeSet::new(), "s.", &spec), String::new())
    }
}

/// The query of one record table (paged by `rid`), from the columns of the table (`c`) and of
/// `sources` (`s`).
fn query(c: &BTreeSet<String>, s: &BTreeSet<String>, kind: &Kind) -> String {
    let (source, join) = source_part(s, c);
    let sync = if c.contains("is_sync_eligible") {
        "CASE r.is_sync_eligible WHEN 1 THEN 'eligible for iCloud sync' WHEN 0 THEN 'not eligible for iCloud sync' END AS sync"
    } else {
        "NULL AS sync"
    };
    format!(
        "SELECT r.id AS rid, {}, {}, {}, {sync}, {source} FROM {} r{join}",
        select_columns(c, "r.", kind.columns),
        select_columns(c, "r.", &SCORES),
        select_columns(
            c,
            "r.",
            &[("is_remote", "remote"), ("source_id", "source_id")]
        ),
        kind.table,
    )
}

/// What names a record in its title: a place's name, street, city or country, else its id;
/// an entity's name; a topic's identifier.
fn label(kind: &Kind, get: &dyn Fn(&str) -> Option<String>) -> String {
    kind.label_keys
        .iter()
        .find_map(|k| get(k))
        .unwrap_or_else(|| format!("record {}", get("rid").unwrap_or_else(|| "?".into())))
}

fn records(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    kind: &Kind,
) -> Result<(), RuntimeError> {
    let sql = query(&schema.columns(kind.table), &schema.columns(SOURCES), kind);
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.trim().is_empty());
        let name = label(kind, &get);
        let mut d = Draft::new(
            kind.category,
            format!("Personalization Portrait {} {name}", kind.what),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(t, row, inv, kind.facts);
        said.extend(d.fields(t, row, inv, &COMMON_FACTS));
        let at = t.get(row, "source_time");
        d.time(
            at,
            unix_seconds(at),
            "Personalization Portrait source document time",
            inv,
        );
        d.interpretation = format!(
            "{} row {} of {file}: {}; {}. The source is the app, group and document it was learned from{}; the category and algorithm are Apple's numbers as stored and the scores the Portrait's own weights.",
            kind.table,
            get("rid").unwrap_or_else(|| "?".into()),
            said.join(", "),
            kind.meaning,
            match at {
                Some(a) => format!(", its time {a} (seconds_from_1970, Unix seconds)"),
                None if get("source_id").is_some() => {
                    " (no sources row matches its source_id: the record's own fields only)"
                        .to_string()
                }
                None => String::new(),
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(
        run.ctx,
        path,
        &paged,
        &format!("Personalization Portrait {} records", kind.what),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn queries_follow_the_schema() {
        let sources = cols(&["id", "bundle_id", "seconds_from_1970"]);
        let ne = cols(&["id", "name", "category", "source_id", "is_remote"]);
        let q = query(&ne, &sources, &ENTITY);
        assert!(
            q.starts_with("SELECT r.id AS rid, r.name AS name, NULL AS language"),
            "{q}"
        );
        assert!(q.contains("NULL AS sync"), "{q}");
        assert!(
            q.contains("s.bundle_id AS bundle_id, NULL AS group_id"),
            "{q}"
        );
        assert!(q.ends_with("FROM ne_records r LEFT JOIN sources s ON s.id = r.source_id"));
        // no sources table: no join, the source's fields NULL
        let tp = cols(&["id", "qid", "is_sync_eligible", "source_id"]);
        let q = query(&tp, &BTreeSet::new(), &TOPIC);
        assert!(q.ends_with("FROM tp_records r"), "{q}");
        assert!(q.contains("NULL AS source_time"), "{q}");
        assert!(q.contains("CASE r.is_sync_eligible WHEN 1"), "{q}");
    }

    #[test]
    fn titles_name_a_place_by_its_first_known_part() {
        let get = |c: &str| (c == "city" || c == "country").then(|| c.to_uppercase());
        assert_eq!(label(&PLACE, &get), "CITY");
        let none = |c: &str| (c == "rid").then(|| "7".to_string());
        assert_eq!(label(&PLACE, &none), "record 7");
    }
}
