//! Shared by the Android, disk and archive tests: a session over some sources, triaged with
//! every plugin of the build, and compact renderings of what the gateway accepted.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_agents::{ArtefactUnparsed, Session, SourceInfo, TriageReport, triage_all};
use masf_graph::Scoring;
use masf_tools::{Invoker, Limits};

/// A path under the repository.
pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// A triaged session (its store lives in `_dir`).
pub struct Run {
    pub _dir: tempfile::TempDir,
    pub session: Session,
    pub reports: Vec<TriageReport>,
}

/// Opens a session over `(id, path, zone, examiner's region)` sources and triages them with
/// `masf_plugins::all()`.
pub fn triage(sources: &[(&str, &Path, &str, Option<&str>)]) -> Run {
    triage_with_limit(sources, None)
}

/// [`triage`] with a per-artefact time limit (`Session::with_artefact_limit`).
pub fn triage_with_limit(
    sources: &[(&str, &Path, &str, Option<&str>)],
    limit: Option<std::time::Duration>,
) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    let plugins = masf_plugins::all();
    let session = Session::open(
        dir.path(),
        Scoring::default(),
        Invoker::new(Arc::new(plugins.catalog()), Limits::default()),
        sources
            .iter()
            .map(|(id, path, zone, region)| SourceInfo {
                id: id.to_string(),
                label: id.to_string(),
                path: path.to_path_buf(),
                owner: None,
                timezone: zone.to_string(),
                region: region.map(|r| masf_graph::Region::parse(r).expect("region")),
                password_env: None,
            })
            .collect(),
        Arc::new(|| jiff::Timestamp::from_second(1_764_000_000).expect("time")),
    )
    .expect("session opens");
    let session = match limit {
        Some(l) => session.with_artefact_limit(l),
        None => session,
    };
    let reports = triage_all(&session, &plugins, 2).expect("triage");
    Run {
        _dir: dir,
        session,
        reports,
    }
}

impl Run {
    /// The report of one source.
    pub fn report(&self, source: &str) -> &TriageReport {
        self.reports
            .iter()
            .find(|r| r.source_id == source)
            .expect("a report for the source")
    }

    /// `category | title | fact values` of every phenomenon of `source` that is not an
    /// identity observation, in recording order.
    pub fn phenomena(&self, source: &str) -> Vec<String> {
        let state = self.session.state().expect("state");
        let observed: Vec<String> = state
            .entities()
            .values()
            .flat_map(|e| e.identifiers.iter().map(|i| i.phenomenon_id.clone()))
            .collect();
        state
            .phenomena()
            .values()
            .filter(|p| {
                p.source_id == source && !observed.contains(&p.id) && p.category != "identity"
            })
            .map(|p| format!("{} | {}", p.category, p.title))
            .collect()
    }

    /// Every phenomenon of `source` (identity observations included).
    pub fn all_phenomena(&self, source: &str) -> Vec<masf_graph::Phenomenon> {
        let state = self.session.state().expect("state");
        state
            .phenomena()
            .values()
            .filter(|p| p.source_id == source)
            .cloned()
            .collect()
    }

    /// `context [kind] label: type=normalised, …` of every entity of `source`, sorted.
    pub fn entities(&self, source: &str) -> Vec<String> {
        let state = self.session.state().expect("state");
        let mut out: Vec<String> = state
            .entities()
            .values()
            .filter(|e| e.source_id == source)
            .map(|e| {
                let mut ids: Vec<String> = e
                    .identifiers
                    .iter()
                    .map(|i| format!("{}={}", i.id_type, i.normalized))
                    .collect();
                ids.sort();
                format!(
                    "{} [{:?}] {}: {}",
                    e.context,
                    e.kind,
                    e.label,
                    ids.join(", ")
                )
            })
            .collect();
        out.sort();
        out
    }

