//! Log-odds scoring of hypotheses (DESIGN §7).
//!
//! Each phenomenon → hypothesis edge has a discrete [`EdgeType`] whose weight, a log10
//! likelihood ratio, comes from the [`Scoring`] table (the app maps `config.yaml` onto it),
//! never from a model:
//!
//! ```text
//! L_post     = log10(prior / (1 − prior)) + Σ base(type) / rank
//! confidence = 1 / (1 + 10^(−L_post))
//! ```
//!
//! **Harmonic decay**: the k-th edge of the same (hypothesis, edge type) contributes `base / k`,
//! so N correlated edges of one type add `base · H_N`, not `base · N`. Ranks are assigned in a
//! canonical order (by phenomenon id) and the sum is taken in that order, so the result — to
//! the last bit — does not depend on the order in which edges arrived.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What a hypothesis is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HypothesisKind {
    /// Who owns or used a device, account or wallet.
    Ownership,
    /// That something happened (a transfer, a conversation, a deletion).
    Activity,
    /// That two entities are the same (DESIGN §8).
    Coreference,
    /// That an entity (a wallet) is controlled by a person entity: subjects `[controlled,
    /// person]`. Supported, it joins the two through a `same_as` edge of relation
    /// [`crate::model::Relation::Control`] that the examiner approves or retracts like any other.
    Control,
    /// Anything else.
    Other,
}

/// The discrete type of a phenomenon → hypothesis edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeType {
    /// The phenomenon shows the hypothesis directly (default +2.0).
    DirectEvidence,
    /// The phenomenon supports it (default +1.0).
    Supports,
    /// A consequence the hypothesis predicts was observed (default +1.0).
    ConsequenceObserved,
    /// A prerequisite of the hypothesis is met (default +0.5).
    PrerequisiteMet,
    /// The phenomenon weakens it (default −0.5).
    Weakens,
    /// The phenomenon contradicts it (default −2.0).
    Contradicts,
}

impl EdgeType {
    /// Every edge type, in canonical order.
    pub const ALL: [EdgeType; 6] = [
        Self::DirectEvidence,
        Self::Supports,
        Self::ConsequenceObserved,
        Self::PrerequisiteMet,
        Self::Weakens,
        Self::Contradicts,
    ];

    /// The stable snake-case name (as in `config.yaml`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::DirectEvidence => "direct_evidence",
            Self::Supports => "supports",
            Self::ConsequenceObserved => "consequence_observed",
            Self::PrerequisiteMet => "prerequisite_met",
            Self::Weakens => "weakens",
            Self::Contradicts => "contradicts",
        }
    }
}

/// A hypothesis's status, from its confidence and the thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Between the thresholds.
    Active,
    /// Confidence ≥ `supported_at`.
    Supported,
    /// Confidence ≤ `refuted_at`.
    Refuted,
}

/// The scoring parameters: prior, thresholds and the log10 LR table (DESIGN §7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scoring {
    /// Prior probability of a new hypothesis, in (0, 1).
    pub prior: f64,
    /// Confidence at or above which a hypothesis is supported.
    pub supported_at: f64,
    /// Confidence at or below which it is refuted (below `supported_at`).
    pub refuted_at: f64,
    /// log10 likelihood ratio per edge type; a type missing here cannot be linked.
    pub log10_lr: BTreeMap<EdgeType, f64>,
    /// Priors of hypothesis kinds that do not use `prior` (see [`Scoring::prior_for`]). By
    /// default a coreference hypothesis starts at 0.25: above `refuted_at`, so a new pair is
    /// undecided, and low enough that a same or similar name alone (at most +0.75) stays below
    /// `supported_at` while one shared strong identifier (+3.0 from its two observations)
    /// reaches it (`masf_graph::resolution`, docs/notes/entity-resolution.md).
    #[serde(default = "default_kind_priors")]
    pub kind_priors: BTreeMap<HypothesisKind, f64>,
}

/// The default per-kind priors: coreference and control 0.25 (a control claim needs one
/// direct observation, or two weaker ones, to be supported; see
/// `masf_graph::resolution::control`).
pub fn default_kind_priors() -> BTreeMap<HypothesisKind, f64> {
    BTreeMap::from([
        (HypothesisKind::Coreference, 0.25),
        (HypothesisKind::Control, 0.25),
    ])
}

impl Default for Scoring {
    /// The defaults of DESIGN §7 and `config.yaml`.
    fn default() -> Self {
        Self {
            prior: 0.5,
            supported_at: 0.8,
            refuted_at: 0.2,
            log10_lr: BTreeMap::from([
                (EdgeType::DirectEvidence, 2.0),
                (EdgeType::Supports, 1.0),
                (EdgeType::ConsequenceObserved, 1.0),
                (EdgeType::PrerequisiteMet, 0.5),
                (EdgeType::Weakens, -0.5),
                (EdgeType::Contradicts, -2.0),
            ]),
            kind_priors: default_kind_priors(),
        }
    }
}

