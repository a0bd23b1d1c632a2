//! Running the real `masf` binary and the system tools used as oracles.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

/// Runs `masf` with `args`.
pub fn masf(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_masf"))
        .args(args)
        .output()
        .expect("masf runs")
}

/// `masf run CASE --work WORK --out OUT` to the end, asserting success.
pub fn run_case(case: &str, work: &Path, out: &Path) {
    masf_ok(&[
        "run",
        case,
        "--work",
        work.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
}

/// Runs `masf` and asserts success; returns stdout.
pub fn masf_ok(args: &[&str]) -> String {
    let out = masf(args);
    assert!(
        out.status.success(),
        "masf {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// The first field of `tool FILE` (sha256sum, md5sum).
pub fn oracle(tool: &str, file: &Path) -> String {
    let out = Command::new(tool)
        .arg(file)
        .output()
        .expect("oracle tool runs");
    assert!(out.status.success(), "{tool} failed");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .expect("digest")
        .to_string()
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The demo case cut down to `sources` (their ids in case.yaml), written as `dir/case.yaml` with
/// the evidence paths made absolute; returns its path. Tests of the store's mechanics (the run
/// lease, tampering, repair) need a case that runs, not every source of the demo: one source runs
/// in a second where the whole demo, OCR included, takes several.
pub fn demo_subset(dir: &Path, sources: &[&str]) -> String {
    let root = repo().canonicalize().unwrap();
    let text = std::fs::read_to_string(root.join("case.yaml")).unwrap();
    let (head, rest) = text
        .split_once("\nsources:\n")
        .expect("case.yaml lists sources");
    let mut out = format!("{head}\nsources:\n");
    let mut found = Vec::new();
    for block in rest
        .split_inclusive('\n')
        .fold(Vec::<String>::new(), |mut blocks, line| {
            if line.starts_with("  - id: ") || blocks.is_empty() {
                blocks.push(String::new());
            }
            blocks.last_mut().unwrap().push_str(line);
            blocks
        })
    {
        let id = block
            .strip_prefix("  - id: ")
            .and_then(|b| b.lines().next());
        if let Some(id) = id.filter(|id| sources.contains(&id.trim())) {
            found.push(id.trim().to_owned());
            out.push_str(&block.replace("    path: ", &format!("    path: {}/", root.display())));
        }
    }
    assert_eq!(
        found.len(),
        sources.len(),
        "{sources:?} are not all in case.yaml"
    );
    let case = dir.join("case.yaml");
    std::fs::write(&case, out).unwrap();
    case.to_str().unwrap().to_owned()
}

/// Deterministic pseudo-random bytes (xorshift), so tests need no RNG crate.
pub fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Content and modification time of a file, to prove evidence is untouched.
pub fn fingerprint(path: &Path) -> (Vec<u8>, std::time::SystemTime) {
    let content = std::fs::read(path).expect("read evidence");
    let mtime = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("mtime");
    (content, mtime)
}

fn s(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// The report with every id replaced by what it names, every list sorted: two runs of one case
/// compare equal through it, whatever order their ids were assigned in.
pub fn normalised(report: &Path) -> Value {
    let r: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    let entity: BTreeMap<String, String> = r["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                s(&e["id"]),
                format!("{}|{}", s(&e["source_ids"][0]), s(&e["context"])),
            )
        })
        .collect();
    let ents = regex::Regex::new(r"ent-\d{6,}").unwrap();
    let name_entities = |text: &str| {
        ents.replace_all(text, |c: &regex::Captures| entity[&c[0]].clone())
            .into_owned()
    };
    let mut phenomenon: BTreeMap<String, String> = BTreeMap::new();
    let mut phenomena: Vec<Value> = Vec::new();
    for p in r["phenomena"].as_array().unwrap() {
        let facts: Vec<Value> = p["verified_facts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| json!([f["type"], f["value"]]))
            .collect();
        let key = format!(
            "{}|{}|{}|{}|{}",
            s(&p["source_id"]),
            s(&p["agent"]),
            s(&p["category"]),
            name_entities(&s(&p["title"])),
            serde_json::to_string(&facts).unwrap()
        );
        phenomenon.insert(s(&p["id"]), key.clone());
        phenomena.push(json!([key, name_entities(&s(&p["interpretation"]))]));
    }
    let before = phenomena.len();
    phenomena.sort_by_key(|v| v.to_string());
    phenomena.dedup();
    assert_eq!(phenomena.len(), before, "a phenomenon was recorded twice");
    let mut hypotheses: Vec<Value> = r["hypotheses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let mut edges: Vec<Value> = h["edges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| json!([phenomenon[&s(&e["phenomenon_id"])], e["edge_type"]]))
                .collect();
            edges.sort_by_key(|v| v.to_string());
            // A coreference statement names its two entities in id order, which is recording
            // order: compare the pair as a set.
            let statement = if h["kind"] == "coreference" {
                let mut pair: Vec<String> = ents
                    .find_iter(&s(&h["statement"]))
                    .map(|m| entity[m.as_str()].clone())
                    .collect();
                pair.sort();
                format!("{pair:?} are the same actor")
            } else {
                name_entities(&s(&h["statement"]))
            };
            json!({
                "kind": h["kind"],
                "statement": statement,
                "status": h["status"],
                "confidence": format!("{:.9}", h["confidence"].as_f64().unwrap()),
                "distinct_sources": h["distinct_sources"],
                "edges": edges,
            })
        })
        .collect();
    hypotheses.sort_by_key(|v| v.to_string());
    let mut same_as: Vec<Value> = r["same_as"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let mut pair = [entity[&s(&l["a"])].clone(), entity[&s(&l["b"])].clone()];
            pair.sort();
            json!([pair, l["state"]])
        })
        .collect();
    same_as.sort_by_key(|v| v.to_string());
    let mut actors: Vec<Value> = r["actors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let mut members: Vec<String> = a["entity_ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| entity[&s(e)].clone())
                .collect();
            members.sort();
            json!(members)
        })
        .collect();
    actors.sort_by_key(|v| v.to_string());
    let mut timeline: Vec<Value> = r["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!([
                t["utc"],
                t["source_id"],
                t["raw"],
                t["encoding"],
                t["description"],
                phenomenon[&s(&t["phenomenon_id"])]
            ])
        })
        .collect();
    timeline.sort_by_key(|v| v.to_string());
    let mut not_read: Vec<Value> = r["not_read"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| json!([n["source_id"], n["what"], n["reason"]]))
        .collect();
    not_read.sort_by_key(|v| v.to_string());
    json!({
        "phenomena": phenomena,
        "hypotheses": hypotheses,
        "same_as": same_as,
        "actors": actors,
        "timeline": timeline,
        "not_read": not_read,
    })
}

