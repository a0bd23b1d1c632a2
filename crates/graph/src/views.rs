//! Read-only views for the strategist (DESIGN §10): pure functions over the state and, for
//! coverage and budgets, over inputs the caller gathers (expected-artefact catalogues, the
//! invocations of a source, budget counters).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::model::{HypothesisKind, Lead, LeadStatus};
use crate::scoring::{EdgeType, Status};
use crate::state::GraphState;

/// `graph_overview()`: hypotheses, sources and pending leads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Overview {
    /// Every hypothesis, by id.
    pub hypotheses: Vec<HypothesisRow>,
    /// Every source that has phenomena or entities, by id.
    pub sources: Vec<SourceRow>,
    /// Leads still pending or running, by id.
    pub pending_leads: Vec<Lead>,
    /// The last round's number (0 before the first).
    pub last_round: u32,
}

/// A hypothesis in the overview.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HypothesisRow {
    /// Its id.
    pub id: String,
    /// What it claims.
    pub statement: String,
    /// What it is about.
    pub kind: HypothesisKind,
    /// Its log-odds.
    pub log_odds: f64,
    /// Its confidence.
    pub confidence: f64,
    /// Its status.
    pub status: Status,
    /// Number of edges into it.
    pub edges_in: usize,
    /// Distinct sources of the linked phenomena: many edges from one source are fragile.
    pub distinct_sources: usize,
    /// True when its status changed in the last completed round.
    pub recent_flip: bool,
}

/// A source in the overview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceRow {
    /// The source id.
    pub source_id: String,
    /// Phenomena recorded from it.
    pub phenomena: usize,
    /// Entities observed in it.
    pub entities: usize,
    /// Hypotheses that at least one of its phenomena is linked to.
    pub hypotheses: usize,
}

/// Builds the overview.
pub fn graph_overview(state: &GraphState) -> Overview {
    let last_completed = state.rounds().values().rev().find(|r| !r.is_open());
    let flipped: BTreeSet<&str> = last_completed
        .map(|r| {
            r.status_flips
                .iter()
                .map(|f| f.hypothesis_id.as_str())
                .collect()
        })
        .unwrap_or_default();
    let hypotheses = state
        .hypotheses()
        .values()
        .map(|h| HypothesisRow {
            id: h.id.clone(),
            statement: h.statement.clone(),
            kind: h.kind,
            log_odds: h.log_odds,
            confidence: h.confidence,
            status: h.status,
            edges_in: h.edges.len(),
            distinct_sources: h.distinct_sources,
            recent_flip: flipped.contains(h.id.as_str()),
        })
        .collect();
    let mut sources: BTreeMap<&str, (usize, usize, BTreeSet<&str>)> = BTreeMap::new();
    for p in state.phenomena().values() {
        sources.entry(&p.source_id).or_default().0 += 1;
    }
    for e in state.entities().values() {
        sources.entry(&e.source_id).or_default().1 += 1;
    }
    for h in state.hypotheses().values() {
        for edge in &h.edges {
            if let Some(p) = state.phenomena().get(&edge.phenomenon_id) {
                sources.entry(&p.source_id).or_default().2.insert(&h.id);
            }
        }
    }
    Overview {
        hypotheses,
        sources: sources
            .into_iter()
            .map(|(source_id, (phenomena, entities, hypotheses))| SourceRow {
                source_id: source_id.to_owned(),
                phenomena,
                entities,
                hypotheses: hypotheses.len(),
            })
            .collect(),
        pending_leads: state
            .leads()
            .values()
            .filter(|l| matches!(l.status, LeadStatus::Pending | LeadStatus::Running))
            .cloned()
            .collect(),
        last_round: state.rounds().keys().next_back().copied().unwrap_or(0),
    }
}

/// The hypothesis × evidence matrix (DESIGN §7), sparse: which phenomenon bears on which
/// hypothesis, how, and with what weight.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceMatrix {
    /// Hypothesis ids (rows), sorted.
    pub hypotheses: Vec<String>,
    /// Ids of phenomena linked to at least one hypothesis (columns), sorted.
    pub phenomena: Vec<String>,
    /// The non-empty cells, by hypothesis then phenomenon.
    pub cells: Vec<MatrixCell>,
}