/// A problem with a [`Scoring`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScoringError {
    /// A probability is outside (0, 1).
    #[error("{name} must be in (0, 1), got {value}")]
    OutOfRange {
        /// Which parameter.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// `refuted_at` is not below `supported_at`.
    #[error("refuted_at ({refuted_at}) must be below supported_at ({supported_at})")]
    Thresholds {
        /// The refuted threshold.
        refuted_at: f64,
        /// The supported threshold.
        supported_at: f64,
    },
    /// A weight is not a finite number.
    #[error("log10_lr.{edge_type} must be a finite number, got {value}")]
    Weight {
        /// The edge type's name.
        edge_type: &'static str,
        /// Its value.
        value: f64,
    },
}

impl Scoring {
    /// Checks that probabilities are in (0, 1), thresholds ordered and weights finite.
    pub fn validate(&self) -> Result<(), ScoringError> {
        for (name, value) in [
            ("prior", self.prior),
            ("supported_at", self.supported_at),
            ("refuted_at", self.refuted_at),
        ] {
            if !(value > 0.0 && value < 1.0) {
                return Err(ScoringError::OutOfRange { name, value });
            }
        }
        for &value in self.kind_priors.values() {
            if !(value > 0.0 && value < 1.0) {
                return Err(ScoringError::OutOfRange {
                    name: "kind_priors",
                    value,
                });
            }
        }
        if self.refuted_at >= self.supported_at {
            return Err(ScoringError::Thresholds {
                refuted_at: self.refuted_at,
                supported_at: self.supported_at,
            });
        }
        for (edge_type, &value) in &self.log10_lr {
            if !value.is_finite() {
                return Err(ScoringError::Weight {
                    edge_type: edge_type.as_str(),
                    value,
                });
            }
        }
        Ok(())
    }

    /// The prior of a new hypothesis of `kind`: its entry in `kind_priors`, else `prior`.
    pub fn prior_for(&self, kind: HypothesisKind) -> f64 {
        self.kind_priors.get(&kind).copied().unwrap_or(self.prior)
    }

    /// The table's weight for an edge type, if the type is in the table.
    pub fn base(&self, edge_type: EdgeType) -> Option<f64> {
        self.log10_lr.get(&edge_type).copied()
    }

    /// The status for a confidence.
    pub fn status(&self, confidence: f64) -> Status {
        if confidence >= self.supported_at {
            Status::Supported
        } else if confidence <= self.refuted_at {
            Status::Refuted
        } else {
            Status::Active
        }
    }
}

/// `log10(p / (1 − p))`.
pub fn prior_log_odds(prior: f64) -> f64 {
    (prior / (1.0 - prior)).log10()
}

/// `1 / (1 + 10^(−log_odds))`.
pub fn confidence(log_odds: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-log_odds))
}

/// One ranked edge in a [`Score`].
#[derive(Debug, Clone, PartialEq)]
pub struct RankedEdge {
    /// The phenomenon.
    pub phenomenon_id: String,
    /// The edge type.
    pub edge_type: EdgeType,
    /// Rank among the edges of its type, from 1, by phenomenon id.
    pub rank: u32,
    /// The table's weight (0 for a type missing from the table).
    pub base: f64,
    /// `base / rank`.
    pub contribution: f64,
}

/// The result of scoring one hypothesis.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    /// Edges in canonical order: by edge type, then rank.
    pub edges: Vec<RankedEdge>,
    /// Posterior log-odds.
    pub log_odds: f64,
    /// Posterior confidence.
    pub confidence: f64,
    /// Status from the thresholds.
    pub status: Status,
}