/// Starts `case_validate --built-version case-1.5.0 FILE` (PyPI case-utils, in the venv
/// `scripts/setup.sh` makes at `target/py-oracles`, or `MASF_PY_ORACLES`) as a child process, so
/// a test can go on while the ontology check runs; [`case_conforms`] waits for it.
pub fn case_validate(file: &Path) -> std::process::Child {
    let bin = masf_testkit::corpus::py_oracle("case_validate", "case-utils");
    std::process::Command::new(bin)
        .args(["--built-version", "case-1.5.0"])
        .arg(file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for a [`case_validate`] child and fails the test unless it reports `Conforms: True`.
pub fn case_conforms(child: std::process::Child) {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("Conforms: True"),
        "case_validate: {}\n{}",
        text.chars().take(4000).collect::<String>(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Renders `html` in headless Chromium (Debian's `chromium-headless-shell`, installed by
/// `scripts/setup.sh`) at a 1280 × 900 window, the first screen an examiner sees, and saves
/// the screenshot to `png`; returns the text Tesseract reads in it (`tesseract` CLI, English).
/// Chromium runs with its own throw-away profile and without its sandbox (the tests may run as
/// root, where the sandbox refuses to start); the page is a local file without script.
pub fn first_screen_text(html: &Path, png: &Path) -> String {
    let browser = ["chromium-headless-shell", "chromium"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .expect("no headless Chromium: run scripts/setup.sh (it installs chromium-headless-shell)");
    let profile = tempfile::tempdir().unwrap();
    let shot = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .args([
            "--window-size=1280,900",
            "--no-first-run",
            "--no-default-browser-check",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(
        shot.status.success() && png.exists(),
        "{browser} made no screenshot of {}: {}",
        html.display(),
        String::from_utf8_lossy(&shot.stderr)
    );
    let ocr = Command::new("tesseract")
        .arg(png)
        .args(["-", "-l", "eng"])
        .output()
        .unwrap();
    assert!(
        ocr.status.success(),
        "tesseract: {}",
        String::from_utf8_lossy(&ocr.stderr)
    );
    String::from_utf8(ocr.stdout).unwrap()
}
