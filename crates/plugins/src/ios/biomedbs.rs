//! Biome's databases (`Library/Biome/databases/<name>/<name>.sqlite3`; the `-fullRebuild`
//! copies beside them are not read): tables Apple's intelligence keeps pre-aggregated, read
//! table by table where the release has them, the fields of iLEAPP's `biomeIntelligenceEntity`
//! and `biomeApplePaySecurity` modules:
//!
//! | database, table | phenomenon | fields |
//! |---|---|---|
//! | `IntelligencePlatform.Entity` `EntityCentricSubgraph` | one `contacts` per triple | subject, predicate, relationship id and predicate, object (names, bundle ids, phone numbers, record ids; the predicate codes are not documented) |
//! | `ApplePay.Security.Features` `AppOpeningsRawMatView` | one `app_usage` per app opening | time, bundle id, starting, launch type |
//! | … `AppOpeningsMatView` | one `app_usage` per app and hour | hour, bundle id, launch type, count |
//! | … `PluginRawMatView` | one `device` per cable event | time, starting |
//! | … `BacklightRawMatView` | one `device` per backlight change | time, level |
//! | … `ButtonClickMatView` | one `device` per day | day, button clicks, reason |
//! | … `MinBatteryMatView` | one `device` per day | day, minimum battery percentage |
//! | … `CarPlayMatView` | one `device` per day | day, CarPlay activity count |
//! | … `AudioRouteMatView` | one `device` per day and route | day, route type, external, change reason, count |
//!
//! Times are Unix seconds (milliseconds by their magnitude), as iLEAPP reads them. Identities:
//! none observed — a triple's object may be a person's name or number, but whose, and how it
//! relates to the subject, the undocumented predicate does not say. A database with none of
//! its tables is noted.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::biome::fill;
use super::{Draft, Run, file_name, raw};
use crate::drafts::unix_by_magnitude;

/// A table read column by column.
struct DbTable {
    /// The database's file name.
    db: &'static str,
    table: &'static str,
    category: &'static str,
    /// The title: `{<column>}` that column's value.
    title: &'static str,
    what: &'static str,
    /// Each column: its name, the fact it gives (`None`: said only), what it is.
    cols: &'static [(&'static str, Option<FactType>, &'static str)],
    /// The time column and what it marks.
    time: Option<(&'static str, &'static str)>,
}

const ENTITY: &str = "IntelligencePlatform.Entity.sqlite3";
const PAY: &str = "ApplePay.Security.Features.sqlite3";

const TABLES: &[DbTable] = &[
    DbTable {
        db: ENTITY,
        table: "EntityCentricSubgraph",
        category: "contacts",
        title: "Intelligence entity {subject}: {predicate} {object}",
        what: "a triple of the knowledge graph Apple's intelligence compiles (contacts, apps, identifiers and their attributes)",
        cols: &[
            ("subject", Some(FactType::Identifier), "subject"),
            ("predicate", Some(FactType::Identifier), "predicate"),
            (
                "relationshipId",
                Some(FactType::Identifier),
                "relationship id",
            ),
            (
                "relationshipPredicate",
                Some(FactType::Identifier),
                "relationship predicate",
            ),
            ("object", Some(FactType::Text), "object"),
        ],
        time: None,
    },
    DbTable {
        db: PAY,
        table: "AppOpeningsRawMatView",
        category: "app_usage",
        title: "App opened: {bundleID}",
        what: "an app's opening",
        cols: &[
            ("bundleID", Some(FactType::Identifier), "app"),
            ("starting", None, "starting"),
            ("launchType", None, "launch type"),
        ],
        time: Some(("eventTimestamp", "App opened")),
    },
    DbTable {
        db: PAY,
        table: "AppOpeningsMatView",
        category: "app_usage",
        title: "App openings in an hour: {bundleID} ({appOpenAcount})",
        what: "an app's openings in one hour",
        cols: &[
            ("bundleID", Some(FactType::Identifier), "app"),
            ("launchType", None, "launch type"),
            ("appOpenAcount", Some(FactType::Count), "openings"),
        ],
        time: Some(("date_hour", "Hour of app openings")),
    },
    DbTable {
        db: PAY,
        table: "PluginRawMatView",
        category: "device",
        title: "Cable plugged or unplugged: starting {starting}",
        what: "a cable connection or disconnection",
        cols: &[("starting", Some(FactType::Text), "starting")],
        time: Some(("eventTimestamp", "Cable event")),
    },
    DbTable {
        db: PAY,
        table: "BacklightRawMatView",
        category: "device",
        title: "Backlight level {backlightLevel}",
        what: "a change of the screen's backlight level",
        cols: &[("backlightLevel", Some(FactType::Count), "level")],
        time: Some(("eventTimestamp", "Backlight level changed")),
    },
    DbTable {
        db: PAY,
        table: "ButtonClickMatView",
        category: "device",
        title: "Button clicks in a day: {buttonClickCount}",
        what: "the hardware button clicks of a day",
        cols: &[
            ("buttonClickCount", Some(FactType::Count), "clicks"),
            ("reason", Some(FactType::Text), "reason"),
        ],
        time: Some(("date", "Day of button clicks")),
    },
    DbTable {
        db: PAY,
        table: "MinBatteryMatView",
        category: "device",
        title: "Lowest battery of a day: {minBatteryPerc}%",
        what: "the day's lowest battery percentage",
        cols: &[(
            "minBatteryPerc",
            Some(FactType::Count),
            "minimum battery percentage",
        )],
        time: Some(("date", "Day of the battery minimum")),
    },
    DbTable {
        db: PAY,
        table: "CarPlayMatView",
        category: "device",
        title: "CarPlay activity in a day: {carPlayActivityCount}",
        what: "the day's CarPlay activity",
        cols: &[(
            "carPlayActivityCount",
            Some(FactType::Count),
            "CarPlay activity count",
        )],
        time: Some(("date", "Day of CarPlay activity")),
    },
    DbTable {
        db: PAY,
        table: "AudioRouteMatView",
        category: "device",
        title: "Audio route changes in a day: {type} ({audioRouteCount})",
        what: "the day's changes to an audio route",
        cols: &[
            ("type", Some(FactType::Text), "route type"),
            ("external", None, "external"),
            ("routeChangeReason", None, "change reason"),
            ("audioRouteCount", Some(FactType::Count), "count"),
        ],
        time: Some(("date", "Day of audio route changes")),
    },
];