/// Scores a hypothesis with `prior` from its edges `(edge type, phenomenon id)`, in any order.
/// Duplicate pairs count once each (the gateway links a phenomenon to a hypothesis only once).
pub fn score<'a>(
    scoring: &Scoring,
    prior: f64,
    edges: impl IntoIterator<Item = (EdgeType, &'a str)>,
) -> Score {
    let mut by_type: BTreeMap<EdgeType, Vec<&str>> = BTreeMap::new();
    for (edge_type, phenomenon_id) in edges {
        by_type.entry(edge_type).or_default().push(phenomenon_id);
    }
    let mut log_odds = prior_log_odds(prior);
    let mut ranked = Vec::new();
    for (edge_type, mut phenomena) in by_type {
        phenomena.sort_unstable();
        let base = scoring.base(edge_type).unwrap_or(0.0);
        for (i, phenomenon_id) in phenomena.into_iter().enumerate() {
            let rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let contribution = base / f64::from(rank);
            log_odds += contribution;
            ranked.push(RankedEdge {
                phenomenon_id: phenomenon_id.to_owned(),
                edge_type,
                rank,
                base,
                contribution,
            });
        }
    }
    let confidence = confidence(log_odds);
    Score {
        edges: ranked,
        log_odds,
        confidence,
        status: scoring.status(confidence),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn harmonic(n: u32) -> f64 {
        (1..=n).map(|k| 1.0 / f64::from(k)).sum()
    }

    #[test]
    fn eight_direct_and_fifteen_supports_decay_to_8_754_not_31() {
        let ids: Vec<String> = (1..=23).map(|i| format!("ph-{i:06}")).collect();
        let edges = ids.iter().enumerate().map(|(i, id)| {
            let edge_type = if i < 8 {
                EdgeType::DirectEvidence
            } else {
                EdgeType::Supports
            };
            (edge_type, id.as_str())
        });
        let score = score(&Scoring::default(), 0.5, edges);
        let expected = 2.0 * harmonic(8) + harmonic(15);
        assert!(
            (score.log_odds - expected).abs() < 1e-12,
            "{}",
            score.log_odds
        );
        assert!((score.log_odds - 8.754).abs() < 5e-4, "{}", score.log_odds);
        let naive: f64 = score.edges.iter().map(|e| e.base).sum();
        assert_eq!(naive, 31.0);
        assert_eq!(score.status, Status::Supported);
    }

    #[test]
    fn ranks_follow_phenomenon_ids_and_contributions_decay() {
        let score = score(
            &Scoring::default(),
            0.5,
            [
                (EdgeType::Supports, "ph-000003"),
                (EdgeType::Supports, "ph-000001"),
                (EdgeType::Weakens, "ph-000002"),
            ],
        );
        let got: Vec<_> = score
            .edges
            .iter()
            .map(|e| {
                (
                    e.phenomenon_id.as_str(),
                    e.edge_type,
                    e.rank,
                    e.contribution,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("ph-000001", EdgeType::Supports, 1, 1.0),
                ("ph-000003", EdgeType::Supports, 2, 0.5),
                ("ph-000002", EdgeType::Weakens, 1, -0.5),
            ]
        );
        assert_eq!(score.log_odds, 1.0);
    }

    #[test]
    fn thresholds_and_prior() {
        let scoring = Scoring::default();
        // No edges: the prior alone.
        let s = score(&scoring, 0.5, []);
        assert_eq!(
            (s.log_odds, s.confidence, s.status),
            (0.0, 0.5, Status::Active)
        );
        let s = score(&scoring, 0.9, []);
        assert!((s.confidence - 0.9).abs() < 1e-12);
        assert_eq!(s.status, Status::Supported);
        // One `supports` edge: L = 1, confidence 10/11 ≥ 0.8.
        let s = score(&scoring, 0.5, [(EdgeType::Supports, "ph-1")]);
        assert_eq!(s.status, Status::Supported);
        // One `weakens` edge: L = −0.5, confidence ≈ 0.24, still active.
        let s = score(&scoring, 0.5, [(EdgeType::Weakens, "ph-1")]);
        assert_eq!(s.status, Status::Active);
        // One `contradicts`: L = −2, confidence ≈ 0.0099, refuted.
        let s = score(&scoring, 0.5, [(EdgeType::Contradicts, "ph-1")]);
        assert_eq!(s.status, Status::Refuted);
        // Exactly at the thresholds.
        assert_eq!(scoring.status(0.8), Status::Supported);
        assert_eq!(scoring.status(0.2), Status::Refuted);
        assert_eq!(scoring.status(0.79), Status::Active);
    }

    #[test]
    fn the_table_comes_from_the_scoring() {
        let mut scoring = Scoring::default();
        scoring.log10_lr.insert(EdgeType::Supports, 0.25);
        scoring.prior = 0.2;
        let s = score(&scoring, scoring.prior, [(EdgeType::Supports, "ph-1")]);
        assert!((s.log_odds - (0.25 + (0.25f64).log10())).abs() < 1e-12);
    }

    #[test]
    fn validation() {
        assert_eq!(Scoring::default().validate(), Ok(()));
        let s = Scoring {
            prior: 1.0,
            ..Scoring::default()
        };
        assert!(matches!(
            s.validate(),
            Err(ScoringError::OutOfRange { name: "prior", .. })
        ));
        let s = Scoring {
            refuted_at: 0.9,
            ..Scoring::default()
        };
        assert!(matches!(s.validate(), Err(ScoringError::Thresholds { .. })));
        let mut s = Scoring::default();
        s.log10_lr.insert(EdgeType::Supports, f64::NAN);
        assert!(matches!(s.validate(), Err(ScoringError::Weight { .. })));
    }
}
