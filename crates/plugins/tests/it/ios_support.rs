//! Running the iOS triage agent on a real session (tempdir store) and reading back what it
//! recorded: phenomena, identity observations, unparsed notes and the task tally.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use masf_agents::{AgentCtx, ArtefactUnparsed, Plugin, Session, SourceInfo, TaskTally};
use masf_graph::{Entity, Phenomenon, Scoring};
use masf_plugins::ios::Ios;
use masf_tools::{Invoker, Limits};

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A public corpus file, by its corpus path (`ios/…`, `plist/…`), read in place from the
/// corpus and checked against its manifest (see `masf_testkit::corpus`).
pub fn public(rel: &str) -> PathBuf {
    masf_testkit::corpus::path(rel)
}

/// What one triage run recorded.
pub struct Outcome {
    /// The session (kept open: its store lives in `_dir`).
    pub session: Session,
    /// The task's tally.
    pub tally: TaskTally,
    /// Phenomena of the source (identity ones included), in id order.
    pub phenomena: Vec<Phenomenon>,
    /// Entities of the source.
    pub entities: Vec<Entity>,
    /// Unparsed notes.
    pub unparsed: Vec<ArtefactUnparsed>,
    _dir: tempfile::TempDir,
}

impl Outcome {
    /// Non-identity phenomena.
    pub fn findings(&self) -> Vec<&Phenomenon> {
        self.phenomena
            .iter()
            .filter(|p| p.category != "identity")
            .collect()
    }

    /// The reason of the unparsed note of the artefact whose path ends with `suffix` (fails
    /// the test, listing the notes, when there is none).
    pub fn noted(&self, suffix: &str) -> String {
        self.unparsed
            .iter()
            .find(|u| u.artefact.ends_with(suffix))
            .map(|u| u.reason.clone())
            .unwrap_or_else(|| panic!("{suffix} not noted: {:#?}", self.unparsed))
    }

    /// Asserts that the artefact whose path ends with `suffix` was noted with a reason
    /// holding `word`.
    pub fn assert_noted(&self, suffix: &str, word: &str) {
        assert!(
            self.unparsed
                .iter()
                .any(|u| u.artefact.ends_with(suffix) && u.reason.contains(word)),
            "{suffix} not noted with {word:?}: {:#?}",
            self.unparsed
        )
    }

    /// Phenomena of one category.
    pub fn category(&self, c: &str) -> Vec<&Phenomenon> {
        self.phenomena.iter().filter(|p| p.category == c).collect()
    }

    /// `(context, id_type, normalized)` of every observed identifier.
    pub fn identities(&self) -> BTreeSet<(String, String, String)> {
        self.entities
            .iter()
            .flat_map(|e| {
                e.identifiers.iter().map(move |i| {
                    (
                        e.context.clone(),
                        i.id_type.to_string(),
                        i.normalized.clone(),
                    )
                })
            })
            .collect()
    }

    /// Fact values of a phenomenon.
    pub fn values(p: &Phenomenon) -> Vec<&str> {
        p.verified_facts.iter().map(|f| f.value.as_str()).collect()
    }
}

/// Runs `ios-triage` on the evidence at `path` (whatever the source is sniffed as: partial
/// extractions are run directly), with `timezone` for the phone region.
pub fn triage(path: &Path, timezone: &str) -> Outcome {
    let dir = tempfile::tempdir().expect("tempdir");
    let plugins = masf_plugins::all();
    let session = Session::open(
        dir.path(),
        Scoring::default(),
        Invoker::new(Arc::new(plugins.catalog()), Limits::default()),
        vec![SourceInfo {
            id: "src-ios".into(),
            label: "iOS test source".into(),
            path: path.to_path_buf(),
            owner: None,
            timezone: timezone.into(),
            region: None,
            password_env: None,
        }],
        Arc::new(|| jiff::Timestamp::from_second(1_764_000_000).expect("time")),
    )
    .expect("session opens");
    let plugin = Ios;
    let ctx = AgentCtx::new(&session, &plugin.agent_name(), "triage/src-ios", "src-ios")
        .expect("agent context");
    plugin.triage(&ctx).expect("triage runs");
    let tally = ctx.tally();
    drop(ctx);
    let state = session.state().expect("state");
    let phenomena = state.phenomena().values().cloned().collect();
    let entities = state.entities().values().cloned().collect();
    drop(state);
    let unparsed = session.unparsed().expect("unparsed");
    Outcome {
        session,
        tally,
        phenomena,
        entities,
        unparsed,
        _dir: dir,
    }
}

/// Asserts that every request of the run was accepted (no rejection, no duplicate) without a
/// warning.
pub fn assert_all_accepted(o: &Outcome) {
    let rejections = o.session.state().expect("state").rejections().to_vec();
    assert!(rejections.is_empty(), "rejected: {rejections:#?}");
    assert_eq!(o.tally.rejections, 0, "{:?}", o.tally);
    assert_eq!(o.tally.duplicates, 0, "{:?}", o.tally);
    // Interpretations name only values of the outputs they cite, and every fact is grounded
    // in the invocation it cites (no rescued citation).
    for p in &o.phenomena {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
}

/// A phenomenon's fact values and the values of its time marks, as the parity tests against
/// iLEAPP's recorded rows compare them.
pub fn facts_and_times(
    p: &masf_graph::Phenomenon,
) -> (
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<String>,
) {
    (
        p.verified_facts.iter().map(|f| f.value.clone()).collect(),
        p.times
            .iter()
            .map(|m| p.verified_facts[m.fact].value.clone())
            .collect(),
    )
}

/// Runs the Python `script` with `arg` (a folder it writes into) and asserts it succeeded: the
/// tests' writers of fixtures by Python's sqlite3 and plistlib.
pub fn python(script: &str, arg: &Path) {
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(arg)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