    /// The `owner` entity of `source` as [`Run::entities`] writes it (empty when there is none).
    pub fn owner(&self, source: &str) -> String {
        self.entities(source)
            .into_iter()
            .find(|e| e.starts_with("owner ["))
            .unwrap_or_default()
    }

    /// `(type, normalised)` of every identifier observed in `source`.
    pub fn identifiers(&self, source: &str) -> Vec<(String, String)> {
        let state = self.session.state().expect("state");
        state
            .entities()
            .values()
            .filter(|e| e.source_id == source)
            .flat_map(|e| {
                e.identifiers
                    .iter()
                    .map(|i| (i.id_type.to_string(), i.normalized.clone()))
            })
            .collect()
    }

    /// The gateway's rejections (must be none).
    pub fn rejections(&self) -> Vec<String> {
        let state = self.session.state().expect("state");
        state
            .rejections()
            .iter()
            .map(|r| format!("{r:?}"))
            .collect()
    }

    /// `artefact: reason` of every unparsed note of `source`.
    pub fn unparsed(&self, source: &str) -> Vec<ArtefactUnparsed> {
        self.session
            .unparsed()
            .expect("unparsed")
            .into_iter()
            .filter(|u| u.source_id == source)
            .collect()
    }

    /// Asserts that `source` noted each artefact whose name ends with the first of a pair
    /// with a reason holding the second.
    pub fn assert_noted(&self, source: &str, expected: &[(&str, &str)]) {
        let notes = self.unparsed(source);
        for (suffix, word) in expected {
            assert!(
                notes
                    .iter()
                    .any(|u| u.artefact.ends_with(suffix) && u.reason.contains(word)),
                "{source}: {suffix} noted with {word:?}: {notes:#?}"
            );
        }
    }
}

/// The demo's ground truth.
pub fn ground_truth() -> serde_json::Value {
    let text = std::fs::read_to_string(repo("tests/fixtures/demo/ground_truth.json"))
        .expect("ground_truth.json");
    serde_json::from_str(&text).expect("ground truth parses")
}

/// Checks that every identifier the ground truth plants in `source` was observed from that
/// source, with the same type and normalised value, except those `skip` names (with the reason
/// it returns); device facts that are no identifier type (model, build fingerprint) must be
/// verified facts of a phenomenon of the source. Returns the problems.
pub fn missing_planted(
    run: &Run,
    source: &str,
    skip: impl Fn(&serde_json::Value) -> Option<&'static str>,
) -> Vec<String> {
    let truth = ground_truth();
    let seen = run.identifiers(source);
    let facts: Vec<String> = run
        .all_phenomena(source)
        .iter()
        .flat_map(|p| p.verified_facts.iter().map(|f| f.value.clone()))
        .collect();
    let mut problems = Vec::new();
    for planted in truth["identifiers"].as_array().expect("identifiers") {
        let w = &planted["where"];
        if w["source"] != source {
            continue;
        }
        if skip(planted).is_some() {
            continue;
        }
        let t = planted["type"].as_str().unwrap_or_default();
        let value = planted["value"].as_str().unwrap_or_default();
        let normalized = planted["normalized"].as_str().unwrap_or_default();
        let id_type = match t {
            "name" => Some("display_name"),
            "phone" | "email" | "google_account" | "account_id" | "iccid" | "imei" | "imsi" => {
                Some(t)
            }
            "device_serial" | "camera_serial" => Some("serial"),
            t if t.starts_with("wallet_") => Some("wallet"),
            _ => None,
        };
        let ok = match id_type {
            Some("display_name") => seen
                .iter()
                .any(|(ty, n)| ty == "display_name" && *n == normalized.to_lowercase()),
            Some("wallet") => {
                let canon =
                    masf_graph::identifiers::normalize_wallet(value).expect("planted wallet");
                seen.iter().any(|(ty, n)| ty == "wallet" && *n == canon)
            }
            Some(ty) => seen.iter().any(|(t2, n)| t2 == ty && n == normalized),
            None => facts.iter().any(|f| f == value),
        };
        if !ok {
            problems.push(format!("{t} {value:?} at {w}"));
        }
    }
    problems
}