/// Triage of every Biome database of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for db in [ENTITY, PAY] {
        run.each(db, |find, path| {
            if path.contains("/Biome/databases/") {
                one(run, find, path, db)
            } else {
                Ok(())
            }
        })?;
    }
    Ok(())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str, db: &str) -> Result<(), RuntimeError> {
    let specs: Vec<&DbTable> = TABLES.iter().filter(|t| t.db == db).collect();
    let names: Vec<&str> = specs.iter().map(|t| t.table).collect();
    let Some(schema) = run.schema(path, &names)? else {
        return Ok(());
    };
    let present: Vec<&&DbTable> = specs
        .iter()
        .filter(|t| !schema.columns(t.table).is_empty())
        .collect();
    if present.is_empty() {
        run.ctx.unparsed(
            path,
            &format!(
                "none of the tables read here ({}): another release's layout",
                names.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let file = file_name(path);
    for spec in present {
        let mut cols: Vec<&str> = spec.cols.iter().map(|(c, _, _)| *c).collect();
        if let Some((c, _)) = spec.time {
            cols.push(c);
        }
        let sql = format!(
            "SELECT t.rowid AS rid, {} FROM {} t",
            cols.iter()
                .map(|c| format!("{} AS {c}", schema.col("t", spec.table, c)))
                .collect::<Vec<_>>()
                .join(", "),
            spec.table
        );
        let Some(pages) = run.paged(path, &sql, "t.rowid")? else {
            continue;
        };
        crate::calls::note_pages_cap(run.ctx, path, &pages, spec.table)?;
        for (inv, t, row) in pages.rows() {
            let get = |c: &str| t.get(row, c);
            let title = fill(spec.title, |c| get(c).unwrap_or("?").to_string());
            let mut d = Draft::new(spec.category, title);
            d.fact(FactType::Path, Some(path), find);
            let mut said = Vec::new();
            for (c, fact, name) in spec.cols {
                if let Some(ft) = fact {
                    d.fact(*ft, raw(t, row, c).as_deref(), inv);
                }
                if let Some(v) = get(c) {
                    said.push(format!("{name} {v}"));
                }
            }
            if let Some((c, what)) = spec.time {
                let v = get(c);
                d.time(v, unix_by_magnitude(v), what, inv);
                if let Some(v) = v {
                    said.push(format!("{c} {v} (Unix time)"));
                }
            }
            d.interpretation = format!(
                "{} row {} of Biome's {file}: {}: {}.",
                spec.table,
                get("rid").unwrap_or("?"),
                spec.what,
                said.join(", ")
            );
            run.record(d)?;
        }
    }
    Ok(())
}
