//! No module imports one that imports it back, directly or around a loop (issue 22), in any
//! crate of the workspace: the api (`compose` is the root every phase composes from, `check`
//! the consistency gate, `triage` → `resolve`, `repair` → `intake` → `report` one way), the
//! agents (`session` keeps the record of a model call, `llm_call`, without the client, `llm`,
//! that uses the session), the graph (`scoring` owns the hypothesis kinds it has priors for,
//! `resolution` the identifier table that says a type's strength), and every other crate.
//!
//! Read from the sources: a crate's modules are its `src/<name>.rs` files and `src/<name>/`
//! folders (a folder's files are one module); a module imports another when its code (comment
//! lines, doc links included, are not code) names `crate::<other>`, directly or in a
//! `crate::{…}` group. A loop is a strongly connected set of two or more modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Loops not broken yet: none is left (the last four — evidence `probe`/`volume`, plugins
/// `android`/`disk` and `identity`/`util`, the shell's `commands`/`ipc` — were broken by moving
/// what both sides needed into a module of its own). A loop that has to stay while it is
/// broken is listed here as `(crate dir, [modules])`, and the test fails when it is gone.
const KNOWN: &[(&str, &[&str])] = &[];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// A crate's top-level modules and the files of each.
fn modules(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for e in std::fs::read_dir(src).unwrap().flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            out.entry(name).or_default().extend(files);
        } else if let Some(stem) = name.strip_suffix(".rs")
            && stem != "lib"
            && stem != "main"
        {
            out.entry(stem.to_string()).or_default().push(path);
        }
    }
    out
}

/// The first path segment of each path a `crate::` at the start of `rest` names: `crate::a::b`
/// gives `a`; `crate::{a::x, b, c::{y, z}}` gives `a`, `b`, `c`.
fn first_segments(rest: &str) -> Vec<String> {
    let word = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(group) = rest.strip_prefix('{') else {
        return vec![word(rest)];
    };
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(word(&group[start..i]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(word(&group[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// The other modules of `modules` that the files of one module import.
fn imports(files: &[PathBuf], modules: &BTreeMap<String, Vec<PathBuf>>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (i, _) in code.match_indices("crate::") {
            // `masf_crate::` or `a_crate::` is another path, not this crate
            if code[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                continue;
            }
            for name in first_segments(&code[i + "crate::".len()..]) {
                if modules.contains_key(&name) {
                    out.insert(name);
                }
            }
        }
    }
    out
}

/// The loops of a module graph: its strongly connected sets of two or more modules (Tarjan),
/// each sorted.
fn loops(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    set.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.out.push(set);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.out.sort();
    walk.out
}

/// Each crate's module graph, by the crate's folder (`crates/api`, `src-tauri`).
fn graphs() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let root = workspace();
    let mut crates: Vec<String> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("src").is_dir())
        .map(|e| format!("crates/{}", e.file_name().to_string_lossy()))
        .collect();
    crates.push("src-tauri".to_string());
    crates
        .into_iter()
        .map(|c| {
            let mods = modules(&root.join(&c).join("src"));
            let graph = mods
                .iter()
                .map(|(m, files)| {
                    let mut deps = imports(files, &mods);
                    deps.remove(m);
                    (m.clone(), deps)
                })
                .collect();
            (c, graph)
        })
        .collect()
}

#[test]
fn no_module_imports_one_that_imports_it_back_in_any_crate() {
    let graphs = graphs();
    assert!(graphs.len() >= 11, "read the crates: {:?}", graphs.keys());
    assert!(
        graphs["crates/api"].len() >= 10,
        "{:?}",
        graphs["crates/api"]
    );
    let mut found: Vec<(String, Vec<String>)> = Vec::new();
    for (c, graph) in &graphs {
        for set in loops(graph) {
            found.push((c.clone(), set));
        }
    }
    let known: Vec<(String, Vec<String>)> = KNOWN
        .iter()
        .map(|(c, set)| (c.to_string(), set.iter().map(|s| s.to_string()).collect()))
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|f| !known.contains(f))
        .map(|(c, set)| {
            let edges: Vec<String> = set
                .iter()
                .map(|m| {
                    let to: Vec<&str> = graphs[c][m]
                        .iter()
                        .filter(|d| set.contains(d))
                        .map(String::as_str)
                        .collect();
                    format!("{m} → {}", to.join(", "))
                })
                .collect();
            format!("{c}: {{{}}} ({})", set.join(", "), edges.join("; "))
        })
        .collect();
    assert!(new.is_empty(), "module loops:\n{}", new.join("\n"));
    let gone: Vec<&(String, Vec<String>)> = known.iter().filter(|k| !found.contains(k)).collect();
    assert!(
        gone.is_empty(),
        "known loops no longer there (remove them from KNOWN): {gone:?}"
    );
}

#[test]
fn the_edges_that_matter_stay_one_way() {
    let graphs = graphs();
    let api = &graphs["crates/api"];
    // the resolver planner lives in the agents crate beside the ownership planner: triage
    // and resolve (links, decisions, actors) no longer reach each other
    assert!(!api["triage"].contains("resolve") && !api["resolve"].contains("triage"));
    assert!(api["triage"].contains("compose") && api["resolve"].contains("compose"));
    let agents = &graphs["crates/agents"];
    assert!(agents["llm"].contains("session") && !agents["session"].contains("llm"));
    assert!(agents["session"].contains("llm_call"));
    assert!(agents["resolver"].contains("orchestrator") && !agents["session"].contains("resolver"));
    let graph = &graphs["crates/graph"];
    assert!(graph["model"].contains("scoring") && !graph["scoring"].contains("model"));
    assert!(graph["resolution"].contains("identifiers"));
    assert!(
        !graph["identifiers"].contains("resolution") && !graph["identifiers"].contains("model")
    );
}

#[test]
fn a_loop_is_found_and_named() {
    // The detector itself, on a made-up graph: a → b → c → a and d → a, e alone.
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", &["b"][..]),
        ("b", &["c"]),
        ("c", &["a"]),
        ("d", &["a"]),
        ("e", &[]),
    ]
    .iter()
    .map(|(m, d)| (m.to_string(), d.iter().map(|s| s.to_string()).collect()))
    .collect();
    assert_eq!(loops(&g), vec![vec!["a", "b", "c"]]);
    assert_eq!(first_segments("{a::x, b, c::{y, z}} rest"), ["a", "b", "c"]);
    assert_eq!(first_segments("model::FactType;"), ["model"]);
}