impl Run {
    /// `(tool, args, output text)` of every logged call on `source`.
    pub fn outputs(&self, source: &str) -> Vec<(String, String, String)> {
        let store = masf_store::Store::open(self._dir.path()).expect("store");
        store
            .all_invocations()
            .expect("invocations")
            .into_iter()
            .filter(|i| i.source_id == source)
            .map(|i| {
                let out = store
                    .invocation_output(&i.invocation_id)
                    .unwrap_or_default();
                (i.tool, i.args, String::from_utf8_lossy(&out).into_owned())
            })
            .collect()
    }
}

/// Builds the SQLite database `db` with the sqlite3 CLI from the committed SQL file `fixture`
/// (a path under `tests/fixtures/`), then runs `then` (more SQL, or `SELECT 1;`).
/// Beside the store at `data/data/<rel>` of `root`, the damaged copies each reader's test expects
/// noted: a truncated copy as Android user 10's, and a store of another layout (`foreign_sql`, run
/// by the sqlite3 CLI) as user 11's.
pub fn damaged_copies(root: &Path, rel: &str, foreign_sql: &str) {
    let bytes = std::fs::read(root.join("data/data").join(rel)).unwrap();
    let truncated = root.join("data/user/10").join(rel);
    std::fs::create_dir_all(truncated.parent().unwrap()).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(&root.join("data/user/11").join(rel), foreign_sql);
}

pub fn sqlite_fixture(db: &Path, fixture: &str, then: &str) {
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let out = std::process::Command::new("sqlite3")
        .arg(db)
        .arg(format!(
            ".read {}",
            repo(&format!("tests/fixtures/{fixture}")).display()
        ))
        .arg(then)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{fixture}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// [`rows_in`] over the phenomena titled `prefix…` of `all`, asserting there are as many as
/// rows; returns the number of rows.
pub fn check(
    all: &[masf_graph::Phenomenon],
    prefix: &str,
    db: &Path,
    sql: &str,
    key: usize,
) -> usize {
    let found: Vec<&masf_graph::Phenomenon> =
        all.iter().filter(|p| p.title.starts_with(prefix)).collect();
    let rows = rows_in(&found, db, sql, key, "");
    assert_eq!(found.len(), rows, "{prefix}");
    rows
}

/// Copies the committed fixture `tests/fixtures/<name>` to `to` (its folders made).
pub fn copy_fixture(to: &Path, name: &str) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(repo(&format!("tests/fixtures/{name}")), to).unwrap();
}

/// Checks the rows of `sql` on `db` (read by the sqlite3 CLI, the oracle) against `found`: each
/// row is the phenomenon holding its `key`th value, and that phenomenon holds each of the row's
/// non-empty values as a fact (a value listing several, split on `split` when it is not empty,
/// value by value). Returns the number of rows.
pub fn rows_in(
    found: &[&masf_graph::Phenomenon],
    db: &Path,
    sql: &str,
    key: usize,
    split: &str,
) -> usize {
    let has = |p: &masf_graph::Phenomenon, v: &str| p.verified_facts.iter().any(|f| f.value == v);
    let rows = crate::browsers::sqlite3(db, sql);
    for row in &rows {
        let p = found
            .iter()
            .find(|p| has(p, &row[key]))
            .unwrap_or_else(|| panic!("{row:?} in none of {found:#?}"));
        for v in row.iter().filter(|v| !v.is_empty()) {
            let parts: Vec<&str> = if split.is_empty() {
                vec![v.as_str()]
            } else {
                v.split(split).filter(|x| !x.is_empty()).collect()
            };
            for part in parts {
                assert!(has(p, part), "{part} in {p:#?}");
            }
        }
    }
    rows.len()
}

