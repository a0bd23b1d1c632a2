//! Rows missing from a table whose keys SQLite hands out in increasing order: messages and
//! calls deleted, even when no byte of them is left to recover.
//!
//! A table's INTEGER PRIMARY KEY (its ROWID) is given out one above the largest in use, and with
//! `AUTOINCREMENT` never again once used (`sqlite_sequence` keeps the largest ever given, as
//! Core Data's `Z_PRIMARYKEY.Z_MAX` does for an entity's `Z_PK`). A gap between two rows' keys is
//! rows deleted; keys given out above the largest left are rows deleted after it. The neighbours'
//! times bound when the missing rows were *written* (keys grow with time as rows are added), not
//! when they were deleted. James McGee's research ("Lagging for the Win", Belkasoft), which
//! iLEAPP's `SMS - Missing ROWIDs` reads, is the method; the query here is this crate's own.
//!
//! One phenomenon per gap: the keys before and after it, how many are missing, the neighbours'
//! identifiers (a message's GUID) and times, and for the last gap the largest key ever given out.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use crate::drafts::{Draft, record_draft};
use crate::outputs::{Table, raw};

/// Where a table's largest key ever given out is kept.
pub enum Sequence {
    /// `sqlite_sequence` (an `AUTOINCREMENT` table): keys are never reused.
    Sqlite,
    /// Core Data's `Z_PRIMARYKEY.Z_MAX` of the named entity.
    CoreData(&'static str),
    /// Nowhere: only gaps between rows are seen (a key above the largest left may be reused).
    None,
}

/// A table read for gaps.
pub struct Spec {
    /// The table.
    pub table: &'static str,
    /// Its key column (`ROWID`, `_id`, `Z_PK`).
    pub key: &'static str,
    /// The column of a row's time.
    pub time: &'static str,
    /// A neighbour's identifier shown with it (a GUID), or the key again.
    pub label: &'static str,
    /// Where the largest key ever given out is kept.
    pub sequence: Sequence,
    /// What a row is (`message`, `call`), and its plural.
    pub what: (&'static str, &'static str),
    /// The phenomenon's category.
    pub category: &'static str,
    /// How a time value is read.
    pub encoding: fn(Option<&str>) -> Option<TimeEncoding>,
    /// The time's encoding in words.
    pub time_said: &'static str,
    /// Who else deletes rows of the table, said in the interpretation (a call log that prunes
    /// its oldest calls), if anyone.
    pub pruned_by: Option<&'static str>,
}

/// Most gaps recorded from one table.
pub const GAPS_MAX: u64 = 2000;

/// The query of a table's gaps (`sequence_table`: whether the database has the table that keeps
/// the sequence, `sqlite_sequence` or `Z_PRIMARYKEY`).
pub fn sql(spec: &Spec, sequence_table: bool) -> String {
    let Spec {
        table,
        key,
        time,
        label,
        ..
    } = spec;
    let tail = match (&spec.sequence, sequence_table) {
        (Sequence::Sqlite, true) => Some(format!(
            "SELECT seq FROM sqlite_sequence WHERE name = '{table}'"
        )),
        (Sequence::CoreData(entity), true) => Some(format!(
            "SELECT Z_MAX AS seq FROM Z_PRIMARYKEY WHERE Z_NAME = '{entity}'"
        )),
        _ => None,
    };
    let mut sql = format!(
        "WITH k AS (SELECT {key} AS id, {time} AS t, {label} AS label FROM {table}), \
g AS (SELECT LAG(id) OVER (ORDER BY id) AS before_id, id AS after_id, LAG(t) OVER (ORDER BY id) AS before_time, t AS after_time, LAG(label) OVER (ORDER BY id) AS before_label, label AS after_label FROM k) \
SELECT before_id, after_id, after_id - before_id - 1 AS missing, before_time, after_time, before_label, after_label, NULL AS last_issued FROM g WHERE after_id - before_id > 1 \
UNION ALL SELECT 0, id, id - 1, NULL, t, NULL, label, NULL FROM (SELECT id, t, label FROM k ORDER BY id LIMIT 1) WHERE id > 1"
    );
    if let Some(seq) = tail {
        sql.push_str(&format!(
            " UNION ALL SELECT m.id, NULL, s.seq - m.id, m.t, NULL, m.label, NULL, s.seq FROM (SELECT id, t, label FROM k ORDER BY id DESC LIMIT 1) m, ({seq}) s WHERE s.seq > m.id"
        ));
    }
    sql.push_str(" ORDER BY 1");
    sql
}

/// One phenomenon per gap `t` (the rows of [`sql`]'s query, `inv` its call) of the table at
/// `path` (`artefact`: its name in notes; `found`: the call that listed it).
pub fn record(
    ctx: &AgentCtx<'_>,
    spec: &Spec,
    artefact: &str,
    path: &str,
    found: &Invoked,
    inv: &Invoked,
    t: &Table,
) -> Result<(), RuntimeError> {
    let (one, many) = spec.what;
    if t.truncated {
        ctx.unparsed(
            artefact,
            &format!(
                "more than {GAPS_MAX} gaps in {}'s keys; the first were recorded",
                spec.table
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    for row in &t.rows {
        let before = raw(t, row, "before_id").filter(|b| b != "0");
        let after = raw(t, row, "after_id");
        let last = raw(t, row, "last_issued");
        let Some(missing) = raw(t, row, "missing") else {
            continue;
        };
        let noun = if missing == "1" { one } else { many };
        let key = spec.key;
        let title = match (&before, &after) {
            (Some(b), Some(a)) => format!("{missing} {noun} missing between {key} {b} and {a}"),
            (None, Some(a)) => format!("{missing} {noun} missing before {key} {a}"),
            (Some(b), None) => format!("{missing} {noun} missing after {key} {b}"),
            (None, None) => continue,
        };
        let mut d = Draft::new(spec.category, title);
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Count, Some(&missing), inv);
        for col in ["before_id", "after_id", "last_issued"] {
            d.fact(
                FactType::Identifier,
                raw(t, row, col).filter(|v| v != "0").as_deref(),
                inv,
            );
        }
        for col in ["before_label", "after_label"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        let before_time = raw(t, row, "before_time");
        let after_time = raw(t, row, "after_time");
        d.time(
            before_time.as_deref(),
            (spec.encoding)(before_time.as_deref()),
            &format!("Last {one} before the missing {many}"),
            inv,
        );
        d.time(
            after_time.as_deref(),
            (spec.encoding)(after_time.as_deref()),
            &format!("First {one} after the missing {many}"),
            inv,
        );
        let bound = match (&before_time, &after_time) {
            (Some(b), Some(a)) => format!("written between {b} and {a} ({})", spec.time_said),
            (Some(b), None) => format!("written after {b} ({})", spec.time_said),
            (None, Some(a)) => format!("written before {a} ({})", spec.time_said),
            (None, None) => "written at times not kept".to_string(),
        };
        d.interpretation = format!(
            "{} of {artefact} gives each new {one} a {key} one above the largest{}: {}, so {missing} {noun} {} deleted{} — {bound}, deleted at a time the table does not keep. A recovered {one} of one of these keys, if any, is recorded apart.",
            spec.table,
            match spec.sequence {
                Sequence::None => " in use",
                _ => " ever given out, never reusing one",
            },
            match (&before, &after, &last) {
                (Some(b), Some(a), _) => format!("none is between {key} {b} and {a}"),
                (None, Some(a), _) => format!("the first left is {key} {a}"),
                (Some(b), None, Some(l)) =>
                    format!("the last left is {key} {b} while {l} were given out"),
                _ => "some keys are unused".to_string(),
            },
            if missing == "1" { "was" } else { "were" },
            match spec.pruned_by {
                Some(p) => format!(" (by the user, or by {p})"),
                None => String::new(),
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