/// One edge in the [`EvidenceMatrix`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatrixCell {
    /// The row.
    pub hypothesis_id: String,
    /// The column.
    pub phenomenon_id: String,
    /// The edge type.
    pub edge_type: EdgeType,
    /// Its decayed contribution to the hypothesis's log-odds.
    pub contribution: f64,
}

/// Builds the hypothesis × evidence matrix.
pub fn evidence_matrix(state: &GraphState) -> EvidenceMatrix {
    let mut cells: Vec<MatrixCell> = state
        .hypotheses()
        .values()
        .flat_map(|h| {
            h.edges.iter().map(|e| MatrixCell {
                hypothesis_id: h.id.clone(),
                phenomenon_id: e.phenomenon_id.clone(),
                edge_type: e.edge_type,
                contribution: e.contribution,
            })
        })
        .collect();
    cells.sort_by(|a, b| {
        (&a.hypothesis_id, &a.phenomenon_id).cmp(&(&b.hypothesis_id, &b.phenomenon_id))
    });
    let phenomena: BTreeSet<String> = cells.iter().map(|c| c.phenomenon_id.clone()).collect();
    EvidenceMatrix {
        hypotheses: state.hypotheses().keys().cloned().collect(),
        phenomena: phenomena.into_iter().collect(),
        cells,
    }
}

/// `marginal_yield(n)`: what the last `n` completed rounds produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MarginalYield {
    /// The last `n` completed rounds, oldest first.
    pub rounds: Vec<RoundYield>,
    /// How many of the latest completed rounds in a row produced nothing (two is a strong
    /// signal to declare the investigation complete).
    pub trailing_zero_yield_rounds: usize,
}

/// One round's yield.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundYield {
    /// The round.
    pub round: u32,
    /// New phenomena.
    pub new_phenomena: usize,
    /// New edges.
    pub new_edges: usize,
    /// Hypotheses whose status changed.
    pub status_flips: usize,
    /// True when all three are zero.
    pub zero_yield: bool,
}

/// Builds the marginal yield of the last `n` completed rounds.
pub fn marginal_yield(state: &GraphState, n: usize) -> MarginalYield {
    let completed: Vec<_> = state.rounds().values().filter(|r| !r.is_open()).collect();
    let trailing = completed
        .iter()
        .rev()
        .take_while(|r| r.is_zero_yield())
        .count();
    let skip = completed.len().saturating_sub(n);
    MarginalYield {
        rounds: completed
            .into_iter()
            .skip(skip)
            .map(|r| RoundYield {
                round: r.number,
                new_phenomena: r.new_phenomena,
                new_edges: r.new_edges,
                status_flips: r.status_flips.len(),
                zero_yield: r.is_zero_yield(),
            })
            .collect(),
        trailing_zero_yield_rounds: trailing,
    }
}

/// One entry of a plugin's expected-artefact catalogue (DESIGN §9): a hint for coverage, not a
/// checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpectedArtefact {
    /// What it is (`sms.db`).
    pub name: String,
    /// Substrings of `"{tool} {args}"`; the artefact counts as examined when an invocation on
    /// the source matches any of them.
    pub detector: Vec<String>,
    /// What it is good for (`messages, handles`).
    pub value_for: String,
}

/// An invocation as coverage sees it: which tool, with which arguments, on which source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvocationSummary {
    /// Its id.
    pub id: String,
    /// The source.
    pub source_id: String,
    /// The tool.
    pub tool: String,
    /// The canonical JSON arguments.
    pub args: String,
}

/// `source_coverage(src)`: each expected artefact, examined or not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// The source.
    pub source_id: String,
    /// One per catalogue entry, in catalogue order.
    pub items: Vec<CoverageItem>,
    /// The reminder shown under the table.
    pub footer: String,
}

/// One artefact's coverage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoverageItem {
    /// The artefact.
    pub name: String,
    /// What it is good for.
    pub value_for: String,
    /// True when an invocation on the source matched its detector.
    pub examined: bool,
    /// The matching invocations, in input order.
    pub by: Vec<String>,
    /// What came of it (see [`ArtefactStatus`]).
    pub status: ArtefactStatus,
    /// Phenomena of the source citing a matching invocation (0 without a [`CoverageRecord`]).
    pub records: usize,
    /// Why it (or a copy of it) could not be parsed: `"<what>: <reason>"`, in input order.
    pub problems: Vec<String>,
}