/// The rows an oracle script (ALEAPP's or iLEAPP's logic re-run) prints as JSON lines
/// `[kind, key, values…]`, those of `kind`; run by the interpreter `python` with `args`.
pub fn oracle_rows(python: &str, script: &str, args: &[&str], kind: &str) -> Vec<Vec<String>> {
    let out = std::process::Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Vec<String>>(l).unwrap())
        .filter(|r| r[0] == kind)
        .collect()
}

/// Whether `p` holds `v` as a fact.
pub fn has_fact(p: &masf_graph::Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

/// Asserts that the values of each row from index `from` are all held (`has`) by one
/// phenomenon titled `prefix…` of `all`; returns the number of rows.
pub fn assert_rows_in(
    all: &[masf_graph::Phenomenon],
    rows: &[Vec<String>],
    prefix: &str,
    from: usize,
    has: &dyn Fn(&masf_graph::Phenomenon, &str) -> bool,
) -> usize {
    for r in rows {
        assert!(
            all.iter()
                .any(|p| p.title.starts_with(prefix) && r[from..].iter().all(|v| has(p, v))),
            "{r:?} in none of {:#?}",
            all.iter()
                .filter(|p| p.title.starts_with(prefix))
                .collect::<Vec<_>>()
        );
    }
    rows.len()
}

/// Runs the fixture generator `script` (a path under the repository) with the Python oracles'
/// interpreter (`package`: what setup installs for it) and `args`, then returns the JSON oracle
/// it wrote at `oracle`.
pub fn generate(
    package: &str,
    script: &str,
    args: &[&std::ffi::OsStr],
    oracle: &Path,
) -> serde_json::Value {
    let python = masf_testkit::corpus::py_oracle("python3", package);
    let out = std::process::Command::new(python)
        .arg(repo(script))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&std::fs::read(oracle).unwrap()).unwrap()
}

/// The phenomenon of `all` titled `title`; panics listing every title when there is none.
pub fn titled<'a>(all: &'a [masf_graph::Phenomenon], title: &str) -> &'a masf_graph::Phenomenon {
    all.iter().find(|p| p.title == title).unwrap_or_else(|| {
        panic!(
            "{title}: {:#?}",
            all.iter().map(|p| &p.title).collect::<Vec<_>>()
        )
    })
}

/// The stored values the times of `p` ground on, sorted.
pub fn time_values(p: &masf_graph::Phenomenon) -> Vec<String> {
    let mut v: Vec<String> = p
        .times
        .iter()
        .map(|t| p.verified_facts[t.fact].value.clone())
        .collect();
    v.sort();
    v
}

/// Whether a fact of `p` ends with `suffix` (a path cited whole or relative).
pub fn has_path(p: &masf_graph::Phenomenon, suffix: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value.ends_with(suffix))
}

/// Android 12+'s encoding of the generator's plain XML files, by the `android-abx` crate's
/// encoder: each `[tree, path]` of the oracle's `abx` encoded in place, each `[tree, path,
/// needle]` of its `abx_cut` encoded and cut five bytes into the needle (it then does not
/// decode).
pub fn encode_abx(root: &Path, o: &serde_json::Value) {
    let at = |f: &serde_json::Value| {
        root.join(f[0].as_str().unwrap())
            .join(f[1].as_str().unwrap())
    };
    for f in o["abx"].as_array().unwrap() {
        let p = at(f);
        let xml = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, android_abx::xml_to_abx(&xml).unwrap()).unwrap();
    }
    for f in o["abx_cut"].as_array().unwrap() {
        let p = at(f);
        let bytes = android_abx::xml_to_abx(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let needle = f[2].as_str().unwrap().as_bytes();
        let cut = bytes
            .windows(needle.len())
            .position(|w| w == needle)
            .expect("the needle is in the ABX bytes");
        std::fs::write(&p, &bytes[..cut + 5]).unwrap();
    }
}
