//! The case model: `case.yaml` (the case, its persons and evidence sources) and `config.yaml`
//! (application defaults).
//!
//! - [`Case::load`] reads and validates a `case.yaml`; [`Config::load`] a `config.yaml` (or gives
//!   the defaults). Neither stops at the first problem: every problem is an [`Issue`] naming the
//!   file, the item (with its id) and the field, and all of them come back together in one
//!   [`CaseError::Invalid`] / [`ConfigError::Invalid`].
//! - [`CaseFile`] writes a `case.yaml` for a set of evidence files (`masf init`).
//! - [`events`] holds the case-level event payloads (`SourceAdded`, `SourceAmended`,
//!   `SourceUnreadable`) and their projection, `SourceRegistry`: `SourceRegistry::apply` folds
//!   the events, and `masf status` rebuilds it on every open, so the case's sources are a
//!   projection of the log.
//! - A `region:` given per source or for the case is checked against libphonenumber's regions
//!   through `masf_graph::Region`; `llm.api_key_env` must name an environment variable, and a
//!   value that looks like a key itself is refused.
//!
//! This crate parses no artefacts: it reads the examiner's two files and the events it owns.
//!
//! Time zones are IANA names looked up in the tz database bundled with `jiff`, so every machine
//! reads the same rules; the canonical name is kept beside the parsed zone.

mod case;
mod config;
pub mod events;
mod issue;
mod paths;
mod write;
mod yaml;
mod zone;

pub use case::{Case, CaseMeta, Person, SourceSpec, SourceType, id_from_text, is_valid_id};
pub use config::{
    Budgets, Config, LlmConfig, LlmProvider, LrTable, RunConfig, ScoringConfig, StrategistConfig,
    StrategistKind, ToolsConfig,
};
pub use issue::{CaseError, ConfigError, Issue, IssueKind, Location};
pub use write::{CaseFile, CaseFileMeta, SourceEntry};