/// What came of one expected artefact on a source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArtefactStatus {
    /// Read, and phenomena were recorded from it (some copies may still have `problems`).
    Parsed,
    /// Found, and nothing could be recorded from it: `problems` says why.
    CouldNotParse,
    /// Read, nothing recorded (an empty table, no row of interest), or — without a
    /// [`CoverageRecord`] — examined with unknown outcome.
    Examined,
    /// Not read, and the plugin's triage, which looks for every artefact of its catalogue, has
    /// finished on the source: the source does not hold it.
    NotFound,
    /// Not read, and no finished triage looked for it.
    NotExamined,
}

impl ArtefactStatus {
    /// The words shown in reports and views.
    pub fn as_words(self) -> &'static str {
        match self {
            Self::Parsed => "parsed",
            Self::CouldNotParse => "could not parse",
            Self::Examined => "read, nothing recorded",
            Self::NotFound => "not present",
            Self::NotExamined => "not examined",
        }
    }
}

/// What the agents recorded on a source beyond their invocations, for
/// [`artefact_coverage`].
#[derive(Debug, Clone, Default)]
pub struct CoverageRecord {
    /// Each phenomenon of the source: the invocations its facts cite.
    pub phenomena: Vec<Vec<String>>,
    /// Each artefact noted as not parsed on the source: (what, reason, invocation).
    pub problems: Vec<(String, String, Option<String>)>,
    /// Whether the triage of the plugin whose catalogue this is finished on the source.
    pub searched: bool,
}

/// The footer of every coverage view: the catalogue is a hint.
pub const COVERAGE_FOOTER: &str = "The catalogue is a hint, not a checklist: investigate an \
    unexamined artefact only when an active hypothesis depends on it.";

/// Builds the coverage of `source_id` by `invocations` against `catalogue` (the strategist's
/// view: examined or not).
pub fn source_coverage(
    source_id: &str,
    catalogue: &[ExpectedArtefact],
    invocations: &[InvocationSummary],
) -> Coverage {
    coverage_of(source_id, catalogue, invocations, None)
}

/// The coverage table of a source (issue 17, part 4): each expected artefact with what came of
/// it — parsed (with the phenomena recorded), could not parse (why), read with nothing recorded,
/// not present, or not examined. `record` holds the source's phenomena and unparsed notes.
pub fn artefact_coverage(
    source_id: &str,
    catalogue: &[ExpectedArtefact],
    invocations: &[InvocationSummary],
    record: &CoverageRecord,
) -> Coverage {
    coverage_of(source_id, catalogue, invocations, Some(record))
}

fn coverage_of(
    source_id: &str,
    catalogue: &[ExpectedArtefact],
    invocations: &[InvocationSummary],
    record: Option<&CoverageRecord>,
) -> Coverage {
    let on_source: Vec<(&str, String)> = invocations
        .iter()
        .filter(|i| i.source_id == source_id)
        .map(|i| (i.id.as_str(), format!("{} {}", i.tool, i.args)))
        .collect();
    let matches = |artefact: &ExpectedArtefact, text: &str| {
        artefact
            .detector
            .iter()
            .any(|d| !d.is_empty() && text.contains(d.as_str()))
    };
    Coverage {
        source_id: source_id.to_owned(),
        items: catalogue
            .iter()
            .map(|artefact| {
                let by: Vec<String> = on_source
                    .iter()
                    .filter(|(_, text)| matches(artefact, text))
                    .map(|(id, _)| (*id).to_owned())
                    .collect();
                let examined = !by.is_empty();
                let Some(record) = record else {
                    return CoverageItem {
                        name: artefact.name.clone(),
                        value_for: artefact.value_for.clone(),
                        examined,
                        by,
                        status: if examined {
                            ArtefactStatus::Examined
                        } else {
                            ArtefactStatus::NotExamined
                        },
                        records: 0,
                        problems: Vec::new(),
                    };
                };
                let cited: BTreeSet<&str> = by.iter().map(String::as_str).collect();
                let records = record
                    .phenomena
                    .iter()
                    .filter(|invs| invs.iter().any(|i| cited.contains(i.as_str())))
                    .count();
                // A note names the artefact by its path (matched as the path argument of a
                // call would be), by the failed call it cites, or by the catalogue name (or the
                // first word of several entries: `WhatsApp`) a triage's artefact scope gave.
                let problems: Vec<String> = record
                    .problems
                    .iter()
                    .filter(|(what, _, inv)| {
                        inv.as_deref().is_some_and(|i| cited.contains(i))
                            || matches(artefact, &format!("\"{what}\""))
                            || artefact.name == *what
                            || artefact.name.starts_with(&format!("{what} "))
                    })
                    .map(|(what, why, _)| format!("{what}: {why}"))
                    .collect();
                let status = if records > 0 {
                    ArtefactStatus::Parsed
                } else if !problems.is_empty() {
                    ArtefactStatus::CouldNotParse
                } else if examined {
                    ArtefactStatus::Examined
                } else if record.searched {
                    ArtefactStatus::NotFound
                } else {
                    ArtefactStatus::NotExamined
                };
                CoverageItem {
                    name: artefact.name.clone(),
                    value_for: artefact.value_for.clone(),
                    examined,
                    by,
                    status,
                    records,
                    problems,
                }
            })
            .collect(),
        footer: COVERAGE_FOOTER.to_owned(),
    }
}

/// One budget counter: usage against its cap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetCounter {
    /// `tool_calls`, `rounds`, `wall_clock_s`, `tokens`.
    pub name: String,
    /// Used so far.
    pub used: u64,
    /// The cap (0 = no cap).
    pub cap: u64,
}

/// `budget_status()`: each counter with its level.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetStatus {
    /// One line per counter, in input order.
    pub lines: Vec<BudgetLine>,
    /// True when any capped counter has reached its cap.
    pub exhausted: bool,
}

/// One counter's status.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetLine {
    /// The counter.
    pub name: String,
    /// Used.
    pub used: u64,
    /// Cap (0 = none).
    pub cap: u64,
    /// `used / cap` (0 without a cap).
    pub fraction: f64,
    /// The highest warning level reached (from `warn_at`), if any.
    pub warning_at: Option<f64>,
    /// True at or over the cap.
    pub exhausted: bool,
}

/// Builds the budget status; `warn_at` are fractions (e.g. `[0.7, 0.9]`).
pub fn budget_status(counters: &[BudgetCounter], warn_at: &[f64]) -> BudgetStatus {
    let lines: Vec<BudgetLine> = counters
        .iter()
        .map(|c| {
            #[allow(clippy::cast_precision_loss)] // counters are far below 2^52
            let fraction = if c.cap == 0 {
                0.0
            } else {
                c.used as f64 / c.cap as f64
            };
            let warning_at = warn_at
                .iter()
                .copied()
                .filter(|&level| c.cap > 0 && fraction >= level)
                .fold(None, |max: Option<f64>, level| {
                    Some(max.map_or(level, |m| m.max(level)))
                });
            BudgetLine {
                name: c.name.clone(),
                used: c.used,
                cap: c.cap,
                fraction,
                warning_at,
                exhausted: c.cap > 0 && c.used >= c.cap,
            }
        })
        .collect();
    BudgetStatus {
        exhausted: lines.iter().any(|l| l.exhausted),
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_matches_detectors_on_the_source_only() {
        let catalogue = vec![
            ExpectedArtefact {
                name: "sms.db".into(),
                detector: vec!["sms.db".into()],
                value_for: "messages".into(),
            },
            ExpectedArtefact {
                name: "AddressBook".into(),
                detector: vec!["AddressBook.sqlitedb".into(), "contacts".into()],
                value_for: "people".into(),
            },
        ];
        let invocations = vec![
            InvocationSummary {
                id: "inv-1".into(),
                source_id: "src-ios".into(),
                tool: "sqlite_query".into(),
                args: r#"{"path":"/private/var/mobile/Library/SMS/sms.db"}"#.into(),
            },
            InvocationSummary {
                id: "inv-2".into(),
                source_id: "src-android".into(),
                tool: "sqlite_query".into(),
                args: r#"{"path":"contacts2.db"}"#.into(),
            },
        ];
        let coverage = source_coverage("src-ios", &catalogue, &invocations);
        let got: Vec<_> = coverage
            .items
            .iter()
            .map(|i| (i.name.as_str(), i.examined, i.by.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("sms.db", true, vec!["inv-1".to_owned()]),
                ("AddressBook", false, vec![])
            ]
        );
        assert_eq!(coverage.footer, COVERAGE_FOOTER);
    }

    #[test]
    fn artefact_coverage_says_what_came_of_each_artefact() {
        let e = |name: &str, detector: &str| ExpectedArtefact {
            name: name.into(),
            detector: vec![detector.into()],
            value_for: String::new(),
        };
        let catalogue = vec![
            e("sms.db", "/sms.db\""),
            e("NoteStore", "/NoteStore.sqlite\""),
            e("Cache.db", "/Cache.db\""),
            e("KnowledgeC", "/knowledgeC.db\""),
        ];
        let inv = |id: &str, path: &str| InvocationSummary {
            id: id.into(),
            source_id: "src".into(),
            tool: "sqlite_query".into(),
            args: format!(r#"{{"path":"{path}"}}"#),
        };
        let invocations = vec![
            inv("inv-1", "/a/SMS/sms.db"),
            inv("inv-2", "/b/SMS/sms.db"),
            inv("inv-3", "/a/NoteStore.sqlite"),
            inv("inv-4", "/a/Cache.db"),
        ];
        let record = CoverageRecord {
            phenomena: vec![
                vec!["inv-1".into(), "inv-0".into()],
                vec!["inv-1".into()],
                vec!["inv-0".into()],
            ],
            problems: vec![
                (
                    "/b/SMS/sms.db".into(),
                    "database disk image is malformed".into(),
                    Some("inv-2".into()),
                ),
                (
                    "/a/NoteStore.sqlite".into(),
                    "unexpected schema: no ZICCLOUDSYNCINGOBJECT table".into(),
                    None,
                ),
            ],
            searched: true,
        };
        let cov = artefact_coverage("src", &catalogue, &invocations, &record);
        let got: Vec<_> = cov
            .items
            .iter()
            .map(|i| (i.name.as_str(), i.status, i.records, i.problems.len()))
            .collect();
        assert_eq!(
            got,
            [
                ("sms.db", ArtefactStatus::Parsed, 2, 1),
                ("NoteStore", ArtefactStatus::CouldNotParse, 0, 1),
                ("Cache.db", ArtefactStatus::Examined, 0, 0),
                ("KnowledgeC", ArtefactStatus::NotFound, 0, 0),
            ]
        );
        assert!(cov.items[1].problems[0].contains("ZICCLOUDSYNCINGOBJECT"));
        // Without a finished triage an artefact not read is "not examined", never "not present".
        let unsearched = CoverageRecord {
            searched: false,
            ..record
        };
        let cov = artefact_coverage("src", &catalogue, &invocations, &unsearched);
        assert_eq!(cov.items[3].status, ArtefactStatus::NotExamined);
        // The strategist's view: examined or not, nothing more claimed.
        let plain = source_coverage("src", &catalogue, &invocations);
        assert_eq!(plain.items[1].status, ArtefactStatus::Examined);
        assert_eq!(plain.items[3].status, ArtefactStatus::NotExamined);
    }

    #[test]
    fn budgets_warn_at_levels() {
        let counters = [
            BudgetCounter {
                name: "tool_calls".into(),
                used: 14_000,
                cap: 20_000,
            },
            BudgetCounter {
                name: "rounds".into(),
                used: 5,
                cap: 5,
            },
            BudgetCounter {
                name: "tokens".into(),
                used: 100,
                cap: 2_000_000,
            },
            BudgetCounter {
                name: "wall_clock_s".into(),
                used: 3300,
                cap: 3600,
            },
            BudgetCounter {
                name: "free".into(),
                used: 3,
                cap: 0,
            },
        ];
        let status = budget_status(&counters, &[0.7, 0.9]);
        let got: Vec<_> = status
            .lines
            .iter()
            .map(|l| (l.name.as_str(), l.warning_at, l.exhausted))
            .collect();
        assert_eq!(
            got,
            [
                ("tool_calls", Some(0.7), false),
                ("rounds", Some(0.9), true),
                ("tokens", None, false),
                ("wall_clock_s", Some(0.9), false),
                ("free", None, false),
            ]
        );
        assert!(status.exhausted);
    }
}
